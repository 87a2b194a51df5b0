"""NetMatch's parts: the board as IR shapes (mm, y down: network plus card boxes); the rows of the
word cards, pawns and letter tokens (their templates are the spec folder's); components() lists
them in print order."""
from __future__ import annotations

import math

from ...core.colour import tint
from ...core.errors import SpecError
from ...geometry.planargraph import START, Network, Node
from ...core.ir import WHITE, Circle, Component, Line, Polygon, Rect, Text
from ...engine import KitContext
from .network import colouring, network_of, node_diameter
from .spec import SYMBOLS, ColourSpec, NetMatchSpec
from .words import word_list

INK = "#000000"
BOARD_MARGIN = 2.5   # mm of white around the network and the card boxes
BAND_PAD = 0.8       # mm the side colour band reaches past the start-node circles


TEMPLATE_WORD_PT = 40.0  # the largest word size of specs/netmatch/card.yaml (its word layer's size)


def word_rows(spec: NetMatchSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:words``: one row per word of the checked word list (word_list), in
    print order: ``word`` and ``back_colour`` (the spec's); the spec folder's templates card.yaml and
    card-back.yaml draw the cards and their back.

    Raises:
        SpecError: word_size_pt is not the template's TEMPLATE_WORD_PT (the template sets the size).
        WordListError: the list breaks a rule (word_list).
    """
    if abs(spec.word_size_pt - TEMPLATE_WORD_PT) > 1e-9:
        raise SpecError(f"word_size_pt is {spec.word_size_pt:g} pt; the words are drawn by the template card.yaml, "
                        f"whose word layer says size: {TEMPLATE_WORD_PT:g}.", file=ctx.spec_path,
                        field="word_size_pt", hint="remove word_size_pt, and edit the size: of card.yaml's word layer "
                                                   "for another size")
    return [{"word": word, "back_colour": spec.back_colour} for word in word_list(spec, ctx).words]


def hex_of(spec: NetMatchSpec, letter: str) -> str:
    return next((c.hex for c in spec.colours if c.letter == letter), "#888888")


def symbol_shape(symbol: str, cx: float, cy: float, size: float, fill: str | None, stroke: str | None = INK,
                 width: float = 0.3):
    """A symbol as a vector shape centred on (cx, cy) mm, ``size`` mm across (areas roughly equal).

    Raises:
        ValueError: unknown symbol.
    """
    r = size / 2
    if symbol == "circle":
        return Circle(cx, cy, r * 0.92, fill=fill, stroke=stroke, stroke_width=width)
    if symbol == "square":
        a = r * 0.82
        return Rect(cx - a, cy - a, 2 * a, 2 * a, fill=fill, stroke=stroke, stroke_width=width)
    if symbol == "triangle":
        h = r * 1.1
        return Polygon(((cx, cy - h), (cx + h * 1.05, cy + h * 0.75), (cx - h * 1.05, cy + h * 0.75)),
                       fill=fill, stroke=stroke, stroke_width=width)
    if symbol == "diamond":
        return Polygon(((cx, cy - r * 1.12), (cx + r, cy), (cx, cy + r * 1.12), (cx - r, cy)),
                       fill=fill, stroke=stroke, stroke_width=width)
    raise ValueError(f"unknown symbol {symbol!r}; use {', '.join(SYMBOLS)}")


def pieces(spec: NetMatchSpec) -> list[tuple[ColourSpec, str]]:
    """Every (colour, symbol), colour by colour: one pawn front and one letter token each."""
    return [(c, sym) for c in spec.colours for sym in spec.network.symbols]


def piece_rows(spec: NetMatchSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:pieces``: one row per (colour, symbol) of pieces(), ``hex`` and ``letter``
    the colour's, ``symbol`` one of SYMBOLS; the spec folder's templates pawn.yaml, token.yaml and
    token-back.yaml draw the pawns and letter tokens."""
    return [{"hex": colour.hex, "letter": colour.letter, "symbol": symbol} for colour, symbol in pieces(spec)]


def card_box(spec: NetMatchSpec) -> tuple[float, float]:
    """Card box size in mm: a word card plus the margin on every side."""
    m = spec.card_box_margin
    return spec.card.width + 2 * m, spec.card.height + 2 * m


def board_layout(spec: NetMatchSpec, net: Network) -> tuple[float, float, float, float, float]:
    """(width, height, network centre x, centre y, card-box row y) in board mm: the network on top,
    the four card boxes in a row below it."""
    r = node_diameter(spec) / 2
    extent = max((math.hypot(n.x, n.y) for n in net.nodes), default=0.0) + r + BAND_PAD
    bw, bh = card_box(spec)
    gap = 8.0
    row = len(spec.colours) * bw + (len(spec.colours) - 1) * gap
    width = max(2 * extent, row) + 2 * BOARD_MARGIN
    box_y = BOARD_MARGIN + 2 * extent + 9.0
    return width, box_y + bh + 6.0 + BOARD_MARGIN, width / 2, BOARD_MARGIN + extent, box_y


def _band(nodes: list[Node], half: float, reach: float, cx: float, cy: float, colour: str) -> Polygon:
    """A strip under a side's start nodes: ``half`` mm either side of the line through them,
    reaching ``reach`` mm past the first and last node."""
    a, b = nodes[0], nodes[-1]
    length = math.hypot(b.x - a.x, b.y - a.y) or 1.0
    ux, uy = (b.x - a.x) / length, (b.y - a.y) / length
    nx, ny = -uy, ux
    pts = []
    for (px, py), sign in (((a.x - ux * reach, a.y - uy * reach), 1), ((b.x + ux * reach, b.y + uy * reach), 1),
                           ((b.x + ux * reach, b.y + uy * reach), -1), ((a.x - ux * reach, a.y - uy * reach), -1)):
        pts.append((cx + px + sign * nx * half, cy + py + sign * ny * half))
    return Polygon(tuple(pts), fill=colour, stroke=None)


def draw_board(spec: NetMatchSpec):
    """The board: side colour bands, edges as black lines, node circles (pawn + 2 mm), each start
    node showing its symbol in its side's colour, colour letters inside each side, and one card box
    per colour below the network."""
    net = network_of(spec)
    width, height, cx, cy, box_y = board_layout(spec, net)
    r = node_diameter(spec) / 2
    sides = net.start_nodes()
    colours = colouring(spec, list(sides), spec.side_colours)
    shapes: list = [Rect(0, 0, width, height, fill=WHITE, stroke=None)]
    for side, nodes in sides.items():
        shapes.append(_band(nodes, r + BAND_PAD, r + BAND_PAD, cx, cy, tint(hex_of(spec, colours[side]), 0.35)))
    for a, b in net.edges:
        if a in net.by_id and b in net.by_id:
            na, nb = net.by_id[a], net.by_id[b]
            shapes.append(Line(cx + na.x, cy + na.y, cx + nb.x, cy + nb.y, stroke=INK, stroke_width=0.5))
    for n in net.nodes:
        shapes.append(Circle(cx + n.x, cy + n.y, r, fill=WHITE, stroke=INK, stroke_width=0.45))
        if n.kind == START and n.symbol:
            fill = hex_of(spec, colours.get(n.side, ""))
            shapes.append(symbol_shape(n.symbol, cx + n.x, cy + n.y, r * 1.1, fill, INK, 0.3))
    for side, nodes in sides.items():
        mx, my = sum(n.x for n in nodes) / len(nodes), sum(n.y for n in nodes) / len(nodes)
        dist = math.hypot(mx, my) or 1.0
        k = (dist - r - 5.0) / dist
        ang = math.degrees(math.atan2(my, mx))
        shapes.append(Text(cx + mx * k, cy + my * k, colours[side], size_pt=13, anchor="middle", valign="middle",
                           bold=True, rotate=ang - 90, fill=INK))
    bw, bh = card_box(spec)
    gap = (width - 2 * BOARD_MARGIN - len(spec.colours) * bw) / max(1, len(spec.colours) - 1)
    m = spec.card_box_margin
    for i, colour in enumerate(spec.colours):
        x = BOARD_MARGIN + i * (bw + gap)
        shapes.append(Rect(x, box_y, bw, bh, fill=tint(colour.hex, 0.75), stroke=colour.hex, stroke_width=1.2))
        shapes.append(Rect(x + m, box_y + m, spec.card.width, spec.card.height, fill=WHITE, stroke="#777777",
                           stroke_width=0.25))
        shapes.append(Rect(x - 0.6, box_y - 0.6, bw + 1.2, bh + 1.2, fill=None, stroke=INK, stroke_width=0.2))
        shapes.append(Text(x + bw / 2, box_y + bh / 2 - 4, colour.letter, size_pt=28, anchor="middle",
                           valign="middle", bold=True, fill=INK))
        shapes.append(Text(x + bw / 2, box_y + bh / 2 + 8, "word card", size_pt=8, anchor="middle", fill="#555555"))
        shapes.append(Text(x + bw / 2, box_y + bh / 2 + 12, "+ 4 letter tokens", size_pt=8, anchor="middle",
                           fill="#555555"))
        shapes.append(Text(x + bw / 2, box_y + bh + 4.5, f"{colour.letter} \u2014 {colour.name} card box",
                           size_pt=8.5, anchor="middle", bold=True))
    shapes.append(Text(BOARD_MARGIN + 1, BOARD_MARGIN + 5, "NetMatch", size_pt=12, bold=True))
    return tuple(shapes)


def components(spec: NetMatchSpec, ctx: KitContext) -> list[Component]:
    """[word card, board, pawn, letter token]: the word cards (card.width x card.height mm, drawn with
    their common back by the spec folder's component ``word card`` from word_rows()), the board
    (network plus card boxes, tiled when larger than the page), the round pawns (pawn.diameter mm,
    pawn.copies of each colour and symbol) and the square letter tokens (token_size mm, one per colour
    and symbol, back with a box for one letter), both drawn by the spec folder's components ``pawn``
    and ``letter token`` from piece_rows()."""
    cards = ctx.parts("word card", (spec.card.width, spec.card.height))
    words = [title for c in cards for title in c.titles]
    net = network_of(spec)
    width, height, *_ = board_layout(spec, net)
    pawns = ctx.parts("pawn", (spec.pawn.diameter, spec.pawn.diameter))
    tokens = ctx.parts("letter token", (spec.token_size, spec.token_size))
    n_col, n_sym = len(spec.colours), len(spec.network.symbols)
    # one run of cards (one back): its fronts as pnp.custom holds them (rows and template, drawn when imposed)
    fronts = cards[0].fronts if len(cards) == 1 else [f for c in cards for f in c.fronts]
    return [Component("word card", spec.card.width, spec.card.height, fronts,
                      back=cards[0].back if cards else None,
                      note=f"one four-letter word each ({len(words)} words)", titles=tuple(words)),
            Component("board", width, height, [draw_board(spec)], board=True,
                      note=f"{len(net.nodes)}-node network, {len(spec.colours)} card boxes"),
            Component("pawn", spec.pawn.diameter, spec.pawn.diameter, [f for c in pawns for f in c.fronts],
                      copies=spec.pawn.copies, shape="circle",
                      note=f"{n_col} colours x {n_sym} symbols x {spec.pawn.copies}"),
            Component("letter token", spec.token_size, spec.token_size, [f for c in tokens for f in c.fronts],
                      back=tokens[0].back if tokens else None,
                      note=f"{n_col} colours x {n_sym} symbols; back: write a letter")]
