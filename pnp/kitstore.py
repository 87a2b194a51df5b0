"""A crash-safe output store: a game's output folder is replaced whole or not at all.

Layout (what users see does not change: ``OUT/<game>/<game>-<paper>.pdf``, ``svg/``, ``cut/``, ...)::

    OUT/<game>                              symlink made by pnp, relative: ".pnp/<game>.g<N>"
    OUT/.pnp/<game>.g<N>/                   generation N: a complete game folder, never changed once published
    OUT/.pnp/<game>.lock                    flock: one writer per game folder (holds the writer's pid)
    OUT/.pnp/<game>.stage.<pid>.<token>/    staging: the new kit's files, written by the caller
    OUT/.pnp/<game>.link.<pid>.<token>      temporary symlink, renamed over OUT/<game>
    OUT/.pnp/<game>.legacy                  an old plain OUT/<game> folder while it is being adopted

A commit builds generation N+1 next to N: it creates the folders, hard-links every file of N that the
new kit does not own plus every staged file (copying where hard links are not supported), fsyncs files
and folders, then renames a temporary symlink over ``OUT/<game>``. That rename is the commit point:
before it ``OUT/<game>`` is generation N, untouched; after it, N+1. Generation N is then removed
(unless a reader holds it, see :func:`read_only_view`). Anything a killed process leaves in
``OUT/.pnp`` is removed by :func:`clean_stale`, which every :class:`KitStore` runs on entry.

A plain ``OUT/<game>`` folder from an older pnp is adopted by the first commit: its files are
hard-linked into the first generation, then the folder and a symlink swap names in one
``renameat2(RENAME_EXCHANGE)`` call (Linux). Where that call is not supported the folder is renamed
to ``.pnp/<game>.legacy`` and the symlink created: a crash between the two leaves ``OUT/<game>``
missing for a moment and the next KitStore renames the old folder back. Nothing is lost either way.

Only symlinks made by pnp are followed. ``OUT/<game>`` pointing anywhere else, a symlink in the
staging folder, or ``OUT/.pnp`` not being a plain folder is refused with an OutputError; symlinks
found inside a game folder are carried over as links (never followed) or dropped when the new kit
owns them; nothing outside OUT is written or deleted.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import secrets
import shutil
import stat
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .errors import OutputError

__all__ = ["KitStore", "clean_stale", "read_only_view", "current_generation", "STORE_DIR", "GAME_NAME"]

STORE_DIR = ".pnp"
GAME_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")
_ENTRY = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]{0,40})\.(?:"
                    r"g(?P<gen>[0-9]{1,18})"
                    r"|(?P<kind>stage|link)\.(?P<pid>[0-9]{1,10})\.(?P<token>[0-9a-f]{1,32})"
                    r"|(?P<legacy>legacy)"
                    r"|(?P<lock>lock))$")
_POLL = 0.05
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NO_LINK = {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP}
_NO_EXCHANGE = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _load_renameat2():
    if not sys.platform.startswith("linux"):
        return None
    try:
        func = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):
        return None
    func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    func.restype = ctypes.c_int
    return func


_RENAMEAT2 = _load_renameat2()


def _exchange(a: Path, b: Path) -> None:
    """Swap the names ``a`` and ``b`` in one step (Linux renameat2 RENAME_EXCHANGE).

    Raises:
        OSError: ENOSYS/EINVAL where the system or file system cannot do it, or any rename error.
    """
    if _RENAMEAT2 is None:
        raise OSError(errno.ENOSYS, os.strerror(errno.ENOSYS), str(a))
    if _RENAMEAT2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(a), None, str(b))


# ----------------------------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------------------------

def _check_game(game: str) -> None:
    if not isinstance(game, str) or not GAME_NAME.match(game):
        raise OutputError(f"game name {game!r} cannot be used as a folder name.", field="game",
                          hint="use 1-41 lower-case letters, digits, - and _, starting with a letter or digit")


def _ensure_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputError("output path is a file, not a folder.", file=out, field="--out",
                          hint="give a folder with --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the output folder: {exc.strerror or exc}.", file=out, field="--out",
                          hint="choose a writable folder with --out") from None


def _store_dir(out: Path) -> Path:
    """OUT/.pnp, created if missing; refused if it is a symlink or not a folder."""
    store = out / STORE_DIR
    try:
        st = os.lstat(store)
    except FileNotFoundError:
        try:
            os.mkdir(store)
        except FileExistsError:
            pass
        except OSError as exc:
            raise OutputError(f"cannot write to the output folder: {exc.strerror or exc}.", file=out,
                              field="--out", hint="choose a writable folder with --out") from None
        st = os.lstat(store)
    if not stat.S_ISDIR(st.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a folder"
        raise OutputError(f"{store} is {what}; pnp keeps its kit generations in a plain folder there.",
                          file=store, field="--out",
                          hint="remove it (pnp never writes through a link it did not make) or choose another --out")
    return store


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return True
    return True


def _remove(path: Path) -> bool:
    """Delete ``path``: a real folder with everything in it, anything else (a symlink too) unlinked.
    Never follows a symlink. True if it is gone."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(path, ignore_errors=True)   # fd-based on Linux: symlinks inside are unlinked
        else:
            os.unlink(path)
    except OSError:
        pass
    return not os.path.lexists(path)


def _remove_generation(path: Path) -> bool:
    """Delete a generation folder unless a reader holds it (read_only_view's shared lock)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            return _remove(path)      # a symlink or file squatting on a generation name: unlinked
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False              # a reader is looking at it; a later clean_stale removes it
        return _remove(path)
    finally:
        os.close(fd)


def _fsync_path(path: Path, directory: bool = False) -> None:
    flags = os.O_RDONLY | _CLOEXEC | (os.O_DIRECTORY if directory else os.O_NOFOLLOW)
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _walk(root: Path) -> tuple[dict[str, str], set[str]]:
    """Every entry under ``root`` without following symlinks: ({relpath: 'file'|'link'|'other'}, {dir relpaths})."""
    entries: dict[str, str] = {}
    dirs: set[str] = set()
    stack = [("", root)]
    while stack:
        rel, path = stack.pop()
        with os.scandir(path) as it:
            for entry in it:
                r = f"{rel}/{entry.name}" if rel else entry.name
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    dirs.add(r)
                    stack.append((r, Path(entry.path)))
                elif stat.S_ISLNK(mode):
                    entries[r] = "link"
                elif stat.S_ISREG(mode):
                    entries[r] = "file"
                else:
                    entries[r] = "other"
    return entries, dirs


def _check_rel(rel: str) -> None:
    parts = rel.split("/")
    if rel.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\x00" in rel:
        raise OutputError(f"refusing to write {rel!r}: not a plain path inside the game folder.", field="--out",
                          hint="this is a bug in pnp; please report it")


def _ancestors(rel: str) -> Iterator[str]:
    parts = rel.split("/")
    for i in range(1, len(parts)):
        yield "/".join(parts[:i])


_KIND_WORDS = {"file": "a file", "link": "a symbolic link", "other": "a special file", "dir": "a folder"}


@dataclass(frozen=True)
class _Current:
    kind: str                # "none" | "legacy" (plain folder from an older pnp) | "gen"
    path: Path | None        # the folder holding the current files; None if there are none
    gen: int = 0


def _foreign(link: Path, target: str) -> OutputError:
    return OutputError(f"{link} is a symbolic link to {target} that pnp did not make; "
                       f"pnp does not write through it.", file=link, field="--out",
                       hint="remove the link (the folder it points to is left alone) or choose another folder with --out")


def _current(out: Path, game: str) -> _Current:
    """What OUT/<game> is now. Raises OutputError for a foreign symlink or a file."""
    link = out / game
    try:
        st = os.lstat(link)
    except FileNotFoundError:
        return _Current("none", None)
    if stat.S_ISDIR(st.st_mode):
        return _Current("legacy", link)
    if not stat.S_ISLNK(st.st_mode):
        raise OutputError("output path is a file, not a folder.", file=link, field="--out",
                          hint="move it away or choose another folder with --out")
    target = os.readlink(link)
    m = re.fullmatch(rf"{re.escape(STORE_DIR)}/{re.escape(game)}\.g([0-9]{{1,18}})", target)
    if not m:
        raise _foreign(link, target)
    gen = int(m[1])
    gen_dir = out / STORE_DIR / f"{game}.g{m[1]}"
    try:
        gst = os.lstat(gen_dir)
    except FileNotFoundError:
        return _Current("gen", None, gen)       # pnp's link, but its generation was deleted by hand
    if not stat.S_ISDIR(gst.st_mode) or stat.S_ISLNK(os.lstat(out / STORE_DIR).st_mode):
        raise _foreign(link, f"{target} (itself not a plain folder)")
    return _Current("gen", gen_dir, gen)


def current_generation(out: Path, game: str) -> Path | None:
    """The folder OUT/<game> currently shows (a generation, or an old plain folder), None if none.

    Raises:
        OutputError: OUT/<game> is a symlink pnp did not make, or a file.
    """
    _check_game(game)
    return _current(Path(out), game).path


# ----------------------------------------------------------------------------------------------------
# Readers
# ----------------------------------------------------------------------------------------------------

@contextmanager
def read_only_view(out: Path, game: str) -> Iterator[Path]:
    """Yield the folder of the current generation of OUT/<game>; it stays complete and in place until
    the ``with`` block ends, even if builds commit new generations meanwhile (readers never block
    writers: the old generation is removed later by clean_stale). Read, do not write, through it.

    Opening ``OUT/<game>/<file>`` directly is also safe file by file (the symlink is resolved at open);
    use this view to read several files of one kit consistently. An old plain folder (never built by
    this pnp) is yielded as is, without that guarantee.

    Raises:
        OutputError: no kit has been built for the game, or OUT/<game> is not pnp's.
    """
    out = Path(out)
    _check_game(game)
    for _ in range(1000):
        try:
            cur = _current(out, game)
            if cur.kind == "gen" and cur.path is None and _current(out, game) != cur:
                continue                         # read the link just before a commit replaced it
        except FileNotFoundError:
            continue
        if cur.path is None:
            raise OutputError(f"no kit has been built for {game} in this output folder yet.", file=out / game,
                              field="--out", hint=f"run `pnp build {game}` first")
        if cur.kind == "legacy":
            yield cur.path
            return
        try:
            fd = os.open(cur.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)       # waits only while a writer is deleting this very folder
            try:
                still = _current(out, game)
                same = still == cur and os.path.samestat(os.fstat(fd), os.lstat(cur.path))
            except FileNotFoundError:
                same = False
            if same:
                yield cur.path
                return
        finally:
            os.close(fd)
        time.sleep(0.001)
    raise OutputError(f"{out / game} keeps changing while it is being read.", file=out / game, field="--out",
                      hint="try again when the build has finished")


# ----------------------------------------------------------------------------------------------------
# Cleaning
# ----------------------------------------------------------------------------------------------------

def clean_stale(out: Path) -> list[Path]:
    """Remove what dead or finished pnp processes left in OUT/.pnp: staging folders, temporary links,
    generations no longer shown, and a half-adopted old folder (put back as OUT/<game> if that is
    missing). A game another process is writing (its lock is held) is left alone, except staging
    folders whose process is dead. Unknown names and symlinks' targets are never touched.

    Returns:
        The paths removed.
    """
    return _clean(Path(out), held=None)


def _clean(out: Path, held: str | None) -> list[Path]:
    store = out / STORE_DIR
    try:
        if not stat.S_ISDIR(os.lstat(store).st_mode):
            return []
        names = os.listdir(store)
    except OSError:
        return []
    by_game: dict[str, list[re.Match]] = {}
    for name in names:
        m = _ENTRY.match(name)
        if m and not m["lock"]:
            by_game.setdefault(m["game"], []).append(m)
    removed: list[Path] = []
    for game, entries in sorted(by_game.items()):
        if game == held:
            removed += _clean_game(out, game, entries, locked=True)
            continue
        fd = None
        try:
            fd = os.open(store / f"{game}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | _CLOEXEC, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = True
        except OSError:
            locked = False
        try:
            removed += _clean_game(out, game, entries, locked)
        finally:
            if fd is not None:
                os.close(fd)
    return removed


def _clean_game(out: Path, game: str, entries: list[re.Match], locked: bool) -> list[Path]:
    store = out / STORE_DIR
    link = out / game
    removed: list[Path] = []
    if locked and any(m["legacy"] for m in entries):
        legacy = store / f"{game}.legacy"
        try:
            lst = os.lstat(legacy)
            if not stat.S_ISDIR(lst.st_mode):
                if _remove(legacy):             # a temporary link from an adoption that did not happen
                    removed.append(legacy)
            elif not os.path.lexists(link):
                os.rename(legacy, link)         # adoption interrupted between its two renames: put it back
                _fsync_path(out, directory=True)
            elif stat.S_ISLNK(os.lstat(link).st_mode) and _current(out, game).kind == "gen":
                if _remove(legacy):             # adopted: all it held is in the current generation
                    removed.append(legacy)
        except (OSError, OutputError):
            pass
    try:
        cur: _Current | None = _current(out, game)
    except (OSError, OutputError):
        cur = None                              # foreign or unreadable: keep every generation
    synced = False
    for m in entries:
        path = store / m.string
        if m["kind"]:
            if locked or not _alive(int(m["pid"])):
                if _remove(path):
                    removed.append(path)
        elif m["gen"] and locked and cur is not None and not (cur.kind == "gen" and int(m["gen"]) == cur.gen):
            if not synced:                      # make sure the link to the current generation is on disk
                try:
                    _fsync_path(out, directory=True)
                except OSError:
                    break
                synced = True
            if _remove_generation(path):
                removed.append(path)
    return removed


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

    Raises:
        OutputError: bad game name, OUT not a folder or not writable, OUT/<game> a symlink pnp did not
            make, OUT/.pnp not a plain folder, the game folder busy, or a failed commit.
    """

    def __init__(self, out: Path, game: str, wait: float = 0.0) -> None:
        _check_game(game)
        self.out = Path(out)
        self.game = game
        self.wait = max(0.0, float(wait))
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
        store = _store_dir(self.out)
        lock = store / f"{self.game}.lock"
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | _CLOEXEC, 0o644)
        except OSError as exc:
            raise OutputError(f"cannot write to the output folder: {exc.strerror or exc}.", file=self.out,
                              field="--out", hint="choose a writable folder with --out") from None
        deadline = time.monotonic() + self.wait
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise self._busy(fd) from None
                    time.sleep(min(_POLL, left))
                except OSError as exc:
                    raise OutputError(f"cannot lock the output folder: {exc.strerror or exc}.", file=self.link,
                                      field="--out", hint="use a local folder for --out") from None
        except BaseException:
            os.close(fd)
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass
        self._lock_fd = fd
        try:
            _current(self.out, self.game)        # refuse a foreign OUT/<game> before any work is done
            _clean(self.out, held=self.game)
        except BaseException:
            self._release()
            raise
        return self

    def _busy(self, fd: int) -> OutputError:
        try:
            pid = int(os.pread(fd, 32, 0).decode().strip())
            who = f" (process {pid})"
        except (OSError, ValueError):
            who = ""
        return OutputError(f"{self.link} is busy: another pnp build is writing it{who}.", file=self.link,
                           field="--out", hint="wait for that build to finish, or use another folder with --out")

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
            if cur.kind == "legacy":
                self._swap_legacy(target)
            else:
                tmp_link = self.store / f"{self.game}.link.{os.getpid()}.{secrets.token_hex(6)}"
                os.symlink(target, tmp_link)
                os.replace(tmp_link, self.link)            # the commit point
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
        # committed; what follows only tidies up (leftovers are removed by the next clean_stale)
        try:
            _fsync_path(self.out, directory=True)
            _fsync_path(self.store, directory=True)
        except OSError:
            return
        if cur.kind == "legacy":
            _remove(self.store / f"{self.game}.legacy")
        elif cur.path is not None:
            _remove_generation(cur.path)
        _remove(staged)

    def _swap_legacy(self, target: str) -> None:
        """Replace the old plain folder OUT/<game> by the symlink ``target``; the folder ends up as
        OUT/.pnp/<game>.legacy. Raises OSError with OUT/<game> as before (or, if even the undo failed,
        missing and recoverable by the next KitStore)."""
        legacy = self.store / f"{self.game}.legacy"
        os.symlink(target, legacy)
        try:
            _exchange(legacy, self.link)                  # the commit point, where supported
            return
        except OSError as exc:
            if exc.errno not in _NO_EXCHANGE:
                _remove(legacy)                           # if this fails too, clean_stale unlinks it
                raise
        os.unlink(legacy)
        os.rename(self.link, legacy)                      # OUT/<game> missing until the next line
        try:
            os.symlink(target, self.link)                 # the commit point, elsewhere
        except OSError:
            try:
                os.rename(legacy, self.link)
            except OSError:
                pass                                      # the next KitStore puts it back
            raise

    def _next_gen(self, cur: _Current) -> int:
        n = cur.gen
        try:
            for name in os.listdir(self.store):
                m = _ENTRY.match(name)
                if m and m["game"] == self.game and m["gen"]:
                    n = max(n, int(m["gen"]))
        except OSError:
            pass
        return n + 1

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


def _put(src: Path, dst: Path, kind: str) -> None:
    """Give ``dst`` the same content as ``src``: a hard link, else a copy (a symlink stays a symlink)."""
    try:
        os.link(src, dst, follow_symlinks=False)
        return
    except OSError as exc:
        if exc.errno not in _NO_LINK or kind == "other":
            raise
    if kind == "link":
        os.symlink(os.readlink(src), dst)
    else:
        shutil.copy2(src, dst, follow_symlinks=False)
