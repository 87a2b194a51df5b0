"""Text contrast (WCAG 2.x, success criterion 1.4.3): the ratio of the relative luminances of a text's
colour (from the IR) and of the background actually drawn behind it (the rendered pixels of its box
and a margin around it, less the pixels of the text's own colour), (L1 + 0.05) / (L2 + 0.05)."""
from __future__ import annotations

import numpy as np

from ..core.colour import colour_of
from ..core.findings import FAIL, WARN
from .pixels import Raster
from .report import short as _short
from .scene import PageScene

NORMAL, LARGE = 4.5, 3.0   # WCAG 2.x SC 1.4.3: 4.5:1 for text, 3:1 for large text
LARGE_PT, LARGE_BOLD_PT = 18.0, 14.0  # WCAG's large text: 18 pt, or 14 pt bold
MARGIN_MM = 0.5            # of background around the text's ink box
TEXT_LIKE = 24             # a pixel within this of the text's colour (per channel, 0..255) is the text's own
RULE = ("WCAG 2.x SC 1.4.3 (contrast, minimum): 4.5:1 for text, 3:1 for large text (18 pt, or 14 pt bold); "
        "under 3:1 small text fails (docs/print.md, Preflight)")


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2.x relative luminance of sRGB colours (..., 3) in 0..255."""
    c = np.asarray(rgb, np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def ratio(a, b) -> float:
    """The WCAG contrast ratio of two sRGB colours (0..255 triples), 1..21."""
    la, lb = float(luminance(a)), float(luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def text_contrast(sc: PageScene, raster: Raster) -> list[tuple[str, object, str]]:
    """(status, where, what) for every text of the page (once per card and text) whose contrast with
    what is drawn behind it is under its WCAG threshold: a FAIL under LARGE for text under LARGE_PT,
    else a WARN."""
    out, seen = [], set()
    for m in sc.marks:
        if m.kind != "text" or not m.shape.text.strip():
            continue
        t = m.shape
        key = (sc.placements[m.part].name if m.part is not None else None,
               sc.placements[m.part].face if m.part is not None else sc.number, sc.page.side, t)
        if key in seen:
            continue
        seen.add(key)
        fill = np.array(_rgb(t.fill), np.float64)
        x0, y0, x1, y1 = m.box
        pixels = raster.crop((x0 - MARGIN_MM, y0 - MARGIN_MM, x1 + MARGIN_MM, y1 + MARGIN_MM)).reshape(-1, 3)
        if pixels.size == 0:
            continue
        behind = pixels[np.abs(pixels.astype(np.float64) - fill).max(axis=1) > TEXT_LIKE]
        back = np.median(behind, axis=0) if len(behind) else fill  # nothing else: the text is invisible
        r = ratio(fill, back)
        size = t.size_pt * m.scale
        large = size >= LARGE_PT or (t.bold and size >= LARGE_BOLD_PT)
        need = LARGE if large else NORMAL
        if r >= need - 1e-9:
            continue
        status = FAIL if (not large and r < LARGE) else WARN
        out.append((status, sc.where(x0, y0, m.part),
                    f"text {_short(t.text)!r} ({size:.1f} pt, {t.fill}) on {_hex(back)}: contrast {r:.2f}:1, "
                    f"under {need:g}:1"))
    return out


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour_of(colour) or "#ffffff"
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def _hex(rgb) -> str:
    return "#" + "".join(f"{int(round(v)):02x}" for v in rgb)

