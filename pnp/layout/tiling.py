"""Poster tiling: a board larger than the printable area is split over as few pages as fit.

Each seam between neighbouring pieces has one join line, printed at the same board coordinate on
both pieces. The piece to the right of a vertical seam (below a horizontal one) is the one cut
along it; it carries CUT_MARGIN mm of board past the line, so a cut a little off the line shows
board, not paper. The piece to the left (above) keeps ``overlap`` mm of board past the line as its
glue tab; the cut edge is laid on its line. Registration targets are centred on the line: after the
cut, the half left on the cut piece meets the half on the tab. The join lines, targets and strip
labels keep clear of the board's playing marks (pnp/layout/artwork.py), and every piece prints
JOIN_INSTRUCTIONS and a small assembly map ("B2 of 2x3") in its footer band.

A tiled piece is cut along the board outline and its join lines, so it needs no crop marks and no
room for them. A board that fits the board area (the content area less crop-mark room) is printed
whole with crop marks, turned a quarter turn when only that fits; one that fits only the content
area is printed whole with its outline drawn, to cut along.
"""
from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from ..core.errors import LayoutError
from ..core.fonts import text_width_mm
from ..text.wrapping import wrap
from ..core.ir import BLACK, Component, Group, Line, Rect, Text, TileInfo
from ..core.units import MM_PER_PT
from ..core.words import Words, english
from . import artwork, marks
from .paper import FOOTER_BAND, Sheet

DEFAULT_OVERLAP = 10.0   # mm: the glue tab a neighbour's cut edge is laid on
CUT_MARGIN = 5.0         # mm of board printed past the join line on the piece that is cut along it
TARGET_SIZE = 6.0        # mm across a registration target
LABEL_PT = 6.0           # strip labels: nothing a person must read is under 6 pt
OUTLINE_WIDTH = 0.15     # mm: the board outline and glue-tab edges on a piece
DASH = (1.5, 1.0)        # mm on/off of a join line
CUT_LABEL = "cut on the dashed line"
GLUE_LABEL = "glue tab"
JOIN_INSTRUCTIONS = ("To join: cut the piece along its dashed line marked \u201ccut\u201d, lay the cut edge on the "
                     "neighbour\u2019s dashed line with the targets meeting, and glue it onto the \u201cglue tab\u201d.")
LABEL_CLEAR = 2.0        # mm a join line keeps from the board's text where it can
EPS = 1e-9


@dataclass(frozen=True, eq=False)
class Axis:
    """How one axis of a board is split: the board ``length``, the board coordinates of the join
    lines (``joins``) and each piece's window as (start, size)."""
    length: float
    joins: tuple[float, ...]
    spans: tuple[tuple[float, float], ...]

    def kept(self, i: int) -> tuple[float, float]:
        """The part of piece ``i`` that shows once the board is assembled: join to join."""
        return (self.joins[i - 1] if i > 0 else 0.0, self.joins[i] if i < len(self.joins) else self.length)


@dataclass(frozen=True, eq=False)
class Seam:
    """One join line, on the pieces ``glue`` (keeps the tab) and ``cut`` (cut along it), as
    (col, row). ``vertical``: the line runs down the board at x = ``at``; else across at y = ``at``.
    ``span`` is its extent along the line; ``targets`` are the target centres along it and
    ``cut_label`` / ``glue_label`` where the strip labels start, all in board mm. ``backed``: (cut,
    glue) labels that no spot along the strip keeps clear of the board's strokes and marks, so they
    are printed on a white box (in the strip cut off or under the neighbour: never seen once joined)."""
    vertical: bool
    at: float
    glue: tuple[int, int]
    cut: tuple[int, int]
    span: tuple[float, float]
    targets: tuple[float, ...]
    cut_label: float
    glue_label: float
    backed: tuple[bool, bool] = (False, False)


@dataclass(frozen=True, eq=False)
class Tiling:
    """How a board goes on paper. ``mode``: "whole" (one page, crop marks), "turned" (one page a
    quarter turn clockwise, crop marks), "outline" (one page, outline drawn, no crop marks) or
    "tiled" (``cols`` x ``rows`` pieces joined along ``seams``). ``words``: pnp's words in the kit's
    language (pnp.core.words), for the strip labels and the joining sentence."""
    comp: Component
    mode: str
    x: Axis
    y: Axis
    overlap: float
    seams: tuple[Seam, ...] = ()
    words: Words = field(default=english, compare=False, repr=False)

    @property
    def cols(self) -> int:
        return len(self.x.spans)

    @property
    def rows(self) -> int:
        return len(self.y.spans)

    def window(self, col: int, row: int) -> tuple[float, float, float, float]:
        """(bx, by, w, h): the part of the board printed on piece (col, row), board mm."""
        (bx, w), (by, h) = self.x.spans[col], self.y.spans[row]
        return (bx, by, w, h)

    def pieces(self) -> list[tuple[int, int]]:
        """(col, row) of every piece, row-major."""
        return [(c, r) for r in range(self.rows) for c in range(self.cols)]

    @property
    def crop_marks(self) -> bool:
        return self.mode in ("whole", "turned")

    def size(self, col: int = 0, row: int = 0) -> tuple[float, float]:
        """(w, h) of the piece as it lies on the page."""
        _, _, w, h = self.window(col, row)
        return (h, w) if self.mode == "turned" else (w, h)


def _fits(w: float, h: float, aw: float, ah: float) -> bool:
    return w <= aw + EPS and h <= ah + EPS


def rotated(comp: Component, sheet: Sheet) -> bool:
    """True when the board is turned a quarter turn on the page: only when it then fits the board
    area whole and does not fit upright (so tiled pieces are never rotated)."""
    _, _, aw, ah = sheet.board_area
    return _fits(comp.height, comp.width, aw, ah) and not _fits(comp.width, comp.height, aw, ah)


def _count(length: float, avail: float, overlap: float) -> int:
    """Fewest pieces along an axis: n pieces cover length + (n - 1) x (overlap + CUT_MARGIN)."""
    if length <= avail + EPS:
        return 1
    step = avail - overlap - CUT_MARGIN
    if step <= 0:
        raise LayoutError(f"the overlap ({overlap:g} mm) leaves no room on the page.", field="overlap",
                          hint="use a smaller overlap")
    return math.ceil((length - overlap - CUT_MARGIN) / step - 1e-9)


def _mode(comp: Component, sheet: Sheet, overlap: float) -> tuple[str, int, int]:
    _, _, aw, ah = sheet.board_area
    if _fits(comp.width, comp.height, aw, ah):
        return "whole", 1, 1
    if rotated(comp, sheet):
        return "turned", 1, 1
    _, _, cw, ch = sheet.content_area
    cols, rows = _count(comp.width, cw, overlap), _count(comp.height, ch, overlap)
    return ("outline" if cols * rows == 1 else "tiled"), cols, rows


def piece_grid(comp: Component, sheet: Sheet, overlap: float) -> tuple[int, int]:
    """(cols, rows) of poster pieces needed for the board ``comp`` on ``sheet`` (1, 1 when it is
    printed whole).

    Raises:
        LayoutError: the overlap is wider than the printable area.
    """
    _, cols, rows = _mode(comp, sheet, overlap)
    return cols, rows


def _axis(length: float, n: int, avail: float, overlap: float, crossings) -> Axis:
    """Split 0..length into ``n`` windows no longer than ``avail``: each join as near an equal share
    as it can be while its line crosses the fewest playing marks (``crossings(at)``)."""
    if n == 1:
        return Axis(length, (), ((0.0, length),))
    joins, spans, start = [], [], 0.0
    seam = overlap + CUT_MARGIN
    for k in range(1, n):
        after = n - k  # pieces still to come
        share = (length - start + after * seam) / (after + 1)
        nominal = start + share - overlap
        lo = max(length + CUT_MARGIN - after * avail + (after - 1) * seam, start + CUT_MARGIN + 1.0)
        hi = start + avail - overlap
        at = _best(lo, hi, nominal, crossings)
        at = nominal if at is None else at
        joins.append(at)
        spans.append((start, at + overlap - start))
        start = at - CUT_MARGIN
    spans.append((start, length - start))
    return Axis(length, tuple(joins), tuple(spans))


def _best(lo: float, hi: float, want: float, cost) -> float | None:
    """The position in lo..hi (0.25 mm steps, and ``want`` itself kept inside lo..hi) with the
    lowest ``cost`` (never negative), nearest ``want`` (to 1e-6 mm), the first of equals.

    The candidates are tried nearest first (see _nearest_first), so the search ends at the first
    that costs nothing: none after it can be better."""
    if hi < lo:
        return None
    best, least = None, None
    for v in _nearest_first(lo, int((hi - lo) / 0.25), min(max(want, lo), hi), want):
        c = cost(v)
        if least is None or c < least:
            best, least = v, c
            if c <= 0:
                break
    return best


def _nearest_first(lo: float, steps: int, extra: float, want: float):
    """The candidates lo + i x 0.25 (i = 0..steps), then ``extra``, lazily, in the order a stable sort
    by distance from ``want`` (rounded to 1e-6 mm) puts them: distance grows away from ``want`` on
    either side, so the two sides and ``extra`` are merged by (distance, position in the list)."""
    def entry(i: int, v: float) -> tuple[float, int, float]:
        return (round(abs(v - want), 6), i, v)
    m = min(max(int((want - lo) / 0.25), 0), steps)  # then the last step at or below want (-1: none)
    while m >= 0 and lo + m * 0.25 > want:
        m -= 1
    while m < steps and lo + (m + 1) * 0.25 <= want:
        m += 1
    below = (entry(i, lo + i * 0.25) for i in range(m, -1, -1))
    above = (entry(i, lo + i * 0.25) for i in range(m + 1, steps + 1))
    for _, _, v in heapq.merge(below, above, (entry(steps + 1, extra),)):
        yield v


def target_size(overlap: float) -> float:
    """Across a registration target: TARGET_SIZE, smaller when the strips are narrow."""
    return min(TARGET_SIZE, 2 * overlap - 1.0, 2 * CUT_MARGIN - 1.0)


def _seam(vertical: bool, at: float, glue, cut, span, kept, found: artwork.Marks, ov: float,
          _: Words = english) -> Seam:
    """Labels and targets along one join line, in (u across, v along) coordinates, within ``kept``
    (where both pieces show once assembled): first the strip labels (in the cut strip and the glue
    tab), then the targets centred on the line, each clear of playing marks and of each other."""
    r = target_size(ov) / 2
    lo, hi = kept[0] + r + 2.0, kept[1] - r - 2.0
    half = LABEL_PT * MM_PER_PT * 0.55
    labels: list = []
    backed: list[bool] = []
    near = [b for b in found.all if b[0] < at + ov + 2.0 and b[2] > at - CUT_MARGIN - 2.0]  # all that can matter

    def label(text: str, u: float) -> float:
        length = text_width_mm(text, LABEL_PT)

        def box(v):
            return (u - half, v, u + half, v + length)
        # the marks, and the parts of the board's strokes (hex and network edges) in the label's strip
        along = _Along(near + artwork.strip_boxes(found.segments, u - half - 0.5, u + half + 0.5), u - half, u + half, 0.5)
        v = _best(kept[0] + 1.5, kept[1] - 1.5 - length, lo + 0.3 * (hi - lo) - length / 2,
                  lambda v: along.hits(v, v + length))
        v = kept[0] + 1.5 if v is None else v
        labels.append(box(v))
        backed.append(along.hits(v, v + length) > 0)
        return v

    cut_at, glue_at = label(_(CUT_LABEL), at - CUT_MARGIN / 2), label(_(GLUE_LABEL), at + ov / 2)

    targets: list[float] = []
    near_marks, near_labels = _Along(near, at - r, at + r, 1.0), _Along(labels, at - r, at + r, 1.0)
    fallback = None  # the best spot on a mark, used only when no spot along the seam is clear
    for f in ((0.2, 0.8) if hi - lo < 120 else (0.15, 0.5, 0.85)):
        v = _best(lo, hi, lo + f * (hi - lo),
                  lambda v: (near_marks.hits(v - r, v + r) + 100 * near_labels.hits(v - r, v + r)
                             + 100 * sum(abs(v - t) < 3 * r for t in targets)))
        if v is not None and all(abs(v - t) >= 3 * r for t in targets):
            if near_marks.hits(v - r, v + r) or near_labels.hits(v - r, v + r):
                fallback = v if fallback is None else fallback
                continue
            targets.append(v)
    if not targets and fallback is not None:
        targets.append(fallback)
    return Seam(vertical, at, glue, cut, span, tuple(sorted(targets)), cut_at, glue_at, (backed[0], backed[1]))


class _Along:
    """The marks (boxes (x0, y0, x1, y1), mm) that come within ``clearance`` mm of the strip x0..x1,
    kept as their extents along it, (y0 - clearance, y1 + clearance), sorted: what artwork.hits tests
    for a box in that strip, split so that a search along the strip costs two bisections per
    candidate. The same float comparisons as artwork.hits, so the same counts."""

    def __init__(self, marks, x0: float, x1: float, clearance: float) -> None:
        spans = [(b - clearance, d + clearance) for a, b, c, d in marks if a - clearance < x1 and c + clearance > x0]
        self._spans = spans
        self._lo = sorted(lo for lo, _ in spans)
        self._hi = sorted(hi for _, hi in spans)
        self._ordered = all(lo < hi for lo, hi in spans)  # boxes are (min, max), so always

    def hits(self, v0: float, v1: float) -> int:
        """How many marks overlap v0..v1 along the strip: those starting before v1, less those ending
        at or before v0 (each of which also starts before v1 when v0 < v1, as it starts before it ends)."""
        if not (self._ordered and v0 < v1):
            return sum(1 for lo, hi in self._spans if lo < v1 and hi > v0)
        return bisect_left(self._lo, v1) - bisect_right(self._hi, v0)


def plan_board(comp: Component, sheet: Sheet, overlap: float, words: Words = english) -> Tiling:
    """How ``comp`` (a board) goes on ``sheet``: whole, turned, or tiled with its seams (labelled in
    ``words``).

    Raises:
        LayoutError: the overlap is wider than the printable area.
    """
    mode, cols, rows = _mode(comp, sheet, overlap)
    if mode != "tiled":
        whole = lambda length: Axis(length, (), ((0.0, length),))  # noqa: E731
        return Tiling(comp, mode, whole(comp.width), whole(comp.height), overlap, words=words)
    _, _, cw, ch = sheet.content_area
    found = artwork.Marks(comp.fronts[0])
    swapped = found.swapped()
    x = _axis(comp.width, cols, cw, overlap, _crossing(found, ()))
    y = _axis(comp.height, rows, ch, overlap, _crossing(swapped, x.joins))
    seams = []
    for r in range(rows):
        for c in range(1, cols):
            seams.append(_seam(True, x.joins[c - 1], (c - 1, r), (c, r), _span(y.spans[r]), y.kept(r), found, overlap,
                               words))
    for c in range(cols):
        for r in range(1, rows):
            seams.append(_seam(False, y.joins[r - 1], (c, r - 1), (c, r), _span(x.spans[c]), x.kept(c), swapped,
                               overlap, words))
    return Tiling(comp, mode, x, y, overlap, tuple(seams), words)


def _crossing(found: artwork.Marks, across: tuple[float, ...]):
    """How badly a vertical join line at x = ``at`` sits on playing marks, as a function of ``at``:
    a label it passes within LABEL_CLEAR mm of counts 10, as does a frame (a card box) it passes
    within 0.5 mm of, a node or marker it crosses 1, and a
    corner on a mark where it meets a join line across (at y = each of ``across``; four pieces
    stack there) 5 more."""
    texts, shapes = artwork.Sweep(found.texts, LABEL_CLEAR), artwork.Sweep(found.shapes, 0.5)
    frames = artwork.Sweep(found.frames, 0.5)
    # artwork.hits((at, a, at, a), boxes, 2.0) for the boxes within 2 mm of each line across: a Sweep
    # of those boxes, the same comparisons (boxes are (min, max), so a box ending before `at` starts before it)
    corners = [artwork.Sweep([b for b in found.all if b[1] - 2.0 < a < b[3] + 2.0], 2.0) for a in across]

    def cost(at: float) -> float:
        return 10 * (texts(at) + frames(at)) + shapes(at) + 5 * sum(c(at) for c in corners)
    return cost


def _span(span: tuple[float, float]) -> tuple[float, float]:
    return (span[0], span[0] + span[1])


def windows(comp: Component, sheet: Sheet, overlap: float) -> list[tuple[int, int, float, float, float, float]]:
    """Every piece as (col, row, bx, by, w, h): its window in board mm, row-major."""
    t = plan_board(comp, sheet, overlap)
    return [(c, r, *t.window(c, r)) for c, r in t.pieces()]


def margin(t: Tiling, sheet: Sheet) -> float:
    """Room (mm) a piece of ``t`` needs around its trim on the page: crop-mark room or none."""
    return sheet.mark_reserve(0.0)[1] if t.crop_marks else 0.0


def cut_rect(t: Tiling, col: int, row: int, px: float, py: float) -> tuple[float, float, float, float]:
    """(x, y, w, h) on the page of what is kept of piece (col, row) printed with its window's
    top-left at (px, py): the window less the strips cut off along its join lines (those strips are
    the piece's bleed). The glue tabs are kept."""
    w, h = t.size(col, row)
    if t.mode != "tiled":
        return (px, py, w, h)
    left = CUT_MARGIN if col > 0 else 0.0
    top = CUT_MARGIN if row > 0 else 0.0
    return (px + left, py + top, w - left, h - top)


def piece_items(t: Tiling, col: int, row: int, px: float, py: float, sheet: Sheet) -> tuple[list, TileInfo | None]:
    """The drawing of piece (col, row) with its trim's top-left at page (px, py), and its TileInfo
    (None for a board printed whole). Board point (x, y) prints at (x - bx + px, y - by + py); its
    words are the tiling's."""
    comp = t.comp
    board = tuple(comp.fronts[0])
    bx, by, w, h = t.window(col, row)
    cm = sheet.crop_marks
    if t.mode == "turned":
        w, h = h, w
        items: list = [Group(board, dx=px + w, dy=py, rotate=90, clip=(0, 0, comp.width, comp.height))]
    else:
        items = [Group(board, dx=px - bx, dy=py - by, clip=(bx, by, w, h))]
    if t.crop_marks:
        items.extend(marks.crop_marks([px, px + w], [py, py + h], (px, py, w, h), cm.offset, cm.length, cm.width))
        return items, None
    sx, sy = px - bx, py - by
    items.extend(_outline(t, col, row, px, py, w, h))
    if t.mode == "outline":
        return items, None
    for s in t.seams:
        if (col, row) in (s.glue, s.cut):
            items.extend(_seam_items(s, (col, row) == s.cut, t.overlap, sx, sy, t.words))
    fx, fy, fw, fh = sheet.printable
    top = fy + fh - FOOTER_BAND + 1.5
    items.extend(marks.assembly_map(fx + 75, top, t.cols, t.rows, col, row, cell=3.0, _=t.words))
    left = fx + 75 + t.cols * 3.0 + 22.0
    for i, line in enumerate(wrap(t.words(JOIN_INSTRUCTIONS), 6.0, fx + fw - left)[:3]):
        items.append(Text(left, top + 2.2 + i * 2.6, line, size_pt=6.0, fill="#333333"))
    return items, TileInfo(marks.piece_name(col, row), t.cols, t.rows, (bx, by, w, h), (px, py))


def _outline(t: Tiling, col: int, row: int, px: float, py: float, w: float, h: float) -> list:
    """The piece's edges, except those of a strip that is cut off (whose line is the join line)."""
    edges = [((px, py), (px, py + h), col > 0), ((px + w, py), (px + w, py + h), False),
             ((px, py), (px + w, py), row > 0), ((px, py + h), (px + w, py + h), False)]
    return [Line(a[0], a[1], b[0], b[1], stroke=BLACK, stroke_width=OUTLINE_WIDTH) for a, b, waste in edges if not waste]


def _seam_items(s: Seam, is_cut: bool, ov: float, sx: float, sy: float, _: Words = english) -> list:
    """The join line, its targets and this piece's strip label, on the page (shift sx, sy)."""
    def page(u, v):
        return (u + sx, v + sy) if s.vertical else (v + sx, u + sy)
    (x1, y1), (x2, y2) = page(s.at, s.span[0]), page(s.at, s.span[1])
    out: list = [Line(x1, y1, x2, y2, stroke_width=marks.JOIN_WIDTH, dash=DASH)]
    size = target_size(ov)
    for v in s.targets:
        out.extend(marks.alignment_target(*page(s.at, v), size=size))
    text, u, v = ((_(CUT_LABEL), s.at - CUT_MARGIN / 2, s.cut_label) if is_cut else
                  (_(GLUE_LABEL), s.at + ov / 2, s.glue_label))
    x, y = page(u, v)
    if s.backed[0 if is_cut else 1]:
        length, half = text_width_mm(text, LABEL_PT), LABEL_PT * MM_PER_PT * 0.55 + 0.5
        (bx0, by0), (bx1, by1) = page(u - half, v - 0.5), page(u + half, v + length + 0.5)
        out.append(Rect(min(bx0, bx1), min(by0, by1), abs(bx1 - bx0), abs(by1 - by0), fill="#ffffff", stroke=None))
    out.append(Text(x, y, text, size_pt=LABEL_PT, anchor="start", valign="middle", rotate=90 if s.vertical else 0,
                    fill="#333333"))
    return out
