"""Recovery and reading of the kit store (pnp.store.kitstore): what ``OUT/<game>`` shows now
(:func:`current_generation`), a consistent read-only view of it (:func:`read_only_view`), and
:func:`clean_stale`, which removes what dead or finished pnp processes left in ``OUT/.pnp``.
"""
from __future__ import annotations

import fcntl
import os
import re
import stat
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..core.errors import OutputError
from .lock import write_pid
from .fs import _CLOEXEC, _ENTRY, STORE_DIR, _alive, _check_game, _fsync_path, _remove, _remove_generation


@dataclass(frozen=True)
class _Current:
    kind: str                # "none" | "gen"
    path: Path | None        # the folder holding the current files; None if there are none
    gen: int = 0


def _foreign(link: Path, target: str) -> OutputError:
    return OutputError(f"{link} is a symbolic link to {target} that pnp did not make; "
                       f"pnp does not write through it.", file=link, field="--out",
                       hint="remove the link (the folder it points to is left alone) or choose another folder with --out")


def _not_made_by_pnp(link: Path, mode: int) -> OutputError:
    what = "a folder" if stat.S_ISDIR(mode) else "a file" if stat.S_ISREG(mode) else "a special file"
    return OutputError(f"{link} is {what} that pnp did not make; pnp keeps each game's kit there as a "
                       f"link of its own and does not write into or replace anything else.", file=link,
                       field="--out", hint="move it away (pnp left it as it was) or choose another folder with --out")


def _refuse_unmade(out: Path, game: str) -> None:
    """Refuse OUT/<game> when it is a plain folder, a file or a special file (not a symlink at all),
    without writing anything. Whether a symlink is pnp's is decided by _current, under the lock.

    Raises:
        OutputError: OUT/<game> exists and is not a symlink.
    """
    try:
        st = os.lstat(out / game)
    except (FileNotFoundError, NotADirectoryError):
        return
    if not stat.S_ISLNK(st.st_mode):
        raise _not_made_by_pnp(out / game, st.st_mode)


def _current(out: Path, game: str) -> _Current:
    """What OUT/<game> is now. Raises OutputError for anything but pnp's symlink (a foreign symlink,
    a plain folder, a file)."""
    link = out / game
    try:
        st = os.lstat(link)
    except FileNotFoundError:
        return _Current("none", None)
    if not stat.S_ISLNK(st.st_mode):
        raise _not_made_by_pnp(link, st.st_mode)
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


def kit_link(path: Path) -> str | None:
    """Where ``path`` points when it is a kit pnp keeps (``OUT/<game>``: a symlink to
    ``.pnp/<game>.g<N>``, with <game> its own name), else None. A kit is never a game folder: a build
    run inside --out finds these links beside its targets (pnp.pipeline.plan.load_target)."""
    path = Path(path)
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
        target = os.readlink(path)
    except (OSError, ValueError):
        return None
    made = re.fullmatch(rf"{re.escape(STORE_DIR)}/{re.escape(path.name)}\.g[0-9]{{1,18}}", target)
    return target if made else None


def current_generation(out: Path, game: str) -> Path | None:
    """The generation folder OUT/<game> currently shows, None if none.

    Raises:
        OutputError: OUT/<game> is anything but a symlink pnp made (a foreign symlink, a folder, a file).
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
    use this view to read several files of one kit consistently.

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
    and generations no longer shown. A game another process is writing (its lock is held) is left
    alone, except staging folders whose process is dead. Unknown names and symlinks' targets are never touched.

    Returns:
        The paths removed.
    """
    return _clean(Path(out), held=None)


_OLD_STAGING = re.compile(r"^\.pnp-staging-.+-(?P<pid>\d+)$")


def _clean_old_staging(out: Path) -> list[Path]:
    """Staging folders an older pnp (before the kit store) left in OUT itself when it was killed:
    ``OUT/.pnp-staging-<stem>-<pid>``, removed when their process is gone (never through a symlink)."""
    removed = []
    try:
        names = os.listdir(out)
    except OSError:
        return removed
    for name in names:
        m = _OLD_STAGING.match(name)
        if m and not _alive(int(m["pid"])) and _remove(out / name):
            removed.append(out / name)
    return removed


def _clean(out: Path, held: str | None) -> list[Path]:
    removed_old = _clean_old_staging(out)
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
    removed: list[Path] = removed_old
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
        if locked:
            write_pid(fd)                       # say who holds it, for a build that waits meanwhile
        try:
            removed += _clean_game(out, game, entries, locked)
        finally:
            if fd is not None:
                os.close(fd)
    return removed


def _clean_game(out: Path, game: str, entries: list[re.Match], locked: bool) -> list[Path]:
    store = out / STORE_DIR
    removed: list[Path] = []
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
