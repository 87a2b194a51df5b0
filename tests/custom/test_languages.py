"""One deck, many languages: ``languages: [en, de]`` builds one kit per language, a text placeholder
reads ``name@de`` in the German kit (else ``name``, told in a build note), the rules text
``rules.de.md`` when there is one, ``--lang`` builds one, and every check runs per language with the
language named in its message. Read back from the PDFs' text."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from conftest import snapshot
from pnp.cli import app

runner = CliRunner()

RULES = ("# Deck\n{line}\n\n## Components\n- cards\n\n## Setup\nShuffle.\n\n## A turn\nDraw.\n\n"
         "## End and winner\nEnd.\n\n## Fine points\nNone.\n")


def _deck(root: Path, rows: str, languages: str = "[en, de]", german_rules: bool = True) -> Path:
    deck = root / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text(f"title: Deck\nlanguages: {languages}\ncomponents:\n"
                                    "  - {name: card, size: poker, data: cards.csv, front: front.yaml}\n")
    (deck / "front.yaml").write_text("layers:\n"
                                     "  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12, size: 14}\n"
                                     "  - {type: text, text: '{kind}', x: 5, y: 40, w: 50, h: 20, size: 10}\n"
                                     "  - {type: rect, x: 0, y: 80, w: 10, h: 5, fill: '#ff0000', "
                                     "when: {column: kind, equals: red}}\n")
    (deck / "cards.csv").write_text(rows, encoding="utf-8")
    (deck / "rules.md").write_text(RULES.format(line="A deck of words."))
    if german_rules:
        (deck / "rules.de.md").write_text(RULES.format(line="Ein Stapel Woerter."))
    return deck


ROWS = "name,name@de,kind\nHouse,Haus,red\nTree,,blue\nDoor,Tuer,red\n"


def _text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_one_kit_per_language_with_translations_and_fallbacks(tmp_path):
    deck = _deck(tmp_path, ROWS)
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf"])
    assert result.exit_code == 0, result.output
    english, german = out / "deck" / "deck-a4.pdf", out / "deck-de" / "deck-de-a4.pdf"
    assert english.is_file() and german.is_file()
    en, de = _text(english), _text(german)
    assert {"House", "Tree", "Door"} <= set(en.split()) and "Haus" not in en
    assert {"Haus", "Tuer", "Tree"} <= set(de.split()), de  # Tree: no translation, the default text
    assert "House" not in de and "Door" not in de
    assert "Ein Stapel Woerter." in de and "A deck of words." in en
    assert "Ein Stapel" not in en
    # the missing translations are told: the empty cell by its row, the column without @de by name
    note = next(line for line in result.output.splitlines() if "language de: " in line and "default" in line)
    assert "row 3 (name)" in note and "kind@de" in note
    assert "default text" not in result.output.split("language de")[0]  # the first language is the default
    assert "language de: set in Noto Sans." in result.output  # the fonts each language's text used


def test_when_conditions_read_the_default_column(tmp_path):
    """A translated kind does not change which layers a row shows: when: reads kind as it is."""
    rows = "name,kind,kind@de\nHouse,red,rot\nTree,blue,blau\n"
    deck = _deck(tmp_path, rows)
    out = tmp_path / "out"
    assert runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf"]).exit_code == 0
    import pymupdf
    for pdf in (out / "deck" / "deck-a4.pdf", out / "deck-de" / "deck-de-a4.pdf"):
        reds = [d for d in pymupdf.open(pdf)[-1].get_drawings() if d.get("fill") and
                tuple(round(c, 2) for c in d["fill"]) == (1.0, 0.0, 0.0)]
        assert len(reds) == 1, pdf
    assert "rot" in _text(out / "deck-de" / "deck-de-a4.pdf").split()


def test_lang_builds_one_and_an_unknown_code_is_bad_input(tmp_path):
    deck = _deck(tmp_path, ROWS)
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert (out / "deck-de" / "deck-de-a4.pdf").is_file() and not (out / "deck").exists()
    other = tmp_path / "other"
    result = runner.invoke(app, ["build", str(deck), "-o", str(other), "-f", "pdf", "--lang", "fr"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--lang fr" in result.output and "en, de" in result.output
    assert not other.exists() or snapshot(other) == {}


def test_a_check_that_fails_in_one_language_names_it_the_row_and_the_column(tmp_path):
    long = "Donaudampfschifffahrtsgesellschaftskapitaensmuetze " * 6
    deck = _deck(tmp_path, f"name,name@de,kind\nHouse,Haus,red\nTree,{long.strip()},blue\n")
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf"])
    assert result.exit_code == 2, result.output
    flat = " ".join(result.output.split())
    assert "in the de kit" in flat and "row 3" in flat and "(name@de)" in flat and "does not fit" in flat
    assert not out.exists() or snapshot(out) == {}  # nothing written, not even the English kit


def test_a_translation_cell_that_cannot_print_is_refused_by_row_and_column(tmp_path):
    deck = _deck(tmp_path, "name,name@de,kind\nHouse,Ha\u202eus,red\n")
    result = runner.invoke(app, ["build", str(deck), "-o", str(tmp_path / "out"), "-f", "pdf"])
    flat = " ".join(result.output.split())
    assert result.exit_code == 2 and "row 2" in flat and "name@de" in flat, flat


@pytest.mark.parametrize("value, said", [("[en, EN]", "not a language code"), ("[de, de]", "twice"),
                                         ("[]", "1 to 20")])
def test_bad_languages_are_refused_with_the_spec_line(tmp_path, value, said):
    deck = _deck(tmp_path, ROWS, languages=value)
    result = runner.invoke(app, ["validate", str(deck)])
    flat = " ".join(result.output.split())
    assert result.exit_code == 2 and "line 2" in flat and "languages" in flat and said in flat, flat


def test_the_questions_example_builds_in_english_arabic_and_hindi(tmp_path):
    """specs/questions: three kits; the Arabic one sets its translated questions in Noto Sans Arabic,
    right-aligned in their box, the Hindi one in Devanagari; the rows without a translation are listed."""
    import pymupdf
    from pnp.inputs.resources import builtin_spec
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(builtin_spec("questions")), "-o", str(out), "-f", "pdf"])
    assert result.exit_code == 0, result.output
    kits = {code: out / name / f"{name}-a4.pdf" for code, name in
            (("en", "questions"), ("ar", "questions-ar"), ("hi", "questions-hi"))}
    assert all(p.is_file() for p in kits.values())
    for code in ("ar", "hi"):
        note = next(line for line in result.output.splitlines() if f"language {code}: " in line and "default" in line)
        assert "row 3 (language, question)" in note  # the second question has no translation
    fonts_of = {code: {f[3] for page in pymupdf.open(p) for f in page.get_fonts()} for code, p in kits.items()}
    assert not any("Arabic" in f for f in fonts_of["en"]) and any("Arabic" in f for f in fonts_of["ar"])
    with pymupdf.open(kits["hi"]) as doc:
        chars = {chr(c[0]) for page in doc for s in page.get_texttrace() for c in s["chars"]}
    assert {"ह", "न", "द"} <= chars  # हिन्दी at the foot, and the questions
    with pymupdf.open(kits["ar"]) as doc:  # the first card: its question's Arabic glyphs end at the box's right
        page = doc[1]
        left = min(d["rect"].x0 for d in page.get_drawings() if d.get("fill") and
                   all(abs(a - b) < 0.01 for a, b in zip(d["fill"], (0xd5 / 255, 0x5e / 255, 0)))) * 25.4 / 72
        xs = [c[3][2] * 25.4 / 72 for s in page.get_texttrace() if "Arabic" in s["font"] and s["size"] > 12
              for c in s["chars"]]
        right = max(x for x in xs if x < left + 70)
        assert right == pytest.approx(left + 63, abs=0.6)  # the box: 7 mm to 63 mm of the card
