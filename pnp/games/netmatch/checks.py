"""NetMatch's validator: the checks of docs/games/netmatch.md on the word list, the network the
board draws, and the pieces."""
from __future__ import annotations

import math

from ...core.findings import Finding, verdict
from ...geometry.planargraph import START
from ...core.units import fmt_mm
from .wordlist import anagram_groups
from ...engine import KitContext
from .drawing import card_box
from .network import colouring, network_of, node_diameter, reachability, start_groups
from .spec import NetworkSpec, NetMatchSpec
from .words import word_list

RULE = "NetMatch rules (seed 003)"
DOC = "docs/games/netmatch.md"
OKABE_ITO = {"#e69f00": "orange", "#56b4e9": "sky blue", "#009e73": "bluish green", "#f0e442": "yellow",
             "#0072b2": "blue", "#d55e00": "vermillion", "#cc79a7": "reddish purple", "#000000": "black"}


def check_words(spec: NetMatchSpec, ctx: KitContext) -> list[Finding]:
    """Word-list checks of docs/games/netmatch.md: the card count and anagram groups. Four letters, no
    duplicates and printable glyphs are refused by the reader itself (pnp.games.netmatch.wordlist), with
    the file, line and word, before any check runs."""
    wl = word_list(spec, ctx)
    path = wl.path
    n = len(wl.words)
    out = []
    if not ctx.overridden("words") and spec.expected_words is not None:
        out.append(verdict(n == spec.expected_words, f"{n} word cards (spec expects {spec.expected_words})",
                           f"{RULE}: \"75 word cards\""))
    else:
        out.append(verdict(n > 0, f"{n} word cards from {path.name}", f"{RULE}: word cards (user list)"))
    groups = anagram_groups(wl.words)
    shown = "; ".join("/".join(g) for g in groups[:5]) + (" ..." if len(groups) > 5 else "")
    out.append(verdict(not groups, f"{len(groups)} anagram groups" + (f": {shown}" if groups else ""),
                       f"{DOC}: letter tokens reveal letters, not order", warn=True))
    return out


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
    elif not _same_graph(net, network_of(spec.model_copy(update={"network": NetworkSpec(spacing=spec.network.spacing)}))):
        what = (f"an explicit network of {len(net.nodes)} nodes and {len(net.edges)} edges"
                if spec.network.generator is None else
                f"a {spec.network.sides}-sided network of {len(net.nodes)} nodes and {len(net.edges)} edges")
        out.append(verdict(False, f"variant: {what} (the seed's board is the 12-sided design of 85 nodes and 168 "
                           "edges); the checks below are of this network", f"{DOC}: default graph", warn=True))
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
        groups = start_groups(net, colours)
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


def _same_graph(a, b) -> bool:
    """True when two networks have the same nodes (id, kind, side, symbol) and edges, wherever drawn."""
    def nodes(net):
        return {(n.id, n.kind, n.side, n.symbol) for n in net.nodes}
    return nodes(a) == nodes(b) and {frozenset(e) for e in a.edges} == {frozenset(e) for e in b.edges}


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
        groups = {g: len(ids) for g, ids in start_groups(net, colours).items() if g[0] in playing}
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

