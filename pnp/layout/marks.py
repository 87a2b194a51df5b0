"""Page furniture: crop marks, the 50 mm scale check, the footer, alignment marks and assembly maps.

All functions return Drawings (tuples of IR shapes) in page millimetres.
"""
from __future__ import annotations

from functools import lru_cache

from ..core.ir import BLACK, Circle, Drawing, Group, Line, Rect, Text
from .paper import Sheet

SCALE_BAR = 50.0            # mm
SCALE_LABEL = "must measure 50 mm \u2014 print at 100 % / Actual size"
JOIN_WIDTH = 0.35           # mm: registration targets and overlap edges, heavier than crop marks


def crop_marks(xs: list[float], ys: list[float], block: tuple[float, float, float, float],
               offset: float, length: float, width: float) -> Drawing:
    """Crop marks (see _crop_marks), made once per sheet layout (issue 24)."""
    return _crop_marks(tuple(xs), tuple(ys), tuple(block), offset, length, width)


@lru_cache(maxsize=64)
def _crop_marks(xs: tuple[float, ...], ys: tuple[float, ...], block: tuple[float, float, float, float],
                offset: float, length: float, width: float) -> Drawing:
    """Crop marks in line with every cut: vertical cuts at ``xs``, horizontal cuts at ``ys``.

    Marks sit outside ``block`` (x, y, w, h: the union of the trims they serve, one block of parts
    cut alike), starting ``offset`` mm from it (past any bleed) and ``length`` mm long, so they never
    touch a component. Imposition keeps other blocks out of that room (pnp/layout/packing.py).

    The marks come as one Group keyed by these arguments (issue 24: a set of crop marks repeats on
    every sheet of one layout, and a backend draws it once).
    """
    bx, by, bw, bh = block
    out = []
    xs, ys = sorted(set(round(v, 4) for v in xs)), sorted(set(round(v, 4) for v in ys))
    for x in xs:
        out.append(Line(x, by - offset - length, x, by - offset, stroke=BLACK, stroke_width=width))
        out.append(Line(x, by + bh + offset, x, by + bh + offset + length, stroke=BLACK, stroke_width=width))
    for y in ys:
        out.append(Line(bx - offset - length, y, bx - offset, y, stroke=BLACK, stroke_width=width))
        out.append(Line(bx + bw + offset, y, bx + bw + offset + length, y, stroke=BLACK, stroke_width=width))
    return (Group(tuple(out), key=f"crop marks {xs!r} {ys!r} {block!r} {offset!r} {length!r} {width!r}"),)


def footer(sheet: Sheet, text: str) -> Drawing:
    """The bottom band of every page: a 50 mm scale bar with its label on the left, ``text`` on the right.

    The scale bar and its label come as one Group keyed by the printable area (the same on every page
    of a kit, drawn once by a backend); the text follows it."""
    x, y, w, h = sheet.printable
    return (_scale_bar(x, y, w, h), Text(x + w, y + h - 1.0, text, size_pt=8, anchor="end"))


@lru_cache(maxsize=16)
def _scale_bar(x: float, y: float, w: float, h: float) -> Group:
    """The 50 mm scale bar and its label at the foot of the printable area (x, y, w, h)."""
    base = y + h
    bar_y = base - 7.5
    tick = 1.5
    shapes: list = [
        Line(x, bar_y, x + SCALE_BAR, bar_y, stroke_width=0.35),
        Line(x, bar_y - tick, x, bar_y + tick, stroke_width=0.35),
        Line(x + SCALE_BAR, bar_y - tick, x + SCALE_BAR, bar_y + tick, stroke_width=0.35),
    ]
    for i in range(1, 5):
        shapes.append(Line(x + 10 * i, bar_y - tick / 2, x + 10 * i, bar_y, stroke_width=0.2))
    shapes.append(Text(x, base - 1.0, SCALE_LABEL, size_pt=6.5))
    return Group(tuple(shapes), key=f"scale bar {(x, y, w, h)!r}")


def alignment_target(x: float, y: float, size: float = 6.0) -> Drawing:
    """A registration target (circle with cross) centred on (x, y), for lining up overlapping pieces."""
    r = size / 2
    return (Circle(x, y, r * 0.6, stroke=BLACK, stroke_width=JOIN_WIDTH),
            Line(x - r, y, x + r, y, stroke_width=JOIN_WIDTH), Line(x, y - r, x, y + r, stroke_width=JOIN_WIDTH))


def assembly_map(x: float, y: float, cols: int, rows: int, col: int, row: int, cell: float = 4.0) -> Drawing:
    """A small cols x rows grid with the piece (col, row) filled, top-left at (x, y), plus its name."""
    shapes: list = []
    for r in range(rows):
        for c in range(cols):
            here = (c, r) == (col, row)
            shapes.append(Rect(x + c * cell, y + r * cell, cell, cell, fill="#555555" if here else None,
                               stroke=BLACK, stroke_width=0.15))
    shapes.append(Text(x + cols * cell + 2, y + min(rows * cell, 8) / 2, f"{piece_name(col, row)} of {cols}\u00d7{rows}",
                       size_pt=8, valign="middle", bold=True))
    return tuple(shapes)


def piece_name(col: int, row: int) -> str:
    """Name of a poster piece: column letter then row number, 0-based inputs ("B2" = col 1, row 1)."""
    return f"{chr(ord('A') + col)}{row + 1}"


def page_ranges(pages) -> str:
    """Page numbers as runs, for a bill of materials: (2, 3, 4, 5, 9) -> "2\u20135, 9"."""
    runs: list[list[int]] = []
    for p in sorted(set(pages)):
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ", ".join(f"{a}" if a == b else f"{a}\u2013{b}" for a, b in runs)
