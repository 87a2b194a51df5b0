"""Bad input through the CLI: one clear message naming file, line and field; exit 2; no traceback;
earlier outputs left byte-for-byte intact."""

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from conftest import snapshot

runner = CliRunner()


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An output folder holding good kits, to prove that bad input leaves them intact."""
    out = tmp_path_factory.mktemp("out")
    r = runner.invoke(app, ["build", "nonads", "netmatch", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


WORD_CASES = {
    "three": ("TEST\nCAT\n", 2, "has 3 letters"),
    "five": ("TEST\n\nHOUSE\n", 3, "has 5 letters"),
    "duplicate": ("TEST\n# c\ntest\n", 3, "repeats the word on line 1"),
    "non-letter": ("TEST\nAB1D\n", 2, "not a letter"),
    "hyphen": ("TE-T\n", 1, "not a letter"),
    "empty": ("# only a comment\n\n", None, "has no words"),
}


@pytest.mark.parametrize("case", sorted(WORD_CASES))
def test_bad_word_list(existing, tmp_path, case):
    text, line, needle = WORD_CASES[case]
    words = tmp_path / f"{case}.txt"
    words.write_text(text, encoding="utf-8")
    before = snapshot(existing)
    for command in ("build", "validate"):
        args = [command, "netmatch", "--words", str(words)] + (["--out", str(existing)] if command == "build" else [])
        r = runner.invoke(app, args)
        assert r.exit_code == 2, r.output
        assert needle in r.output and str(words) in r.output.replace("\n", "")
        if line:
            assert f"line {line}" in r.output
        assert "Traceback" not in r.output
    assert snapshot(existing) == before


def test_latin1_word_list(existing, tmp_path):
    words = tmp_path / "latin1.txt"
    words.write_bytes("TEST\nCAFÉ\n".encode("latin-1"))
    r = runner.invoke(app, ["build", "netmatch", "--words", str(words), "--out", str(existing)])
    assert r.exit_code == 2 and "not UTF-8" in r.output and "line 2" in r.output


def test_missing_word_list(existing, tmp_path):
    r = runner.invoke(app, ["build", "netmatch", "--words", str(tmp_path / "nope.txt"), "--out", str(existing)])
    assert r.exit_code == 2 and "does not exist" in r.output and "--words" in r.output


SPEC_CASES = {
    "malformed": ("game: nonads\ntile_size: [30mm\n", "malformed YAML", "line 3"),
    "unknown key": ("game: nonads\ntile_sise: 30mm\n", "unknown key 'tile_sise'", "line 2"),
    "negative": ("game: nonads\ntile_size: -5mm\n", "greater than zero", "line 2"),
    "zero": ("game: nonads\n\ntile_size: 0\n", "greater than zero", "line 3"),
    "too large": ("game: nonads\ntile_size: 300mm\n", "does not fit the printable area", "tile"),
    "bad unit": ("game: nonads\ntile_size: 3 furlongs\n", "unknown unit", "line 2"),
    "wrong game": ("game: chess\n", "must name one of", "line 1"),
    "empty": ("", "empty", "spec"),
    "card too big": ("game: netmatch\ncard:\n  width: 44mm\n  height: 400mm\n", "does not fit", "word card"),
}


@pytest.mark.parametrize("case", sorted(SPEC_CASES))
def test_bad_spec(existing, tmp_path, case):
    text, needle, where = SPEC_CASES[case]
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    before = snapshot(existing)
    r = runner.invoke(app, ["build", str(spec), "--out", str(existing)])
    assert r.exit_code == 2, r.output
    flat = r.output.replace("\n", "")
    assert needle in flat and where in flat and "Traceback" not in flat
    assert snapshot(existing) == before


def test_missing_spec_file(tmp_path):
    r = runner.invoke(app, ["build", str(tmp_path / "none.yaml"), "--out", str(tmp_path)])
    assert r.exit_code == 2 and "does not exist" in r.output


def test_unknown_game_and_paper(tmp_path):
    r = runner.invoke(app, ["build", "chess", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "unknown game" in r.output
    r = runner.invoke(app, ["build", "nonads", "--paper", "b5", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "unknown paper" in r.output and "a4" in r.output


def test_validate_exit_codes(tmp_path):
    r = runner.invoke(app, ["validate"])
    assert r.exit_code == 0 and "PASS" in r.output and "FAIL" not in r.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: netmatch\nexpected_words: 74\n", encoding="utf-8")
    r = runner.invoke(app, ["validate", str(broken)])
    assert r.exit_code == 1 and "FAIL" in r.output
    r = runner.invoke(app, ["build", str(broken), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and not (tmp_path / "o" / "netmatch").exists()


def test_list_shows_counts():
    r = runner.invoke(app, ["list"])
    assert r.exit_code == 0
    assert "34 x tile" in r.output and "75 x word card" in r.output
