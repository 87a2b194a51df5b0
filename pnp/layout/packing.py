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
no place for crop marks.

Then sparse sheets (parts covering under ``SPARSE`` of the printable area) are merged away: all of
a sparse sheet's blocks are re-placed in the free space of the other sheets (parts may split into
several blocks there) when they fit, and the sheet is dropped. A sparse sheet that cannot be merged
takes whole part blocks from other sheets when they fit its free space and leave their sheet
no sparser than ``SPARSE``. Finally each sheet's blocks are centred together in the content area,
and sheets are ordered by the component that takes most of each (kit order).

Parts of an optional variant (``Component.variant``) never share a sheet with the standard game's
parts or another variant's: each group is packed on its own sheets, the standard game first, so a
player prints only the pages of the game they play.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Sequence

from ..core.errors import LayoutError
from ..core.ir import Component
from ..core.units import fmt_mm
from .nesting import Lattice, grid, hex_lattice, is_hex
from .options import ImposeOptions
from .paper import Sheet, part_gap
from .sheetspace import EPS, BoardBlock, PartBlock, Rect4, Run, SheetPlan
from .sheetspace import Space as _Space, count as _count, take as _take
from .tiling import Tiling, margin as board_margin, plan_board

SPARSE = 0.30  # a sheet whose parts cover less of its printable area than this is merged when it can be


@dataclass(frozen=True, eq=False)
class Grid:
    """An N-up grid: ``cols`` x ``rows`` cells; trim of cell (c, r) at (x0 + c*pitch_x, y0 + r*pitch_y)."""
    cols: int
    rows: int
    x0: float
    y0: float
    pitch_x: float
    pitch_y: float
    width: float
    height: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot(self, i: int) -> tuple[float, float]:
        """Top-left of the trim of the i-th slot (row-major)."""
        return (self.x0 + (i % self.cols) * self.pitch_x, self.y0 + (i // self.cols) * self.pitch_y)


def grid_for(comp: Component, sheet: Sheet, bleed: float = 0.0) -> Grid:
    """The largest N-up grid of ``comp`` alone on a sheet, with crop marks, centred: what a sheet of
    only this component holds (packing fills the same room, pnp/layout/packing.py). Hexes count as
    nested (pnp.layout.nesting) when that holds more; the Grid's ``slot`` then ignores the offset rows.

    Parts are butted: neighbours share a cut line, or with bleed lie 2 x bleed apart (their bleeds
    meet); the crop marks go around the block, into the sheet margin where there is room
    (Sheet.part_area).

    Raises:
        LayoutError: the component does not fit, naming by how many mm.
    """
    cx, cy, cw, ch = sheet.part_area(bleed)
    _, reserve = sheet.mark_reserve(bleed)
    aw, ah = cw - 2 * reserve - 2 * bleed, ch - 2 * reserve - 2 * bleed
    gap = part_gap(sheet, bleed)
    if comp.width > aw or comp.height > ah:
        over_w, over_h = max(0.0, comp.width - aw), max(0.0, comp.height - ah)
        raise LayoutError(
            f"component {comp.name!r} ({fmt_mm(comp.width)} x {fmt_mm(comp.height)}) does not fit the printable "
            f"area of {sheet.name} ({fmt_mm(aw)} x {fmt_mm(ah)} after margins, footer and crop marks) "
            f"by {fmt_mm(max(over_w, over_h))}.",
            field=comp.name, hint="make it smaller in the spec, or use a larger --paper (a3, tabloid)")
    cols = max(1, int((aw + gap + 1e-9) // (comp.width + gap)))
    rows = max(1, int((ah + gap + 1e-9) // (comp.height + gap)))
    if is_hex(comp.cut_shape.points, comp.width, comp.height):  # nested when that holds more (Packer._kind)
        lat = hex_lattice(comp.width, comp.height, gap)
        nc, nr = lat.fit(comp.width, comp.height, aw, ah)
        if nc * nr > cols * rows:
            bw, bh = lat.size(comp.width, comp.height, nc, nr)
            return Grid(nc, nr, cx + (cw - bw) / 2, cy + (ch - bh) / 2, lat.pitch_x, lat.pitch_y, comp.width,
                        comp.height)
    bw = cols * comp.width + (cols - 1) * gap
    bh = rows * comp.height + (rows - 1) * gap
    return Grid(cols, rows, cx + (cw - bw) / 2, cy + (ch - bh) / 2, comp.width + gap, comp.height + gap,
                comp.width, comp.height)


@dataclass(frozen=True, eq=False)
class _Kind:
    """Parts cut alike: trim ``w`` x ``h``, ``shape`` and ``outline`` (polygon parts); ``runs`` of
    them by component; ``lattice``: where they go in a block (a grid, or hexes nested)."""
    w: float
    h: float
    shape: str
    runs: tuple[Run, ...]
    outline: tuple = ()
    lattice: Lattice | None = None  # None: a grid of their boxes (Packer._lattice)


class Packer:
    """Packs one kit onto sheets; see the module docstring."""

    def __init__(self, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions,
                 only: Sequence[int] | None = None) -> None:
        self.components = components
        self.only = set(range(len(components)) if only is None else only)
        self.grow = True  # False while merging: items must fit the sheets there are
        self.sheet = sheet
        self.opts = opts
        # crop-mark room (past any bleed) and the bleed itself around a block, as grid_for reserves
        self.margin = sheet.mark_reserve(opts.bleed)[1] + opts.bleed
        self.gap = part_gap(sheet, opts.bleed)  # between parts of a block: butted, or their bleeds meet
        # parts alone: their crop marks may run into the sheet margin; with a board piece on the
        # sheets, the content area (a tiled piece's outline must print)
        boards = any(components[i].board for i in self.only)
        self.area = sheet.content_area if boards else sheet.part_area(opts.bleed)
        self.tilings: dict[int, Tiling] = {}
        self.spaces: list[_Space] = []
        # memos: a deck fills hundreds of identical sheets, so the same free rectangles
        # come back again and again; what depends on them alone is worked out once
        self._grids: dict[tuple, tuple[int, int]] = {}  # (w, h, free rectangle) -> (cols, rows)
        self._rooms: dict[tuple, int] = {}  # (w, h, free rectangles of a sheet) -> parts it holds
        self._occupied: dict[tuple, list[Rect4]] = {}  # (free rectangles, footprint) -> free rectangles after

    # -- parts ----------------------------------------------------------------------------------
    def _capacity(self, kind: _Kind, free: Rect4) -> int:
        cols, rows = self._grid(kind, free)
        return cols * rows

    def _grid(self, kind: _Kind, free: Rect4) -> tuple[int, int]:
        """(cols, rows) of ``kind`` that fit the free rectangle with crop-mark room."""
        memo = (kind.w, kind.h, kind.lattice, free)
        got = self._grids.get(memo)
        if got is None:
            m = self.margin
            got = self._grids[memo] = self._lattice(kind).fit(kind.w, kind.h, free[2] - 2 * m, free[3] - 2 * m)
        return got

    def _put(self, space: _Space, free: Rect4, kind: _Kind, runs: tuple[Run, ...]) -> None:
        """A block of the parts of ``runs`` at the top-left of ``free``: as wide as the space
        allows, rows filled evenly."""
        n = _count(runs)
        cols = min(self._grid(kind, free)[0], n)
        cols = math.ceil(n / math.ceil(n / cols))
        m, lat = self.margin, self._lattice(kind)
        block = PartBlock(free[0] + m, free[1] + m, kind.w, kind.h, kind.shape, cols, lat.pitch_x, lat.pitch_y, runs,
                          lat.shift_x, lat.shift_y, kind.outline)
        space.blocks.append(block)
        _, _, bw, bh = block.trim
        self._occupy(space, (free[0], free[1], bw + 2 * m, bh + 2 * m))

    def _occupy(self, space: _Space, rect: Rect4) -> None:
        """``space.occupy(rect)``, its new free rectangles worked out once per (free rectangles, rect):
        they depend on nothing else (the gutter is the sheet's)."""
        memo = (tuple(space.free), rect)
        free = self._occupied.get(memo)
        if free is None:
            space.occupy(rect)
            self._occupied[memo] = list(space.free)
        else:
            space.footprints.append(rect)
            space.free = list(free)

    def _room(self, kind: _Kind) -> int:
        """How many parts of ``kind`` the free space of the sheets so far holds, roomiest first."""
        total = 0
        for s in self.spaces:
            memo = (kind.w, kind.h, kind.lattice, tuple(s.free))
            room = self._rooms.get(memo)
            if room is None:  # depends on the free rectangles alone: full sheets of a deck are alike
                room = 0
                s = s.copy()
                while s.free:
                    best = max(s.free, key=lambda f: self._capacity(kind, f))
                    n = self._capacity(kind, best)
                    if n == 0:
                        break
                    room += n
                    self._put(s, best, kind, (Run(0, 0, n),))
                self._rooms[memo] = room
            total += room
        return total

    def _place_kind(self, kind: _Kind) -> None:
        runs = kind.runs
        fresh = self._capacity(kind, self.sheet_area)
        if fresh == 0:  # impose checks first (grid_for); this keeps the loops below finite
            name = self.components[runs[0].comp].name
            raise LayoutError(f"component {name!r} does not fit the printable area of {self.sheet.name}.", field=name,
                              hint="make it smaller in the spec, or use a larger --paper (a3, tabloid)")
        room = self._room(kind)
        if not self.grow and _count(runs) > room:
            raise _NoRoom
        n = _count(runs)
        if n > room:  # the free space cannot hold them all: new sheets, as many as needed either way
            sheets = math.ceil((n - room) / fresh)
            per = math.ceil(n / sheets)
            if per <= fresh:  # the whole kind fits them: spread it evenly, no sheet left nearly empty
                while runs:
                    take, runs = _take(runs, per)
                    self._put(self._new_space(), self.sheet_area, kind, take)
                return
        while _count(runs) > room:  # else fill new sheets first, the rest into the free space
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

    def _lattice(self, kind: _Kind) -> Lattice:
        """The kind's lattice; a kind made without one is a grid of its boxes, the sheet's gap apart."""
        return kind.lattice or grid(kind.w, kind.h, self.gap)

    def _kind(self, w: float, h: float, shape: str, runs: tuple[Run, ...], outline: tuple) -> _Kind:
        """A kind with its lattice: hexes nested (pnp.layout.nesting) when a sheet holds more of them
        that way than in a grid of their boxes, else the grid."""
        plain = _Kind(w, h, shape, runs, outline, grid(w, h, self.gap))
        if not is_hex(outline, w, h):
            return plain
        nested = replace(plain, lattice=hex_lattice(w, h, self.gap))
        return nested if self._capacity(nested, self.sheet_area) > self._capacity(plain, self.sheet_area) else plain

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
        self._occupy(space, (free[0], free[1], fw, fh))

    # -- the kit --------------------------------------------------------------------------------
    @property
    def sheet_area(self) -> Rect4:
        return self.area

    def _new_space(self) -> _Space:
        if not self.grow:
            raise _NoRoom
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
            if i not in self.only:
                continue
            if comp.board:
                self.tilings[i] = plan_board(comp, self.sheet, self.opts.overlap, self.opts.words)
                order.append(i)
                continue
            key = (round(comp.width, 6), round(comp.height, 6), comp.shape, comp.cut_shape.points)
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
                self._place_kind(self._kind(item[0], item[1], item[2], tuple(kinds[item]), item[3]))
        self._merge_sparse()
        plans = [SheetPlan(_centred(s), self.sheet) for s in self.spaces]
        plans.sort(key=lambda p: p.main())
        return plans

    # -- sparse sheets ----------------------------------------------------------------------------
    def _sparse(self, space: _Space) -> bool:
        _, _, w, h = self.sheet.printable
        return space.parts_area() < SPARSE * w * h - EPS

    def _place_block(self, block) -> None:
        """Place the parts (or the board piece) of ``block`` anew, as packing places them."""
        if isinstance(block, BoardBlock):
            self._place_piece(block.comp, self.tilings[block.comp], block.col, block.row)
        else:
            self._place_kind(self._kind(block.w, block.h, block.shape, block.runs, block.outline))

    def _try(self, spaces: list[_Space], blocks: list) -> list[_Space] | None:
        """``spaces`` (copies) with every block of ``blocks`` placed on them, or None when one does not fit."""
        saved, self.spaces, self.grow = self.spaces, spaces, False
        try:
            for block in sorted(blocks, key=lambda b: b.w * b.h, reverse=True):
                self._place_block(block)
            return self.spaces
        except _NoRoom:
            return None
        finally:
            self.spaces, self.grow = saved, True

    def _merge_sparse(self) -> None:
        """Merge sparse sheets into the others while one's parts all fit their free space (each
        merge drops a sheet, so this ends); then top up each sparse sheet left with whole part
        blocks from other sheets that stay no sparser than SPARSE."""
        merged = True
        while merged and len(self.spaces) > 1:
            merged = False
            for low in sorted(self.spaces, key=_Space.parts_area):
                if not self._sparse(low):
                    break
                spaces = self._try([s.copy() for s in self.spaces if s is not low], low.blocks)
                if spaces is not None:
                    self.spaces, merged = spaces, True
                    break
        for low in [s for s in self.spaces if self._sparse(s)]:
            if low not in self.spaces:  # replaced by an earlier top-up
                continue
            spaces = list(self.spaces)
            for d, donor in enumerate(spaces):
                i = 0
                while donor is not low and i < len(donor.blocks) and self._sparse(low):
                    rest = donor.without(i)
                    filled = None
                    if isinstance(donor.blocks[i], PartBlock) and rest.blocks and not self._sparse(rest):
                        filled = self._try([low.copy()], [donor.blocks[i]])
                    if filled is None:
                        i += 1
                        continue
                    spaces[spaces.index(low)] = low = filled[0]
                    spaces[d] = donor = rest
            if not self._sparse(low):  # only a top-up that lifts the sheet out of sparse is kept
                self.spaces = spaces


def _centred(space: _Space) -> list:
    """The sheet's blocks shifted so that their footprints, together, are centred in the content area."""
    ax, ay, aw, ah = space.area
    x0 = min(f[0] for f in space.footprints)
    y0 = min(f[1] for f in space.footprints)
    x1 = max(f[0] + f[2] for f in space.footprints)
    y1 = max(f[1] + f[3] for f in space.footprints)
    dx, dy = ax + (aw - (x1 - x0)) / 2 - x0, ay + (ah - (y1 - y0)) / 2 - y0
    return [replace(b, x=b.x + dx, y=b.y + dy) for b in space.blocks]


class _NoRoom(Exception):
    """Raised while merging: an item does not fit the sheets there are."""


def pack(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> tuple[list[SheetPlan], dict[int, Tiling]]:
    """The sheets of a kit (fronts, in print order: the standard game's sheets, then each variant's,
    variants in kit order) and the tiling of each board (by component index). A kit is packed once,
    by pnp.layout.kitpacking.pack_kit."""
    return _pack(tuple(components), sheet, opts)


def paper_of(comp: Component, opts: ImposeOptions | None = None) -> str:
    """The paper a part is printed on, as the bill of materials gives it: "plain" for boards (glued
    onto card), "fold" for parts with fold-over backs (``opts.duplex`` "fold": thin paper, folded and
    glued), "card" for every other part (card stock)."""
    if comp.board:
        return "plain"
    if opts is not None and opts.duplex == "fold" and comp.back is not None:
        return "fold"
    return "card"


def _pack(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> tuple[list[SheetPlan], dict[int, Tiling]]:
    """Pack each group on sheets of its own: the standard game's parts, then each variant's; within
    each, the parts of one paper (paper_of) apart from the others unless ``opts.mix_papers``."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, comp in enumerate(components):
        groups.setdefault((comp.variant, "" if opts.mix_papers else paper_of(comp)), []).append(i)
    plans: list[SheetPlan] = []
    tilings: dict[int, Tiling] = {}
    for variant in dict.fromkeys(v for v, _ in sorted(groups, key=lambda g: g[0] != "")):
        for (v, _), indices in groups.items():
            if v != variant:
                continue
            packer = Packer(components, choose_footer([components[i] for i in indices], sheet, opts), opts, indices)
            plans += packer.pack()
            tilings.update(packer.tilings)
    return plans, tilings


def choose_footer(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> Sheet:
    """``sheet`` with its footer placed: as the sheet says, or for "auto" at the bottom unless the
    footer turned along the left side prints the most numerous part on fewer sheets (e.g. 9 poker
    cards a Letter sheet instead of 6). Sheets with a board piece keep the footer at the bottom."""
    if sheet.footer != "auto":
        return sheet
    bottom = sheet.with_footer("bottom")
    parts = [c for c in components if c.count]
    if not parts or any(c.board for c in components):
        return bottom
    main = max(parts, key=lambda c: c.count)
    side = sheet.with_footer("side")
    try:
        fewer = (math.ceil(main.count / grid_for(main, side, opts.bleed).per_page)
                 < math.ceil(main.count / grid_for(main, bottom, opts.bleed).per_page))
    except LayoutError:
        return bottom
    return side if fewer else bottom
