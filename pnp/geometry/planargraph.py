"""Node-and-edge networks drawn in the plane: the NetMatch board.

A Network is nodes with positions (mm from the network's centre, y down, so increasing angle runs
clockwise on paper) and undirected edges between node ids. ``dodecagon()`` builds the default
NetMatch design of docs/games/netmatch.md: an outer ring of start nodes along the sides of a
regular polygon, an inner ring, a corner ring and a hub. Graph questions (connectivity, distances,
rotational symmetry) are answered here, so the validator and the drawing read the same data.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Hashable, Iterable

START, INNER, CORNER, HUB = "start", "inner", "corner", "hub"
KINDS = (START, INNER, CORNER, HUB)


@dataclass(frozen=True, eq=False)
class Node:
    """One node: ``id``, ``kind`` (start, inner, corner or hub), centre (x, y) in mm from the
    network centre, and for start nodes the ``side`` index and the ``symbol`` it takes."""
    id: str
    kind: str
    x: float
    y: float
    side: int | None = None
    symbol: str | None = None

    @property
    def angle(self) -> float:
        """Direction from the centre in degrees, clockwise on paper from the +x axis, in (-180, 180]."""
        return math.degrees(math.atan2(self.y, self.x))


@dataclass(frozen=True, eq=False)
class Network:
    """Nodes and undirected edges (pairs of node ids)."""
    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...]

    @cached_property
    def by_id(self) -> dict[str, Node]:
        return {n.id: n for n in self.nodes}

    @cached_property
    def adjacency(self) -> dict[str, set[str]]:
        """Neighbour ids of every node (edges naming unknown ids are ignored; see bad_edges)."""
        adj: dict[str, set[str]] = {n.id: set() for n in self.nodes}
        for a, b in self.edges:
            if a in adj and b in adj and a != b:
                adj[a].add(b)
                adj[b].add(a)
        return adj

    def bad_edges(self) -> list[tuple[str, str]]:
        """Edges that name an unknown node, join a node to itself, or repeat another edge."""
        seen, bad = set(), []
        for a, b in self.edges:
            key = frozenset((a, b))
            if a not in self.by_id or b not in self.by_id or a == b or key in seen:
                bad.append((a, b))
            seen.add(key)
        return bad

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        """adjacency with each node's neighbours sorted once (the order distances visits them in)."""
        return {n: tuple(sorted(near)) for n, near in self.adjacency.items()}

    def distances(self, source: str, passable: Callable[[str], bool] | None = None) -> dict[str, int]:
        """Steps from ``source`` to every node reachable through nodes for which ``passable`` holds
        (every node when None; the end node of a path need not be passable), in the order a
        breadth-first search visiting neighbours in sorted order reaches them."""
        dist = {source: 0}
        queue = deque([source])
        neighbours = self._neighbours
        while queue:
            here = queue.popleft()
            if passable is not None and here != source and not passable(here):
                continue
            step = dist[here] + 1
            for nxt in neighbours[here]:
                if nxt not in dist:
                    dist[nxt] = step
                    queue.append(nxt)
        return dist

    def components(self) -> list[list[str]]:
        """Connected components as sorted id lists, largest first."""
        left, out = set(self.by_id), []
        while left:
            part = set(self.distances(min(left)))
            out.append(sorted(part))
            left -= part
        return sorted(out, key=len, reverse=True)

    def diameter(self) -> int:
        """Longest shortest path in steps (of the component of each node)."""
        return max((max(self.distances(n.id).values()) for n in self.nodes), default=0)

    def start_nodes(self) -> dict[int, list[Node]]:
        """Start nodes per side, each side's list in clockwise order."""
        sides: dict[int, list[Node]] = {}
        for n in self.nodes:
            if n.kind == START and n.side is not None:
                sides.setdefault(n.side, []).append(n)
        for side, nodes in sides.items():
            mx, my = sum(n.x for n in nodes), sum(n.y for n in nodes)
            mid = math.atan2(my, mx)
            nodes.sort(key=lambda n: math.remainder(math.atan2(n.y, n.x) - mid, 2 * math.pi))
        return dict(sorted(sides.items()))

    def rotation_map(self, degrees: float, key: Callable[[Node], Hashable], tol: float = 0.5) -> dict[str, str] | None:
        """The node mapping of a rotation by ``degrees`` clockwise about the centre, when it maps
        every node onto a node with the same ``key`` (within ``tol`` mm) and every edge onto an
        edge; else None."""
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        cells: dict[tuple[int, int], list[Node]] = {}
        for n in self.nodes:
            cells.setdefault((round(n.x / tol), round(n.y / tol)), []).append(n)
        mapping = {}
        for n in self.nodes:
            x, y = n.x * c - n.y * s, n.x * s + n.y * c
            gx, gy = round(x / tol), round(y / tol)
            hits = [m for dx in (-1, 0, 1) for dy in (-1, 0, 1) for m in cells.get((gx + dx, gy + dy), [])
                    if math.hypot(m.x - x, m.y - y) <= tol and key(m) == key(n)]
            if len(hits) != 1:
                return None
            mapping[n.id] = hits[0].id
        if len(set(mapping.values())) != len(mapping):
            return None
        edges = {frozenset(e) for e in self.edges}
        if any(frozenset((mapping[a], mapping[b])) not in edges for a, b in self.edges
               if a in mapping and b in mapping):
            return None
        return mapping

    def rotational_order(self, key: Callable[[Node], Hashable], max_order: int = 360) -> int:
        """The largest k <= max_order such that rotating by 360/k degrees maps the network onto
        itself (nodes onto nodes with the same ``key``, edges onto edges); 1 when none does."""
        for k in range(max_order, 1, -1):
            if self.rotation_map(360.0 / k, key) is not None:
                return k
        return 1


def _polar(r: float, degrees: float) -> tuple[float, float]:
    return r * math.cos(math.radians(degrees)), r * math.sin(math.radians(degrees))


def corner_fraction(sides: int, per_side: int) -> float:
    """Where the first start node sits along its side (as a fraction of the side), chosen so the
    gap across a corner equals the gap between neighbours on a side."""
    return 1.0 / (2 * (per_side - 1) * math.cos(math.pi / sides) + 2) if per_side > 1 else 0.5


def polygon_radius(sides: int, per_side: int, spacing: float) -> float:
    """Circumradius (mm) of the polygon whose start nodes are ``spacing`` mm apart."""
    a = corner_fraction(sides, per_side)
    step = (1 - 2 * a) / (per_side - 1) if per_side > 1 else 1.0
    return spacing / (2 * step * math.sin(math.pi / sides))


def dodecagon(symbols: Iterable[str], sides: int = 12, inner_per_side: int = 2, corner_ring: bool = True,
              hub: bool = True, spacing: float = 16.0) -> Network:
    """The default NetMatch network (85 nodes and 168 edges for 12 sides of 4 symbols).

    - Outer ring: on each side of a regular ``sides``-gon, one start node per symbol in clockwise
      order, ``spacing`` mm apart (also across corners); the start nodes form one cycle.
    - Inner ring: ``inner_per_side`` nodes per side, each joined to its share of that side's
      consecutive start nodes; the inner nodes form one cycle.
    - Corner ring: one node per corner, joined to the inner nodes on either side of the corner;
      the corner nodes form one cycle.
    - Hub: one node joined to every corner node.
    Side 0 is at the top; sides are numbered clockwise. Node ids: s<side>.<i>, i<side>.<j>, c<k>, hub.

    Raises:
        ValueError: fewer than 3 sides, no symbols, or inner_per_side not dividing the symbols.
    """
    symbols = list(symbols)
    k = len(symbols)
    if sides < 3 or k < 1 or inner_per_side < 1 or k % inner_per_side:
        raise ValueError(f"cannot build a {sides}-sided network with {k} start nodes and {inner_per_side} "
                         "inner nodes per side (inner_per_side must divide the number of symbols)")
    R = polygon_radius(sides, k, spacing)
    a = corner_fraction(sides, k)
    step = (1 - 2 * a) / (k - 1) if k > 1 else 0.0
    half = 180.0 / sides
    nodes: list[Node] = []
    edges: list[tuple[str, str]] = []
    starts, inners = [], []
    r_side = R * math.cos(math.radians(half))
    r_inner = r_side - max(2.2 * spacing, 0.28 * R)
    r_corner = r_inner * 0.58
    for side in range(sides):
        centre = -90.0 + 360.0 * side / sides
        v0, v1 = _polar(R, centre - half), _polar(R, centre + half)
        row = [Node(f"s{side}.{i}", START, v0[0] + (v1[0] - v0[0]) * (a + i * step),
                    v0[1] + (v1[1] - v0[1]) * (a + i * step), side, sym) for i, sym in enumerate(symbols)]
        nodes.extend(row)
        starts.extend(n.id for n in row)
        share = k // inner_per_side
        for j in range(inner_per_side):
            group = row[j * share:(j + 1) * share]
            ang = math.degrees(math.atan2(sum(n.y for n in group), sum(n.x for n in group)))
            inner = Node(f"i{side}.{j}", INNER, *_polar(r_inner, ang))
            nodes.append(inner)
            inners.append(inner.id)
            edges.extend((g.id, inner.id) for g in group)
    for ring in (starts, inners):
        edges.extend((ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring)))
    if corner_ring:
        corners = []
        for side in range(sides):
            corner = Node(f"c{side}", CORNER, *_polar(r_corner, -90.0 + 360.0 * side / sides + half))
            nodes.append(corner)
            corners.append(corner.id)
            nxt = (side + 1) % sides
            edges.append((f"i{side}.{inner_per_side - 1}", corner.id))
            edges.append((corner.id, f"i{nxt}.0"))
        edges.extend((corners[i], corners[(i + 1) % sides]) for i in range(sides))
        if hub:
            nodes.append(Node("hub", HUB, 0.0, 0.0))
            edges.extend(("hub", c) for c in corners)
    return Network(tuple(nodes), tuple(edges))
