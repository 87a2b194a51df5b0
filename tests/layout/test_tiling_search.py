"""The seam search: where plan_board puts a board's join lines among its playing marks. Its strip
counts (pnp.layout.tiling._Along) and its nearest-first search (_best) are each checked against a
brute force, through the private names: a public call sees only the seam chosen, and cannot
set up thousands of random candidate intervals one by one (the speed-up's correctness is
per candidate, not per board)."""
import random

import numpy as np

from pnp.core.ir import Circle, Component, Polygon, Rect, Text
from pnp.layout import artwork
from pnp.layout.paper import load_sheet
from pnp.layout.tiling import DEFAULT_OVERLAP, LABEL_CLEAR, _Along, _best, plan_board


def _boxes(rng: random.Random, n: int, inverted: bool = False) -> list[tuple[float, float, float, float]]:
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, 300), rng.uniform(0, 300)
        w, h = rng.choice([0.0, 0.25, 1.0]) or rng.uniform(0, 12), rng.uniform(0, 12)
        out.append((x + w, y + h, x, y) if inverted and rng.random() < 0.3 else (x, y, x + w, y + h))
    return out


def test_strip_counts_equal_artwork_hits_for_every_candidate():
    """_Along (private: plan_board shows only the seams it chose, never a count for a candidate) gives
    artwork.hits's count for 12,000 random strips and intervals."""
    rng = random.Random(24)
    checked = 0
    for trial in range(60):
        marks = _boxes(rng, rng.randint(0, 80), inverted=trial % 3 == 0)
        x0 = rng.choice([0.0, 100.0, rng.uniform(0, 300)])
        x1 = x0 + rng.choice([0.0, 2.5, rng.uniform(0, 20)])
        clear = rng.choice([0.0, 0.5, 1.0])
        along = _Along(marks, x0, x1, clear)
        for i in range(200):
            v0 = rng.choice([i * 0.25, rng.uniform(-5, 305)])   # grid points land on box edges too
            v1 = v0 + rng.choice([6.0, 0.0, -1.0, rng.uniform(0, 30)])
            assert along.hits(v0, v1) == artwork.hits((x0, v0, x1, v1), marks, clear), (trial, v0, v1)
            checked += 1
    assert checked == 60 * 200


def test_strip_counts_see_a_mark_on_the_strip_and_not_one_beside_it():
    """_Along (private, as above): a mark on the strip counts, with its clearance; one beside it does not."""
    on, beside = (10.0, 50.0, 12.0, 60.0), (30.0, 50.0, 32.0, 60.0)
    along = _Along([on, beside], 9.0, 13.0, 1.0)
    assert along.hits(55.0, 56.0) == 1      # crosses `on` only
    assert along.hits(61.5, 70.0) == 0      # past its end plus clearance
    assert along.hits(60.5, 70.0) == 1      # within the 1 mm clearance


def _best_by_brute_force(lo, hi, want, cost):
    """The search as first written: every candidate costed, the cheapest, then the nearest, then
    the first in the list."""
    if hi < lo:
        return None
    cands = [lo + i * 0.25 for i in range(int((hi - lo) / 0.25) + 1)] + [min(max(want, lo), hi)]
    costs = [cost(v) for v in cands]
    least = min(costs)
    return min((v for v, c in zip(cands, costs) if c == least), key=lambda v: round(abs(v - want), 6))


def _step_cost(rng: random.Random):
    """A cost like the seam search's: a count of marks, each over an interval, some with weights."""
    spans = [(a, a + rng.choice([0.25, 0.5, rng.uniform(0, 30)]), rng.choice([1, 1, 10, 100]))
             for a in (rng.uniform(-10, 310) for _ in range(rng.randint(0, 40)))]
    base = rng.choice([0, 0, 0, 1, 0.5])   # sometimes nothing is free
    return lambda v: base + sum(w for a, b, w in spans if a < v < b)


def test_nearest_first_search_chooses_what_costing_every_candidate_chose():
    """_best (private: a public call cannot hand it a cost function) chooses what costing every
    candidate chose, for 3,000 random ranges and step costs."""
    rng = random.Random(2424)
    zero = 0
    for trial in range(3000):
        lo = rng.choice([0.0, 12.5, rng.uniform(-20, 300)])
        hi = lo + rng.choice([-1.0, 0.0, 0.1, 0.25, 0.75, rng.uniform(0, 250)])
        # want inside, outside, on a step, exactly between two steps, 1e-7 off a step
        step = lo + 0.25 * rng.randint(0, 1000)
        want = rng.choice([rng.uniform(lo - 30, hi + 30), step, step + 0.125, step + 1e-7, step - 1e-7, lo, hi])
        cost = _step_cost(rng)
        got, expected = _best(lo, hi, want, cost), _best_by_brute_force(lo, hi, want, cost)
        assert got == expected, (trial, lo, hi, want, got, expected)
        zero += expected is not None and cost(expected) == 0
    assert zero > 500   # the early stop was exercised, and so were searches where it never fires


def test_nearest_first_search_finds_the_free_spot_far_from_want_when_near_is_busy():
    """_best (private, as above): a free spot far away beats a busy one near; ties go to the first."""
    busy = lambda v: 0 if v >= 90.0 else 3 if v > 40 else 1   # noqa: E731
    assert _best(0.0, 100.0, 50.0, busy) == 90.0
    assert _best(0.0, 100.0, 50.0, lambda v: 2) == 50.0        # all equal: want itself
    assert _best(0.0, 10.0, 5.1, lambda v: 1) == 5.1
    assert _best(0.0, 10.0, 5.125, lambda v: 0 if v != 5.125 else 1) == 5.0   # a tie: the first in the list
    assert _best(5.0, 4.0, 4.5, busy) is None


def test_a_sweep_counts_what_artwork_hits_counts_on_a_full_height_line():
    """artwork.Sweep (the join line's counter) gives artwork.hits's count for a vertical line as long
    as the drawing, for random boxes, clearances and positions (grid points land on box edges too)."""
    rng = random.Random(31)
    for trial in range(40):
        boxes = [tuple(round(v * 4) / 4 for v in b) if rng.random() < 0.5 else b  # edges on the grid too
                 for b in _boxes(rng, rng.randint(0, 80))]
        clear = rng.choice([0.5, LABEL_CLEAR])  # the clearances the join line's cost uses
        sweep = artwork.Sweep(boxes, clear)
        for i in range(150):
            at = rng.choice([i * 0.25, rng.uniform(-5, 305)])
            assert sweep(at) == artwork.hits((at, -1e9, at, 1e9), boxes, clear), (trial, at)


# The join line's cost, through plan_board: a 300 x 400 mm board on A4 is tiled 2 x 2, its join lines
# (with no marks) at x = 147.5 and y = 197.5, each free to move some 30 mm either way.
BOARD_W, BOARD_H = 300.0, 400.0


def _tiled(*items):
    """plan_board's tiling of the board with ``items`` drawn on its front (A4, the default overlap)."""
    t = plan_board(Component("board", BOARD_W, BOARD_H, [tuple(items)], board=True), load_sheet("a4"),
                   DEFAULT_OVERLAP)
    assert (t.mode, t.cols, t.rows) == ("tiled", 2, 2)
    return t


def _square(x: float, y: float, side: float = 4.0) -> Polygon:
    """A small filled square (a playing mark: no larger than artwork.MARK_MAX), top-left (x, y) mm."""
    return Polygon(((x, y), (x + side, y), (x + side, y + side), (x, y + side)), fill="#000000", stroke=None)


def test_a_join_line_keeps_its_clearance_from_a_label():
    """A label across the join line's place: the line moves to the nearest spot LABEL_CLEAR mm clear
    of the label's ink box (within one 0.25 mm step of it)."""
    (nx,) = _tiled().x.joins
    label = Text(nx, 300.0, "Forest", size_pt=10, anchor="middle")
    x0, _, x1, _ = artwork.Marks((label,)).texts[0]
    (jx,) = _tiled(label).x.joins
    assert jx <= x0 - LABEL_CLEAR or jx >= x1 + LABEL_CLEAR, (jx, x0, x1)
    assert min(abs(jx - (x0 - LABEL_CLEAR)), abs(jx - (x1 + LABEL_CLEAR))) <= 0.25 + 1e-9


def test_a_join_line_crosses_a_label_only_to_spare_more_than_ten_marks():
    """Where no spot is clear, crossing a label costs as much as crossing ten small marks: a long label
    from just left of the line's place to past the end of its range, and to its left rows of small
    squares wall to wall. With 9 rows the line goes among the squares (crossing 9, clear of the label),
    with 11 it stays where it was, on the label."""
    (nx,) = _tiled().x.joins
    label = Text(nx - 3.0, 300.0, "Hills and rivers of the north", size_pt=12)
    x0, _, x1, _ = artwork.Marks((label,)).texts[0]
    assert x1 > nx + 50.0  # past the line's range
    for rows, moves in ((9, True), (11, False)):
        squares = [_square(x, 20.0 + 10.0 * r) for r in range(rows) for x in np.arange(60.0, x0 - LABEL_CLEAR, 4.0)]
        found = artwork.Marks(tuple(squares) + (label,))
        (jx,) = _tiled(*squares, label).x.joins
        on_label = artwork.hits((jx, -1e9, jx, 1e9), found.texts, LABEL_CLEAR)
        crossed = artwork.hits((jx, -1e9, jx, 1e9), found.shapes, 0.5)
        if moves:
            assert (on_label, crossed) == (0, rows) and jx < nx, (jx, on_label, crossed)
        else:
            assert jx == nx and on_label == 1, (jx, on_label, crossed)


def test_a_join_line_moves_out_of_a_card_box():
    """A stroked box larger than a mark (a card frame) counts as a label: the line leaves it, with
    0.5 mm to spare, at its nearer side."""
    (nx,) = _tiled().x.joins
    frame = Rect(nx - 10.0, 250.0, 24.0, 35.0, stroke="#000000")
    (jx,) = _tiled(frame).x.joins
    assert nx - 10.75 <= jx <= nx - 10.5, jx


def test_a_seam_keeps_marks_off_its_corners():
    """Where the two join lines meet, four pieces stack: a mark within 2 mm of that corner moves the
    across line (y) away, though the mark is 1.5 mm off the line, which would not count elsewhere on it."""
    t = _tiled()
    (nx,), (ny,) = t.x.joins, t.y.joins
    at_corner = Circle(nx + 1.25, ny + 1.5, 0.25, fill="#000000", stroke=None)
    elsewhere = Circle(nx + 40.0, ny + 1.5, 0.25, fill="#000000", stroke=None)
    assert _tiled(elsewhere).y.joins == (ny,)
    moved = _tiled(at_corner)
    assert moved.x.joins == (nx,)  # 1 mm from the mark: the down line does not move
    (jy,) = moved.y.joins
    assert jy <= ny + 1.25 - 2.0 or jy >= ny + 1.75 + 2.0, jy
