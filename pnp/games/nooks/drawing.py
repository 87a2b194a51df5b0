"""Nooks' parts as IR shapes (mm, y down): the hex board, the square variant board and the stones,
and components() that lists them in print order."""
from __future__ import annotations

from ...geometry import hexgrid, squaregrid
from ...core.ir import Circle, Component, Rect, Text
from ...engine import KitContext
from .._pieces import fit, hex_cell
from .spec import NooksSpec

LABEL_AT = 0.64            # labels sit this many pitches beyond the centre of a line's end cell
LETTER_COLOUR = "#8b2f1c"  # column letters: bold and reddish, so they never read as row numbers


def _label(x: float, y: float, text: str, size: float, letter: bool, colour: str) -> Text:
    return Text(x, y, text, size_pt=size, anchor="middle", valign="middle", bold=letter,
                fill=LETTER_COLOUR if letter else colour)


def _setup_mark(x: float, y: float, spec: NooksSpec) -> list:
    r = spec.stones.diameter / 2
    return [Circle(x, y, r, fill=None, stroke=spec.line_colour, stroke_width=0.5),
            Circle(x, y, 1.0, fill=spec.line_colour, stroke=None)]


def label_size(pitch: float) -> float:
    """Label font size in pt for a cell ``pitch`` mm."""
    return max(5.0, min(12.0, pitch * 0.42))


def hex_board_drawing(spec: NooksSpec):
    """(width, height, drawing, centres): the hex board in mm, pointy-top, and each cell's centre
    (by label) in the board's own coordinates."""
    side, p = spec.side, spec.cell_size
    cells = hexgrid.hex_hex(side)
    setup = {hexgrid.parse_label(t, side) for t in spec.setup}
    shapes: list = []
    points = []
    for c in cells:
        poly = hex_cell(c, p, True, spec.setup_colour if c in setup else spec.board_colour, spec.line_colour, 0.35)
        shapes.append(poly)
        points += poly.points
    for c in sorted(setup):
        shapes += _setup_mark(*hexgrid.center(c, p), spec)
    size = label_size(p)
    for axis, is_col in (((1, 0), False), ((0, -1), True)):
        ux, uy = hexgrid.step_vector(axis, p)
        for first, last in hexgrid.line_ends(cells, axis):
            name = hexgrid.label(first, side)
            text = name[0] if is_col else name[1:]
            for cell, sign in ((first, -1), (last, 1)):
                cx, cy = hexgrid.center(cell, p)
                shapes.append(_label(cx + sign * LABEL_AT * ux, cy + sign * LABEL_AT * uy, text, size, is_col,
                                     spec.line_colour))
    w, h, dx, dy, drawing = fit(shapes, points, 2.0)
    centres = {hexgrid.label(c, side): (hexgrid.center(c, p)[0] + dx, hexgrid.center(c, p)[1] + dy) for c in cells}
    return w, h, drawing, centres


def square_board_drawing(spec: NooksSpec):
    """(width, height, drawing, centres): the square variant board in mm, row 1 at the bottom."""
    n, p = spec.square.size, spec.cell_size
    setup = {squaregrid.parse_label(t, n, n) for t in spec.square.setup}
    shapes: list = []
    points = []

    def centre(col, row):
        return (col + 0.5) * p, (n - row - 0.5) * p

    for col, row in squaregrid.cells(n, n):
        x, y = col * p, (n - 1 - row) * p
        shapes.append(Rect(x, y, p, p, fill=spec.setup_colour if (col, row) in setup else spec.board_colour,
                           stroke=spec.line_colour, stroke_width=0.35))
        points += [(x, y), (x + p, y + p)]
    for c in sorted(setup):
        shapes += _setup_mark(*centre(*c), spec)
    size = label_size(p)
    for i in range(n):
        letter, number = squaregrid.label(i, 0)[0], str(i + 1)
        x, _ = centre(i, 0)
        shapes += [_label(x, (n - 0.5 + LABEL_AT) * p, letter, size, True, spec.line_colour),
                   _label(x, (0.5 - LABEL_AT) * p, letter, size, True, spec.line_colour)]
        _, y = centre(0, i)
        shapes += [_label((0.5 - LABEL_AT) * p, y, number, size, False, spec.line_colour),
                   _label((n - 0.5 + LABEL_AT) * p, y, number, size, False, spec.line_colour)]
    w, h, dx, dy, drawing = fit(shapes, points, 2.0)
    centres = {squaregrid.label(*c): (centre(*c)[0] + dx, centre(*c)[1] + dy) for c in squaregrid.cells(n, n)}
    return w, h, drawing, centres


STONE_KINDS = ("neutral", "red", "gold")


def stone_rows(spec: NooksSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:stones``: one row per kind of stone (neutral, red, gold), its ``colour``
    and the ``mark`` colour; specs/nooks/stone.yaml draws each (a square, a ring, a star), so they
    differ in print without colour too."""
    st = spec.stones
    colours = {"neutral": st.neutral_colour, "red": st.red_colour, "gold": st.gold_colour}
    return [{"kind": k, "colour": colours[k], "mark": st.mark_colour} for k in STONE_KINDS]


def stone_fronts(spec: NooksSpec, ctx: KitContext) -> dict[str, tuple]:
    """The three stone faces by kind, drawn by the spec folder's component ``stone`` (stone_rows())."""
    d = spec.stones.diameter
    fronts = [f for c in ctx.parts("stone", (d, d)) for f in c.fronts]
    return dict(zip(STONE_KINDS, fronts))


SQUARE_VARIANT = "square variant"  # the designer's simpler game on an 11x11 board (seed 001, Variant)


def components(spec: NooksSpec, ctx: KitContext) -> list[Component]:
    """[board, square board (optional), wall stone, scoring stone]: boards sized from the cell size
    (mm), stones as round counters of the stone diameter. The square board belongs to the square
    variant only (``variant``), so it is printed on pages of its own."""
    out = []
    w, h, drawing, _ = hex_board_drawing(spec)
    n = len(hexgrid.hex_hex(spec.side))
    out.append(Component("board", w, h, [drawing], board=True,
                         note=f"hex-hex side {spec.side}, {n} cells, {spec.cell_size:g} mm across the flats"))
    if spec.square.include:
        w, h, drawing, _ = square_board_drawing(spec)
        k = spec.square.size
        out.append(Component("square board", w, h, [drawing], board=True,
                             note=f"{k}x{k} squares of {spec.cell_size:g} mm, orthogonal walls only",
                             variant=SQUARE_VARIANT))
    faces = stone_fronts(spec, ctx)
    st = spec.stones
    d = st.diameter
    if st.neutral:
        out.append(Component("wall stone", d, d, [faces["neutral"]], copies=st.neutral, shape="circle",
                             note=f"{st.neutral} neutral (tan) stones, square mark; or use real stones"))
    scoring = [faces["red"]] * st.red + [faces["gold"]] * st.gold
    if scoring:
        out.append(Component("scoring stone", d, d, scoring, shape="circle",
                             note=f"{st.red} red (ring mark) + {st.gold} gold (star mark); or use real stones"))
    return out
