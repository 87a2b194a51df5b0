"""Preflight's scratch folder in TMPDIR: held by a lock while in use, so a run killed with SIGKILL leaves
a folder that the next preflight finds unlocked and removes.

A run makes ``$TMPDIR/pnp-preflight-<random>/`` (tempfile.mkdtemp: mode 0700, a name no one else
chose) and holds an exclusive ``flock`` on the open folder until it has removed it again. The kernel
drops the lock of a process that dies, however it dies; at its start every preflight tries the lock of
each ``pnp-preflight-*`` folder in TMPDIR that is a real folder (never a link) owned by this user, and
removes those it gets (a live run's lock is held, so its folder is left alone). Nothing outside TMPDIR
is touched and no link is followed (shutil.rmtree refuses them).
"""
from __future__ import annotations

import fcntl
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

PREFIX = "pnp-preflight-"
"""The name every scratch folder starts with, in tempfile.gettempdir()."""
_TRIES = 5
_OPEN = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A fresh empty folder in TMPDIR for one preflight, removed when the block ends; first removes
    what killed preflights left (see sweep). A folder a sweep removed between its creation and its
    lock is made again (a few tries).

    Raises:
        OSError: TMPDIR cannot be written.
    """
    sweep()
    for attempt in range(_TRIES):
        path = Path(tempfile.mkdtemp(prefix=PREFIX))
        try:
            fd = os.open(path, _OPEN)
        except FileNotFoundError:  # a sweep took it before it was locked
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if _same(path, fd):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # a sweep removed it while we waited for the lock: make another
    else:
        raise OSError(f"could not make a scratch folder in {tempfile.gettempdir()}")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)


def sweep(folder: Path | None = None) -> list[Path]:
    """Remove every ``pnp-preflight-*`` folder in ``folder`` (default: TMPDIR) that is this user's,
    a real folder, and not locked by a live preflight; returns the folders removed. Errors are
    ignored (a folder that cannot be removed is tried again next time)."""
    root = Path(folder) if folder is not None else Path(tempfile.gettempdir())
    removed = []
    try:
        names = [n for n in os.listdir(root) if n.startswith(PREFIX)]
    except OSError:
        return removed
    for name in sorted(names):
        path = root / name
        try:
            st = os.lstat(path)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                continue
            fd = os.open(path, _OPEN)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: a live preflight's
            os.close(fd)
            continue
        try:
            if _same(path, fd):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
        finally:
            os.close(fd)  # the lock goes with it
    return removed


def _same(path: Path, fd: int) -> bool:
    """``path`` is still the folder open as ``fd`` (not removed, not replaced)."""
    try:
        st, held = os.lstat(path), os.fstat(fd)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == (held.st_dev, held.st_ino) and stat.S_ISDIR(st.st_mode)
