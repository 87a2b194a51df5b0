"""Reading one input file safely: only a regular file, never more than a bound, and an encoding
named when it is not UTF-8.

A FIFO, socket or device given as a spec, sheet, rules text or list would block a read forever or
never end; ``read_regular`` opens without blocking (O_NONBLOCK), checks with fstat that what it
opened is a regular file, and only then reads, so nothing hangs and there is no window between a
check and the open. A ``LinkFree`` path (what pnp.inputs.gamefolder.inside() returns) is opened
walking each of its parts with O_NOFOLLOW, so a part replaced by a link after the check is refused,
never followed.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path, PosixPath

from ..core.safepath import read_fd

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))

BOMS = ((b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"), (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
        (b"\xff\xfe", "UTF-16 (little-endian)"), (b"\xfe\xff", "UTF-16 (big-endian)"))


class NotRegular(OSError):
    """The path is not a regular file: ``kind`` says what it is ("a FIFO (named pipe)")."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"it is {kind}, not a regular file")
        self.kind = kind


def kind_of(mode: int) -> str:
    """'a folder', 'a FIFO (named pipe)', ... for a non-regular st_mode; 'a special file' otherwise."""
    return next((name for test, name in _KINDS if test(mode)), "a special file")


class LinkFree(PosixPath):
    """An absolute path each of whose parts was a real folder or file (no symlink) when it was
    checked; read_regular opens it without following any link."""


_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def _open_no_links(path: LinkFree) -> int:
    """``path`` opened walking its parts from the root, each with O_NOFOLLOW (the file O_NONBLOCK)."""
    fd = os.open(path.anchor, _DIR_FLAGS)
    try:
        for part in path.parts[1:-1]:
            inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(path.name, _FILE_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise NotRegular("a symbolic link (or a path through one) where a file was checked") from None
        raise
    finally:
        os.close(fd)


def read_regular(path: Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``path`` (so a caller sees a file over ``limit``), read only if
    it is a regular file (symlinks to one are followed, except in a ``LinkFree`` path).

    Raises:
        FileNotFoundError: no such file.
        NotRegular: a folder, FIFO, socket or device (never read, never waited on), or a link met in
            a LinkFree path.
        OSError: any other error opening or reading.
    """
    if isinstance(path, LinkFree):
        fd = _open_no_links(path)
    else:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(kind_of(st.st_mode))
        fd = os.open(path, _FILE_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced between the stat and the open
            raise NotRegular(kind_of(st.st_mode))
        return read_fd(fd, limit)
    finally:
        os.close(fd)


def wrong_encoding(raw: bytes) -> str | None:
    """The name of the encoding ``raw`` is in when it is plainly not UTF-8: a UTF-16 or UTF-32
    byte-order mark, or UTF-16 without one (a zero byte in every other place of the first line).
    None otherwise (UTF-8 or unknown)."""
    for bom, name in BOMS:
        if raw.startswith(bom):
            return name
    head = raw[:200]
    if len(head) >= 4 and b"\x00" in head:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) >= len(odd) * 0.4 and even.count(0) == 0:
            return "UTF-16 (little-endian, no byte-order mark)"
        if even.count(0) >= len(even) * 0.4 and odd.count(0) == 0:
            return "UTF-16 (big-endian, no byte-order mark)"
    return None
