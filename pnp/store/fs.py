"""Low-level file-system helpers of the kit store (pnp.store.kitstore): the names kept in ``OUT/.pnp``
(STORE_DIR, GAME_NAME, _ENTRY), checks of the game name and the output folder, fsync, removal that
never follows a symlink (of a generation: only if no reader holds it), a walk that never follows
one, relative-path checks and :func:`_put` (hard link, else copy).
What to remove and when is decided by pnp.store.recovery and pnp.store.kitstore.
"""
from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Iterator

from ..core.errors import OutputError
from .names import SAFE_NAME

STORE_DIR = ".pnp"
GAME_NAME = SAFE_NAME
_ENTRY = re.compile(r"^(?P<game>[a-z0-9][a-z0-9_-]{0,40})\.(?:"
                    r"g(?P<gen>[0-9]{1,18})"
                    r"|(?P<kind>stage|link)\.(?P<pid>[0-9]{1,10})\.(?P<token>[0-9a-f]{1,32})"
                    r"|(?P<lock>lock))$")
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NO_LINK = {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP}


# ----------------------------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------------------------

def _check_game(game: str) -> None:
    if not isinstance(game, str) or not GAME_NAME.match(game):
        raise OutputError(f"game name {game!r} cannot be used as a folder name.", field="game",
                          hint="use 1-41 lower-case letters, digits, - and _, starting with a letter or digit")


def _ensure_out(out: Path) -> None:
    """OUT exists as a folder (created if missing).

    Raises:
        OutputError: OUT is a file, cannot be created, or is not a usable path (a NUL byte, too long).
    """
    if "\x00" in str(out):
        raise OutputError("the output folder's name holds a NUL character.", field="--out",
                          hint="give an ordinary folder name with --out")
    try:
        if out.exists() and not out.is_dir():
            raise OutputError("output path is a file, not a folder.", file=out, field="--out",
                              hint="give a folder with --out")
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
