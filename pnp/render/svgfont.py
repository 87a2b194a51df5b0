"""Make text in SVG output independent of the fonts installed where it is viewed.

Two tools, for the SVG backend to call (the built-in faces' fonts mostly come ready-made from
pnp.render.fontchunks, whose chunks :func:`static_chunks` makes):

* :func:`font_face_css` -- a CSS ``@font-face`` rule carrying a small subset of one face of the
  font registry (pnp.core.fonts; Noto Sans by default) as a base64 ``data:`` URL (WOFF2), under
  the family name :func:`css_family` (:data:`FAMILY` for Noto Sans) and the face's style (italic
  for Noto Sans italic). Put it in a ``<style>`` in the SVG and name
  ``font-family: 'pnp Noto Sans', 'Noto Sans', sans-serif`` (:func:`font_stack`) on the text.
* :func:`text_outline_path` -- the glyph outlines of one line of text as SVG path data in page
  mm, placed exactly as the PDF and SVG backends place a :class:`pnp.core.ir.Text`. For cutter SVGs,
  which must hold no ``<text>``.

Both work from the same font file as the PDF backend (the face's file in pnp.core.fonts; the
built-in Noto Sans faces are variable fonts) at its default instance (wght 400, wdth 100), the one reportlab reads. Advances are
reportlab's (:func:`pnp.core.fonts.text_width_mm`), so nothing shifts between PDF and SVG.

Choices worth knowing:

* The subset is a *static* instance (the variation tables are dropped by
  ``fontTools.varLib.instancer``), since the layout only ever uses the default instance and a
  variable subset is several times larger.
* The subset has no GSUB/GPOS/GDEF: reportlab neither kerns nor forms ligatures, so a browser
  must not either, or text-anchor="middle"/"end" lands differently from the PDF.
* Bold: bold text is set in the static bold faces pnp ships (pnp.core.fonts.BOLD_FACE, made from
  the same variable files at wght 700): a face of its own, declared ``font-weight: 700``
  (:func:`css_rule`), whose advances are the ones the layout measured bold text with; its outlines
  are that face's too. ``font_face_css(chars, bold=True)`` instances a variable face at wght 700
  itself (not used for pages: they name the shipped bold face).
* Viewers: browsers honour the @font-face; cutter software (LightBurn, Silhouette Studio, and
  Inkscape as far as we know) does not load fonts from CSS, hence :func:`text_outline_path`.
* For browsers to match the PDF to the pixel, the ``<text>`` elements also want
  ``text-rendering="geometricPrecision"`` (else Chromium rounds glyph advances to whole pixels:
  0.2 px a glyph) and ``xml:space="preserve"`` (else runs of spaces collapse; the PDF keeps them).
"""
from __future__ import annotations

import base64
import io
import logging
import math
from typing import Iterable

from ..core.fontbook import current
from ..core.fonts import DEFAULT_FACE, cap_height, face as font_face, missing_glyphs
from ..core.shaping import draw_glyph, units_per_em
from .glyphpen import GlyphPathPen, num

FAMILY = "pnp Noto Sans"
PT_TO_MM = 25.4 / 72.0
REGULAR, BOLD = 400, 700
# name records kept in the subset: family/style/version names plus the copyright (0) and the
# licence (13, 14), which the SIL Open Font License asks every copy of the font to carry
_NAME_IDS = (0, 1, 2, 3, 4, 5, 6, 13, 14)
_LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF", "STAT")


def css_family(face: str = DEFAULT_FACE) -> str:
    """The CSS family name a face's @font-face declares: :data:`FAMILY` for Noto Sans, else
    "pnp " + the face's name ("pnp NotoSans-Italic")."""
    return FAMILY if face == DEFAULT_FACE else f"pnp {face}"


def font_stack(face: str = DEFAULT_FACE) -> str:
    """The ``font-family`` value of text set in ``face``: the embedded subset first, then the face's
    family as installed, then any sans-serif."""
    return f"'{css_family(face)}', '{font_face(face).family}', sans-serif"


def _font_bytes(face: str = DEFAULT_FACE) -> bytes:
    """The face's font file's bytes, read once per font book (pnp.core.fontbook, as every table of
    this module: what is made from a face the build registered goes with the build)."""
    return current().remember("svgfont bytes", face, lambda: font_face(face).font_bytes(), 8)


def _open_font(face: str = DEFAULT_FACE):
    from fontTools.ttLib import TTFont  # fontTools: imported when first needed, never at start-up
    return TTFont(io.BytesIO(_font_bytes(face)), recalcTimestamp=False)


def _chars_key(chars: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for item in chars:
        out.update(item)  # accept single characters or whole strings
    return frozenset(out)


def _quiet_subsetter() -> None:
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # a designer's font may hold tables the
    # subsetter does not know (FontForge's FFTM): it drops them, which needs no warning on the terminal


def _drop_layout(font) -> None:
    for tag in _LAYOUT_TABLES:  # drop before the subsetter reads them: decompiling GPOS is most of its time
        if tag in font:
            del font[tag]


def _subsetter(unicodes: Iterable[int]):
    """A fontTools Subsetter for ``unicodes`` with pnp's options: no layout tables, no hinting, a
    .notdef outline, the name records the licence asks for (Windows English), no glyph names."""
    from fontTools import subset  # fontTools: imported when first needed, never at start-up
    options = subset.Options()
    options.layout_features = []
    options.drop_tables = list(options.drop_tables) + list(_LAYOUT_TABLES)
    options.hinting = False            # browsers on screens, printers at 300+ dpi: hints don't pay
    options.name_IDs = list(_NAME_IDS)
    options.name_languages = [0x409]  # Windows English names only
    options.notdef_outline = True      # a character the face lacks shows a box, not nothing
    options.glyph_names = False
    options.recalc_timestamp = False
    options.prune_unicode_ranges = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    return subsetter


def _instance(font, weight: int):
    """``font`` as a static font at wght ``weight``, wdth 100 (itself when it is not variable)."""
    if "fvar" not in font:
        return font
    from fontTools.varLib import instancer  # fontTools: imported when first needed, never at start-up
    axes = {a.axisTag for a in font["fvar"].axes}
    return instancer.instantiateVariableFont(font, {k: v for k, v in (("wght", weight), ("wdth", 100))
                                                    if k in axes}, updateFontNames=False)


def _woff2(font) -> bytes:
    font.flavor = "woff2"
    font.recalcTimestamp = False  # keep head.modified as the source font has it: same bytes each run
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def _subset_woff2(chars: frozenset[str], weight: int, face: str = DEFAULT_FACE) -> bytes:
    """subset_font's WOFF2, made once per font book (128 kept, then the table starts over)."""
    return current().remember("svgfont subsets", (chars, weight, face), lambda: _make_subset(chars, weight, face), 128)


def _make_subset(chars: frozenset[str], weight: int, face: str) -> bytes:
    current().made["subset"] += 1  # counted: a test can see that a build subset no font
    _quiet_subsetter()
    font = _open_font(face)
    _drop_layout(font)
    unicodes = {ord(c) for c in chars} | {0x20}
    _subsetter(unicodes).subset(font)  # subset first (variable), then instance: far faster than the reverse
    return _woff2(_instance(font, weight))


def static_chunks(face: str, chunks: Iterable[Iterable[int]]) -> list[bytes]:
    """WOFF2 bytes of one static subset of the registered face ``face`` (at wght 400, wdth 100 for a
    variable font) per code-point set of ``chunks``, each holding exactly those code points' glyphs
    (and the glyphs they are composed of) plus .notdef, with the same options as :func:`subset_font`.
    The face is instanced once and each chunk subset from that static font (pnp.render.fontchunks
    ships these for the built-in faces)."""
    from fontTools.ttLib import TTFont  # fontTools: imported when first needed, never at start-up
    _quiet_subsetter()
    font = _open_font(face)
    _drop_layout(font)
    buf = io.BytesIO()
    _instance(font, REGULAR).save(buf)
    static = buf.getvalue()
    out = []
    for unicodes in chunks:
        part = TTFont(io.BytesIO(static), recalcTimestamp=False)
        _subsetter(unicodes).subset(part)
        out.append(_woff2(part))
    return out


def subset_font(chars: Iterable[str], bold: bool = False, face: str = DEFAULT_FACE) -> bytes:
    """WOFF2 bytes of a static subset of the registered face ``face`` (Noto Sans by default; wght
    400, or 700 when ``bold``, for a variable font) holding the glyphs of ``chars`` (single
    characters or strings) plus .notdef and space. Cached by face and character set."""
    return _subset_woff2(_chars_key(chars), BOLD if bold else REGULAR, face)


def font_face_css(chars: Iterable[str], bold: bool = False, face: str = DEFAULT_FACE) -> str:
    """A CSS ``@font-face`` rule for family :func:`css_family` of ``face`` (:data:`FAMILY` for Noto
    Sans) carrying a WOFF2 subset of that face with exactly the glyphs for ``chars`` (plus .notdef
    and space), as a base64 ``data:`` URL, declared with the face's style (normal or italic).

    The face is declared ``font-weight: 400``, or ``700`` with ``bold=True`` (a wght=700 instance).
    The same characters give the same string, byte for byte.
    """
    return _face_css(_chars_key(chars), BOLD if bold else REGULAR, face)


def _face_css(chars: frozenset[str], weight: int, face: str = DEFAULT_FACE) -> str:
    return current().remember(
        "svgfont css", (chars, weight, face),
        lambda: css_rule(base64.b64encode(_subset_woff2(chars, weight, face)).decode("ascii"), weight, face), 128)


def css_rule(payload: str, weight: int = REGULAR, face: str = DEFAULT_FACE) -> str:
    """The ``@font-face`` rule :func:`font_face_css` writes for the base64 WOFF2 ``payload``: the
    face's style, and ``weight`` or the face's own weight (700 for the shipped bold faces),
    whichever is more."""
    f = font_face(face)
    return (f"@font-face {{ font-family: '{css_family(face)}'; font-style: {f.style}; "
            f"font-weight: {max(weight, f.weight)}; src: url(data:font/woff2;base64,{payload}) format('woff2'); }}")


def subset_matches(woff2: bytes, chars: Iterable[str], face: str = DEFAULT_FACE) -> bool:
    """True when the WOFF2 font ``woff2`` is what :func:`subset_font` makes of ``face`` for ``chars``
    as far as a reader sees it: its character map holds exactly the characters of ``chars`` and the
    space that the face draws, and each of them has the face's own outline (components resolved) and
    advance at the default instance. False for anything else, including bytes that are no font.
    About 25 ms for 120 characters (subsetting them: about 170 ms): the check of a cached subset
    against the font it claims to be."""
    from fontTools.ttLib import TTFont  # fontTools: imported when first needed, never at start-up

    _, cmap, _ = _outline_font(face)
    wanted = {ord(c) for c in _chars_key(chars)} | {0x20}
    try:
        sub = _numbered(TTFont(io.BytesIO(woff2), recalcTimestamp=False))
        sub_cmap = sub.getBestCmap() or {}
        if set(sub_cmap) != {u for u in wanted if u in cmap}:
            return False
        sub_glyphs = sub.getGlyphSet()
        return all(_drawn(sub_glyphs, name) == _face_glyph(face, u) for u, name in sub_cmap.items())
    except Exception:  # fontTools raises many kinds of errors on bytes that are no font
        return False


def _drawn(glyphs, name: str) -> tuple:
    """(advance, outline as a decomposed pen recording) of glyph ``name`` of a glyph set."""
    from fontTools.pens.recordingPen import DecomposingRecordingPen  # fontTools: only text as outlines
    pen = DecomposingRecordingPen(glyphs)
    glyphs[name].draw(pen)
    return glyphs[name].width, pen.value


def _face_glyph(face: str, code: int) -> tuple:
    """:func:`_drawn` for the character ``code`` of a registered face, at its default instance (4,096
    kept per font book)."""
    def make() -> tuple:
        glyphs, cmap, _ = _outline_font(face)
        return _drawn(glyphs, cmap[code])
    return current().remember("svgfont face glyphs", (face, code), make, 4096)


# --- outlines -------------------------------------------------------------------------------------

def _outline_font(face: str = DEFAULT_FACE):
    """(glyph set at the default instance, cmap, units per em) of the face as the PDF backend uses it
    (its glyphs named by number, :func:`_numbered`), opened once per font book (8 faces kept)."""
    def make():
        font = _numbered(_open_font(face))
        return font.getGlyphSet(), font.getBestCmap(), font["head"].unitsPerEm
    return current().remember("svgfont outline fonts", face, make, 8)


def _numbered(font):
    """``font`` (a fontTools TTFont) with, when its outlines are TrueType ('glyf'), its glyphs named by
    number ("g0", "g1", ...) through ``setGlyphOrder``: outlines, advances and the character map are
    read by glyph id all the same, but neither the 'post' table's names nor, for a font without
    them (a subset), the names fontTools derives from the Adobe Glyph List are read. A CFF font keeps
    its own names (its charstrings are keyed by them)."""
    if "glyf" in font:
        font.setGlyphOrder([f"g{i}" for i in range(font["maxp"].numGlyphs)])
    return font


def _reportlab_widths(face: str = DEFAULT_FACE):
    f = font_face(face)
    return f.widths, f.default_width  # 1/1000 em, as reportlab's stringWidth sums them


def text_outline_path(text: str, size_pt: float, x: float, y: float, anchor: str = "start",
                      valign: str = "baseline", rotate: float = 0.0,
                      font: str = DEFAULT_FACE) -> str:
    """SVG path data (``d``) in page mm, y down, tracing the glyph outlines of ``text`` set in the
    registered face ``font`` (Noto Sans by default) at ``size_pt``, placed as the PDF/SVG backends place ``Text(x, y, text, size_pt, anchor,
    valign, rotate=rotate)``: advances are reportlab's (they add up to
    :func:`pnp.core.fonts.text_width_mm`), ``anchor`` start/middle/end shifts left by 0, half or all of
    that width, ``valign="middle"`` moves the baseline down by half the cap height, and ``rotate``
    turns the text clockwise by degrees about (x, y). Coordinates are rounded to 0.001 mm.

    Fill the path with the text colour (nonzero fill rule); for bold text pass the bold face
    (pnp.core.fonts.styled_face), as the backends do. Raises ValueError for
    a character the face cannot draw, as the PDF backend does (KeyError for an unknown face).
    """
    from fontTools.pens.svgPathPen import SVGPathPen  # fontTools: only text as outlines
    from fontTools.pens.transformPen import TransformPen  # fontTools: only text as outlines

    if anchor not in ("start", "middle", "end"):
        raise ValueError(f"anchor must be start, middle or end, not {anchor!r}")
    if valign not in ("baseline", "middle"):
        raise ValueError(f"valign must be baseline or middle, not {valign!r}")
    missing = missing_glyphs(text, font)
    if missing:
        raise ValueError(f"the text {text!r} uses {missing[0]!r} (U+{ord(missing[0]):04X}), which "
                         f"{font_face(font).label} cannot draw")
    glyphs, cmap, upm = _outline_font(font)
    widths, default_width = _reportlab_widths(font)
    size = size_pt * PT_TO_MM
    advances = [widths.get(ord(ch), default_width) for ch in text]  # 1/1000 em
    width = sum(advances) * size / 1000.0
    x0 = {"start": 0.0, "middle": -width / 2, "end": -width}[anchor]
    shift = cap_height(font) * size / 2 if valign == "middle" else 0.0
    scale = size / upm
    theta = math.radians(rotate)
    cos, sin = math.cos(theta), math.sin(theta)
    if rotate % 360 == 0:
        cos, sin = 1.0, 0.0
    elif rotate % 90 == 0:  # exact quarter turns: no 6e-17 noise
        cos, sin = round(cos), round(sin)
    pen = SVGPathPen(glyphs, ntos=num)
    pen_x = 0.0  # 1/1000 em
    for ch, adv in zip(text, advances):
        name = cmap.get(ord(ch))
        if name is not None:
            # glyph (gx, gy), units, y up -> local (lx, ly), mm, y down -> page: rotate, translate
            lx = x0 + pen_x * size / 1000.0
            ly = shift
            # local = (lx + gx*scale, ly - gy*scale); page = R(local) + (x, y)
            a, b = cos * scale, sin * scale          # d(page)/d(gx)
            c, d = sin * scale, -cos * scale         # d(page)/d(gy)
            e = x + cos * lx - sin * ly
            f = y + sin * lx + cos * ly
            glyphs[name].draw(TransformPen(pen, (a, b, c, d, e, f)))
        pen_x += adv
    return pen.getCommands()


# --- shaped text -------------------------------------------------------------------------------------

def glyph_path(face: str, gid: int) -> str:
    """SVG path data of glyph ``gid`` of the registered face ``face`` (at its default instance) in
    1/1000 em, y down, its origin on the pen position: "" for a glyph with no outline (a space). What
    a shaped text (pnp.core.shaping.shape gives glyph ids) is drawn with, placed glyph by glyph; the
    outline is HarfBuzz's (pnp.core.shaping.draw_glyph), from the same font object that shaped it.
    The text is what fontTools' SVGPathPen writes behind a TransformPen (pnp.render.glyphpen). Kept
    per font book (4,096 glyphs, then the table starts over)."""
    return current().remember("svgfont glyph paths", (face, gid), lambda: _glyph_path(face, gid), 4096)


def _glyph_path(face: str, gid: int) -> str:
    def data() -> bytes:
        return _font_bytes(face)
    k = 1000.0 / units_per_em(face, data)
    pen = GlyphPathPen(k)
    draw_glyph(gid, face, data, pen)
    if not pen.unsupported:
        return pen.commands()
    from fontTools.pens.svgPathPen import SVGPathPen   # a segment HarfBuzz does not emit for TrueType
    from fontTools.pens.transformPen import TransformPen  # outlines: fontTools' own pens
    slow = SVGPathPen(None, ntos=num)
    draw_glyph(gid, face, data, TransformPen(slow, (k, 0, 0, -k, 0, 0)))
    return slow.getCommands()
