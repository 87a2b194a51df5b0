"""One reader for every table: `pnp new`, `pnp build` and `pnp validate` read a table the
same way and never guess silently. Each header case gives the right cards (read back from the PDF)
or exit 2 naming the row, with nothing written; delimiters are detected (comma, semicolon, tab,
pipe) or declared; quantities count cards (faces counted in the PDF); picture columns are drawn."""
from __future__ import annotations

import csv
import struct
import zlib
from collections import Counter
from pathlib import Path

import pymupdf as fitz
import pypdf
import pytest
import yaml
from typer.testing import CliRunner

from conftest import filled_rects, open_pdf
from pnp.cli import app
from pnp.custom.scaffold import rules_md
from pnp.custom.header import Ambiguous, Choice, choose
from pnp.custom.table import key, text_of
from pnp.inputs.delimiters import detect
from test_wordlist_formats import write_xlsx

runner = CliRunner()
CARD = (63.5, 88.9)  # pnp new's card: poker size


def _csv(path: Path, rows: list[list], delimiter: str = ",") -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return path


def _new(tmp_path: Path, data: Path, *options: str, name: str = "deck"):
    return runner.invoke(app, ["new", str(tmp_path / name), "--data", str(data), *options])


def _build(tmp_path: Path, name: str = "deck"):
    return runner.invoke(app, ["build", str(tmp_path / name), "--out", str(tmp_path / "out"), "--format", "pdf"])


def _faces(pdf: Path) -> int:
    """Card faces drawn: the white 63.5 x 88.9 mm rectangles pnp new's front paints, on every page
    but the cover."""
    with open_pdf(pdf) as doc:
        return sum(1 for p in doc.pages[1:] for r in filled_rects(p, (1.0, 1.0, 1.0))
                   if abs(r[2] - CARD[0]) < 0.1 and abs(r[3] - CARD[1]) < 0.1)


def _text(pdf: Path) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(pdf).pages[1:])


def _pdf(tmp_path: Path, name: str = "deck") -> Path:
    return tmp_path / "out" / name / f"{name}-a4.pdf"


def _nothing_written(tmp_path: Path, name: str = "deck") -> bool:
    out = tmp_path / "out"
    return not (tmp_path / name).exists() and (not out.exists() or not any(out.iterdir()))


def _spec(folder: Path, data: str, front: str, **component) -> Path:
    """A hand-written game folder reading ``data`` with a one-template front."""
    folder.mkdir(parents=True, exist_ok=True)
    comp = {"name": "card", "size": "poker", "data": data, "front": "front.yaml", **component}
    (folder / f"{folder.name}.yaml").write_text(yaml.safe_dump({"title": "T", "rules": "rules.md",
                                                                "components": [comp]}), encoding="utf-8")
    (folder / "rules.md").write_text(rules_md("T", "A test deck.", data), encoding="utf-8")
    (folder / "front.yaml").write_text(yaml.safe_dump({"layers": [
        {"type": "rect", "fill": "#ffffff", "bleed": True},
        {"type": "text", "text": front, "x": 4, "y": 10, "w": 55, "h": 30, "size": 10, "min_size": 4,
         "fit": "shrink", "wrap": True}]}), encoding="utf-8")
    return folder


# ---- header cases ----------------------------------------------------------------------------------------

def test_a_data_row_with_a_stray_cell_is_refused_not_taken_as_the_header(tmp_path):
    """The old reader took the fullest row as the header: one stray cell made a data row the header
    (0 cards, exit 0). Now the first row is the header and the long row is refused by row, column and value,
    in `pnp new` and in `pnp build` alike, and nothing is written."""
    rows = [["name", "text"], ["Scout", "look"], ["Trader", "swap", "oops, a note"], ["Sage", "draw"]]
    data = _csv(tmp_path / "cards.csv", rows)
    r = _new(tmp_path, data)
    assert r.exit_code == 2, r.output
    assert "row 3" in r.output and "column 3" in r.output and "oops, a note" in r.output
    assert _nothing_written(tmp_path)
    game = _spec(tmp_path / "hand", "cards.csv", "{name}: {text}")
    _csv(game / "cards.csv", rows)
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "row 3" in r.output and "column 3" in r.output, r.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    r = runner.invoke(app, ["validate", str(game)])
    assert r.exit_code != 0 and "row 3" in r.output


def test_two_columns_with_one_name_are_refused_by_new_and_build(tmp_path):
    """Two columns headed alike: `pnp new` used to build with a data row as labels and a card missing;
    now new and build refuse it naming both columns."""
    rows = [["name", "text", "Name"], ["Scout", "look", "x"], ["Sage", "draw", "y"]]
    data = _csv(tmp_path / "cards.csv", rows)
    r = _new(tmp_path, data)
    assert r.exit_code == 2 and "columns 1 and 3" in r.output and "row 1" in r.output, r.output
    assert _nothing_written(tmp_path)
    game = _spec(tmp_path / "hand", "cards.csv", "{name}")
    _csv(game / "cards.csv", rows)
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "columns 1 and 3" in r.output, r.output


def test_an_ambiguous_header_lists_the_candidates_and_how_to_declare_it(tmp_path):
    """A first row narrower than the data (two cells over three columns) could be a title or a header
    missing a name: exit 2 listing both rows and saying --header-row; with it, every card is built."""
    rows = [["Deck", "v2"], ["name", "power", "text"], ["Scout", "1", "look"], ["Sage", "2", "draw"],
            ["Wyrm", "3", "burn"]]
    data = _csv(tmp_path / "cards.csv", rows)
    r = _new(tmp_path, data)
    assert r.exit_code == 2, r.output
    assert "row 1 (Deck, v2)" in r.output and "row 2 (name, power, text)" in r.output and "--header-row" in r.output
    assert _nothing_written(tmp_path)
    r = _new(tmp_path, data, "--header-row", "2")
    assert r.exit_code == 0, r.output
    spec = yaml.safe_load((tmp_path / "deck" / "deck.yaml").read_text(encoding="utf-8"))
    assert spec["components"][0]["header_row"] == 2
    assert _build(tmp_path).exit_code == 0
    text = _text(_pdf(tmp_path))
    assert _faces(_pdf(tmp_path)) == 3 and all(w in text for w in ("Scout", "Sage", "Wyrm", "burn"))


def test_a_first_row_of_numbers_is_data_not_a_header(tmp_path):
    """A list with no header row: its first row is shaped like the rows below (a number where they
    have numbers), so it is a card, not column names; the spec names the columns (columns:) and
    every row is printed."""
    data = _csv(tmp_path / "cards.csv", [["Scout", "3"], ["Sage", "1"], ["Trader", "2"]])
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "the first row is data" in r.output, r.output
    spec = yaml.safe_load((tmp_path / "deck" / "deck.yaml").read_text(encoding="utf-8"))
    assert len(spec["components"][0]["columns"]) == 2 and "header_row" not in spec["components"][0]
    assert _build(tmp_path).exit_code == 0 and _faces(_pdf(tmp_path)) == 3
    assert all(w in _text(_pdf(tmp_path)) for w in ("Scout", "Sage", "Trader"))


def test_a_one_cell_title_above_the_header_is_skipped(tmp_path):
    """A title in A1 above a header as wide as every row below: the header is that row (and the spec
    says so with header_row)."""
    rows = [["My cards, autumn"], [], ["name", "text"], ["Scout", "look"], ["Sage", "draw"]]
    data = _csv(tmp_path / "cards.csv", rows)
    assert _new(tmp_path, data).exit_code == 0
    spec = yaml.safe_load((tmp_path / "deck" / "deck.yaml").read_text(encoding="utf-8"))
    assert spec["components"][0]["header_row"] == 3
    assert _build(tmp_path).exit_code == 0 and _faces(_pdf(tmp_path)) == 2


def test_several_sheets_with_the_needed_columns_are_ambiguous_in_build(tmp_path):
    """Two sheets both hold the columns the template uses: the build names both and asks for sheet:."""
    game = _spec(tmp_path / "hand", "cards.xlsx", "{name}")
    write_xlsx(game / "cards.xlsx", {"Base": [["name"], ["Thief"]], "Expansion": [["name"], ["Bootlegger"]]})
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "sheet Base, row 1" in r.output and "sheet Expansion, row 1" in r.output
    assert "sheet:" in r.output


def test_choose_unit_rules():
    """The header rule on its own: first row; ambiguous candidates; one sheet of several for pnp new."""
    def key_of(c):
        return key(text_of(c))
    rows = [["name", "text"], ["a", "b"], ["c", "d", "x"], ["e", "f"]]
    assert choose([(None, rows)], set(), None, False, key_of) == Choice(None, 1)
    got = choose([("A", [["n", "t"], ["a", "b"]]), ("B", [["n", "t"], ["c", "d"]])], set(), None, False, key_of)
    assert isinstance(got, Ambiguous) and got.candidates == [("A", 1), ("B", 1)]
    assert choose([("A", [["note"]]), ("B", [["n", "t"], ["c", "d"]])], set(), None, True, key_of) == Choice("B", 1)
    got = choose([(None, [["name"], ["x"], ["name"], ["y"]])], {"name"}, None, False, key_of)
    assert isinstance(got, Ambiguous) and got.candidates == [(None, 1), (None, 3)]


# ---- delimiters ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_detect_each_delimiter(delimiter):
    """Each delimiter is found even when the cells hold the others (text with commas, decimal commas)."""
    rows = [["name", "cost", "text"], ["Scout", "1,5", "look, then put back"], ["Sage", "2", "draw; discard"],
            ["Wyrm", "0,5", "burn | melt"]]
    import io
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator="\n").writerows(rows)
    assert detect(buf.getvalue()).delimiter == delimiter


def test_a_pipe_delimited_csv_gives_its_cards(tmp_path):
    """A pipe-separated .csv (pycard's examples) used to be read as one garbage field per row."""
    rows = [["name", "power", "text"], ["Alien", "4", "Lorem ipsum"], ["Barbarian", "6", "sed do"],
            ["Pythia", "3", "ea commodo"]]
    data = _csv(tmp_path / "cards.csv", rows, "|")
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "separated by pipes" in r.output, r.output
    spec = yaml.safe_load((tmp_path / "deck" / "deck.yaml").read_text(encoding="utf-8"))
    assert spec["components"][0]["delimiter"] == "pipe"
    assert _build(tmp_path).exit_code == 0
    text = _text(_pdf(tmp_path))
    assert _faces(_pdf(tmp_path)) == 3
    assert "|" not in text and all(w in text for w in ("Alien", "Barbarian", "Pythia", "ea commodo"))


def test_a_semicolon_csv_with_decimal_commas_gives_its_cards(tmp_path):
    """Excel in most of Europe writes ';' and decimal commas: the commas stay in the cells."""
    rows = [["Name", "Weight", "Text"], ["Sword", "1,5", "Cut, then parry"], ["Shield", "4,25", "Block"]]
    data = _csv(tmp_path / "cards.csv", rows, ";")
    assert _new(tmp_path, data).exit_code == 0
    assert _build(tmp_path).exit_code == 0
    text = _text(_pdf(tmp_path))
    assert _faces(_pdf(tmp_path)) == 2 and "1,5" in text and "4,25" in text and "Cut, then parry" in text


def test_an_ambiguous_delimiter_is_refused_and_can_be_declared(tmp_path):
    """Rows that split alike at ',' and at ';': exit 2 saying --delimiter; declared, it builds; in a
    spec, delimiter: semicolon does the same."""
    text = "name;x,text\nScout;1,look\nSage;2,draw\n"
    data = tmp_path / "cards.csv"
    data.write_text(text, encoding="utf-8")
    r = _new(tmp_path, data)
    assert r.exit_code == 2 and "--delimiter" in r.output and "comma" in r.output and "semicolon" in r.output
    assert _nothing_written(tmp_path)
    assert _new(tmp_path, data, "--delimiter", "semicolon").exit_code == 0
    spec = yaml.safe_load((tmp_path / "deck" / "deck.yaml").read_text(encoding="utf-8"))
    assert spec["components"][0]["delimiter"] == "semicolon"
    assert _build(tmp_path).exit_code == 0
    assert "1,look" in _text(_pdf(tmp_path))


# ---- zero parts ------------------------------------------------------------------------------------------

def test_a_header_without_rows_is_an_error_not_a_pass(tmp_path):
    """A table with no data rows used to pass validate ("every glyph of 0 printed cells")."""
    game = _spec(tmp_path / "hand", "cards.csv", "{name}", copies="{copies}")
    (game / "cards.csv").write_text("name,copies\n", encoding="utf-8")
    r = runner.invoke(app, ["validate", str(game)])
    assert r.exit_code != 0 and "no data rows" in r.output, r.output
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and not (tmp_path / "out").exists()


def test_a_deck_whose_copies_are_all_zero_is_an_error(tmp_path):
    game = _spec(tmp_path / "hand", "cards.csv", "{name}", copies="{copies}")
    (game / "cards.csv").write_text("name,copies\nScout,0\nSage,0\n", encoding="utf-8")
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "no parts" in r.output, r.output
    assert runner.invoke(app, ["validate", str(game)]).exit_code != 0


# ---- quantities ------------------------------------------------------------------------------------------

LOVE = [("@count", "rank", "name", "text"), ("5", "1", "Watchman", "Guess a hand."), ("2", "2", "Monk", "See a hand."),
        ("2", "3", "Knight", "Compare hands."), ("2", "4", "Maid", "Be safe."), ("2", "5", "Heir", "Discard a hand."),
        ("1", "6", "Regent", "Trade hands."), ("1", "7", "Lady", "Must go with 5 or 6."),
        ("1", "8", "Queen", "Lose if discarded.")]


def test_a_love_letter_like_list_of_8_rows_gives_16_cards(tmp_path):
    """The quantity column (@count, as cards.py writes it) sets the copies: the faces counted in the PDF
    and each name's occurrences are the column's values, and the column is not printed."""
    data = _csv(tmp_path / "love.csv", [list(r) for r in LOVE])
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "copies: column '@count'" in r.output, r.output
    assert _build(tmp_path).exit_code == 0
    pdf = _pdf(tmp_path)
    want = {name: int(n) for n, _, name, _ in LOVE[1:]}
    assert _faces(pdf) == sum(want.values())
    words = Counter(_text(pdf).split())
    assert {name: words[name] for name in want} == want and "@count" not in words


@pytest.mark.parametrize("header", ["Qty", "QUANTITY", "count", "num_cards", "Amount", "copies"])
def test_quantity_headers_in_any_case(tmp_path, header):
    data = _csv(tmp_path / "c.csv", [["name", header], ["Scout", "3"], ["Sage", "2"]])
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and f"copies: column {header!r}" in r.output, r.output
    assert _build(tmp_path).exit_code == 0 and _faces(_pdf(tmp_path)) == 5


@pytest.mark.parametrize("bad", ["1.5", "-1", "", "two"])
def test_a_quantity_that_is_not_a_whole_number_is_refused(tmp_path, bad):
    """In pnp new (nothing written) and in the build, naming the row and the column."""
    rows = [["name", "qty"], ["Scout", "3"], ["Sage", bad]]
    r = _new(tmp_path, _csv(tmp_path / "c.csv", rows))
    assert r.exit_code == 2 and "row 3, column 2 (qty)" in r.output, r.output
    assert _nothing_written(tmp_path)
    game = _spec(tmp_path / "hand", "c.csv", "{name}", copies="{qty}")
    _csv(game / "c.csv", rows)
    r = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "row 3, column 2 (qty)" in r.output, r.output


def test_a_number_column_running_1_2_3_is_a_card_number_not_copies(tmp_path):
    """'number' is also a card's printed number (a set's running number): 1, 2, 3 is not read as copies."""
    data = _csv(tmp_path / "c.csv", [["name", "number"], ["Wolf", "1"], ["Guard", "2"], ["Bolt", "3"]])
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "card number" in r.output, r.output
    assert _build(tmp_path).exit_code == 0 and _faces(_pdf(tmp_path)) == 3


# ---- pictures --------------------------------------------------------------------------------------------

def _png(path: Path, rgb: tuple[int, int, int]) -> None:
    """A 640 x 640 px PNG of one colour (over 300 dpi at the scaffold's picture size)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + bytes(rgb) * 640 for _ in range(640))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 640, 640, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_a_picture_column_becomes_an_image_layer(tmp_path):
    """Cells naming .png files: an image layer (not a line of text), the pictures copied with the data,
    one picture drawn per card in the PDF."""
    src = tmp_path / "src"
    src.mkdir()
    _png(src / "wolf.png", (200, 30, 30))
    _png(src / "owl.PNG", (30, 30, 200))
    data = _csv(src / "c.csv", [["name", "art"], ["Wolf", "wolf.png"], ["Owl", "owl.PNG"], ["Wolf 2", "wolf.png"]])
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "column 'art' names pictures" in r.output, r.output
    front = yaml.safe_load((tmp_path / "deck" / "front.yaml").read_text(encoding="utf-8"))
    assert [L["src"] for L in front["layers"] if L["type"] == "image"] == ["{art}"]
    assert not any(L.get("text") == "{art}" for L in front["layers"])
    assert _build(tmp_path).exit_code == 0
    doc = fitz.open(_pdf(tmp_path))
    assert sum(len(doc[i].get_image_info()) for i in range(1, doc.page_count)) == 3
    assert "wolf.png" not in _text(_pdf(tmp_path))


def test_missing_pictures_are_named_by_new_drawn_as_placeholders_and_fail_validate(tmp_path):
    """Designers add art last: pnp new names the missing picture, the build draws a labelled
    placeholder and warns (exit 0), validate fails until the file is there."""
    src = tmp_path / "src"
    src.mkdir()
    _png(src / "wolf.png", (200, 30, 30))
    data = _csv(src / "c.csv", [["name", "art"], ["Wolf", "wolf.png"], ["Owl", "art/owl.svg"]])
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "missing" in r.output and "art/owl.svg" in r.output, r.output
    r = _build(tmp_path)
    assert r.exit_code == 0 and "warning" in r.output and "owl.svg" in r.output, r.output
    assert "owl.svg" in _text(_pdf(tmp_path))  # the placeholder's label
    r = runner.invoke(app, ["validate", str(tmp_path / "deck")])
    assert r.exit_code == 1 and "FAIL" in r.output and "owl.svg" in r.output, r.output


# ---- several sheets --------------------------------------------------------------------------------------

def test_new_names_the_other_sheets_and_a_spec_takes_one_component_from_each(tmp_path):
    """Squib's sample.xlsx has Base, Expansion and Resources: pnp new reads the first and names the
    others; a spec with one component per sheet prints every row of both."""
    sheets = {"Base": [["Name", "Level"], ["Thief", 1], ["Grifter", 2]],
              "Expansion": [["Name", "Level"], ["Bootlegger", 1]], "Empty": []}
    data = write_xlsx(tmp_path / "sample.xlsx", sheets)
    r = _new(tmp_path, data)
    assert r.exit_code == 0 and "read sheet Base" in r.output and "Expansion" in r.output, r.output
    assert "Empty" not in r.output
    spec_path = tmp_path / "deck" / "deck.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    extra = dict(spec["components"][0], name="expansion", sheet="Expansion")
    spec["components"].append(extra)
    spec_path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    assert _build(tmp_path).exit_code == 0
    text = _text(_pdf(tmp_path))
    assert all(w in text for w in ("Thief", "Grifter", "Bootlegger"))
