"""Drawing helpers shared by the board games (Nooks, Nonaga): stars, hex cells and fitting
a board drawing into its trim. All lengths in mm, y down. Not a game (the registry skips _modules).
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

from ..core.fonts import styled_face, text_width_mm
from ..geometry import hexgrid
from ..core.ir import Drawing, Group, Polygon, Text
from ..core.units import pt_to_mm


def star(radius: float, points: int = 5, inner: float = 0.45, **paint) -> Polygon:
    """A star polygon centred on (0, 0), tip up, outer ``radius`` mm."""
    pts = []
    for i in range(2 * points):
        rr = radius if i % 2 == 0 else radius * inner
        a = math.radians(-90 + 180 * i / points)
        pts.append((rr * math.cos(a), rr * math.sin(a)))
    return Polygon(tuple(pts), **paint)


def hex_cell(cell: hexgrid.Hex, pitch: float, pointy: bool, fill: str | None, stroke: str | None,
             width: float) -> Polygon:
    """The hexagon of ``cell`` (``pitch`` mm across the flats) around its layout centre."""
    cx, cy = hexgrid.center(cell, pitch, pointy)
    return Polygon(hexgrid.hex_corners(cx, cy, pitch, pointy), fill=fill, stroke=stroke, stroke_width=width)


def text_box(t: Text) -> tuple[float, float, float, float]:
    """Approximate (x0, y0, x1, y1) of an unrotated Text, mm."""
    w = text_width_mm(t.text, t.size_pt, styled_face(t.font, t.bold))
    h = pt_to_mm(t.size_pt) * 0.75
    x0 = {"start": t.x, "middle": t.x - w / 2, "end": t.x - w}[t.anchor]
    y0 = t.y - h / 2 if t.valign == "middle" else t.y - h
    return (x0, y0, x0 + w, y0 + h)


def fit(shapes: Sequence, points: Iterable[tuple[float, float]], margin: float) -> tuple[float, float, float, float, Drawing]:
    """Shift ``shapes`` so that ``points`` and every Text's box lie ``margin`` mm inside the trim.

    Returns (width, height, dx, dy, drawing): the trim size, the shift applied to the original
    coordinates, and the shifted drawing.
    """
    xs, ys = [], []
    for x, y in points:
        xs.append(x)
        ys.append(y)
    for s in shapes:
        if isinstance(s, Text):
            x0, y0, x1, y1 = text_box(s)
            xs += [x0, x1]
            ys += [y0, y1]
    dx, dy = margin - min(xs), margin - min(ys)
    w, h = max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin
    return w, h, dx, dy, (Group(tuple(shapes), dx=dx, dy=dy),)
