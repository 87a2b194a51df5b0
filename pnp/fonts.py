"""The one embedded font: Noto Sans (from fontpkg-noto-sans), covering Latin, Greek and Cyrillic.

Glyph coverage and text widths are measured here, so a word with a glyph the font lacks is caught
before anything is drawn. Widths are in mm for a size in points.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

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
    return pdfmetrics.stringWidth(text, FONT_NAME, size_pt) * 25.4 / 72.0
