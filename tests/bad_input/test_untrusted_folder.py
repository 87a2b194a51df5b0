"""An untrusted game folder (issue 46): kit names from language codes, two targets writing one kit folder,
errors about a translated cell naming that cell's column.

CASES are run through the CLI here and by tests/make_matrix_doc.py (docs/bad-input-matrix.md, "An untrusted
folder, an untrusted --out"): each makes its files in a temporary folder and returns the command; the kit a
build into a folder already holding one must leave byte for byte as it was.
"""
from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
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


def _both(*targets: Path) -> list[list[str]]:
    """`pnp build` and `pnp validate` of ``targets``."""
    return [[command, *map(str, targets)] for command in ("build", "validate")]


def _long_name(tmp: Path) -> list[list[str]]:
    return _both(deck(tmp, extra="name: " + "a" * 38 + "\n", languages="[en, sr-Latn]"))


def _de_and_folder(tmp: Path) -> list[list[str]]:
    return _both(deck(tmp), deck(tmp, "deck-de", languages=None, rows="name\nTree\n"))


def _folder_and_de(tmp: Path) -> list[list[str]]:
    return _both(deck(tmp, "deck-de", languages=None, rows="name\nTree\n"), deck(tmp))


def _one_code_twice(tmp: Path) -> list[list[str]]:
    return _both(deck(tmp, languages="[en, sr-Latn, sr-latn]"))


def _cell(rows: str) -> Callable[[Path], list[list[str]]]:
    return lambda tmp: _both(deck(tmp, rows=rows))


def _fifo_spec(tmp: Path) -> list[list[str]]:
    folder = deck(tmp, languages=None)
    (folder / "deck.yaml").unlink()
    os.mkfifo(folder / "deck.yaml")
    return _both(folder)


def _fifo_data(tmp: Path) -> list[list[str]]:
    folder = deck(tmp, languages=None)
    os.mkfifo(tmp / "pipe.csv")
    return [["new", str(tmp / "new"), "--data", str(tmp / "pipe.csv")],
            *[[*argv, "--set", f"data={tmp / 'pipe.csv'}"] for argv in _both(folder)]]


def _bomb(tmp: Path) -> list[list[str]]:
    """A PNG whose header says 10,000 x 10,000 pixels: over pnp's 40 MP, and over Pillow's own bomb warning."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    folder = deck(tmp, languages=None, rows="name,pic\nHouse,bomb.png\n")
    (folder / "bomb.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 10_000, 10_000, 8, 2, 0, 0, 0))
                                      + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
    (folder / "front.yaml").write_text(FRONT + "  - {type: image, src: '{pic}', x: 5, y: 20, w: 40, h: 40}\n")
    return _both(folder)


def _font_warning(tmp: Path) -> list[list[str]]:
    """A font whose hmtx table has 8 bytes too many (fontTools logs a warning reading it), and a cell with a
    character the font lacks."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.sfnt import SFNTWriter
    import pnp
    folder = deck(tmp, languages=None, rows="name\nHouse \u65e5\n",
                  extra="fonts: {Body: body.ttf}\n")
    reader = TTFont(Path(pnp.__file__).parent / "fonts" / "NotoSans-Bold.ttf").reader
    with open(folder / "body.ttf", "wb") as f:
        w = SFNTWriter(f, len(reader.keys()), reader.sfntVersion)
        for tag in reader.keys():
            w[tag] = reader[tag] + (b"\0" * 8 if tag == "hmtx" else b"")
        w.close()
    (folder / "front.yaml").write_text(FRONT.replace("size: 14}", "size: 14, font: Body}"))
    return _both(folder)


def _path_with(char: str) -> Callable[[Path], list[list[str]]]:
    def make(tmp: Path) -> list[list[str]]:
        return _both(tmp / f"a{char}b" / "x.yaml")
    return make


def _proof(box: str) -> Callable[[Path], list[list[str]]]:
    def make(tmp: Path) -> list[list[str]]:
        folder = deck(tmp, languages=None)
        (folder / "front.yaml").write_text(f"proof: {box}\n" + FRONT)
        return [["build", str(folder), "--proof"], ["validate", str(folder)]]
    return make


# name: (make files, return the commands; the message's needles; the file the message names)
CASES: dict[str, tuple[Callable[[Path], list[list[str]]], tuple[str, ...], str]] = {
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
    "fifo-spec-in-a-folder": (_fifo_spec, ("not a regular file", "FIFO"), "deck/deck.yaml"),
    "fifo-data-file": (_fifo_data, ("not a regular file", "FIFO"), "pipe.csv"),
    "library-warning-pillow-bomb": (_bomb, ("10,000 x 10,000 pixels",), "deck/cards.csv, line 2"),
    "library-warning-fonttools": (_font_warning, ("U+65E5", "font Body"), "deck/cards.csv, line 2"),
    "newline-in-a-path": (_path_with("\n"), ("a\\x0ab/x.yaml", "does not exist"), "a\\x0ab"),
    "tab-in-a-path": (_path_with("\t"), ("a\\x09b/x.yaml", "does not exist"), "a\\x09b"),
    "option-from-0": (lambda tmp: [["diff", "nonads", "--from", "0"]], ("field --from", "greater than or equal to 1"),
                      "error: field --from"),
    "option-header-row-0": (lambda tmp: [["new", str(tmp / "n"), "--data", str(deck(tmp) / "cards.csv"),
                                          "--header-row", "0"]], ("greater than or equal to 1",),
                            "error: field --header-row"),
    "option-workers-not-a-number": (lambda tmp: [["build", "nonads", "--workers", "many"]], ("valid integer",),
                                    "error: field --workers"),
    "proof-box-negative": (_proof("{x: 10, y: 80, w: -20, h: 5}"), ("-20 mm wide", "inside the part"),
                           "deck/front.yaml, line 1, field proof.w"),
    "proof-box-past-the-part": (_proof("{x: 50, y: 80, w: 30, h: 5}"), ("spans x 50 to 80 mm", "63.5 mm wide"),
                                "deck/front.yaml, line 1, field proof.x"),
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


def run_case(name: str, tmp: Path, out: Path) -> list:
    """Run case ``name``'s commands (files made in ``tmp``, a build writing into ``out``); their results."""
    results = []
    for argv in CASES[name][0](tmp):
        extra = ["-f", "pdf", "--out", str(out)] if argv[0] == "build" else ["--out", str(out)] if argv[0] == "diff" else []
        results.append(runner.invoke(app, argv + extra))
    return results


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_refused_before_anything_is_written(name, tmp_path, existing):
    """Exit 2 with one line: ``error:`` naming the file (line, field) and what is wrong, nothing else printed
    (no library's warning, no usage text, no name split over lines); the kits in --out untouched."""
    _, needles, named = CASES[name]
    before = snapshot(existing)
    for r in run_case(name, tmp_path, existing):
        assert r.exit_code == 2, r.output
        assert "Traceback" not in r.output
        lines = [line for line in r.output.splitlines() if line.strip()]
        error = [line for line in lines if line.startswith("error:")]
        assert len(error) == 1, r.output
        assert all(line.startswith(("error:", "note:")) for line in lines), r.output
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


@pytest.mark.parametrize("name", ["library-warning-pillow-bomb", "library-warning-fonttools"])
def test_library_warnings_are_not_printed(name, tmp_path):
    """Run as a user runs pnp (a process of its own: pytest would catch the warnings itself): stderr holds the
    error line alone, no Pillow DecompressionBombWarning, no fontTools log record."""
    argv = CASES[name][0](tmp_path)[0]
    r = subprocess.run([sys.executable, "-m", "pnp", *argv, "-f", "pdf", "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONWARNINGS": ""})
    assert r.returncode == 2, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and CASES[name][2] in lines[0], r.stderr
