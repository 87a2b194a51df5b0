"""The enumerator against Burnside's lemma and against a brute-force orbit partition written here."""
from itertools import combinations
from math import comb

import pytest

from pnp.geometry.symmetry import burnside_count, canonical, enumerate_classes


def _rotate(cells, n):
    return frozenset((c, n - 1 - r) for r, c in cells)


def _mirror(cells, n):
    return frozenset((r, n - 1 - c) for r, c in cells)


def brute_orbits(n, k, group):
    """Partition all k-subsets of the n x n grid into orbits by applying generators until closed."""
    seen, orbits = set(), 0
    for cells in combinations([(r, c) for r in range(n) for c in range(n)], k):
        s = frozenset(cells)
        if s in seen:
            continue
        orbits += 1
        stack = [s]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            stack.append(_rotate(x, n))
            if group == "D4":
                stack.append(_mirror(x, n))
    return orbits


@pytest.mark.parametrize("group", ["C4", "D4"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_enumerator_agrees_with_burnside_for_every_k(n, group):
    for k in range(n * n + 1):
        classes = enumerate_classes(n, k, group)
        assert len(classes) == burnside_count(n, k, group), (n, k, group)
        assert len(set(classes)) == len(classes)


@pytest.mark.parametrize("n,k,group", [(3, 4, "C4"), (3, 4, "D4"), (3, 5, "C4"), (4, 6, "C4"), (4, 5, "D4")])
def test_counts_match_brute_force(n, k, group):
    assert len(enumerate_classes(n, k, group)) == brute_orbits(n, k, group)


def test_nonads_numbers_from_the_rules():
    assert brute_orbits(3, 4, "C4") == 34 and brute_orbits(3, 4, "D4") == 23
    assert comb(9, 4) == 126


def test_canonical_is_orbit_minimum():
    for m in enumerate_classes(3, 4, "C4"):
        assert canonical(m, 3, "C4") == m
