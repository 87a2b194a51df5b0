"""The duplex calibration sheet: measure a printer's front-to-back misregistration.

Read by eye: the front has a grid of targets (a square with a centre cross). The back has the same
targets, mirrored for the flip edge, each shifted by a known offset (dx, dy) mm and labelled with it.
Hold the printed sheet against a light: the target whose front and back coincide names the
``--back-offset DX,DY`` to use (the same offset convention as impose: added to back positions).

Read by software: a row of ArUco markers at the top and at the bottom, front and back alternating
(pnp.layout.calibration_marks says where), found in a photo or two scans by ``pnp calibrate --measure``.
Everything is laid out in the area both sides can print on (targets.common_area), so no mark meets
the other side's footer.
"""
from __future__ import annotations

from .calibration_marks import CELLS, MARK, PAPER_CODES, SheetMarks
from ..core.ir import Line, Page, Rect, Text
from . import marks
from .paper import Sheet

GRID = 9  # targets per row and column: offsets -4..+4 steps
TEXT_TOP = MARK + 6       # mm below the common area's top: the title's baseline
GRID_TOP = MARK + 26.5    # mm below the common area's top: the grid's top edge
GRID_BOTTOM = MARK + 10   # mm above the common area's bottom: the grid's bottom edge (room for labels)


def _target(cx: float, cy: float, size: float = 10.0, colour: str = "#000000") -> tuple:
    h = size / 2
    return (Rect(cx - h, cy - h, size, size, fill=None, stroke=colour, stroke_width=0.15),
            Line(cx - h - 2, cy, cx + h + 2, cy, stroke=colour, stroke_width=0.15),
            Line(cx, cy - h - 2, cx, cy + h + 2, stroke=colour, stroke_width=0.15))


def _marker(layout: SheetMarks, mark) -> tuple:
    """One ArUco marker as black rectangles, one per run of black cells in a row, on its own page."""
    x0, y0 = layout.page_box(mark)
    cell = MARK / CELLS
    rects = []
    for r, row in enumerate(layout.cells(mark)):
        c = 0
        while c < CELLS:
            if not row[c]:
                c += 1
                continue
            end = c
            while end < CELLS and row[end]:
                end += 1
            rects.append(Rect(x0 + c * cell, y0 + r * cell, (end - c) * cell, cell, fill="#000000", stroke=None))
            c = end
    return tuple(rects)


def calibration_pages(sheet: Sheet, duplex: str, step: float = 1.0) -> tuple[Page, Page]:
    """(front, back) pages of the calibration sheet for ``duplex`` "long" or "short", offsets in
    multiples of ``step`` mm from -4 to +4 steps on each axis."""
    layout = SheetMarks(sheet, duplex)
    x, y, w, h = layout.area
    pitch = min(w, h - GRID_TOP - GRID_BOTTOM) / GRID
    x0 = x + (w - pitch * GRID) / 2 + pitch / 2
    y0 = y + GRID_TOP + pitch / 2
    tx = x
    own = "" if sheet.name in PAPER_CODES else " --paper YOUR-SHEET.yaml"
    front = [Text(tx, y + TEXT_TOP, f"Duplex calibration \u2014 {duplex}-edge flip, steps of {step:g} mm",
                  size_pt=13, bold=True),
             Text(tx, y + TEXT_TOP + 6, "Print both sides at 100 %. Hold the sheet to a light and find the target "
                  "whose front and back lines coincide.", size_pt=8),
             Text(tx, y + TEXT_TOP + 10.5, "Its label (printed on the back) is the value for --back-offset DX,DY.",
                  size_pt=8),
             Text(tx, y + TEXT_TOP + 15, "Finer: photograph the sheet against a window (or scan both sides) and run "
                  f"pnp calibrate --measure PHOTO.jpg{own}.", size_pt=8)]
    back = []
    for mark in layout.front:
        front += _marker(layout, mark)
    for mark in layout.back:
        back += _marker(layout, mark)
    for row in range(GRID):
        for col in range(GRID):
            dx, dy = (col - GRID // 2) * step, (row - GRID // 2) * step
            cx, cy = x0 + col * pitch, y0 + row * pitch
            front += _target(cx, cy)
            bx, by = layout.mirror(cx, cy)
            bx, by = bx + dx, by + dy
            back += _target(bx, by, colour="#d00000")
            back.append(Text(bx, by + 10, f"{dx:+g},{dy:+g}", size_pt=7, anchor="middle", fill="#d00000"))
    title = f"pnp calibration ({duplex} edge)"
    return (Page(sheet.width, sheet.height, tuple(front) + marks.footer(sheet, f"{title} \u2014 front \u2014 page 1 of 2"),
                 "calibration"),
            Page(sheet.width, sheet.height, tuple(back) + marks.footer(sheet, f"{title} \u2014 back \u2014 page 2 of 2"),
                 "calibration", side="back"))
