"""The pieces of a packing plan (pnp/layout/packing.py): runs of parts, part blocks and board
pieces on a sheet, the sheet plan, and the free space of a sheet being packed, kept as maximal free
rectangles (MaxRects). Lengths in mm, page coordinates, y down."""
from __future__ import annotations

import math
from dataclasses import dataclass

EPS = 1e-9
Rect4 = tuple[float, float, float, float]


@dataclass(frozen=True, eq=False)
class Run:
    """Parts ``first`` .. ``first + count - 1`` of component ``comp`` (index in the kit)."""
    comp: int
    first: int
    count: int


def take(runs: tuple[Run, ...], n: int) -> tuple[tuple[Run, ...], tuple[Run, ...]]:
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


def count(runs: tuple[Run, ...]) -> int:
    return sum(r.count for r in runs)


@dataclass(frozen=True, eq=False)
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
    shift_x: float = 0.0  # nested hexes (pnp.layout.nesting): odd rows this far right,
    shift_y: float = 0.0  # odd columns this far down
    outline: tuple = ()   # the kind's cut outline (polygon parts), for nesting it again when re-placed

    @property
    def count(self) -> int:
        return count(self.runs)

    @property
    def rows(self) -> int:
        return math.ceil(self.count / self.cols)

    def slots(self):
        """((component index, part index), x, y) of every part's trim top-left, row-major."""
        i = 0
        for run in self.runs:
            for k in range(run.first, run.first + run.count):
                c, r = i % self.cols, i // self.cols
                yield ((run.comp, k), self.x + c * self.pitch_x + (r % 2) * self.shift_x,
                       self.y + r * self.pitch_y + (c % 2) * self.shift_y)
                i += 1

    @property
    def trim(self) -> Rect4:
        cols = min(self.cols, self.count)
        return (self.x, self.y, (cols - 1) * self.pitch_x + self.w + (self.shift_x if self.rows > 1 else 0.0),
                (self.rows - 1) * self.pitch_y + self.h + (self.shift_y if cols > 1 else 0.0))


@dataclass(frozen=True, eq=False)
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


@dataclass(eq=False)
class SheetPlan:
    """One sheet of paper (its front; the back mirrors it): its blocks, and the ``sheet`` (a
    pnp.layout.paper.Sheet with its footer placed) they were packed on; None: the kit's sheet."""
    blocks: list
    sheet: object = None

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


class Space:
    """The free space of one sheet being packed (maximal free rectangles) and what is on it."""

    def __init__(self, area: Rect4, gap: float) -> None:
        self.free: list[Rect4] = [area]
        self.area = area
        self.gap = gap
        self.blocks: list = []
        self.footprints: list[Rect4] = []
        self.tiled = False

    def copy(self) -> "Space":
        other = Space(self.area, self.gap)
        other.free = list(self.free)
        other.tiled = self.tiled
        other.blocks = list(self.blocks)
        other.footprints = list(self.footprints)
        return other

    def without(self, index: int) -> "Space":
        """This sheet with block ``index`` taken off (its free space rebuilt from the other footprints)."""
        other = Space(self.area, self.gap)
        for i, (block, rect) in enumerate(zip(self.blocks, self.footprints)):
            if i != index:
                other.blocks.append(block)
                other.occupy(rect)
                other.tiled |= isinstance(block, BoardBlock) and block.tiled
        return other

    def parts_area(self) -> float:
        """Area of the part trims and board pieces on this sheet, mm²."""
        return sum(b.w * b.h if isinstance(b, BoardBlock) else b.count * b.w * b.h for b in self.blocks)

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
            j != i and contains(o, f) and (o != f or j < i) for j, o in enumerate(out))), key=lambda f: (f[1], f[0]))


def contains(outer: Rect4, inner: Rect4) -> bool:
    return (outer[0] - EPS <= inner[0] and outer[1] - EPS <= inner[1]
            and inner[0] + inner[2] <= outer[0] + outer[2] + EPS and inner[1] + inner[3] <= outer[1] + outer[3] + EPS)
