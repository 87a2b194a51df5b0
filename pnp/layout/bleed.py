"""Bleed: artwork that reaches the trim is extended past it, so a slightly-off cut shows no white edge.

A shaped part's net (a die, a standee, a tuck box) is drawn as panels, each a Group clipped to its
rectangle, and fills (glue tabs, stands, a base fin). Given the part's cut outline, each panel grows
past the sides of its rectangle that lie on the outline (a side notched by the cut, as a tuck box's
thumb notch, included), and never past a side on a fold or a seam, where it would cover its
neighbour; a fill polygon moves its edges that lie on the outline.

With bleed nothing is drawn on a cut: a line a part draws along its trim or its outline (a cut
guide for scissors at home) is left out, so a cut that strays shows the art's own colour.
"""
from __future__ import annotations

from dataclasses import replace

from ..core.ir import Circle, Drawing, Group, Image, Line, Polygon, Rect
from ..core.outline import Outline, grow, point_segment, signed_area

EPS = 1e-6
ALL = frozenset(("left", "top", "right", "bottom"))
Frame = tuple[float, float, float, float]  # x0, y0, x1, y1


def extend_for_bleed(drawing: Drawing, width: float, height: float, bleed: float, outline: Outline = ()) -> Drawing:
    """Return ``drawing`` with every ``bleed=True`` shape pushed ``bleed`` mm past the trim.

    A Rect or an Image (background art: its box grows, and the picture is fitted to the grown box)
    grows on each side that lies on the trim (0, 0, width, height), or on a panel's side, or past it
    (art scaled to cover its panel, cropped there), to ``bleed`` mm past that side; a Circle (a counter's
    background) grows its radius. Untransformed Groups are searched too. Other shapes are unchanged.

    With ``outline`` (a shaped part's cut polygon, mm in the drawing's frame), also: a panel, a Group
    with a rectangular ``clip`` placed by a translation, quarter turns and mirrors, grows its clip
    ``bleed`` mm past each side that lies on the outline, and its ``bleed=True`` Rects and Images
    (also in mirrored or turned groups inside it) grow past those sides only; a Polygon moves each
    edge that lies on the outline ``bleed`` mm outward, keeping within the strip square to each
    edge that does not (a glue tab's base on its fold: the tab grows away from the face it is on).
    A panel may also be scaled (the same positive factor both ways: a tuck box's art covering its panel).

    A stroke on the cut (a Rect's outline at the trim, a Circle's at a round part's trim, a Polygon's
    along ``outline``, a Line along a side of the trim; in untransformed Groups) is dropped: the shape
    keeps its fill, or goes when it has none.
    """
    if bleed <= 0:
        return drawing
    frame = (0.0, 0.0, width, height)
    kept = (_off_cut(s, frame, tuple(outline)) for s in drawing)
    return tuple(_extend(s, frame, ALL, bleed, tuple(outline)) for s in kept if s is not None)


def _off_cut(shape, frame: Frame, outline: Outline):
    """``shape`` without its stroke when the stroke runs on the cut (see extend_for_bleed); None when
    nothing of it is left. Untransformed Groups are searched."""
    if isinstance(shape, Group):
        if (shape.dx, shape.dy, shape.rotate, shape.sx, shape.sy) != (0, 0, 0, 1, 1):
            return shape
        children = tuple(c for c in (_off_cut(c, frame, outline) for c in shape.children) if c is not None)
        return shape if children == shape.children else replace(shape, children=children)
    if getattr(shape, "stroke", None) is None or not _on_cut(shape, frame, outline):
        return shape
    if isinstance(shape, Line) or getattr(shape, "fill", None) is None:
        return None
    return replace(shape, stroke=None)


def _on_cut(shape, frame: Frame, outline: Outline) -> bool:
    x0, y0, x1, y1 = frame
    if isinstance(shape, Rect):
        return all(abs(u - v) < EPS for u, v in zip((shape.x, shape.y, shape.x + shape.w, shape.y + shape.h), frame))
    if isinstance(shape, Circle):
        return (not outline and abs(x1 - y1) < EPS and abs(shape.cx - x1 / 2) < EPS and abs(shape.cy - y1 / 2) < EPS
                and abs(shape.r - x1 / 2) < EPS)
    if isinstance(shape, Polygon):
        return bool(outline) and len(shape.points) == len(outline) and \
            {_key(p) for p in shape.points} == {_key(p) for p in outline}
    if isinstance(shape, Line):
        sides = [((x0, y0), (x0, y1)), ((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x0, y1), (x1, y1))]
        ends = ((shape.x1, shape.y1), (shape.x2, shape.y2))
        return any(point_segment(ends[0], a, b) < EPS and point_segment(ends[1], a, b) < EPS for a, b in sides) or \
            (bool(outline) and _covered(*ends, outline) > 0.5)
    return False


def _extend(shape, frame: Frame, sides: frozenset, b: float, outline: Outline):
    if isinstance(shape, (Rect, Image)) and shape.bleed:
        x0, y0, x1, y1 = shape.x, shape.y, shape.x + shape.w, shape.y + shape.h
        if "left" in sides and x0 < frame[0] + EPS:  # reaching the side, or past it (art cropped by a panel)
            x0 = min(x0, frame[0] - b)
        if "top" in sides and y0 < frame[1] + EPS:
            y0 = min(y0, frame[1] - b)
        if "right" in sides and x1 > frame[2] - EPS:
            x1 = max(x1, frame[2] + b)
        if "bottom" in sides and y1 > frame[3] - EPS:
            y1 = max(y1, frame[3] + b)
        return replace(shape, x=x0, y=y0, w=x1 - x0, h=y1 - y0)
    if isinstance(shape, Circle) and shape.bleed and sides == ALL:
        return replace(shape, r=shape.r + b)
    if isinstance(shape, Polygon) and outline and shape.fill:
        return _polygon(shape, b, outline)
    if not isinstance(shape, Group):
        return shape
    if (shape.dx, shape.dy, shape.rotate, shape.sx, shape.sy) == (0, 0, 0, 1, 1):
        return _rekeyed(shape, sides, b, tuple(_extend(c, frame, sides, b, outline) for c in shape.children))
    if outline and shape.clip is not None:
        m = _quarter_turn(shape, scaled=True)
        return shape if m is None else _panel(shape, m, b, outline)
    m = _quarter_turn(shape)
    if m is None:
        return shape
    if not outline and sides != ALL and shape.clip is None:  # a turned or mirrored group inside a panel
        inner, inner_sides = _frame_back(m, frame, sides)
        return _rekeyed(shape, sides, b, tuple(_extend(c, inner, inner_sides, b, ()) for c in shape.children))
    return shape


def _rekeyed(g: Group, sides: frozenset, b: float, children: tuple) -> Group:
    """``g`` with ``children``; a reused group (``key``) grown on some sides only gets a key of its own,
    as one face's content grown left is not the same content as another's grown up."""
    if g.key is None or sides == ALL or children == g.children:
        return replace(g, children=children)
    return replace(g, children=children, key=f"{g.key}\x1fbleed {'/'.join(sorted(sides))} {b:g}")


def _quarter_turn(g: Group, scaled: bool = False) -> tuple[float, float, float, float, float, float] | None:
    """The group's transform (a, b, c, d, e, f: x' = a x + b y + e, y' = c x + d y + f) when it turns by
    quarter turns and mirrors without scaling (``scaled``: or scales by one positive factor both ways);
    else None."""
    if g.rotate % 90 or abs(abs(g.sx) - abs(g.sy)) > EPS or g.sx == 0:
        return None
    if not scaled and abs(g.sx) != 1:
        return None
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[int(g.rotate) % 360]
    return (cos * g.sx, -sin * g.sy, sin * g.sx, cos * g.sy, g.dx, g.dy)


def _apply(m, p):
    a, b, c, d, e, f = m
    return (a * p[0] + b * p[1] + e, c * p[0] + d * p[1] + f)


def _side_points(frame: Frame) -> dict:
    x0, y0, x1, y1 = frame
    return {"left": ((x0, y0), (x0, y1)), "top": ((x0, y0), (x1, y0)),
            "right": ((x1, y0), (x1, y1)), "bottom": ((x0, y1), (x1, y1))}


def _on_outline(p, q, outline: Outline) -> bool:
    """Whether the segment pq lies on the outline: on one edge, or more than half of it on edges in
    line with it (a side the cut notches, as a tuck box's front at its thumb notch)."""
    n = len(outline)
    return any(point_segment(p, outline[i], outline[(i + 1) % n]) < EPS
               and point_segment(q, outline[i], outline[(i + 1) % n]) < EPS for i in range(n)) or \
        _covered(p, q, outline) > 0.5


def _covered(p, q, outline: Outline) -> float:
    """The share (0..1) of the segment pq that edges of ``outline`` in line with it cover."""
    length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
    if length < EPS:
        return 0.0
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    spans = []
    n = len(outline)
    for i in range(n):
        a, c = outline[i], outline[(i + 1) % n]
        if any(abs((v[0] - p[0]) * uy - (v[1] - p[1]) * ux) > EPS for v in (a, c)):
            continue  # not on the line through p and q
        t = sorted(((v[0] - p[0]) * ux + (v[1] - p[1]) * uy) for v in (a, c))
        lo, hi = max(t[0], 0.0), min(t[1], length)
        if hi > lo:
            spans.append((lo, hi))
    covered, end = 0.0, 0.0
    for lo, hi in sorted(spans):
        covered += max(0.0, hi - max(lo, end))
        end = max(end, hi)
    return covered / length


def _panel(g: Group, m, b: float, outline: Outline) -> Group:
    cx, cy, cw, ch = g.clip
    frame = (cx, cy, cx + cw, cy + ch)
    grown = frozenset(s for s, (p, q) in _side_points(frame).items()
                      if _on_outline(_apply(m, p), _apply(m, q), outline))
    if not grown:
        return g
    b = b / abs(m[0] * m[3] - m[1] * m[2]) ** 0.5  # in the panel's own units (a scaled panel)
    x0 = cx - b if "left" in grown else cx
    y0 = cy - b if "top" in grown else cy
    x1 = cx + cw + b if "right" in grown else cx + cw
    y1 = cy + ch + b if "bottom" in grown else cy + ch
    return replace(_rekeyed(g, grown, b, tuple(_extend(c, frame, grown, b, ()) for c in g.children)),
                   clip=(x0, y0, x1 - x0, y1 - y0))


def _frame_back(m, frame: Frame, sides: frozenset) -> tuple[Frame, frozenset]:
    """``frame`` and its named ``sides`` seen inside a group of transform ``m`` (its inverse applied)."""
    a, b, c, d, e, f = m
    det = a * d - b * c
    inv = (d / det, -b / det, -c / det, a / det, 0.0, 0.0)  # the adjugate over the determinant
    ie, if_ = _apply(inv, (e, f))
    inv = (*inv[:4], -ie, -if_)
    corners = [_apply(inv, p) for p in ((frame[0], frame[1]), (frame[2], frame[3]))]
    inner = (min(p[0] for p in corners), min(p[1] for p in corners),
             max(p[0] for p in corners), max(p[1] for p in corners))
    inner_sides = _side_points(inner)
    out = set()
    for s in sides:
        p, q = (_apply(inv, v) for v in _side_points(frame)[s])
        out |= {t for t, (u, v) in inner_sides.items() if {_key(p), _key(q)} == {_key(u), _key(v)}}
    return inner, frozenset(out)


def _key(p) -> tuple[float, float]:
    return (round(p[0], 6), round(p[1], 6))


def _polygon(shape: Polygon, b: float, outline: Outline) -> Polygon:
    pts = shape.points
    n = len(pts)
    on = [_on_outline(pts[i], pts[(i + 1) % n], outline) for i in range(n)]
    if not any(on):
        return shape
    if all(on):
        return replace(shape, points=grow(pts, b))
    sign = 1.0 if signed_area(pts) > 0 else -1.0
    lines = []  # each edge as (point, direction), moved outward when it lies on the outline
    for i in range(n):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        nx, ny = sign * (by - ay) / length, -sign * (bx - ax) / length
        shift = b if on[i] else 0.0
        lines.append(((ax + nx * shift, ay + ny * shift), (bx - ax, by - ay)))
    out = [_meet(lines[i - 1], lines[i]) or lines[i][0] for i in range(n)]
    for i in range(n):  # keep within the strip square to each edge that stays
        if not on[i]:
            a, c = pts[i], pts[(i + 1) % n]
            d = (c[0] - a[0], c[1] - a[1])
            out = _cut(out, a, d)
            out = _cut(out, c, (-d[0], -d[1]))
    return replace(shape, points=tuple(out))


def _meet(l1, l2):
    (p, u), (q, v) = l1, l2
    den = u[0] * v[1] - u[1] * v[0]
    if abs(den) < EPS:
        return None
    t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / den
    return (p[0] + t * u[0], p[1] + t * u[1])


def _cut(points, a, d):
    """The convex polygon ``points`` cut to the half-plane of points p with (p - a) . d >= 0."""
    def side(p):
        return (p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]
    out = []
    for i, p in enumerate(points):
        q = points[(i + 1) % len(points)]
        sp, sq = side(p), side(q)
        if sp >= -EPS:
            out.append(p)
        if (sp > EPS and sq < -EPS) or (sp < -EPS and sq > EPS):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out
