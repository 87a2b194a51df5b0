"""The steps and bounds every fitting in pnp.text takes (rich text and its Latin shortcut alike): lines
stacked by a face's ascent and descent (``block``), sizes tried from the top down in quarter points
with a bisected necessary condition first (``scan``, ``could_fit``), and the size at which fixed
lines are as large as a box allows (``fit_box_size``). Lengths in mm, sizes in points."""
from __future__ import annotations

import math
from typing import Callable

from ..core.units import MM_PER_PT
from .markup import EPS, STEP_PT


def block(count: int, size_pt: float, asc: float, desc: float, spacing: float,
          h: float) -> tuple[tuple[float, ...], float] | None:
    """``count`` lines at ``size_pt`` stacked ``spacing`` x the size apart: their baselines (mm from
    the top: the first one ascent ``asc`` below it) and the block's height (ascent of the first line
    to descent ``desc`` of the last; both fractions of the em), or None when taller than ``h`` mm."""
    size = size_pt * MM_PER_PT
    lead = spacing * size
    height = (asc + desc) * size + (count - 1) * lead
    if height > h + EPS:
        return None
    return tuple(asc * size + i * lead for i in range(count)), height


MAX_SCAN_STEPS = 64  # sizes laid out below the largest one could_fit allows: 16 pt in quarter points


class TooManySizes(Exception):
    """scan() laid out MAX_SCAN_STEPS sizes from ``from_pt`` down to ``last_pt`` and none fitted."""

    def __init__(self, from_pt: float, last_pt: float) -> None:
        super().__init__(f"no fit from {from_pt:g} pt down to {last_pt:g} pt")
        self.from_pt, self.last_pt = from_pt, last_pt


TYPICAL_SCAN_LAYOUTS = 3.25  # measured: 1,500-character texts shrinking from 400 pt fit after this many more


def scan_layouts(size_pt: float, min_pt: float) -> float:
    """How many layouts scan() typically makes for a text that shrinks from ``size_pt`` to ``min_pt``
    (the caller's first try at ``size_pt`` not counted): a bisection of could_fit's bound is
    arithmetic only, then TYPICAL_SCAN_LAYOUTS, never more than the steps there are; at most
    MAX_SCAN_STEPS in any case."""
    return min(TYPICAL_SCAN_LAYOUTS, int((size_pt - min_pt + EPS) / STEP_PT) + 1) if min_pt < size_pt else 0


def scan(lay_out_at: Callable[[float], object | None], size_pt: float, min_pt: float,
         possible: Callable[[float], bool] | None = None, step: float = STEP_PT):
    """The first non-None ``lay_out_at(size)`` for sizes below ``size_pt`` (which the caller tried)
    down to ``min_pt`` in ``step`` (a quarter point unless given) steps above ``min_pt``: the
    largest size that fits. Wrapped text
    is not monotonic in the size (a smaller size can wrap into more lines and stop fitting while a
    larger one fits), so no bisection of the layout itself. ``possible(size)`` (see :func:`could_fit`),
    a necessary condition that holds below some size and fails above it, is bisected first: the
    steps above the largest size it allows cannot fit and are skipped, so the answer is the same and
    the steps tried are a bisection plus the few between that bound and the size that fits. None when
    nothing fits.

    Raises:
        TooManySizes: with ``possible``, MAX_SCAN_STEPS sizes below its bound were laid out and none
            fits (more would be unbounded work on a long text: the caller names the text and asks for
            a smaller start size). Without it every step is tried.
    """
    top = int((size_pt - min_pt + EPS) / step)
    if possible is not None:
        lo, hi = -1, top  # possible() holds at lo (or lo is -1), the answer is at most hi
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if possible(min_pt + mid * step):
                lo = mid
            else:
                hi = mid - 1
        top = lo
    for tried, k in enumerate(range(top, -1, -1)):
        if tried == MAX_SCAN_STEPS and possible is not None:
            raise TooManySizes(min_pt + top * step, min_pt + (k + 1) * step)
        got = lay_out_at(min_pt + k * step)
        if got is not None:
            return got
    return None


SLACK = 1e-6  # relative: widths measured at 1 pt and scaled may differ from those measured at the size in the last digits


def could_fit(words: list[list[float]], asc: float, desc: float, spacing: float, w: float,
              h: float) -> Callable[[float], bool]:
    """A necessary condition for a text to fit a ``w`` x ``h`` mm box, as a function of the size in
    points: ``words`` holds per paragraph the advance width (mm at 1 pt) of each word without its
    spaces (a line set without wrapping: one entry, the sum). At a size where the widest word is wider
    than the box, or the fewest lines the words could take (per paragraph, their total width over
    the box width, rounded up, at least one) are taller than the box (:func:`block`), nothing fits;
    both grow with the size, so the condition holds up to some size and fails above it."""
    widest = max((x for para in words for x in para), default=0.0) * (1 - SLACK)
    totals = [sum(para) * (1 - SLACK) for para in words]

    def possible(size_pt: float) -> bool:
        if widest * size_pt > w + EPS:
            return False
        count = sum(max(1, math.ceil(t * size_pt / (w + EPS) - SLACK)) for t in totals)
        size = size_pt * MM_PER_PT
        return (asc + desc) * size + (count - 1) * spacing * size <= h + EPS + 1e-9
    return possible


def fit_box_size(widths_10pt: list[float], max_pt: float, min_pt: float, w: float, h: float, spacing: float,
                 top: float, bottom: float) -> tuple[float, tuple[float, ...], float] | None:
    """The size (points, any value up to ``max_pt``) at which lines of the given advance widths (mm at
    10 pt, never wrapped) are as large as a ``w`` x ``h`` mm box allows: the widest exactly ``w`` wide
    unless the block's height (``top`` of the first line, a fraction of the em above its baseline, to
    ``bottom`` below the last, ``spacing`` x the size apart) stops it first; with the lines' baselines
    (mm from the box top) and the block's height. None when the box allows less than ``min_pt`` (a
    size within 1e-6 pt of it is set at ``min_pt``)."""
    n = len(widths_10pt)
    widest = widths_10pt[0] if n == 1 else max(widths_10pt, default=0.0)
    size = max_pt
    if widest > 0 and 10.0 * w / widest < size:
        size = 10.0 * w / widest
    tall = (top + bottom + (n - 1) * spacing) * MM_PER_PT
    if h / tall < size:
        size = h / tall
    if size < min_pt - 1e-6:
        return None
    if size < min_pt:
        size = min_pt
    em = size * MM_PER_PT
    if n == 1:  # the usual single line: the same sums as below (the terms for i = 0 are exactly 0)
        return size, (top * em,), (top + bottom) * em
    return size, tuple(top * em + i * spacing * em for i in range(n)), (top + bottom + (n - 1) * spacing) * em
