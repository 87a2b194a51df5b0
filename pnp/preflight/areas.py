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
INSIDE = 0.3       # mm inside the trim where art is looked for
GAP_MM = 1.0       # mm of bleed band left bare, next to inked trim, that counts as art stopping short


def safe_area(scenes: Iterable[PageScene], safe: float, rule: str) -> list[Finding]:
    """A WARN for every text whose ink box, and every picture that stops short of the trim, reaching
    past the line ``safe`` mm inside its part's trim (round parts: inside the circle), once per card."""
    found, seen = [], set()
    for sc in scenes:
        for m in sc.marks:
            if m.kind not in ("text", "image") or m.part is None:
                continue
            p = sc.placements[m.part]
            comp = sc.component(m.part)
            if comp is None or comp.board:
                continue
            box = (m.box[0] - p.x, m.box[1] - p.y, m.box[2] - p.x, m.box[3] - p.y)
            edges = insets(box, p.w, p.h, p.cut.kind == "circle")
            if m.kind == "image":
                edges = {e: d for e, d in edges.items() if d > TRIM_EPS}  # art that reaches the trim bleeds
            past = past_safe_line(edges, safe)
            key = (p.name, p.face, sc.page.side, m.shape)
            if past is None or key in seen:
                continue
            seen.add(key)
            what = f"text {m.shape.text!r}" if m.kind == "text" else f"picture {Path(m.shape.src).name!r}"
            found.append((WARN, sc.where(m.box[0], m.box[1], m.part),
                          f"{what} reaches {past[1]:.2f} mm past the safe area ({safe:g} mm inside the trim) at "
                          f"the {past[0]} edge"))
    return listed(found, rule, f"all text and pictures lie {safe:g} mm or more inside their part's trim")


def bleed_gaps(sc: PageScene, raster: Raster, bleed: float) -> list[tuple[str, object, str]]:
    """Where art of a part on this page is inked just inside the trim but the bleed band outside
    that edge is bare paper for at least GAP_MM: art that should bleed and stops short of the bleed
    line (a slightly off cut shows a white edge). One (status, where, what) per part edge. Round
    parts are skipped (their bleed is the grown background circle, outside the square's band)."""
    if bleed <= 0:
        return []
    out = []
    for i, p in enumerate(sc.placements):
        comp = sc.component(i)
        if comp is None or comp.board or p.cut.kind == "circle":
            continue
        for edge, inner, outer, along in _bands(p, bleed):
            a, b = raster.crop(inner), raster.crop(outer)
            if a.size == 0 or b.size == 0:
                continue
            n = min(a.shape[1 if along == "x" else 0], b.shape[1 if along == "x" else 0])
            inked = (a.min(axis=2) < PAPER).any(axis=0 if along == "x" else 1)[:n]
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
    """Per edge: (name, band just inside the trim, band reaching the bleed line, axis it runs along);
    each band stops 2 x INSIDE short of the corners."""
    x0, y0, x1, y1 = p.x, p.y, p.x + p.w, p.y + p.h
    c = 2 * INSIDE + (p.cut.radius if p.cut.kind == "rounded" else 0.0)
    o = b - INSIDE  # the outer band: from INSIDE outside the trim to the bleed line
    return (("top", (x0 + c, y0 + 0.05, x1 - c, y0 + INSIDE), (x0 + c, y0 - b + 0.05, x1 - c, y0 - b + o), "x"),
            ("bottom", (x0 + c, y1 - INSIDE, x1 - c, y1 - 0.05), (x0 + c, y1 + INSIDE, x1 - c, y1 + b - 0.05), "x"),
            ("left", (x0 + 0.05, y0 + c, x0 + INSIDE, y1 - c), (x0 - b + 0.05, y0 + c, x0 - INSIDE, y1 - c), "y"),
            ("right", (x1 - INSIDE, y0 + c, x1 - 0.05, y1 - c), (x1 + INSIDE, y0 + c, x1 + b - 0.05, y1 - c), "y"))


def _longest(flags: np.ndarray) -> int:
    """The longest run of True in a 1-d boolean array."""
    best = run = 0
    for f in flags.tolist():
        run = run + 1 if f else 0
        best = max(best, run)
    return best
