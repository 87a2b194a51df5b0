"""Every word pnp prints in a kit comes from its catalogue: the German, French and Spanish kits of a deck with every kind
of furniture (two-sided backs and blank pages, fold-over backs, round, rounded and shaped parts, a
tuck box, a board in pieces, the rules booklet, a reprint, proof stamps, a cutter's registration
marks) leaves no English word of pnp's own on any page.

The English furniture is not listed here: it is read from the English build of the same deck (the
text of every PDF page, and of every SVG page's text, title and description), less every word the
designer wrote (the spec folder's files) and every word the kit's catalogue itself uses. A word of
that English furniture found in the translated kit is an English leftover. A kit in a language without
a catalogue is the check's counter-proof: it keeps the English furniture, so the same comparison finds it,
and its build note says so."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pymupdf
import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.words import LOCALE
from pnp.layout.cutter_marks import parse_cutter

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"
WORD = re.compile(r"[^\W\d_]{2,}(?:['\u2019][^\W\d_]+)?")
RULES = ("# Zug\nEin Stapel.\n\n## Components\n- Karten\n\n## Setup\nMischen.\n\n## A turn\nZiehen.\n\n"
         "## End and winner\nEnde.\n\n## Fine points\nKeine.\n")


def _deck(folder: Path) -> Path:
    """Cards with backs, rounded corners and a tuck box, round chips with backs, a shaped part and a
    board larger than A4; every word the designer wrote is in German (names, rules, cells)."""
    folder.mkdir()
    (folder / "deck.yaml").write_text(
        "title: Zug\ndesigner: Ada Ziegler\nlanguages: [en, de, fr, es, it]\nrules: rules.md\ncomponents:\n"
        "  - {name: Karte, size: poker, shape: rounded, radius: 3mm, data: cards.csv, copies: 18, front: front.yaml,"
        " back: back.yaml, box: tuck}\n"
        "  - {name: Chip, size: 20mm, shape: circle, copies: 6, front: plain.yaml, back: back.yaml}\n"
        "  - {name: Boje, size: [24mm, 24mm], shape: polygon, points: [[12, 0], [24, 9], [19.5, 24], [4.5, 24], [0, 9]],"
        " copies: 4, front: plain.yaml}\n"
        "  - {name: Plan, size: [380mm, 260mm], board: true, front: plain.yaml}\n")
    (folder / "front.yaml").write_text("layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12, size: 14}\n")
    (folder / "back.yaml").write_text("layers:\n  - {type: rect, fill: '#224488', stroke: none, bleed: true}\n")
    (folder / "plain.yaml").write_text("layers:\n  - {type: rect, fill: '#ddeeff', stroke: '#000000'}\n")
    (folder / "cards.csv").write_text("name,name@de,name@it\nHaus,Haus,Casa\nBaum,Baum,Albero\nTuer,Tuer,Porta\n")
    for name in ("rules.md", "rules.de.md", "rules.fr.md", "rules.es.md", "rules.it.md"):
        (folder / name).write_text(RULES)
    return folder


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def _pages(kit: Path) -> dict[str, list[str]]:
    """The text of every page of a built kit, per source: each PDF (the kit, the booklet) read back
    with pymupdf, each SVG page's text elements, title and description."""
    pdf = [page.get_text() for path in sorted(kit.glob("*.pdf")) for page in pymupdf.open(path)]
    svg = []
    for path in sorted((kit / "svg").glob("*.svg")):
        root = ET.parse(path).getroot()
        svg.append("\n".join("".join(e.itertext()) for tag in ("text", "title", "desc") for e in root.iter(SVG + tag)))
    assert pdf and svg, kit
    return {"pdf": pdf, "svg": svg}


def _leftovers(english: dict[str, list[str]], other: dict[str, list[str]], designer: set[str],
               translated: set[str]) -> dict[str, dict[str, list[str]]]:
    """Per source, each word of pnp's English furniture found in the other kit, with the lines it is on."""
    out = {}
    for source, pages in english.items():
        furniture = _words("\n".join(pages)) - designer - translated
        assert furniture, source  # the English kit has furniture of its own to compare with
        lines = [line for page in other[source] for line in page.splitlines()]
        found = {w: [line for line in lines if w in _words(line)][:3] for w in furniture}
        out[source] = {w: where for w, where in found.items() if where}
    return out


@pytest.mark.parametrize("options", [["--duplex", "long"], ["--duplex", "fold", "--rules", "booklet"],
                                     ["--reprint", "--proof", "--cutter", "silhouette"]],
                         ids=["two-sided", "fold-over-booklet", "reprint-proof-cutter"])
def test_a_translated_kit_prints_no_english_word_of_pnps_own(tmp_path, options):
    deck, out = _deck(tmp_path / "deck"), tmp_path / "out"
    # the words the designer wrote (every version of the spec folder's files) and the user typed
    # (--cutter silhouette: the paper "a4-silhouette", and the software's name, "Silhouette Studio")
    designer = _words(" ".join(options) + " " + " ".join(parse_cutter(v).title for k, v in zip(options, options[1:])
                                                     if k == "--cutter"))
    designer |= set().union(*(_words(p.read_text()) for p in deck.iterdir()))
    if "--reprint" in options:  # a kit to reprint: built once, then a card changed and one removed
        assert runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf", "--cutter", "silhouette"]).exit_code == 0
        (deck / "cards.csv").write_text("name,name@de,name@it\nHaus,Haus,Casa\nBank,Bank,Panca\n")
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf,svg", *options])
    assert result.exit_code == 0, result.output
    designer |= set().union(*(_words(p.read_text()) for p in deck.iterdir()))
    english = _pages(out / "deck")
    for code in ("de", "fr", "es"):
        with (LOCALE / code / "LC_MESSAGES" / "pnp.po").open("rb") as f:
            translated = set().union(*(_words(m.string) for m in read_po(f) if m.id))
        if "--reprint" in options:
            assert list((out / f"deck-{code}").glob(f"deck-{code}-reprint-*.pdf")), code
        left = _leftovers(english, _pages(out / f"deck-{code}"), designer, translated)
        assert left == {"pdf": {}, "svg": {}}, (code, left)
        assert f"language {code}: pnp has no" not in result.output
        # the comparison finds English furniture where it is: a kit in a language without a
        # catalogue keeps pnp's words in English, and its build note says so
        kept = _leftovers(english, _pages(out / "deck-it"), designer, translated)
        assert kept["pdf"] and kept["svg"], code
    assert "language it: pnp has no catalogue" in result.output
