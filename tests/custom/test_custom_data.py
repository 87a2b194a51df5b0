"""Data-driven games from spreadsheets: the same data as CSV, TSV, XLSX and ODS gives byte-identical
PDFs; `pnp new` on a workbook as people make them (a title row above the header, the word column
second, a notes tab first) builds without edits and prints every cell; rounded cut lines in cut-svg."""
from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from collections import Counter

import pypdf
import pytest
from typer.testing import CliRunner

from conftest import build_kit, filled_rects, open_pdf, pdf_of
from pnp.cli import app
from test_wordlist_formats import write_csv, write_ods, write_xlsx

runner = CliRunner()
WORDS = [("1", "TREE", "a plant"), ("2", "ΛΟΓΟΣ", "Greek"), ("3", "ЖИЗНЬ", "Cyrillic"), ("4", "café", "accented"),
         ("5", "over the hills and far away", "long, wrapped")]
HEADER = ["no", "word", "clue"]

FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: text, text: "{word}", x: 4, y: 10, w: 36, h: 30, size: 20, min_size: 6, fit: shrink, wrap: true, bold: true}
  - {type: text, text: "#{no}: {clue}", x: 4, y: 50, w: 36, h: 10, size: 8}
"""


def _write(fmt: str, folder, rows: list[list], notes_first: bool = False):
    sheets = {"Notes": [["These are my notes."], ["Second line"]]} if notes_first else {}
    sheets["Words"] = rows
    path = folder / f"words.{fmt}"
    if fmt == "csv":
        return write_csv(path, rows)
    if fmt == "tsv":
        return write_csv(path, rows, "\t", bom=False, quote_all=False)
    if fmt == "xlsx":
        return write_xlsx(path, sheets)
    return write_ods(path, sheets)


def _game(folder, data: str) -> None:
    (folder / "words.yaml").write_text(
        "title: Words\ndesigner: A. Tester\ncomponents:\n"
        f"  - {{name: card, size: mini-euro, data: {data}, front: front.yaml}}\n", encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "rules.md").write_text((folder.parent.parent / "rules.md").read_text(encoding="utf-8"), encoding="utf-8")


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    root = tmp_path_factory.mktemp("r")
    text = "# Words\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n" \
           "## End and winner\nNobody.\n\n## Fine points\n- None.\n"
    (root / "rules.md").write_text(text, encoding="utf-8")
    return root


def test_same_data_four_formats_same_pdf(rules, tmp_path):
    """Numbers stored as numbers in the workbooks (the 'no' column) print as the CSV's text does."""
    digests = {}
    for fmt in ("csv", "tsv", "xlsx", "ods"):
        folder = rules / fmt / "game"
        folder.mkdir(parents=True)
        rows = [HEADER] + [[int(n) if fmt in ("xlsx", "ods") else n, w, c] for n, w, c in WORDS]
        _write(fmt, folder, rows)
        _game(folder, f"words.{fmt}")
        result = build_kit(str(folder / "words.yaml"), out=tmp_path / fmt, formats=("pdf",))
        digests[fmt] = hashlib.sha256(pdf_of(result).read_bytes()).hexdigest()
        text = "".join(p.extract_text() for p in pypdf.PdfReader(pdf_of(result)).pages[1:])
        assert "#1: a plant" in text and "ΛΟΓΟΣ" in text and "ЖИЗНЬ" in text
    assert len(set(digests.values())) == 1, digests


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_new_on_a_workbook_builds_without_edits(tmp_path, fmt):
    rows = [["My word list, autumn edition"], [], HEADER] + [list(r) for r in WORDS]
    data = _write(fmt, tmp_path, rows, notes_first=True)
    game = tmp_path / "my-words"
    r = runner.invoke(app, ["new", str(game), "--data", str(data)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out"), "--format", "pdf"])
    assert r.exit_code == 0, r.output
    pdf = tmp_path / "out" / "my-words" / "my-words-a4.pdf"
    pages = pypdf.PdfReader(pdf).pages
    text = " ".join(" ".join(p.extract_text().split()) for p in pages[1:])
    for row in WORDS:
        for cell in row:
            assert cell in text, cell
    fronts = " ".join(" ".join(p.extract_text().split()) for p in pages[1::2])
    assert "clue:" in fronts.split() and Counter(fronts.split())["clue:"] == len(WORDS)  # a short field: labelled
    assert "These are my notes" not in text
    with open_pdf(pdf) as doc:  # the sheet's title row names the game
        assert doc.metadata["Title"].startswith("My word list, autumn edition")
    with open_pdf(pdf) as doc:  # poker-size cards, one per row
        cards = [r for p in doc.pages[1:] for r in filled_rects(p, (1.0, 1.0, 1.0))
                 if abs(r[2] - 63.5) < 0.1 and abs(r[3] - 88.9) < 0.1]
    assert len(cards) == len(WORDS)
    r = runner.invoke(app, ["validate", str(game)])
    assert r.exit_code == 0 and "PASS" in r.output


def test_new_without_data_builds_and_refuses_an_existing_folder(tmp_path):
    game = tmp_path / "sample"
    assert runner.invoke(app, ["new", str(game)]).exit_code == 0
    r = runner.invoke(app, ["build", str(game / "sample.yaml"), "--out", str(tmp_path / "out"), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    before = sorted(p.name for p in game.iterdir())
    r = runner.invoke(app, ["new", str(game)])
    assert r.exit_code == 2 and "not empty" in r.output and "Traceback" not in r.output
    assert sorted(p.name for p in game.iterdir()) == before


def test_rounded_cut_lines(tmp_path):
    from conftest import REPO
    result = build_kit(str(REPO / "specs" / "playing-cards"), out=tmp_path, formats=("cut-svg",))
    svg = next(p for p in result.files if p.suffix == ".svg" and "-p02" in p.name)
    ns = {"s": "http://www.w3.org/2000/svg", "i": "http://www.inkscape.org/namespaces/inkscape"}
    root = ET.parse(svg).getroot()
    cut = next(g for g in root.iter("{http://www.w3.org/2000/svg}g")
               if g.get("{http://www.inkscape.org/namespaces/inkscape}label") == "cut")
    rects = cut.findall(".//s:rect", ns)
    assert rects and all(abs(float(r.get("width")) - 63.5) < 0.1 and abs(float(r.get("height")) - 88.9) < 0.1
                         and float(r.get("rx")) == 3.0 == float(r.get("ry")) for r in rects)


def test_custom_imports_no_layout_render_build_or_cli():
    """pnp.custom describes parts and reads data: it may use pnp.core, pnp.inputs and pnp.games only."""
    from test_layering import import_graph
    graph = import_graph()
    mods = [m for m in graph if m == "pnp.custom" or m.startswith("pnp.custom.")]
    assert len(mods) >= 5
    bad = [f"{m} imports {d}" for m in mods for d in graph[m]
           if d.split(".")[:2] in (["pnp", "layout"], ["pnp", "render"], ["pnp", "build"], ["pnp", "cli"])]
    assert bad == []


def test_tabletop_simulator_deck_of_rounded_cards(tmp_path):
    """Rounded-corner cards make a TTS deck like rectangular ones: a DeckCustom of 54 cards whose sheet
    image is NumWidth x NumHeight cells of the cards' aspect ratio."""
    import json
    from urllib.parse import unquote, urlparse

    from PIL import Image
    from conftest import REPO
    result = build_kit(str(REPO / "specs" / "playing-cards"), out=tmp_path, formats=("tts",))
    saved = json.loads(next(p for p in result.files if p.suffix == ".json").read_text(encoding="utf-8"))
    [deck] = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(deck["DeckIDs"]) == 54 == len(deck["ContainedObjects"])
    [sheet] = deck["CustomDeck"].values()
    img = Image.open(unquote(urlparse(sheet["FaceURL"]).path))
    w, h = img.size[0] / sheet["NumWidth"], img.size[1] / sheet["NumHeight"]
    assert abs(w / h - 63.5 / 88.9) < 0.01


def test_hidden_sheets_are_skipped_unless_named(tmp_path):
    """A hidden sheet holding an old copy of the data is not taken for the data."""
    import openpyxl

    from pnp.custom.table import read_table
    wb = openpyxl.Workbook()
    old = wb.active
    old.title = "Old"
    old.append(["word"])
    old.append(["STALE"])
    old.sheet_state = "hidden"
    new = wb.create_sheet("Current")
    new.append(["word"])
    new.append(["FRESH"])
    path = tmp_path / "w.xlsx"
    wb.save(path)
    assert [r.values["word"] for r in read_table(path, {"word"}).rows] == ["FRESH"]
    assert [r.values["word"] for r in read_table(path, {"word"}, sheet="Old").rows] == ["STALE"]


def test_new_takes_a_copies_column_as_the_count(tmp_path):
    """A workbook column named copies makes that many of each card (not a printed field), as the
    sample CSV does; the card count read back from the PDF is the column's sum."""
    rows = [["name", "Copies"], ["Goblin", 3], ["Troll", 1], ["Wyrm", 2]]
    data = _write("xlsx", tmp_path, rows)
    game = tmp_path / "monsters"
    assert runner.invoke(app, ["new", str(game), "--data", str(data)]).exit_code == 0
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out"), "--format", "pdf"])
    assert r.exit_code == 0, r.output
    pdf = tmp_path / "out" / "monsters" / "monsters-a4.pdf"
    with open_pdf(pdf) as doc:
        cards = [r for p in doc.pages[1:] for r in filled_rects(p, (1.0, 1.0, 1.0))
                 if abs(r[2] - 63.5) < 0.1 and abs(r[3] - 88.9) < 0.1]
    assert len(cards) == 3 + 1 + 2
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages[1:])
    assert text.count("Goblin") == 3 and "Copies" not in text


@pytest.mark.parametrize("name,inches", [("poker", (2.5, 3.5)), ("bridge", (2.25, 3.5)), ("tarot", (70 / 25.4, 120 / 25.4))])
def test_named_card_sizes_print_at_their_standard_size(rules, tmp_path, name, inches):
    """A named size is the card the field means by it (shared/PRINT.md; poker 2.5 x 3.5 in is what
    The Game Crafter's 825 x 1125 px template at 300 dpi with 1/8 in bleed is made for): the white
    card faces read back from the PDF measure that many mm."""
    folder = tmp_path / "g" / "deck"
    folder.mkdir(parents=True)
    (folder / "cards.csv").write_text("no,word,clue\n1,TREE,a plant\n", encoding="utf-8")
    (tmp_path / "rules.md").write_text((rules / "rules.md").read_text(encoding="utf-8"), encoding="utf-8")
    _game(folder, "cards.csv")
    spec = folder / "words.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("size: mini-euro", f"size: {name}"), encoding="utf-8")
    w, h = (v * 25.4 for v in inches)
    result = build_kit(str(spec), out=tmp_path / "out", formats=("pdf",))
    with open_pdf(pdf_of(result)) as doc:
        faces = [r for p in doc.pages[1:] for r in filled_rects(p, (1.0, 1.0, 1.0))
                 if abs(r[2] - w) < 0.1 and abs(r[3] - h) < 0.1]
    assert len(faces) == 1, f"no {w:.2f} x {h:.2f} mm card face"
