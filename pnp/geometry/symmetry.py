"""Patterns on an n x n grid up to a symmetry group: canonical forms, orbits and Burnside counts.

A pattern is a bitmask over the n*n cells with bit index ``n*row + col``. The groups are C4 (the
four rotations) and D4 (rotations and reflections). Burnside's lemma counts orbits as the average
number of patterns fixed by a group element; it is computed from cycle structures alone, so it is
an independent check on the enumeration.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb

GROUPS = ("C4", "D4")


@lru_cache(maxsize=None)
def group_permutations(n: int, group: str) -> tuple[tuple[int, ...], ...]:
    """The group's elements as cell permutations: ``perm[i]`` is where cell i goes.

    Identity first, then rotations by 90, 180, 270 degrees clockwise; D4 adds the four reflections.

    Raises:
        ValueError: unknown group.
    """
    if group not in GROUPS:
        raise ValueError(f"unknown symmetry group {group!r}; use C4 or D4")

    def rot(r, c):
        return c, n - 1 - r

    def mirror(r, c):
        return r, n - 1 - c

    perms = []
    for flips in ((False, True) if group == "D4" else (False,)):
        for turns in range(4):
            perm = []
            for i in range(n * n):
                r, c = divmod(i, n)
                if flips:
                    r, c = mirror(r, c)
                for _ in range(turns):
                    r, c = rot(r, c)
                perm.append(n * r + c)
            perms.append(tuple(perm))
    return tuple(perms)


def apply(mask: int, perm: tuple[int, ...]) -> int:
    """The pattern ``mask`` moved by the permutation ``perm``."""
    out = 0
    for i, j in enumerate(perm):
        if mask >> i & 1:
            out |= 1 << j
    return out


def orbit(mask: int, n: int, group: str) -> frozenset[int]:
    """All images of ``mask`` under the group."""
    return frozenset(apply(mask, p) for p in group_permutations(n, group))


def canonical(mask: int, n: int, group: str) -> int:
    """The smallest mask in the orbit of ``mask``: its canonical form."""
    return min(orbit(mask, n, group))


@lru_cache(maxsize=None)
def byte_tables(n: int, group: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each non-identity group element, one 256-entry table per byte of the mask:
    ``table[c][v]`` is the image of the bits ``v << 8c``. Applying an element is then one lookup per byte."""
    out = []
    for perm in group_permutations(n, group)[1:]:
        chunks = []
        for c in range((n * n + 7) // 8):
            chunks.append(tuple(apply(v << (8 * c), perm) for v in range(256)))
        out.append(tuple(chunks))
    return tuple(out)


VECTOR_THRESHOLD = 50_000  # subsets; above this the NumPy path is used


def enumerate_classes(n: int, k: int, group: str) -> list[int]:
    """Canonical masks of all n x n patterns with k black cells, one per orbit, ascending.

    Visits all C(n*n, k) subsets and keeps each whose mask is the minimum of its orbit. Large
    cases (more than VECTOR_THRESHOLD subsets) run the same test vectorised with NumPy.
    """
    if comb(n * n, k) > VECTOR_THRESHOLD:
        return _enumerate_vectorised(n, k, group)
    tables = byte_tables(n, group)
    nbytes = (n * n + 7) // 8
    out = []
    for cells in combinations(range(n * n), k):
        mask = 0
        for c in cells:
            mask |= 1 << c
        for table in tables:
            image = 0
            for c in range(nbytes):
                image |= table[c][(mask >> (8 * c)) & 255]
            if image < mask:
                break
        else:
            out.append(mask)
    return sorted(out)


def _enumerate_vectorised(n: int, k: int, group: str, block_bits: int = 22) -> list[int]:
    import numpy as np  # numpy: imported when first needed, never at start-up
    cells = n * n
    if cells > 62:
        raise ValueError("grids larger than 7 x 7 are not supported")
    dtype = np.uint64
    tables = [[np.array(t, dtype=dtype) for t in chunks] for chunks in byte_tables(n, group)]
    popcount = np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8)
    found = []
    block = 1 << min(block_bits, cells)
    for start in range(0, 1 << cells, block):
        masks = np.arange(start, start + block, dtype=dtype)
        count = np.zeros(block, dtype=np.uint8)
        for c in range((cells + 7) // 8):
            count += popcount[(masks >> dtype(8 * c)) & dtype(255)]
        masks = masks[count == k]
        for chunks in tables:
            image = np.zeros_like(masks)
            for c, table in enumerate(chunks):
                image |= table[(masks >> dtype(8 * c)) & dtype(255)]
            masks = masks[image >= masks]
        found.append(masks)
    return [int(m) for m in np.concatenate(found)] if found else []


def _cycle_lengths(perm: tuple[int, ...]) -> list[int]:
    seen, lengths = set(), []
    for start in range(len(perm)):
        if start in seen:
            continue
        length, i = 0, start
        while i not in seen:
            seen.add(i)
            i = perm[i]
            length += 1
        lengths.append(length)
    return lengths


def fixed_count(perm: tuple[int, ...], k: int) -> int:
    """How many k-cell patterns the permutation fixes: ways to pick whole cycles totalling k cells."""
    ways = [1] + [0] * k
    for length in _cycle_lengths(perm):
        for total in range(k, length - 1, -1):
            ways[total] += ways[total - length]
    return ways[k]


def burnside_terms(n: int, k: int, group: str) -> list[int]:
    """Patterns fixed by each group element (same order as group_permutations)."""
    return [fixed_count(p, k) for p in group_permutations(n, group)]


def burnside_count(n: int, k: int, group: str) -> int:
    """Number of orbits by Burnside's lemma: the mean of burnside_terms. Independent of enumeration."""
    terms = burnside_terms(n, k, group)
    total = sum(terms)
    assert total % len(terms) == 0, "Burnside sum must divide by the group order"
    return total // len(terms)


def symmetry_order(mask: int, n: int, group: str) -> int:
    """Size of the stabiliser: how many group elements leave ``mask`` unchanged."""
    return sum(1 for p in group_permutations(n, group) if apply(mask, p) == mask)
