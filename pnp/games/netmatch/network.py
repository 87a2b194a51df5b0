"""NetMatch's board network as maths: the network the spec describes, side colourings, and which
pawns can reach each other at setup. Shared by the board drawing and the validator."""
from __future__ import annotations

from ...core.errors import SpecError
from ...geometry.planargraph import Network, Node, dodecagon
from .spec import NetMatchSpec


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


def start_groups(net: Network, colours: dict[int, str]) -> dict[tuple[str, str], list[str]]:
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
    groups = start_groups(net, colours)
    owner = {i: g for g, ids in groups.items() for i in ids}
    stuck, longest = [], 0
    for g, ids in sorted(groups.items()):
        dist = net.distances(ids[0], lambda node, g=g: owner.get(node, g) == g)
        if any(i not in dist for i in ids):
            stuck.append(f"{g[0]} {g[1]}")
        else:
            longest = max([longest] + [dist[i] for i in ids])
    return stuck, longest
