"""Fold-over backs (--duplex fold): every sheet is folded from the PDF read back.

On each page the fold line is found from the drawing (the one long dashed line), every part's
outline is read from its clip path, and each back's outline is reflected across the line: it must
land within 0.2 mm of a front's outline, one back per front, for cards and tokens (NetMatch) and
tiles (Nonads) on A4 and Letter. Numeria's tiles have no printed back, so its kit keeps its layout.
"""
from __future__ import annotations

import pymupdf
import pytest
import yaml
from typer.testing import CliRunner

from conftest import PT, REPO, pdf_of
from pnp.cli import app
from pnp.core.errors import LayoutError, SpecError
from pnp.core.ir import Component, Rect
from pnp.layout.impose import impose
from pnp.layout.options import DUPLEX_MODES, ImposeOptions
from pnp.layout.paper import load_sheet
from pnp.render.pdf import PdfWriter

FOLD = ImposeOptions(duplex="fold")
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
TOLERANCE = 0.2  # mm: a back this close to behind its front


def fold_lines(page) -> list[tuple[str, float, float]]:
    """The page's fold lines: dashed lines longer than 100 mm labelled "fold" on the line (a board
    piece's dashed join lines are not), as (axis, position, length) in mm; axis "x" for a vertical
    line at x = position."""
    labels = [((w[0] + w[2]) / 2 * PT, (w[1] + w[3]) / 2 * PT) for w in page.get_text("words") if w[4] == "fold"]
    out = []
    for d in page.get_drawings():
        if d.get("dashes") in (None, "[] 0"):
            continue
        for item in d["items"]:
            if item[0] != "l":
                continue
            a, b = item[1], item[2]
            lo, hi = (min(a.x, b.x) * PT, min(a.y, b.y) * PT), (max(a.x, b.x) * PT, max(a.y, b.y) * PT)
            if not any(lo[0] - 1 < lx < hi[0] + 1 and lo[1] - 1 < ly < hi[1] + 1 for lx, ly in labels):
                continue
            if abs(a.x - b.x) < 0.01 and abs(a.y - b.y) * PT > 100:
                out.append(("x", a.x * PT, abs(a.y - b.y) * PT))
            elif abs(a.y - b.y) < 0.01 and abs(a.x - b.x) * PT > 100:
                out.append(("y", a.y * PT, abs(a.x - b.x) * PT))
    return out


def outlines(page) -> list[tuple[float, float, float, float]]:
    """Every part's outline (x0, y0, x1, y1) in mm: the clip path each part is drawn in (a Form
    XObject's bounding box, which PyMuPDF also reports as a clip, is larger than the page: left out)."""
    return [(r.x0 * PT, r.y0 * PT, r.x1 * PT, r.y1 * PT) for d in page.get_drawings(extended=True)
            if d["type"] == "clip" and d["level"] == 0 for r in [d["scissor"]] if r in page.rect]


def reflect(box, axis: str, at: float):
    x0, y0, x1, y1 = box
    if axis == "x":
        return (2 * at - x1, y0, 2 * at - x0, y1)
    return (x0, 2 * at - y1, x1, 2 * at - y0)


def side(box, axis: str, at: float) -> int:
    """-1 when ``box`` lies wholly before the line, 1 wholly after it (0: it crosses the fold)."""
    lo, hi = (box[0], box[2]) if axis == "x" else (box[1], box[3])
    return -1 if hi <= at else 1 if lo >= at else 0


def marks(page) -> tuple[set, set]:
    """x of vertical and y of horizontal crop marks (thin solid lines under 10 mm), in mm."""
    xs, ys = set(), set()
    for d in page.get_drawings():
        if d.get("dashes") not in (None, "[] 0") or (d.get("width") or 1) * PT > 0.1:
            continue
        for item in d["items"]:
            if item[0] == "l":
                a, b = item[1], item[2]
                if abs(a.x - b.x) < 0.01 and abs(a.y - b.y) * PT < 10:
                    xs.add(round(a.x * PT, 2))
                elif abs(a.y - b.y) < 0.01 and abs(a.x - b.x) * PT < 10:
                    ys.add(round(a.y * PT, 2))
    return xs, ys


def fold_pages(pdf) -> list:
    """(page number, page, axis, line position, fronts, backs) of every page with a fold line."""
    doc = pymupdf.open(pdf)  # left open: the pages are returned (closed when collected)
    out = []
    for number, page in enumerate(doc, start=1):
        lines = fold_lines(page)
        if not lines:
            continue
        assert len(lines) == 1, f"page {number}: {len(lines)} fold lines"
        axis, at, _ = lines[0]
        xs, ys = marks(page)
        parts = _trims(outlines(page), axis, at, number, xs if axis == "x" else ys)
        assert all(side(p, axis, at) for p in parts), f"page {number}: a part crosses the fold line"
        out.append((number, page, axis, at, [p for p in parts if side(p, axis, at) < 0],
                    [p for p in parts if side(p, axis, at) > 0]))
    return out


def _trims(boxes, axis: str, at: float, number: int, cuts=None):
    """The parts' trims from their clips: next to the fold, a front's art and its back's each run up to
    the line (a stray cut there shows that side's own art), so a clip that ends on the line has its
    trim at the cut nearest the line on its side (``cuts``: the crop marks' positions across the line;
    by default the other clips' edges)."""
    k = 0 if axis == "x" else 1
    if cuts is None:
        cuts = [b[k + j] for b in boxes for j in (0, 2) if abs(b[k + j] - at) > 1e-3]
    out = []
    for b in boxes:
        b = list(b)
        assert b[k + 2] <= at + 0.01 or b[k] >= at - 0.01, f"page {number}: a clip crosses the fold line"
        if abs(b[k + 2] - at) < 0.01:
            b[k + 2] = max(c for c in cuts if c < at - 1e-3)
        elif abs(b[k] - at) < 0.01:
            b[k] = min(c for c in cuts if c > at + 1e-3)
        out.append(tuple(b))
    return out


def near(a, b) -> float:
    return max(abs(u - v) for u, v in zip(a, b))


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("game", ["netmatch", "nonads"])
def test_every_back_folds_onto_its_front(built, game, paper):
    """Fold every sheet along its line: each back lands within 0.2 mm behind exactly one front, and
    every part with a printed back (word cards, letter tokens, tiles) is on a fold-over sheet."""
    result = built(game, paper, opts=FOLD)
    backed = {c["name"]: c for c in result.manifest["components"] if c["name"] in {"word card", "letter token", "tile"}}
    assert backed, "the kit has none of the parts with backs this test folds"
    folded_by_size: dict[tuple[float, float], int] = {}
    pages = fold_pages(pdf_of(result))
    assert pages, "no fold-over sheet"
    w, h = PAPERS[paper]
    for number, page, axis, at, fronts, backs in pages:
        # the line is the middle of the paper, so folding the sheet edge to edge creases it there
        assert at == pytest.approx(w / 2 if axis == "x" else h / 2, abs=0.01)
        assert fronts and len(fronts) == len(backs), f"page {number}: {len(fronts)} fronts, {len(backs)} backs"
        unmatched = list(fronts)
        for back in backs:
            folded = reflect(back, axis, at)
            best = min(unmatched, key=lambda f: near(f, folded))
            assert near(best, folded) <= TOLERANCE, f"page {number}: a back folds {near(best, folded):.2f} mm off"
            unmatched.remove(best)
        for f in fronts:
            size = tuple(sorted((round(f[2] - f[0], 1), round(f[3] - f[1], 1))))  # upright or on its side
            folded_by_size[size] = folded_by_size.get(size, 0) + 1
        # crop marks in line with every cut, none on the fold side of a block (nothing crosses the fold)
        xs, ys = marks(page)
        for x0, y0, x1, y1 in fronts + backs:
            assert all(any(abs(v - m) < 0.05 for m in xs) for v in (x0, x1)), f"page {number}: a vertical cut unmarked"
            assert all(any(abs(v - m) < 0.05 for m in ys) for v in (y0, y1)), f"page {number}: a horizontal cut unmarked"
        gap = min(min(abs(p[0] - at), abs(p[2] - at)) if axis == "x" else min(abs(p[1] - at), abs(p[3] - at))
                  for p in fronts + backs)
        assert all(abs(m - at) >= gap - 0.01 for m in (xs if axis == "x" else ys)), f"page {number}: a mark at the fold"
    for comp in backed.values():
        size = tuple(sorted(round(v, 1) for v in comp["trim_mm"]))
        assert folded_by_size.get(size, 0) == comp["count"], f"{comp['name']}: not every part folded"


@pytest.mark.parametrize("game", ["netmatch", "nonads"])
def test_back_artwork_is_behind_its_front(built, game):
    """The back's own artwork (the spec's back colour filling the part) is what lies behind each
    front: the coloured fields are all in the backs' half, one per card or tile outline."""
    colour = yaml.safe_load((REPO / "specs" / game / f"{game}.yaml").read_text())["back_colour"]
    rgb = tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    result = built(game, "a4", opts=FOLD)
    for number, page, axis, at, fronts, backs in fold_pages(pdf_of(result)):
        fields = [(r.x0 * PT, r.y0 * PT, r.x1 * PT, r.y1 * PT) for d in page.get_drawings()
                  if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], rgb)) for r in [d["rect"]]]
        big = [b for b in backs if (b[2] - b[0]) > 25]  # cards and tiles (tokens are 18 mm, white)
        assert len(fields) == len(big), f"page {number}"
        clips = [c for c in outlines(page) if side(c, axis, at) >= 0 and (c[2] - c[0]) > 25]
        for f in fields:
            # each field fills the whole clip it is drawn in: the back's trim and, next to the fold,
            # up to the line (a stray cut there shows the back's colour, never white paper)
            centre = ((f[0] + f[2]) / 2, (f[1] + f[3]) / 2)
            clip = next(c for c in clips if c[0] <= centre[0] <= c[2] and c[1] <= centre[1] <= c[3])
            shown = (max(f[0], clip[0]), max(f[1], clip[1]), min(f[2], clip[2]), min(f[3], clip[3]))
            assert near(shown, clip) <= TOLERANCE, f"page {number}"
            cuts = marks(page)[0 if axis == "x" else 1]
            assert min(near(t, b) for t in _trims([clip], axis, at, number, cuts) for b in big) <= TOLERANCE


def test_parts_without_backs_keep_their_layout(built):
    """Numeria prints no backs: the fold kit is the one-sided kit (only the cover's line on duplex
    differs); NetMatch's board pieces and pawns (no backs) are never on a fold-over sheet."""
    plain, fold = built("numeria", "a4"), built("numeria", "a4", opts=FOLD)
    assert fold.pages == plain.pages
    with pymupdf.open(pdf_of(plain)) as a, pymupdf.open(pdf_of(fold)) as b:
        for pa, pb in list(zip(a, b))[1:]:
            assert [d["rect"] for d in pa.get_drawings()] == [d["rect"] for d in pb.get_drawings()]
            assert not fold_lines(pb)
    net = built("netmatch", "a4", opts=FOLD)
    unfolded = {p for c in net.manifest["components"] if c["name"] in ("board", "pawn") for p in c["pages"]}
    assert unfolded
    assert not unfolded & {number for number, *_ in fold_pages(pdf_of(net))}


def test_cover_says_fold_glue_and_cut_and_how_to_hide_faces(built):
    with pymupdf.open(pdf_of(built("nonads", "a4", opts=FOLD))) as doc:
        cover = " ".join(doc[0].get_text().split())
    assert "Fold-over backs" in cover and "fold each sheet" in cover and "glue" in cover and "cut through both" in cover
    with pymupdf.open(pdf_of(built("netmatch", "a4"))) as doc:
        cover = " ".join(doc[0].get_text().split())
    assert "must not show through" in cover and "card stock" in cover and "fold-over" in cover


def _write(pages, path):
    writer = PdfWriter(path)
    for page in pages:
        writer.add(page)
    writer.close()


# five parts of each size on A4: sizes chosen so that the packer's choice of fold axis and orientation
# covers all four cases (the test checks the choice it made, then that every back reads upright)
@pytest.mark.parametrize("width, height, axis, on_side", [(40.0, 60.0, "x", False), (60.0, 40.0, "x", True),
                                                      (60.0, 120.0, "y", False), (120.0, 60.0, "y", True)])
def test_back_reads_upright_when_turned_over(tmp_path, width, height, axis, on_side):
    """A front with a blue mark in its top-right corner and a back with a red mark in its top-left
    corner: folded, every red mark lies on a blue one, so a player who holds the part upright and
    turns it over like a book page sees the back upright. Parts are laid upright or on their side,
    and folded about a vertical or a horizontal line, whichever fits more (all four cases here)."""
    blue = Rect(width - 4, 0, 4, 4, fill="#0000ff", stroke=None)
    red = Rect(0, 0, 4, 4, fill="#ff0000", stroke=None)
    comp = Component("card", width, height, [(Rect(0, 0, width, height, fill="#ffffff", stroke=None), blue)] * 5,
                     back=(Rect(0, 0, width, height, fill="#00ff00", stroke=None), red))
    pages = impose("test", [comp], load_sheet("a4"), FOLD).pages
    path = tmp_path / "fold.pdf"
    _write(list(pages), path)
    found = fold_pages(path)
    assert found and all(p[2] == axis for p in found)
    for number, page, ax, at, fronts, backs in found:
        assert all((f[2] - f[0] > f[3] - f[1]) == ((width > height) != on_side) for f in fronts + backs)

        def marks_of(rgb):
            return [(r.x0 * PT, r.y0 * PT, r.x1 * PT, r.y1 * PT) for d in page.get_drawings()
                    if d.get("fill") == rgb for r in [d["rect"]]]
        reds, blues = marks_of((1.0, 0.0, 0.0)), marks_of((0.0, 0.0, 1.0))
        assert len(reds) == len(blues) == len(backs) == len(fronts)
        for r in reds:
            assert min(near(reflect(r, ax, at), b) for b in blues) < 0.01


def test_fold_options_and_errors(tmp_path):
    assert "fold" in DUPLEX_MODES
    with pytest.raises(SpecError, match="back offset"):
        ImposeOptions(duplex="fold", back_offset=(1.0, 0.0))
    huge = Component("mat", 170.0, 200.0, [()], back=())  # fits the sheet, not half of it
    with pytest.raises(LayoutError, match="too large to fold"):
        impose("test", [huge], load_sheet("a4"), FOLD)
    run = CliRunner().invoke(app, ["build", "nonads", "--duplex", "fold", "--out", str(tmp_path), "-q"])
    assert run.exit_code == 0, run.output
    assert (tmp_path / "nonads" / "nonads-a4.pdf").is_file()


def test_fold_over_rounded_parts_are_cut_with_their_corners(tmp_path):
    """The cutter SVG of a fold-over sheet cuts each rounded part along its rounded corners (the
    radius the spec gives), as it does on sheets printed without fold."""
    from xml.etree import ElementTree
    spec = yaml.safe_load((REPO / "specs" / "questions" / "questions.yaml").read_text(encoding="utf-8"))
    radius = next(float(str(c["radius"]).removesuffix("mm")) for c in spec["components"] if c.get("shape") == "rounded")
    r = CliRunner().invoke(app, ["build", str(REPO / "specs" / "questions"), "-f", "cut-svg", "--duplex", "fold",
                                 "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    cuts = []
    for svg in sorted((tmp_path / "questions" / "cut").glob("*-cut.svg")):
        root = ElementTree.parse(svg).getroot()
        cuts += [el for el in root.iter("{http://www.w3.org/2000/svg}rect") if el.get("stroke") == "#ff0000"]
    assert cuts and all(float(el.get("rx")) == pytest.approx(radius) for el in cuts), len(cuts)
