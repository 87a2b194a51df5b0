"""The seam search's strip counts (pnp.layout.tiling._Along) equal artwork.hits box by box: the
faster search must choose the same seams, labels and targets (issue 24, target 5)."""
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
