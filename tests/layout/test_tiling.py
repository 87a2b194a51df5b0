"""Poster tiling: windows cover the board on as few pages as fit, neighbours sharing the glue tab
and the cut strip; the Nooks board read back from its pieces lands at true scale in board
coordinates. (Assembling the pieces by their printed marks is tests/layout/test_assembly.py.)"""
from itertools import product

import pytest

from boardread import board_readback, dist
from pnp.core.ir import Component, Rect
from pnp.layout import tiling
from pnp.layout.impose import impose
from pnp.layout.paper import load_sheet


def _board(w, h):
    return Component("board", w, h, [(Rect(0, 0, w, h, fill="#eeeeee"),)], board=True)


@pytest.mark.parametrize("paper,w,h,overlap", list(product(["a4", "letter", "a3"], [100, 298.2, 450, 900],
                                                           [150, 259.5, 700], [10.0, 5.0])))
def test_windows_cover_with_overlap_and_are_fewest(paper, w, h, overlap):
    sheet = load_sheet(paper)
    comp = _board(w, h)
    _, _, aw, ah = sheet.board_area
    cols, rows = tiling.piece_grid(comp, sheet, overlap)
    wins = tiling.windows(comp, sheet, overlap)
    if tiling.rotated(comp, sheet):
        assert (cols, rows) == (1, 1) and h <= aw and w <= ah and not (w <= aw and h <= ah)
        return
    if tiling.plan_board(comp, sheet, overlap).mode in ("tiled", "outline"):
        # cut along the board outline and the join lines: no crop-mark room, the content area is theirs
        _, _, aw, ah = sheet.content_area
    assert len(wins) == cols * rows
    for c, r, bx, by, ww, hh in wins:
        assert ww <= aw + 1e-9 and hh <= ah + 1e-9
    seam = overlap + tiling.CUT_MARGIN  # the glue tab plus the strip cut off the neighbour
    xs = sorted({(bx, ww) for c, r, bx, by, ww, hh in wins})
    ys = sorted({(by, hh) for c, r, bx, by, ww, hh in wins})
    for spans, length in ((xs, w), (ys, h)):
        assert spans[0][0] == 0 and spans[-1][0] + spans[-1][1] == pytest.approx(length)
        for (a, la), (b, _) in zip(spans, spans[1:]):
            assert a + la - b == pytest.approx(seam)
    # fewest: one piece fewer along an axis cannot cover it
    if cols > 1:
        assert (cols - 1) * aw - (cols - 2) * seam < w
    if rows > 1:
        assert (rows - 1) * ah - (rows - 2) * seam < h


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_seam_has_one_line_at_one_board_coordinate(paper):
    """A seam's join line sits at the same board coordinate on both pieces: the glue piece keeps
    ``overlap`` mm past it, the cut piece CUT_MARGIN mm; its targets are centred on it."""
    sheet = load_sheet(paper)
    comp = _board(400, 300)
    t = tiling.plan_board(comp, sheet, 10.0)
    assert t.seams and all(len(s.targets) >= 2 for s in t.seams)
    for s in t.seams:
        (gx, gy, gw, gh), (cx, cy, cw, ch) = t.window(*s.glue), t.window(*s.cut)
        if s.vertical:
            assert gx + gw == pytest.approx(s.at + 10.0) and cx == pytest.approx(s.at - tiling.CUT_MARGIN)
        else:
            assert gy + gh == pytest.approx(s.at + 10.0) and cy == pytest.approx(s.at - tiling.CUT_MARGIN)


def test_join_lines_keep_clear_of_labels():
    """A join line does not run through the board's text where it can avoid it (the Nooks column
    label "d" once sat on one)."""
    from pnp.pipeline.plan import context as plan_context
    from pnp.pipeline.plan import load_target
    from pnp.layout import artwork
    boards = [c for game in ("netmatch", "nooks") for loaded in [load_target(game)]
              for c in loaded.game.components(loaded.spec, plan_context(loaded)) if c.board]
    for comp in boards:
        marks = artwork.Marks(comp.fronts[0])
        for paper in ("a4", "letter"):
            t = tiling.plan_board(comp, load_sheet(paper), 10.0)
            assert t.mode == "tiled"
            for at in t.x.joins:
                assert not artwork.hits((at, 0, at, comp.height), marks.texts, tiling.LABEL_CLEAR - 0.01)
            for at in t.y.joins:
                assert not artwork.hits((0, at, comp.width, at), marks.texts, tiling.LABEL_CLEAR - 0.01)


def test_board_that_fits_turned_is_one_rotated_page():
    sheet = load_sheet("a3")
    comp = _board(298.2, 259.5)  # the Nooks board: too wide for A3 upright
    pages = impose("t", [comp], sheet).pages
    pages = list(pages)[1:]
    assert len(pages) == 1 and pages[0].tile is None
    first = pages[0].placements[0]
    x, y, w, h = first.x, first.y, first.w, first.h
    assert (w, h) == (259.5, 298.2)


def test_assembly_map_and_names():
    sheet = load_sheet("a4")
    pages = impose("t", [_board(400, 300)], sheet).pages
    tiles = [p.tile for p in list(pages)[1:]]
    assert [t.name for t in tiles] == ["A1", "B1", "C1", "A2", "B2", "C2"]
    assert {(t.cols, t.rows) for t in tiles} == {(3, 2)}


@pytest.mark.parametrize("paper,count", [("a4", 2), ("letter", 4)])
def test_nooks_pieces_reassemble_at_true_scale(built, paper, count):
    cells, _, pieces = board_readback(built("nooks", paper), "nooks", "board")
    assert len(pieces) == count  # A4: 2 x 1 (no crop-mark room along the board's outline), Letter 2 x 2
    # neighbours share the 10 mm glue tab and the 5 mm strip cut off the neighbour; union = the board
    wins = dict(pieces)
    a1, b1 = wins["A1"], wins["B1"]
    assert a1[0] + a1[2] - b1[0] == pytest.approx(10.0 + tiling.CUT_MARGIN)
    if count == 4:
        a2 = wins["A2"]
        assert a1[1] + a1[3] - a2[1] == pytest.approx(10.0 + tiling.CUT_MARGIN)
    # every cell read from any piece maps to one board position; cells seen on two pieces agree
    merged = []
    for x, y, name in cells:
        for m in merged:
            if dist(m[0], (x, y)) < 0.1:
                m[1].add(name)
                break
        else:
            merged.append(((x, y), {name}))
    assert len(merged) == 169
    shared = [m for m in merged if len(m[1]) > 1]
    assert shared  # the overlap strips carry cells printed on both pieces
    pts = [m[0] for m in merged]
    for a in pts:
        near = [dist(a, b) for b in pts if 0 < dist(a, b) < 25]
        assert near and all(abs(d - 19.0) < 0.1 for d in near)
