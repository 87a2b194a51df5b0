"""Read the Nonads PDF back: find the black and white cells drawn and rebuild the tiles from them."""
from collections import defaultdict
from itertools import combinations

import pytest

from conftest import filled_rects, open_pdf, pdf_of


def _rotations(cells):
    out, cur = [], frozenset(cells)
    for _ in range(4):
        out.append(cur)
        cur = frozenset((c, 2 - r) for r, c in cur)
    return out


def _tiles_from_pdf(path):
    """Group 10 mm cell fills into 3x3 tiles by their positions; return each tile's black cells."""
    tiles = []
    with open_pdf(path) as pdf:
        for page in pdf.pages[1:]:
            cells = [r + (False,) for r in filled_rects(page, (1.0, 1.0, 1.0))] + \
                    [r + (True,) for r in filled_rects(page, (0.0, 0.0, 0.0))]
            cells = [c for c in cells if abs(c[2] - 10) < 0.1 and abs(c[3] - 10) < 0.1]
            assert len(cells) % 9 == 0
            xs = sorted({round(c[0], 1) for c in cells})
            ys = sorted({round(c[1], 1) for c in cells})
            # a tile starts at every third distinct column / row edge: gutters separate the tiles
            groups = defaultdict(set)
            for x, y, w, h, black in cells:
                col, row = xs.index(round(x, 1)), ys.index(round(y, 1))
                groups[(col // 3, row // 3)].add(((row % 3, col % 3), black))
            for key in sorted(groups, key=lambda k: (k[1], k[0])):
                g = groups[key]
                assert len(g) == 9
                tiles.append(frozenset(rc for rc, black in g if black))
    return tiles


def test_pdf_holds_34_distinct_tiles(built):
    tiles = _tiles_from_pdf(pdf_of(built("nonads")))
    assert len(tiles) == 34
    assert all(len(t) == 4 for t in tiles)
    for a, b in combinations(tiles, 2):
        assert b not in _rotations(a)
    # complete: every 4-subset of the 9 cells is a rotation of exactly one printed tile
    all_cells = [(r, c) for r in range(3) for c in range(3)]
    for subset in combinations(all_cells, 4):
        hits = sum(frozenset(subset) in _rotations(t) for t in tiles)
        assert hits == 1


@pytest.mark.parametrize("paper,size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_tile_trim_is_30mm_and_paper_is_right(built, paper, size):
    with open_pdf(pdf_of(built("nonads", paper))) as pdf:
        for page in pdf.pages:
            assert page.width * 25.4 / 72 == pytest.approx(size[0], abs=0.05)
            assert page.height * 25.4 / 72 == pytest.approx(size[1], abs=0.05)
        outlines = [r for r in pdf.pages[1].rects if r.get("stroke") and not r.get("fill")]
        sizes = {(round((r["x1"] - r["x0"]) * 25.4 / 72, 1), round((r["bottom"] - r["top"]) * 25.4 / 72, 1))
                 for r in outlines}
        assert (30.0, 30.0) in sizes
        tile_outlines = [r for r in outlines if abs((r["x1"] - r["x0"]) * 25.4 / 72 - 30) < 0.1]
        assert len(tile_outlines) == 34 or len(pdf.pages) > 2


def test_custom_spec_path_builds(tmp_path):
    from pnp.pipeline.execute import build_kit
    spec = tmp_path / "my-nonads.yaml"
    spec.write_text("game: nonads\ntile_size: 25mm\nblack: 5\n", encoding="utf-8")
    result = build_kit(str(spec), out=tmp_path / "out")
    assert result.manifest["components"][0]["count"] == 34  # 5-black classes: complement of the 4-black ones
    assert result.manifest["components"][0]["trim_mm"] == [25.0, 25.0]
