"""pnp.layout.limits: a kit's pages and rough size are estimated without imposing a page, and a kit
above the limits is refused with a LayoutError naming the component and the numbers."""
from __future__ import annotations

import time

import pytest

from pnp.core.errors import LayoutError
from pnp.engine import registry
from pnp.core.ir import Component, LazyFronts, Rect, Text
from pnp.pipeline.plan import context as plan_context, load_target
from pnp.layout import marks
from pnp.layout.impose import effective_options, impose
from pnp.layout.packing import grid_for
from pnp.layout.limits import (MAX_OUTPUT_BYTES, MAX_PAGES, MAX_POSTER_COLUMNS, MAX_POSTER_PIECES, check_budget,
                               estimate, shape_count)
from pnp.layout.options import ImposeOptions
from pnp.layout.paper import Sheet, load_sheet
from pnp.layout.tiling import piece_grid

A4 = load_sheet("a4")


def _face(i) -> tuple:
    return (Rect(0, 0, 30, 30, fill="#ffffff"), Text(15, 15, str(i)))


def _tiles(n: int, copies: int = 1, back=None) -> Component:
    return Component("tile", 30, 30, LazyFronts(range(n), _face), copies=copies, back=back)


def _board(width: float, height: float = 100.0, shapes: int = 10) -> Component:
    return Component("board", width, height, [tuple(Rect(i, 0, 1, 1) for i in range(shapes))], board=True)


@pytest.mark.parametrize("game", sorted(registry()))
def test_estimate_bounds_the_imposed_pages_of_every_builtin_kit(game):
    """Each component alone on its sheets, as estimate() counts, never takes fewer pages than impose,
    which may share sheets between components; and not many more."""
    loaded = load_target(game)
    comps = loaded.game.components(loaded.spec, plan_context(loaded, full=False))
    for opts in (ImposeOptions(), ImposeOptions(duplex="long", bleed=3)):
        total = impose("t", comps, A4, opts).total
        budget = check_budget(comps, A4, opts, cover_pages=1)
        sides = 2 if effective_options(comps, opts).duplex != "none" else 1
        assert total <= budget.pages <= total + sides * len(comps)
        assert 0 < budget.bytes < 50 * 1024 ** 2


def test_a_billion_tiles_are_refused_at_once_naming_the_component():
    start = time.perf_counter()
    with pytest.raises(LayoutError) as e:
        check_budget([_tiles(10 ** 9)], A4)
    assert time.perf_counter() - start < 1.0
    text = str(e.value)
    assert e.value.field == "tile" and f"limit {MAX_PAGES:,}" in text
    assert "1,000,000,000 parts (1,000,000,000 faces x 1 copies)" in text and "Fix:" in text


PER_PAGE = grid_for(_tiles(1), A4).per_page  # 30 mm tiles on A4


def test_the_page_limit_is_exact():
    n = (MAX_PAGES - 2) * PER_PAGE  # two cover pages
    assert check_budget([_tiles(n)], A4).pages == MAX_PAGES
    with pytest.raises(LayoutError):
        check_budget([_tiles(n + 1)], A4)


def test_duplex_doubles_the_pages():
    back = (Rect(0, 0, 30, 30, fill="#000000"),)
    one = estimate([_tiles(10 * PER_PAGE, back=back)], A4)
    two = estimate([_tiles(10 * PER_PAGE, back=back)], A4, ImposeOptions(duplex="long"))
    assert (one.pages, two.pages) == (2 + 10, 4 + 20) and two.bytes > one.bytes


def test_the_kit_total_is_limited_even_when_no_part_is_alone():
    comps = [Component(f"deck {i}", 30, 30, LazyFronts(range(PER_PAGE * 5_000), _face)) for i in range(5)]
    check_budget(comps[:3], A4)
    with pytest.raises(LayoutError) as e:
        check_budget(comps, A4)
    assert "25,002 pages" in str(e.value) and "deck 0 5,000" in str(e.value)


def test_heavy_drawings_are_refused_by_size():
    heavy = Component("card", 60, 90, [tuple(Rect(0, 0, 1, 1) for _ in range(100_000))], copies=300)
    with pytest.raises(LayoutError) as e:
        check_budget([heavy], A4)
    assert "of PDF and SVG" in str(e.value) and e.value.field == "card"
    assert estimate([heavy], A4).bytes > MAX_OUTPUT_BYTES


def _narrow_sheet() -> Sheet:
    return Sheet(name="strip", width=62, height=297, margin=10)  # content 42 mm wide


def _board_of_columns(sheet: Sheet, cols: int) -> Component:
    """The narrowest board the tiling cuts into ``cols`` columns on ``sheet`` (found by bisection)."""
    lo, hi = 1.0, 1900.0
    while hi - lo > 0.01:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if piece_grid(_board(mid), sheet, 10.0)[0] < cols else (lo, mid)
    return _board(hi)


def test_boards_of_more_than_26_columns_are_refused_before_any_page():
    sheet = _narrow_sheet()
    ok = _board_of_columns(sheet, MAX_POSTER_COLUMNS)
    assert piece_grid(ok, sheet, 10.0)[0] == MAX_POSTER_COLUMNS
    check_budget([ok], sheet)
    wide = _board_of_columns(sheet, MAX_POSTER_COLUMNS + 1)
    assert piece_grid(wide, sheet, 10.0)[0] == MAX_POSTER_COLUMNS + 1
    with pytest.raises(LayoutError) as e:
        check_budget([wide], sheet)
    text = str(e.value)
    assert "27 columns" in text and "A..Z" in text and e.value.field == "board" and "Fix:" in text


def test_every_allowed_column_has_a_letter_name():
    names = [marks.piece_name(c, 0) for c in range(MAX_POSTER_COLUMNS)]
    assert names[0] == "A1" and names[-1] == "Z1" and all(n[0].isalpha() and n[0].isupper() for n in names)


def test_a_board_of_too_many_pieces_is_refused():
    stamp = Sheet(name="stamp", width=62, height=62, margin=10)
    board = _board(300, 1999)
    cols, rows = piece_grid(board, stamp, 10.0)
    assert cols <= MAX_POSTER_COLUMNS and cols * rows > MAX_POSTER_PIECES
    with pytest.raises(LayoutError) as e:
        check_budget([board], stamp)
    assert f"{cols * rows:,} pieces" in str(e.value) and "at most 676 pieces" in str(e.value)


def test_shape_count_walks_groups():
    from pnp.core.ir import Group
    inner = Group((Rect(0, 0, 1, 1), Rect(0, 0, 1, 1)))
    assert shape_count((inner, Group((inner,)), Rect(0, 0, 1, 1))) == 3 + 4 + 1


def test_a_part_that_does_not_fit_is_refused_as_impose_would():
    with pytest.raises(LayoutError) as e:
        check_budget([Component("card", 500, 500, [()])], A4)
    assert "does not fit" in str(e.value)


def test_the_time_estimate_counts_each_distinct_face_once_and_each_part_per_format():
    from pnp.layout import limits
    face = (Rect(0, 0, 44, 68),)
    distinct = Component("word card", 44, 68, [face] * 100)
    copied = Component("word card", 44, 68, [face], copies=100)
    assert distinct.count == copied.count == 100
    from pnp.render.formats import WriterSettings, formats as registry
    settings = WriterSettings()
    for names in (("pdf",), ("svg",), ("pdf", "svg")):
        formats = registry().writers(names)
        per_format = sum(10 * f.seconds_per_page + 100 * f.seconds_per_part for f in formats)
        assert limits.estimate_seconds(10, [copied], formats, settings) == pytest.approx(
            limits.SECONDS_FIXED + limits.SECONDS_PER_FACE + per_format)
        # 99 more faces to draw, the same parts and pages in each format
        assert limits.estimate_seconds(10, [distinct], formats, settings) - limits.estimate_seconds(10, [copied], formats, settings) \
            == pytest.approx(99 * limits.SECONDS_PER_FACE)
    # print-on-demand images cost per part, not per sheet
    pod = registry().writers(("pod",))
    assert limits.estimate_seconds(1, [copied], pod, settings) == limits.estimate_seconds(50, [copied], pod, settings)
