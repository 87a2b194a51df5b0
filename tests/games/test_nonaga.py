"""Nonaga: discs, pawns and the setup sheet read back from the PDF; win shapes counted here."""
import math
from collections import Counter
from itertools import combinations

import pytest

from boardread import circles, dist, inside_any, page_tiles, placements
from conftest import open_pdf, pdf_of
from pnp.games.nonaga import GAME, NonagaSpec, win_shapes
from pnp.engine import KitContext
from pnp.pipeline.plan import load_target

RED, BLACK = (0.776, 0.157, 0.157), (0.106, 0.106, 0.106)


def _parts(result, paper, name, diameter):
    out = []
    with open_pdf(pdf_of(result)) as pdf:
        for index, boxes in placements("nonaga", paper, name).items():  # sheets are shared: only this part's
            out += [c for c in circles(pdf.pages[index]) if c[4] and abs(c[2] - diameter) < 0.05
                    and inside_any(c[0], c[1], boxes)]
    return out


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_discs_and_pawns_have_their_diameters(built, paper):
    result = built("nonaga", paper)
    assert len(_parts(result, paper, "disc", 35.0)) == 19
    pawns = Counter(c[3] for c in _parts(result, paper, "pawn", 20.0))
    assert pawns == {RED: 3, BLACK: 3}


def test_setup_sheet_is_the_side3_hexagon_with_alternating_pawns(built):
    result = built("nonaga", "a4")
    (index, tile, placement), = page_tiles("nonaga", "a4", "setup sheet")
    assert tile is None  # fits one A4 page
    with open_pdf(pdf_of(result)) as pdf:  # the sheet only: other parts may share its page
        found = [c for c in circles(pdf.pages[index]) if inside_any(c[0], c[1], [(placement.x, placement.y, placement.w, placement.h)])]
    discs = [c for c in found if c[4] and abs(c[2] - 35.0) < 0.05]
    pawns = [c for c in found if c[4] and abs(c[2] - 20.0) < 0.05]
    assert len(discs) == 19 and len(pawns) == 6
    touching = [(a, b) for a, b in combinations(discs, 2) if dist(a, b) < 36]
    assert len(touching) == 42 and all(abs(dist(a, b) - 35.0) < 0.1 for a, b in touching)
    degree = Counter()
    for a, b in touching:
        degree[a[:2]] += 1
        degree[b[:2]] += 1
    corners = [d[:2] for d in discs if degree[d[:2]] == 3]
    assert len(corners) == 6
    for p in pawns:
        assert min(dist(p, c) for c in corners) < 0.1
    # alternate colours going round the centre
    cx = sum(d[0] for d in discs) / 19
    cy = sum(d[1] for d in discs) / 19
    ring = sorted(pawns, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    assert all(ring[i][3] != ring[(i + 1) % 6][3] for i in range(6))


def test_win_shapes_brute_force():
    # every connected 3-cell set on a side-3 board, classified here by its shape: a triangle
    # (pairwise adjacent), a line (ends 2 apart, collinear) or a tick (ends 2 apart, bent)
    cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    steps = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}

    def adjacent(a, b):
        return (a[0] - b[0], a[1] - b[1]) in steps

    kinds = set()
    for trio in combinations(cells, 3):
        links = [adjacent(a, b) for a, b in combinations(trio, 2)]
        if sum(links) == 3:
            kinds.add("triangle")
        elif sum(links) == 2:
            mid = next(c for c in trio if sum(adjacent(c, o) for o in trio if o != c) == 2)
            a, b = (c for c in trio if c != mid)
            kinds.add("line" if (a[0] + b[0], a[1] + b[1]) == (2 * mid[0], 2 * mid[1]) else "tick")
    assert kinds == {"triangle", "line", "tick"}
    assert len(win_shapes()) == len(kinds)


def test_validator_passes_and_reports_numbers():
    loaded = load_target("nonaga")
    findings = GAME.check(loaded.spec, KitContext(loaded.path))
    assert all(f.status == "pass" for f in findings)
    text = " | ".join(f.check for f in findings)
    assert "19 cells" in text and "42 adjacent pairs" in text and "6 corner discs" in text
    bad = GAME.check(NonagaSpec(game="nonaga", discs=18), KitContext(loaded.path))
    assert sum(f.status == "fail" for f in bad) == 1
    import pydantic
    with pytest.raises(pydantic.ValidationError, match="not smaller than a disc"):
        NonagaSpec(game="nonaga", pawn=40)  # a pawn larger than its disc is refused as bad input
