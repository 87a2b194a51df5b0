"""Tuck boxes (``box: tuck``), folded back from what was printed: the net's cut outline and dashed
fold lines read from the PDF give the panel sizes and the tab positions, which must make a box whose
inside is the deck's size plus 1 mm and whose depth is the cards' count x thickness + 1 mm (the
numbers here come from the spec written in the test, never from the code under test); the cutter
SVG's cut and score layers hold the same outline and folds; the manifest lists ``inner_mm``; a net
too wide for the paper comes in two pieces that glue, and one too large for that is refused."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.layout.options import ImposeOptions
from pnp.pipeline.execute import build_kit

from conftest import PT, open_pdf, snapshot

SVG = "{http://www.w3.org/2000/svg}"
CUT_PT = 0.25 / PT  # the printed cut line's width
runner = CliRunner()


def _deck(folder, cards: int, size: str, extra: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "face.yaml").write_text("layers:\n  - {type: rect, fill: '#ffffff', stroke: '#000000'}\n")
    (folder / "back.yaml").write_text("layers:\n  - {type: rect, fill: '#224488', stroke: none, bleed: true}\n")
    (folder / "rules.md").write_text("# Deck\nA deck.\n\n" + "".join(
        f"## {h}\nSome words.\n\n" for h in ("Components", "Setup", "A turn", "End and winner", "Fine points")))
    (folder / f"{folder.name}.yaml").write_text(
        f"title: Deck\ncomponents:\n  - name: card\n    size: {size}\n    copies: {cards}\n"
        f"    front: face.yaml\n    back: back.yaml\n{extra}")
    return str(folder / f"{folder.name}.yaml")


def _close(a: float, b: float, tol: float = 0.05) -> bool:
    return abs(a - b) <= tol


def _net(pdf, pages: list[int]) -> list[dict]:
    """Each net printed on ``pages`` (1-based): its cut outline (x, y mm, page frame) and folds."""
    nets = []
    with open_pdf(pdf) as doc:
        for number in pages:
            page = doc.pages[number - 1]
            outlines = [[(x * PT, y * PT) for x, y in c["pts"][:-1]] for c in page.curves
                        if c.get("stroke") and c.get("stroking_color") == (0.0, 0.0, 0.0)
                        and _close(c["linewidth"], CUT_PT, 0.01)]
            folds = [(ln["x0"] * PT, ln["top"] * PT, ln["x1"] * PT, ln["bottom"] * PT) for ln in page.lines
                     if ln.get("dash") and ln["dash"][0]]
            for outline in outlines:
                xs, ys = [p[0] for p in outline], [p[1] for p in outline]
                box = (min(xs), min(ys), max(xs), max(ys))
                mine = [f for f in folds if box[0] - 0.01 <= f[0] <= box[2] + 0.01 and box[1] - 0.01 <= f[1] <= box[3] + 0.01]
                nets.append({"outline": outline, "box": box, "folds": mine})
    return nets


def _fold(net: dict) -> dict:
    """Panel sizes of a printed net: the vertical folds cut the main row into tab | panels, the
    horizontal folds above and below it give the lids and flaps."""
    vertical = sorted({round(f[0], 2) for f in net["folds"] if _close(f[0], f[2])})
    spans = {(round(f[1], 2), round(f[3], 2)) for f in net["folds"] if _close(f[0], f[2])}
    (top, bottom), = spans  # every vertical fold spans the main row
    horizontal = [f for f in net["folds"] if _close(f[1], f[3])]
    return {"vertical": vertical, "top": top, "bottom": bottom, "horizontal": horizontal}


def test_deck_box_folds_to_the_decks_size(tmp_path):
    cards, thick, (sw, sh, film) = 40, 0.35, (66.0, 91.0, 0.1)  # standard sleeves: 66 x 91 mm, 0.1 mm
    spec = _deck(tmp_path / "deck", cards, "poker", "    box: tuck\n    sleeves: standard\n    thickness: 0.35mm\n")
    result = build_kit(spec, out=tmp_path / "out", formats=("pdf", "cut-svg"))
    W, D, H = sw + 1, cards * (thick + film) + 1, sh + 1
    entry = next(c for c in result.manifest["components"] if c["name"] == "card box")
    assert entry["inner_mm"] == pytest.approx([W, D, H], abs=0.01) and entry["shape"] == "polygon"
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    (net,) = _net(pdf, entry["pages"])
    got = _fold(net)
    x0, y0, x1, y1 = net["box"]
    v = got["vertical"]
    assert len(v) == 4  # tab | front | side | back | side
    widths = [v[0] - x0, v[1] - v[0], v[2] - v[1], v[3] - v[2], x1 - v[3]]
    assert widths[1:] == pytest.approx([W, D, W, D], abs=0.02)  # wraps round the deck: 2W + 2D
    assert 6 <= widths[0] <= 12  # the glue tab, left of the front
    assert got["bottom"] - got["top"] == pytest.approx(H, abs=0.02)
    # the glue tab's outer edge is cut at 45 degrees: its outline points sit inside the main row
    tab_pts = [p for p in net["outline"] if _close(p[0], x0)]
    assert len(tab_pts) == 2 and all(got["top"] < p[1] < got["bottom"] for p in tab_pts)
    # lids: a fold D above the back's top (lid | tuck flap), one D below the front's bottom
    back_l, back_r, front_l, front_r = v[2], v[3], v[0], v[1]
    above_back = sorted(f[1] for f in got["horizontal"] if _close(f[0], back_l) and _close(f[2], back_r))
    below_front = sorted(f[1] for f in got["horizontal"] if _close(f[0], front_l) and _close(f[2], front_r))
    assert above_back == pytest.approx([got["top"] - D, got["top"]], abs=0.02)
    assert below_front == pytest.approx([got["bottom"], got["bottom"] + D], abs=0.02)
    # dust flaps on both ends of both sides: folds as wide as the depth
    for left in (v[1], v[3]):
        ends = sorted(f[1] for f in got["horizontal"] if _close(f[0], left) and _close(f[2] - f[0], D, 0.02))
        assert ends == pytest.approx([got["top"], got["bottom"]], abs=0.02)
    # the thumb cut: outline points below the front's top edge, inside the front, at most a fifth of W deep
    thumb = [p for p in net["outline"] if front_l < p[0] < front_r and got["top"] + 0.01 < p[1] < got["bottom"]]
    assert thumb and max(p[1] for p in thumb) - got["top"] <= W / 5 + 0.01
    # the cutter SVG of that page: the same outline in "cut", the same folds in "score"
    svg = next(p for p in result.files if p.name.endswith(f"p{entry['pages'][0]:02d}-cut.svg"))
    root = ET.parse(svg).getroot()
    layers = {g.get("id"): list(g) for g in root.iter(SVG + "g") if g.get("id", "").startswith("layer-")}
    polys = [e for e in layers["layer-cut"] if e.tag == SVG + "polygon"]
    assert len(polys) == 1
    pts = [tuple(float(v) for v in pair.split(",")) for pair in polys[0].get("points").split()]
    assert len(pts) == len(net["outline"])
    assert all(_close(a, c, 0.02) and _close(b, d, 0.02) for (a, b), (c, d) in zip(pts, net["outline"]))
    scores = sorted(tuple(round(float(e.get(k)), 1) for k in ("x1", "y1", "x2", "y2")) for e in layers["layer-score"])
    printed = sorted(tuple(round(c, 1) for c in f) for f in net["folds"])
    assert len(scores) == len(printed) == 12
    assert all(c == pytest.approx(d, abs=0.11) for c, d in zip(scores, printed))



@pytest.mark.parametrize("bleed", [0, 3])
def test_an_off_cut_of_the_net_shows_no_white_with_bleed(tmp_path, bleed):
    """Cut 1.5 mm outside the cut outline (the cutter SVG's), as an unsteady hand might: with --bleed 3
    the net's paper tone is under the knife along every long edge, and no cut line is printed (a
    stray cut would show it); without bleed the paper there is white and the cut line printed."""
    import xml.etree.ElementTree as ET

    import pypdfium2 as pdfium
    spec = _deck(tmp_path / "deck", 20, "poker", "    box: tuck\n")
    result = build_kit(spec, out=tmp_path / "out", formats=("pdf", "cut-svg"), opts=ImposeOptions(bleed=bleed))
    entry = next(c for c in result.manifest["components"] if c["name"] == "card box")
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    assert len(_net(pdf, entry["pages"])) == (0 if bleed else 1)
    svg = next(p for p in result.files if p.name.endswith(f"-p{entry['pages'][0]:02d}-cut.svg"))
    cut = next(g for g in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}g") if g.get("id") == "layer-cut")
    (polygon,) = [el for el in cut if el.tag.endswith("polygon")]
    dpi = 100
    image = pdfium.PdfDocument(str(pdf))[entry["pages"][0] - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    pts = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1]))  # > 0: clockwise on a y-down page
    sampled = []
    for a, b in zip(pts, pts[1:] + pts[:1]):
        length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
        if length < 15:
            continue
        nx, ny = (b[1] - a[1]) / length, -(b[0] - a[0]) / length  # outward for a clockwise outline
        if area < 0:
            nx, ny = -nx, -ny
        mx, my = (a[0] + b[0]) / 2 + 1.5 * nx, (a[1] + b[1]) / 2 + 1.5 * ny
        sampled.append(image.getpixel((round(mx * dpi / 25.4), round(my * dpi / 25.4))))
    assert len(sampled) >= 6
    white = [p for p in sampled if min(p) >= 250]
    if bleed:
        assert not white, f"{len(white)} of {len(sampled)} edges show white paper 1.5 mm outside the cut"
    else:
        assert len(white) == len(sampled)

def test_playing_cards_ship_a_box_of_54(built):
    result = built("playing-cards")
    entry = next(c for c in result.manifest["components"] if c["name"] == "card box")
    assert entry["inner_mm"] == pytest.approx([63.5 + 1, 54 * 0.3 + 1, 88.9 + 1])
    text = "".join(open_pdf(next(p for p in result.files if p.suffix == ".pdf")).pages[0].extract_text().split())
    assert "Tuckbox(cardbox)" in text  # the cover's assembly steps


def test_wide_net_comes_in_two_pieces_that_glue(tmp_path):
    cards = 78  # a tarot deck, sleeved: 74 x 124 mm inside, 78 x 0.4 + 1 mm deep; the net is wider than A4
    spec = _deck(tmp_path / "tarot", cards, "tarot", "    box: tuck\n    sleeves: tarot\n")
    result = build_kit(spec, out=tmp_path / "out", formats=("pdf",))
    W, D = 73 + 1, cards * 0.4 + 1
    pieces = [c for c in result.manifest["components"] if c["name"].startswith("card box")]
    assert [c["name"] for c in pieces] == ["card box (1 of 2)", "card box (2 of 2)"]
    assert all(c["inner_mm"] == pytest.approx([W, D, 124]) for c in pieces)
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    first, second = (_net(pdf, c["pages"]) for c in pieces)
    (a,), (b,) = first, second if len(second) == 1 else [n for n in second if n not in first]
    fa, fb = _fold(a), _fold(b)
    va, vb = fa["vertical"], fb["vertical"]
    # piece 1: glue tab | front | side | joining tab; piece 2: back | side
    assert [va[1] - va[0], va[2] - va[1]] == pytest.approx([W, D], abs=0.02)
    assert 6 <= va[0] - a["box"][0] <= 12 and 6 <= a["box"][2] - va[2] <= 12
    assert [vb[0] - b["box"][0], b["box"][2] - vb[0]] == pytest.approx([W, D], abs=0.02)
    for net in (a, b):
        assert net["box"][2] - net["box"][0] <= 210 - 10


def test_box_too_large_for_any_half_names_the_paper(tmp_path):
    spec = _deck(tmp_path / "big", 400, "poker", "    box: tuck\n")  # 121 mm deep: A3 holds the halves, A4 not
    out = tmp_path / "out"
    out.mkdir()
    before = snapshot(out)
    r = runner.invoke(app, ["build", spec, "-o", str(out)])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    flat = " ".join(r.output.split())
    named = re.search(r"--paper (a3|tabloid)\b", flat)  # the large papers; either holds the halves
    assert "big.yaml" in flat and "components.0.box" in flat and named and "does not fit a4" in flat, flat
    assert snapshot(out) == before
    ok = build_kit(spec, paper=named.group(1), out=out, formats=("pdf",))
    assert [c["name"] for c in ok.manifest["components"]][-2:] == ["card box (1 of 2)", "card box (2 of 2)"]


@pytest.mark.parametrize("extra, words", [
    ("    sleeves: standard\n", "add box: tuck"),
    ("    box: tuck\n    sleeves: [60mm, 91mm]\n", "smaller than"),
    ("    box: crate\n", "box"),
])
def test_box_fields_refused(tmp_path, extra, words):
    spec = _deck(tmp_path / "bad", 10, "poker", extra)
    r = runner.invoke(app, ["build", spec, "-o", str(tmp_path / "out")])
    assert r.exit_code == 2 and words in " ".join(r.output.split()) and "Traceback" not in r.output, r.output
