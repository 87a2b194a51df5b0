"""Shaped parts' outlines: a hexagon in its box and a designer's polygon, each checked before it is cut.

Outlines are (x, y) vertices in mm from the part's top-left corner, y down (pnp.core.outline); a
checker returns a problem in a designer's words, or None.
"""
from __future__ import annotations

import math

from ..core.outline import Outline, crossing, hex_in_box, signed_area

HEX_RATIO = 2 / math.sqrt(3)  # a regular hexagon's box: long side / short side (corner to corner over flat to flat)
HEX_TOLERANCE = 0.02          # a hex box may differ from HEX_RATIO by this fraction (46 / 40 is 0.4 % off)
EDGE_EPS = 1e-6               # mm: a point this far past the box is on its edge


def hex_problem(width: float, height: float) -> str | None:
    """Why a ``width`` x ``height`` mm box holds no regular hexagon (within HEX_TOLERANCE), or None.

    A pointy-top hexagon's box is 2/sqrt(3) = 1.1547 times taller than wide, a flat-top one's as many
    times wider than tall; a box within 2 % of that takes the hexagon that touches its four sides
    (pnp.core.outline.hex_in_box), so [40, 46] is a pointy-top hex of 40 mm across the flats."""
    long, short = max(width, height), min(width, height)
    if short <= 0 or abs(long / short / HEX_RATIO - 1) > HEX_TOLERANCE:
        pointy = f"[{width:g}, {width * HEX_RATIO:.2f}]"
        flat = f"[{height * HEX_RATIO:.2f}, {height:g}]"
        return (f"a hex's box is 2/sqrt(3) = 1.155 times longer one way than the other (within "
                f"{HEX_TOLERANCE:.0%}); {width:g} x {height:g} mm is {long / short:.3f}. Write size: {pointy} for a "
                f"pointy-top hex or {flat} for a flat-top one")
    return None


def hex_outline(width: float, height: float) -> Outline:
    """The hexagon inscribed in the box (pnp.core.outline.hex_in_box): pointy-top when taller than wide."""
    return hex_in_box(width, height)


def polygon_problem(points: Outline, width: float, height: float) -> str | None:
    """Why ``points`` cannot be a part's cut outline in a ``width`` x ``height`` mm box, or None: at
    least 3 points, every one inside the box, no point repeated, some area, and simple (no edge
    crosses or touches another except its neighbours at their shared point)."""
    if len(points) < 3:
        return f"a polygon needs at least 3 points, got {len(points)}"
    for i, (x, y) in enumerate(points):
        if not (-EDGE_EPS <= x <= width + EDGE_EPS and -EDGE_EPS <= y <= height + EDGE_EPS):
            return (f"point {i + 1} [{x:g}, {y:g}] lies outside the part's size {width:g} x {height:g} mm "
                    "(points are mm from the top-left corner)")
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            if math.dist(points[i], points[j]) <= EDGE_EPS:
                return f"points {i + 1} and {j + 1} are the same point [{points[i][0]:g}, {points[i][1]:g}]"
    crossed = crossing(points)
    if crossed is not None:
        i, j = crossed
        n = len(points)
        return (f"the outline crosses itself: the edge from point {i + 1} to {(i + 1) % n + 1} meets the edge from "
                f"point {j + 1} to {(j + 1) % n + 1}; list the points in order around the shape")
    if abs(signed_area(points)) <= EDGE_EPS:
        return "the points enclose no area (they lie on one line)"
    return None
