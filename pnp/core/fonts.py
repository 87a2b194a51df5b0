"""The one embedded font: Noto Sans (from fontpkg-noto-sans), covering Latin, Greek and Cyrillic.

Glyph coverage and text widths are measured here, so a word with a glyph the font lacks is caught
before anything is drawn. Widths are in mm for a size in points.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .units import mm_to_pt, pt_to_mm

FONT_NAME = "NotoSans"
FONT_FAMILY = "Noto Sans"
CAP_HEIGHT = 0.714  # Noto Sans cap height, as a fraction of the em


@lru_cache(maxsize=1)
def font_path() -> Path:
    """Path of the Noto Sans TrueType file shipped by fontpkg-noto-sans."""
    import fontpkg_noto_sans
    files = sorted((Path(fontpkg_noto_sans.ROOT) / "files").glob("NotoSans[[]*.ttf"))
    if not files:
        raise RuntimeError("fontpkg-noto-sans is installed but has no NotoSans TTF")
    return files[0]


@lru_cache(maxsize=1)
def ttfont():
    """The reportlab TTFont for Noto Sans, registered once under FONT_NAME."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    font = TTFont(FONT_NAME, str(font_path()))
    pdfmetrics.registerFont(font)
    return font


@lru_cache(maxsize=1)
def _cmap() -> frozenset[int]:
    return frozenset(ttfont().face.charToGlyph)


@lru_cache(maxsize=1)
def _ascii_ok() -> bool:
    """Noto Sans draws every printable ASCII character (so such texts need no per-character check)."""
    cmap = _cmap()
    return all(c in cmap for c in range(0x20, 0x7f))


def missing_glyphs(text: str) -> list[str]:
    """The characters of ``text`` (other than spaces) that Noto Sans cannot draw, in order."""
    if text.isascii() and text.isprintable() and _ascii_ok():
        return []
    cmap = _cmap()
    return [ch for ch in dict.fromkeys(text) if not ch.isspace() and ord(ch) not in cmap]


@lru_cache(maxsize=1)
def _string_width():
    return ttfont().stringWidth  # reportlab's C-accelerated sum of advance widths, in points


_WIDTHS: dict[tuple[str, float], float] = {}


def text_width_mm(text: str, size_pt: float) -> float:
    """Advance width of ``text`` set in Noto Sans at ``size_pt`` points, in millimetres.

    Memoised in a plain table emptied when it reaches 8,192 entries: layouts that try sizes measure
    the same texts again and again, while a deck's words each come once or twice, so an LRU cache
    (the bookkeeping of which cost more than reportlab's C-accelerated sum) only thrashed there and
    this table just starts over."""
    key = (text, size_pt)
    got = _WIDTHS.get(key)
    if got is None:
        if len(_WIDTHS) >= 8192:
            _WIDTHS.clear()
        got = _WIDTHS[key] = pt_to_mm(_string_width()(text, size_pt))
    return got


def wrap(text: str, size_pt: float, width_mm: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width_mm`` at ``size_pt`` in Noto Sans (reportlab's
    simpleSplit, which measures with the font's real advance widths). A single word wider than the
    line stays whole on its own line (the caller checks widths)."""
    from reportlab.lib.utils import simpleSplit
    ttfont()
    return simpleSplit(text, FONT_NAME, size_pt, mm_to_pt(width_mm))
