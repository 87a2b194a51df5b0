"""The per-game lock of the kit store (pnp.store.kitstore): taking it, waiting for it while saying
who holds it, and recording the holder's pid in the lock file (``OUT/.pnp/<game>.lock``).
"""
from __future__ import annotations

import fcntl
import os
import sys
import time
from pathlib import Path
from typing import Callable

from ..core.errors import OutputError
from ..core.plaintext import plain
from .fs import _alive

_POLL = 0.05
_PID_WIDTH = 16  # bytes of the lock file: the pid, a newline and spaces (holder_pid strips them)


def write_pid(fd: int) -> None:
    """Record this process as the holder of the lock open on ``fd`` (best effort). The pid is written
    over the old one at a fixed width, so the file is cut only when something longer is in it: a
    truncation to zero on ext4 makes the close flush the file (auto_da_alloc), and every build takes
    the lock of every game in OUT to clean up (measured: 28 truncations, 42 ms, in a build of all kits)."""
    text = f"{os.getpid()}\n".ljust(_PID_WIDTH).encode()
    try:
        if os.fstat(fd).st_size > len(text):
            os.ftruncate(fd, len(text))
        os.pwrite(fd, text, 0)
    except OSError:
        pass


def wait_for_lock(fd: int, link: Path, wait: float, on_wait: Callable[[str], None], first: float,
                  every: float) -> None:
    """Take the exclusive flock on ``fd``, waiting up to ``wait`` seconds; while waiting, call
    ``on_wait(message)`` after ``first`` seconds and then every ``every`` seconds, naming the holder.

    Raises:
        OutputError: still held after ``wait`` seconds ("busy", with the holder's pid and, if it is
            stopped, how to resume it), or the file system cannot lock.
    """
    start = time.monotonic()
    deadline = start + wait
    next_note = start + first
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            now = time.monotonic()
            left = deadline - now
            if left <= 0:
                raise busy_error(fd, link) from None
            if now >= next_note:
                on_wait(f"waiting for {link}: {holder(fd)} is writing it ({now - start:.0f} s of at most {wait:.0f} s).")
                next_note = now + every
            time.sleep(min(_POLL, left))
        except OSError as exc:
            raise OutputError(f"cannot lock the output folder: {exc.strerror or exc}.", file=link,
                              field="--out", hint="use a local folder for --out") from None


def holder_pid(fd: int) -> int | None:
    """The pid the lock's holder wrote into the lock file, if it is a live process."""
    try:
        pid = int(os.pread(fd, 32, 0).decode().strip())
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return pid if pid > 0 and _alive(pid) else None


def holder(fd: int) -> str:
    """'another pnp build (process 123)', with ', stopped: resume it with ...' when it is stopped."""
    pid = holder_pid(fd)
    if pid is None:
        return "another pnp build"
    if proc_state(pid) == "T":
        return f"another pnp build (process {pid}, stopped: resume it with fg or kill -CONT {pid})"
    return f"another pnp build (process {pid})"


def busy_error(fd: int, link: Path) -> OutputError:
    """The error of a build that waited its time out: who holds the lock and what to do."""
    pid = holder_pid(fd)
    who = f" (process {pid})" if pid is not None else ""
    if pid is not None and proc_state(pid) == "T":
        hint = f"process {pid} is stopped (Ctrl-Z?): resume it with fg or kill -CONT {pid}, or use another folder with --out"
    else:
        hint = "wait for that build to finish, or use another folder with --out"
    return OutputError(f"{link} is busy: another pnp build is writing it{who}.", file=link, field="--out", hint=hint)


def stderr_note(message: str) -> None:
    """The default way a waiting build reports: one line on stderr."""
    try:
        sys.stderr.write(f"note: {plain(message)}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def proc_state(pid: int) -> str:
    """The state letter of process ``pid`` from /proc (R, S, T for stopped, ...), "" if unknown."""
    try:
        with open(f"/proc/{int(pid)}/stat", "rb") as f:
            data = f.read(4096)
        return data.rsplit(b")", 1)[1].split()[0].decode("ascii", "replace")
    except (OSError, IndexError, ValueError):
        return ""
