"""Bad input to a data-driven game, through the CLI: exit 2, one message naming the file, the row or
line and the field, no traceback, and the output folder byte-for-byte as it was (nothing written)."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import assert_refused, snapshot
from pnp.cli import app

runner = CliRunner()
RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
SPEC = "title: Deck\ncomponents:\n  - name: card\n    size: poker\n    data: deck.csv\n    front: front.yaml\n{extra}"
FRONT = ('layers:\n'
         '  - {type: rect, fill: "#ffffff", bleed: true}\n'
         '  - {type: text, text: "{word}", x: 5, y: 5, w: 53, h: 20, size: 12, min_size: 8, fit: shrink, wrap: true}\n')
CSV = "word,copies\nTREE,1\nLEAF,2\n"


def _game(folder, spec_extra: str = "", front: str = FRONT, csv: str = CSV, files: dict | None = None):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deck.yaml").write_text(SPEC.format(extra=spec_extra), encoding="utf-8")
    (folder / "front.yaml").write_text(front, encoding="utf-8")
    (folder / "deck.csv").write_text(csv, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder / "deck.yaml"


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An output folder holding a good kit of the same name, to prove a refused build changes nothing."""
    root = tmp_path_factory.mktemp("good")
    out = root / "out"
    spec = _game(root / "deck")
    r = runner.invoke(app, ["build", str(spec), "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    return out


LONG = "word\n" + "".join(f"w{i}\n" for i in range(100_000))
CASES = {
    # name: (spec extra, front, csv, extra files, (file named, "line N" or None, field, words in the message))
    "missing column": ("", None, "term,copies\nTREE,1\n", None,
                       ("deck.csv", "line 1", "components.0.data",
                        ["row 1: no column 'word'", "term, copies", "'word' is used in front.yaml, line 3, field text"])),
    "placeholder naming no column": (  # a template chosen per row is bound to the header once it is read
        "", None, "word,kind\nTREE,plain\n", {"plain.yaml": FRONT.replace("{word}", "{wrod}")},
        ("plain.yaml", "line 3", "text", ["placeholder {wrod}", "no column 'wrod'", "its columns: kind, word"])),
    "overflowing text": ("", None, "word\n" + "x" * 400 + "\nTREE\n", None,
                         ("deck.csv", "line 2", "text", ["row 2, column 1 (word)", "does not fit", "front.yaml layer 2"])),
    "unknown layer key": ("", FRONT.replace("size: 12,", "size: 12, colur: red,"), None, None,
                          ("front.yaml", "line 3", "layers.1.colur", ["unknown key 'colur'"])),
    "copies -1": ("    copies: '{copies}'\n", None, "word,copies\nTREE,1\nLEAF,-1\n", None,
                  ("deck.csv", "line 3", "copies", ["row 3, column 2 (copies)", "'-1'"])),
    "copies 10^9": ("    copies: '{copies}'\n", None, "word,copies\nTREE,1000000000\n", None,
                    ("deck.csv", "line 2", "copies", ["row 2, column 2 (copies)", "1000000000"])),
    "copies in spec 10^9": ("    copies: 1000000000\n", None, None, None,
                            ("deck.yaml", "line 7", "components.0.copies", ["from 0 to 1000", "1000000000"])),
    "template includes itself": ("", "include: [front.yaml]\n" + FRONT, None, None,
                                 ("front.yaml", "line 1", "include", ["includes itself"])),
    "include loop": ("", "include: [other.yaml]\n" + FRONT, None, {"other.yaml": "include: [front.yaml]\nlayers: []\n"},
                     ("other.yaml", "line 1", "include", ["includes itself"])),
    "100,000 rows": ("", None, LONG, None, ("deck.csv", "line 10002", "components.0.data", ["more than 10,000 data rows"])),
    "bad colour cell": ("", FRONT.replace('fill: "#ffffff"', 'fill: "{word}"'), None, None,
                        ("deck.csv", "line 2", "fill", ["'TREE' is not a colour"])),
    "unknown layer type": ("", FRONT.replace("type: rect", "type: star"), None, None,
                           ("front.yaml", "line 2", "layers.0.type", ["'star'"])),
    "extends an unknown layer": ("", FRONT + "  - {extends: title, x: 10}\n", None, None,
                                 ("front.yaml", "line 4", "layers.2.extends", ["extends 'title'"])),
    "text box past the trim": ("", FRONT.replace("x: 5, y: 5, w: 53", "x: 15, y: 5, w: 53"), None, None,
                               ("front.yaml", "line 3", "x", ["reaches past the 63.5 x 88.9 mm part"])),
    "fit: box with wrap": ("", FRONT.replace("fit: shrink, wrap: true", "fit: box, wrap: true"), None, None,
                           ("front.yaml", "line 3", "wrap", ["never breaks lines"])),
    "unknown fit": ("", FRONT.replace("fit: shrink", "fit: grow"), None, None,
                    ("front.yaml", "line 3", "layers.1.fit", ["'shrink'", "'box'"])),
    "unknown valign": ("", FRONT.replace("size: 12,", "size: 12, valign: centre,"), None, None,
                       ("front.yaml", "line 3", "layers.1.valign", ["'cap-middle'"])),
    "underline not a flag": ("", FRONT.replace("size: 12,", "size: 12, underline: maybe,"), None, None,
                             ("front.yaml", "line 3", "layers.1.underline", ["true or false"])),
    "overflowing box-fitted text": ("", FRONT.replace("fit: shrink, wrap: true", "fit: box"), "word\n" + "x" * 400 + "\n",
                                    None, ("deck.csv", "line 2", "text", ["does not fit", "even at 8 pt",
                                                                          "box larger or its min_size smaller"])),
    "missing template": ("", None, None, None, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input(existing, tmp_path, case):
    extra, front, csv, files, expect = CASES[case]
    spec = _game(tmp_path / "deck", extra, front or FRONT, csv or CSV, files)
    if case == "placeholder naming no column":
        (tmp_path / "deck" / "deck.yaml").write_text(SPEC.format(extra="").replace("front.yaml", "'{kind}.yaml'"),
                                                     encoding="utf-8")
    if case == "missing template":
        (tmp_path / "deck" / "front.yaml").unlink()
        expect = ("deck.yaml", "line 6", "components.0.front", ["'front.yaml' not found"])
    fname, line, field, needles = expect
    assert_refused(spec, existing, fname, line, field, needles, case)


def test_rows_refused_before_drawing(tmp_path, monkeypatch):
    """100,000 rows are refused while the data is read: no face is drawn, no page imposed."""
    from pnp.custom import draw
    drawn = []
    monkeypatch.setattr(draw.Face, "draw", lambda self, row: drawn.append(row))
    spec = _game(tmp_path / "deck", csv=LONG)
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and drawn == []
    assert not (tmp_path / "out" / "deck").exists()


@pytest.mark.parametrize("case", ["latin-1 csv", "unknown sheet", "two columns alike"])
def test_bad_data_file(existing, tmp_path, case):
    spec = _game(tmp_path / "deck")
    data = tmp_path / "deck" / "deck.csv"
    if case == "latin-1 csv":
        data.write_bytes("word\nTREE\ncaf\u00e9\n".encode("latin-1"))
        needles = ["line 3", "not UTF-8", "0xe9"]
    elif case == "unknown sheet":
        spec.write_text(spec.read_text(encoding="utf-8").replace("    front:", "    sheet: Cards\n    front:"),
                        encoding="utf-8")
        needles = ["deck.csv", "has no sheets", "'Cards'", "field components.0.data"]
    else:
        data.write_text("word,Word\nTREE,LEAF\n", encoding="utf-8")
        needles = ["line 1", "two columns are headed 'Word'"]
    before = snapshot(existing)
    r = runner.invoke(app, ["build", str(spec), "--out", str(existing)])
    out = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    for needle in needles:
        assert needle in out, (needle, out)
    assert snapshot(existing) == before


def test_a_failing_declared_check_stops_the_build(existing, tmp_path):
    """validate exits 1 naming the check and its numbers; build exits 1 and writes nothing."""
    extra = "checks:\n  - {check: count, component: card, equals: 3}\n  - {check: unique, component: card, columns: [word]}\n"
    spec = _game(tmp_path / "deck", csv="word\nTREE\nTREE\n")
    spec.write_text(spec.read_text(encoding="utf-8") + extra, encoding="utf-8")
    r = runner.invoke(app, ["validate", str(spec)])
    assert r.exit_code == 1
    assert "FAIL    card: 2 parts (the spec asks for 3)" in r.output
    assert "repeated: 'TREE (rows 2 and 3)'" in r.output and "deck.yaml, line 8" in r.output
    before = snapshot(existing)
    r = runner.invoke(app, ["build", str(spec), "--out", str(existing)])
    assert r.exit_code == 1 and snapshot(existing) == before
