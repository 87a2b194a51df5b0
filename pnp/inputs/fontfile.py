"""Font files a spec declares (``fonts: {Name: file.ttf}``), checked before anything is drawn.

``read_font(path, name, ...)`` returns a :class:`FontFile` the renderers can embed, or refuses with
a SpecError naming the spec file, the line and field of the declaration and the font file:

- a missing or non-regular file, a file over MAX_FONT_BYTES (checked before it is read);
- not a font (by its first bytes: a Type 1 font, a web font (WOFF/WOFF2) and a font collection
  (.ttc/.otc) are each named, with how to get a TTF or OTF out of them);
- more than MAX_GLYPHS glyphs (MAX_CFF_GLYPHS for a CFF-flavoured OTF), read from the maxp table
  before any outline is parsed;
- a truncated or damaged file (every table is decompiled with fontTools, then the file is read by
  reportlab, which embeds it);
- an OS/2 ``fsType`` that forbids embedding (the "restricted licence" value 0x0002) or subsetting
  (bit 0x0100) or allows only bitmaps (bit 0x0200): the same rule reportlab applies when embedding;
- no Unicode character map;
- a composite glyph that contains itself (directly or through others), nests deeper than
  MAX_COMPONENT_DEPTH or expands to more than MAX_COMPONENT_OUTLINES outlines (fontTools, which
  subsets and draws for SVG, recurses through components without a bound).

reportlab embeds TrueType outlines only. A CFF-flavoured OTF (``OTTO``) is converted: its cubic
outlines become TrueType quadratic curves (fontTools' cu2qu, at most 1/1000 em from the original,
about 0.3 ms a glyph), as fontTools' own otf2ttf example does. The checked TrueType bytes (the
file's, or their conversion) are what the font registry embeds (``FontFile.data``, registered with
pnp.core.fonts.register_face): nothing is read from the file again and no copy is written anywhere,
so an edit of the file after the check cannot reach a kit and a killed build leaves no copy behind.
Results are kept in the build's font book (at most MAX_KEPT_BYTES of them) and, under `pnp watch`, in
its memo, so a watch session converts a font once. CFF2 (variable CFF)
fonts are refused with how to make a static instance. The conversion keeps outlines, metrics and the
character map (what pnp draws); hinting, which CFF and TrueType express differently, is dropped.
"""
from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import SpecError
from ..core.fontbook import current
from ..core.memo import memoised
from .safefile import NotRegular, read_regular

MAX_FONT_BYTES = 30 * 1024 * 1024
"""A font file larger than this (30 MiB; Noto Sans CJK is about 16 MiB) is refused unread."""
MAX_GLYPHS = 65_535
"""The most glyphs a TrueType font may have (the format's own limit, checked before parsing)."""
MAX_CFF_GLYPHS = 20_000
"""The most glyphs of a CFF-flavoured OTF pnp converts to TrueType (about 6 s of conversion)."""
MAX_COMPONENT_DEPTH = 8
"""The deepest nesting of composite glyphs accepted (a composite of composites of ...; fonts use 1 or 2)."""
MAX_COMPONENT_OUTLINES = 1024
"""The most simple glyphs one composite glyph may expand to, counting repeats (a few in real fonts)."""
MAX_KEPT_BYTES = 128 << 20
"""Checked fonts kept in a build's font book (by content) up to this many bytes in all."""
CU2QU_MAX_ERR = 1 / 1000
"""The largest distance of a converted quadratic curve from the CFF cubic one, as a fraction of the em."""

_TRUETYPE = (b"\x00\x01\x00\x00", b"true")
_HINT_TTC = ("extract the font you want, e.g. `fonttools ttLib -y 0 FILE.ttc -o FONT.ttf` (-y is its index in "
             "the collection, from 0; write FONT.otf for CFF outlines), and declare that file")


@dataclass(frozen=True, eq=False)
class FontFile:
    """A checked font: ``name`` as the spec declares it; ``source`` the file named; ``data`` the
    TrueType bytes to embed, those that were checked (the source's, or their conversion when
    ``converted``), so an edit of the source while a kit is drawn cannot reach the kit unchecked
    (`pnp watch` reads it again and rebuilds); ``family`` and
    ``postscript`` names from its name table; ``glyphs`` its glyph count; ``chars`` the code points
    its character map draws; ``sha256`` of the source file's bytes."""
    name: str
    source: Path
    data: bytes = field(repr=False)
    family: str
    postscript: str
    glyphs: int
    chars: frozenset[int]
    sha256: str
    converted: bool

    @property
    def face(self) -> str:
        """The name the font is registered under for drawing (pnp.core.fonts.register_face): the
        declared name made of letters, digits, '-' and '_', and the start of the file's hash, so two
        files (or two versions of one file) never share a name ("Title-7c25be4d78")."""
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", self.name).strip("-_") or "font"
        return f"{slug if slug[0].isalpha() else 'F' + slug}-{self.sha256[:10]}"

    def missing(self, text: str) -> list[str]:
        """The characters of ``text`` (other than white space) this font has no glyph for, each
        once, in order of first appearance."""
        chars = self.chars
        return [ch for ch in dict.fromkeys(text) if ord(ch) not in chars and not ch.isspace()]

    @property
    def ascii_ok(self) -> bool:
        """True when ``missing`` finds nothing in any printable ASCII text: the font draws every
        character from ``!`` to ``~`` (a text layer then checks such a cell's glyphs not at all)."""
        return all(c in self.chars for c in range(0x21, 0x7f))


class _Bad(Exception):
    """A reason to refuse a font file (message, hint); read_font adds where it was declared."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


def read_font(path: Path, name: str, *, spec: Path | None = None, line: int | None = None,
              field: str | None = None) -> FontFile:
    """The font at ``path`` declared as ``name``, checked (see the module docstring); a CFF OTF is
    converted to TrueType outlines. Results are kept per file content: in the build's font book
    (pnp.core.fontbook), and under `pnp watch` in its memo (pnp.core.memo), so a rebuild does not
    parse an unchanged font again.

    Raises:
        SpecError: naming ``spec``, ``line`` and ``field`` (default ``fonts.<name>``), the font file
            and what is wrong with it, and how to fix it.
    """
    field = field or f"fonts.{name}"
    try:
        data = read_regular(path, MAX_FONT_BYTES)
        if len(data) > MAX_FONT_BYTES:
            raise _Bad(f"is over {MAX_FONT_BYTES >> 20} MiB", "declare a smaller font: a card needs a few hundred "
                       "glyphs, and `pyftsubset` makes a subset of a large font")
        sha = hashlib.sha256(data).hexdigest()
        known = current().table("font facts")  # by the sha256 of a font file's bytes
        facts = known.get(sha)
        if facts is None:
            facts = memoised("font facts", sha, lambda: _analyse(sha, data), lambda f: len(f[5]) + 4096)
            if sum(len(f[5]) for f in known.values()) + len(facts[5]) > MAX_KEPT_BYTES:
                known.clear()
            known[sha] = facts
    except FileNotFoundError:
        raise SpecError(f"font {name!r}: the file {path} does not exist.", file=spec, line=line, field=field,
                        hint="check the path (relative paths are beside the spec)") from None
    except NotRegular as exc:
        raise SpecError(f"font {name!r}: {path} is {exc.kind}, not a font file.", file=spec, line=line,
                        field=field, hint="name a .ttf or .otf file") from None
    except OSError as exc:
        raise SpecError(f"font {name!r}: cannot read {path}: {exc.strerror or exc}.", file=spec, line=line,
                        field=field, hint="check that the file exists and can be read") from None
    except _Bad as exc:
        raise SpecError(f"font {name!r}: {path.name} {exc.message}.", file=spec, line=line, field=field,
                        hint=exc.hint) from None
    family, postscript, glyphs, chars, sha, checked, converted = facts
    return FontFile(name, Path(path), checked, family, postscript, glyphs, chars, sha, converted)


def _analyse(sha: str, data: bytes) -> tuple[str, str, int, frozenset[int], str, bytes, bool]:
    """(family, PostScript name, glyph count, code points, sha, the TrueType bytes to embed, converted)
    of a font file's bytes; raises _Bad."""
    magic = data[:4]
    _kind(magic, data)
    font = _open(data)
    glyphs = font["maxp"].numGlyphs if "maxp" in font else 0
    cff = magic == b"OTTO"
    limit = MAX_CFF_GLYPHS if cff else MAX_GLYPHS
    if glyphs > limit:
        raise _Bad(f"has {glyphs:,} glyphs (limit {limit:,}{' for a CFF font, which pnp converts' if cff else ''})",
                   "make a subset of the characters you print with `pyftsubset FILE --unicodes=...`")
    if "CFF2" in font:
        raise _Bad("is a variable CFF2 font", "make a static instance, e.g. `fonttools varLib.instancer FILE "
                   "wght=400 -o FILE-static.otf`, or declare the font's TTF version")
    try:
        font.ensureDecompiled()
    except Exception as exc:  # fontTools raises many kinds of errors on damaged tables
        raise _Bad(f"is truncated or damaged (fontTools: {_short(exc)})", "download or export the font again") from None
    _check_composites(font)
    fs_type = font["OS/2"].fsType if "OS/2" in font else 0
    if fs_type == 0x0002:
        raise _Bad("has a restricted licence: its OS/2 fsType is 0x0002, which forbids embedding it in a "
                   "document, and a PDF or SVG kit must embed its fonts to print as designed",
                   "use a font whose licence allows embedding (e.g. one under the SIL Open Font License)")
    if fs_type & 0x0300:
        why = "to be subset" if fs_type & 0x0100 else "to be embedded except as bitmaps"
        raise _Bad(f"does not allow itself {why} (OS/2 fsType 0x{fs_type:04X}); pnp embeds only the glyphs a "
                   "kit uses, as outlines", "use a font whose licence allows subset embedding")
    cmap = font.getBestCmap()
    if not cmap:
        raise _Bad("has no Unicode character map, so no text can be set in it",
                   "use a font with a Unicode cmap (any current TTF or OTF)")
    family, postscript = _names(font)
    if cff:
        data = _to_truetype(font)
    chars = _embeddable(data, cmap)
    return family, postscript, glyphs, chars, sha, data, cff


def _check_composites(font) -> None:
    """Refuse a glyf table whose composite glyphs form a cycle, nest deeper than MAX_COMPONENT_DEPTH
    or expand to more than MAX_COMPONENT_OUTLINES simple glyphs (raises _Bad naming the glyph)."""
    if "glyf" not in font:
        return
    glyf = font["glyf"]
    outlines: dict[str, int] = {}   # glyph name -> simple glyphs it expands to, once known
    fix = "export the font again from its editor (decompose the glyph), or use another font"

    def walk(name: str, path: tuple[str, ...]) -> int:
        if name in outlines:
            return outlines[name]
        if name in path:
            via = " -> ".join(repr(n) for n in path[path.index(name):] + (name,))
            raise _Bad(f"has a composite glyph {name!r} that contains itself ({via})", fix)
        if len(path) > MAX_COMPONENT_DEPTH:
            raise _Bad(f"has a composite glyph {path[0]!r} nested more than {MAX_COMPONENT_DEPTH} levels deep", fix)
        glyph = glyf[name]
        if not glyph.isComposite():
            outlines[name] = 1
            return 1
        total = 0
        for comp in glyph.components:
            if comp.glyphName not in glyf:
                raise _Bad(f"has a composite glyph {name!r} made of a glyph it lacks ({comp.glyphName!r})", fix)
            total += walk(comp.glyphName, path + (name,))
            if total > MAX_COMPONENT_OUTLINES:
                raise _Bad(f"has a composite glyph {name!r} made of more than {MAX_COMPONENT_OUTLINES} outlines",
                           fix)
        outlines[name] = total
        return total

    for name in font.getGlyphOrder():
        walk(name, ())


def _kind(magic: bytes, data: bytes) -> None:
    """Refuse (with how to fix it) anything but a TrueType or OpenType font file by its first bytes."""
    if magic in _TRUETYPE or magic == b"OTTO":
        if len(data) < 12:
            raise _Bad("is truncated (it ends inside its header)", "download or export the font again")
        return
    if magic == b"ttcf":
        count = int.from_bytes(data[8:12], "big") if len(data) >= 12 else 0
        raise _Bad(f"is a font collection (.ttc/.otc) holding {count} fonts; a spec names one font file",
                   _HINT_TTC)
    if magic in (b"wOFF", b"wOF2"):
        raise _Bad(f"is a web font ({'WOFF2' if magic == b'wOF2' else 'WOFF'})",
                   "save it as a plain TTF or OTF: `fonttools ttLib --flavor '' FILE -o FONT.ttf` (FONT.otf for "
                   "CFF outlines), or download the desktop version of the font")
    if data[:2] == b"\x80\x01" or data.lstrip()[:2] == b"%!":
        raise _Bad("is a PostScript Type 1 font", "use the font's OpenType (.otf) or TrueType (.ttf) version")
    raise _Bad("is not a TrueType or OpenType font", "name a .ttf or .otf file")


def _open(data: bytes):
    from fontTools.ttLib import TTFont  # fontTools: imported when first needed, never at start-up
    try:
        font = TTFont(io.BytesIO(data), lazy=True)  # the table directory only
        for tag in ("head", "maxp"):
            if tag not in font:
                raise _Bad(f"has no {tag!r} table, which every font has", "download or export the font again")
            font[tag]
    except _Bad:
        raise
    except Exception as exc:
        raise _Bad(f"is truncated or damaged (fontTools: {_short(exc)})", "download or export the font again") from None
    return font


def _short(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def _names(font) -> tuple[str, str]:
    name = font["name"] if "name" in font else None
    family = (name.getBestFamilyName() if name else None) or "?"
    postscript = (name.getDebugName(6) if name else None) or family.replace(" ", "")
    return family, postscript


def _to_truetype(font) -> bytes:
    """The bytes of ``font`` (CFF outlines) with its outlines as TrueType quadratic curves (fontTools'
    otf2ttf example: cu2qu with reversed contour direction, glyf/loca tables, left side bearings
    from the new outlines, maxp 1.0, post 2)."""
    from fontTools.pens.cu2quPen import Cu2QuPen  # fontTools: imported when first needed, never at start-up
    from fontTools.pens.ttGlyphPen import TTGlyphPen  # fontTools: only a designer's CFF font
    from fontTools.ttLib import newTable  # fontTools: imported when first needed, never at start-up

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    max_err = font["head"].unitsPerEm * CU2QU_MAX_ERR
    glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, {}
    try:
        for name in order:
            pen = TTGlyphPen(glyph_set)
            glyph_set[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
            glyf[name] = pen.glyph()
    except Exception as exc:  # a damaged charstring
        raise _Bad(f"has an outline that cannot be converted to TrueType (fontTools: {_short(exc)})",
                   "use the font's TTF version, or export the OTF again") from None
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():  # a TrueType glyph's left side bearing is its xMin
        glyph.recalcBounds(glyf)
        hmtx[name] = (hmtx[name][0], getattr(glyph, "xMin", 0))
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for key in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, key, 1 if key == "maxZones" else 0)
    maxp.numGlyphs = len(order)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)  # recalculates maxp's counts and the bounding boxes
    return out.getvalue()


def _embeddable(data: bytes, cmap: dict[int, str]) -> frozenset[int]:
    """The code points reportlab (the embedder) maps to a glyph in these TrueType bytes; raises _Bad
    with reportlab's reason when it cannot embed them."""
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile  # reportlab: imported when first needed, as fontTools
    try:
        face = TTFontFile(io.BytesIO(data), validate=0)
    except TTFError as exc:
        raise _Bad(f"cannot be embedded in a PDF (reportlab: {_short(exc)})",
                   "use another TrueType or OpenType font, or export this one again") from None
    except Exception as exc:  # reportlab's parser raises struct and index errors on damaged tables
        raise _Bad(f"is truncated or damaged (reportlab: {_short(exc)})", "download or export the font again") from None
    return frozenset(c for c in face.charToGlyph if c in cmap)
