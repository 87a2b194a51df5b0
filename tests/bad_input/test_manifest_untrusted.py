"""A kit's manifest read back as untrusted input (issue 46): nesting deep enough to exhaust json's decoder is
one error line; a forged manifest's component names, keys and titles reach the terminal and the reprint cover
with every control, format and line-break character escaped; a manifest pnp wrote itself (a 12,000-character
key) is read back, by one bound (pnp.pipeline.parts.MAX_RECORD_TEXT) that the writer keeps and the reader
checks."""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from pnp.cli import app
from pnp.pipeline.parts import MAX_RECORD_TEXT

runner = CliRunner()
HOSTILE = "evil\nkey\u202e\x00\x1b[31m\u2066"  # a line break, a bidi override, NUL, an escape sequence, an isolate


def _raw(text: str) -> list[str]:
    """The characters of ``text`` a terminal or a PDF reader would act on: controls (but the line break
    between lines), format characters (bidi), line and paragraph separators."""
    return [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]


@pytest.fixture()
def kit(tmp_path) -> Path:
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", "nonads", "-f", "pdf", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _forge(out: Path, edit) -> None:
    path = out / "nonads" / "manifest-a4.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    path.unlink()  # the generation's file is linked from history/: write a new one
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize("command", [["diff", "nonads"], ["build", "nonads", "-f", "pdf", "--reprint"]])
def test_deeply_nested_manifest_is_one_error_or_no_reprint(kit, command):
    path = kit / "nonads" / "manifest-a4.json"
    path.unlink()
    path.write_text("[" * 100_000 + "]" * 100_000)
    r = runner.invoke(app, [*command, "--out", str(kit)])
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit), r.output
    if command[0] == "diff":
        assert r.exit_code == 2, r.output
        error = [line for line in r.output.splitlines() if line.startswith("error:")]
        assert len(error) == 1 and "manifest-a4.json" in error[0] and "nested too deeply" in error[0], r.output
    else:  # the kit is built whole; the reprint says it has nothing to compare with
        assert r.exit_code == 0, r.output
        assert "no reprint was written" in r.output


def _hostile(doc: dict) -> None:
    first, second = doc["parts"][0], doc["parts"][1]
    first["key"] = HOSTILE
    first["fingerprint"] = "0" * 64  # changed: listed as removed and its replacement added
    first["fields"] = {}
    second["component"] = "tile" + HOSTILE
    second["title"] = "T" + HOSTILE


def test_forged_names_reach_the_terminal_escaped(kit):
    _forge(kit, _hostile)
    r = runner.invoke(app, ["diff", "nonads", "--out", str(kit)])
    assert r.exit_code == 1, r.output  # parts differ
    assert not _raw(r.output), [hex(ord(c)) for c in _raw(r.output)]
    lines = r.output.splitlines()
    assert any("evil\\x0akey\\u202e\\x00\\x1b[31m\\u2066" in line for line in lines), r.output
    assert not any(line.strip() in ("key", "Z") for line in lines)  # no name split over two lines
    r = runner.invoke(app, ["diff", "nonads", "--json", "--out", str(kit)])
    assert r.exit_code == 1 and json.loads(r.output)  # JSON escapes the texts itself


def test_forged_names_reach_the_reprint_cover_escaped(kit):
    _forge(kit, _hostile)
    r = runner.invoke(app, ["build", "nonads", "-f", "pdf", "--reprint", "--out", str(kit)])
    assert r.exit_code == 0, r.output
    cover = PdfReader(kit / "nonads" / "nonads-reprint-a4.pdf").pages[0].extract_text()
    assert not _raw(cover), [hex(ord(c)) for c in _raw(cover)]
    assert "evil\\x0akey\\u202e\\x00\\x1b[31m\\u2066" in cover, cover
    assert "tileevil\\x0akey" in cover.replace("\n", ""), cover  # the forged component name, escaped


def _long_key_deck(root: Path, key: str) -> Path:
    deck = root / "deck"
    deck.mkdir()
    (deck / "deck.yaml").write_text("title: Deck\ncomponents:\n  - {name: card, size: poker, data: cards.csv, "
                                    "key: id, front: front.yaml}\n")
    (deck / "front.yaml").write_text("layers:\n  - {type: text, text: '{name}', x: 5, y: 5, w: 50, h: 12, size: 14}\n")
    (deck / "cards.csv").write_text(f"id,name\n{key},House\nb,Tree\n")
    (deck / "rules.md").write_text("# Deck\nA deck.\n\n## Components\n- cards\n\n## Setup\nShuffle.\n\n## A turn\n"
                                   "Draw.\n\n## End and winner\nEnd.\n\n## Fine points\nNone.\n")
    return deck


def test_a_manifest_pnp_wrote_is_read_back(tmp_path):
    """A 12,000-character key: the manifest holds it cut to MAX_RECORD_TEXT characters, and pnp diff reads
    that manifest (no change), where it refused it before."""
    long_key = "k" * 12_000
    assert len(long_key) > MAX_RECORD_TEXT
    deck, out = _long_key_deck(tmp_path, long_key), tmp_path / "out"
    r = runner.invoke(app, ["build", str(deck), "-f", "pdf", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "deck" / "manifest-a4.json").read_text(encoding="utf-8"))
    keys = [p["key"] for p in doc["parts"]]
    assert max(map(len, keys)) == MAX_RECORD_TEXT and keys[0].startswith("k" * 1000)
    r = runner.invoke(app, ["diff", str(deck), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "no part changed" in r.output


@pytest.mark.parametrize("field", ["key", "component", "title"])
def test_the_reader_refuses_one_past_the_writers_bound(kit, field):
    def edit(doc):
        doc["parts"][0][field] = "x" * (MAX_RECORD_TEXT + 1)
    _forge(kit, edit)
    r = runner.invoke(app, ["diff", "nonads", "--out", str(kit)])
    assert r.exit_code == 2 and f"parts[0].{field}" in r.output and f"{MAX_RECORD_TEXT:,}" in r.output, r.output
