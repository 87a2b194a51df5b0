"""Poster tiling: a board larger than the printable area is split over as few pages as fit.

Each piece shows a window of the board at true scale. Neighbouring windows share an overlap strip
(10 mm by default) carrying identical registration targets on both pieces; a dashed line marks the
strip's inner edge; a small assembly map names the piece ("B2 of 2x3": column letter, row number,
of columns x rows). A board that fits is printed whole on one page with crop marks.
"""
from __future__ import annotations

import math
from typing import Iterator

from ..errors import LayoutError
from ..ir import BLACK, Component, Group, Imposed, Line, Rect, Text, TileInfo
from . import marks
from .sheets import Sheet

DEFAULT_OVERLAP = 10.0  # mm shared by neighbouring poster pieces


def _split(length: float, avail: float, overlap: float) -> int:
    if length <= avail + 1e-9:
        return 1
    if avail <= overlap:
        raise LayoutError(f"the overlap ({overlap:g} mm) leaves no room on the page.", field="overlap",
                          hint="use a smaller overlap")
    return math.ceil((length - overlap) / (avail - overlap) - 1e-9)


def rotated(comp: Component, sheet: Sheet) -> bool:
    """True when the board is turned a quarter turn on the page: only when it then fits on one
    page and does not fit upright (so tiled pieces are never rotated)."""
    _, _, aw, ah = sheet.board_area
    upright = comp.width <= aw + 1e-9 and comp.height <= ah + 1e-9
    turned = comp.height <= aw + 1e-9 and comp.width <= ah + 1e-9
    return turned and not upright


def piece_grid(comp: Component, sheet: Sheet, overlap: float) -> tuple[int, int]:
    """(cols, rows) of poster pieces needed for the board ``comp`` on ``sheet`` (1, 1 when it fits
    upright or turned a quarter turn).

    Raises:
        LayoutError: the overlap is wider than the printable area.
    """
    if rotated(comp, sheet):
        return 1, 1
    _, _, aw, ah = sheet.board_area
    return _split(comp.width, aw, overlap), _split(comp.height, ah, overlap)


def board_piece_count(comp: Component, sheet: Sheet, overlap: float) -> int:
    """How many pages the board takes."""
    cols, rows = piece_grid(comp, sheet, overlap)
    return cols * rows


def _spans(length: float, n: int, overlap: float) -> list[tuple[float, float]]:
    """``n`` equal (start, size) spans covering 0..length, neighbours sharing ``overlap`` mm."""
    if n == 1:
        return [(0.0, length)]
    size = (length + (n - 1) * overlap) / n
    return [(i * (size - overlap), size) for i in range(n)]


def windows(comp: Component, sheet: Sheet, overlap: float) -> list[tuple[int, int, float, float, float, float]]:
    """Every piece as (col, row, bx, by, w, h): its window in board mm, row-major.

    The pieces of a row (column) are equally wide (tall); consecutive windows overlap by exactly
    ``overlap`` mm; together they cover the board.
    """
    cols, rows = piece_grid(comp, sheet, overlap)
    return [(c, r, bx, by, w, h)
            for r, (by, h) in enumerate(_spans(comp.height, rows, overlap))
            for c, (bx, w) in enumerate(_spans(comp.width, cols, overlap))]


def board_pages(comp: Component, sheet: Sheet, overlap: float) -> Iterator[Imposed]:
    """Yield one Imposed page per poster piece of the board ``comp`` (or one page if it fits).

    A piece's window (bx, by, w, h) of the board is drawn at true scale, centred in the board area,
    with its top-left at page (px, py) (TileInfo.page_xy): board point (x, y) prints at
    (x - bx + px, y - by + py). A board that fits only when turned is drawn a quarter turn
    clockwise on one page (no TileInfo).
    """
    ax, ay, aw, ah = sheet.board_area
    cols, rows = piece_grid(comp, sheet, overlap)
    offset, length, width = sheet.crop_marks.offset, sheet.crop_marks.length, sheet.crop_marks.width
    board = comp.fronts[0]
    if rotated(comp, sheet):
        w, h = comp.height, comp.width
        px, py = ax + (aw - w) / 2, ay + (ah - h) / 2
        items = [Group(tuple(board), dx=px + w, dy=py, rotate=90, clip=(0, 0, comp.width, comp.height))]
        items.extend(marks.crop_marks([px, px + w], [py, py + h], (px, py, w, h), offset, length, width))
        yield Imposed(tuple(items), "front", (px, py, w, h), None, ((comp.name, px, py, w, h, "rect"),))
        return
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
    pieces of a join. Lines are marks.JOIN_WIDTH wide, heavier than the hairline crop marks.
    """
    out: list = []
    dash = (1.5, 1.0)
    # (strip start, inner edge) along the split axis, for each neighbour this piece has
    for vertical, index, count, start, span, lo, extent in ((True, c, cols, bx, w, by, h), (False, r, rows, by, h, bx, w)):
        strips = []
        if index > 0:
            strips.append((start, start + ov, "trim off"))                 # low side: cut along the inner edge
        if index < count - 1:
            strips.append((start + span - ov, start + span - ov, "glue"))  # high side: the neighbour lies on it
        for s0, edge, label in strips:
            mid = s0 + ov / 2
            if vertical:
                out.append(Line(edge + sx, lo + sy, edge + sx, lo + extent + sy, stroke_width=marks.JOIN_WIDTH, dash=dash))
                points = [(mid, lo + extent * f) for f in (0.3, 0.5, 0.7)]
                out.append(Text(mid + sx, lo + extent * 0.4 + sy, label, size_pt=6, anchor="middle", rotate=90))
            else:
                out.append(Line(lo + sx, edge + sy, lo + extent + sx, edge + sy, stroke_width=marks.JOIN_WIDTH, dash=dash))
                points = [(lo + extent * f, mid) for f in (0.3, 0.5, 0.7)]
                out.append(Text(lo + extent * 0.4 + sx, mid + sy, label, size_pt=6, anchor="middle", valign="middle"))
            for x, y in points:
                out.extend(marks.alignment_target(x + sx, y + sy))
    return out
