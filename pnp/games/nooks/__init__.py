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

from ...engine import Game
from .checks import check, check_board
from .drawing import components, hex_board_drawing, square_board_drawing, stone_fronts, stone_rows
from .spec import NooksSpec, SquareVariant, Stones
from .walls import WallBoard, blocked_board, free_walls, hex_board, square_board, wall_bound

__all__ = ["GAME", "NooksSpec", "SquareVariant", "Stones", "WallBoard", "blocked_board", "check", "check_board",
           "components", "free_walls", "hex_board", "hex_board_drawing", "square_board", "square_board_drawing",
           "stone_fronts", "wall_bound"]

GAME = Game("nooks", "Nooks", NooksSpec, components, check, __doc__.strip().splitlines()[0],
            rows={"stones": stone_rows})
