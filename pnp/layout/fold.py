"""Fold-over backs (``--duplex fold``, the print-and-play "gutter fold"): a back without a duplex printer.

Every part with a printed back is printed with its back beside it on the same side of one sheet:
fronts in one half, backs in the other, each back the mirror image of its front's place across the
fold line, so that folding the sheet along the line (printed sides out) puts every back exactly
behind its front. Glue the halves together, then cut through both layers on the crop marks; the
two layers also keep a face from showing through.

The fold line is the middle of the paper (fold it edge to edge and the crease lands on the line):
vertical (fronts left, backs right) or, when that holds fewer parts, horizontal (fronts above,
backs below). A part is laid on its side when more fit that way (NetMatch's cards: 5 a sheet
instead of 3 on A4). Each back is drawn so that it reads upright when the part, held upright, is
turned over like a book page: with a vertical fold and the part upright the back is drawn as it is;
about a horizontal line it is turned a half turn; a part on its side has its back turned the other
way round (FoldSheet.back_face). The parts are packed into the front half with pnp/layout/packing.py (grids, crop marks on the
three outer sides, nothing on the fold side). Parts of a block are butted, as on every sheet; the
trims next to the fold lie FOLD_GAP from the line (or the bleed, when larger), and each side's art
there runs up to the fold line and no further: a front's bleed is the front's own art, a back's the
back's, so a cut that strays towards the fold shows that side's own colour, never the other side's.
Printed on one side of thin paper (pnp.layout.cover.FOLD_PAPER), folded and glued.

Parts without a printed back keep their normal layout on sheets of their own, and boards are never
folded.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..core.errors import LayoutError
from ..core.ir import Component, Drawing, Group
from ..core.units import fmt_mm
from .options import ImposeOptions
from .packing import Packer, SheetPlan
from .paper import Sheet, part_gap

Rect4 = tuple[float, float, float, float]
EPS = 1e-9
FOLD_GAP = 2.0   # mm from the fold line to the nearest trims (fronts on one side, backs on the other)


def folds(comp: Component) -> bool:
    """Whether ``comp`` is folded: a part (not a board) with a printed back."""
    return comp.back is not None and not comp.board


@dataclass(eq=False)
class FoldSheet(SheetPlan):
    """A fold-over sheet: ``blocks`` are the fronts (all PartBlocks, in the front half); the fold line
    is vertical at x = ``line`` (``axis`` "x") or horizontal at y = ``line`` (``axis`` "y"), in mm;
    the components (kit indices) in ``turned`` lie on their side (a quarter turn clockwise), so a
    block's trims are their height x width."""
    axis: str = "x"
    line: float = 0.0
    turned: frozenset = frozenset()
    gap: float = FOLD_GAP  # mm from the fold line to the trims next to it (fold_gap)

    def size(self, index: int, comp: Component) -> tuple[float, float]:
        """Width and height of the component's trim as laid on this sheet (mm)."""
        return (comp.height, comp.width) if index in self.turned else (comp.width, comp.height)

    def front_face(self, drawing: Drawing, index: int, comp: Component) -> Drawing:
        """The front as drawn on the sheet, in the part's trim as laid (see size)."""
        if index not in self.turned:
            return drawing
        return (Group(tuple(drawing), dx=comp.height, rotate=90),)

    def mirror(self, x: float, y: float, w: float, h: float) -> tuple[float, float]:
        """Top-left of the back of a part whose front's trim is (x, y, w, h): its mirror across the line."""
        if self.axis == "x":
            return 2 * self.line - x - w, y
        return x, 2 * self.line - y - h

    def mirror_rect(self, rect: Rect4) -> Rect4:
        x, y, w, h = rect
        return (*self.mirror(x, y, w, h), w, h)

    def next_to_fold(self, x: float, y: float, w: float, h: float) -> bool:
        """Whether the back whose trim is (x, y, w, h) is next to the fold line (its edge ``gap`` from it)."""
        edge = x if self.axis == "x" else y
        return abs(edge - self.line - self.gap) < 1e-6

    def fold_clip(self, w: float, h: float, bleed: float, back: bool) -> Rect4:
        """The clip of a front or a back (``back``) next to the fold, in part coordinates (trim w x h as
        laid, mm): ``bleed`` past the three outer sides, and up to the fold line (``gap`` past the trim)
        on the side facing it, never over it. Fronts lie left of or above the line, backs right of or
        below it."""
        g = self.gap
        if self.axis == "x":
            return (-g, -bleed, w + bleed + g, h + 2 * bleed) if back else (-bleed, -bleed, w + bleed + g, h + 2 * bleed)
        return (-bleed, -g, w + 2 * bleed, h + bleed + g) if back else (-bleed, -bleed, w + 2 * bleed, h + bleed + g)

    def outer_sides(self, back: bool) -> str:
        """The sides of a block that get crop marks ("t", "b", "l", "r"): all but the one facing the fold."""
        fold_side = {("x", False): "r", ("x", True): "l", ("y", False): "b", ("y", True): "t"}[(self.axis, back)]
        return "".join(s for s in "tblr" if s != fold_side)

    def back_face(self, drawing: Drawing, index: int, comp: Component) -> Drawing:
        """The back as drawn on the sheet, so that it reads upright when the part, held upright, is
        turned over like a book page. Folding mirrors the back across the line; turning the part over
        mirrors it back about the part's upright vertical axis. The two cancel for an upright part and
        a vertical fold (drawn as it is); a horizontal fold leaves a half turn (drawn turned 180
        degrees); a part on its side (front a quarter turn clockwise) needs its back a quarter turn
        anticlockwise for a vertical fold, clockwise for a horizontal one."""
        w, h = comp.width, comp.height
        turn = {("x", False): 0, ("y", False): 180, ("x", True): -90, ("y", True): 90}[(self.axis,
                                                                                    index in self.turned)]
        shift = {0: (0.0, 0.0), 180: (w, h), -90: (0.0, w), 90: (h, 0.0)}[turn]
        if not turn:
            return drawing
        return (Group(tuple(drawing), dx=shift[0], dy=shift[1], rotate=turn),)


def _half(sheet: Sheet, opts: ImposeOptions, axis: str) -> tuple[float, Rect4]:
    """(fold line, front half) for ``axis``: the front half is the area a packer may fill (trims plus
    crop-mark room) so that every trim stays half a gutter short of the line, with its mirror image
    inside the content area."""
    cx, cy, cw, ch = sheet.content_area
    m = sheet.mark_reserve(opts.bleed)[1] + opts.bleed
    d = fold_gap(opts)   # trim to fold line
    if axis == "x":
        line = sheet.width / 2
        lo = max(cx, 2 * line - (cx + cw))
        return line, (lo, cy, line - d + m - lo, ch)
    line = sheet.height / 2
    lo = max(cy, 2 * line - (cy + ch))
    return line, (cx, lo, cw, line - d + m - lo)


class _HalfPacker(Packer):
    """The kit's packer (pnp/layout/packing.py) filling one half of each sheet."""

    def __init__(self, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions, area: Rect4) -> None:
        super().__init__(components, sheet, opts)
        self.half = area

    @property
    def sheet_area(self) -> Rect4:
        return self.half


def _only(components: Sequence[Component], keep) -> list[Component]:
    """``components`` with those not kept emptied (no parts, not a board), so indices stay the kit's."""
    return [c if keep(c) else replace(c, fronts=(), board=False) for c in components]


def _count(w: float, h: float, sheet: Sheet, opts: ImposeOptions, axis: str) -> int:
    _, (_, _, aw, ah) = _half(sheet, opts, axis)
    m = sheet.mark_reserve(opts.bleed)[1] + opts.bleed
    g = part_gap(sheet, opts.bleed)
    cols = int((aw - 2 * m + g + EPS) // (w + g))
    rows = int((ah - 2 * m + g + EPS) // (h + g))
    return max(0, cols) * max(0, rows)


def _turn(comp: Component, sheet: Sheet, opts: ImposeOptions, axis: str) -> bool:
    """Whether ``comp`` goes on its side with the fold along ``axis``: when more fit that way."""
    return (comp.shape not in ("circle", "polygon") and  # a polygon's outline is not turned
            _count(comp.height, comp.width, sheet, opts, axis) > _count(comp.width, comp.height, sheet, opts, axis))


def _to_fold(plan: SheetPlan, axis: str, edge: float) -> SheetPlan:
    """The front half's blocks moved along the fold axis (packing centred them) so that the trims
    nearest the fold line end at ``edge``, FOLD_GAP from it."""
    far = max((b.trim[0] + b.trim[2]) if axis == "x" else (b.trim[1] + b.trim[3]) for b in plan.blocks)
    d = edge - far
    return SheetPlan([replace(b, x=b.x + d) if axis == "x" else replace(b, y=b.y + d) for b in plan.blocks])


def fold_gap(opts: ImposeOptions) -> float:
    """mm from the fold line to the trims next to it: FOLD_GAP, or the bleed when that is larger."""
    return max(FOLD_GAP, opts.bleed)


def capacity(comp: Component, sheet: Sheet, opts: ImposeOptions, axis: str) -> int:
    """How many of ``comp`` one fold-over sheet holds with the fold along ``axis``, upright or on its
    side, whichever holds more (0: none fit)."""
    return max(_count(comp.width, comp.height, sheet, opts, axis), _count(comp.height, comp.width, sheet, opts, axis))


def pack_folded(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> list[FoldSheet]:
    """The fold-over sheets of the kit's folded parts (``folds``), fronts packed into the front half;
    the fold runs along the axis that needs fewer sheets (vertical on a tie). Other components are
    left out (indices stay the kit's).

    Raises:
        LayoutError: a part with a back does not fit half the sheet either way, naming it and by how much.
    """
    folded = [c for c in components if folds(c) and c.count]
    if not folded:
        return []
    axes = [a for a in ("x", "y") if all(capacity(c, sheet, opts, a) for c in folded)]
    if not axes:
        bad = next(c for c in folded if not any(capacity(c, sheet, opts, a) for a in ("x", "y")))
        _, (_, _, aw, ah) = _half(sheet, opts, "x")
        raise LayoutError(f"component {bad.name!r} ({fmt_mm(bad.width)} x {fmt_mm(bad.height)}) is too large to fold: "
                          f"a front and its back side by side do not fit {sheet.name} either way.", field=bad.name,
                          hint="use --duplex long or short (two-sided printing), or a larger --paper")
    best: list[FoldSheet] | None = None
    for axis in axes:
        line, area = _half(sheet, opts, axis)
        turned = frozenset(i for i, c in enumerate(components) if folds(c) and _turn(c, sheet, opts, axis))
        laid = [replace(c, width=c.height, height=c.width) if i in turned else c
                for i, c in enumerate(_only(components, folds))]
        plans = [_to_fold(p, axis, line - fold_gap(opts)) for p in _HalfPacker(laid, sheet, opts, area).pack()]
        sheets = [FoldSheet(p.blocks, None, axis, line, turned, fold_gap(opts)) for p in plans]
        if best is None or len(sheets) < len(best):
            best = sheets
    return best
