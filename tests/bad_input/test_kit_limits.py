"""Limits that the build plan (pnp.pipeline.plan) applies before a kit is built: SOURCE_DATE_EPOCH must be a
whole number of seconds in 0 .. 2^32 - 1 (check_environment), and the kit's page estimate must stay
within pnp.layout.limits (check_budget, called by plan() after the game's components() and before the
cover and imposition).
"""
from __future__ import annotations

import itertools

import pytest
from typer.testing import CliRunner

from pnp.pipeline import plan as kit
from pnp.cli import app
from conftest import snapshot

runner = CliRunner()


BAD_EPOCHS = ["\u00b2", "\u0663", "99999999999999999999", "4294967296", "-1", "1e9", "1_700_000_000", "1700000000.5",
              "9" * 5000]
GOOD_EPOCHS = ["0", "1700000000", " 1700000000 ", "4294967295"]


@pytest.mark.parametrize("value", BAD_EPOCHS, ids=["superscript-2", "arabic-indic-3", "20-digits", "2-to-the-32",
                                                   "negative", "float-exponent", "underscores", "fraction",
                                                   "5000-digits"])
def test_bad_source_date_epoch_exits_2(tmp_path, monkeypatch, value):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    for args in (["build", "nonads", "--out", str(tmp_path)], ["calibrate", "--duplex", "long", "--out", str(tmp_path)]):
        r = runner.invoke(app, args)
        flat = " ".join(r.output.split())
        assert r.exit_code == 2, (args, r.output[-2000:])
        assert "SOURCE_DATE_EPOCH" in flat and "Traceback" not in flat and "Fix:" in flat and len(flat) < 400
    assert not any(tmp_path.rglob("*.pdf"))


@pytest.mark.parametrize("value", GOOD_EPOCHS)
def test_good_source_date_epoch_is_accepted(monkeypatch, value):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    kit.check_environment()


def _sheet(tmp_path, width: int, height: int) -> str:
    p = tmp_path / "small.yaml"
    p.write_text(f"name: small\nwidth: {width}mm\nheight: {height}mm\nmargin: 10mm\n", encoding="utf-8")
    return str(p)


def test_a_board_of_more_than_26_columns_is_refused_before_any_page(tmp_path):
    spec = tmp_path / "wide-nooks.yaml"
    spec.write_text("game: nooks\ncell_size: 60mm\n", encoding="utf-8")  # a hex board about 0.9 m wide
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "--paper", _sheet(tmp_path, 62, 297), "--out", str(out)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output[-2000:]
    assert "wide-nooks.yaml, field board" in flat and "columns" in flat and "A..Z" in flat and "Traceback" not in flat
    assert not any(out.rglob("*.pdf"))


def test_a_kit_of_more_than_20000_pages_is_refused_before_any_page(tmp_path):
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    words = ["".join(p) for p in itertools.islice(itertools.product(letters, repeat=4), 30_000)]
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    before = snapshot(out)
    # one 44 x 68 mm card per 90 x 120 mm page, and its back: 60,000 pages
    r = runner.invoke(app, ["build", "netmatch", "--words", str(tmp_path / "w.txt"), "--duplex", "long",
                            "--paper", _sheet(tmp_path, 90, 120), "--out", str(out)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output[-2000:]
    assert "netmatch.yaml, field word card" in flat and "limit 20,000" in flat and "Traceback" not in flat
    assert snapshot(out) == before
