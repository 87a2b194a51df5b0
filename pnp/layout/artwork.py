"""Where a drawing's playing marks are, so page furniture (join lines, registration targets, strip
labels) can be placed clear of them.

A playing mark is any Text (a cell label, a side letter, a caption) and any Circle or Polygon no
larger than MARK_MAX mm (a node, a setup marker, a start symbol). Larger shapes (hex cells, colour
bands, backgrounds) are the field the marks sit on and may be crossed. Boxes are (x0, y0, x1, y1)
in the drawing's own coordinates (mm, y down), with Group transforms applied.

Besides the marks, the drawn strokes: every stroked Line, and the edges of every stroked Polygon and
Rect, as segments ((x0, y0), (x1, y1)); a strip label must not be crossed by one (a hex edge, a
network edge). Stroked Rects larger than MARK_MAX (a card box) are ``frames``: a join line keeps out
of them where it can.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from typing import Iterable, Iterator

from ..core.fonts import cap_height, styled_face, text_width_mm
from ..core.ir import Circle, Group, Image, Line, Polygon, Rect, Text
from ..core.units import MM_PER_PT

MARK_MAX = 16.0  # mm: circles and polygons up to this size are playing marks
DESCENT = 0.25   # of the font size: room below the baseline

Box = tuple[float, float, float, float]
Segment = tuple[tuple[float, float], tuple[float, float]]
Affine = tuple[float, float, float, float, float, float]  # x' = a x + b y + e, y' = c x + d y + f
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def compose(outer: Affine, g: Group) -> Affine:
    """``outer`` after the group's own transform: translate, then rotate (clockwise), then scale."""
    t = math.radians(g.rotate)
    cos, sin = math.cos(t), math.sin(t)
    inner = (cos * g.sx, -sin * g.sy, sin * g.sx, cos * g.sy, g.dx, g.dy)
    a, b, c, d, e, f = outer
    ia, ib, ic, id_, ie, if_ = inner
    return (a * ia + b * ic, a * ib + b * id_, c * ia + d * ic, c * ib + d * id_,
            a * ie + b * if_ + e, c * ie + d * if_ + f)


def box_of(m: Affine, pts: Iterable[tuple[float, float]]) -> Box:
    """The box (x0, y0, x1, y1) of ``pts`` mapped through ``m``."""
    a, b, c, d, e, f = m
    xs, ys = [], []
    for x, y in pts:
        xs.append(a * x + b * y + e)
        ys.append(c * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))


def text_corners(t: Text) -> list[tuple[float, float]]:
    """The four corners of ``t``'s ink box (cap height above the baseline, DESCENT below), in the
    coordinates ``t`` is drawn in, turned by its rotation about its anchor point."""
    size = t.size_pt * MM_PER_PT
    width = text_width_mm(t.text, t.size_pt, styled_face(t.font, t.bold))
    cap = cap_height(t.font)
    x0 = {"start": 0.0, "middle": -width / 2, "end": -width}[t.anchor]
    base = cap * size / 2 if t.valign == "middle" else 0.0
    y0, y1 = base - cap * size, base + DESCENT * size
    r = math.radians(t.rotate)
    cos, sin = math.cos(r), math.sin(r)
    return [(t.x + u * cos - v * sin, t.y + u * sin + v * cos) for u, v in ((x0, y0), (x0 + width, y0),
                                                                             (x0 + width, y1), (x0, y1))]


def image_boxes(shapes, m: Affine = IDENTITY) -> Iterator[tuple[Image, Box]]:
    """Every Image of a drawing with its box (x0, y0, x1, y1) mm in the drawing's coordinates
    (Group transforms applied; the layer's box, which clips the picture)."""
    for s in shapes:
        if isinstance(s, Group):
            yield from image_boxes(s.children, compose(m, s))
        elif isinstance(s, Image):
            yield s, box_of(m, ((s.x, s.y), (s.x + s.w, s.y), (s.x, s.y + s.h), (s.x + s.w, s.y + s.h)))


def _walk(shapes, m: Affine) -> Iterator[tuple[bool, Box]]:
    for s in shapes:
        if isinstance(s, Group):
            yield from _walk(s.children, compose(m, s))
        elif isinstance(s, Text):
            yield True, box_of(m, text_corners(s))
        elif isinstance(s, Circle) and 2 * s.r <= MARK_MAX:
            yield False, box_of(m, ((s.cx - s.r, s.cy - s.r), (s.cx + s.r, s.cy + s.r),
                                    (s.cx - s.r, s.cy + s.r), (s.cx + s.r, s.cy - s.r)))
        elif isinstance(s, Polygon) and s.points:
            box = box_of(m, s.points)
            if box[2] - box[0] <= MARK_MAX and box[3] - box[1] <= MARK_MAX:
                yield False, box


def _apply(m: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + b * y + e, c * x + d * y + f)


def _strokes(shapes, m: Affine) -> Iterator[tuple[Box | None, list[Segment]]]:
    """(its box when the shape is a frame, else None; its stroked straight edges) for every
    stroked Line, Polygon and Rect of a drawing."""
    for s in shapes:
        if isinstance(s, Group):
            yield from _strokes(s.children, compose(m, s))
            continue
        if isinstance(s, Line):
            pts, closed, frame = [(s.x1, s.y1), (s.x2, s.y2)], False, False
        elif isinstance(s, Polygon) and s.stroke and len(s.points) > 1:
            pts, closed, frame = list(s.points), True, False
        elif isinstance(s, Rect) and s.stroke:
            pts = [(s.x, s.y), (s.x + s.w, s.y), (s.x + s.w, s.y + s.h), (s.x, s.y + s.h)]
            closed, frame = True, s.w > MARK_MAX and s.h > MARK_MAX
        else:
            continue
        mapped = [_apply(m, x, y) for x, y in pts]
        yield (box_of(m, pts) if frame else None), list(zip(mapped, mapped[1:] + mapped[:1] if closed else mapped[1:]))


class Marks:
    """The playing marks of a drawing (a tuple of IR shapes): ``texts`` and ``shapes`` (small
    circles and polygons) as boxes; ``all`` is both. ``segments``: every stroked straight edge
    ((x0, y0), (x1, y1)); ``frames``: the boxes of stroked Rects larger than MARK_MAX both ways."""

    def __init__(self, drawing) -> None:
        self.texts: list[Box] = []
        self.shapes: list[Box] = []
        self.segments: list[Segment] = []
        self.frames: list[Box] = []
        for is_text, box in _walk(drawing, IDENTITY):
            (self.texts if is_text else self.shapes).append(box)
        for frame, segments in _strokes(drawing, IDENTITY):
            self.segments.extend(segments)
            if frame is not None:
                self.frames.append(frame)
        self.all = self.texts + self.shapes

    def swapped(self) -> "Marks":
        """The same marks with x and y exchanged (to treat a horizontal line like a vertical one)."""
        out = Marks(())
        out.texts = [(b, a, d, c) for a, b, c, d in self.texts]
        out.shapes = [(b, a, d, c) for a, b, c, d in self.shapes]
        out.segments = [((p[1], p[0]), (q[1], q[0])) for p, q in self.segments]
        out.frames = [(b, a, d, c) for a, b, c, d in self.frames]
        out.all = out.texts + out.shapes
        return out


def strip_boxes(segments: Iterable[Segment], x0: float, x1: float) -> list[Box]:
    """The parts of ``segments`` inside the strip x0 <= x <= x1, each as its box (x0, y0, x1, y1):
    a box spanning the strip's width meets a segment exactly where its extent along the strip
    (y) meets that part's. Segments that miss the strip give nothing."""
    out: list[Box] = []
    for (ax, ay), (bx, by) in segments:
        if max(ax, bx) < x0 or min(ax, bx) > x1:
            continue
        if ax == bx:
            out.append((ax, min(ay, by), ax, max(ay, by)))
            continue
        ys = []
        for x in (max(min(ax, bx), x0), min(max(ax, bx), x1)):
            ys.append(ay + (by - ay) * (x - ax) / (bx - ax))
        out.append((max(min(ax, bx), x0), min(ys), min(max(ax, bx), x1), max(ys)))
    return out


def hits(box: Box, marks: Iterable[Box], clearance: float = 0.0) -> int:
    """How many of ``marks`` come within ``clearance`` mm of ``box`` (boxes as (x0, y0, x1, y1))."""
    x0, y0, x1, y1 = box
    return sum(1 for a, b, c, d in marks
               if a - clearance < x1 and c + clearance > x0 and b - clearance < y1 and d + clearance > y0)


class Sweep:
    """Counts the boxes a vertical line x = ``at`` (as long as the drawing) passes within ``clear``
    mm of, in O(log n): for choosing where a join line goes among many marks."""

    def __init__(self, boxes: Iterable[Box], clear: float) -> None:
        boxes = list(boxes)
        self._lo = sorted(b[0] - clear for b in boxes)
        self._hi = sorted(b[2] + clear for b in boxes)

    def __call__(self, at: float) -> int:
        return bisect_left(self._lo, at) - bisect_right(self._hi, at)
