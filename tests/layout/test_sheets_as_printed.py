"""Sheets as a designer prints them, read back from the built PDFs:

* nine poker cards a sheet on A4 and on Letter: the test cuts each sheet on its crop marks, as a
  player does with a ruler, and measures the pieces: 3 x 3 of 63.5 x 88.9 mm, each holding a card,
  every card of the CSV once, every trim inside the 5 mm a home printer prints;
* one paper a sheet: no page holds parts of two papers (the manifest's pages and papers), and the
  cover's paper list names exactly the papers the kit uses;
* fold-over kits tell one story: one-sided, thin paper folded and glued, on the cover and in the
  manifest.
"""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pymupdf
import pytest

from conftest import PT, REPO

POKER = (63.5, 88.9)  # mm, 2.5 x 3.5 in
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARK_WIDTH = 0.15  # mm: crop marks are hairlines (0.25 pt); the scale bar's ticks are 0.2 mm and more
PRINTER_MARGIN = 5.0  # mm a home printer leaves unprinted (docs/print.md)


def _pnp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    return r


def _cut_lines(page, width: float) -> tuple[list[float], list[float]]:
    """Where a player cuts: x of the vertical crop marks above the cards (in the top margin) and y of
    the horizontal ones right of them (in the right margin), in mm."""
    xs, ys = set(), set()
    for line in page.lines:
        if line["linewidth"] * PT > MARK_WIDTH:
            continue
        x0, x1, top, bottom = line["x0"] * PT, line["x1"] * PT, line["top"] * PT, line["bottom"] * PT
        if abs(x0 - x1) < 0.01 and 1.0 < bottom - top < 6.5 and bottom < 12.0:
            xs.add(round(x0, 2))
        elif abs(top - bottom) < 0.01 and 1.0 < x1 - x0 < 6.5 and x0 > width - 20.0:
            ys.add(round(top, 2))
    return sorted(xs), sorted(ys)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_a_sheet_cut_on_the_crop_marks(tmp_path, paper):
    _pnp("build", "playing-cards", "--paper", paper, "--out", str(tmp_path / "out"), "--format", "pdf", cwd=tmp_path)
    kit = tmp_path / "out" / "playing-cards"
    manifest = json.loads((kit / f"manifest-{paper}.json").read_text(encoding="utf-8"))
    card_pages = manifest["components"][0]["pages"]
    with (REPO / "specs" / "playing-cards" / "cards.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    width, height = PAPERS[paper]
    pieces_with_a_card = 0
    with pdfplumber.open(kit / f"playing-cards-{paper}.pdf") as pdf:
        for number in card_pages:
            page = pdf.pages[number - 1]
            xs, ys = _cut_lines(page, width)
            # butted cards: 4 cuts each way make 3 x 3 pieces, each a poker card's trim
            assert len(xs) == 4 and len(ys) == 4, (number, xs, ys)
            for a, b in zip(xs, xs[1:]):
                assert b - a == pytest.approx(POKER[0], abs=0.05), f"page {number}: a piece {b - a:.2f} mm wide"
            for a, b in zip(ys, ys[1:]):
                assert b - a == pytest.approx(POKER[1], abs=0.05), f"page {number}: a piece {b - a:.2f} mm high"
            # every piece inside what a home printer prints, and every mark on the paper
            assert xs[0] >= PRINTER_MARGIN and xs[-1] <= width - PRINTER_MARGIN
            assert ys[0] >= PRINTER_MARGIN and ys[-1] <= height - PRINTER_MARGIN
            for line in page.lines:
                assert -0.01 <= line["x0"] * PT and line["x1"] * PT <= width + 0.01
                assert -0.01 <= line["top"] * PT and line["bottom"] * PT <= height + 0.01
            for a, b in zip(xs, xs[1:]):
                for c, d in zip(ys, ys[1:]):
                    piece = [ch for ch in page.chars if a < ch["x0"] * PT < b and c < ch["top"] * PT < d]
                    pieces_with_a_card += bool(piece)
    assert len(card_pages) == -(-len(rows) // 9)  # 54 cards in 6 sheets
    assert pieces_with_a_card == len(rows)  # every card of the CSV on one piece


KITS = ["netmatch", "nonads", "nonaga", "nooks", "numeria", "playing-cards", "questions"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_sheet_mixes_papers_and_the_cover_lists_each_paper(tmp_path, paper):
    _pnp("build", *KITS, "--paper", paper, "--out", str(tmp_path / "out"), "--format", "pdf", cwd=tmp_path)
    for game in KITS:
        kit = tmp_path / "out" / game
        manifest = json.loads((kit / f"manifest-{paper}.json").read_text(encoding="utf-8"))
        on_page: dict[int, set[str]] = {}
        for comp in manifest["components"]:
            assert comp["paper"] in ("card", "plain"), (game, comp)
            for p in comp["pages"]:
                on_page.setdefault(p, set()).add(comp["paper"])
        assert all(len(papers) == 1 for papers in on_page.values()), (game, on_page)
        with pymupdf.open(kit / f"{game}-{paper}.pdf") as doc:
            cover = " ".join(doc[0].get_text().split())
        used = {c["paper"] for c in manifest["components"]}
        assert ("plain 80\u2013120 g/m\u00b2" in cover) == ("plain" in used), game
        assert ("card stock 200\u2013300 g/m\u00b2" in cover) == ("card" in used), game
        assert "each sheet holds parts of one paper" in cover, game


def test_mixed_papers_only_when_asked(tmp_path):
    _pnp("build", "netmatch", "--mix-papers", "--out", str(tmp_path / "out"), "--format", "pdf", cwd=tmp_path)
    manifest = json.loads((tmp_path / "out" / "netmatch" / "manifest-a4.json").read_text(encoding="utf-8"))
    on_page: dict[int, set[str]] = {}
    for comp in manifest["components"]:
        for p in comp["pages"]:
            on_page.setdefault(p, set()).add(comp["paper"])
    assert any(len(papers) > 1 for papers in on_page.values())  # the one-paper test above can fail
    with pymupdf.open(tmp_path / "out" / "netmatch" / "netmatch-a4.pdf") as doc:
        assert "each sheet holds parts of one paper" not in " ".join(doc[0].get_text().split())


def test_a_fold_over_kit_tells_one_story(tmp_path):
    _pnp("build", "nonads", "--duplex", "fold", "--out", str(tmp_path / "out"), "--format", "pdf", cwd=tmp_path)
    kit = tmp_path / "out" / "nonads"
    manifest = json.loads((kit / "manifest-a4.json").read_text(encoding="utf-8"))
    assert [c["paper"] for c in manifest["components"]] == ["fold"]
    with pymupdf.open(kit / "nonads-a4.pdf") as doc:
        cover = " ".join(doc[0].get_text().split())
    assert "one-sided (fold-over backs)" in cover and "print one-sided" in cover
    assert "two-sided" not in cover and "flip on" not in cover
    assert "paper 120\u2013160 g/m\u00b2," in cover and "folded and glued" in cover  # the bill of materials
    assert "card stock" not in cover  # the folded tiles are the kit's only parts: no card stock asked for


def test_every_name_pnp_list_shows_builds_by_that_name_from_any_folder(tmp_path):
    """`pnp list` names the five games and the shipped examples; each validates by that name from a
    folder that is not the clone (the examples are found among pnp's own files, not in the cwd)."""
    listed = json.loads(_pnp("list", "--json", cwd=tmp_path).stdout)["games"]
    names = [g["game"] for g in listed]
    assert {"playing-cards", "questions"} <= set(names)
    for entry in listed:
        assert entry["target"] == entry["game"]
    for name in names:
        r = _pnp("validate", name, cwd=tmp_path)
        assert "FAIL" not in r.stdout, (name, r.stdout)
