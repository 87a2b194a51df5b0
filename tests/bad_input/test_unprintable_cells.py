"""Cells that cannot print are refused, as word lists refuse them: a NUL or other control
character, a bidi override, an error value exported as text, and in a workbook a formula with no
saved value or an error cell (which python-calamine reads as an empty cell: a blank card before).
Each is exit 2 with one line naming the file, sheet, row and column, and the kit already in --out
is left as it was."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

CARDS = "name,text,copies\nAlpha,a plain card,1\n"


def _pnp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "400"}
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()} if folder.exists() else {}


@pytest.fixture
def game(tmp_path):
    """A game made by `pnp new` (its sample cards) and built once into out/, so a refused build can
    be seen to leave that kit as it was."""
    assert _pnp("new", "g", cwd=tmp_path).returncode == 0
    (tmp_path / "g" / "cards.csv").write_text(CARDS, encoding="utf-8")
    r = _pnp("build", "g", "--out", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return tmp_path


def _refused(folder: Path, needles: list[str]) -> None:
    before = _snapshot(folder / "out")
    r = _pnp("build", "g", "--out", "out", cwd=folder)
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.returncode == 2 and len(errors) == 1, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    for needle in needles:
        assert needle in errors[0], errors[0]
    assert _snapshot(folder / "out") == before


@pytest.mark.parametrize("cell, needles", [
    ("bad\x00nul", ["row 3, column 2 (text)", "U+0000", "control character"]),
    ("evil \u202e txt", ["row 3, column 2 (text)", "U+202E", "bidi"]),
    ("\u2066isolated\u2069", ["row 3, column 2 (text)", "U+2066"]),
    ("#DIV/0!", ["row 3, column 2 (text)", "#DIV/0!"]),
    ("#N/A", ["row 3, column 2 (text)", "#N/A"]),
])
def test_a_csv_cell_that_cannot_print_is_refused(game, cell, needles):
    (game / "g" / "cards.csv").write_text(CARDS + f'Beta,"{cell}",1\n', encoding="utf-8")
    _refused(game, ["g/cards.csv, line 3"] + needles)


def test_line_breaks_and_tabs_inside_a_cell_are_text(game):
    (game / "g" / "cards.csv").write_text(CARDS + 'Beta,"two\nlines\tand a tab",1\n', encoding="utf-8")
    r = _pnp("build", "g", "--out", "out", cwd=game)
    assert r.returncode == 0, r.stderr


def _workbook(path: Path, value, data_type: str | None = None) -> None:
    import openpyxl
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in (["name", "text", "copies"], ["Alpha", "a plain card", 1], ["Beta", None, 1]):
        sheet.append(row)
    sheet["B3"] = value
    if data_type:
        sheet["B3"].data_type = data_type
    book.save(path)


@pytest.mark.parametrize("value, data_type, needles", [
    ("=A2&A3", None, ["a formula with no saved value", "=A2&A3"]),  # openpyxl saves formulas without values
    ("#DIV/0!", "e", ["#DIV/0!"]),
])
def test_a_workbook_cell_without_a_printable_value_is_refused(game, value, data_type, needles):
    _workbook(game / "g" / "cards.xlsx", value, data_type)
    spec = game / "g" / "g.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("cards.csv", "cards.xlsx"), encoding="utf-8")
    _refused(game, ["g/cards.xlsx, line 3", "sheet Cards, row 3, column B (text)"] + needles)


def test_every_ascii_character_is_judged_by_its_unicode_category():
    """The printable-ASCII shortcut refuses exactly what the per-character rule refuses: each of the
    128 ASCII characters, alone and inside a word, is refused when its Unicode category is a control,
    format or separator kind (a tab allowed when asked), else passed."""
    import unicodedata

    from pnp.inputs.textcheck import bad_character
    refused_kinds = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
    for code in range(128):
        ch = chr(code)
        for allow_tab in (True, False):
            refused = unicodedata.category(ch) in refused_kinds and not (ch == "\t" and allow_tab)
            for text, at in ((ch, 0), (f"ok{ch}ok", 2)):
                got = bad_character(text, allow_tab)
                assert (got is not None) == refused, (hex(code), allow_tab)
                if refused:
                    assert got[:2] == (at, ch)
    assert bad_character("Card 12: say a sentence with WORD in it, then pass the deck.") is None
