"""Mixed sheets: which parts go on which sheet, and where.

Parts that are cut alike (same trim size and shape, e.g. Nooks' wall and scoring stones) form one
kind. A kind is laid out in blocks: regular grids with the sheet's gutter between parts and crop
marks around the block, in line with every cut. A block's footprint is its trims plus the crop-mark
room on every side; footprints on a sheet are at least a gutter apart, so no mark touches a part of
another block. Board pieces are fixed blocks (a tiled piece needs no crop-mark room; at most one
tiled piece per sheet, so each page has one assembly map).

The free space of a sheet is kept as maximal free rectangles (MaxRects: every largest empty
rectangle, overlapping), so a block can fill the space beside a board piece in either direction.
Items go largest first (first-fit decreasing: board pieces and big parts before small ones, so the
small ones fill what is left), each kind:

* into the first sheet with room for all of it in one block, else
* onto new sheets, as full blocks, while the free space of the sheets so far cannot hold the rest,
* then into the roomiest free rectangles.

This is a small packer of our own rather than a general rectangle packer such as rectpack (Apache
2.0, which would be fine to depend on): a kind must stay a grid, to be cut in straight runs along
its crop marks, with its grid shape chosen per free rectangle, and the crop-mark room must stay
clear of other parts; fixed-rectangle packers do neither, and scattering single parts would leave
no place for crop marks. Finally each sheet's blocks are centred together in the content area,
and sheets are ordered by the component that takes most of each (kit order).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from ..core.errors import LayoutError
from ..core.ir import Component
from .options import ImposeOptions
from .paper import Sheet
from .tiling import Tiling, margin as board_margin, plan_board

EPS = 1e-9
Rect4 = tuple[float, float, float, float]


@dataclass(frozen=True)
class Run:
    """Parts ``first`` .. ``first + count - 1`` of component ``comp`` (index in the kit)."""
    comp: int
    first: int
    count: int


def _take(runs: tuple[Run, ...], n: int) -> tuple[tuple[Run, ...], tuple[Run, ...]]:
    """The first ``n`` parts of ``runs`` and the rest, as runs (so a deck of any size stays small)."""
    taken: list[Run] = []
    rest = list(runs)
    while n > 0 and rest:
        run = rest.pop(0)
        if run.count <= n:
            taken.append(run)
            n -= run.count
        else:
            taken.append(Run(run.comp, run.first, n))
            rest.insert(0, Run(run.comp, run.first + n, run.count - n))
            n = 0
    return tuple(taken), tuple(rest)


def _count(runs: tuple[Run, ...]) -> int:
    return sum(r.count for r in runs)


@dataclass(frozen=True)
class PartBlock:
    """A grid of parts cut alike: trims ``w`` x ``h`` (``shape``) from page (x, y), ``cols`` across
    at pitch (pitch_x, pitch_y), filled row by row with the parts of ``runs``."""
    x: float
    y: float
    w: float
    h: float
    shape: str
    cols: int
    pitch_x: float
    pitch_y: float
    runs: tuple[Run, ...]

    @property
    def count(self) -> int:
        return _count(self.runs)

    @property
    def rows(self) -> int:
        return math.ceil(self.count / self.cols)

    def slots(self):
        """((component index, part index), x, y) of every part's trim top-left, row-major."""
        i = 0
        for run in self.runs:
            for k in range(run.first, run.first + run.count):
                yield (run.comp, k), self.x + (i % self.cols) * self.pitch_x, self.y + (i // self.cols) * self.pitch_y
                i += 1

    @property
    def trim(self) -> Rect4:
        cols = min(self.cols, self.count)
        return (self.x, self.y, (cols - 1) * self.pitch_x + self.w, (self.rows - 1) * self.pitch_y + self.h)


@dataclass(frozen=True)
class BoardBlock:
    """Piece (col, row) of board component ``comp`` with its trim's top-left at page (x, y)."""
    comp: int
    col: int
    row: int
    x: float
    y: float
    w: float
    h: float
    tiled: bool

    @property
    def trim(self) -> Rect4:
        return (self.x, self.y, self.w, self.h)


@dataclass
class SheetPlan:
    """One sheet of paper (its front; the back mirrors it): its blocks."""
    blocks: list

    def _areas(self) -> dict[int, float]:
        area: dict[int, float] = {}
        for b in self.blocks:
            for comp, n in ([(b.comp, 1)] if isinstance(b, BoardBlock) else [(r.comp, r.count) for r in b.runs]):
                area[comp] = area.get(comp, 0.0) + n * b.w * b.h
        return area

    def main(self) -> int:
        """The component that takes the most of this sheet (by trim area)."""
        area = self._areas()
        return max(sorted(area), key=area.__getitem__)

    def components(self) -> list[int]:
        """Indices of the components on this sheet, in kit order."""
        return sorted(self._areas())


class _Space:
    """The free space of one sheet being packed (maximal free rectangles) and what is on it."""

    def __init__(self, area: Rect4, gap: float) -> None:
        self.free: list[Rect4] = [area]
        self.area = area
        self.gap = gap
        self.blocks: list = []
        self.footprints: list[Rect4] = []
        self.tiled = False

    def copy(self) -> "_Space":
        other = _Space(self.area, self.gap)
        other.free = list(self.free)
        other.tiled = self.tiled
        return other

    def occupy(self, rect: Rect4) -> None:
        """Take ``rect`` (a footprint) and a gutter around it out of the free rectangles."""
        self.footprints.append(rect)
        g = self.gap
        ux0, uy0, ux1, uy1 = rect[0] - g, rect[1] - g, rect[0] + rect[2] + g, rect[1] + rect[3] + g
        out: list[Rect4] = []
        for f in self.free:
            fx0, fy0, fx1, fy1 = f[0], f[1], f[0] + f[2], f[1] + f[3]
            if ux0 >= fx1 or ux1 <= fx0 or uy0 >= fy1 or uy1 <= fy0:
                out.append(f)
                continue
            if ux0 > fx0:
                out.append((fx0, fy0, ux0 - fx0, f[3]))
            if ux1 < fx1:
                out.append((ux1, fy0, fx1 - ux1, f[3]))
            if uy0 > fy0:
                out.append((fx0, fy0, f[2], uy0 - fy0))
            if uy1 < fy1:
                out.append((fx0, uy1, f[2], fy1 - uy1))
        out = [f for f in out if f[2] > 1.0 and f[3] > 1.0]
        self.free = sorted((f for i, f in enumerate(out) if not any(
            j != i and _contains(o, f) and (o != f or j < i) for j, o in enumerate(out))), key=lambda f: (f[1], f[0]))


def _contains(outer: Rect4, inner: Rect4) -> bool:
    return (outer[0] - EPS <= inner[0] and outer[1] - EPS <= inner[1]
            and inner[0] + inner[2] <= outer[0] + outer[2] + EPS and inner[1] + inner[3] <= outer[1] + outer[3] + EPS)


@dataclass(frozen=True)
class _Kind:
    """Parts cut alike: trim ``w`` x ``h`` and ``shape``; ``runs`` of them by component."""
    w: float
    h: float
    shape: str
    runs: tuple[Run, ...]


class Packer:
    """Packs one kit onto sheets; see the module docstring."""

    def __init__(self, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> None:
        self.components = components
        self.sheet = sheet
        self.opts = opts
        # crop-mark room (past any bleed) and the bleed itself around a block, as grid_for reserves
        self.margin = sheet.mark_reserve(opts.bleed)[1] + opts.bleed
        self.gap = max(sheet.gutter, 2 * opts.bleed)  # between parts of a block
        self.tilings: dict[int, Tiling] = {}
        self.spaces: list[_Space] = []

    # -- parts ----------------------------------------------------------------------------------
    def _capacity(self, kind: _Kind, free: Rect4) -> int:
        cols, rows = self._grid(kind, free)
        return cols * rows

    def _grid(self, kind: _Kind, free: Rect4) -> tuple[int, int]:
        """(cols, rows) of ``kind`` that fit the free rectangle with crop-mark room."""
        m, g = self.margin, self.gap
        cols = int((free[2] - 2 * m + g + EPS) // (kind.w + g))
        rows = int((free[3] - 2 * m + g + EPS) // (kind.h + g))
        return max(0, cols), max(0, rows)

    def _put(self, space: _Space, free: Rect4, kind: _Kind, runs: tuple[Run, ...]) -> None:
        """A block of the parts of ``runs`` at the top-left of ``free``: as wide as the space
        allows, rows filled evenly."""
        n = _count(runs)
        cols = min(self._grid(kind, free)[0], n)
        cols = math.ceil(n / math.ceil(n / cols))
        m, g = self.margin, self.gap
        block = PartBlock(free[0] + m, free[1] + m, kind.w, kind.h, kind.shape, cols, kind.w + g, kind.h + g, runs)
        space.blocks.append(block)
        _, _, bw, bh = block.trim
        space.occupy((free[0], free[1], bw + 2 * m, bh + 2 * m))

    def _room(self, kind: _Kind) -> int:
        """How many parts of ``kind`` the free space of the sheets so far holds, roomiest first."""
        total = 0
        for s in self.spaces:
            s = s.copy()
            while s.free:
                best = max(s.free, key=lambda f: self._capacity(kind, f))
                n = self._capacity(kind, best)
                if n == 0:
                    break
                total += n
                self._put(s, best, kind, (Run(0, 0, n),))
        return total

    def _place_kind(self, kind: _Kind) -> None:
        runs = kind.runs
        fresh = self._capacity(kind, self.sheet_area)
        if fresh == 0:  # impose checks first (grid_for); this keeps the loops below finite
            name = self.components[runs[0].comp].name
            raise LayoutError(f"component {name!r} does not fit the printable area of {self.sheet.name}.", field=name,
                              hint="make it smaller in the spec, or use a larger --paper (a3, tabloid)")
        room = self._room(kind)
        while _count(runs) > room:  # the free space cannot hold them all: fill new sheets first
            take, runs = _take(runs, fresh)
            self._put(self._new_space(), self.sheet_area, kind, take)
        while runs:  # the rest: in one block where it fits whole, else the roomiest space first
            n = _count(runs)
            one = next(((s, f) for s in self.spaces for f in s.free if self._capacity(kind, f) >= n), None)
            if one:
                self._put(*one, kind, runs)
                return
            best = max(((s, f) for s in self.spaces for f in s.free), key=lambda sf: self._capacity(kind, sf[1]),
                       default=None)
            if best is None or self._capacity(kind, best[1]) == 0:
                best = (self._new_space(), self.sheet_area)
            take, runs = _take(runs, self._capacity(kind, best[1]))
            self._put(*best, kind, take)

    # -- boards ---------------------------------------------------------------------------------
    def _place_piece(self, index: int, tiling: Tiling, col: int, row: int) -> None:
        m = board_margin(tiling, self.sheet)
        w, h = tiling.size(col, row)
        fw, fh = w + 2 * m, h + 2 * m
        tiled = tiling.mode == "tiled"
        spot = next(((s, f) for s in self.spaces if not (tiled and s.tiled) for f in s.free
                     if f[2] + EPS >= fw and f[3] + EPS >= fh), None)
        if spot is None:
            spot = (self._new_space(), self.sheet_area)
        space, free = spot
        space.blocks.append(BoardBlock(index, col, row, free[0] + m, free[1] + m, w, h, tiled))
        space.tiled |= tiled
        space.occupy((free[0], free[1], fw, fh))

    # -- the kit --------------------------------------------------------------------------------
    @property
    def sheet_area(self) -> Rect4:
        return self.sheet.content_area

    def _new_space(self) -> _Space:
        space = _Space(self.sheet_area, self.sheet.gutter)
        self.spaces.append(space)
        return space

    def _area(self, item) -> float:
        """What first-fit decreasing sorts by: a part's trim area, a board's largest piece."""
        if isinstance(item, int):
            t = self.tilings[item]
            return max(w * h for w, h in (t.size(c, r) for c, r in t.pieces()))
        return item[0] * item[1]

    def pack(self) -> list[SheetPlan]:
        kinds: dict[tuple, list[Run]] = {}
        order: list = []
        for i, comp in enumerate(self.components):
            if comp.board:
                self.tilings[i] = plan_board(comp, self.sheet, self.opts.overlap)
                order.append(i)
                continue
            key = (round(comp.width, 6), round(comp.height, 6), comp.shape)
            if key not in kinds:
                kinds[key] = []
                order.append(key)
            if comp.count:
                kinds[key].append(Run(i, 0, comp.count))
        for item in sorted(order, key=self._area, reverse=True):
            if isinstance(item, int):
                t = self.tilings[item]
                for col, row in t.pieces():
                    self._place_piece(item, t, col, row)
            elif kinds[item]:
                self._place_kind(_Kind(item[0], item[1], item[2], tuple(kinds[item])))
        plans = [SheetPlan(_centred(s)) for s in self.spaces]
        plans.sort(key=lambda p: p.main())
        return plans


def _centred(space: _Space) -> list:
    """The sheet's blocks shifted so that their footprints, together, are centred in the content area."""
    ax, ay, aw, ah = space.area
    x0 = min(f[0] for f in space.footprints)
    y0 = min(f[1] for f in space.footprints)
    x1 = max(f[0] + f[2] for f in space.footprints)
    y1 = max(f[1] + f[3] for f in space.footprints)
    dx, dy = ax + (aw - (x1 - x0)) / 2 - x0, ay + (ah - (y1 - y0)) / 2 - y0
    return [replace(b, x=b.x + dx, y=b.y + dy) for b in space.blocks]


def pack(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> tuple[list[SheetPlan], dict[int, Tiling]]:
    """The sheets of a kit (fronts, in print order) and the tiling of each board (by component index)."""
    packer = Packer(components, sheet, opts)
    plans = packer.pack()
    return plans, packer.tilings
