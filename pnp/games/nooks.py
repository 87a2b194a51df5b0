"""Nooks (Phillip L. Leduc, 2010): side-8 hex board, 11x11 square variant, 168 wall + 60 scoring stones.

Rules source: docs/games/nooks.md and seed 001 ("168 neutral (tan) wall stones; 60 scoring
stones, 30 red stones and 30 gold stones", "Two neutral wall stones are placed at b8 and n8",
"A wall is created by placing four wall stones on four empty cells that are aligned and
connected", "Ties are not possible", variant: "walls must be placed vertically or horizontally").

Boards are drawn in mm with y down. The hex board is pointy-top with the numbered rows horizontal;
cell (c, row) is axial (q, r) = (c - side, side - row) (see pnp/geometry/hexgrid.py). The square
board uses pnp/geometry/squaregrid.py (row 1 at the bottom).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from ..findings import Finding, verdict
from ..geometry import hexgrid, squaregrid
from ..ir import Circle, Component, Rect, Text
from ..spec import Colour, Length, SpecBase
from . import Game, KitContext
from ._pieces import counter, fit, hex_cell, star

RULE = "Nooks rules (seed 001)"
DOC = "docs/games/nooks.md"
WALL = 4                 # stones per wall (a straight tetromino)
LABEL_AT = 0.64          # labels sit this many pitches beyond the centre of a line's end cell
SEARCH_SEED = 2010       # the blocked-board search is seeded: same board every run
SEARCH_ROUNDS = 1500     # local-search rounds per board (about 0.3 s for the side-8 board)


class SquareVariant(BaseModel):
    """The 11x11 square variant board (orthogonal walls only)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    include: bool = True
    size: int = Field(11, ge=4, le=26)
    setup: list[str] = ["b6", "j6"]


class Stones(BaseModel):
    """Round stone counters: diameter in mm, how many of each kind, and their colours."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    diameter: Length = 14.0
    neutral: int = Field(168, ge=0)
    red: int = Field(30, ge=0)
    gold: int = Field(30, ge=0)
    neutral_colour: Colour = "#d2b48c"
    red_colour: Colour = "#c62828"
    gold_colour: Colour = "#f5c400"
    mark_colour: Colour = "#2b2118"


class NooksSpec(SpecBase):
    """specs/nooks.yaml. Lengths in mm (or "19mm", "0.75in")."""
    side: int = Field(8, ge=2, le=13)
    cell_size: Length = 19.0
    setup: list[str] = ["b8", "n8"]
    board_colour: Colour = "#f4ecd8"
    setup_colour: Colour = "#dcc9a3"
    line_colour: Colour = "#4a3b2a"
    square: SquareVariant = SquareVariant()
    stones: Stones = Stones()

    @field_validator("stones")
    @classmethod
    def _stones_fit_a_cell(cls, stones: Stones, info: ValidationInfo) -> Stones:
        cell = info.data.get("cell_size")
        if cell is not None and stones.diameter > cell:
            raise ValueError(f"stones.diameter {stones.diameter:g} mm is larger than a cell ({cell:g} mm across the "
                             "flats); a stone must sit inside the cell it marks (Nooks rules: Stones). "
                             "Make the stones smaller or the cells larger")
        return stones


# -- the two boards as abstract wall boards -----------------------------------------------------

@dataclass(frozen=True)
class WallBoard:
    """A Nooks board for the validator: its cells, wall placements (lines of 4 cells), the setup
    cells, and how cells are named. ``axes`` is the number of wall directions."""
    name: str
    cells: tuple[Hashable, ...]
    walls: tuple[tuple[Hashable, ...], ...]
    axes: int
    setup: tuple[Hashable, ...]
    name_of: Callable[[Hashable], str]
    mirror: Callable[[Hashable], Hashable]

    def wall_name(self, wall: Sequence[Hashable]) -> str:
        return f"{self.name_of(wall[0])}-{self.name_of(wall[-1])}"


def _parse_all(labels: Sequence[str], parse) -> tuple[list, list[str]]:
    cells, bad = [], []
    for text in labels:
        try:
            cells.append(parse(text))
        except ValueError:
            bad.append(text)
    return cells, bad


def hex_board(side: int, setup: Sequence[str] = ()) -> tuple[WallBoard, list[str]]:
    """The hex-hex Nooks board of ``side``: (board, setup labels that are not cells)."""
    cells = hexgrid.hex_hex(side)
    start, bad = _parse_all(setup, lambda t: hexgrid.parse_label(t, side))
    walls = tuple(hexgrid.lines(WALL, cells, hexgrid.AXES))
    return WallBoard(f"hex side {side}", tuple(cells), walls, 3, tuple(start),
                     lambda c: hexgrid.label(c, side), lambda c: (-c[0], -c[1])), bad


def square_board(size: int, setup: Sequence[str] = ()) -> tuple[WallBoard, list[str]]:
    """The size x size square Nooks board (orthogonal walls): (board, setup labels not on it)."""
    cells = squaregrid.cells(size, size)
    start, bad = _parse_all(setup, lambda t: squaregrid.parse_label(t, size, size))
    walls = tuple(squaregrid.lines(WALL, size, size, squaregrid.ORTHOGONAL))
    return WallBoard(f"square {size}x{size}", tuple(cells), walls, 2, tuple(start),
                     lambda c: squaregrid.label(*c), lambda c: (size - 1 - c[0], size - 1 - c[1])), bad


def free_walls(board: WallBoard, occupied) -> list[tuple]:
    """Wall placements whose four cells are all empty, given the ``occupied`` cells."""
    taken = set(occupied)
    return [w for w in board.walls if taken.isdisjoint(w)]


def wall_bound(board: WallBoard) -> tuple[int, int, int]:
    """(free cells after setup, most walls that can fit = free // 4, wall stones that needs
    including the setup stones). The bound counts cells only: four stones per wall."""
    free = len(board.cells) - len(set(board.setup))
    most = free // WALL
    return free, most, len(set(board.setup)) + WALL * most


def blocked_board(board: WallBoard, rounds: int = SEARCH_ROUNDS, seed: int = SEARCH_SEED) -> list[tuple]:
    """A finished board with few walls: non-overlapping walls, clear of the setup stones, after
    which no wall fits (the game is over). Seeded local search, so the same board every run:
    fill the board greedily (the free wall that blocks the most other free walls, ties at random),
    then ``rounds`` times lift 2-4 random walls and refill, keeping boards with no more walls.
    Returns the walls of the sparsest board found, sorted."""
    rng = random.Random(seed)
    index = {c: i for i, c in enumerate(board.cells)}
    setup = sum(1 << index[c] for c in set(board.setup))
    placements = [w for w in board.walls if not setup & _mask(w, index)]
    masks = [_mask(w, index) for w in placements]
    conflicts = [[j for j, m in enumerate(masks) if m & mi] for mi in masks]

    def fill(chosen: list[int], occupied: int) -> list[int]:
        free = [i for i, m in enumerate(masks) if not m & occupied]
        while free:
            alive = set(free)
            scores = [sum(1 for j in conflicts[i] if j in alive) for i in free]
            top = max(scores)
            pick = rng.choice([i for i, sc in zip(free, scores) if sc == top])
            chosen.append(pick)
            occupied |= masks[pick]
            free = [i for i in free if not masks[i] & occupied]
        return chosen

    current = fill([], setup)
    best = current
    for _ in range(rounds):
        keep = list(current)
        for _ in range(min(len(keep), rng.choice((2, 2, 3, 4)))):
            keep.pop(rng.randrange(len(keep)))
        trial = fill(keep, setup | sum(masks[i] for i in keep))
        if len(trial) <= len(current):
            current = trial
            if len(current) < len(best):
                best = current
    return sorted(placements[i] for i in best)


def _mask(cells: Sequence[Hashable], index: dict) -> int:
    return sum(1 << index[c] for c in cells)


def check_board(board: WallBoard, stones: Stones, expect: dict | None = None, search: bool = True) -> list[Finding]:
    """The validator's checks on one wall board (docs/games/nooks.md, "What pnp validate nooks
    proves"). ``expect`` holds the rules-doc figures to compare with (cells, placements).
    ``search`` runs the blocked-board search behind the scoring-stone warning (it cannot fail a kit)."""
    expect = expect or {}
    out = []
    n = len(board.cells)
    if "cells" in expect:
        out.append(verdict(n == expect["cells"], f"{board.name}: {n} cells (rules: {expect['cells']})", f"{DOC}: Board"))
    per_axis = len(board.walls) // board.axes
    out.append(verdict(len(board.walls) == expect.get("placements", len(board.walls)),
                       f"{board.name}: {len(board.walls)} wall placements on the empty board "
                       f"({per_axis} per direction, {board.axes} directions)", f"{RULE}: Wall placement"))
    setup = set(board.setup)
    if setup:
        names = " and ".join(board.name_of(c) for c in board.setup)
        symmetric = {board.mirror(c) for c in setup} == setup
        out.append(verdict(symmetric, f"{board.name}: setup stones {names} are point-symmetric through the centre",
                           f"{RULE}: Setup"))
    after = free_walls(board, setup)
    blocked = len(board.walls) - len(after)
    out.append(verdict(0 < len(after) and (blocked > 0) == bool(setup),
                       f"{board.name}: {len(after)} of {len(board.walls)} wall placements remain after setup "
                       f"({blocked} use a setup stone's cell)", f"{RULE}: Setup"))
    free, most, needed = wall_bound(board)
    out.append(verdict(needed <= stones.neutral,
                       f"{board.name}: wall stones suffice: {free} free cells hold at most {free}//4 = {most} walls, "
                       f"{len(setup)} + 4x{most} = {needed} <= {stones.neutral} neutral stones",
                       f"{RULE}: Components"))
    if search:
        out.append(_scoring_stones(board, stones, setup))
    parity = "odd" if free % 2 else "even"
    out.append(verdict(free % 2 == 1, f"{board.name}: ties are impossible: every empty cell ends in a nook, and "
                       f"scored cells = {free} - 4W is always {parity}, so the two scores differ",
                       f"{RULE}: \"Ties are not possible\""))
    return out


def _scoring_stones(board: WallBoard, stones: Stones, setup: set) -> Finding:
    """Search for a sparse finished board and compare its winner's stones with the supply."""
    n = len(board.cells)
    walls = blocked_board(board)
    taken = setup.union(*walls) if walls else setup
    finished = not free_walls(board, taken) and len(taken) == len(setup) + WALL * len(walls)
    nook = n - len(taken)
    winner = nook // 2 + 1
    supply = min(stones.red, stones.gold)
    found = (f"{board.name}: the sparsest finished board found has {len(walls)} walls "
             f"({', '.join(board.wall_name(w) for w in walls)}) and leaves {nook} cells in nooks, "
             f"so its winner holds at least {winner} scoring stones")
    if not finished:
        return verdict(False, found + ", but a wall still fits there (search error)", f"{RULE}: Game play")
    if winner > supply:
        return verdict(False, f"{found} > {supply}: scoring stones can run out; the seed's fallback applies: "
                       "\"use one stone to mark a captured nook\"", f"{RULE}: Game play (fallback rule)", warn=True)
    return verdict(True, f"{found} <= {supply}: no forced shortage found (a one-sided game may still need "
                   "more; the seed's fallback: \"use one stone to mark a captured nook\")",
                   f"{RULE}: Game play (fallback rule)")


def check(spec: NooksSpec, ctx: KitContext) -> list[Finding]:
    """The Nooks checks of docs/games/nooks.md for the hex board and (if included) the square variant."""
    out = []
    side = spec.side
    board, bad = hex_board(side, spec.setup)
    out.append(verdict(not bad, f"setup cells {', '.join(spec.setup) or 'none'} are on the side-{side} board"
                       + (f" (not: {', '.join(bad)})" if bad else ""), f"{RULE}: Setup"))
    formula = 3 * side * (side - 1) + 1
    names = [hexgrid.label(c, side) for c in board.cells]
    round_trip = all(hexgrid.parse_label(t, side) == c for t, c in zip(names, board.cells))
    out.append(verdict(len(board.cells) == formula and round_trip and len(set(names)) == len(names),
                       f"{len(board.cells)} cells = 3x{side}x{side - 1} + 1, each with a unique label "
                       f"a1..{hexgrid.label((side - 1, -(side - 1)), side)} that converts back to its cell",
                       f"{DOC}: Coordinates"))
    expect = {"cells": 169, "placements": 372} if side == 8 else {}
    if board.setup:
        corner_names = {hexgrid.label(k, side) for k in hexgrid.corners(side)}
        near = [min((hexgrid.distance(c, k), hexgrid.label(k, side)) for k in hexgrid.corners(side))
                for c in board.setup]
        text = ", ".join(f"{hexgrid.label(c, side)} is {d} from corner {k}" for c, (d, k) in zip(board.setup, near))
        out.append(verdict(len(corner_names) == 6, f"setup: {text}", f"{RULE}: Setup (Figure 1)"))
    out += check_board(board, spec.stones, expect, search=ctx.full)
    if spec.square.include:
        n = spec.square.size
        sq, bad = square_board(n, spec.square.setup)
        out.append(verdict(not bad, f"square setup cells {', '.join(spec.square.setup) or 'none'} are on the "
                           f"{n}x{n} board" + (f" (not: {', '.join(bad)})" if bad else ""), f"{DOC}: Square variant"))
        out += check_board(sq, spec.stones, {"cells": 121, "placements": 176} if n == 11 else {}, search=ctx.full)
    return out


# -- drawing --------------------------------------------------------------------------------------

LETTER_COLOUR = "#8b2f1c"  # column letters: bold and reddish, so they never read as row numbers


def _label(x: float, y: float, text: str, size: float, letter: bool, colour: str) -> Text:
    return Text(x, y, text, size_pt=size, anchor="middle", valign="middle", bold=letter,
                fill=LETTER_COLOUR if letter else colour)


def _setup_mark(x: float, y: float, spec: NooksSpec) -> list:
    r = spec.stones.diameter / 2
    return [Circle(x, y, r, fill=None, stroke=spec.line_colour, stroke_width=0.5),
            Circle(x, y, 1.0, fill=spec.line_colour, stroke=None)]


def label_size(pitch: float) -> float:
    """Label font size in pt for a cell ``pitch`` mm."""
    return max(5.0, min(12.0, pitch * 0.42))


def hex_board_drawing(spec: NooksSpec):
    """(width, height, drawing, centres): the hex board in mm, pointy-top, and each cell's centre
    (by label) in the board's own coordinates."""
    side, p = spec.side, spec.cell_size
    cells = hexgrid.hex_hex(side)
    setup = {hexgrid.parse_label(t, side) for t in spec.setup}
    shapes: list = []
    points = []
    for c in cells:
        poly = hex_cell(c, p, True, spec.setup_colour if c in setup else spec.board_colour, spec.line_colour, 0.35)
        shapes.append(poly)
        points += poly.points
    for c in sorted(setup):
        shapes += _setup_mark(*hexgrid.center(c, p), spec)
    size = label_size(p)
    for axis, is_col in (((1, 0), False), ((0, -1), True)):
        ux, uy = hexgrid.step_vector(axis, p)
        for first, last in hexgrid.line_ends(cells, axis):
            name = hexgrid.label(first, side)
            text = name[0] if is_col else name[1:]
            for cell, sign in ((first, -1), (last, 1)):
                cx, cy = hexgrid.center(cell, p)
                shapes.append(_label(cx + sign * LABEL_AT * ux, cy + sign * LABEL_AT * uy, text, size, is_col,
                                     spec.line_colour))
    w, h, dx, dy, drawing = fit(shapes, points, 2.0)
    centres = {hexgrid.label(c, side): (hexgrid.center(c, p)[0] + dx, hexgrid.center(c, p)[1] + dy) for c in cells}
    return w, h, drawing, centres


def square_board_drawing(spec: NooksSpec):
    """(width, height, drawing, centres): the square variant board in mm, row 1 at the bottom."""
    n, p = spec.square.size, spec.cell_size
    setup = {squaregrid.parse_label(t, n, n) for t in spec.square.setup}
    shapes: list = []
    points = []

    def centre(col, row):
        return (col + 0.5) * p, (n - row - 0.5) * p

    for col, row in squaregrid.cells(n, n):
        x, y = col * p, (n - 1 - row) * p
        shapes.append(Rect(x, y, p, p, fill=spec.setup_colour if (col, row) in setup else spec.board_colour,
                           stroke=spec.line_colour, stroke_width=0.35))
        points += [(x, y), (x + p, y + p)]
    for c in sorted(setup):
        shapes += _setup_mark(*centre(*c), spec)
    size = label_size(p)
    for i in range(n):
        letter, number = squaregrid.label(i, 0)[0], str(i + 1)
        x, _ = centre(i, 0)
        shapes += [_label(x, (n - 0.5 + LABEL_AT) * p, letter, size, True, spec.line_colour),
                   _label(x, (0.5 - LABEL_AT) * p, letter, size, True, spec.line_colour)]
        _, y = centre(0, i)
        shapes += [_label((0.5 - LABEL_AT) * p, y, number, size, False, spec.line_colour),
                   _label((n - 0.5 + LABEL_AT) * p, y, number, size, False, spec.line_colour)]
    w, h, dx, dy, drawing = fit(shapes, points, 2.0)
    centres = {squaregrid.label(*c): (centre(*c)[0] + dx, centre(*c)[1] + dy) for c in squaregrid.cells(n, n)}
    return w, h, drawing, centres


def stone_fronts(spec: NooksSpec) -> dict[str, tuple]:
    """The three stone faces (diameter from the spec): neutral with a square, red with a ring,
    gold with a star, so they differ in print without colour too."""
    st = spec.stones
    d = st.diameter
    m = d * 0.22
    ink = st.mark_colour
    return {
        "neutral": counter(d, st.neutral_colour, (Rect(-m, -m, 2 * m, 2 * m, fill=None, stroke=ink, stroke_width=0.6),)),
        "red": counter(d, st.red_colour, (Circle(0, 0, m * 1.1, fill=None, stroke="#ffffff", stroke_width=0.9),)),
        "gold": counter(d, st.gold_colour, (star(m * 1.4, fill=ink, stroke=None),)),
    }


def components(spec: NooksSpec, ctx: KitContext) -> list[Component]:
    """[board, square board (optional), wall stone, scoring stone]: boards sized from the cell size
    (mm), stones as round counters of the stone diameter."""
    out = []
    w, h, drawing, _ = hex_board_drawing(spec)
    n = len(hexgrid.hex_hex(spec.side))
    out.append(Component("board", w, h, [drawing], board=True,
                         note=f"hex-hex side {spec.side}, {n} cells, {spec.cell_size:g} mm across the flats"))
    if spec.square.include:
        w, h, drawing, _ = square_board_drawing(spec)
        k = spec.square.size
        out.append(Component("square board", w, h, [drawing], board=True,
                             note=f"variant: {k}x{k} squares of {spec.cell_size:g} mm, orthogonal walls only"))
    faces = stone_fronts(spec)
    st = spec.stones
    d = st.diameter
    if st.neutral:
        out.append(Component("wall stone", d, d, [faces["neutral"]], copies=st.neutral, shape="circle",
                             note=f"{st.neutral} neutral (tan) stones, square mark; or use real stones"))
    scoring = [faces["red"]] * st.red + [faces["gold"]] * st.gold
    if scoring:
        out.append(Component("scoring stone", d, d, scoring, shape="circle",
                             note=f"{st.red} red (ring mark) + {st.gold} gold (star mark); or use real stones"))
    return out


GAME = Game("nooks", "Nooks", NooksSpec, components, check, __doc__.strip().splitlines()[0])
