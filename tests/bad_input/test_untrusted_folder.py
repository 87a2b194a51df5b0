"""An untrusted game folder (issue 46): kit names from language codes, two targets writing one kit folder,
errors about a translated cell naming that cell's column.

CASES are run through the CLI here and by tests/make_matrix_doc.py (docs/bad-input-matrix.md, "An untrusted
folder, an untrusted --out"): each makes its files in a temporary folder and returns the command; the kit a
build into a folder already holding one must leave byte for byte as it was.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from conftest import snapshot
from pnp.cli import app

runner = CliRunner()

RULES = ("# Deck\nA deck.\n\n## Components\n- cards\n\n## Setup\nShuffle.\n\n## A turn\nDraw.\n\n"
         "## End and winner\nEnd.\n\n## Fine points\nNone.\n")
FRONT = "layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12, size: 14}\n"


def deck(root: Path, name: str = "deck", languages: str | None = "[en, de]",
         rows: str = "name,name@de\nHouse,Haus\n", extra: str = "") -> Path:
    """A one-card-kind game folder ``root/name`` (spec, front, table, rules) in ``languages``."""
    folder = root / name
    folder.mkdir(parents=True)
    langs = f"languages: {languages}\n" if languages else ""
    (folder / f"{name}.yaml").write_text(f"title: Deck\n{langs}components:\n"
                                         "  - {name: card, size: poker, data: cards.csv, front: front.yaml}\n"
                                         + extra, encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "cards.csv").write_text(rows, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    return folder


LONG = " ".join(["Haus"] * 40)


def _long_name(tmp: Path) -> list[str]:
    return ["build", str(deck(tmp, extra="name: " + "a" * 38 + "\n", languages="[en, sr-Latn]"))]


def _de_and_folder(tmp: Path) -> list[str]:
    return ["build", str(deck(tmp)), str(deck(tmp, "deck-de", languages=None, rows="name\nTree\n"))]


def _folder_and_de(tmp: Path) -> list[str]:
    return ["build", str(deck(tmp, "deck-de", languages=None, rows="name\nTree\n")), str(deck(tmp))]


def _one_code_twice(tmp: Path) -> list[str]:
    return ["build", str(deck(tmp, languages="[en, sr-Latn, sr-latn]"))]


def _cell(rows: str) -> Callable[[Path], list[str]]:
    return lambda tmp: ["build", str(deck(tmp, rows=rows))]


# name: (make files, return argv; the message's needles; the file the message names)
CASES: dict[str, tuple[Callable[[Path], list[str]], tuple[str, ...], str]] = {
    "kit-name-too-long-for-its-language": (_long_name, ("line 2", "field languages", "sr-Latn", "at most 33 characters"),
                                           "deck/deck.yaml"),
    "kit-folder-de-kit-and-a-folder": (_de_and_folder, ("/deck' (its de kit)", "OUT/deck-de", "/deck-de'"),
                                       "deck-de/deck-de.yaml"),
    "kit-folder-folder-and-de-kit": (_folder_and_de, ("/deck' (its de kit)", "OUT/deck-de", "/deck-de'"),
                                     "deck/deck.yaml, line 2, field languages"),
    "kit-folder-one-code-twice": (_one_code_twice, ("sr-Latn kit", "sr-latn kit", "OUT/deck-sr-latn",
                                                    "list each language once"), "deck/deck.yaml, line 2"),
    "translated-cell-overflows": (_cell(f"name,name@de\nHouse,{LONG}\n"), ("column 2 (name@de)", "does not fit"),
                                  "deck/cards.csv, line 2"),
    "translated-cell-missing-glyph": (_cell("name,name@de\nHouse,Haus \u65e5\n"), ("column 2 (name@de)", "U+65E5"),
                                      "deck/cards.csv, line 2"),
    "translated-cell-bad-markup": (_cell("name,name@de\nHouse,**Haus\n"), ("column 2 (name@de)", "never closed"),
                                   "deck/cards.csv, line 2"),
}


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An --out holding a good kit of the deck (both languages) and of deck-de, to prove nothing is touched."""
    root = tmp_path_factory.mktemp("existing")
    out = root / "out"
    r = runner.invoke(app, ["build", str(deck(root / "a")), "-f", "pdf", "--out", str(out)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["build", str(deck(root / "b", "deck-de", languages=None)), "-f", "pdf",
                            "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_refused_before_anything_is_written(name, tmp_path, existing):
    make, needles, named = CASES[name]
    argv = make(tmp_path)
    before = snapshot(existing)
    for command in ("build", "validate"):
        args = [command, *argv[1:]] + (["-f", "pdf", "--out", str(existing)] if command == "build" else [])
        r = runner.invoke(app, args)
        assert r.exit_code == 2, (command, r.output)
        assert "Traceback" not in r.output
        error = [line for line in r.output.splitlines() if line.startswith("error:")]
        assert len(error) == 1, r.output
        assert named in error[0], error[0]
        for needle in needles:
            assert needle in error[0], (needle, error[0])
    assert snapshot(existing) == before


@pytest.mark.parametrize("code, folder", [("pt-BR", "deck-pt-br"), ("sr-Latn", "deck-sr-latn")])
def test_language_codes_the_docs_give_make_kits(code, folder, tmp_path):
    """A language code with an upper-case subtag builds: its kit's folder and files carry the code in lower
    case, and the kit prints that language's cells."""
    low = code.casefold()
    game = deck(tmp_path, languages=f"[en, {code}]", rows=f"name,name@{low}\nHouse,Casa\n")
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(game), "-f", "pdf", "--out", str(out)])
    assert r.exit_code == 0, r.output
    pdf = out / folder / f"{folder}-a4.pdf"
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "Casa" in text and "House" not in text
    assert "House" in "".join(p.extract_text() for p in PdfReader(out / "deck" / "deck-a4.pdf").pages)


def test_glyph_check_names_the_translated_column(tmp_path):
    """The declared glyphs check names the column whose cell lacks the glyph (name@de), not name."""
    game = deck(tmp_path, rows="name,name@de\nHouse,Haus \u65e5\nTree,\n",
                extra="checks:\n  - {check: glyphs, component: card}\n")
    r = runner.invoke(app, ["validate", str(game), "--lang", "de"])
    line = next(l for l in r.output.splitlines() if "U+65E5" in l)
    assert "row 2, column name@de" in line, line


def test_pnp_new_copies_pictures_by_the_rule_of_every_read(tmp_path):
    """`pnp new` copies a picture the data names only as every read takes one (pnp.inputs.gamefolder.inside):
    not through a symlinked folder leading out of the data's folder, not over MAX_IMAGE_BYTES; those are
    named in a note and drawn as placeholders. The outside picture's bytes are in no file of the new folder."""
    from PIL import Image
    from pnp.inputs.images import MAX_IMAGE_BYTES
    src, outside = tmp_path / "src", tmp_path / "outside"
    src.mkdir(), outside.mkdir()
    Image.new("RGB", (40, 40), (200, 10, 10)).save(outside / "secret.png")
    Image.new("RGB", (40, 40), (10, 200, 10)).save(src / "ok.png")
    (src / "art").symlink_to(outside, target_is_directory=True)
    with open(src / "big.png", "wb") as f:  # sparse: its size is what counts
        f.truncate(MAX_IMAGE_BYTES + 1)
    (src / "cards.csv").write_text("name,picture\nA,ok.png\nB,art/secret.png\nC,big.png\n")
    r = runner.invoke(app, ["new", str(tmp_path / "game"), "--data", str(src / "cards.csv")])
    assert r.exit_code == 0, r.output
    made = {p.relative_to(tmp_path / "game").as_posix(): p for p in (tmp_path / "game").rglob("*") if p.is_file()}
    assert made["ok.png"].read_bytes() == (src / "ok.png").read_bytes()
    secret = (outside / "secret.png").read_bytes()
    assert not any(p.read_bytes() == secret for p in made.values()), sorted(made)
    assert max(p.stat().st_size for p in made.values()) < MAX_IMAGE_BYTES
    note = next(line for line in r.output.splitlines() if "names pictures" in line)
    assert "1 copied" in note and "2 not copied" in note and "art/secret.png" in note and "big.png" in note, note
