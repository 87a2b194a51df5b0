"""NetMatch: the Game (Roberto Tron, 2018): board network, 64 pawns, 16 letter tokens, 75 word cards.

The word cards come from any word list; the board's network is data (a generator and its
parameters, or explicit nodes and edges) in specs/netmatch.yaml, and the validator proves its
properties on the same network the board draws. Rules source: docs/games/netmatch.md and seed
003 ("64 feature pawns", "16 word tokens", "75 word cards", "1 game board (with 1 dodecagonal
network and 4 card boxes)").
"""
from __future__ import annotations

import math
from functools import partial
from pathlib import Path

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator, ValidationInfo, field_validator

from ..errors import SpecError
from ..findings import Finding, verdict
from ..fonts import text_width_mm
from ..geometry.network import START, Network, Node, dodecagon
from ..ir import WHITE, Circle, Component, LazyFronts, Line, Polygon, Rect, Text
from ..resources import specs_dir
from ..units import MM_PER_PT, fmt_mm
from ..spec import Colour, Length, SpecBase
from ..fonts import missing_glyphs
from ..wordlist import WORD_LENGTH, WordList, anagram_groups, read_words
from . import Game, KitContext

RULE = "NetMatch rules (seed 003)"
DOC = "docs/games/netmatch.md"
PRINT = "docs/print.md"
SAFE = 3.0  # mm: text stays this far inside the trim


class CardSpec(BaseModel):
    """Word-card trim size (mini-Euro 44 x 68 mm by default)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: Length = 44.0
    height: Length = 68.0


Symbol = Literal["circle", "square", "triangle", "diamond"]
SYMBOLS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColourSpec(_Part):
    """A player colour: its ``letter`` (printed on pawns, tokens and sides), ``name`` and ``hex``."""
    letter: str
    name: str
    hex: Colour


class NodeSpec(_Part):
    """An explicit network node; x, y in mm from the network centre (y down)."""
    id: str
    kind: Literal["start", "inner", "corner", "hub"]
    x: float
    y: float
    side: int | None = None
    symbol: Symbol | None = None


class NetworkSpec(_Part):
    """The board network: ``generator: dodecagon`` with its parameters, or ``generator: null`` with
    explicit ``nodes`` and ``edges``. ``symbols`` is the clockwise order on every side either way."""
    generator: Literal["dodecagon"] | None = "dodecagon"
    sides: int = 12
    symbols: tuple[Symbol, ...] = SYMBOLS
    inner_per_side: int = 2
    corner_ring: bool = True
    hub: bool = True
    spacing: Length = 15.8
    nodes: tuple[NodeSpec, ...] | None = None
    edges: tuple[tuple[str, str], ...] | None = None

    @model_validator(mode="after")
    def _one_source(self):
        if self.generator is None and (self.nodes is None or self.edges is None):
            raise ValueError("without a generator the network needs both nodes: and edges:")
        if self.generator is not None and (self.nodes is not None or self.edges is not None):
            raise ValueError("give either generator: dodecagon or explicit nodes:/edges: (with generator: null)")
        return self


class PawnSpec(_Part):
    """Round pawns: ``diameter`` in mm, ``copies`` of each colour and symbol."""
    diameter: Length = 12.0
    copies: int = 4


class NetMatchSpec(SpecBase):
    """specs/netmatch.yaml."""
    words: str = "netmatch-words.txt"
    expected_words: int | None = 75
    card: CardSpec = CardSpec()
    back_colour: Colour = "#1f3a5f"
    word_size_pt: float = 40.0
    network: NetworkSpec = NetworkSpec()
    colours: tuple[ColourSpec, ...] = (ColourSpec(letter="A", name="vermillion", hex="#d55e00"),
                                       ColourSpec(letter="B", name="sky blue", hex="#56b4e9"),
                                       ColourSpec(letter="C", name="yellow", hex="#f0e442"),
                                       ColourSpec(letter="D", name="blue", hex="#0072b2"))
    side_colours: tuple[str, ...] = ("A", "B", "C", "D")
    full_board_3p: tuple[str, ...] = ("A", "B", "C")
    pawn: PawnSpec = PawnSpec()

    @field_validator("pawn")
    @classmethod
    def _pawn_fits_a_node(cls, pawn: PawnSpec, info: ValidationInfo) -> PawnSpec:
        network = info.data.get("network")
        if network is not None and pawn.diameter + 2 > network.spacing:
            raise ValueError(f"pawn.diameter {pawn.diameter:g} mm needs a node circle of {pawn.diameter + 2:g} mm, "
                             f"wider than the {network.spacing:g} mm between neighbouring nodes. Make the pawns "
                             "smaller or network.spacing larger")
        return pawn

    token_size: Length = 18.0
    card_box_margin: Length = 3.0


def word_list_path(spec: NetMatchSpec, ctx: KitContext) -> Path:
    """The list to print: ``--set words=FILE`` (or ``--words FILE``) if given, else the spec's
    ``words`` beside the spec file (falling back to the built-in specs folder)."""
    return ctx.input_path("words", spec.words, specs_dir())


def word_list(spec: NetMatchSpec, ctx: KitContext) -> WordList:
    """The checked word list, read once per build (the validator and the cards share it).

    Raises:
        WordListError: the list breaks a rule (see pnp.wordlist.read_words).
    """
    path = word_list_path(spec, ctx)
    return ctx.once(("words", path), lambda: read_words(path, WORD_LENGTH))


def fit_size(word: str, width: float, max_pt: float) -> float:
    """Largest font size (pt, at most ``max_pt``) at which ``word`` fits ``width`` mm."""
    w = text_width_mm(word, 10.0)
    return min(max_pt, 10.0 * width / w) if w > 0 else max_pt


def draw_card(word: str, spec: NetMatchSpec):
    """A word card front: the word large and centred, a small upside-down copy for the player opposite."""
    w, h = spec.card.width, spec.card.height
    size = fit_size(word, w - 2 * SAFE - 2, spec.word_size_pt)
    small = fit_size(word, w / 2, 11.0)
    return (Rect(0, 0, w, h, fill=WHITE, stroke=None, bleed=True),
            Text(w / 2, h / 2, word, size_pt=size, anchor="middle", valign="middle", bold=True),
            Text(w / 2, SAFE + 4, word, size_pt=small, anchor="middle", valign="middle", rotate=180, fill="#555555"),
            Text(w / 2, h - SAFE - 3, "NetMatch", size_pt=6, anchor="middle", fill="#555555"))


def draw_back(spec: NetMatchSpec):
    """The common back: a full-bleed field with the dodecagonal network as a motif."""
    w, h = spec.card.width, spec.card.height
    cx, cy, r = w / 2, h / 2, min(w, h) * 0.36
    pts = tuple((cx + r * math.cos(math.radians(15 + 30 * i)), cy + r * math.sin(math.radians(15 + 30 * i)))
                for i in range(12))
    shapes = [Rect(0, 0, w, h, fill=spec.back_colour, stroke=None, bleed=True),
              Polygon(pts, fill=None, stroke=WHITE, stroke_width=0.4)]
    for x, y in pts:
        shapes.append(Line(cx, cy, x, y, stroke="#8fa9c9", stroke_width=0.25))
        shapes.append(Circle(x, y, 1.2, fill=WHITE, stroke=None))
    shapes.append(Circle(cx, cy, 2.0, fill=WHITE, stroke=None))
    shapes.append(Text(cx, h - SAFE - 4, "NetMatch", size_pt=9, anchor="middle", fill=WHITE, bold=True))
    return tuple(shapes)


# -- network, board, pawns, tokens ------------------------------------------------------------------

OKABE_ITO = {"#e69f00": "orange", "#56b4e9": "sky blue", "#009e73": "bluish green", "#f0e442": "yellow",
             "#0072b2": "blue", "#d55e00": "vermillion", "#cc79a7": "reddish purple", "#000000": "black"}
INK = "#000000"
BOARD_MARGIN = 2.5   # mm of white around the network and the card boxes
BAND_PAD = 0.8       # mm the side colour band reaches past the start-node circles


def network_of(spec: NetMatchSpec) -> Network:
    """The board's network: the generator run on the spec's parameters, or the explicit nodes/edges.

    Raises:
        SpecError: the generator's parameters do not make a network.
    """
    net = spec.network
    if net.generator is None:
        return Network(tuple(Node(n.id, n.kind, n.x, n.y, n.side, n.symbol) for n in net.nodes),
                       tuple(tuple(e) for e in net.edges))
    try:
        return dodecagon(net.symbols, net.sides, net.inner_per_side, net.corner_ring, net.hub, net.spacing)
    except ValueError as exc:
        raise SpecError(f"{exc}.", field="network") from None


def node_diameter(spec: NetMatchSpec) -> float:
    """Node circle diameter in mm: a pawn plus 2 mm (docs/games/netmatch.md)."""
    return spec.pawn.diameter + 2.0


def colouring(spec: NetMatchSpec, sides: list[int], cycle: tuple[str, ...]) -> dict[int, str]:
    """Side -> colour letter, cycling ``cycle`` over the sides in order."""
    return {side: cycle[i % len(cycle)] for i, side in enumerate(sides)} if cycle else {}


def hex_of(spec: NetMatchSpec, letter: str) -> str:
    return next((c.hex for c in spec.colours if c.letter == letter), "#888888")


def tint(hex_colour: str, amount: float) -> str:
    """Mix ``hex_colour`` with white: amount 0 keeps it, 1 gives white."""
    rgb = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


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


def _marked(symbol: str, letter: str, cx: float, cy: float, size: float) -> tuple:
    """A white symbol with the colour's letter inside (the letter sits lower in a triangle)."""
    drop = size * 0.12 if symbol == "triangle" else 0.0
    return (symbol_shape(symbol, cx, cy, size, WHITE, INK, max(0.25, size * 0.04)),
            Text(cx, cy + drop, letter, size_pt=size * 0.75 / MM_PER_PT * 0.5, anchor="middle", valign="middle",
                 bold=True))


def draw_pawn(item: tuple[ColourSpec, str], spec: NetMatchSpec):
    """A pawn: a disc of the colour (full bleed), the symbol in white with the colour letter inside."""
    colour, symbol = item
    d = spec.pawn.diameter
    return (Circle(d / 2, d / 2, d / 2, fill=colour.hex, stroke=None, bleed=True),
            *_marked(symbol, colour.letter, d / 2, d / 2, d * 0.62))


def draw_token(item: tuple[ColourSpec, str], spec: NetMatchSpec):
    """A letter token front: the colour (full bleed), the symbol with the colour letter inside."""
    colour, symbol = item
    t = spec.token_size
    return (Rect(0, 0, t, t, fill=colour.hex, stroke=None, bleed=True),
            *_marked(symbol, colour.letter, t / 2, t / 2, t * 0.6))


def draw_token_back(spec: NetMatchSpec):
    """The common token back: a box to write one letter in, with a small caption."""
    t = spec.token_size
    box = t * 0.58
    return (Rect(0, 0, t, t, fill=WHITE, stroke=None, bleed=True),
            Rect((t - box) / 2, t * 0.12, box, box, fill=None, stroke=INK, stroke_width=0.35),
            Text(t / 2, t - 1.6, "write one letter", size_pt=4.5, anchor="middle", fill="#555555"))


def pieces(spec: NetMatchSpec) -> list[tuple[ColourSpec, str]]:
    """Every (colour, symbol), colour by colour: one pawn front and one letter token each."""
    return [(c, sym) for c in spec.colours for sym in spec.network.symbols]


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
    """[word card, board, pawn, letter token]: the word cards (card.width x card.height mm, common
    back), the board (network plus card boxes, tiled when larger than the page), the round pawns
    (pawn.diameter mm, pawn.copies of each colour and symbol) and the square letter tokens
    (token_size mm, one per colour and symbol, back with a box for one letter)."""
    words = word_list(spec, ctx).words
    net = network_of(spec)
    width, height, *_ = board_layout(spec, net)
    items = pieces(spec)
    n_col, n_sym = len(spec.colours), len(spec.network.symbols)
    return [Component("word card", spec.card.width, spec.card.height,
                      LazyFronts(words, partial(draw_card, spec=spec)), back=draw_back(spec),
                      note=f"one four-letter word each ({len(words)} words)"),
            Component("board", width, height, [draw_board(spec)], board=True,
                      note=f"{len(net.nodes)}-node network, {len(spec.colours)} card boxes"),
            Component("pawn", spec.pawn.diameter, spec.pawn.diameter, [draw_pawn(i, spec) for i in items],
                      copies=spec.pawn.copies, shape="circle",
                      note=f"{n_col} colours x {n_sym} symbols x {spec.pawn.copies}"),
            Component("letter token", spec.token_size, spec.token_size, [draw_token(i, spec) for i in items],
                      back=draw_token_back(spec), note=f"{n_col} colours x {n_sym} symbols; back: write one letter")]


def check_words(spec: NetMatchSpec, ctx: KitContext) -> list[Finding]:
    """Word-list checks of docs/games/netmatch.md (reading the list raises on any bad word)."""
    path = word_list_path(spec, ctx)
    wl = word_list(spec, ctx)
    n = len(wl.words)
    out = []
    if not ctx.overridden("words") and spec.expected_words is not None:
        out.append(verdict(n == spec.expected_words, f"{n} word cards (spec expects {spec.expected_words})",
                           f"{RULE}: \"75 word cards\""))
    else:
        out.append(verdict(n > 0, f"{n} word cards from {path.name}", f"{RULE}: word cards (user list)"))
    wrong = [w for w in wl.words if len(w) != WORD_LENGTH or not w.isalpha()]
    out.append(verdict(not wrong, f"all {n} words have exactly {WORD_LENGTH} letters"
                       + (f"; not: {', '.join(wrong[:5])}" if wrong else ""), f"{RULE}: \"four-letter word\""))
    folded = [w.casefold() for w in wl.words]
    repeats = sorted({w for w in folded if folded.count(w) > 1}) if len(set(folded)) != n else []
    out.append(verdict(not repeats, f"no duplicates among {n} words (ignoring case)"
                       + (f"; repeated: {', '.join(repeats[:5])}" if repeats else ""), f"{DOC}: word list"))
    lacking = missing_glyphs("".join(sorted(set("".join(wl.words)))))
    out.append(verdict(not lacking, f"every glyph of the {n} words is in the embedded font (Noto Sans)"
                       + (f"; missing: {' '.join(lacking)}" if lacking else ""), f"{PRINT}: embed every font"))
    groups = anagram_groups(wl.words)
    shown = "; ".join("/".join(g) for g in groups[:5]) + (" ..." if len(groups) > 5 else "")
    out.append(verdict(not groups, f"{len(groups)} anagram groups" + (f": {shown}" if groups else ""),
                       f"{DOC}: letter tokens reveal letters, not order", warn=True))
    return out




def _groups(net: Network, colours: dict[int, str]) -> dict[tuple[str, str], list[str]]:
    """Start node ids per (colour, symbol) under a side colouring."""
    out: dict[tuple[str, str], list[str]] = {}
    for side, nodes in net.start_nodes().items():
        for n in nodes:
            if side in colours:
                out.setdefault((colours[side], n.symbol), []).append(n.id)
    return out


def reachability(net: Network, colours: dict[int, str]) -> tuple[list[str], int]:
    """At setup every start node holds a pawn. For each colour+symbol, can its first copy reach
    every other copy through empty nodes or nodes of its own kind? Returns (groups that cannot,
    the longest such shortest path in steps)."""
    groups = _groups(net, colours)
    owner = {i: g for g, ids in groups.items() for i in ids}
    stuck, longest = [], 0
    for g, ids in sorted(groups.items()):
        dist = net.distances(ids[0], lambda node, g=g: owner.get(node, g) == g)
        if any(i not in dist for i in ids):
            stuck.append(f"{g[0]} {g[1]}")
        else:
            longest = max([longest] + [dist[i] for i in ids])
    return stuck, longest


def _count_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{c} {n}" for c, n in sorted(counts.items()))


def check_network(spec: NetMatchSpec) -> list[Finding]:
    """The network checks of docs/games/netmatch.md, on the network the board draws."""
    net = network_of(spec)
    symbols = list(spec.network.symbols)
    out = []
    bad = net.bad_edges()
    out.append(verdict(not bad, f"{len(net.nodes)} nodes, {len(net.edges)} edges; " +
                       (f"{len(bad)} edges name an unknown node, a loop or a repeat, e.g. {bad[0]}" if bad
                        else "every edge joins two distinct nodes once"), f"{DOC}: the network"))
    if spec.network == NetworkSpec(spacing=spec.network.spacing):
        out.append(verdict((len(net.nodes), len(net.edges)) == (85, 168),
                           f"default design: {len(net.nodes)} nodes (85) and {len(net.edges)} edges (168)",
                           f"{DOC}: default graph"))
    parts = net.components()
    out.append(verdict(len(parts) == 1, f"connected, diameter {net.diameter()} steps" if len(parts) == 1 else
                       f"not connected: {len(parts)} parts; cut off: {', '.join(parts[-1][:6])}",
                       f"{RULE}: moves go between neighbours \"directly connected with a black line\""))
    sides = net.start_nodes()
    loose = [n.id for n in net.nodes if n.kind == START and (n.side is None or not n.symbol)]
    wrong = {side: len(nodes) for side, nodes in sides.items() if len(nodes) != len(symbols)}
    total = sum(len(v) for v in sides.values())
    out.append(verdict(len(sides) == spec.network.sides and not wrong and not loose,
                       f"{len(sides)} sides x {len(symbols)} start nodes = {total} start nodes"
                       + "".join(f"; side {s} has {n}" for s, n in wrong.items())
                       + (f"; start nodes without side or symbol: {', '.join(loose)}" if loose else ""),
                       f"{RULE}: \"only 48 of the pawns will be used\""))
    problems = []
    for side, nodes in sides.items():
        got = [n.symbol for n in nodes]
        twice = sorted({x for x in got if got.count(x) > 1})
        if twice:
            problems.append(f"side {side} carries {' and '.join(twice)} twice")
        elif got != symbols:
            problems.append(f"side {side} reads {', '.join(map(str, got))}")
    out.append(verdict(not problems, f"every side has each of the {len(symbols)} symbols once, clockwise "
                       f"{', '.join(symbols)}" + (": " + "; ".join(problems) if problems else ""),
                       f"{RULE}: \"each side cannot contain the same symbol twice, and the symbols need to appear "
                       "in the same order\""))
    for label, cycle, rule in (("4-player", spec.side_colours, "\"marked with their color\""),
                               ("3-player full board", spec.full_board_3p, "\"a cyclic alternating of colors\"")):
        colours = colouring(spec, list(sides), cycle)
        counts = {c: list(colours.values()).count(c) for c in cycle}
        want = len(sides) / len(cycle) if cycle else 0
        out.append(verdict(bool(cycle) and all(n == want for n in counts.values()),
                           f"{label}: {' '.join(cycle)} cycle over {len(sides)} sides: {_count_line(counts)} sides",
                           f"{RULE}: {rule}"))
        stuck, longest = reachability(net, colours)
        groups = _groups(net, colours)
        out.append(verdict(not stuck and bool(groups), f"{label}: all copies of each of the {len(groups)} colour+symbol "
                           f"pairs reach each other through empty nodes at setup (longest {longest} steps)"
                           + (f"; cut off: {', '.join(stuck)}" if stuck else ""),
                           f"{RULE}: pawns of one colour and symbol must meet to match"))
    key = (lambda n: (n.kind, n.symbol))
    order = net.rotational_order(key, max_order=max(4, 4 * spec.network.sides))
    side_of = {n.id: n.side for n in net.nodes if n.kind == START}
    colours = colouring(spec, list(sides), spec.side_colours)
    perm = {}
    mapping = net.rotation_map(360.0 / order, key) if order > 1 else None
    if mapping:
        for sid, side in side_of.items():
            perm.setdefault(colours.get(side), set()).add(colours.get(side_of.get(mapping[sid])))
    renames = bool(perm) and all(len(v) == 1 for v in perm.values())
    cycle = " ".join(f"{a}->{next(iter(b))}" for a, b in sorted(perm.items()) if a) if renames else ""
    out.append(verdict(order >= 4, f"{order}-fold rotational symmetry (nodes, symbols and edges)"
                       + (f"; one step turns the colouring into itself with colours renamed ({cycle})" if renames else ""),
                       f"{DOC}: 4-fold (or better) rotational symmetry"))
    return out


def check_pieces(spec: NetMatchSpec) -> list[Finding]:
    """Pawn, token, palette, setup and card-box checks of docs/games/netmatch.md."""
    net = network_of(spec)
    n_col, n_sym, copies = len(spec.colours), len(spec.network.symbols), spec.pawn.copies
    out = [verdict(n_col * n_sym * copies == 64, f"{n_col * n_sym * copies} pawns = {n_col} colours x {n_sym} symbols "
                   f"x {copies} copies", f"{RULE}: \"64 feature pawns (4 copies of 4 symbols for each of the 4 colors)\""),
           verdict(n_col * n_sym == 16, f"{n_col * n_sym} letter tokens = {n_col} colours x {n_sym} symbols",
                   f"{RULE}: \"16 word tokens (4 symbols for each of the 4 colors)\"")]
    off = [c.hex for c in spec.colours if c.hex not in OKABE_ITO]
    letters = [c.letter for c in spec.colours]
    out.append(verdict(not off and len(set(letters)) == n_col and all(len(x) == 1 for x in letters),
                       f"colours {', '.join(f'{c.letter} {c.name} {c.hex}' for c in spec.colours)}: "
                       + (f"not in the Okabe-Ito palette: {', '.join(off)}" if off else "all Okabe-Ito")
                       + ", each with its own one-character letter", f"{DOC}: colour-blind-safe palette plus a letter",
                       warn=True))
    sides = list(net.start_nodes())
    setups = [("4 players", spec.side_colours, spec.side_colours, 1),
              ("3 players full board", spec.full_board_3p, spec.full_board_3p, 1),
              ("2 players full board", spec.side_colours, spec.side_colours, 2),
              ("3 players partial board", spec.side_colours, spec.side_colours[:3], 1),
              ("2 players partial board", spec.side_colours, spec.side_colours[:2], 1)]
    for label, cycle, playing, per_player in setups:
        colours = colouring(spec, sides, cycle)
        groups = {g: len(ids) for g, ids in _groups(net, colours).items() if g[0] in playing}
        need = max(groups.values(), default=0)
        placed = sum(groups.values())
        players = len(playing) // per_player
        out.append(verdict(0 < need <= copies, f"{label}: {players} players x {per_player} colour"
                           f"{'s' if per_player > 1 else ''}, {need} copies per colour+symbol (kit has {copies}), "
                           f"{placed} pawns placed, {need - 1} pairwise matches per letter",
                           f"{RULE}: game preparation and variations"))
    d = node_diameter(spec)
    gap = min((math.hypot(a.x - b.x, a.y - b.y) for i, a in enumerate(net.nodes) for b in net.nodes[i + 1:]),
              default=d + 1) - d
    out.append(verdict(gap >= 1.0, f"node circles {fmt_mm(d)} (pawn {fmt_mm(spec.pawn.diameter)} + 2 mm), "
                       f"at least {fmt_mm(gap)} apart", f"{DOC}: nodes big enough for a pawn"))
    bw, bh = card_box(spec)
    out.append(verdict(bw >= spec.card.width and bh >= spec.card.height,
                       f"{n_col} card boxes {fmt_mm(bw)} x {fmt_mm(bh)} hold a {fmt_mm(spec.card.width)} x "
                       f"{fmt_mm(spec.card.height)} word card", f"{RULE}: \"4 card boxes\""))
    return out


def check(spec: NetMatchSpec, ctx: KitContext) -> list[Finding]:
    """Every check of docs/games/netmatch.md: word list, network, pieces."""
    return check_words(spec, ctx) + check_network(spec) + check_pieces(spec)


GAME = Game("netmatch", "NetMatch", NetMatchSpec, components, check, __doc__.strip().splitlines()[0],
            inputs={"words": "word list: one four-letter word per card"})
