"""The print contract of every page: viewer prefs, TrimBox = BleedBox = the sheet, footer, 50 mm scale bar, crop marks
that never touch a component, SVG geometry in mm, bleed, manifest hashes, byte-identical rebuilds.

The contract tests run over every registered game (pnp.engine.registry()) on every paper below, so a
new game is covered on arrival; each kit is built once per paper (the ``built`` cache in conftest)."""
import hashlib
import json
import xml.etree.ElementTree as ET
from functools import lru_cache

import pymupdf
import pypdf
import pytest

from conftest import PT, open_pdf, pdf_of
from pnp.engine import registry
from pnp.pipeline.execute import build_kit
from pnp.pipeline.plan import context as plan_context, load_target
from pnp.layout.impose import ImposeOptions

GAMES = sorted(registry())
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
KITS = [(game, paper) for game in GAMES for paper in PAPERS]
SVG = "{http://www.w3.org/2000/svg}"
BLEED = 3.0


@lru_cache(maxsize=None)
def board_names(game: str) -> frozenset[str]:
    """Names of the game's board components (board=True): they may be tiled over pages, carry
    alignment targets inside the trim and are printed at their trim without bleed."""
    loaded = load_target(game)
    return frozenset(c.name for c in loaded.game.components(loaded.spec, plan_context(loaded)) if c.board)


def board_pages(result) -> set[int]:
    """1-based numbers of the pages that hold a board."""
    return {p for c in result.manifest["components"] if c["name"] in board_names(result.game) for p in c["pages"]}


def shaped_pages(result) -> set[int]:
    """1-based numbers of the pages that hold a shaped part (polygon outline: no crop marks)."""
    return {p for c in result.manifest["components"] if c["shape"] == "polygon" for p in c["pages"]}


def sheet_boxes_mm(page) -> dict[str, tuple[float, ...]]:
    """MediaBox, TrimBox and BleedBox of a pypdf page, in mm (the boxes pypdf defaults count as absent)."""
    return {name: tuple(round(float(v) * PT, 2) for v in page[name]) for name in ("/MediaBox", "/TrimBox", "/BleedBox")
            if name in page}


@pytest.mark.parametrize("game, paper", KITS)
def test_viewer_prefs_trimbox_and_paper_size(built, game, paper):
    """True size on any printer: every page's TrimBox and BleedBox are the whole sheet (a print filter
    that fits the TrimBox to the paper then keeps the sheet's scale; tests/render/test_true_size.py prints
    through CUPS), and the sheet is the paper."""
    reader = pypdf.PdfReader(pdf_of(built(game, paper)))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    w, h = PAPERS[paper]
    for number, page in enumerate(reader.pages, start=1):
        boxes = sheet_boxes_mm(page)
        assert set(boxes) == {"/MediaBox", "/TrimBox", "/BleedBox"}, f"page {number}"
        for name, box in boxes.items():
            assert box == pytest.approx((0, 0, w, h), abs=0.01), f"page {number} {name}"


@pytest.mark.parametrize("game, paper", KITS)
def test_footer_and_scale_bar_on_every_page(built, game, paper):
    path = pdf_of(built(game, paper))
    with open_pdf(path) as pdf, pymupdf.open(path) as doc:  # pymupdf reads text turned along the side
        n = len(pdf.pages)
        for i, page in enumerate(pdf.pages, start=1):
            text = doc[i - 1].get_text()
            assert f"page {i} of {n}" in text
            assert "must measure 50 mm" in text
            # the bar lies along the foot (horizontal) or, with the footer turned, along the left side
            bars = [l for l in page.lines if abs(l["top"] - l["bottom"]) < 0.01
                    and abs((l["x1"] - l["x0"]) * PT - 50) < 0.05]
            bars += [l for l in page.lines if abs(l["x1"] - l["x0"]) < 0.01
                     and abs((l["bottom"] - l["top"]) * PT - 50) < 0.05 and l["x0"] * PT < 12]
            assert bars, f"no 50 mm bar on page {i}"


def test_bill_of_materials_lists_components(built):
    with open_pdf(pdf_of(built("nonads"))) as pdf:
        text = pdf.pages[0].extract_text()
    assert "Bill of materials" in text and "tile" in text and "34" in text and "30 mm x 30 mm" in text


@pytest.mark.parametrize("game, paper", KITS)
def test_crop_marks_never_touch_a_component(built, game, paper):
    result = built(game, paper)
    # N-up pages only: a tiled board's overlap strips carry alignment targets inside the board on purpose;
    # a shaped part (a tuck box's net, a hex, a die) is cut along its printed outline and has no crop
    # marks (its outline is checked by tests/custom/test_shaped_parts.py and test_tuck_box.py)
    boards = board_pages(result) | shaped_pages(result)
    with open_pdf(pdf_of(result)) as pdf:
        for number, page in enumerate(pdf.pages[1:], start=2):
            if number in boards:
                continue
            parts = [r for r in page.rects if r.get("fill") and (r["x1"] - r["x0"]) * PT > 20]
            marks = [l for l in page.lines if l.get("linewidth", 1) < 0.3 and l["top"] < page.height - 60]
            assert marks
            for m in marks:
                for r in parts:
                    inside_x = r["x0"] - 0.5 < (m["x0"] + m["x1"]) / 2 < r["x1"] + 0.5
                    inside_y = r["top"] - 0.5 < (m["top"] + m["bottom"]) / 2 < r["bottom"] + 0.5
                    assert not (inside_x and inside_y), "crop mark touches a component"
            # every vertical cut line has a mark in line with it
            vertical = {round(l["x0"], 1) for l in marks if abs(l["x0"] - l["x1"]) < 0.01}
            for r in parts:
                assert round(r["x0"], 1) in vertical or any(abs(r["x0"] - v) < 0.2 for v in vertical)


@pytest.mark.parametrize("game, paper", KITS)
def test_svgs_parse_with_mm_geometry(built, game, paper):
    result = built(game, paper)
    svgs = [p for p in result.files if p.suffix == ".svg"]
    assert len(svgs) == result.pages
    w, h = PAPERS[paper]
    for p in svgs:
        root = ET.parse(p).getroot()
        assert root.get("width") == f"{w:g}mm" and root.get("height") == f"{h:g}mm"
        assert root.get("viewBox") == f"0 0 {w:g} {h:g}"


@pytest.mark.parametrize("game", GAMES)
def test_bleed_extends_every_part_page_by_the_bleed(built, game):
    """With 3 mm bleed every part on a page of N-up parts is drawn (clipped) 3 mm past the cut lines
    its crop marks show, on every side, while the page's boxes stay the whole sheet; boards are
    printed at their trim; the cover says so."""
    import pymupdf

    result = built(game, "a4", opts=ImposeOptions(bleed=BLEED))
    assert result.manifest["bleed_mm"] == BLEED
    boards = board_pages(result) | shaped_pages(result)  # a shaped part's bleed follows its outline (test_shaped_parts)
    reader = pypdf.PdfReader(pdf_of(result))
    assert "bleed 3 mm" in reader.pages[0].extract_text()
    checked = 0
    with pymupdf.open(pdf_of(result)) as doc:
        for number, page in enumerate(doc, start=1):
            assert sheet_boxes_mm(reader.pages[number - 1])["/TrimBox"] == pytest.approx((0, 0, 210, 297), abs=0.01)
            if number == 1 or number in boards:
                continue
            drawings = page.get_drawings(extended=True)
            cuts_x, cuts_y = set(), set()
            for d in drawings:
                if d["type"] != "s" or d.get("width", 1) >= 0.3:
                    continue
                for op, a, b in (i[:3] for i in d["items"] if i[0] == "l"):
                    if abs(a.x - b.x) < 0.01:
                        cuts_x.add(a.x * PT)
                    elif abs(a.y - b.y) < 0.01:
                        cuts_y.add(a.y * PT)
            clips = [d["scissor"] for d in drawings if d["type"] == "clip" and d["level"] == 0
                     and d["scissor"] in page.rect]  # a Form XObject's bounding box is reported as a clip too
            assert clips, f"page {number}: no part drawn"
            for r in clips:  # each part's artwork reaches BLEED past a marked cut line on each side
                for edge, cuts, out in ((r.x0, cuts_x, -1), (r.x1, cuts_x, 1), (r.y0, cuts_y, -1), (r.y1, cuts_y, 1)):
                    assert any(abs(edge * PT - (c + out * BLEED)) < 0.01 for c in cuts), f"page {number}"
            checked += 1
    assert checked == result.pages - 1 - len(boards)
    assert checked > 0


def test_svg_and_pdf_draw_the_same_tiles(built):
    result = built("nonads")
    svg = [p for p in result.files if p.suffix == ".svg"][1]
    root = ET.parse(svg).getroot()
    blacks = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#000000"
              and abs(float(r.get("width")) - 10) < 0.01]
    assert len(blacks) == 34 * 4


def test_manifest_matches_files(built):
    result = built("nonads")
    manifest = json.loads((result.files[0].parent / f"manifest-{result.paper}.json").read_text())
    assert manifest["game"] == "nonads" and manifest["paper"] == "a4" and manifest["pages"] == result.pages
    comp = manifest["components"][0]
    assert comp["name"] == "tile" and comp["trim_mm"] == [30.0, 30.0]
    for entry in manifest["files"]:
        data = (result.files[0].parent / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]


def test_rebuild_is_byte_identical(tmp_path, monkeypatch):
    a = build_kit("nonads", out=tmp_path / "a")
    monkeypatch.chdir(tmp_path)
    b = build_kit("nonads", out=tmp_path / "b")
    for fa, fb in zip(a.files, b.files):
        assert fa.read_bytes() == fb.read_bytes(), fa.name


def test_bold_is_a_face_and_no_text_is_stroked(built):
    """Bold is the bold face, filled (text render mode 0) like every text; the large word on a
    card is bold, the upside-down word and the "NetMatch" label are not."""
    import pymupdf
    result = built("netmatch")
    first = next(c["pages"][0] for c in result.manifest["components"] if c["name"] == "word card")
    with pymupdf.open(pdf_of(result)) as doc:
        traces = doc[first - 1].get_texttrace()
    small = [t for t in traces if t["size"] < 12]
    large = [t for t in traces if t["size"] > 30]
    assert small and large
    assert all(t["type"] == 0 for t in traces)  # filled, never stroked
    assert all("Bold" in t["font"] for t in large) and not any("Bold" in t["font"] for t in small)
