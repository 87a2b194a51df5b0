"""Print-shop and cutter output: bleed, duplex backs, cut SVG, SOURCE_DATE_EPOCH, previews, TTS decks."""
import json
import os
import re
import xml.etree.ElementTree as ET

import pypdf
import pytest
from PIL import Image
from typer.testing import CliRunner

from conftest import PT, filled_rects, open_pdf, pdf_of
from pnp.cli import app
from pnp.pipeline.execute import build_kit
from pnp.layout.impose import ImposeOptions

SVG = "{http://www.w3.org/2000/svg}"
INK = "{http://www.inkscape.org/namespaces/inkscape}"
BACK_BLUE = (round(0x1f / 255, 3), round(0x3a / 255, 3), round(0x5f / 255, 3))


@pytest.fixture(scope="module")
def bleed_kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("bleed")
    return build_kit("netmatch", out=out, opts=ImposeOptions(bleed=3.0, duplex="long"),
                     formats=("pdf", "svg", "cut-svg"))


def _first_card_page(result) -> int:
    """0-based index of the first word-card fronts page, from the manifest."""
    return next(c["pages"][0] for c in result.manifest["components"] if c["name"] == "word card") - 1


def test_bleed_box_and_extended_artwork(bleed_kit):
    reader = pypdf.PdfReader(pdf_of(bleed_kit))
    boards = {p for c in bleed_kit.manifest["components"] if c["name"] == "board" for p in c["pages"]}
    checked = 0
    for number, page in enumerate(reader.pages[1:], start=2):
        if number in boards or "intentionally left blank" in page.extract_text():
            continue  # a tiled board is printed at its trim, without bleed; blank backs hold no parts
        # the sheet is what the printer prints: TrimBox = BleedBox = MediaBox; the bleed is in the artwork
        for box in (page.trimbox, page.bleedbox):
            assert [float(v) for v in box] == pytest.approx([float(v) for v in page.mediabox], abs=0.01)
        checked += 1
    # sheets are shared now: word cards also fill the space beside board pieces, so fewer sheets
    # hold no board; each of them has a front and a back
    assert checked >= 14
    with open_pdf(pdf_of(bleed_kit)) as pdf:
        white = filled_rects(pdf.pages[_first_card_page(bleed_kit)], (1.0, 1.0, 1.0))
        # the card background reaches 3 mm past the 44 x 68 trim on every side
        cards = [r for r in white if r[2] > 40 and r[3] > 60]  # word cards' backgrounds (tokens are 18 mm)
        assert len(cards) >= 9 and all(abs(r[2] - 50) < 0.1 and abs(r[3] - 74) < 0.1 for r in cards)
        text = pdf.pages[0].extract_text()
    assert "bleed 3 mm" in text


def test_crop_marks_stay_at_the_trim_with_bleed(bleed_kit):
    with open_pdf(pdf_of(bleed_kit)) as pdf:
        page = pdf.pages[_first_card_page(bleed_kit)]
        cards = [r for r in filled_rects(page, (1.0, 1.0, 1.0)) if abs(r[2] - 50) < 0.1]
        trims_x = sorted({round(r[0] + 3, 1) for r in cards} | {round(r[0] + 47, 1) for r in cards})
        marks_x = sorted({round(l["x0"] * PT, 1) for l in page.lines if abs(l["x0"] - l["x1"]) < 0.01
                          and l["top"] * PT < 40})
        # the marks over the cards' columns are exactly their trims (other parts may share the sheet)
        assert [m for m in marks_x if min(trims_x) - 6 <= m <= max(trims_x) + 6] == trims_x


def test_duplex_backs_follow_fronts_mirrored(bleed_kit):
    reader = pypdf.PdfReader(pdf_of(bleed_kit))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    first = _first_card_page(bleed_kit)
    with open_pdf(pdf_of(bleed_kit)) as pdf:
        fronts = pdf.pages[first]
        backs = pdf.pages[first + 1]
        width = fronts.width * PT
        f = sorted((round(r[0] + 3, 2), round(r[1] + 3, 2)) for r in filled_rects(fronts, (1.0, 1.0, 1.0))
                   if abs(r[2] - 50) < 0.1)
        b = sorted((round(r[0] + 3, 2), round(r[1] + 3, 2)) for r in filled_rects(backs, BACK_BLUE)
                   if abs(r[2] - 50) < 0.1)
        assert len(f) == len(b) >= 9  # at least 3 x 3 cards a sheet with 3 mm bleed on A4
        mirrored = sorted((round(width - x - 44, 2), y) for x, y in f)
        assert b == mirrored
        assert "(backs)" in backs.extract_text()


@pytest.mark.parametrize("edge,offset", [("short", (0.0, 0.0)), ("long", (1.5, -2.0))])
def test_short_edge_mirrors_rows_and_offset_shifts(tmp_path, edge, offset):
    result = build_kit("netmatch", out=tmp_path, opts=ImposeOptions(duplex=edge, back_offset=offset),
                       formats=("pdf",))
    first = _first_card_page(result)
    with open_pdf(pdf_of(result)) as pdf:
        w, h = pdf.pages[first].width * PT, pdf.pages[first].height * PT
        f = sorted((round(r[0], 2), round(r[1], 2)) for r in filled_rects(pdf.pages[first], (1.0, 1.0, 1.0))
                   if abs(r[2] - 44) < 0.1)
        b = sorted((round(r[0], 2), round(r[1], 2)) for r in filled_rects(pdf.pages[first + 1], BACK_BLUE)
                   if abs(r[2] - 44) < 0.1)
    if edge == "short":
        expected = sorted((x, round(h - y - 68, 2)) for x, y in f)
    else:
        expected = sorted((round(w - x - 44 + offset[0], 2), round(y + offset[1], 2)) for x, y in f)
    assert len(b) == len(expected) >= 9
    for (bx, by), (ex, ey) in zip(b, expected):
        assert abs(bx - ex) <= 0.02 and abs(by - ey) <= 0.02, ((bx, by), (ex, ey))


def test_cut_svg_layers(bleed_kit):
    cuts = [p for p in bleed_kit.files if p.parent.name == "cut"]
    manifest = bleed_kit.manifest
    blanks = sum("intentionally left blank" in p.extract_text() for p in pypdf.PdfReader(pdf_of(bleed_kit)).pages)
    assert blanks >= 1
    assert len(cuts) == manifest["pages"] - 1 - blanks  # every page but the bill of materials and blanks
    on_page: dict[int, list] = {}  # a sheet may hold several components now
    for c in manifest["components"]:
        for page in c["pages"]:
            on_page.setdefault(page, []).append(c)
    total = 0
    for p in cuts:
        root = ET.parse(p).getroot()
        assert root.get("width").endswith("mm")
        layers = {g.get(f"{INK}label"): g for g in root.iter(f"{SVG}g") if g.get(f"{INK}groupmode") == "layer"}
        assert set(layers) == {"art", "cut"}
        shapes = list(layers["cut"])
        assert all(s.tag in (f"{SVG}rect", f"{SVG}circle") for s in shapes)
        comps = on_page[int(re.search(r"-p(\d+)-cut", p.name).group(1))]
        trims = [tuple(c["trim_mm"]) for c in comps if c["name"] != "board"]
        for s in shapes:
            assert s.get("stroke") == "#ff0000" and float(s.get("stroke-width")) <= 0.03 and s.get("fill") == "none"
            if s.tag == f"{SVG}circle":
                size = (2 * float(s.get("r")),) * 2
            else:
                size = (float(s.get("width")), float(s.get("height")))
            board = next((c for c in comps if c["name"] == "board"), None)
            if board and size[0] > 60 and all(a <= b + 0.01 for a, b in zip(size, board["trim_mm"])):
                continue  # a board piece's cut is its window, not the whole trim
            assert any(size == pytest.approx(t, abs=0.01) for t in trims), size
            total += size == pytest.approx((44.0, 68.0), abs=0.01)
    assert total == 2 * 75  # word-card fronts and backs


def test_source_date_epoch_is_honoured_and_reproducible(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.chdir(tmp_path)
    a = build_kit("nonads", out=tmp_path / "a", formats=("pdf", "svg", "cut-svg"))
    os.makedirs(tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path / "elsewhere")
    b = build_kit("nonads", out=tmp_path / "b", formats=("pdf", "svg", "cut-svg"))
    assert [f.read_bytes() for f in a.files] == [f.read_bytes() for f in b.files]
    info = pypdf.PdfReader(pdf_of(a)).metadata
    assert info["/CreationDate"].startswith("D:20231114")


def test_bad_source_date_epoch(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    r = CliRunner().invoke(app, ["build", "nonads", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "SOURCE_DATE_EPOCH" in r.output


def test_preview_pages_and_contact_sheet(tmp_path):
    r = CliRunner().invoke(app, ["preview", "nonads", "--dpi", "30", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    folder = tmp_path / "nonads" / "preview"
    pages = sorted(folder.glob("nonads-a4-p*.png"))
    manifest = json.loads((tmp_path / "nonads" / "manifest-a4.json").read_text())
    assert len(pages) == manifest["pages"]
    with Image.open(pages[0]) as im:
        assert im.size[0] == pytest.approx(210 / 25.4 * 30, abs=1) and im.size[1] == pytest.approx(297 / 25.4 * 30, abs=1)
    assert (folder / "nonads-a4-contact.png").is_file()


def test_calibration_sheet(tmp_path):
    r = CliRunner().invoke(app, ["calibrate", "--paper", "letter", "--duplex", "short", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    pdf = tmp_path / "calibrate" / "calibrate-letter-short.pdf"
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 2
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    back = reader.pages[1].extract_text()
    assert "+0,+0" in back and "-4,-4" in back and "+4,+4" in back


def test_calibration_labels_clear_of_their_targets(tmp_path):
    """A label the target's cross runs through cannot be read: no glyph box of the back page's
    labels touches any drawn line (read back with pdfplumber)."""
    r = CliRunner().invoke(app, ["calibrate", "--paper", "a4", "--duplex", "long", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    with open_pdf(tmp_path / "calibrate" / "calibrate-a4-long.pdf") as pdf:
        page = pdf.pages[1]
        lines = [(min(l["x0"], l["x1"]), min(l["top"], l["bottom"]), max(l["x0"], l["x1"]), max(l["top"], l["bottom"]))
                 for l in page.lines + page.edges]
        labels = [c for c in page.chars if c["text"] in "+-,0123456789" and c["top"] > 60]
    assert len(labels) >= 81 * 4 and len(lines) >= 81 * 2
    hits = [(c["text"], round(c["x0"]), round(c["top"])) for c in labels
            for (x0, y0, x1, y1) in lines
            if c["x0"] < x1 and x0 < c["x1"] and c["top"] < y1 and y0 < c["bottom"]]
    assert not hits, f"{len(hits)} label glyphs touch a target line, e.g. {hits[:3]}"


def test_duplex_pairs_every_front_with_its_back_or_a_blank(bleed_kit):
    reader = pypdf.PdfReader(pdf_of(bleed_kit))
    texts = [p.extract_text() for p in reader.pages]
    assert len(texts) % 2 == 0
    for i in range(0, len(texts), 2):
        front, back = texts[i], texts[i + 1]
        assert "(backs)" not in front and "intentionally left blank" not in front, f"page {i + 1} is not a front"
        assert "(backs)" in back or "intentionally left blank" in back, f"page {i + 2} is not a back"


def test_kit_without_backs_never_asks_for_duplex(tmp_path):
    result = build_kit("nooks", out=tmp_path, opts=ImposeOptions(duplex="long"), formats=("pdf",))
    reader = pypdf.PdfReader(pdf_of(result))
    assert "/Duplex" not in reader.trailer["/Root"]["/ViewerPreferences"]
    assert result.manifest["duplex"] == "none"
    assert not any("intentionally left blank" in p.extract_text() for p in reader.pages)
