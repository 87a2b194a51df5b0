"""Proof stamps (`pnp build --proof`): the kit's short version on every part and every sheet.

The version is "proof <first 8 hex digits of the kit's fingerprint> <date>" (pnp.pipeline.parts.
kit_fingerprint; the date is the day of SOURCE_DATE_EPOCH when set, else today, UTC). It is set in
PROOF_PT Noto Sans, grey, inside each part's safe area: SAFE mm inside the trim (the print services'
and PRINT.md's safe area, about 3 mm), centred at the foot of the part, on its front only; a part
too narrow for the whole version there gets the fingerprint alone. A template may set the spot
(``proof: {x, y, w, h}``, carried by ir.PartSource.proof): the stamp is centred in that box. On a sheet it sits at the right
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
from ..core.words import Words, english
from .marks import SCALE_BAR, SCALE_LABEL, SIDE_BASELINE
from .paper import Sheet

PROOF_PT = 6.0
PROOF_GREY = "#808080"
SAFE = 3.0  # mm inside the trim


def version(kit_fingerprint: str, epoch: str | None = None, _: Words = english) -> str:
    """The short version printed by --proof and kept in the manifest: fingerprint prefix and date
    ("proof" in pnp's words ``_``, one word: a part too narrow for the whole prints the second)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH") if epoch is None else epoch
    try:
        when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else None
    except (ValueError, OverflowError, OSError):
        when = None
    day = (when or datetime.datetime.now(datetime.timezone.utc)).date().isoformat()
    return _("proof {fingerprint} {day}").format(fingerprint=kit_fingerprint[:8], day=day)


def _width_at_foot(comp: Component, depth: float) -> float:
    """How wide the part is ``depth`` mm above its bottom edge, less SAFE on each side."""
    if comp.shape == "circle":
        r = comp.width / 2
        return 2 * math.sqrt(max(0.0, r * r - (r - depth) ** 2)) - 2 * SAFE
    return comp.width - 2 * SAFE


def part_stamp(comp: Component, text: str, box: tuple[float, float, float, float] | None = None) -> Text | None:
    """The stamp of one part of ``comp`` (local mm), or None when not even the fingerprint fits. In
    a template's ``box`` (x, y, w, h mm): centred in it, the fingerprint alone when the whole text is
    wider than the box."""
    if box is not None:
        x, y, w, h = box
        short = text.split(" ")[1] if " " in text else text
        fitting = text if text_width_mm(text, PROOF_PT) <= w else short
        return Text(x + w / 2, y + h / 2, fitting, size_pt=PROOF_PT, anchor="middle", valign="middle",
                    fill=PROOF_GREY)
    cap = PROOF_PT * MM_PER_PT
    depth = SAFE + cap  # the text's top: the narrowest line it spans on a round part
    for candidate in (text, text.split(" ")[1] if " " in text else text):
        if text_width_mm(candidate, PROOF_PT) <= _width_at_foot(comp, depth):
            return Text(comp.width / 2, comp.height - SAFE, candidate, size_pt=PROOF_PT, anchor="middle",
                        fill=PROOF_GREY)
    return None


def stamp_components(components: Iterable[Component], text: str) -> list[Component]:
    """Every component with the stamp drawn on top of each front (boards too), in the ``proof``
    box of the front's PartSource when its template sets one."""
    out = []
    for comp in components:
        default = part_stamp(comp, text)
        boxes = [s.proof for s in comp.sources] if any(s.proof for s in comp.sources) else None
        if default is None and boxes is None:
            out.append(comp)
            continue
        stamps = [default] * len(comp.fronts) if boxes is None else \
            [part_stamp(comp, text, b) if b is not None else default for b in boxes]
        out.append(replace(comp, fronts=LazyFronts(range(len(comp.fronts)), lambda i, f=comp.fronts, s=stamps:
                                                   tuple(f[i]) + ((s[i],) if s[i] is not None else ()))))
    return out


def sheet_stamp(sheet: Sheet, text: str, _: Words = english):
    """The stamp of a sheet in its footer band: right-aligned one line above the page footer, or,
    for a footer turned to the side, after the scale bar's label (in pnp's words ``_``)."""
    x, y, w, h = sheet.printable
    if sheet.footer == "side":
        u = SCALE_BAR + 2.0 + text_width_mm(_(SCALE_LABEL), 6.5) + 4.0  # after the scale bar's label
        return Group((Text(u, SIDE_BASELINE, text, size_pt=PROOF_PT, fill=PROOF_GREY),), dx=x, dy=y + h, rotate=-90)
    return Text(x + w, y + h - 4.5, text, size_pt=PROOF_PT, anchor="end", fill=PROOF_GREY)
