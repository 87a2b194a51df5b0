"""Hex grids in axial coordinates (Red Blob Games conventions), hex-hex boards, lines and labels.

A cell is an axial pair ``(q, r)``; the third cube coordinate is ``s = -q - r``. The six
neighbour directions are those of https://www.redblobgames.com/grids/hexagons/ (axial):
(+1, 0), (+1, -1), (0, -1), (-1, 0), (-1, +1), (0, +1). A hex-hex board of side ``n`` holds the
cells with max(|q|, |r|, |s|) <= n - 1: 3n(n - 1) + 1 cells.

Layouts return centres and corners in millimetres with y pointing down. ``pitch`` is the distance
between neighbouring centres, which equals the cell's width across the flats.

Nooks labels (docs/games/nooks.md, "Coordinates"): column letter c = 1..2n-1 (a, b, ...) and
row number 1..2n-1 with q = c - n, r = n - row (so s = row - c); for side 8, "h8" is the centre.

Used by pnp/games/nooks.py and pnp/games/nonaga.py.
"""
from __future__ import annotations

import math
from typing import Iterable, Iterator, Sequence

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six axial neighbour steps, counter-clockwise from east on a y-up page (Red Blob order)."""
AXES: tuple[Hex, ...] = ((1, 0), (0, -1), (1, -1))
"""One step along each of the three line directions. In Nooks terms: +1 column, +1 row, and
+1 column +1 row together (docs/games/nooks.md: (+1, 0), (0, +1), (+1, +1))."""
SQRT3 = math.sqrt(3.0)


def distance(a: Hex, b: Hex) -> int:
    """Steps between two cells: max(|dq|, |dr|, |ds|)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def hex_hex(side: int) -> list[Hex]:
    """All cells of the hex-hex board of ``side`` cells per edge, sorted by (r, q).

    Raises:
        ValueError: side < 1.
    """
    if side < 1:
        raise ValueError(f"a hex-hex board needs side >= 1, got {side}")
    n = side - 1
    return [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n]


def corners(side: int) -> list[Hex]:
    """The six corner cells of a hex-hex board, in the order of DIRECTIONS (east first)."""
    return [(dq * (side - 1), dr * (side - 1)) for dq, dr in DIRECTIONS]


def neighbours(cell: Hex, cells: Iterable[Hex] | None = None) -> list[Hex]:
    """The up to six neighbours of ``cell`` in DIRECTIONS order; only those in ``cells`` if given."""
    q, r = cell
    out = [(q + dq, r + dr) for dq, dr in DIRECTIONS]
    if cells is None:
        return out
    present = cells if isinstance(cells, (set, frozenset)) else set(cells)
    return [c for c in out if c in present]


def adjacent_pairs(cells: Iterable[Hex]) -> list[tuple[Hex, Hex]]:
    """Every unordered pair of neighbouring cells in ``cells`` (each pair once, sorted)."""
    present = set(cells)
    return sorted((c, n) for c in present for n in neighbours(c, present) if c < n)


def lines(n: int, cells: Iterable[Hex], axes: Sequence[Hex] = AXES) -> Iterator[tuple[Hex, ...]]:
    """Every straight run of ``n`` consecutive cells of ``cells`` along ``axes`` (each run once,
    listed from its lowest end), e.g. the wall placements of Nooks for n = 4."""
    present = set(cells)
    for q, r in sorted(present):
        for dq, dr in axes:
            run = tuple((q + dq * i, r + dr * i) for i in range(n))
            if all(c in present for c in run):
                yield run


def line_ends(cells: Iterable[Hex], axis: Hex) -> list[tuple[Hex, Hex]]:
    """For each maximal line of ``cells`` along ``axis``: (first, last) cell, the last being
    reached from the first by steps of ``axis``. These are where the line meets the border."""
    present = set(cells)
    dq, dr = axis
    out = []
    for c in sorted(present):
        if (c[0] - dq, c[1] - dr) in present:
            continue
        end = c
        while (end[0] + dq, end[1] + dr) in present:
            end = (end[0] + dq, end[1] + dr)
        out.append((c, end))
    return out


def rotate60(cell: Hex) -> Hex:
    """Rotate a cell by 60 degrees about (0, 0): cube (q, r, s) -> (-r, -s, -q)."""
    q, r = cell
    return (-r, q + r)


def reflect(cell: Hex) -> Hex:
    """Mirror a cell in the q axis: cube (q, r, s) -> (q, s, r)."""
    q, r = cell
    return (q, -q - r)


def canonical_shape(cells: Iterable[Hex], mirror: bool = True) -> tuple[Hex, ...]:
    """A canonical form of a set of cells under translation, the 6 rotations (and reflections
    when ``mirror``): the smallest sorted tuple after moving the smallest cell to (0, 0)."""
    shape = list(cells)
    forms = []
    images = [shape, [reflect(c) for c in shape]] if mirror else [shape]
    for image in images:
        cur = image
        for _ in range(6):
            cur = [rotate60(c) for c in cur]
            base = min(cur)
            forms.append(tuple(sorted((q - base[0], r - base[1]) for q, r in cur)))
    return min(forms)


def is_connected(cells: Iterable[Hex]) -> bool:
    """True when ``cells`` form one edge-connected group (an empty set counts as connected)."""
    present = set(cells)
    if not present:
        return True
    seen, stack = set(), [next(iter(present))]
    while stack:
        c = stack.pop()
        if c in seen:
            continue
        seen.add(c)
        stack.extend(n for n in neighbours(c, present) if n not in seen)
    return seen == present


# -- layouts in mm -------------------------------------------------------------------------------

def center(cell: Hex, pitch: float, pointy: bool = True) -> tuple[float, float]:
    """Centre of ``cell`` in mm (y down) relative to the centre of (0, 0).

    Pointy-top: rows of equal r are horizontal and r grows downwards. Flat-top: columns of equal q
    are vertical and q grows to the right. ``pitch`` = distance between neighbouring centres = the
    width across the flats.
    """
    q, r = cell
    if pointy:
        return (pitch * (q + r / 2), pitch * SQRT3 / 2 * r)
    return (pitch * SQRT3 / 2 * q, pitch * (r + q / 2))


def hex_corners(cx: float, cy: float, pitch: float, pointy: bool = True) -> tuple[tuple[float, float], ...]:
    """The six corners (mm) of a hexagon centred on (cx, cy), ``pitch`` across the flats."""
    size = pitch / SQRT3  # circumradius
    start = 30.0 if pointy else 0.0
    return tuple((cx + size * math.cos(math.radians(start + 60 * i)), cy + size * math.sin(math.radians(start + 60 * i)))
                 for i in range(6))


def step_vector(step: Hex, pitch: float, pointy: bool = True) -> tuple[float, float]:
    """The page vector (mm) of one axial ``step``, e.g. to place a label beyond a line's end."""
    return center(step, pitch, pointy)


# -- Nooks labels --------------------------------------------------------------------------------

def label(cell: Hex, side: int) -> str:
    """Nooks label of an axial cell: ``label((0, 0), 8) == "h8"``, ``label((-6, 0), 8) == "b8"``.

    Raises:
        ValueError: the cell is not on the side-``side`` board.
    """
    q, r = cell
    if max(abs(q), abs(r), abs(q + r)) > side - 1 or 2 * side - 1 > 26:
        raise ValueError(f"{cell} is not a cell of the side-{side} board")
    return f"{chr(ord('a') + q + side - 1)}{side - r}"


def parse_label(text: str, side: int) -> Hex:
    """Axial cell of a Nooks label: ``parse_label("j12", 8) == (2, -4)``.

    Raises:
        ValueError: not a letter followed by a number, or not a cell of the board.
    """
    t = text.strip().lower()
    if len(t) < 2 or not ("a" <= t[0] <= "z") or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a cell label like j12")
    c, row = ord(t[0]) - ord("a") + 1, int(t[1:])
    cell = (c - side, side - row)
    if max(abs(cell[0]), abs(cell[1]), abs(cell[0] + cell[1])) > side - 1:
        raise ValueError(f"{text!r} is not a cell of the side-{side} board")
    return cell
