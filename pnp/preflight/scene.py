"""What pnp drew on one page, read from the IR it drew from: every text (its size in points as
printed), stroke (its width in mm as printed) and picture (its resolution at the printed size), each
with its box in page millimetres and the placed part it belongs to (pnp.core.ir.Placement), so a
finding names the component, the card, the page and the place.

The IR is the honest source for these facts: it holds each text's size and each line's width as pnp
meant them, before any PDF operator or anti-aliasing; the drawn pixels are measured separately
(pnp.preflight.pixels).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..core.ir import Circle, Component, Group, Image, Line, Page, Placement, Polygon, Rect, Text
from ..layout.artwork import IDENTITY, Affine, box_of, compose, text_corners

Box = tuple[float, float, float, float]  # (x0, y0, x1, y1) mm on the page, y down
EPS = 1e-6


@dataclass(frozen=True)
class Where:
    """A place on a drawn page: ``page`` (1-based), (``x``, ``y``) mm from the page's top-left corner,
    and what is there: ``component`` (None for sheet furniture: crop marks, footer, cover) and
    ``card`` ("card 3 'BIRD'": the 1-based front in the component's order and its title when the game
    gives one; "back"; "" for a board piece or furniture)."""
    page: int
    x: float
    y: float
    component: str | None = None
    card: str = ""

    def describe(self) -> str:
        """E.g. "word card, card 3 'BIRD', page 4 at 12.3, 45.6 mm"."""
        who = ", ".join(p for p in (self.component, self.card) if p) if self.component else "sheet furniture"
        return f"{who}, page {self.page} at {self.x:.1f}, {self.y:.1f} mm"

    def as_json(self) -> dict:
        return {"component": self.component, "card": self.card, "page": self.page,
                "x_mm": round(self.x, 2), "y_mm": round(self.y, 2)}


@dataclass(frozen=True)
class Mark:
    """One drawn shape: ``kind`` "text", "stroke" or "image", the IR ``shape``, its ``box`` on the
    page, ``scale`` (the linear scale of the groups around it: a text prints at size_pt x scale) and
    ``part``, the index of its placement on the page (None: sheet furniture)."""
    kind: str
    shape: object
    box: Box
    scale: float
    part: int | None


class PageScene:
    """The marks of one imposed page (``number``, 1-based) and its placements, with the kit's
    ``components`` by name to name cards."""

    def __init__(self, page: Page, number: int, components: Sequence[Component]) -> None:
        self.page = page
        self.number = number
        self.placements = page.placements
        self._by_name = {c.name: c for c in components}
        self.marks: list[Mark] = []
        for item in page.items:
            part = self._owner(item)
            for kind, shape, box, scale in _walk((item,), IDENTITY):
                self.marks.append(Mark(kind, shape, box, scale, part if part is not None else self._inside(box)))

    def _owner(self, item) -> int | None:
        """The placement a top-level group was placed at (pnp.layout.impose._place puts each part's
        drawing at its trim corner), or None."""
        if not isinstance(item, Group):
            return None
        for i, p in enumerate(self.placements):
            if abs(p.x - item.dx) < EPS and abs(p.y - item.dy) < EPS:
                return i
        return None

    def _inside(self, box: Box) -> int | None:
        """The placement whose trim holds the centre of ``box`` (board pieces), or None."""
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for i, p in enumerate(self.placements):
            if p.x <= cx <= p.x + p.w and p.y <= cy <= p.y + p.h:
                return i
        return None

    def component(self, part: int | None) -> Component | None:
        return None if part is None else self._by_name.get(self.placements[part].name)

    def where(self, x: float, y: float, part: int | None = None) -> Where:
        """The place (x, y) mm on this page, named by ``part`` (a placement index; None: the part
        whose trim holds the point, if any)."""
        if part is None:
            part = self._inside((x, y, x, y))
        if part is None:
            return Where(self.number, x, y)
        p = self.placements[part]
        return Where(self.number, x, y, p.name, card_label(self.component(part), p, self.page.side))


def card_label(comp: Component | None, p: Placement, side: str) -> str:
    """How a finding names the part at placement ``p``: "card 3 'BIRD'" (front 3, titled), "card 3",
    "back", or "" (a board piece)."""
    if p.face is None:
        return "back" if side == "back" or (comp is not None and not comp.board) else ""
    title = comp.titles[p.face] if comp is not None and p.face < len(comp.titles) else ""
    return f"card {p.face + 1}" + (f" {title!r}" if title else "")


def _scale(m: Affine) -> float:
    a, b, c, d, _e, _f = m
    return math.sqrt(abs(a * d - b * c))


def _walk(shapes, m: Affine) -> Iterator[tuple[str, object, Box, float]]:
    for s in shapes:
        if isinstance(s, Group):
            yield from _walk(s.children, compose(m, s))
        elif isinstance(s, Text):
            yield "text", s, box_of(m, text_corners(s)), _scale(m)
        elif isinstance(s, Image):  # the layer's box, which clips the picture
            yield "image", s, box_of(m, ((s.x, s.y), (s.x + s.w, s.y), (s.x, s.y + s.h), (s.x + s.w, s.y + s.h))), \
                _scale(m)
        elif isinstance(s, Line):
            if s.stroke_width > 0:
                yield "stroke", s, box_of(m, ((s.x1, s.y1), (s.x2, s.y2))), _scale(m)
        elif isinstance(s, (Rect, Circle, Polygon)) and s.stroke is not None and s.stroke_width > 0:
            if isinstance(s, Rect):
                pts = ((s.x, s.y), (s.x + s.w, s.y + s.h), (s.x, s.y + s.h), (s.x + s.w, s.y))
            elif isinstance(s, Circle):
                pts = ((s.cx - s.r, s.cy - s.r), (s.cx + s.r, s.cy + s.r), (s.cx - s.r, s.cy + s.r),
                       (s.cx + s.r, s.cy - s.r))
            else:
                pts = s.points
            if pts:
                yield "stroke", s, box_of(m, pts), _scale(m)
