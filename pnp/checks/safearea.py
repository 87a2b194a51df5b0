"""A print service's safe area, checked on the drawn parts it takes: every text whose ink, and every
picture that stops short of the trim, reaching past the line ``safe`` mm inside the trim
(pnp.core.safearea). Findings for `pnp validate --service`, notes for `pnp build --format pod`.

The service is anything with ``name``, ``title`` and ``safe`` (mm): pnp.render.pod.Service. The
caller passes only the components the service takes (pnp.render.pod.why_not).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ..core.findings import PASS, WARN, Finding
from ..core.ir import Component, Group, Text
from ..core.safearea import insets, past_safe_line
from ..layout.artwork import Marks, image_boxes


@dataclass(frozen=True, eq=False)
class Crossing:
    """A text (or, with ``art``, a picture: ``text`` is then its file name) reaching past a
    service's safe area: on face ``card`` (1-based, in the component's order; 0 for the common back)
    of ``side`` ("front" or "back"), ``by`` mm past the safe line, at ``edge`` (top, bottom, left or
    right: where it reaches farthest)."""
    card: int
    side: str
    text: str
    by: float
    edge: str
    art: bool = False

    def describe(self, name: str) -> str:
        """E.g. "word card #12, front: text 'BIRD' reaches 1.20 mm past the safe area at the top edge"."""
        where = f"{name}, back" if self.side == "back" else f"{name} #{self.card}, front"
        what = f"picture {self.text!r}" if self.art else f"text {self.text!r}"
        return f"{where}: {what} reaches {self.by:.2f} mm past the safe area at the {self.edge} edge"


MAX_FINDINGS = 10  # per component; the rest are counted in one more finding
TRIM_EPS = 0.01    # mm: a picture this close to the trim reaches it (background art, meant to bleed)
NOTE_SHOWN = 3     # crossings named in a build's note; the rest are counted


def crossings(comp: Component, safe: float) -> list[Crossing]:
    """Every text of ``comp``'s faces and back whose ink box reaches past the line ``safe`` mm inside
    the trim, face by face, in order; then every picture (an Image) that reaches past it at an edge
    without reaching the trim there (art that stops between the safe line and the cut may be cut
    into; a picture that reaches the trim is background, meant to bleed)."""
    out: list[Crossing] = []
    drawings = [(i + 1, "front", d) for i, d in enumerate(comp.fronts)]
    drawings += [(0, "back", comp.back)] if comp.back is not None else []
    for card, side, drawing in drawings:
        for box, text in zip(Marks(drawing).texts, _texts(drawing)):
            past = past_safe_line(insets(box, comp.width, comp.height, outline=comp.cut_shape.points), safe)
            if past is not None:
                out.append(Crossing(card, side, text, past[1], past[0]))
        for image, box in image_boxes(drawing):
            short = {e: d for e, d in insets(box, comp.width, comp.height, outline=comp.cut_shape.points).items()
                     if d > TRIM_EPS}  # art to trim
            past = past_safe_line(short, safe)
            if past is not None:
                out.append(Crossing(card, side, Path(image.src).name, past[1], past[0], art=True))
    return out


def findings(components: Sequence[Component], service) -> list[Finding]:
    """``pnp validate --service``: per component, a warning for each face whose text or picture
    crosses ``service``'s safe area (component, card, side, by how many mm; at most MAX_FINDINGS,
    then one counting the rest), or one pass when none does. Rule source: the service's template
    (docs/print.md)."""
    rule = f"{service.title} card template: safe area {service.safe:.2f} mm inside the trim (docs/print.md)"
    out = []
    for comp in components:
        found = crossings(comp, service.safe)
        for c in found[:MAX_FINDINGS]:
            out.append(Finding(WARN, f"{c.describe(comp.name)} (it may be cut off)", rule))
        if len(found) > MAX_FINDINGS:
            out.append(Finding(WARN, f"{comp.name}: {len(found) - MAX_FINDINGS} more texts or pictures cross the safe area", rule))
        if not found:
            faces = len(comp.fronts) + (comp.back is not None)
            out.append(Finding(PASS, f"{comp.name}: the text and pictures of all {faces} faces lie inside the safe "
                                     "area", rule))
    return out


def notes(components: Sequence[Component], service) -> list[str]:
    """`pnp build --format pod`: one note per component whose text or pictures cross ``service``'s
    safe area, naming the first NOTE_SHOWN crossings."""
    out = []
    for comp in components:
        found = crossings(comp, service.safe)
        if found:
            shown = "; ".join(c.describe(comp.name) for c in found[:NOTE_SHOWN])
            shown += f"; {len(found) - NOTE_SHOWN} more" if len(found) > NOTE_SHOWN else ""
            what = "text and pictures cross" if any(c.art for c in found) and not all(c.art for c in found) \
                else "pictures cross" if found[0].art else "text crosses"
            out.append(f"{comp.name}: {what} {service.title}'s safe area ({service.safe:.2f} mm inside the "
                       f"trim) and may be cut: {shown}. See the contact sheet, or pnp validate --service "
                       f"{service.name if service.name != 'custom' else '…'} for every card.")
    return out


def _texts(drawing) -> list[str]:
    """The strings of every Text in ``drawing``, in the order artwork.Marks walks them."""
    out = []
    for shape in drawing:
        if isinstance(shape, Group):
            out += _texts(shape.children)
        elif isinstance(shape, Text):
            out.append(shape.text)
    return out
