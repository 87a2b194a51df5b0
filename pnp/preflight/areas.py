"""Where text and art sit against the cut: text or pictures reaching past the safe area (from the IR,
pnp.core.safearea's rule) and art that reaches the trim but stops short of the bleed line (from the
drawn pixels)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

import numpy as np

from ..core.findings import FAIL, WARN, Finding
from ..core.safearea import insets, past_safe_line
from .pixels import Raster
from .report import listed
from .scene import PageScene

TRIM_EPS = 0.01    # mm: a picture this close to the trim reaches it (background art, meant to bleed)
PAPER = 245        # a pixel with every channel at least this light is bare paper
INNER = (0.5, 1.0)  # mm inside the trim where art is looked for (past any frame line drawn at the trim)
OUTER = 0.3         # mm outside the trim where the bleed band starts (clear of anti-aliasing)
GAP_MM = 1.0       # mm of bleed band left bare, next to inked trim, that counts as art stopping short


def safe_area(scenes: Iterable[PageScene], safe: float, rule: str) -> list[Finding]:
    """A WARN for every card (face and side of a component) with a text whose ink box, or a picture
    that stops short of the trim, reaches past the line ``safe`` mm inside its part's trim (round
    parts: inside the circle); the one reaching farthest is named."""
    worst: dict[tuple, tuple[float, tuple]] = {}  # per card and side: the text or picture farthest past the line
    for sc in scenes:
        for m in sc.marks:
            if m.kind not in ("text", "image") or m.part is None:
                continue
            p = sc.placements[m.part]
            comp = sc.component(m.part)
            if comp is None or comp.board:
                continue
            box = (m.box[0] - p.x, m.box[1] - p.y, m.box[2] - p.x, m.box[3] - p.y)
            edges = insets(box, p.w, p.h, p.cut.kind == "circle", p.cut.points)
            if m.kind == "image":
                edges = {e: d for e, d in edges.items() if d > TRIM_EPS}  # art that reaches the trim bleeds
            past = past_safe_line(edges, safe)
            key = (p.name, p.face, sc.page.side)
            if past is None or (key in worst and worst[key][0] >= past[1]):
                continue
            what = f"text {m.shape.text!r}" if m.kind == "text" else f"picture {Path(m.shape.src).name!r}"
            worst[key] = (past[1], (WARN, sc.where(m.box[0], m.box[1], m.part),
                                    f"{what} reaches {past[1]:.2f} mm past the safe area ({safe:g} mm inside the "
                                    f"trim) at the {past[0]} edge"))
    found = [entry for _by, entry in worst.values()]
    return listed(found, rule, f"all text and pictures lie {safe:g} mm or more inside their part's trim")


def bleed_gaps(sc: PageScene, raster: Raster, bleed: float) -> list[tuple[str, object, str]]:
    """Where art of a part on this page is inked just inside the trim but the bleed band outside
    that edge is bare paper for at least GAP_MM: art that should bleed and stops short of the bleed
    line (a slightly off cut shows a white edge). One (status, where, what) per part edge. Round
    and shaped parts are skipped (their bleed is the grown background circle, or the art clipped to
    the outline grown by the bleed, not the square's band)."""
    if bleed <= 0:
        return []
    out = []
    for i, p in enumerate(sc.placements):
        comp = sc.component(i)
        if comp is None or comp.board or p.cut.kind in ("circle", "polygon"):
            continue
        for edge, inner, outer, along in _bands(p, bleed):
            a, b = raster.crop(inner), raster.crop(outer)
            if a.size == 0 or b.size == 0:
                continue
            n = min(a.shape[1 if along == "x" else 0], b.shape[1 if along == "x" else 0])
            inked = (a.min(axis=2) < PAPER).all(axis=0 if along == "x" else 1)[:n]
            bare = (b.min(axis=2) >= PAPER).all(axis=0 if along == "x" else 1)[:n]
            short = inked & bare
            run = _longest(short)
            if run * 25.4 / raster.dpi < GAP_MM:
                continue
            first = int(np.argmax(short))
            mm = first * 25.4 / raster.dpi
            x, y = (inner[0] + mm, inner[1]) if along == "x" else (inner[0], inner[1] + mm)
            out.append((FAIL, sc.where(x, y, i),
                        f"art at the {edge} edge stops at the trim, {run * 25.4 / raster.dpi:.1f} mm of it short of "
                        f"the bleed line {bleed:g} mm outside"))
    return out


def _bands(p, b: float):
    """Per edge: (name, band INNER mm inside the trim, band from OUTER outside the trim to the bleed
    line, axis it runs along); each band stops short of the corners (and a rounded corner's arc)."""
    x0, y0, x1, y1 = p.x, p.y, p.x + p.w, p.y + p.h
    c = INNER[1] + (p.cut.radius if p.cut.kind == "rounded" else 0.0)
    i0, i1 = INNER
    o0, o1 = OUTER, b - 0.05
    return (("top", (x0 + c, y0 + i0, x1 - c, y0 + i1), (x0 + c, y0 - o1, x1 - c, y0 - o0), "x"),
            ("bottom", (x0 + c, y1 - i1, x1 - c, y1 - i0), (x0 + c, y1 + o0, x1 - c, y1 + o1), "x"),
            ("left", (x0 + i0, y0 + c, x0 + i1, y1 - c), (x0 - o1, y0 + c, x0 - o0, y1 - c), "y"),
            ("right", (x1 - i1, y0 + c, x1 - i0, y1 - c), (x1 + o0, y0 + c, x1 + o1, y1 - c), "y"))


def _longest(flags: np.ndarray) -> int:
    """The longest run of True in a 1-d boolean array."""
    best = run = 0
    for f in flags.tolist():
        run = run + 1 if f else 0
        best = max(best, run)
    return best
