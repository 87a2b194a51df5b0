"""pnp's own words on the cover in the kit's language: the German kit's headings, print guide and
bill of materials come from pnp/locale/de (gettext, read with Babel); a language without a
catalogue keeps the English words and the build note says so. Read back from the PDFs' text."""
from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from babel.messages.pofile import read_po
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.words import LOCALE, has_words, words

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
RULES = ("# Deck\nA deck.\n\n## Components\n- cards\n\n## Setup\nShuffle.\n\n## A turn\nDraw.\n\n"
         "## End and winner\nEnd.\n\n## Fine points\nNone.\n")


def _deck(folder: Path) -> Path:
    folder.mkdir()
    (folder / "deck.yaml").write_text("title: Deck\nlanguages: [en, de, ar]\ncomponents:\n"
                                      "  - {name: card, size: poker, data: cards.csv, front: front.yaml, "
                                      "shape: rounded, radius: 3mm}\n")
    (folder / "front.yaml").write_text("layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12}\n")
    (folder / "cards.csv").write_text("name,name@de,name@ar\nHouse,Haus,بيت\n", encoding="utf-8")
    (folder / "rules.md").write_text(RULES)
    return folder


def _cover(pdf: Path) -> str:
    return " ".join(PdfReader(pdf).pages[0].extract_text().split())


def test_the_german_kit_has_german_furniture_and_a_kit_without_a_catalogue_english(tmp_path):
    deck, out = _deck(tmp_path / "deck"), tmp_path / "out"
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf"])
    assert result.exit_code == 0, result.output
    en, de, ar = (_cover(out / n / f"{n}-a4.pdf") for n in ("deck", "deck-de", "deck-ar"))
    for english in (en, ar):
        assert "Bill of materials" in english and "Print and cut" in english and "Rules quick reference" in english
        assert "Stückliste" not in english
    assert "Stückliste" in de and "Drucken und schneiden" in de and "Regeln in Kürze" in de
    assert "Bill of materials" not in de and "Print at 100 %" not in de
    assert "Endformat" in de and "Abgerundete Ecken (card)" in de  # the table's heads and a guide line of this kit
    assert "Einmal drucken: Seiten 1–2. Das ist das ganze Spiel." in de
    notes = [line for line in result.output.splitlines() if "catalogue" in line]
    assert len(notes) == 1 and "language ar" in notes[0] and "English" in notes[0]


def test_every_translation_keeps_the_placeholders_of_its_message():
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/pnp.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        messages = [m for m in catalog if m.id]
        assert messages
        for m in messages:
            assert m.string, f"{po}: {m.id!r} is not translated"
            assert sorted(re.findall(r"\{\w*\}", m.id)) == sorted(re.findall(r"\{\w*\}", m.string)), (po, m.id)
            assert words(po.parts[-3])(m.id) == m.string  # what a build reads is the catalogue


def test_english_needs_no_catalogue_and_the_catalogues_are_installed():
    assert has_words(None) and has_words("en") and has_words("en-GB") and has_words("de-AT")
    assert not has_words("ar") and words("ar")("Bill of materials") == "Bill of materials"
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["pnp"]
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        assert any(fnmatch(str(po.relative_to(ROOT / "pnp")), pattern) for pattern in data), po
