"""Nooks' validator: the checks of docs/games/nooks.md ("What pnp validate nooks proves") on the
hex board and the square variant the kit prints."""
from __future__ import annotations

from ...core.findings import Finding, verdict
from ...geometry import hexgrid
from ...engine import KitContext
from .spec import NooksSpec, Stones
from .walls import WALL, WallBoard, blocked_board, free_walls, hex_board, square_board, wall_bound

RULE = "Nooks rules (seed 001)"
DOC = "docs/games/nooks.md"


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


def variant(spec: NooksSpec) -> list[str]:
    """How the spec's boards differ from the seed's (hex side 8, the 11x11 square variant); [] if they do not."""
    out = []
    if spec.side != 8:
        out.append(f"a hex board of side {spec.side}, {3 * spec.side * (spec.side - 1) + 1} cells (the seed's has "
                   "side 8, 169 cells)")
    if spec.square.include and spec.square.size != 11:
        out.append(f"a {spec.square.size}x{spec.square.size} square board (the seed's square variant is 11x11)")
    return out


def check(spec: NooksSpec, ctx: KitContext) -> list[Finding]:
    """The Nooks checks of docs/games/nooks.md for the hex board and (if included) the square variant.
    A board other than the seed's is reported as a variant (a warning): the rules apply, its figures do not."""
    out = []
    changes = variant(spec)
    if changes:
        out.append(verdict(False, f"variant: {'; '.join(changes)}; the seed's rules apply, but not its figures "
                           "(cells, wall placements, stone counts)", RULE, warn=True))
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
