"""What a cut that strays finds with bleed: a line drawn on the cut (from the IR: a stroke along a
part's trim or outline), and bleed of another colour than the art just inside the cut (from the
drawn pixels, sampled either side of every cut edge)."""
from __future__ import annotations

import math
from typing import Iterable, Iterator

import numpy as np

from ..core.findings import FAIL
from ..core.ir import Circle, Line, Polygon, Rect
from ..core.outline import point_segment, signed_area
from .areas import PAPER
from .pixels import Raster
from .scene import PageScene

ON_CUT = 0.05     # mm: a stroke this close to the trim or outline is drawn on the cut
INSIDE = 0.5      # mm inside the cut: the art's own colour at the edge
STEADY = (1.0, 0.4)  # mm deeper, and mm along either way: where the art must be the same colour to compare
STEP = 1.0        # mm between samples along an edge
END = 1.0         # mm left out at each end of an edge (corners; a rounded corner's arc besides)
DIFF = 40         # 0..255: the most one colour's samples differ by, anti-aliasing and dither included
RUN = 2           # samples in a row, at least, that differ before an edge is reported (STEP mm apart)
RULE_STROKE = "with bleed nothing is drawn on a cut: a line there shows when the cut strays (docs/print.md, Preflight)"
RULE_COLOUR = "bleed continues the art at the edge, so a cut that strays shows the art's colour (docs/print.md, Preflight)"


def strokes_on_cut(scenes: Iterable[PageScene], bleed: float) -> list[tuple[str, object, str]]:
    """With ``bleed`` > 0: a FAIL (status, where, what) for each stroke drawn on a part's cut (a
    Rect's or Circle's outline at the trim box, a Polygon's along a shaped part's outline, a Line
    along a side of the trim or an edge of the outline), one per part and page; boards are left
    out (they get no bleed). Without bleed: none (a cut guide belongs to a home print)."""
    if bleed <= 0:
        return []
    out, seen = [], set()
    for sc in scenes:
        for m in sc.marks:
            if m.kind != "stroke" or m.part is None or (sc.number, m.part) in seen:
                continue
            comp = sc.component(m.part)
            p = sc.placements[m.part]
            if comp is None or comp.board or not _on_cut(m.shape, m.box, p):
                continue
            seen.add((sc.number, m.part))
            out.append((FAIL, sc.where(m.box[0], m.box[1], m.part),
                        f"a {type(m.shape).__name__.lower()} stroked on the cut line with {bleed:g} mm bleed"))
    return out


def _on_cut(shape, box, p) -> bool:
    trim = (p.x, p.y, p.x + p.w, p.y + p.h)
    outline = [(p.x + x, p.y + y) for x, y in p.cut.points]
    if isinstance(shape, (Rect, Circle, Polygon)):
        ref = trim
        if outline:
            xs, ys = [x for x, _ in outline], [y for _, y in outline]
            ref = (min(xs), min(ys), max(xs), max(ys))
        return all(abs(u - v) < ON_CUT for u, v in zip(box, ref))
    if isinstance(shape, Line):
        edges = _edges(outline) if outline else _edges([(trim[0], trim[1]), (trim[2], trim[1]),
                                                        (trim[2], trim[3]), (trim[0], trim[3])])
        for a, b in (((box[0], box[1]), (box[2], box[3])), ((box[0], box[3]), (box[2], box[1]))):
            if any(point_segment(a, u, v) < ON_CUT and point_segment(b, u, v) < ON_CUT for u, v in edges):
                return True
    return False


def _edges(points):
    return list(zip(points, points[1:] + points[:1]))


def bleed_colour(sc: PageScene, raster: Raster, bleed: float) -> list[tuple[str, object, str]]:
    """With ``bleed`` > 0: a FAIL (status, where, what) for each cut edge of a part on this page
    where, for RUN samples or more, the colour ``bleed`` / 2 mm outside the cut (where a cut that
    strays that far shows) differs from the art's INSIDE mm inside it. A sample counts only where the
    art is one colour around it (STEADY: deeper and along), so a line or a text meeting the edge is
    not taken for the edge's colour. On rectangular parts bare paper outside is left to
    pnp.preflight.areas.bleed_gaps. Boards are left out (they get no bleed)."""
    if bleed <= 0:
        return []
    out = []
    off = bleed / 2

    def others(i: int, pt) -> bool:
        """Whether ``pt`` lies within a part (placement i's own outline, or another's trim box), or
        nearer another edge of placement i's outline than ``off`` (a concave corner, whose bleed two
        cut edges share)."""
        for j, q in enumerate(sc.placements):
            if j == i:
                pts = [(q.x + x, q.y + y) for x, y in q.cut.points]
                if pts and (_contains(pts, pt) or
                            min(point_segment(pt, a, b) for a, b in _edges(pts)) < off - ON_CUT):
                    return True
            elif q.x < pt[0] < q.x + q.w and q.y < pt[1] < q.y + q.h:
                return True
        return False
    for i, p in enumerate(sc.placements):
        comp = sc.component(i)
        if comp is None or comp.board:
            continue
        shaped = p.cut.kind in ("circle", "polygon")
        for edge, samples in _edge_samples(p):
            run = best = 0
            first = None
            for (x, y), (nx, ny), (tx, ty) in samples:
                inside = _colour(raster, x - INSIDE * nx, y - INSIDE * ny)
                steady = [_colour(raster, x - STEADY[0] * nx, y - STEADY[0] * ny),
                          _colour(raster, x - INSIDE * nx + STEADY[1] * tx, y - INSIDE * ny + STEADY[1] * ty),
                          _colour(raster, x - INSIDE * nx - STEADY[1] * tx, y - INSIDE * ny - STEADY[1] * ty)]
                outside = _colour(raster, x + off * nx, y + off * ny)
                if others(i, (x + off * nx, y + off * ny)):
                    run = 0  # the sample lands on the part itself (a notch) or on a neighbour
                    continue
                if inside is None or outside is None or any(s is None or _far(s, inside) for s in steady):
                    run = 0
                    continue
                if not shaped and outside.min() >= PAPER and inside.min() < PAPER:
                    run = 0  # bare paper past a rectangle's trim: pnp.preflight.areas.bleed_gaps reports it
                    continue
                if _far(outside, inside):
                    run += 1
                    if run > best:
                        best = run
                    if first is None:
                        first = (x + off * nx, y + off * ny, tuple(int(v) for v in outside), tuple(int(v) for v in inside))
                else:
                    run = 0
            if best >= RUN:
                x, y, got, want = first
                out.append((FAIL, sc.where(x, y, i),
                            f"bleed at the {edge} is {_hex(got)}, the art inside the cut {_hex(want)}: "
                            f"a cut {off:g} mm astray shows it"))
    return out


def _contains(pts, p) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in _edges(pts):
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _far(a: np.ndarray, b: np.ndarray) -> bool:
    return int(np.abs(a.astype(int) - b.astype(int)).max()) > DIFF


def _hex(rgb) -> str:
    return "#" + "".join(f"{v:02x}" for v in rgb)


def _colour(raster: Raster, x: float, y: float):
    h, w = raster.rgb.shape[:2]
    i, j = raster.px(y), raster.px(x)
    if not (0 <= i < h and 0 <= j < w):
        return None
    return raster.rgb[i, j]


Sample = tuple[tuple[float, float], tuple[float, float], tuple[float, float]]


def _edge_samples(p) -> Iterator[tuple[str, list[Sample]]]:
    """Per cut edge of placement ``p``: its name and the samples (point on the cut, outward normal,
    direction along), mm on the page, STEP apart, END from each end (and a rounded corner's arc)."""
    if p.cut.kind == "circle":
        r = p.w / 2
        cx, cy = p.x + r, p.y + p.h / 2
        n = max(8, int(2 * math.pi * r / STEP))
        pts = []
        for k in range(n):
            a = 2 * math.pi * k / n
            c, s = math.cos(a), math.sin(a)
            pts.append(((cx + r * c, cy + r * s), (c, s), (-s, c)))
        yield "rim", pts
        return
    if p.cut.kind == "polygon":
        outline = [(p.x + x, p.y + y) for x, y in p.cut.points]
        sign = 1.0 if signed_area(outline) > 0 else -1.0
        for k, (a, b) in enumerate(_edges(outline)):
            length = math.dist(a, b)
            if length < 2 * END + STEP:
                continue
            t = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
            nrm = (sign * t[1], -sign * t[0])
            yield f"edge {k + 1}", [((a[0] + s * t[0], a[1] + s * t[1]), nrm, t) for s in _steps(length, END)]
        return
    end = END + (p.cut.radius if p.cut.kind == "rounded" else 0.0)
    x0, y0, x1, y1 = p.x, p.y, p.x + p.w, p.y + p.h
    yield "top edge", [((x0 + s, y0), (0.0, -1.0), (1.0, 0.0)) for s in _steps(p.w, end)]
    yield "bottom edge", [((x0 + s, y1), (0.0, 1.0), (1.0, 0.0)) for s in _steps(p.w, end)]
    yield "left edge", [((x0, y0 + s), (-1.0, 0.0), (0.0, 1.0)) for s in _steps(p.h, end)]
    yield "right edge", [((x1, y0 + s), (1.0, 0.0), (0.0, 1.0)) for s in _steps(p.h, end)]


def _steps(length: float, end: float) -> list[float]:
    n = int((length - 2 * end) / STEP)
    return [end + k * STEP for k in range(n + 1)]
