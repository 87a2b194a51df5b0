"""The embedded SVG font subsets (@font-face CSS per character set), kept in memory and, between
builds, in a cache folder the caller names (pnp.pipeline.plan passes OUT/.pnp/cache in the WriteJob;
$PNP_CACHE_DIR overrides it, empty turns the disk cache off); in memory means in the font book of
the build (pnp.core.fontbook), so nothing made for one build's faces outlives it. Subsetting with fontTools takes about
0.4 s per new character set, so the disk cache is what keeps a rebuild fast. Pages set in the
built-in faces take the chunks shipped with pnp (pnp.render.fontchunks) and come here only when the
installed font file is not the one those were made from; a spec's own fonts always come here.

The cache folder is untrusted (anything in --out is): an entry is named
``font-<key>-<sha256>.css``, where ``key`` is the hash of what the subset is made from (the font
file's bytes, the face's name and style, fontTools, this code, the characters) and ``sha256`` is the
hash of the file's content. An entry is used only when it is a regular file (opened O_NOFOLLOW |
O_NONBLOCK and checked with fstat: no symlink, FIFO or device), at most :data:`MAX_ENTRY_BYTES` long,
hashes to its name, is exactly the ``@font-face`` rule svgfont writes for the face with a WOFF2
payload, and that payload is checked against the font it claims to be a subset of
(:func:`pnp.render.svgfont.subset_matches`: the same characters, each with the face's own outline
and advance). Anything else is removed and the subset made afresh, so nothing planted in the cache
(other CSS, an ``@import``, another font's subset under this one's name) reaches an SVG. Writes go
through pnp.core.safepath (no symlink below the cache's parent is followed; the file is replaced
atomically).
"""
from __future__ import annotations

import base64
import binascii
import errno
import hashlib
import os
import re
import stat
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from ..core.errors import OutputError
from ..core.fontbook import current
from ..core.fonts import DEFAULT_FACE, face as font_face
from ..core.safepath import folder, read_fd, write_atomic
from .svgfont import css_rule, font_face_css, subset_matches

MAX_ENTRY_BYTES = 4 << 20
"""A cache entry larger than this (4 MiB; the whole of Noto Sans as CSS is under 1 MiB) is not read."""
MAX_SCAN = 10_000
"""At most this many names of the cache folder are looked at for one character set."""

_NAME = re.compile(r"^font-(?P<key>[0-9a-f]{32})-(?P<sha>[0-9a-f]{64})\.css$")
_SHAPE = re.compile(r"@font-face \{ font-family: 'pnp [A-Za-z][A-Za-z0-9 _-]{0,62}'; font-style: (normal|italic); "
                    r"font-weight: 400; "
                    r"src: url\(data:font/woff2;base64,(?P<data>[A-Za-z0-9+/]+={0,2})\) format\('woff2'\); \}")
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def cache_folder(cache: Path | None) -> Path | None:
    """Where font subsets are kept between runs: $PNP_CACHE_DIR when set (empty turns the disk cache
    off), else ``cache``, else none."""
    env = os.environ.get("PNP_CACHE_DIR")
    if env is not None:
        return Path(env) if env and "\x00" not in env else None
    return cache


def _css_key(chars: frozenset, face: str = DEFAULT_FACE) -> str:
    """The hash of what the subset is made from: the face's name and style and its font's bytes,
    fontTools's version, svgfont's code, the characters."""
    got = font_face(face)
    h = hashlib.sha256(f"{face}|{got.style}|".encode())
    if got.data is not None:   # a spec's own font: the checked bytes the face holds
        h.update(_data_digest(face).encode())
    else:                      # the installed font package's files
        st = got.path.stat()
        h.update(_file_digest(str(got.path), st.st_size, st.st_mtime_ns).encode())
    h.update(Path(find_spec("fontTools").origin).read_bytes())  # its version
    h.update(Path(__file__).with_name("svgfont.py").read_bytes())
    h.update("".join(sorted(chars)).encode("utf-8"))
    return h.hexdigest()[:32]


@lru_cache(maxsize=32)  # process-wide: keyed by the file's path, size and time, so an edited file misses
def _file_digest(path: str, _size: int, _mtime_ns: int) -> str:
    """sha256 of an installed font file, once per process for each path, size and time."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _data_digest(face: str) -> str:
    """sha256 of a registered face's bytes, once per font book (a face's name is one font's there)."""
    table = current().table("fontcache digests")
    got = table.get(face)
    if got is None:
        got = table[face] = hashlib.sha256(font_face(face).font_bytes()).hexdigest()
    return got


def valid_entry(name: str, data: bytes) -> str | None:
    """The CSS held by a cache entry called ``name`` with content ``data``, or None unless the
    content hashes to the name, is at most MAX_ENTRY_BYTES, and is one @font-face rule of the shape
    font_face_css writes whose payload is a WOFF2 file."""
    m = _NAME.match(name)
    if not m or len(data) > MAX_ENTRY_BYTES or hashlib.sha256(data).hexdigest() != m["sha"]:
        return None
    try:
        css = data.decode("ascii")
    except UnicodeDecodeError:
        return None
    shape = _SHAPE.fullmatch(css)
    if not shape:
        return None
    try:
        if base64.b64decode(shape["data"][:8], validate=True)[:4] != b"wOF2":
            return None
    except (binascii.Error, ValueError):
        return None
    return css


def _read_entry(dir_fd: int, name: str) -> bytes | None:
    """The bytes of a regular file ``name`` (at most MAX_ENTRY_BYTES + 1 read), else None. Never
    follows a symlink, never blocks on a FIFO."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
            return None
        return read_fd(fd, MAX_ENTRY_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)


def _genuine(css: str, chars: frozenset, face: str) -> bool:
    """``css`` (of the shape valid_entry accepts) is the rule svgfont writes for ``face`` and its
    payload is a subset of that face for ``chars`` (svgfont.subset_matches)."""
    payload = _SHAPE.fullmatch(css)["data"]
    if css != css_rule(payload, face=face):
        return False
    return subset_matches(base64.b64decode(payload), chars, face)


def _lookup(cache: Path, key: str, chars: frozenset, face: str) -> str | None:
    """The CSS of a good entry for ``key`` (the subset of ``face`` for ``chars``) in ``cache``,
    removing bad entries for that key; None if there is none (or the cache folder is missing, a
    symlink or unreadable)."""
    try:
        with folder(cache.parent, cache.name, create=False) as dfd:
            names = []
            with os.scandir(dfd) as it:
                for i, entry in enumerate(it):
                    if i >= MAX_SCAN:
                        break
                    if entry.name.startswith(f"font-{key}-"):
                        names.append(entry.name)
            for name in sorted(names)[:8]:
                css = None
                data = _read_entry(dfd, name)
                if data is not None:
                    css = valid_entry(name, data)
                if css is not None and _genuine(css, chars, face):
                    return css
                try:
                    os.unlink(name, dir_fd=dfd)      # a bad entry: removed, never followed
                except OSError:
                    pass
    except (OSError, OutputError):
        return None
    return None


def _ensure_folder(cache: Path) -> None:
    """Make ``cache`` a plain folder: a symlink, file or FIFO squatting on its name is unlinked
    (what a link points to is left alone) and the folder created."""
    with folder(cache.parent, "", create=False) as pfd:
        try:
            st = os.lstat(cache.name, dir_fd=pfd)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISDIR(st.st_mode):
            os.unlink(cache.name, dir_fd=pfd)
            st = None
        if st is None:
            try:
                os.mkdir(cache.name, 0o777, dir_fd=pfd)
            except OSError as exc:
                if exc.errno != errno.EEXIST:
                    raise


def _store(cache: Path, key: str, css: str) -> None:
    data = css.encode("ascii")
    name = f"font-{key}-{hashlib.sha256(data).hexdigest()}.css"
    try:
        _ensure_folder(cache)
        write_atomic(cache.parent, f"{cache.name}/{name}", data)
    except (OSError, OutputError):
        pass  # a read-only or tampered folder: no disk cache, same output


def font_css(chars: frozenset, base: frozenset = frozenset(), cache: Path | None = None,
             face: str = DEFAULT_FACE) -> str:
    """The @font-face rule for a page using ``chars`` in the registered face ``face`` (Noto Sans by
    default): svgfont.font_face_css(base | chars, face=face), from memory, else the disk cache folder
    ``cache`` (see :func:`cache_folder`; entries checked as the module says), else made (fontTools
    subsetting: about 0.4 s) and stored there. The same characters give the same string on every
    run. Never raises for a bad or unwritable cache: it is skipped. "Memory" is the font book's
    ``css`` table (pnp.core.fontbook: one per build), so a second build reads the disk cache."""
    chars = base | chars
    key = chars if face == DEFAULT_FACE else (face, chars)
    memory = current().css
    css = memory.get(key)
    if css is not None:
        return css
    where = cache_folder(cache)
    digest = _css_key(chars, face) if where is not None else ""
    if where is not None:
        css = _lookup(where, digest, chars, face)
    if css is None:
        css = font_face_css(chars, face=face)
        if where is not None:
            _store(where, digest, css)
    memory[key] = css
    return css
