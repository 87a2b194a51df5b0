"""Page furniture: crop marks, the 50 mm scale check, the footer, alignment marks and assembly maps.

All functions return Drawings (tuples of IR shapes) in page millimetres.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ..core.fonts import text_width_mm
from ..core.ir import BLACK, WHITE, Circle, Drawing, Group, Line, Rect, Text
from ..core.units import MM_PER_PT
from ..core.words import Words, english
from .paper import Sheet

SCALE_BAR = 50.0            # mm
SCALE_LABEL = "must measure 50 mm \u2014 print at 100 % / Actual size"
JOIN_WIDTH = 0.35           # mm: registration targets and overlap edges, heavier than crop marks


def crop_marks(xs: list[float], ys: list[float], block: tuple[float, float, float, float],
               offset: float, length: float, width: float, sides: str = "tblr") -> Drawing:
    """Crop marks (see _crop_marks), made once per sheet layout: the same Drawing for the same arguments."""
    return _crop_marks(tuple(xs), tuple(ys), tuple(block), offset, length, width, sides)


@lru_cache(maxsize=64)
def _crop_marks(xs: tuple[float, ...], ys: tuple[float, ...], block: tuple[float, float, float, float],
                offset: float, length: float, width: float, sides: str = "tblr") -> Drawing:
    """Crop marks in line with every cut: vertical cuts at ``xs``, horizontal cuts at ``ys``.

    Marks sit outside ``block`` (x, y, w, h: the union of the trims they serve, one block of parts
    cut alike), starting ``offset`` mm from it (past any bleed) and ``length`` mm long, so they never
    touch a component. Imposition keeps other blocks out of that room (pnp/layout/packing.py).
    ``sides`` names the sides that get marks ("t"op, "b"ottom, "l"eft, "r"ight; a fold-over block
    has none on the side facing its fold line).

    The marks come as one Group keyed by these arguments: a set of crop marks repeats on every sheet
    of one layout, and a backend draws a keyed group once per document (PDF) or page (SVG).
    """
    bx, by, bw, bh = block
    out = []
    xs, ys = sorted(set(round(v, 4) for v in xs)), sorted(set(round(v, 4) for v in ys))
    for x in xs:
        if "t" in sides:
            out.append(Line(x, by - offset - length, x, by - offset, stroke=BLACK, stroke_width=width))
        if "b" in sides:
            out.append(Line(x, by + bh + offset, x, by + bh + offset + length, stroke=BLACK, stroke_width=width))
    for y in ys:
        if "l" in sides:
            out.append(Line(bx - offset - length, y, bx - offset, y, stroke=BLACK, stroke_width=width))
        if "r" in sides:
            out.append(Line(bx + bw + offset, y, bx + bw + offset + length, y, stroke=BLACK, stroke_width=width))
    return (Group(tuple(out), key=f"crop marks {xs!r} {ys!r} {block!r} {offset!r} {length!r} {width!r} {sides}"),)


FOLD_DASH = (4.0, 2.0)      # mm on, mm off: unlike a join line's dashes
FOLD_WIDTH = 0.25           # mm
FOLD_LABEL = "fold"
FOLD_LABEL_PT = 6.5


def fold_line(x1: float, y1: float, x2: float, y2: float, _: Words = english,
              busy: Sequence[tuple[float, float]] = ()) -> Drawing:
    """The dashed fold line of a fold-over sheet from (x1, y1) to (x2, y2) (vertical or horizontal),
    labelled "fold" (in the words ``_``) along the line on a white patch as wide as the label's
    height (2.3 mm). ``busy``: the stretches (from, to in mm, y for a vertical line, x for a
    horizontal one) where parts' art meets the line; the label goes in the middle of the longest
    stretch of the line outside them (the line's middle when none is given), so its patch never
    covers art a cut astray could show."""
    vertical = abs(x1 - x2) < abs(y1 - y2)
    em = FOLD_LABEL_PT * MM_PER_PT
    label = _(FOLD_LABEL)
    along = text_width_mm(label, FOLD_LABEL_PT) + 1.0
    lo, hi = sorted((y1, y2) if vertical else (x1, x2))
    at = _free_middle(lo, hi, busy)
    mx, my = (x1, at) if vertical else (at, y1)
    if vertical:
        patch = Rect(mx - em / 2, my - along / 2, em, along, fill=WHITE, stroke=None)
    else:
        patch = Rect(mx - along / 2, my - em / 2, along, em, fill=WHITE, stroke=None)
    return (Line(x1, y1, x2, y2, stroke=BLACK, stroke_width=FOLD_WIDTH, dash=FOLD_DASH), patch,
            Text(mx, my, label, size_pt=FOLD_LABEL_PT, anchor="middle", valign="middle",
                 rotate=-90 if vertical else 0))


def _free_middle(lo: float, hi: float, busy: Sequence[tuple[float, float]]) -> float:
    """The middle of the longest stretch of [lo, hi] outside every ``busy`` (from, to) stretch, or of
    [lo, hi] when none is given."""
    if not busy:
        return (lo + hi) / 2
    free, start = [], lo
    for a, b in sorted(busy):
        if a > start:
            free.append((start, min(a, hi)))
        start = max(start, b)
    if start < hi:
        free.append((start, hi))
    a, b = max(free, key=lambda f: f[1] - f[0], default=(lo, hi))
    return (a + b) / 2


def footer(sheet: Sheet, text: str, _: Words = english) -> Drawing:
    """The bottom band of every page: a 50 mm scale bar with its label (in the words ``_``) on the
    left, ``text`` on the right.

    The scale bar and its label come as one Group keyed by the printable area (the same on every page
    of a kit, drawn once by a backend); the text follows it."""
    x, y, w, h = sheet.printable
    label = _(SCALE_LABEL)
    if sheet.footer == "side":  # turned along the left edge, reading upwards, in the FOOTER_SIDE band
        return (Group((_side_scale_bar(label),), dx=x, dy=y + h, rotate=-90),
                Group((Text(h, SIDE_BASELINE, text, size_pt=7, anchor="end"),), dx=x, dy=y + h, rotate=-90))
    return (_scale_bar(x, y, w, h, label), Text(x + w, y + h - 1.0, text, size_pt=8, anchor="end"))


def footer_text(title: str, what: str, number: int, total: int, _: Words = english) -> str:
    """A page's footer line, "<title> — <what> — page i of n", in the words ``_``."""
    return _("{title} — {what} — page {number} of {total}").format(title=title, what=what, number=number,
                                                                           total=total)


def _key(key: str, label: str) -> str:
    """A scale bar's render key: the label joins it when it is not the English one."""
    return key if label == SCALE_LABEL else f"{key} {label}"


SIDE_BASELINE = 4.2  # mm from the printable edge: the side footer's baseline, inside the FOOTER_SIDE band


@lru_cache(maxsize=4)
def _side_scale_bar(label: str = SCALE_LABEL) -> Group:
    """The 50 mm scale bar and its label on one line, for a footer turned along the side: in the
    footer's own frame (u along the edge from the bottom of the printable area, v into the page)."""
    bar_v, tick = 2.2, 1.5
    shapes: list = [
        Line(0, bar_v, SCALE_BAR, bar_v, stroke_width=0.35),
        Line(0, bar_v - tick, 0, bar_v + tick, stroke_width=0.35),
        Line(SCALE_BAR, bar_v - tick, SCALE_BAR, bar_v + tick, stroke_width=0.35),
    ]
    for i in range(1, 5):
        shapes.append(Line(10 * i, bar_v - tick / 2, 10 * i, bar_v, stroke_width=0.2))
    shapes.append(Text(SCALE_BAR + 2.0, SIDE_BASELINE, label, size_pt=6.5))
    return Group(tuple(shapes), key=_key("side scale bar", label))


@lru_cache(maxsize=16)
def _scale_bar(x: float, y: float, w: float, h: float, label: str = SCALE_LABEL) -> Group:
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
    shapes.append(Text(x, base - 1.0, label, size_pt=6.5))
    return Group(tuple(shapes), key=_key(f"scale bar {(x, y, w, h)!r}", label))


def alignment_target(x: float, y: float, size: float = 6.0) -> Drawing:
    """A registration target (circle with cross) centred on (x, y), for lining up overlapping pieces."""
    r = size / 2
    return (Circle(x, y, r * 0.6, stroke=BLACK, stroke_width=JOIN_WIDTH),
            Line(x - r, y, x + r, y, stroke_width=JOIN_WIDTH), Line(x, y - r, x, y + r, stroke_width=JOIN_WIDTH))


def assembly_map(x: float, y: float, cols: int, rows: int, col: int, row: int, cell: float = 4.0,
                 _: Words = english) -> Drawing:
    """A small cols x rows grid with the piece (col, row) filled, top-left at (x, y), plus its name
    ("B2 of 2×3", in the words ``_``)."""
    shapes: list = []
    for r in range(rows):
        for c in range(cols):
            here = (c, r) == (col, row)
            shapes.append(Rect(x + c * cell, y + r * cell, cell, cell, fill="#555555" if here else None,
                               stroke=BLACK, stroke_width=0.15))
    name = _("{piece} of {cols}\u00d7{rows}").format(piece=piece_name(col, row), cols=cols, rows=rows)
    shapes.append(Text(x + cols * cell + 2, y + min(rows * cell, 8) / 2, name,
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
