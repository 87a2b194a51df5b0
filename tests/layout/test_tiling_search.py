"""The seam search's strip counts (pnp.layout.tiling._Along) equal artwork.hits box by box: the
faster search must choose the same seams, labels and targets."""
import random

from pnp.layout import artwork
from pnp.layout.tiling import _Along


def _boxes(rng: random.Random, n: int, inverted: bool = False) -> list[tuple[float, float, float, float]]:
    out = []
    for _ in range(n):
        x, y = rng.uniform(0, 300), rng.uniform(0, 300)
        w, h = rng.choice([0.0, 0.25, 1.0]) or rng.uniform(0, 12), rng.uniform(0, 12)
        out.append((x + w, y + h, x, y) if inverted and rng.random() < 0.3 else (x, y, x + w, y + h))
    return out


def test_strip_counts_equal_artwork_hits_for_every_candidate():
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
    from pnp.layout.tiling import _best
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
    from pnp.layout.tiling import _best
    busy = lambda v: 0 if v >= 90.0 else 3 if v > 40 else 1   # noqa: E731
    assert _best(0.0, 100.0, 50.0, busy) == 90.0
    assert _best(0.0, 100.0, 50.0, lambda v: 2) == 50.0        # all equal: want itself
    assert _best(0.0, 10.0, 5.1, lambda v: 1) == 5.1
    assert _best(0.0, 10.0, 5.125, lambda v: 0 if v != 5.125 else 1) == 5.0   # a tie: the first in the list
    assert _best(5.0, 4.0, 4.5, busy) is None


def test_join_line_cost_counts_corners_as_artwork_hits_does():
    """tiling._crossing counts the marks at each corner (where the join line meets a line across)
    with a sweep; the count must be artwork.hits's on the point, with its 2 mm clearance."""
    from pnp.layout.tiling import LABEL_CLEAR, _crossing
    rng = random.Random(31)
    for trial in range(40):
        found = artwork.Marks(())
        found.texts, found.shapes = _boxes(rng, rng.randint(0, 40)), _boxes(rng, rng.randint(0, 40))
        found.all = found.texts + found.shapes
        across = tuple(rng.choice([rng.uniform(0, 300), 100.0]) for _ in range(rng.randint(0, 3)))
        cost = _crossing(found, across)
        for i in range(150):
            at = rng.choice([i * 0.25, rng.uniform(-5, 305)])
            corners = sum(artwork.hits((at, a, at, a), found.all, 2.0) for a in across)
            expected = (10 * artwork.hits((at, -1e9, at, 1e9), found.texts, LABEL_CLEAR)
                        + artwork.hits((at, -1e9, at, 1e9), found.shapes, 0.5) + 5 * corners)
            assert cost(at) == expected, (trial, at)
