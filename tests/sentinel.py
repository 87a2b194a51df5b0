"""A sentinel folder outside --out, hashed before and after a run, to prove nothing outside --out
was written, deleted or replaced (symlinks are recorded, never followed)."""
from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path


def make_sentinel(folder: Path) -> Path:
    """A folder with a file, a nested file and an empty folder; returns it."""
    (folder / "nested").mkdir(parents=True)
    (folder / "keep.txt").write_text("sentinel: must not change\n")
    (folder / "nested" / "data.bin").write_bytes(bytes(range(256)))
    (folder / "empty").mkdir()
    return folder


BIG_FILE = 64 << 20


def tree_hash(folder: Path) -> str:
    """sha256 over every entry under ``folder``: relative path, type, mode, and content or link target.
    A regular file over BIG_FILE bytes is taken by its size, modification time and allocated blocks
    instead of its content (a write changes the time; the tests' big files are sparse and would cost
    seconds to read)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            st = os.lstat(p)
            h.update(f"{p.relative_to(folder).as_posix()}|{stat.S_IFMT(st.st_mode)}|{stat.S_IMODE(st.st_mode)}|".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(p).encode())
            elif stat.S_ISREG(st.st_mode) and st.st_size > BIG_FILE:
                h.update(f"{st.st_size}|{st.st_mtime_ns}|{st.st_blocks}".encode())
            elif stat.S_ISREG(st.st_mode):
                h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()
