"""The built-in faces' SVG font subsets, made once and shipped in the package, in unicode-range chunks.

Web font services split a face into chunks of code points, each a small font declared with a CSS
``unicode-range``, so a page loads only the chunks its text touches. pnp does the same for its two
built-in faces (Noto Sans, :data:`pnp.core.fonts.DEFAULT_FACE`, its bold and bold italic, and Noto Sans italic,
:data:`pnp.core.fonts.ITALIC_FACE`): an SVG page embeds one ``@font-face`` per chunk its characters
fall in, and no font is subset (and fontTools not imported) while a kit is built, even into a new
``--out``.

The chunks of a face's cmap: ``base`` (:data:`BASE_CHARS`, ASCII and pnp's typography: the only
chunk most pages need), then the rest grouped by block of 128 code points (U+0380-03FF Greek,
U+0400-047F Cyrillic, ...). Measured on fontpkg-noto-sans 2.15 (fontTools 4.68): 43 chunks a face, 0.6 KB (one
glyph) to 9.7 KB WOFF2 each, 178 KB a face in all; a page of Greek text embeds base + Greek.

Each chunk is a static WOFF2 subset of the face at its default instance (wght 400, wdth 100), made
as svgfont.subset_font makes one (no layout tables, no hinting, a .notdef outline, the licence name
records kept). :func:`write_font_chunks` (command: ``python -m pnp.render.fontchunks``; run it after
an update of fontTools or of fontpkg-noto-sans) writes one file per face, ``fontchunks-<face>.txt``
next to this module: line 1 the font file's identity (its size in bytes and sha256), then one line
per chunk, ``<name> <code points> <base64 WOFF2>``, the code points as hex ranges (``20-7e,a0``).
A shipped file is used only when line 1 matches the installed font file; otherwise (another version
of the font package) pages get a subset made for their characters, as a declared font's
(pnp.render.fontcache). tests/render/test_font_chunks.py checks that the shipped files are what the
generator makes from the installed fonts.
"""
from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Iterable, NamedTuple

from ..core.fontbook import current
from ..core.fonts import BOLD_FACE, BOLD_ITALIC_FACE, DEFAULT_FACE, ITALIC_FACE, face as font_face
from .svgfont import css_family, static_chunks

BUILT_IN = (DEFAULT_FACE, ITALIC_FACE, BOLD_FACE, BOLD_ITALIC_FACE)
"""The faces whose chunks ship with pnp."""
BASE_CHARS = frozenset(chr(c) for c in range(0x20, 0x7f)) | frozenset("\u2014\u2013\u2022\u00d7\u2026\u2018\u2019\u201c\u201d\u00b0\u00b2\u00b7")
"""The characters of the ``base`` chunk (ASCII and pnp's typography), which most pages need alone."""
BLOCK = 128
"""Code points outside the base chunk are chunked by block of this many (U+0380-03FF, ...)."""


def chunk_file(face: str, folder: Path | None = None) -> Path:
    """The chunk file of the built-in face ``face`` in ``folder`` (default: next to this module, where
    pnp ships them)."""
    return (folder or Path(__file__).parent) / f"fontchunks-{face}.txt"


def font_identity(face: str) -> str:
    """``"<size> <sha256>"`` of the face's font file: what line 1 of its chunk file must say."""
    data = font_face(face).font_bytes()
    return f"{len(data)} {hashlib.sha256(data).hexdigest()}"


def plan_chunks(cmap: Iterable[int]) -> list[tuple[str, tuple[int, ...]]]:
    """The chunks of a face with the code points ``cmap``: ``[(name, sorted code points)]``, first
    ``("base", BASE_CHARS in cmap)``, then per block of :data:`BLOCK` code points holding any of
    the rest, in order, named by the block's first code point (``"0380"``). Disjoint; their union
    is ``cmap``."""
    base = {ord(c) for c in BASE_CHARS}
    cmap = set(cmap)
    blocks: dict[int, list[int]] = {}
    for cp in sorted(cmap - base):
        blocks.setdefault(cp // BLOCK, []).append(cp)
    return [("base", tuple(sorted(cmap & base)))] + [(f"{b * BLOCK:04x}", tuple(cps)) for b, cps in sorted(blocks.items())]


def ranges(cps: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted code points as inclusive runs ``[(first, last)]`` of consecutive ones."""
    out: list[list[int]] = []
    for cp in sorted(cps):
        if out and cp == out[-1][1] + 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return [(a, b) for a, b in out]


def _hex_ranges(cps: Iterable[int]) -> str:
    return ",".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in ranges(cps))


def _parse_ranges(text: str) -> tuple[int, ...]:
    cps: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        cps.extend(range(int(a, 16), int(b or a, 16) + 1))
    return tuple(cps)


def write_font_chunks(faces: Iterable[str] = BUILT_IN, folder: Path | None = None) -> list[Path]:
    """Generate the shipped chunk files (see the module docstring) of ``faces`` into ``folder``
    (default: next to this module); returns their paths. About 2 s of CPU a face: the variable font
    is instanced once, then each chunk subset from the static font (svgfont.static_chunks)."""
    written = []
    for face in faces:
        plan = plan_chunks(font_face(face).cmap)
        fonts = static_chunks(face, [cps for _, cps in plan])
        lines = [font_identity(face)] + [f"{name} {_hex_ranges(cps)} {base64.b64encode(data).decode('ascii')}"
                                         for (name, cps), data in zip(plan, fonts)]
        path = (folder or Path(__file__).parent) / chunk_file(face).name
        path.write_text("\n".join(lines) + "\n", encoding="ascii")
        written.append(path)
    return written


class Chunk(NamedTuple):
    """One shipped chunk: its name, its code points (sorted) and its WOFF2 as base64."""
    name: str
    cps: tuple[int, ...]
    data: str


class Shipped(NamedTuple):
    """A face's shipped chunks, and which chunk (index into ``chunks``) holds each code point."""
    chunks: tuple[Chunk, ...]
    index: dict[int, int]


def shipped(face: str, path: Path | None = None) -> Shipped | None:
    """The chunks shipped for ``face`` (read from ``path``; default :func:`chunk_file` in the font
    book's ``chunk_folder``, pnp.core.fontbook, else where pnp ships them), or None when it is not a
    built-in face, the file is missing or unreadable, or it was made from another font file than the
    installed one."""
    if face not in BUILT_IN:
        return None
    path = path or chunk_file(face, current().chunk_folder)
    try:
        st = path.stat()
    except OSError:
        return None
    return _read_chunks(face, path, st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=8)  # process-wide: by file, size and time, so a changed file misses (the shipped ones never change)
def _read_chunks(face: str, path: Path, _size: int, _mtime_ns: int) -> Shipped | None:
    try:
        head, *lines = path.read_text(encoding="ascii").splitlines()
        if head != font_identity(face):
            return None
        chunks = []
        for line in lines:
            name, cps, data = line.split(" ")
            chunks.append(Chunk(name, _parse_ranges(cps), data))
    except (OSError, ValueError):
        return None
    index = {cp: i for i, chunk in enumerate(chunks) for cp in chunk.cps}
    return Shipped(tuple(chunks), index)


def unicode_range(cps: Iterable[int]) -> str:
    """The CSS ``unicode-range`` value listing exactly ``cps``: ``U+20-7E, U+A0``."""
    return ", ".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in ranges(cps))


@lru_cache(maxsize=256)  # process-wide: a built-in face's chunk (shipped, immutable) is always the same rule
def _rule(face: str, chunk: Chunk) -> str:
    return (f"@font-face {{ font-family: '{css_family(face)}'; font-style: {font_face(face).style}; "
            f"font-weight: {font_face(face).weight}; unicode-range: {unicode_range(chunk.cps)}; "
            f"src: url(data:font/woff2;base64,{chunk.data}) format('woff2'); }}")


def chunks_css(chars: Iterable[str], face: str = DEFAULT_FACE) -> str | None:
    """The ``@font-face`` rules (one a line) of the shipped chunks of ``face`` that hold any of
    ``chars``, each declaring the chunk's code points as its ``unicode-range``, under the family and
    style svgfont.font_face_css declares; None when nothing is shipped for the face (see
    :func:`shipped`). Characters the face lacks touch no chunk."""
    ship = shipped(face)
    if ship is None:
        return None
    used = sorted({i for i in map(ship.index.get, map(ord, set(chars))) if i is not None})
    return "\n".join(_rule(face, ship.chunks[i]) for i in used)


if __name__ == "__main__":  # python -m pnp.render.fontchunks
    for written in write_font_chunks():
        print(written)
