"""Square boards: cells (col, row) with 0-based col from the left (file a, b, ...) and 0-based row
from the bottom (rank 1, 2, ...), labels like "b6", neighbours and straight lines of n cells.

Used by the Nooks 11x11 variant and the Numeria 8x8 board.
"""
from __future__ import annotations

from typing import Iterator

ORTHOGONAL = ((1, 0), (0, 1))
DIAGONAL = ((1, 1), (1, -1))


def cells(cols: int, rows: int) -> list[tuple[int, int]]:
    """All cells of a cols x rows board, row-major from rank 1."""
    return [(c, r) for r in range(rows) for c in range(cols)]


def label(col: int, row: int) -> str:
    """(1, 5) -> "b6": file letter then 1-based rank."""
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_label(text: str, cols: int, rows: int) -> tuple[int, int]:
    """"b6" -> (1, 5).

    Raises:
        ValueError: not a letter followed by a number, or off the board.
    """
    t = text.strip().lower()
    if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a cell label like b6")
    col, row = ord(t[0]) - ord("a"), int(t[1:]) - 1
    if not (0 <= col < cols and 0 <= row < rows):
        raise ValueError(f"{text!r} is off the {cols}x{rows} board")
    return col, row


def neighbours(col: int, row: int, cols: int, rows: int, diagonal: bool = False) -> list[tuple[int, int]]:
    """Orthogonal (and optionally diagonal) neighbours on the board."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return [(col + dc, row + dr) for dc, dr in steps if 0 <= col + dc < cols and 0 <= row + dr < rows]


def lines(n: int, cols: int, rows: int, directions=ORTHOGONAL) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every straight line of ``n`` cells on the board along ``directions`` (each line once)."""
    for c, r in cells(cols, rows):
        for dc, dr in directions:
            end_c, end_r = c + dc * (n - 1), r + dr * (n - 1)
            if 0 <= end_c < cols and 0 <= end_r < rows:
                yield tuple((c + dc * i, r + dr * i) for i in range(n))
