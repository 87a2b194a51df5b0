"""A template-drawn part's fingerprint (pnp.pipeline.parts, pnp.custom.draw.Face.fingerprint): what
changes it and what does not, read from the parts pnp plans for a small deck made here.

The deck: deck.csv (columns id, name, image, notes; key: id), front.yaml (a text layer printing
{name} in a declared font, an image layer showing art/{image}, an image layer showing art/logo.png),
back.yaml (a blue rect). The template reads name and image, never notes; rows 1 and 3 hold the same
name and image.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image as PILImage
from typer.testing import CliRunner

from test_custom_fonts import make_font
from pnp.cli import app
from pnp.custom.draw import Face
from pnp.custom.fronts import TemplateFronts
from pnp.pipeline.parts import parts_of
from pnp.pipeline.plan import Request, load_paper, plan

runner = CliRunner()
RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
SPEC = ("title: Deck\nfonts:\n  title: title.ttf\ncomponents:\n  - name: card\n    size: {size}\n    data: deck.csv\n"
        "    key: id\n    front: front.yaml\n    back: back.yaml\n")
FRONT = ("layers:\n  - {{type: rect, fill: '#ffffff'}}\n"
         "  - {{type: text, text: '{{name}}', x: {x}, y: 4, w: 50, h: 10, font: title}}\n"
         "  - {{type: image, src: 'art/{{image}}', x: 4, y: 20, w: 40, h: 40}}\n"
         "  - {{type: image, src: 'art/logo.png', x: 4, y: 70, w: 10, h: 10}}\n")
BACK = "layers:\n  - {{type: rect, fill: '{fill}'}}\n"
CSV = "id,name,image,notes\n1,ALPHA,a.png,one\n2,BETA,b.png,two\n3,ALPHA,a.png,three\n"


def _png(path: Path, colour: tuple[int, int, int]) -> None:
    PILImage.new("RGB", (600, 600), colour).save(path)


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck"
    (folder / "art").mkdir(parents=True)
    (folder / "deck.yaml").write_text(SPEC.format(size="poker"), encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT.format(x=4), encoding="utf-8")
    (folder / "back.yaml").write_text(BACK.format(fill="#0000ff"), encoding="utf-8")
    (folder / "deck.csv").write_text(CSV, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    make_font(folder / "title.ttf")
    _png(folder / "art" / "a.png", (200, 0, 0))
    _png(folder / "art" / "b.png", (0, 200, 0))
    _png(folder / "art" / "logo.png", (0, 0, 200))
    return folder


def fingerprints(folder: Path) -> dict[str, str]:
    """Each card's key -> its fingerprint, as a build of ``folder`` would record it."""
    [tp] = plan([str(folder)], Request(load_paper("a4"), ("pdf",))).targets
    [comp] = [c for c in tp.components if c.name == "card"]
    assert isinstance(comp.fronts, TemplateFronts)  # held as rows and template: fingerprinted by them
    got = {p.key: p.fingerprint for p in parts_of(tp.components) if p.group == "card"}
    assert sorted(got) == ["1", "2", "3"]
    return got


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {k for k in before if before[k] != after[k]}


def test_rows_with_the_same_cells_the_template_reads_share_a_fingerprint(deck):
    fp = fingerprints(deck)
    assert fp["1"] == fp["3"]  # same name and image; id and notes differ, and the template reads neither
    assert fp["1"] != fp["2"]


def test_a_cell_the_template_reads_changes_only_its_card(deck):
    before = fingerprints(deck)
    (deck / "deck.csv").write_text(CSV.replace("2,BETA,", "2,GAMMA,"), encoding="utf-8")
    assert changed(before, fingerprints(deck)) == {"2"}


def test_a_column_the_template_does_not_read_changes_nothing(deck):
    before = fingerprints(deck)
    (deck / "deck.csv").write_text(CSV.replace(",one\n", ",uno\n").replace(",three\n", ",tres\n"), encoding="utf-8")
    assert changed(before, fingerprints(deck)) == set()


def test_a_template_layer_changes_every_card(deck):
    before = fingerprints(deck)
    (deck / "front.yaml").write_text(FRONT.format(x=5), encoding="utf-8")
    assert changed(before, fingerprints(deck)) == {"1", "2", "3"}


def test_a_picture_a_cell_names_changes_the_cards_showing_it(deck):
    before = fingerprints(deck)
    _png(deck / "art" / "a.png", (201, 0, 0))  # same name and size, other bytes
    assert changed(before, fingerprints(deck)) == {"1", "3"}


def test_a_picture_the_template_names_changes_every_card(deck):
    before = fingerprints(deck)
    _png(deck / "art" / "logo.png", (0, 0, 201))
    assert changed(before, fingerprints(deck)) == {"1", "2", "3"}


def test_a_declared_font_file_changes_every_card(deck):
    before = fingerprints(deck)
    make_font(deck / "title.ttf", family="Pnp Other")
    assert changed(before, fingerprints(deck)) == {"1", "2", "3"}


def test_the_part_size_changes_every_card(deck):
    before = fingerprints(deck)
    (deck / "deck.yaml").write_text(SPEC.format(size="bridge"), encoding="utf-8")
    assert changed(before, fingerprints(deck)) == {"1", "2", "3"}


def test_the_back_changes_every_card(deck):
    before = fingerprints(deck)
    (deck / "back.yaml").write_text(BACK.format(fill="#ff0000"), encoding="utf-8")
    assert changed(before, fingerprints(deck)) == {"1", "2", "3"}


def test_fingerprints_are_made_without_drawing_a_front(deck, monkeypatch):
    """parts_of asks each front's template for its fingerprint and draws none; the drawn fronts are
    what the imposition gets, and they draw the card's own cell."""
    [tp] = plan([str(deck)], Request(load_paper("a4"), ("pdf",))).targets
    [comp] = [c for c in tp.components if c.name == "card"]
    words = [next(s.text for s in _texts(comp.fronts[i])) for i in range(len(comp.fronts))]
    assert words == ["ALPHA", "BETA", "ALPHA"]

    def no_drawing(self, row):
        raise AssertionError("a front was drawn to fingerprint it")
    monkeypatch.setattr(Face, "draw", no_drawing)
    assert len({p.fingerprint for p in parts_of(tp.components) if p.group == "card"}) == 2


def _texts(shapes):
    for s in shapes:
        if hasattr(s, "children"):
            yield from _texts(s.children)
        elif hasattr(s, "text") and isinstance(s.text, str):
            yield s


def test_diff_against_an_older_manifest_says_it_cannot_compare(deck, tmp_path):
    """A manifest whose fingerprints are of an earlier kind (no parts_version: every part by its
    drawing) is not compared: `pnp diff` exits 2 with one line naming the file and the field."""
    out = tmp_path / "out"
    got = runner.invoke(app, ["build", str(deck), "--out", str(out), "--format", "pdf"])
    assert got.exit_code == 0, got.output
    manifest = out / "deck" / "manifest-a4.json"
    text = manifest.read_text(encoding="utf-8")
    assert '"parts_version": 2,' in text
    got = runner.invoke(app, ["diff", str(deck), "--out", str(out)])
    assert got.exit_code == 0, got.output  # the same inputs: nothing changed
    manifest.write_text(text.replace('"parts_version": 2,', ""), encoding="utf-8")
    got = runner.invoke(app, ["diff", str(deck), "--out", str(out)])
    assert got.exit_code == 2
    lines = got.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "parts_version" in lines[0]
    assert "manifest-a4.json" in lines[0] and "Traceback" not in got.output


def test_a_deck_drawn_on_demand_prints_the_same_bytes(deck, tmp_path, monkeypatch):
    """A component of more than HELD_FRONTS fronts keeps its rows, not its drawings, and draws each
    front when the imposition asks: the same fronts, the same fingerprints and the same PDF and SVG
    bytes as the deck kept drawn (here HELD_FRONTS is lowered so the small deck is drawn on demand)."""
    def build(name: str) -> tuple[dict, list, dict]:
        [tp] = plan([str(deck)], Request(load_paper("a4"), ("pdf",))).targets
        [comp] = [c for c in tp.components if c.name == "card"]
        out = tmp_path / name
        got = runner.invoke(app, ["build", str(deck), "--out", str(out), "--format", "pdf,svg"])
        assert got.exit_code == 0, got.output
        files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
                 if p.suffix in (".pdf", ".svg")}
        return fingerprints(deck), [comp.fronts[i] for i in range(len(comp.fronts))], files

    kept = build("kept")
    monkeypatch.setattr("pnp.custom.parts.HELD_FRONTS", 0)
    [tp] = plan([str(deck)], Request(load_paper("a4"), ("pdf",))).targets
    [comp] = [c for c in tp.components if c.name == "card"]
    first = comp.fronts[0]
    assert first == kept[1][0] and comp.fronts[1] == kept[1][1]
    assert comp.fronts[0] is not first  # drawn anew when asked again (the row between drew another)
    drawn = build("drawn")
    assert drawn[0] == kept[0] and drawn[1] == kept[1]
    assert len(kept[2]) >= 2 and drawn[2].keys() == kept[2].keys()
    assert all(drawn[2][k] == kept[2][k] for k in kept[2])
