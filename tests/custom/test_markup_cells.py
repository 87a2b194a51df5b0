"""A text layer's markup is looked for once per column (pnp.custom.textbind): a column none of whose
cells holds a mark is set plain on every row, and one mark in one cell, of the column or of its
translation, still sets that cell's text in bold. Read back from the PDF's spans and their fonts."""
from __future__ import annotations

from pathlib import Path

import pymupdf
from typer.testing import CliRunner

from pnp.cli import app

runner = CliRunner()

RULES = ("# Deck\nA deck.\n\n## Components\n- cards\n\n## Setup\nShuffle.\n\n## A turn\nDraw.\n\n"
         "## End and winner\nEnd.\n\n## Fine points\nNone.\n")


def _deck(root: Path, rows: str) -> Path:
    deck = root / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text("title: Deck\nlanguages: [en, de]\ncomponents:\n"
                                    "  - {name: card, size: poker, data: cards.csv, front: front.yaml}\n")
    (deck / "front.yaml").write_text("layers:\n"
                                     "  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12, size: 14}\n"
                                     "  - {type: text, text: '{note}', x: 5, y: 40, w: 50, h: 20, size: 10}\n")
    (deck / "cards.csv").write_text(rows, encoding="utf-8")
    (deck / "rules.md").write_text(RULES)
    return deck


def _fonts(pdf: Path) -> dict[str, set[str]]:
    """Each word drawn on the card pages -> the fonts its spans are set in."""
    out: dict[str, set[str]] = {}
    for page in pymupdf.open(pdf):
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    for word in span["text"].split():
                        out.setdefault(word, set()).add(span["font"].split("+")[-1])
    return out


ROWS = ("name,name@de,note\n"
        "House,Haus,plain: no mark\n"
        "Tree,Baum,one colon only\n"
        "Door,**Tuer**,a *big* door\n")


def test_a_mark_in_one_cell_is_set_and_the_other_cells_stay_plain(tmp_path):
    deck = _deck(tmp_path, ROWS)
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf"])
    assert result.exit_code == 0, result.output
    en = _fonts(out / "deck" / "deck-a4.pdf")
    de = _fonts(out / "deck-de" / "deck-de-a4.pdf")
    # the translation's one marked cell: bold, its marks not printed; the other names regular
    assert de["Tuer"] == {"NotoSans-Bold"}, de
    assert de["Haus"] == {"NotoSans-Regular"} and de["Baum"] == {"NotoSans-Regular"}
    assert not any("*" in word for word in de)
    # the default column holds no mark: its cells as they are, in regular
    assert en["Door"] == {"NotoSans-Regular"} and en["House"] == {"NotoSans-Regular"}
    # a note's emphasis (the last row only) is italic in both kits; a lone colon is text
    assert en["big"] == {"NotoSans-Italic"} and de["big"] == {"NotoSans-Italic"}
    assert en["plain:"] == {"NotoSans-Regular"}
    assert not any("*" in word for word in en)
