"""Sizes as printed, from the IR (pnp.preflight.scene): text under MIN_TEXT_PT, lines thinner than
MIN_LINE_PT, pictures under the resolution a print needs at their printed size."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..core.findings import FAIL, WARN, Finding
from ..core.units import MM_PER_PT
from ..inputs.images import FAIL_DPI, WARN_DPI
from ..render.base import place_image
from .report import listed, short as _short
from .scene import PageScene

MIN_TEXT_PT = 6.0    # smallest legible print size: the usual print-shop minimum (docs/print.md, Preflight)
MIN_LINE_PT = 0.25   # 0.09 mm: thinner lines break up on press (docs/print.md, Preflight)
EPS = 1e-6
TEXT_RULE = f"print-shop minimum: text at least {MIN_TEXT_PT:g} pt (docs/print.md, Preflight)"
LINE_RULE = (f"print-shop minimum: lines at least {MIN_LINE_PT:g} pt ({MIN_LINE_PT * MM_PER_PT:.2f} mm) "
             "(docs/print.md, Preflight)")
PICTURE_RULE = (f"docs/templates.md, Images: pictures at {WARN_DPI:g} dpi or more at their printed size; under "
                f"{FAIL_DPI:g} dpi they print blurred")


def text_sizes(scenes: Iterable[PageScene]) -> list[Finding]:
    """A FAIL for every text printed under MIN_TEXT_PT (its size times the scale of its groups)."""
    found, seen = [], set()
    for sc in scenes:
        for m in sc.marks:
            size = m.shape.size_pt * m.scale if m.kind == "text" else None
            if size is not None and size < MIN_TEXT_PT - EPS and _first(seen, sc, m, size):
                found.append((FAIL, sc.where(m.box[0], m.box[1], m.part),
                              f"text {_short(m.shape.text)!r} at {size:.2f} pt, under {MIN_TEXT_PT:g} pt"))
    return listed(found, TEXT_RULE, f"every text is {MIN_TEXT_PT:g} pt or larger")


def line_widths(scenes: Iterable[PageScene]) -> list[Finding]:
    """A FAIL for every line or outline printed thinner than MIN_LINE_PT."""
    found, seen = [], set()
    for sc in scenes:
        for m in sc.marks:
            if m.kind != "stroke":
                continue
            width_pt = m.shape.stroke_width * m.scale / MM_PER_PT
            if width_pt < MIN_LINE_PT - EPS and _first(seen, sc, m, width_pt):
                found.append((FAIL, sc.where(m.box[0], m.box[1], m.part),
                              f"{type(m.shape).__name__.lower()} {width_pt * MM_PER_PT:.3f} mm ({width_pt:.2f} pt) "
                              f"wide, under {MIN_LINE_PT:g} pt"))
    return listed(found, LINE_RULE, f"every line is {MIN_LINE_PT:g} pt or wider")


def picture_dpi(scenes: Iterable[PageScene]) -> list[Finding]:
    """A FAIL for every raster picture printed under FAIL_DPI, a WARN under WARN_DPI (the smaller
    axis; exactly WARN_DPI passes)."""
    found, seen = [], set()
    for sc in scenes:
        for m in sc.marks:
            if m.kind != "image":
                continue
            facts, (_x, _y, w, h) = place_image(m.shape)
            dpi = facts.dpi_at(w * m.scale, h * m.scale)
            if dpi is None or dpi >= WARN_DPI or not _first(seen, sc, m, dpi):
                continue
            status = FAIL if dpi < FAIL_DPI else WARN
            found.append((status, sc.where(m.box[0], m.box[1], m.part),
                          f"picture {Path(m.shape.src).name!r} printed {w * m.scale:.1f} x {h * m.scale:.1f} mm at "
                          f"{dpi:.0f} dpi, under {FAIL_DPI if status == FAIL else WARN_DPI:g} dpi"))
    return listed(found, PICTURE_RULE, f"every raster picture is {WARN_DPI:g} dpi or more at its printed size")


def _first(seen: set, sc: PageScene, m, value: float) -> bool:
    """True the first time this shape is found at this value on this component's card: a face
    printed in many copies is named once."""
    comp = sc.placements[m.part].name if m.part is not None else None
    face = sc.placements[m.part].face if m.part is not None else sc.number
    key = (comp, face, sc.page.side, m.shape, round(value, 3))
    if key in seen:
        return False
    seen.add(key)
    return True
