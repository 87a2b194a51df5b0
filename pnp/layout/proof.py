"""Proof stamps (`pnp build --proof`): the kit's short version on every part and every sheet.

The version is "proof <first 8 hex digits of the kit's fingerprint> <date>" (pnp.pipeline.parts.
kit_fingerprint; the date is the day of SOURCE_DATE_EPOCH when set, else today, UTC). It is set in
PROOF_PT Noto Sans, grey, inside each part's safe area: SAFE mm inside the trim (the print services'
and PRINT.md's safe area, about 3 mm), centred at the foot of the part, on its front only; a part
too narrow for the whole version there gets the fingerprint alone. On a sheet it sits at the right
of the footer band, above the page footer. Without --proof nothing is added.
"""
from __future__ import annotations

import datetime
import math
import os
from dataclasses import replace
from typing import Iterable

from ..core.fonts import text_width_mm
from ..core.ir import Component, Group, LazyFronts, Text
from ..core.units import MM_PER_PT
from .marks import SCALE_BAR, SCALE_LABEL, SIDE_BASELINE
from .paper import Sheet

PROOF_PT = 6.0
PROOF_GREY = "#808080"
SAFE = 3.0  # mm inside the trim


def version(kit_fingerprint: str, epoch: str | None = None) -> str:
    """The short version printed by --proof and kept in the manifest: fingerprint prefix and date."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH") if epoch is None else epoch
    try:
        when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else None
    except (ValueError, OverflowError, OSError):
        when = None
    day = (when or datetime.datetime.now(datetime.timezone.utc)).date().isoformat()
    return f"proof {kit_fingerprint[:8]} {day}"


def _width_at_foot(comp: Component, depth: float) -> float:
    """How wide the part is ``depth`` mm above its bottom edge, less SAFE on each side."""
    if comp.shape == "circle":
        r = comp.width / 2
        return 2 * math.sqrt(max(0.0, r * r - (r - depth) ** 2)) - 2 * SAFE
    return comp.width - 2 * SAFE


def part_stamp(comp: Component, text: str) -> Text | None:
    """The stamp of one part of ``comp`` (local mm), or None when not even the fingerprint fits."""
    cap = PROOF_PT * MM_PER_PT
    depth = SAFE + cap  # the text's top: the narrowest line it spans on a round part
    for candidate in (text, text.split(" ")[1] if " " in text else text):
        if text_width_mm(candidate, PROOF_PT) <= _width_at_foot(comp, depth):
            return Text(comp.width / 2, comp.height - SAFE, candidate, size_pt=PROOF_PT, anchor="middle",
                        fill=PROOF_GREY)
    return None


def stamp_components(components: Iterable[Component], text: str) -> list[Component]:
    """Every component with the stamp drawn on top of each front (boards too)."""
    out = []
    for comp in components:
        stamp = part_stamp(comp, text)
        if stamp is None:
            out.append(comp)
            continue
        fronts = comp.fronts
        out.append(replace(comp, fronts=LazyFronts(range(len(fronts)),
                                                   lambda i, f=fronts, s=stamp: tuple(f[i]) + (s,))))
    return out


def sheet_stamp(sheet: Sheet, text: str):
    """The stamp of a sheet in its footer band: right-aligned one line above the page footer, or,
    for a footer turned to the side, after the scale bar's label."""
    x, y, w, h = sheet.printable
    if sheet.footer == "side":
        u = SCALE_BAR + 2.0 + text_width_mm(SCALE_LABEL, 6.5) + 4.0  # after the scale bar's label
        return Group((Text(u, SIDE_BASELINE, text, size_pt=PROOF_PT, fill=PROOF_GREY),), dx=x, dy=y + h, rotate=-90)
    return Text(x + w, y + h - 4.5, text, size_pt=PROOF_PT, anchor="end", fill=PROOF_GREY)
