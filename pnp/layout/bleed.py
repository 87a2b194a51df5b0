"""Bleed: artwork that reaches the trim is extended past it, so a slightly-off cut shows no white edge."""
from __future__ import annotations

from dataclasses import replace

from ..core.ir import Circle, Drawing, Group, Image, Rect

EPS = 1e-6


def extend_for_bleed(drawing: Drawing, width: float, height: float, bleed: float) -> Drawing:
    """Return ``drawing`` with every ``bleed=True`` shape pushed ``bleed`` mm past the trim.

    A Rect or an Image (background art: its box grows, and the picture is fitted to the grown box)
    grows on each side that lies on the trim (0, 0, width, height); a Circle (a counter's
    background) grows its radius. Untransformed Groups are searched too. Other shapes are unchanged.
    """
    if bleed <= 0:
        return drawing
    return tuple(_extend(s, width, height, bleed) for s in drawing)


def _extend(shape, width: float, height: float, b: float):
    if isinstance(shape, (Rect, Image)) and shape.bleed:
        x0, y0, x1, y1 = shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
        if abs(x0) < EPS:
            x0 -= b
        if abs(y0) < EPS:
            y0 -= b
        if abs(x1 - width) < EPS:
            x1 += b
        if abs(y1 - height) < EPS:
            y1 += b
        return replace(shape, x=x0, y=y0, w=x1 - x0, h=y1 - y0)
    if isinstance(shape, Circle) and shape.bleed:
        return replace(shape, r=shape.r + b)
    if isinstance(shape, Group) and (shape.dx, shape.dy, shape.rotate, shape.sx, shape.sy) == (0, 0, 0, 1, 1):
        return replace(shape, children=extend_for_bleed(shape.children, width, height, b))
    return shape
