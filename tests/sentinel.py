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


def tree_hash(folder: Path) -> str:
    """sha256 over every entry under ``folder``: relative path, type, mode, and content or link target."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            st = os.lstat(p)
            h.update(f"{p.relative_to(folder).as_posix()}|{stat.S_IFMT(st.st_mode)}|{stat.S_IMODE(st.st_mode)}|".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(p).encode())
            elif stat.S_ISREG(st.st_mode):
                h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()
