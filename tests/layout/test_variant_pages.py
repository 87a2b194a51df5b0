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
from pnp.layout.packing import SPARSE, Packer, Run, _Kind
from pnp.layout.paper import load_sheet

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


def _tiles(n: int) -> Component:
    return Component("tile", 30.0, 30.0, [()], copies=n)


def test_a_sparse_sheet_is_merged_into_the_free_space_of_another():
    """Two sheets, one nearly empty: its parts move into the other's free space and it goes."""
    sheet = load_sheet("a4")
    packer = Packer([_tiles(22)], sheet, ImposeOptions())
    packer.pack()
    assert len(packer.spaces) == 1
    one = packer.spaces[0]
    parts = sum(b.count for b in one.blocks)
    first, second = packer._new_space(), packer._new_space()  # the same parts, split 20 + 2 over two sheets
    packer.spaces = [first, second]
    packer._put(first, sheet.content_area, _Kind(30.0, 30.0, "rect", ()), (Run(0, 0, 20),))
    packer._put(second, sheet.content_area, _Kind(30.0, 30.0, "rect", ()), (Run(0, 20, 2),))
    assert packer._sparse(second) and not packer._sparse(first)
    packer._merge_sparse()
    assert len(packer.spaces) == 1
    runs = [(r.first, r.count) for b in packer.spaces[0].blocks for r in b.runs]
    assert sum(c for _, c in runs) == parts == 22
    covered = sorted(k for first_, count in runs for k in range(first_, first_ + count))
    assert covered == list(range(22))  # every part once
