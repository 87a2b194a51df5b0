"""Closed polygon outlines (cut paths of shaped parts): area, simplicity, containment, distance and offset.

Points are (x, y) pairs in mm, y down, the polygon closed implicitly (the last point joins the first).
Shared by the spec checks of a shape (pnp.custom), the bleed clip and nesting (pnp.layout) and the safe
area (pnp.core.safearea); pure arithmetic, no drawing.
"""
from __future__ import annotations

import math

Point = tuple[float, float]
Outline = tuple[Point, ...]

EPS = 1e-9
MITRE_LIMIT = 4.0  # an offset corner sharper than this (x the offset) is bevelled, as SVG's stroke-miterlimit 4


def signed_area(points: Outline) -> float:
    """Shoelace area in mm²: positive when the points run clockwise on the page (y down), as a
    person reading the page sees them turn; negative anticlockwise."""
    n = len(points)
    return sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)) / 2


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    return (min(a[0], b[0]) - EPS <= p[0] <= max(a[0], b[0]) + EPS
            and min(a[1], b[1]) - EPS <= p[1] <= max(a[1], b[1]) + EPS)


def segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether the closed segments ab and cd share a point (touching counts)."""
    d1, d2, d3, d4 = _cross(c, d, a), _cross(c, d, b), _cross(a, b, c), _cross(a, b, d)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and ((d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)):
        return True
    return ((abs(d1) <= EPS and _on_segment(a, c, d)) or (abs(d2) <= EPS and _on_segment(b, c, d))
            or (abs(d3) <= EPS and _on_segment(c, a, b)) or (abs(d4) <= EPS and _on_segment(d, a, b)))


def crossing(points: Outline) -> tuple[int, int] | None:
    """The first pair (i, j) of edges (edge i runs from point i to point i + 1) that meet although
    they are not neighbours, or neighbours that fold back on each other; None for a simple polygon."""
    n = len(points)
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        for j in range(i + 1, n):
            c, d = points[j], points[(j + 1) % n]
            if j == i + 1 or (i == 0 and j == n - 1):  # neighbours share one point: only a fold-back counts
                shared, other, far = (b, d, a) if j == i + 1 else (a, c, b)
                if abs(_cross(shared, far, other)) <= EPS and _dot(shared, far, other) > 0:
                    return (i, j)
                continue
            if segments_meet(a, b, c, d):
                return (i, j)
    return None


def _dot(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[0] - o[0]) + (a[1] - o[1]) * (b[1] - o[1])


def contains(points: Outline, p: Point) -> bool:
    """Whether ``p`` lies inside the polygon or on its outline, by the nonzero winding rule (the
    rule PDF and SVG clip paths follow, so a grown outline whose notch closed over holds the notch)."""
    n = len(points)
    winding = 0
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        side = _cross(a, b, p)
        if abs(side) <= EPS and _on_segment(p, a, b):
            return True
        if a[1] <= p[1] < b[1] and side > 0:
            winding += 1
        elif b[1] <= p[1] < a[1] and side < 0:
            winding -= 1
    return winding != 0


def point_segment(p: Point, a: Point, b: Point) -> float:
    """Distance in mm from ``p`` to the segment ab."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 <= EPS else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def box_inset(box: tuple[float, float, float, float], points: Outline) -> float:
    """How far the box (x0, y0, x1, y1) keeps inside the outline, mm: the least distance from the
    box to the outline when the box lies inside it; when it reaches past, minus how far its farthest
    corner lies outside (or minus the least such distance, 0 when an edge crosses without a corner
    outside, as a notch into the box does)."""
    x0, y0, x1, y1 = box
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    outside = [min(point_segment(c, a, b) for a, b in edges) for c in corners if not contains(points, c)]
    if outside:
        return -max(outside)
    for a, b in edges:  # an outline vertex inside the box (a notch): the box is cut
        for k in range(4):
            if segments_meet(a, b, corners[k], corners[(k + 1) % 4]):
                return 0.0
    best = min(point_segment(c, a, b) for c in corners for a, b in edges)
    for v in points:  # a reflex vertex near a box edge
        for k in range(4):
            best = min(best, point_segment(v, corners[k], corners[(k + 1) % 4]))
    return best


def grow(points: Outline, by: float) -> Outline:
    """The outline moved ``by`` mm outward along every edge (a mitred offset: each corner where the
    moved edges meet; a corner whose mitre would reach past MITRE_LIMIT x ``by`` is bevelled with two
    points; a notch narrower than twice ``by`` closes over, its moved sides crossing, and stays
    inside by the nonzero rule). ``by`` <= 0 returns the outline itself. For the bleed of a shaped part: art is clipped
    to its cut outline grown by the bleed."""
    if by <= 0:
        return tuple(points)
    sign = 1.0 if signed_area(points) > 0 else -1.0  # outward normal of a clockwise (y down) edge: (dy, -dx)
    n = len(points)
    normals = []
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        normals.append((sign * (b[1] - a[1]) / length, -sign * (b[0] - a[0]) / length))
    out: list[Point] = []
    for i in range(n):
        p = points[i]
        n0, n1 = normals[i - 1], normals[i]
        cos = n0[0] * n1[0] + n0[1] * n1[1]
        mx, my = n0[0] + n1[0], n0[1] + n1[1]
        scale = by / (1 + cos) if 1 + cos > EPS else math.inf  # the mitre: along n0+n1, `by` out from each edge
        if math.hypot(mx, my) * scale <= MITRE_LIMIT * by:
            out.append((p[0] + mx * scale, p[1] + my * scale))
        else:
            out += [(p[0] + n0[0] * by, p[1] + n0[1] * by), (p[0] + n1[0] * by, p[1] + n1[1] * by)]
    return tuple(out)


def hex_in_box(width: float, height: float) -> Outline:
    """The hexagon inscribed in a ``width`` x ``height`` mm box, clockwise from the top: pointy-top
    when the box is taller than wide (vertices at the middle of the top and bottom sides and at a
    quarter and three quarters of the height on the left and right sides), flat-top otherwise (the
    same turned: vertices at the middle of the left and right sides, a quarter and three quarters of
    the width along the top and bottom). A regular hexagon's box is 2/sqrt(3) times taller than wide
    (pointy-top) or wider than tall (flat-top); the outline always touches all four sides of the box."""
    w, h = width, height
    if h > w:
        return ((w / 2, 0.0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0.0, 3 * h / 4), (0.0, h / 4))
    return ((w / 4, 0.0), (3 * w / 4, 0.0), (w, h / 2), (3 * w / 4, h), (w / 4, h), (0.0, h / 2))
