"""The duplex calibration sheet: measure a printer's front-to-back misregistration.

The front has a grid of targets (a square with a centre cross). The back has the same targets,
mirrored for the flip edge, each shifted by a known offset (dx, dy) mm and labelled with it.
Hold the printed sheet against a light: the target whose front and back coincide names the
``--back-offset DX,DY`` to use (the same offset convention as impose: added to back positions).
"""
from __future__ import annotations

from ..core.ir import Line, Page, Rect, Text
from . import marks
from .paper import Sheet

GRID = 9  # targets per row and column: offsets -4..+4 steps


def _target(cx: float, cy: float, size: float = 10.0, colour: str = "#000000") -> tuple:
    h = size / 2
    return (Rect(cx - h, cy - h, size, size, fill=None, stroke=colour, stroke_width=0.15),
            Line(cx - h - 2, cy, cx + h + 2, cy, stroke=colour, stroke_width=0.15),
            Line(cx, cy - h - 2, cx, cy + h + 2, stroke=colour, stroke_width=0.15))


def calibration_pages(sheet: Sheet, duplex: str, step: float = 1.0) -> tuple[Page, Page]:
    """(front, back) pages of the calibration sheet for ``duplex`` "long" or "short", offsets in
    multiples of ``step`` mm from -4 to +4 steps on each axis."""
    x, y, w, h = sheet.content_area
    pitch = min(w, h - 20) / GRID
    x0 = x + (w - pitch * GRID) / 2 + pitch / 2
    y0 = y + 22 + pitch / 2
    front, back = [], []
    front += [Text(x, y + 6, f"Duplex calibration \u2014 {duplex}-edge flip, steps of {step:g} mm", size_pt=13, bold=True),
              Text(x, y + 12, "Print both sides at 100 %. Hold the sheet to a light and find the target whose "
                   "front and back lines coincide.", size_pt=8),
              Text(x, y + 16.5, "Its label (printed on the back) is the value for --back-offset DX,DY.", size_pt=8)]
    for row in range(GRID):
        for col in range(GRID):
            dx, dy = (col - GRID // 2) * step, (row - GRID // 2) * step
            cx, cy = x0 + col * pitch, y0 + row * pitch
            front += _target(cx, cy)
            bx, by = (sheet.width - cx, cy) if duplex == "long" else (cx, sheet.height - cy)
            bx, by = bx + dx, by + dy
            back += _target(bx, by, colour="#d00000")
            back.append(Text(bx, by + 10, f"{dx:+g},{dy:+g}", size_pt=7, anchor="middle", fill="#d00000"))
    title = f"pnp calibration ({duplex} edge)"
    return (Page(sheet.width, sheet.height, tuple(front) + marks.footer(sheet, f"{title} \u2014 front \u2014 page 1 of 2"),
                 "calibration"),
            Page(sheet.width, sheet.height, tuple(back) + marks.footer(sheet, f"{title} \u2014 back \u2014 page 2 of 2"),
                 "calibration", side="back"))
