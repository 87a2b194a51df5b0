"""Nonaga (Viktor Bautista i Roca): 19 discs, 6 pawn counters and a true-size setup sheet.

Rules source: docs/games/nonaga.md and seed 004 ("19 wooden discs", "6 wooden pawns (3 each in
black and red)", "The 19 discs are arranged alongside each other in a hexagon shape. The black and
red pawns are placed alternately on the 6 corner fields").

Discs sit on a hex grid of side 3 in axial coordinates (pnp/geometry/hexgrid.py), touching, so the
centre-to-centre pitch equals the disc diameter. The setup sheet uses the flat-top layout.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

from itertools import combinations

from pydantic import ValidationInfo, field_validator

from ..core.colour import mix
from ..core.findings import Finding, verdict
from ..geometry import hexgrid
from ..core.ir import Circle, Component, Group, Text
from ..engine.declared import GeneratorSpec
from ..inputs.specfields import Colour, Count, Flag, Length
from ..engine import Game, KitContext
from ._pieces import fit, star

RULE = "Nonaga rules (seed 004)"
DOC = "docs/games/nonaga.md"
SIDE = 3  # discs per edge of the starting hexagon


class NonagaSpec(GeneratorSpec):
    """specs/nonaga/nonaga.yaml. Lengths in mm (or "35mm", "1.4in")."""
    disc: Length = 35.0
    pawn: Length = 20.0

    @field_validator("pawn")
    @classmethod
    def _pawn_fits_a_disc(cls, pawn: float, info: ValidationInfo) -> float:
        disc = info.data.get("disc")
        if disc is not None and pawn >= disc:
            raise ValueError(f"pawn {pawn:g} mm is not smaller than a disc ({disc:g} mm); a pawn stands on a disc "
                             "(Nonaga rules: Components). Make the pawn smaller or the disc larger")
        return pawn
    # The game has 19 discs (the validator fails any other number); the bound keeps a typo such as
    # 19000000 from being imposed at all: 1,000 discs of 35 mm are 42 A4 pages.
    discs: Count(1, 1000, "the game has 19 discs (the starting hexagon of side 3)") = 19
    disc_colour: Colour = "#e9d8b4"
    edge_colour: Colour = "#8a6d3b"
    red_colour: Colour = "#c62828"
    black_colour: Colour = "#1b1b1b"
    setup_sheet: Flag = True


def board_cells() -> list[hexgrid.Hex]:
    """The 19 starting disc positions: the side-3 hex-hex board, axial (q, r)."""
    return hexgrid.hex_hex(SIDE)


def start_pawns() -> dict[hexgrid.Hex, str]:
    """Starting pawns by cell: the corners in cyclic order (2,0) (2,-2) (0,-2) (-2,0) (-2,2) (0,2)
    alternate red, black, red, ... (docs/games/nonaga.md, Components)."""
    ring = hexgrid.corners(SIDE)  # east first, then counter-clockwise: the order of the rules doc
    return {c: ("red", "black")[i % 2] for i, c in enumerate(ring)}


def win_shapes() -> set[tuple]:
    """Canonical forms (translation, rotation, reflection) of every connected 3-cell set: the win
    shapes line, triangle and tick. Computed by growing all connected triples around (0, 0)."""
    shapes = set()
    for a in hexgrid.neighbours((0, 0)):
        for b in hexgrid.neighbours((0, 0)) + hexgrid.neighbours(a):
            trio = {(0, 0), a, b}
            if len(trio) == 3:
                shapes.add(hexgrid.canonical_shape(trio))
    return shapes




def pawn_mark(side: str, diameter: float) -> tuple:
    """The white mark of a pawn, centred on (0, 0), so red and black differ without colour too:
    red pawns carry a star, black pawns a ring (the setup sheet's pawns; the pawn counters are
    drawn by specs/nonaga/pawn.yaml)."""
    r = diameter / 2
    if side == "red":
        return (star(r * 0.5, fill="#ffffff", stroke=None),)
    return (Circle(0, 0, r * 0.38, fill=None, stroke="#ffffff", stroke_width=max(0.6, r * 0.12)),)


def disc_rows(spec: NonagaSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:discs``: one row, the disc's ``colour`` and its decorative ``ring`` (the
    disc colour mixed 35 % toward the edge colour)."""
    return [{"colour": spec.disc_colour, "ring": mix(spec.disc_colour, spec.edge_colour, 0.35)}]


def pawn_rows(spec: NonagaSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:pawns``: one row per side (red, black) with its ``colour``."""
    return [{"side": "red", "colour": spec.red_colour}, {"side": "black", "colour": spec.black_colour}]


def setup_drawing(spec: NonagaSpec):
    """(width, height, drawing, centres): the setup sheet in mm — 19 touching disc outlines in a
    flat-top hexagon, pawn circles on the corners, a title; centres by axial cell."""
    d = spec.disc
    shapes: list = []
    points = []
    pawns = start_pawns()
    for cell in board_cells():
        x, y = hexgrid.center(cell, d, pointy=False)
        shapes.append(Circle(x, y, d / 2, fill=spec.disc_colour, stroke=spec.edge_colour, stroke_width=0.4))
        points += [(x - d / 2, y - d / 2), (x + d / 2, y + d / 2)]
        if cell in pawns:
            colour = spec.red_colour if pawns[cell] == "red" else spec.black_colour
            shapes.append(Circle(x, y, spec.pawn / 2, fill=colour, stroke="#ffffff", stroke_width=0.4))
            shapes.append(Group(pawn_mark(pawns[cell], spec.pawn), dx=x, dy=y))
    top = min(y for _, y in points)
    left = min(x for x, _ in points)
    shapes.append(Text(left, top - 4, "Nonaga \u2014 setup at true size: place a disc on each circle", size_pt=9,
                       bold=True))
    shapes.append(Text(left, top - 0.5, "red and black pawns alternate on the six corners", size_pt=7.5))
    w, h, dx, dy, drawing = fit(shapes, points, 2.0)
    centres = {c: (hexgrid.center(c, d, False)[0] + dx, hexgrid.center(c, d, False)[1] + dy) for c in board_cells()}
    return w, h, drawing, centres


def components(spec: NonagaSpec, ctx: KitContext) -> list[Component]:
    """[disc, pawn, setup sheet]: disc and pawn as round parts (diameter in mm), and the setup
    sheet as a board (tiled over pages when it is larger than the printable area). The setup sheet
    is an aid the game can do without (``variant``), so discs and pawns print without it."""
    discs = [f for c in ctx.parts("disc", (spec.disc, spec.disc)) for f in c.fronts]
    pawns = [f for c in ctx.parts("pawn", (spec.pawn, spec.pawn)) for f in c.fronts]
    out = [Component("disc", spec.disc, spec.disc, discs,
                     copies=spec.discs, shape="circle",
                     note=f"{spec.discs} discs, diameter {spec.disc:g} mm: glue onto card or thin board before cutting"),
           Component("pawn", spec.pawn, spec.pawn, pawns,
                     copies=3, shape="circle", note="3 red (star) + 3 black (ring) pawn counters")]
    if spec.setup_sheet:
        w, h, drawing, _ = setup_drawing(spec)
        out.append(Component("setup sheet", w, h, [drawing], board=True,
                             note="the 19-disc hexagon at true size with the pawns on the corners",
                             variant="optional setup sheet"))
    return out


def check(spec: NonagaSpec, ctx: KitContext) -> list[Finding]:
    """The checks of docs/games/nonaga.md, computed on the side-3 hex board."""
    cells = board_cells()
    pairs = hexgrid.adjacent_pairs(cells)
    connected = hexgrid.is_connected(cells)
    out = [verdict(spec.discs == len(cells) == 19 and connected and len(pairs) == 42,
                   f"{spec.discs} discs; the side-{SIDE} hexagon has {len(cells)} cells, "
                   f"{'connected' if connected else 'NOT connected'}, {len(pairs)} adjacent pairs (rules doc: 42)",
                   f"{RULE}: Components")]
    pawns = start_pawns()
    corners = hexgrid.corners(SIDE)
    degree = {c: len(hexgrid.neighbours(c, cells)) for c in cells}
    corner_ok = sorted(c for c in cells if degree[c] == 3) == sorted(corners)
    out.append(verdict(corner_ok and len(corners) == 6, f"{len(corners)} corner discs (the cells with 3 neighbours)",
                       f"{RULE}: Setup"))
    reds = [c for c, k in pawns.items() if k == "red"]
    blacks = [c for c, k in pawns.items() if k == "black"]
    alternate = all(pawns[corners[i]] != pawns[corners[(i + 1) % 6]] for i in range(6))
    out.append(verdict(len(reds) == len(blacks) == 3 and alternate,
                       f"6 pawns, {len(reds)} red on {reds}, {len(blacks)} black on {blacks}, alternating round the "
                       "corners", f"{RULE}: Setup"))
    shapes = win_shapes()
    out.append(verdict(len(shapes) == 3, f"{len(shapes)} connected 3-cell shapes on a hex grid (line, triangle, tick)",
                       f"{RULE}: End of the game"))
    apart = all(hexgrid.distance(a, b) > 1 for side in (reds, blacks) for a, b in combinations(side, 2))
    out.append(verdict(apart, "no colour starts in a winning shape: each colour's corners are pairwise "
                       f"{min(hexgrid.distance(a, b) for a, b in combinations(reds, 2))} apart",
                       f"{RULE}: Goal of the game"))
    return out


GAME = Game("nonaga", "Nonaga", NonagaSpec, components, check, __doc__.strip().splitlines()[0],
            rows={"discs": disc_rows, "pawns": pawn_rows})
