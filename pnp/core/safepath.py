"""The one way pnp writes under --out, and the one rule for names that become path components.

* names -- a game, paper (sheet), component or format name used in a file or folder name passes the
  one safe-name rule, pnp.store.names (``check_safe_name``: 1-41 lower-case letters, digits, ``-`` and
  ``_``; no ``/``, ``.``, ``..``, NUL or anything else a path could be steered with).
* :func:`open_folder` -- walks a relative path below a trusted root one component at a time with
  ``openat(O_DIRECTORY | O_NOFOLLOW)`` (Python's ``dir_fd``), creating missing folders with
  ``mkdirat``: a symlink or a non-folder at any component is refused, so nothing outside the root is
  reached however the folders below it were tampered with.
* :func:`open_write` -- a new regular file in such a folder, opened ``O_NOFOLLOW | O_NONBLOCK`` and
  checked with ``fstat`` (a FIFO, device or symlink in the way is refused, never written through).
* :func:`write_atomic` -- the file's content written to a temporary name in the same folder, fsynced
  and renamed over the target (``renameat``): readers see the old file or the new one.
* :func:`open_read` -- an existing regular file below a trusted root opened for reading the same
  way (every folder ``O_NOFOLLOW``, the file ``O_NOFOLLOW | O_NONBLOCK``, checked with ``fstat``).
* :func:`checked_path` -- for a library that insists on opening a file by name itself (reportlab's
  chunked PDF, pypdfium2): the same walk and checks, returning the path once it is known to be a plain
  path inside the root.

The root itself is trusted (``--out``, or a folder pnp just created inside it, such as a staging
folder in ``OUT/.pnp``): the user may make ``--out`` a symlink, but nothing below it is followed.
"""
from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Callable, Iterator

from .errors import OutputError

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
_KIND = {stat.S_IFLNK: "a symbolic link", stat.S_IFREG: "a file", stat.S_IFIFO: "a FIFO (named pipe)",
         stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a device", stat.S_IFBLK: "a device"}


def _parts(rel: str | PurePosixPath) -> list[str]:
    text = str(rel).replace(os.sep, "/") if os.sep != "/" else str(rel)
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if text.startswith("/") or "\x00" in text or any(p == ".." for p in parts):
        raise OutputError(f"refusing to write {text!r}: not a plain path inside the output folder.", field="--out",
                          hint="this is a bug in pnp; please report it")
    return parts


def _kind(mode: int) -> str:
    return _KIND.get(stat.S_IFMT(mode), "not a folder")


def _refuse(path: Path, what: str, need: str = "a folder") -> OutputError:
    return OutputError(f"{path} is {what}, where pnp needs {need}; pnp never writes through it.", file=path,
                       field="--out", hint="remove it (a link's target is left alone) or choose another folder with --out")


def _os_error(path: Path, exc: OSError) -> OutputError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        hint = "free some disk space and build again"
    else:
        hint = "check that you may write to the output folder, or choose another with --out"
    reason = exc.strerror or str(exc)
    return OutputError(f"cannot write {path}: {reason[:1].lower()}{reason[1:]}.", file=path, field="--out", hint=hint)


def open_folder(root: Path, rel: str | PurePosixPath = "", create: bool = True) -> int:
    """A file descriptor of the folder ``root/rel``, reached one component at a time without
    following a symlink; missing folders are created (mode 0o777 less umask) when ``create``.
    The caller closes it.

    Raises:
        OutputError: a component is a symlink, a file or a special file; ``rel`` is absolute or holds
            ``..`` or NUL; a folder cannot be opened or created (names the path and the reason).
    """
    root = Path(root)
    try:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            raise _refuse(root, "not a folder") from None
        raise _os_error(root, exc) from None
    path = root
    try:
        for part in _parts(rel):
            path = path / part
            try:
                nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                nfd = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise _refuse(path, _kind(os.lstat(part, dir_fd=fd).st_mode)) from None
                raise
            os.close(fd)
            fd = nfd
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _refuse(path, "not a plain folder") from None
        raise _os_error(path, exc) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def folder(root: Path, rel: str | PurePosixPath = "", create: bool = True) -> Iterator[int]:
    """:func:`open_folder` as a context manager (the descriptor is closed on exit)."""
    fd = open_folder(root, rel, create)
    try:
        yield fd
    finally:
        os.close(fd)


def _split(rel: str | PurePosixPath) -> tuple[str, str]:
    parts = _parts(rel)
    if not parts:
        raise OutputError(f"refusing to write {str(rel)!r}: no file name.", field="--out",
                          hint="this is a bug in pnp; please report it")
    return "/".join(parts[:-1]), parts[-1]


def _open_file(dir_fd: int, name: str, path: Path, exclusive: bool = False, write: bool = True) -> int:
    """A regular file ``name`` in ``dir_fd`` opened for writing (created, emptied) or, unless
    ``write``, for reading (FileNotFoundError when it is missing), never through a symlink or a FIFO."""
    if write:
        flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else 0)
    else:
        flags = os.O_RDONLY
    try:
        fd = os.open(name, flags | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC, 0o666, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.ENODEV, errno.ETXTBSY):
            try:
                what = _kind(os.lstat(name, dir_fd=dir_fd).st_mode)
            except OSError:
                what = "not a plain file"
            what = "a folder" if exc.errno == errno.EISDIR else what
            raise _refuse(path, what, "a plain file") from None
        if not write and isinstance(exc, FileNotFoundError):
            raise
        raise _os_error(path, exc) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(path, _kind(st.st_mode), "a plain file")
        os.set_blocking(fd, True)
        if write:
            os.ftruncate(fd, 0)
    except OSError as exc:
        os.close(fd)
        raise _os_error(path, exc) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_write(root: Path, rel: str | PurePosixPath, exclusive: bool = False) -> BinaryIO:
    """A binary file object writing the regular file ``root/rel`` (created, or emptied if it is
    already a regular file), its folders created as needed. Nothing below ``root`` is followed.

    Raises:
        OutputError: a symlink, special file or non-folder on the way or at the file itself, a bad
            relative path, or an OSError (names the path and the reason).
    """
    parent, name = _split(rel)
    with folder(root, parent) as dfd:
        fd = _open_file(dfd, name, Path(root) / str(rel), exclusive)
    return os.fdopen(fd, "wb")


def write_bytes(root: Path, rel: str | PurePosixPath, data: bytes) -> None:
    """Write ``data`` to the regular file ``root/rel`` through :func:`open_write`.

    Raises:
        OutputError: as open_write, or the write fails (disk full, ...).
    """
    try:
        with open_write(root, rel) as f:
            f.write(data)
    except OSError as exc:
        raise _os_error(Path(root) / str(rel), exc) from None


def write_atomic(root: Path, rel: str | PurePosixPath, fill: Callable[[BinaryIO], None] | bytes) -> None:
    """Replace ``root/rel`` in one step: ``fill(file)`` (or the bytes given) writes a temporary file
    in the same folder, which is fsynced and renamed over the target. On any error the target is
    unchanged and the temporary file removed. A symlink or special file at the target's name is
    replaced by the new file (the rename never follows it); a folder there is refused.

    Raises:
        OutputError: as open_write; the target is a folder; the write or rename fails.
    """
    parent, name = _split(rel)
    path = Path(root) / str(rel)
    tmp = f".{name}.tmp-{os.getpid()}"
    with folder(root, parent) as dfd:
        try:
            if stat.S_ISDIR(os.lstat(name, dir_fd=dfd).st_mode):
                raise _refuse(path, "a folder", "a plain file")
        except FileNotFoundError:
            pass
        _unlink(dfd, tmp)
        fd = _open_file(dfd, tmp, path.with_name(tmp), exclusive=True)
        try:
            with os.fdopen(fd, "wb") as f:
                if callable(fill):
                    fill(f)
                else:
                    f.write(fill)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            os.fsync(dfd)
        except OSError as exc:
            _unlink(dfd, tmp)
            raise _os_error(path, exc) from None
        except BaseException:
            _unlink(dfd, tmp)
            raise


def _unlink(dir_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


def checked_path(root: Path, rel: str | PurePosixPath) -> Path:
    """``root/rel`` after the walk of :func:`open_folder` (its folders created) and a check that the
    file itself is absent or a regular file: for libraries that open the file by name (reportlab
    writing a long PDF in chunks). Use only inside a folder pnp has just created (a staging folder),
    where nothing else writes.

    Raises:
        OutputError: as open_write.
    """
    parent, name = _split(rel)
    path = Path(root) / str(rel)
    with folder(root, parent) as dfd:
        try:
            mode = os.lstat(name, dir_fd=dfd).st_mode
        except FileNotFoundError:
            return path
        if not stat.S_ISREG(mode):
            raise _refuse(path, _kind(mode) if not stat.S_ISDIR(mode) else "a folder", "a plain file")
    return path


def open_read(root: Path, rel: str | PurePosixPath) -> BinaryIO:
    """A binary file object reading the existing regular file ``root/rel``, reached without following
    a symlink below ``root`` (folders as :func:`open_folder`, none created; the file opened
    ``O_NOFOLLOW | O_NONBLOCK`` and checked with ``fstat``), so a file replaced by a link, a FIFO or a
    device is never read through.

    Raises:
        FileNotFoundError: the file is missing.
        OutputError: a folder on the way is missing; a symlink, special file or non-folder on the way
            or at the file, a bad relative path, or another OSError (names the path and the reason).
    """
    parent, name = _split(rel)
    with folder(root, parent, create=False) as dfd:
        fd = _open_file(dfd, name, Path(root) / str(rel), write=False)
    return os.fdopen(fd, "rb")


def read_fd(fd: int, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes from the open file ``fd`` (so a caller sees a file over ``limit``
    without reading all of it), in blocks of 1 MiB."""
    chunks, left = [], limit + 1
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
