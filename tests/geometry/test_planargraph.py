"""Graph questions of pnp.geometry.planargraph on random networks, against plain references."""
import random
from collections import deque

from pnp.geometry.planargraph import Network, Node


def _random_network(rng: random.Random) -> Network:
    n = rng.randint(1, 30)
    ids = [f"n{i}" for i in range(n)]
    nodes = tuple(Node(i, "inner", rng.uniform(-50, 50), rng.uniform(-50, 50)) for i in ids)
    edges = tuple((rng.choice(ids), rng.choice(ids)) for _ in range(rng.randint(0, 2 * n)))
    return Network(nodes, edges + (("n0", "unknown"),))


def _bfs(net: Network, source: str, passable) -> dict[str, int]:
    """The search as first written: neighbours sorted at every visit."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        if here != source and not passable(here):
            continue
        for nxt in sorted(net.adjacency[here]):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def _floyd(net: Network) -> dict[tuple[str, str], int]:
    ids = [n.id for n in net.nodes]
    inf = len(ids) + 1
    d = {(a, b): 0 if a == b else (1 if b in net.adjacency[a] else inf) for a in ids for b in ids}
    for k in ids:
        for a in ids:
            for b in ids:
                if d[a, k] + d[k, b] < d[a, b]:
                    d[a, b] = d[a, k] + d[k, b]
    return {key: v for key, v in d.items() if v < inf}


def test_distances_equal_all_pairs_shortest_paths_and_the_plain_search():
    rng = random.Random(5)
    for _ in range(150):
        net = _random_network(rng)
        pairs = _floyd(net)
        blocked = {n.id for n in net.nodes if rng.random() < 0.3}
        for node in net.nodes:
            got = net.distances(node.id)
            assert got == {b: v for (a, b), v in pairs.items() if a == node.id}
            assert list(got.items()) == list(_bfs(net, node.id, lambda _: True).items())   # same order too
            passable = blocked.__contains__
            assert list(net.distances(node.id, lambda x: not passable(x)).items()) == \
                list(_bfs(net, node.id, lambda x: not passable(x)).items())
        assert net.diameter() == max((v for v in pairs.values()), default=0)
