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


def missing_glyphs(text: str) -> list[str]:
    """The characters of ``text`` (other than spaces) that Noto Sans cannot draw, in order."""
    cmap = _cmap()
    return [ch for ch in dict.fromkeys(text) if not ch.isspace() and ord(ch) not in cmap]


@lru_cache(maxsize=4096)
def text_width_mm(text: str, size_pt: float) -> float:
    """Advance width of ``text`` set in Noto Sans at ``size_pt`` points, in millimetres."""
    from reportlab.pdfbase import pdfmetrics
    ttfont()
    return pt_to_mm(pdfmetrics.stringWidth(text, FONT_NAME, size_pt))


def wrap(text: str, size_pt: float, width_mm: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width_mm`` at ``size_pt`` in Noto Sans (reportlab's
    simpleSplit, which measures with the font's real advance widths). A single word wider than the
    line stays whole on its own line (the caller checks widths)."""
    from reportlab.lib.utils import simpleSplit
    ttfont()
    return simpleSplit(text, FONT_NAME, size_pt, mm_to_pt(width_mm))
