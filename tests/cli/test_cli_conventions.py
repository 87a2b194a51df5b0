"""The CLI behaves like other Python tools: --version, -h, completion, --quiet, --json, plain errors."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pnp import __version__
from pnp.cli import app
from pnp.engine import registry
from pnp.layout.paper import available_papers
from pnp.render.formats import formats

runner = CliRunner()


def test_version():
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"pnp {__version__}"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_short_and_long_help(flag):
    r = runner.invoke(app, ["build", flag])
    assert r.exit_code == 0 and "Usage:" in r.output


def test_help_lists_accepted_values():
    text = " ".join(runner.invoke(app, ["build", "-h"], terminal_width=200).output.split())
    for value in ("none, long, short", *formats().names(), *available_papers()):
        assert value in text, value


def test_shell_completion_is_offered():
    assert "--show-completion" in runner.invoke(app, ["-h"]).output


def test_quiet_prints_nothing_on_success(tmp_path):
    r = runner.invoke(app, ["-q", "build", "nonads", "-o", str(tmp_path), "-f", "pdf"])
    assert r.exit_code == 0 and r.output == ""
    assert (tmp_path / "nonads" / "nonads-a4.pdf").is_file()


def test_quiet_still_prints_errors(tmp_path):
    r = runner.invoke(app, ["-q", "build", "no-such-game", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "unknown game" in r.output


def test_validate_json_is_parseable_and_complete():
    r = runner.invoke(app, ["validate", "nonads", "numeria", "--json"])
    data = json.loads(r.output)
    assert r.exit_code == 0 and data["ok"] is True
    assert [g["game"] for g in data["games"]] == ["nonads", "numeria"]
    assert all(f["status"] in ("pass", "warning", "fail") and f["rule"] for g in data["games"] for f in g["findings"])


def test_list_json_names_every_game_with_parts():
    data = json.loads(runner.invoke(app, ["list", "--json"]).output)
    assert [g["game"] for g in data["games"]][:len(registry())] == sorted(registry())
    nonads = next(g for g in data["games"] if g["game"] == "nonads")
    assert nonads["components"][0]["trim_mm"] == [30.0, 30.0] and nonads["designer"] == "Cameron Browne"
    netmatch = next(g for g in data["games"] if g["game"] == "netmatch")
    assert "words" in netmatch["inputs"]


def test_list_shows_the_shipped_spec_folders_that_build_builds():
    """`pnp list` names what `pnp build` with no target builds: every spec folder (specs/<name>/<name>.yaml),
    the five games (each naming its generator) and the spreadsheet examples (templates and data),
    each example with one card per data row."""
    import csv
    from pathlib import Path
    data = json.loads(runner.invoke(app, ["list", "--json"]).output)
    specs = Path(__file__).resolve().parents[2] / "specs"
    shipped = sorted(p.name for p in specs.iterdir() if (p / f"{p.name}.yaml").is_file())
    assert set(registry()) < set(shipped) and [g["game"] for g in data["games"]] == shipped
    for g in data["games"]:
        assert Path(g["folder"]) == specs / g["game"]
        assert g["generator"] == (g["game"] if g["game"] in registry() else None)
    assert not [p for p in specs.iterdir() if p.is_file()]  # nothing but spec folders
    with open(specs / "playing-cards" / "cards.csv", newline="") as f:
        rows = len(list(csv.DictReader(f)))
    cards = next(g for g in data["games"] if g["game"] == "playing-cards")["components"]
    assert [(c["name"], c["count"]) for c in cards] == [("card", rows), ("card box", 1)]  # the spec's box: tuck
    text = runner.invoke(app, ["list"]).output
    assert all(f"{name}:" in text for name in shipped)


@pytest.mark.parametrize("value", ["[/x]", "[bold]a4[/bold]", "a4\x1b[31m", "x" * 5000, "a\u2028b"])
def test_errors_are_plain_text_with_controls_escaped_and_long_values_cut(tmp_path, value):
    r = runner.invoke(app, ["build", "nonads", "--paper", value, "-o", str(tmp_path)])
    assert r.exit_code == 2 and "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    assert "\x1b" not in r.output and "\u2028" not in r.output
    assert len(r.output) < 2500
    if value.startswith("["):
        assert value in r.output  # printed as is, not read as markup


def test_set_names_an_input_the_game_does_not_take(tmp_path):
    r = runner.invoke(app, ["build", "nonads", "--set", "words=x.txt", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "takes no input 'words'" in r.output and "rules" in r.output
    both = runner.invoke(app, ["validate", "nonads", "netmatch", "--set", "words=nope.txt"])
    assert both.exit_code == 2 and "does not exist" in both.output  # netmatch takes it, so it is read


def test_set_words_is_the_same_as_words(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("ABCD\nEFGH\n", encoding="utf-8")
    a = runner.invoke(app, ["validate", "netmatch", "--words", str(words), "--json"])
    b = runner.invoke(app, ["validate", "netmatch", "--set", f"words={words}", "--json"])
    assert a.exit_code == b.exit_code == 0 and a.output == b.output and "2 word cards from w.txt" in a.output


def test_duplex_on_a_kit_without_backs_says_so(tmp_path):
    r = runner.invoke(app, ["build", "nonaga", "--duplex", "long", "-o", str(tmp_path), "-f", "pdf"])
    assert r.exit_code == 0 and "--duplex long ignored" in r.output and "one-sided" in r.output


def test_multi_target_build_checks_every_target_before_writing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: nonads\ntile_size: -3mm\n", encoding="utf-8")
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", "nonads", str(bad), "-o", str(out)])
    assert r.exit_code == 2 and "tile_size" in r.output
    assert not (out / "nonads").exists()


def test_empty_out_is_refused_and_nothing_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["build", "nonads", "-o", ""])
    assert r.exit_code == 2 and "--out is empty" in r.output
    assert list(tmp_path.iterdir()) == []
