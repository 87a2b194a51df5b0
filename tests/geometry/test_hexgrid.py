"""Hex grid geometry against brute force written here and the rules docs' coordinate facts."""
import math
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from pnp.geometry import hexgrid

cells_st = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


@pytest.mark.parametrize("side", [1, 2, 3, 8])
def test_hex_hex_cell_counts(side):
    cells = hexgrid.hex_hex(side)
    brute = {(q, r) for q, r in product(range(-side, side + 1), repeat=2)
             if max(abs(q), abs(r), abs(q + r)) <= side - 1}
    assert set(cells) == brute and len(cells) == len(brute) == 3 * side * (side - 1) + 1


def test_hex_hex_rejects_bad_side():
    with pytest.raises(ValueError):
        hexgrid.hex_hex(0)


@settings(max_examples=60, deadline=None)
@given(cells_st)
def test_neighbour_of_neighbour_includes_the_cell(cell):
    for n in hexgrid.neighbours(cell):
        assert cell in hexgrid.neighbours(n)
        assert hexgrid.distance(cell, n) == 1
    assert len(set(hexgrid.neighbours(cell))) == 6


@settings(max_examples=60, deadline=None)
@given(cells_st)
def test_rotation_and_reflection_are_symmetries(cell):
    r = cell
    for _ in range(6):
        r = hexgrid.rotate60(r)
        assert hexgrid.distance(r, (0, 0)) == hexgrid.distance(cell, (0, 0))
    assert r == cell
    assert hexgrid.reflect(hexgrid.reflect(cell)) == cell


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 13), st.data())
def test_labels_round_trip(side, data):
    cell = data.draw(st.sampled_from(hexgrid.hex_hex(side)))
    assert hexgrid.parse_label(hexgrid.label(cell, side), side) == cell


def test_nooks_coordinate_rule():
    # docs/games/nooks.md: q = c - 8, r = 8 - row; corners a1 a8 h15 o15 o8 h1; centre h8
    assert hexgrid.parse_label("h8", 8) == (0, 0)
    assert hexgrid.parse_label("b8", 8) == (-6, 0) and hexgrid.parse_label("n8", 8) == (6, 0)
    assert hexgrid.parse_label("j12", 8) == (2, -4)
    corners = {hexgrid.label(c, 8) for c in hexgrid.corners(8)}
    assert corners == {"a1", "a8", "h15", "o15", "o8", "h1"}
    for bad in ("a9", "p8", "h0", "88", "", "i1"):
        with pytest.raises(ValueError):
            hexgrid.parse_label(bad, 8)


@pytest.mark.parametrize("pointy", [True, False])
def test_layout_neighbours_one_pitch_apart(pointy):
    pitch = 19.0
    for cell in hexgrid.hex_hex(3):
        a = hexgrid.center(cell, pitch, pointy)
        for n in hexgrid.neighbours(cell):
            b = hexgrid.center(n, pitch, pointy)
            assert math.dist(a, b) == pytest.approx(pitch, abs=1e-9)
        corners = hexgrid.hex_corners(*a, pitch, pointy)
        flats = [math.dist(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), a) for p, q in zip(corners, corners[1:] + corners[:1])]
        assert all(f == pytest.approx(pitch / 2) for f in flats)
    # pointy-top: a row of equal r is horizontal
    ys = {round(hexgrid.center((q, 2), pitch, True)[1], 9) for q in range(-3, 3)}
    assert len(ys) == 1


def test_lines_match_brute_force_side3():
    cells = hexgrid.hex_hex(3)
    for n in (2, 3, 4, 5):
        got = sorted(hexgrid.lines(n, cells))
        brute = set()
        for (q, r), (dq, dr) in product(cells, [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]):
            run = [(q + dq * i, r + dr * i) for i in range(n)]
            if all(c in cells for c in run):
                brute.add(frozenset(run))
        assert len(got) == len(set(map(frozenset, got))) == len(brute)


def test_line_ends_and_adjacency_side3():
    cells = hexgrid.hex_hex(3)
    rows = hexgrid.line_ends(cells, (1, 0))
    assert len(rows) == 5 and sorted(hexgrid.distance(a, b) + 1 for a, b in rows) == [3, 3, 4, 4, 5]
    assert len(hexgrid.adjacent_pairs(cells)) == sum(len(hexgrid.neighbours(c, cells)) for c in cells) // 2
    assert hexgrid.is_connected(cells) and not hexgrid.is_connected([(0, 0), (2, 0)])


def test_canonical_shapes_of_three_cells():
    line = [(0, 0), (1, 0), (2, 0)]
    assert hexgrid.canonical_shape(line) == hexgrid.canonical_shape([(0, 0), (0, 1), (0, 2)])
    assert hexgrid.canonical_shape(line) != hexgrid.canonical_shape([(0, 0), (1, 0), (0, 1)])
