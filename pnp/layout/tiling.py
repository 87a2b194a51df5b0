"""Poster tiling: a board larger than the printable area is split over as few pages as fit.

Each piece shows a window of the board at true scale. Neighbouring windows share an overlap strip
(10 mm by default) carrying identical registration targets on both pieces; a dashed line marks the
strip's inner edge; a small assembly map names the piece ("B2 of 2x3": column letter, row number,
of columns x rows). A board that fits is printed whole on one page with crop marks.
"""
from __future__ import annotations

import math
from typing import Iterator, NamedTuple

from ..errors import LayoutError
from ..ir import BLACK, Component, Group, Line, Page, Rect, Text, TileInfo
from . import marks
from .sheets import Sheet


class Imposed(NamedTuple):
    """One imposed sheet before its footer: drawing, side, trim box, bleed box, placements, tile."""
    items: tuple
    side: str
    trim: tuple[float, float, float, float] | None
    bleed_box: tuple[float, float, float, float] | None
    placements: tuple
    tile: TileInfo | None = None


def board_area(sheet: Sheet) -> tuple[float, float, float, float]:
    """(x, y, w, h): where a board window may go — the content area less room for crop marks."""
    from .impose import content_area, mark_reserve
    x, y, w, h = content_area(sheet)
    _, reserve = mark_reserve(sheet, 0.0)
    return (x + reserve, y + reserve, w - 2 * reserve, h - 2 * reserve)


def _split(length: float, avail: float, overlap: float) -> int:
    if length <= avail + 1e-9:
        return 1
    if avail <= overlap:
        raise LayoutError(f"the overlap ({overlap:g} mm) leaves no room on the page.", field="overlap",
                          hint="use a smaller overlap")
    return math.ceil((length - overlap) / (avail - overlap) - 1e-9)


def piece_grid(comp: Component, sheet: Sheet, overlap: float) -> tuple[int, int]:
    """(cols, rows) of poster pieces needed for the board ``comp`` on ``sheet``."""
    _, _, aw, ah = board_area(sheet)
    return _split(comp.width, aw, overlap), _split(comp.height, ah, overlap)


def board_piece_count(comp: Component, sheet: Sheet, overlap: float) -> int:
    """How many pages the board takes."""
    cols, rows = piece_grid(comp, sheet, overlap)
    return cols * rows


def fits_on_one_page(comp: Component, sheet: Sheet) -> bool:
    """True when the whole board fits the printable area of ``sheet``."""
    return board_piece_count(comp, sheet, 10.0) == 1


def windows(comp: Component, sheet: Sheet, overlap: float) -> list[tuple[int, int, float, float, float, float]]:
    """Every piece as (col, row, bx, by, w, h): its window in board mm, row-major.

    Consecutive windows overlap by exactly ``overlap`` mm; together they cover the board.
    """
    ax, ay, aw, ah = board_area(sheet)
    cols, rows = piece_grid(comp, sheet, overlap)
    step_x, step_y = aw - overlap, ah - overlap
    out = []
    for r in range(rows):
        by = r * step_y if rows > 1 else 0.0
        h = min(ah, comp.height - by)
        for c in range(cols):
            bx = c * step_x if cols > 1 else 0.0
            w = min(aw, comp.width - bx)
            out.append((c, r, bx, by, w, h))
    return out


def board_pages(comp: Component, sheet: Sheet, overlap: float) -> Iterator[Imposed]:
    """Yield one Imposed page per poster piece of the board ``comp`` (or one page if it fits)."""
    ax, ay, aw, ah = board_area(sheet)
    cols, rows = piece_grid(comp, sheet, overlap)
    offset, length, width = sheet.crop_marks.offset, sheet.crop_marks.length, sheet.crop_marks.width
    board = comp.fronts[0]
    for c, r, bx, by, w, h in windows(comp, sheet, overlap):
        px, py = ax + (aw - w) / 2, ay + (ah - h) / 2
        shift_x, shift_y = px - bx, py - by
        items: list = [Group(tuple(board), dx=shift_x, dy=shift_y, clip=(bx, by, w, h))]
        tile = None
        if cols * rows > 1:
            tile = TileInfo(marks.piece_name(c, r), cols, rows, (bx, by, w, h), (px, py))
            items.append(Rect(px, py, w, h, stroke=BLACK, stroke_width=0.15))
            items.extend(_join_marks(c, r, cols, rows, bx, by, w, h, overlap, shift_x, shift_y))
            fx, fy, _, fh = sheet.printable
            items.extend(marks.assembly_map(fx + 75, fy + fh - marks.FOOTER_BAND + 1.5, cols, rows, c, r, cell=3.0))
        items.extend(marks.crop_marks([px, px + w], [py, py + h], (px, py, w, h), offset, length, width))
        yield Imposed(tuple(items), "front", (px, py, w, h), None,
                      ((comp.name, px, py, w, h, "rect"),), tile)


def _join_marks(c, r, cols, rows, bx, by, w, h, ov, sx, sy) -> list:
    """Dashed strip edges and registration targets in every overlap strip of this piece.

    The targets sit at fixed board positions in each strip, so they print identically on both
    pieces of a join.
    """
    out: list = []
    dash = (1.5, 1.0)
    strips_x = []
    if c > 0:
        strips_x.append((bx, bx + ov, bx + ov))            # left strip; inner edge on its right
    if c < cols - 1:
        strips_x.append((bx + w - ov, bx + w, bx + w - ov))  # right strip; inner edge on its left
    for x0, x1, edge in strips_x:
        out.append(Line(edge + sx, by + sy, edge + sx, by + h + sy, stroke_width=0.2, dash=dash))
        xm = (x0 + x1) / 2
        for f in (0.2, 0.5, 0.8):
            out.extend(marks.alignment_target(xm + sx, by + h * f + sy))
        out.append(Text(xm + sx, by + h * 0.35 + sy, "overlap", size_pt=6, anchor="middle", rotate=90))
    strips_y = []
    if r > 0:
        strips_y.append((by, by + ov, by + ov))
    if r < rows - 1:
        strips_y.append((by + h - ov, by + h, by + h - ov))
    for y0, y1, edge in strips_y:
        out.append(Line(bx + sx, edge + sy, bx + w + sx, edge + sy, stroke_width=0.2, dash=dash))
        ym = (y0 + y1) / 2
        for f in (0.2, 0.5, 0.8):
            out.extend(marks.alignment_target(bx + w * f + sx, ym + sy))
        out.append(Text(bx + w * 0.35 + sx, ym + sy, "overlap", size_pt=6, anchor="middle", valign="middle"))
    return out
