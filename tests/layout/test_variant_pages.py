"""Print only what you need: an optional variant's parts (Nooks' square board, Nonaga's setup
sheet) never share a page with the standard game's; the cover lists the standard game's pages and
each variant's; sheets are not left nearly empty when their parts fit elsewhere."""
from __future__ import annotations

import re

import pymupdf
import pytest

from pnp.pipeline.plan import Request, load_paper, plan
from pnp.core.ir import Component
from pnp.engine import registry
from pnp.layout.impose import impose
from pnp.layout.options import ImposeOptions
from pnp.layout.packing import SPARSE, pack
from pnp.layout.paper import load_sheet
from pnp.layout.sheetspace import BoardBlock

from conftest import open_pdf, pdf_of

GAMES = sorted(registry())
PAGES = re.compile(r"(\d+)(?:\u2013(\d+))?")


def _planned(game: str):
    """The game's plan on A4 (its components, checked)."""
    return plan([game], Request(load_paper("a4"))).targets[0]


def _numbers(ranges: str) -> set[int]:
    """"1\u20133, 5" -> {1, 2, 3, 5}."""
    out: set[int] = set()
    for a, b in PAGES.findall(ranges):
        out.update(range(int(a), int(b or a) + 1))
    return out


def _read(result):
    """(cover text with lines joined, [components named in each page's footer])."""
    with pymupdf.open(pdf_of(result)) as doc:  # reads a footer turned along the side too
        texts = [p.get_text() or "" for p in doc]
    title = texts[0].splitlines()[0].split(" \u2014 ")[0]
    footers = []
    for text in texts:
        footer = next(line for line in text.splitlines() if " \u2014 page " in line)
        middle = footer[footer.index(title + " \u2014 ") + len(title) + 3:footer.rindex(" \u2014 page ")]
        footers.append([n.removesuffix(" (backs)") for n in middle.split(", ")])
    return re.sub(r"\s+", " ", texts[0]), footers


@pytest.mark.parametrize("shop", [False, True], ids=["home", "bleed3-long"])
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("game", GAMES)
def test_variant_parts_have_pages_of_their_own_and_the_cover_lists_them(built, game, paper, shop):
    kw = {"opts": ImposeOptions(bleed=3.0, duplex="long")} if shop else {}
    variant = {c.name: c.variant for c in _planned(game).components}
    cover, footers = _read(built(game, paper, formats=("pdf",), **kw))
    on_page: dict[str, set[int]] = {}
    for number, names in enumerate(footers, start=1):
        parts = [n for n in names if n in variant]
        assert len({variant[n] for n in parts}) <= 1, f"page {number} mixes {parts}"
        key = variant[parts[0]] if parts else ""
        on_page.setdefault(key, set()).add(number)
    standard = re.search(r"Print one copy of pages? ([0-9\u2013, ]+): that is the whole game\.", cover)
    assert standard, cover[:300]
    assert _numbers(standard.group(1)) == on_page.pop("")
    for name, numbers in on_page.items():
        listed = re.search(rf"Only for the {re.escape(name)}: pages? ([0-9\u2013, ]+) as well\.", cover)
        assert listed and _numbers(listed.group(1)) == numbers, f"{name}: {numbers} not listed on the cover"


def test_nooks_stones_are_not_on_the_square_variant_pages(built):
    """The issue's case: on A4 the stones sat on the square board's pages."""
    _, footers = _read(built("nooks", "a4", formats=("pdf",)))
    square = [names for names in footers if "square board" in names]
    assert square and all(names == ["square board"] for names in square)


def _fills(game: str, paper: str, mix: bool = False) -> list[float]:
    """Part area / printable area of every sheet of parts, from the imposed pages' placements (mm)."""
    p = _planned(game)
    sheet = load_sheet(paper)
    _, _, pw, ph = sheet.printable
    pages = impose("t", p.components, sheet, ImposeOptions(mix_papers=mix)).pages
    return [sum(q.w * q.h for q in page.placements) / (pw * ph) for page in pages if page.placements]


@pytest.mark.parametrize("game,paper,mix", [("nooks", "a4", False), ("nooks", "letter", False),
                                            ("numeria", "a3", True), ("numeria", "a4", False), ("nonads", "a4", False)])
def test_no_sparse_sheet_where_the_parts_fit_elsewhere(game, paper, mix):
    """Kits whose parts can fill every sheet to 30 %: Nooks' stones are spread over their two
    sheets (not 150 + 78); with --mix-papers, Numeria's tiles join the board on A3 (the board alone
    filled 28 %; by default the tiles, on card stock, take a sheet of their own)."""
    fills = _fills(game, paper, mix)
    assert fills and min(fills) >= SPARSE, [round(f, 3) for f in fills]


def _sheet_fill(plan, sheet) -> float:
    """Part area / printable area of one packed sheet (mm² / mm²), from its blocks."""
    _, _, w, h = sheet.printable
    return sum(b.w * b.h * (1 if isinstance(b, BoardBlock) else sum(r.count for r in b.runs))
               for b in plan.blocks) / (w * h)


def test_a_sparse_sheet_is_topped_up_from_another():
    """Numeria's sizes on A3, mixed: packed in order, the board (176 mm square, 28 % of the sheet)
    is alone on its sheet and the tiles sit with the rules card; the tiles move to the board's sheet
    so no sheet is sparse, and every part is still placed once (pnp.layout.packing.pack)."""
    sheet = load_sheet("a3")
    comps = [Component("board", 176.0, 176.0, [()], board=True), Component("tile", 16.0, 16.0, [()] * 36),
             Component("card", 165.0, 220.0, [()])]
    _, _, w, h = sheet.printable
    assert 176.0 ** 2 < SPARSE * w * h  # the board alone would leave its sheet sparse
    plans, _ = pack(comps, sheet, ImposeOptions(mix_papers=True))
    assert all(_sheet_fill(p, sheet) >= SPARSE for p in plans), [round(_sheet_fill(p, sheet), 3) for p in plans]
    placed = []  # (component, part index) of every part on every sheet
    for p in plans:
        for b in p.blocks:
            if isinstance(b, BoardBlock):
                placed.append((b.comp, 0))
            else:
                placed += [(r.comp, k) for r in b.runs for k in range(r.first, r.first + r.count)]
    assert sorted(placed) == sorted((i, k) for i, c in enumerate(comps) for k in range(len(c.fronts) * c.copies))
    boards = [p for p in plans if any(isinstance(b, BoardBlock) for b in p.blocks)]
    assert len(boards) == 1 and any(not isinstance(b, BoardBlock) for b in boards[0].blocks)  # the tiles joined it
