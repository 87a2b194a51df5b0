"""The build note says how many of each part a sheet holds and why fewer when the paper could hold
more (README, Printing). Checked for poker cards (63.5 x 88.9 mm, the playing-cards kit) on the
a4-letter page (210 x 279.4 mm, A4's width and Letter's height) and on an A4 sheet for a Silhouette
cutter: the count the note gives is the count the area allows, computed here from the paper, the
card, the 5 mm margin, the footer (13 mm at the foot or 6 mm along the side, whichever holds more),
the crop marks (2 mm off the trim, 4 mm long; into the margin as far as it goes on a home sheet) and
the cutter's marks (10 mm inset, 5 mm arms, 1.5 mm clear: docs/print.md); the page holds that many."""
from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from conftest import PT, open_pdf
from pnp.cli import app

runner = CliRunner()
CARD = (63.5, 88.9)
MARGIN, FOOT, SIDE, MARKS = 5.0, 13.0, 6.0, 2.0 + 4.0
SILHOUETTE_MARGIN = 10.0 + 5.0 + 1.5


def _fits(room: float, part: float, gap: float) -> int:
    return int((room + gap + 1e-9) // (part + gap))


def _holds(w: float, h: float, margin: float, butt: bool) -> tuple[int, int]:
    """(cols, rows) of the best footer placement for cards on a w x h mm page (see the docstring)."""
    pw, ph = w - 2 * margin, h - 2 * margin
    into = min(margin, MARKS) if butt else 0.0  # marks may run into a home sheet's margin
    gap = 0.0 if butt else 3.0
    best = (0, 0)
    for cw, ch, extra_w, extra_h in ((pw, ph - FOOT, 2 * into, into), (pw - SIDE, ph, into, 2 * into)):
        cols = _fits(cw + extra_w - 2 * MARKS, CARD[0], gap)
        rows = _fits(ch + extra_h - 2 * MARKS, CARD[1], gap)
        if cols * rows > best[0] * best[1]:
            best = (cols, rows)
    return best


def _note(output: str) -> str:
    line = next(line for line in output.splitlines() if line.startswith("note: per "))
    return " ".join(line.split())


def _cards_on_first_sheet(pdf) -> int:
    """The cards on the first page of cards, from its crop marks (4 mm lines outside the block, in
    line with every cut): the cut columns and rows they mark, as a person cutting would find them."""
    with open_pdf(pdf) as doc:
        for page in doc.pages[1:]:
            marks = [ln for ln in page.lines if abs((ln["x1"] - ln["x0"]) * PT - 4.0) < 0.05
                     or abs((ln["bottom"] - ln["top"]) * PT - 4.0) < 0.05]
            xs = sorted({round(ln["x0"] * PT, 1) for ln in marks if abs(ln["x1"] - ln["x0"]) < 1e-6})
            ys = sorted({round(ln["top"] * PT, 1) for ln in marks if abs(ln["bottom"] - ln["top"]) < 1e-6})
            cols, rows = len(xs) - 1, len(ys) - 1
            widths = {round(b - a, 1) for a, b in zip(xs, xs[1:])}
            if widths == {CARD[0]}:
                return cols * rows
    raise AssertionError("no sheet of cards")


def test_a4_letter_note_says_why_it_holds_fewer(tmp_path):
    r = runner.invoke(app, ["build", "playing-cards", "-o", str(tmp_path), "-p", "a4-letter", "-f", "pdf"])
    assert r.exit_code == 0, r.output
    note = _note(r.output)
    cols, rows = _holds(210.0, 279.4, MARGIN, butt=True)
    pw, ph = 210.0 - 2 * MARGIN, 279.4 - 2 * MARGIN
    across, down = int(pw // CARD[0]), int(ph // CARD[1])
    assert across * down > cols * rows  # the printable area alone would take more: the note must say why
    got = re.search(r"card (\d+) \((\d+) x (\d+)", note)
    assert got and int(got[1]) == cols * rows, note
    assert f"printable area, {pw:g} x {ph:g} mm, takes {across} x {down} trims" in note, note
    assert "the footer and the crop marks leave" in note and (f"room for {rows} down" in note or
                                                              f"room for {cols} across" in note), note
    assert _cards_on_first_sheet(tmp_path / "playing-cards" / "playing-cards-a4-letter.pdf") == cols * rows


def test_cutter_note_says_why_it_holds_fewer(tmp_path):
    r = runner.invoke(app, ["build", "playing-cards", "-o", str(tmp_path), "--cutter", "silhouette", "-f", "pdf"])
    assert r.exit_code == 0, r.output
    note = _note(r.output)
    cols, rows = _holds(210.0, 297.0, SILHOUETTE_MARGIN, butt=False)
    plain_cols, plain_rows = _holds(210.0, 297.0, MARGIN, butt=True)
    assert plain_cols * plain_rows > cols * rows
    assert f"card {cols * rows} ({cols} x {rows}; {plain_cols * plain_rows} without --cutter)" in note, note
    pw, ph = 210.0 - 2 * SILHOUETTE_MARGIN, 297.0 - 2 * SILHOUETTE_MARGIN
    assert (f"--cutter silhouette (Silhouette Studio's registration marks) keeps parts {SILHOUETTE_MARGIN:g} mm "
            f"from the paper's edges ({pw:g} x {ph:g} mm for parts), and 3 mm apart") in note, note


@pytest.mark.parametrize("paper, w, h", [("a4", 210.0, 297.0), ("letter", 215.9, 279.4)])
def test_a_full_sheet_gives_no_reason(tmp_path, paper, w, h):
    r = runner.invoke(app, ["build", "playing-cards", "-o", str(tmp_path), "-p", paper, "-f", "pdf"])
    assert r.exit_code == 0, r.output
    note = _note(r.output)
    cols, rows = _holds(w, h, MARGIN, butt=True)
    assert re.search(rf"card {cols * rows} \({cols} x {rows}(, footer along the side)?\)", note), note
