"""A crash-safe output store: a game's output folder is replaced whole or not at all.

Layout (what users see does not change: ``OUT/<game>/<game>-<paper>.pdf``, ``svg/``, ``cut/``, ...)::

    OUT/<game>                              symlink made by pnp, relative: ".pnp/<game>.g<N>"
    OUT/.pnp/<game>.g<N>/                   generation N: a complete game folder, never changed once published
    OUT/.pnp/<game>.lock                    flock: one writer per game folder (holds the writer's pid)
    OUT/.pnp/<game>.stage.<pid>.<token>/    staging: the new kit's files, written by the caller
    OUT/.pnp/<game>.link.<pid>.<token>      temporary symlink, renamed over OUT/<game>

A commit builds generation N+1 next to N: it creates the folders, hard-links every file of N that the
new kit does not own plus every staged file (copying where hard links are not supported), fsyncs files
and folders, then renames a temporary symlink over ``OUT/<game>``. That rename is the commit point:
before it ``OUT/<game>`` is generation N, untouched; after it, N+1. Generation N is then removed
(unless a reader holds it, see :func:`read_only_view`). Anything a killed process leaves in
``OUT/.pnp`` is removed by :func:`clean_stale`, which every :class:`KitStore` runs on entry.

Only symlinks made by pnp are followed. ``OUT/<game>`` pointing anywhere else, ``OUT/<game>`` being
anything but pnp's symlink (a plain folder, a file), a symlink in the staging folder, or ``OUT/.pnp``
not being a plain folder is refused with an OutputError and nothing is changed; symlinks
found inside a game folder are carried over as links (never followed) or dropped when the new kit
owns them; nothing outside OUT is written or deleted.

The code is split by concern: pnp.store.fs holds the low-level file-system helpers (names in
``OUT/.pnp``, fsync, removal and walks that never follow symlinks), and
pnp.store.recovery reads the current generation and cleans up (:func:`current_generation`,
:func:`read_only_view`, :func:`clean_stale`). This module holds :class:`KitStore` and re-exports the
public names.
"""
from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path
from typing import Callable

from ..core.errors import OutputError
from .fs import (
    _CLOEXEC, _ENTRY, GAME_NAME, STORE_DIR, _ancestors, _check_game, _check_rel, _ensure_out, _fsync_path,
    _put, _remove, _remove_generation, _store_dir, _walk)
from .lock import stderr_note, wait_for_lock, write_pid
from .recovery import _clean, _current, _Current, _refuse_unmade, clean_stale, current_generation, read_only_view

__all__ = ["KitStore", "clean_stale", "read_only_view", "current_generation", "STORE_DIR", "GAME_NAME"]

GEN_LIMIT = 1_000_000
"""Generation numbers run 1..GEN_LIMIT and then start again at 1, skipping any still on disk (a
folder that could not be deleted never pushes the number up without bound)."""
_KIND_WORDS = {"file": "a file", "link": "a symbolic link", "other": "a special file", "dir": "a folder"}


# ----------------------------------------------------------------------------------------------------
# The store
# ----------------------------------------------------------------------------------------------------

class KitStore:
    """Exclusive, crash-safe writer of one game folder ``OUT/<game>``.

    Usage::

        with KitStore(out, game, wait=5) as store:
            staged = store.staging()
            ... write the kit's files under staged (relative paths as in OUT/<game>) ...
            store.commit(staged, owns=lambda rel: rel.startswith(...))

    While it waits up to ``wait`` seconds for another build's lock, ``on_wait(message)`` is called
    after NOTE_FIRST seconds and then every NOTE_EVERY seconds with a line saying who holds the lock
    (its process id, read from the lock file, and whether it is stopped) and how long it has waited;
    the default prints it on stderr as a note.

    Raises:
        OutputError: bad game name, OUT not a folder or not writable, OUT/<game> anything but a
            symlink pnp made (a foreign symlink, a plain folder, a file), OUT/.pnp not a plain folder, the game folder busy, or a failed commit.
    """
    NOTE_FIRST = 1.0
    NOTE_EVERY = 5.0

    def __init__(self, out: Path, game: str, wait: float = 0.0,
                 on_wait: Callable[[str], None] | None = None) -> None:
        _check_game(game)
        self.out = Path(out)
        self.game = game
        self.wait = max(0.0, float(wait))
        self.on_wait = on_wait if on_wait is not None else stderr_note
        _ensure_out(self.out)
        self.link = self.out / game
        self.store = self.out / STORE_DIR
        self._lock_fd: int | None = None
        self._staged: list[Path] = []
        self._committed: set[Path] = set()

    # -- locking -------------------------------------------------------------------------------------

    def __enter__(self) -> "KitStore":
        if self._lock_fd is not None:
            raise RuntimeError("KitStore is already entered")
        _refuse_unmade(self.out, self.game)      # before OUT/.pnp or a lock file is made: nothing written
        store = _store_dir(self.out)
        lock = store / f"{self.game}.lock"
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | _CLOEXEC, 0o644)
        except OSError as exc:
            raise OutputError(f"cannot write to the output folder: {exc.strerror or exc}.", file=self.out,
                              field="--out", hint="choose a writable folder with --out") from None
        try:
            wait_for_lock(fd, self.link, self.wait, self.on_wait, self.NOTE_FIRST, self.NOTE_EVERY)
        except BaseException:
            os.close(fd)
            raise
        write_pid(fd)
        self._lock_fd = fd
        try:
            _current(self.out, self.game)        # refuse a foreign OUT/<game> before any work is done
            _clean(self.out, held=self.game)
        except BaseException:
            self._release()
            raise
        return self

    def _release(self) -> None:
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            os.close(fd)

    def _require_lock(self) -> None:
        if self._lock_fd is None:
            raise RuntimeError("use KitStore in a `with` block")

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            for path in self._staged:
                _remove(path)
            self._staged.clear()
        finally:
            self._release()

    # -- staging and commit --------------------------------------------------------------------------

    def staging(self) -> Path:
        """A fresh empty folder inside OUT/.pnp for the new kit's files (removed again on exit)."""
        self._require_lock()
        path = self.store / f"{self.game}.stage.{os.getpid()}.{secrets.token_hex(6)}"
        try:
            os.mkdir(path)
        except OSError as exc:
            raise self._write_error(exc) from None
        self._staged.append(path)
        return path

    def commit(self, staged: Path, owns: Callable[[str], bool]) -> None:
        """Publish a new generation of OUT/<game>: the current one minus the files ``owns(relpath)``
        claims (the kit being replaced), plus every staged file (a staged file also replaces an
        unowned file of the same path). ``owns`` is asked about every entry that is not a folder
        (files, and symlinks a user put there), with a posix path relative to OUT/<game>; folders left
        empty by dropped files are removed. All or nothing: on any error OUT/<game> is unchanged.
        The rename of the new symlink over OUT/<game> is the commit point; errors after it (tidying
        up) are not raised, their leftovers are removed by the next clean_stale.

        Raises:
            OutputError: a staged symlink or special file, a file or folder in the way of the new
                kit, or an OSError while writing (disk full, permissions, ...).
            ValueError: ``staged`` is not an uncommitted folder from this store's staging().
        """
        self._require_lock()
        staged = Path(staged)
        if staged not in self._staged or staged in self._committed:
            raise ValueError("commit() takes a folder from this KitStore's staging(), once")
        try:
            if not stat.S_ISDIR(os.lstat(staged).st_mode):
                raise OutputError(f"the staging folder {staged} was replaced by a link or file.", file=staged,
                                  field="--out", hint="this is a bug in pnp; please report it")
            new_files, new_dirs = _walk(staged)
        except OSError as exc:
            raise self._write_error(exc) from None
        for rel, kind in sorted(new_files.items()):
            _check_rel(rel)
            if kind != "file":
                raise OutputError(f"the new kit's {rel} is {_KIND_WORDS[kind]}; only plain files are published.",
                                  file=self.link / rel, field="--out", hint="this is a bug in pnp; please report it")
        try:
            cur = _current(self.out, self.game)
            old_entries, old_dirs = _walk(cur.path) if cur.path is not None else ({}, set())
        except OSError as exc:
            raise self._write_error(exc) from None
        kept = {rel: kind for rel, kind in old_entries.items() if rel not in new_files and not owns(rel)}

        # folders of the new generation: the staged ones, those holding kept entries, and empty ones
        nonempty = {a for rel in [*old_entries, *old_dirs] for a in _ancestors(rel)}
        dirs = set(new_dirs) | (old_dirs - nonempty)
        for rel in [*new_files, *kept, *list(dirs)]:
            dirs.update(_ancestors(rel))
        for rel in sorted(dirs & (new_files.keys() | kept.keys())):
            # a staged file where a folder with unowned content stands, or an unowned file/link where
            # the new kit needs a folder (never written through, never dropped silently)
            need, have = ("a file", "a folder") if rel in new_files else ("a folder", _KIND_WORDS[kept[rel]])
            raise OutputError(f"{self.link / rel} is in the way: the new kit needs {need} there, but it is {have}.",
                              file=self.link / rel, field="--out",
                              hint="move it out of the game folder and build again (nothing was changed)")

        gen = self._next_gen(cur)
        new = self.store / f"{self.game}.g{gen}"
        target = f"{STORE_DIR}/{self.game}.g{gen}"
        tmp_link: Path | None = None
        swapped = False
        created = False
        try:
            os.mkdir(new)
            created = True
            for rel in sorted(dirs, key=lambda r: (r.count("/"), r)):
                os.mkdir(new / rel)
            for rel in new_files:
                _put(staged / rel, new / rel, "file")
            for rel, kind in kept.items():
                _put(cur.path / rel, new / rel, kind)
            files = [rel for rel in new_files] + [rel for rel, kind in kept.items() if kind == "file"]
            for rel in files:
                _fsync_path(new / rel)
            for rel in sorted(dirs, key=lambda r: -r.count("/")):
                _fsync_path(new / rel, directory=True)
            _fsync_path(new, directory=True)
            _fsync_path(self.store, directory=True)
            tmp_link = self.store / f"{self.game}.link.{os.getpid()}.{secrets.token_hex(6)}"
            os.symlink(target, tmp_link)
            os.replace(tmp_link, self.link)                # the commit point
            tmp_link = None
            swapped = True
        except OSError as exc:
            if not swapped:
                if tmp_link is not None:
                    _remove(tmp_link)
                if created:
                    _remove(new)
                raise self._write_error(exc) from None
        self._committed.add(staged)
        # committed; what follows only tidies up (leftovers are removed by the next clean_stale).
        # OUT is synced so that the new link is on disk before the old generation is deleted. OUT/.pnp
        # is not synced again (it was before the rename, with the new generation in it): all the rename
        # changed there is the temporary link's name leaving, and a temporary link a crash brings back
        # is a leftover clean_stale removes; the old generation's removal may be lost the same way.
        try:
            _fsync_path(self.out, directory=True)
        except OSError:
            return
        if cur.path is not None:
            _remove_generation(cur.path)
        _remove(staged)

    def _next_gen(self, cur: _Current) -> int:
        """The number after the current one, from 1 to GEN_LIMIT and round again, that no entry in
        OUT/.pnp uses (a generation that could not be deleted is skipped, never overwritten).

        Raises:
            OutputError: every number is taken (GEN_LIMIT folders that cannot be deleted).
        """
        taken = {cur.gen}
        try:
            for name in os.listdir(self.store):
                m = _ENTRY.match(name)
                if m and m["game"] == self.game and m["gen"]:
                    taken.add(int(m["gen"]))
        except OSError as exc:
            raise self._write_error(exc) from None
        n = cur.gen % GEN_LIMIT
        for _ in range(GEN_LIMIT):
            n = n % GEN_LIMIT + 1
            if n not in taken:
                return n
        raise OutputError(f"{self.store} holds {GEN_LIMIT:,} generations of {self.game} that could not be deleted.",
                          file=self.store, field="--out", hint="delete OUT/.pnp (pnp rebuilds it) or choose another --out")

    def _write_error(self, exc: OSError) -> OutputError:
        code = exc.errno
        if code in (errno.ENOSPC, errno.EDQUOT):
            hint = "free some disk space and build again"
        elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
            hint = "check that you may write to the output folder, or choose another with --out"
        elif code in (errno.EISDIR, errno.ENOTDIR, errno.EEXIST, errno.ENOTEMPTY):
            hint = f"a file or folder is in the way in {self.out}; move it and build again"
        else:
            hint = "check the output folder and build again"
        reason = exc.strerror or str(exc) or type(exc).__name__
        return OutputError(f"could not write the kit: {reason[:1].lower()}{reason[1:]}; the previous kit is unchanged.",
                           file=self.link, field="--out", hint=hint)

