"""Numeria's parts as IR shapes (mm, y down): the board, the number tiles and the trope reference
card, and components() that lists them in print order."""
from __future__ import annotations

import math
from collections import Counter

from ...core.fontbook import current
from ...core.fonts import styled_face, text_width_mm
from ...core.safearea import SAFE_MM
from ...text import scan
from ...geometry import squaregrid
from ...core.ir import WHITE, Circle, Component, Line, Rect, Text
from ...core.units import MM_PER_PT as PT_MM, fmt_mm
from ...engine import KitContext
from .spec import NumeriaSpec
from .tropes import TROPES, fmt_set, instances, union

SAFE = SAFE_MM        # mm: text stays this far inside a trim (the safe area, pnp.core.safearea)
LIGHT, DARK = "#f4efe4", "#d9cdb4"
SETUP_TINT, SETUP_DARK, CORNER_TINT, INK = "#fff7d6", "#f3e3a6", "#cfe3f3", "#1d3557"
LABEL_MIN_PT = 6.0    # square names: nothing a player reads is under 6 pt


# -- board geometry -----------------------------------------------------------------------------------

def cell_of(spec: NumeriaSpec, label: str) -> tuple[int, int]:
    """Parse a cell label on this board (ValueError when off the board)."""
    return squaregrid.parse_label(label, spec.files, spec.ranks)


def setup_cells(spec: NumeriaSpec) -> list[tuple[int, int]]:
    """The cells of the setup rectangle between the spec's two corner labels."""
    (c0, r0), (c1, r1) = (cell_of(spec, x) for x in spec.setup_area)
    return [(c, r) for r in range(min(r0, r1), max(r0, r1) + 1) for c in range(min(c0, c1), max(c0, c1) + 1)]


def board_size(spec: NumeriaSpec) -> tuple[float, float]:
    """Board trim (width, height) in mm: the squares plus a label band on each edge."""
    return (spec.files * spec.square + 2 * spec.label_band, spec.ranks * spec.square + 2 * spec.label_band)


def tile_size(spec: NumeriaSpec) -> float:
    """Tile side in mm: a square less the margin on both sides."""
    return spec.square - 2 * spec.tile_margin


def draw_board(spec: NumeriaSpec):
    """The board: checkered squares with small cell labels, the setup area tinted and outlined,
    the four corners tinted and ringed, files a.. and ranks 1.. on every edge (the far edges turned
    to face the opponent). Rank 1 is at the bottom."""
    s, band = spec.square, spec.label_band
    w, h = board_size(spec)
    setup = set(setup_cells(spec))
    corners = {cell_of(spec, x) for x in spec.corners}
    shapes: list = [Rect(0, 0, w, h, fill=WHITE, stroke=None, bleed=True)]

    def xy(c, r):
        return band + c * s, band + (spec.ranks - 1 - r) * s

    for c, r in squaregrid.cells(spec.files, spec.ranks):
        x, y = xy(c, r)
        dark = (c + r) % 2 == 0
        fill = (CORNER_TINT if (c, r) in corners else (SETUP_DARK if dark else SETUP_TINT) if (c, r) in setup
                else DARK if dark else LIGHT)
        shapes.append(Rect(x, y, s, s, fill=fill, stroke="#8a7f6a", stroke_width=0.2))
        if (c, r) in corners:
            shapes.append(Circle(x + s / 2, y + s / 2, s * 0.36, fill=None, stroke=INK, stroke_width=0.8))
        shapes.append(Text(x + 0.8, y + s - 0.8, squaregrid.label(c, r), size_pt=LABEL_MIN_PT, fill="#4f483c"))
    xs = [c for c, _ in setup]
    ys = [r for _, r in setup]
    x0, y0 = xy(min(xs), max(ys))
    shapes.append(Rect(x0, y0, (max(xs) - min(xs) + 1) * s, (max(ys) - min(ys) + 1) * s, fill=None, stroke=INK,
                       stroke_width=1.2))
    shapes.append(Rect(band, band, spec.files * s, spec.ranks * s, fill=None, stroke=INK, stroke_width=0.6))
    size = min(12.0, band / PT_MM * 0.8)
    for c in range(spec.files):
        x = band + (c + 0.5) * s
        letter = chr(ord("a") + c)
        shapes.append(Text(x, h - band / 2, letter, size_pt=size, anchor="middle", valign="middle", fill=INK))
        shapes.append(Text(x, band / 2, letter, size_pt=size, anchor="middle", valign="middle", fill=INK, rotate=180))
    for r in range(spec.ranks):
        y = band + (spec.ranks - 1 - r + 0.5) * s
        shapes.append(Text(band / 2, y, str(r + 1), size_pt=size, anchor="middle", valign="middle", fill=INK))
        shapes.append(Text(w - band / 2, y, str(r + 1), size_pt=size, anchor="middle", valign="middle", fill=INK,
                           rotate=180))
    return tuple(shapes)


def ambiguous(n: int, numbers: range) -> bool:
    """True when ``n`` turned 180 degrees reads as another number in ``numbers`` (6 <-> 9)."""
    turn = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}
    text = str(n)
    if any(ch not in turn for ch in text):
        return False
    rotated = "".join(turn[ch] for ch in reversed(text))
    return rotated[0] != "0" and int(rotated) != n and int(rotated) in numbers


def tile_rows(spec: NumeriaSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:tiles``: one row per tile, 1..tiles in print order, ``number`` its number
    and ``underline`` "yes" when the number turned 180 degrees reads as another tile's (ambiguous: 6
    and 9 of the rules' 36), else "no"; the spec folder's template tile.yaml draws them."""
    numbers = range(1, spec.tiles + 1)
    return [{"number": str(n), "underline": "yes" if ambiguous(n, numbers) else "no"} for n in numbers]


# -- trope card ----------------------------------------------------------------------------------------

def _card_lines(tiles: int, trope_length: int) -> list[tuple[str, list[str]]]:
    """The card's content as (heading, [instance texts]) per type."""
    found = instances(tiles, trope_length)
    return [(f"{t.name} \u2014 {t.definition} \u2014 {len(found[t.key])}", [fmt_set(x) for x in found[t.key]])
            for t in TROPES]


def _card_layout(spec: NumeriaSpec, size: float):
    """Place the card's text at ``size`` pt; returns (shapes, bottom y in mm) in card coordinates."""
    shapes, bottom = _laid_out(spec.tiles, spec.trope_length, spec.card.width, size)
    return list(shapes), bottom


def _laid_out(tiles: int, trope_length: int, w: float, size: float) -> tuple[tuple, float]:
    """_card_layout for the spec values it reads, kept in the build's font book (pnp.core.fontbook:
    it is measured with the build's faces): the checks and the drawing lay the card out at the same
    sizes (the shapes are frozen, so sharing them is safe)."""
    return current().remember("numeria card layouts", (tiles, trope_length, w, size),
                              lambda: _lay_out(tiles, trope_length, w, size), 32)


def _lay_out(tiles: int, trope_length: int, w: float, size: float) -> tuple[tuple, float]:
    lh = size * PT_MM * 1.35
    inner = w - 2 * SAFE - 2
    x0 = SAFE + 1
    found = instances(tiles, trope_length)
    every = union(found)
    kinds = Counter(x for v in found.values() for x in set(v))  # how many types each set is
    shared = sorted(x for x in every if kinds[x] > 1)
    y = SAFE + 1 + (size + 4) * PT_MM
    shapes: list = [Text(w / 2, y, "Numeria \u2014 tropes", size_pt=size + 4, anchor="middle", bold=True, fill=INK)]
    intro = (f"{trope_length} tiles in a connected straight line (orthogonal or diagonal), strictly increasing "
             f"or decreasing. Ascending forms within 1\u2013{tiles}:")
    y += lh * 1.3
    shapes.append(Text(w / 2, y, intro, size_pt=size * 0.9, anchor="middle"))
    for heading, items in _card_lines(tiles, trope_length):
        y += lh * 1.45
        shapes.append(Text(x0, y, heading, size_pt=size, bold=True, fill=INK))
        shapes.append(Line(x0, y + lh * 0.3, x0 + inner, y + lh * 0.3, stroke="#b9ad93", stroke_width=0.2))
        cell = max(text_width_mm(i, size) for i in items) + 3.0
        per = max(1, int((inner + 3.0) // cell))
        for i, item in enumerate(items):
            if i % per == 0:
                y += lh
            shapes.append(Text(x0 + (i % per) * cell, y, item, size_pt=size))
    y += lh * 1.6
    also = "; ".join(f"{fmt_set(x)} is " + " and ".join(t.name for t in TROPES if x in found[t.key]) for x in shared)
    shapes.append(Text(x0, y, f"{len(every)} distinct sets in all" + (f" ({also})." if also else "."), size_pt=size,
                       bold=True))
    return tuple(shapes), y + SAFE


def card_size_pt(spec: NumeriaSpec) -> float | None:
    """The largest text size (10 pt down to min_card_pt in 0.5 pt steps) at which the card fits its
    trim, or None when even the smallest does not fit."""
    return _card_size_pt(spec.tiles, spec.trope_length, spec.card.width, spec.card.height, spec.min_card_pt)


CARD_TOP_PT = 10.0   # the card's text starts at this size
CARD_STEP_PT = 0.5   # and shrinks in these steps


def _card_size_pt(tiles: int, trope_length: int, width: float, height: float, min_pt: float) -> float | None:
    """card_size_pt for the spec values it reads, kept in the build's font book as _laid_out is
    (None, nothing fits, kept as a 1-tuple)."""
    return current().remember("numeria card sizes", (tiles, trope_length, width, height, min_pt),
                              lambda: (_largest_size(tiles, trope_length, width, height, min_pt),), 16)[0]


def _largest_size(tiles: int, trope_length: int, width: float, height: float, min_pt: float) -> float | None:
    def fits(size: float) -> float | None:
        shapes, bottom = _laid_out(tiles, trope_length, width, size)
        wide = max(s.x + text_width_mm(s.text, s.size_pt, styled_face(s.font, s.bold)) / (2 if s.anchor == "middle" else 1)
                   for s in shapes if isinstance(s, Text))
        return size if bottom <= height and wide <= width - SAFE else None
    lowest = CARD_TOP_PT - math.floor((CARD_TOP_PT - min_pt + 1e-9) / CARD_STEP_PT) * CARD_STEP_PT
    return scan(fits, CARD_TOP_PT, lowest, step=CARD_STEP_PT)


def draw_card(spec: NumeriaSpec):
    """The trope reference card, laid out at card_size_pt (or min_card_pt if nothing fits)."""
    w, h = spec.card.width, spec.card.height
    shapes, _ = _card_layout(spec, card_size_pt(spec) or spec.min_card_pt)
    return (Rect(0, 0, w, h, fill=WHITE, stroke=None, bleed=True),
            Rect(SAFE / 2, SAFE / 2, w - SAFE, h - SAFE, fill=None, stroke=INK, stroke_width=0.4), *shapes)


def components(spec: NumeriaSpec, ctx: KitContext) -> list[Component]:
    """[board, tile, trope card]: the board (files x ranks squares of ``square`` mm plus label bands),
    the numbered tiles (square - 2 x tile_margin mm, drawn by the spec folder's component ``tile``
    from tile_rows()), and the reference card (card.width x card.height)."""
    w, h = board_size(spec)
    t = tile_size(spec)
    fronts = [f for c in ctx.parts("tile", (t, t)) for f in c.fronts]
    return [Component("board", w, h, [draw_board(spec)], board=True,
                      note=f"{spec.files}x{spec.ranks} squares of {fmt_mm(spec.square)}; setup area and corners marked"),
            Component("tile", t, t, fronts, note=f"numbered 1-{spec.tiles}, readable from every side"),
            Component("trope card", spec.card.width, spec.card.height, [draw_card(spec)],
                      note="every trope type with all its instances")]
