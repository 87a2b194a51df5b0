"""Mixed sheets (pnp/layout/packing.py): parts of several components share a sheet when they fit,
in blocks of parts cut alike, each with its gutter and crop marks that touch no part; the plan and
the manifest list every component's pages; duplex backs mirror each sheet."""
import math
from itertools import combinations

import pytest

from pnp.engine import registry
from pnp.core.ir import Group, Line
from pnp.pipeline.plan import context as plan_context, load_target
from pnp.layout.impose import ImposeOptions, impose
from pnp.layout.paper import load_sheet

GAMES = sorted(registry())
# component pages (the cover excluded) before mixed sheets: A4, Letter and A3
BEFORE = {"a4": {"netmatch": 15, "nooks": 9, "numeria": 3, "nonaga": 3, "nonads": 1},
          "letter": {"netmatch": 15, "nooks": 9, "numeria": 3, "nonaga": 3, "nonads": 1},
          "a3": {"netmatch": 6, "nooks": 4, "numeria": 3, "nonaga": 3, "nonads": 1}}
TARGET_A4 = {"netmatch": 13, "nooks": 7, "numeria": 2, "nonaga": 2, "nonads": 1}


def _kit(game, paper, opts=ImposeOptions()):
    loaded = load_target(game)
    comps = loaded.game.components(loaded.spec, plan_context(loaded))
    imposed = impose("t", comps, load_sheet(paper), opts)
    total, plan, pages = imposed.total, imposed.plan, imposed.pages
    return comps, total, plan, list(pages)


def _lines(items, dx=0.0, dy=0.0):
    """Top-level Lines of a page (crop marks, join lines), with any group shift applied; a keyed
    untransformed group (a crop-mark set drawn once) is looked into."""
    for s in items:
        if isinstance(s, Line):
            yield (s.x1 + dx, s.y1 + dy, s.x2 + dx, s.y2 + dy, s.stroke_width)
        elif isinstance(s, Group) and s.key and (s.dx, s.dy, s.rotate, s.sx, s.sy) == (0, 0, 0, 1, 1):
            yield from _lines(s.children, dx, dy)


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("game", GAMES)
def test_page_counts_meet_the_targets(game, paper):
    _, total, _, pages = _kit(game, paper)
    parts = sum(1 for p in pages if p.placements)
    assert parts <= BEFORE[paper][game]
    if paper == "a4":
        assert parts <= TARGET_A4[game]


def _side_footer(page) -> bool:
    """The page's footer is turned along the left side (a group turned a quarter anticlockwise)."""
    return any(isinstance(s, Group) and s.rotate == -90 for s in page.items)


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("game", GAMES)
def test_every_part_once_inside_the_content_area_and_apart(game, paper):
    comps, _, plan, pages = _kit(game, paper)
    counts = {c.name: 0 for c in comps}
    for p in pages:
        sheet = load_sheet(paper).with_footer("side" if _side_footer(p) else "bottom")
        cx, cy, cw, ch = sheet.content_area
        for (ax, ay, aw, ah), (bx, by, bw, bh) in combinations([(q.x, q.y, q.w, q.h) for q in p.placements], 2):
            # parts cut alike are butted (they may share a cut line, never overlap); parts of
            # different kinds lie in different blocks, at least a gutter apart
            g = 0.0 if (round(aw, 6), round(ah, 6)) == (round(bw, 6), round(bh, 6)) else sheet.gutter
            apart = ax + aw + g - 1e-6 <= bx or bx + bw + g - 1e-6 <= ax \
                or ay + ah + g - 1e-6 <= by or by + bh + g - 1e-6 <= ay
            assert apart, "two parts overlap, or parts of different kinds are closer than the gutter"
        for name, x, y, w, h in ((q.name, q.x, q.y, q.w, q.h) for q in p.placements):
            assert cx - 1e-6 <= x and x + w <= cx + cw + 1e-6 and cy - 1e-6 <= y and y + h <= cy + ch + 1e-6
            counts[name] += 1
    for c, numbers in zip(comps, plan):
        on = [i + 1 for i, p in enumerate(pages) if any(q.name == c.name for q in p.placements)]
        assert list(numbers) == on  # the plan lists exactly the pages the component is printed on
        if not c.board:
            assert counts[c.name] == c.count


@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("game", GAMES)
def test_crop_marks_touch_no_part_and_line_up_with_every_cut(game, paper, bleed):
    sheet = load_sheet(paper)
    comps, _, _, pages = _kit(game, paper, ImposeOptions(bleed=bleed))
    width = sheet.crop_marks.width
    names = {c.name for c in comps if c.board}
    for n, p in enumerate(pages, start=1):
        if p.side != "front" or not p.placements:
            continue
        marks = [l for l in _lines(p.items) if l[4] == width]
        boards = [q for q in p.placements if q.name in names]  # printed at their trim, without bleed
        for x1, y1, x2, y2, _ in marks:
            for name, x, y, w, h in ((q.name, q.x, q.y, q.w, q.h) for q in p.placements):
                b = 0.0 if (name, x, y, w, h) in [(q.name, q.x, q.y, q.w, q.h) for q in boards] else bleed
                clear = max(x1, x2) < x - b or min(x1, x2) > x + w + b or max(y1, y2) < y - b or min(y1, y2) > y + h + b
                assert clear, f"page {n}: a crop mark touches {name}"
        verticals = {round(l[0], 4) for l in marks if l[0] == l[2]}
        horizontals = {round(l[1], 4) for l in marks if l[1] == l[3]}
        for name, x, y, w, h in ((q.name, q.x, q.y, q.w, q.h) for q in p.placements):
            if (name, x, y, w, h) in [(q.name, q.x, q.y, q.w, q.h) for q in boards] and p.tile is not None:
                continue  # a tiled piece is cut along its outline and join lines
            for edge in (x, x + w):
                assert round(edge, 4) in verticals, f"page {n}: no crop mark in line with an edge of {name}"
            for edge in (y, y + h):
                assert round(edge, 4) in horizontals, f"page {n}: no crop mark in line with an edge of {name}"


def test_parts_of_different_kinds_share_sheets():
    comps, _, _, pages = _kit("netmatch", "a4")
    mixed = [p for p in pages if len({q.name for q in p.placements}) > 1]
    assert mixed
    # one paper a sheet: no board piece (plain paper) shares a sheet with card-stock parts ...
    boards = {c.name for c in comps if c.board}
    assert boards and not any(boards & {q.name for q in p.placements} and {q.name for q in p.placements} - boards
                              for p in pages)
    # ... unless asked: then small parts fill the space beside a board piece
    _, _, _, pages = _kit("netmatch", "a4", ImposeOptions(mix_papers=True))
    assert any(p.tile is not None and {q.name for q in p.placements} - {"board"} for p in pages)
    # wall and scoring stones are cut alike: they share a block, hence a sheet
    _, _, _, pages = _kit("nooks", "a4")
    assert any({"wall stone", "scoring stone"} <= {q.name for q in p.placements} for p in pages)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_duplex_backs_mirror_each_mixed_sheet(duplex):
    sheet = load_sheet("a4")
    comps, total, plan, pages = _kit("netmatch", "a4", ImposeOptions(duplex=duplex, back_offset=(1.0, -0.5)))
    backed = {c.name for c in comps if c.back is not None}
    assert total == len(pages) and total % 2 == 0
    for front, back in zip(pages[2::2], pages[3::2]):
        assert front.side == "front" and back.side == "back"
        want = []
        for name, x, y, w, h in ((q.name, q.x, q.y, q.w, q.h) for q in front.placements):
            if name not in backed:
                continue
            if duplex == "long":
                x = sheet.width - x - w
            else:
                y = sheet.height - y - h
            want.append((name, round(x + 1.0, 6), round(y - 0.5, 6)))
        got = [(q.name, round(q.x, 6), round(q.y, 6)) for q in back.placements]
        assert sorted(got) == sorted(want)
    for numbers in plan:  # a component's sheets: each front with its back
        assert len(numbers) % 2 == 0 and all(b == a + 1 for a, b in zip(numbers[::2], numbers[1::2]))


def test_a_large_deck_is_packed_in_full_sheets():
    from pnp.core.ir import Component, Rect
    cards = Component("card", 63.5, 88.9, [(Rect(0, 0, 63.5, 88.9, fill="#ffffff"),)], copies=1000)
    imposed = impose("t", [cards], load_sheet("a4"))
    total, plan, pages = imposed.total, imposed.plan, imposed.pages
    pages = list(pages)
    per = len(next(p for p in pages if p.placements).placements)
    # 3 x 3 butted poker cards: 190.5 x 266.7 mm inside A4's 200 x 287 mm printable area (5 mm margin)
    # less the 13 mm footer band, crop marks running into the margin
    assert per == 9 and total == 1 + math.ceil(1000 / per)
