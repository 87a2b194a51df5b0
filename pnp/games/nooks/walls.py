"""Nooks' boards as abstract wall boards (cells, wall placements, setup cells) and the seeded
search for a sparse finished board. No findings here: pnp/games/nooks/checks.py judges them."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from ...geometry import hexgrid, squaregrid

WALL = 4                 # stones per wall (a straight tetromino)
SEARCH_SEED = 2010       # the blocked-board search is seeded: same board every run
SEARCH_ROUNDS = 1500     # local-search rounds per board (about 0.3 s for the side-8 board)


@dataclass(frozen=True, eq=False)
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
