"""Nooks: read the boards and stones back from the PDFs, and check the validator against small
boards whose numbers are computed here, independently (in the rules doc's (column, row) terms)."""
import math
import re
from collections import Counter

import pytest

from boardread import board_readback, circles, dist, inside_any, page_tiles, placements, polygons
from conftest import open_pdf, pdf_of
from pnp.engine import KitContext
from pnp.games.nooks import NooksSpec, check
from pnp.pipeline.plan import load_target

PITCH = 19.0  # the spec's default cell size (rules doc: 18-20 mm)
LETTERS = "abcdefghijklmno"


def _axial_labels(cells):
    """Name every read-back hex centre by the rules doc's coordinate rule: the mean centre is h8,
    rows are horizontal and 1 is at the bottom; q = c - 8, r = 8 - row."""
    x0 = sum(c[0] for c in cells) / len(cells)
    y0 = sum(c[1] for c in cells) / len(cells)
    out = {}
    for x, y, *_ in cells:
        r = round((y - y0) / (PITCH * math.sqrt(3) / 2))
        q = round((x - x0) / PITCH - r / 2)
        out[(round(x, 1), round(y, 1))] = f"{LETTERS[q + 7]}{8 - r}"
    return out


def _unique(cells):
    seen = {}
    for x, y, *_ in cells:
        if not any(dist((x, y), k) < 0.1 for k in seen):
            seen[(x, y)] = True
    return list(seen)


@pytest.mark.parametrize("paper", ["a3", "a4", "letter"])
def test_hex_board_has_169_cells_one_pitch_apart(built, paper):
    cells, _, pieces = board_readback(built("nooks", paper), "nooks", "board")
    centres = _unique(cells)
    assert len(centres) == 169
    if paper == "a3":
        assert pieces == [("whole", pieces[0][1])]
    else:
        assert len(pieces) == {"a4": 2, "letter": 4}[paper]
    neighbours = Counter()
    for a in centres:
        near = [b for b in centres if b != a and dist(a, b) < PITCH * 1.2]
        assert all(abs(dist(a, b) - PITCH) < 0.1 for b in near)
        neighbours[len(near)] += 1
    # hex-hex of side 8: 6 corners with 3 neighbours, 6 x 6 edge cells with 4, the rest 6
    assert neighbours == {3: 6, 4: 36, 6: 127}


def test_hex_board_labels_sit_beside_their_cells(built):
    cells, texts, _ = board_readback(built("nooks", "a4"), "nooks", "board")
    names = _axial_labels(_unique(cells))
    centres = list(names)
    found = Counter()
    for text, x, y, _ in texts:
        if not (text.isdigit() or (len(text) == 1 and text in LETTERS)):
            continue
        near = min(centres, key=lambda c: dist(c, (x, y)))
        cell = names[near]
        assert 0.5 * PITCH < dist(near, (x, y)) < 0.8 * PITCH, (text, cell)
        if text.isdigit():
            assert cell[1:] == text, (text, cell)
        else:
            assert cell[0] == text, (text, cell)
        found[text] += 1
    # 15 rows and 15 columns, labelled where they meet the border (both ends); pieces overlap, so
    # a label in an overlap strip is read twice
    assert set(found) == set(LETTERS) | {str(i) for i in range(1, 16)}
    assert all(n >= 2 for n in found.values())


def test_setup_cells_b8_n8_marked(built):
    result = built("nooks", "a3")
    (index, tile, placement), = page_tiles("nooks", "a3", "board")
    with open_pdf(pdf_of(result)) as pdf:
        page = pdf.pages[index]
        hexes = polygons(page, 6)
        rings = [c for c in circles(page) if abs(c[2] - 14) < 0.1 and not c[4]]
    # the A3 board is turned a quarter turn: the rows run down the page
    labelled = _axial_labels([(y, -x) for x, y, _ in hexes])
    marked = sorted(labelled[min(labelled, key=lambda k: dist(k, (y, -x)))] for x, y, *_ in rings)
    assert marked == ["b8", "n8"]


def test_square_board_121_cells(built):
    for paper in ("a4", "a3"):
        result = built("nooks", paper)
        squares = []
        with open_pdf(pdf_of(result)) as pdf:
            for index, tile, placement in page_tiles("nooks", paper, "square board"):
                page = pdf.pages[index]
                px, py = tile.page_xy if tile else (placement.x, placement.y)
                bx, by, w, h = tile.window if tile else (0, 0, placement.w, placement.h)
                for r in page.rects:
                    x, y = r["x0"] * 25.4 / 72, r["top"] * 25.4 / 72
                    size = (r["x1"] - r["x0"]) * 25.4 / 72
                    cx, cy = x + size / 2, y + size / 2
                    if abs(size - PITCH) < 0.05 and px <= cx <= px + w and py <= cy <= py + h:
                        squares.append((round(cx - px + bx, 1), round(cy - py + by, 1)))
        assert len(set(squares)) == 121


def test_stones_counts_colours_and_size(built):
    result = built("nooks", "a4")
    kinds = Counter()
    with open_pdf(pdf_of(result)) as pdf:
        for name in ("wall stone", "scoring stone"):  # the two share sheets: count each stone at its own place
            for index, boxes in placements("nooks", "a4", name).items():
                for cx, cy, d, colour, filled in circles(pdf.pages[index]):
                    if filled and abs(d - 14.0) < 0.05 and inside_any(cx, cy, boxes):
                        kinds[colour] += 1
    assert sorted(kinds.values()) == [30, 30, 168]
    assert len(kinds) == 3


def test_page_counts(built):
    for paper, board_pages in (("a4", 2), ("letter", 4), ("a3", 1)):
        manifest = built("nooks", paper).manifest
        board = next(c for c in manifest["components"] if c["name"] == "board")
        assert len(board["pages"]) == board_pages


# -- validator against small boards computed here ---------------------------------------------

def _hex_cells(side):
    n = 2 * side - 1
    return {(c, r) for c in range(1, n + 1) for r in range(1, n + 1) if abs(c - r) <= side - 1}


def _square_cells(size):
    return {(c, r) for c in range(1, size + 1) for r in range(1, size + 1)}


def _lines(cells, dirs):
    return [tuple((c + dc * i, r + dr * i) for i in range(4)) for c, r in cells for dc, dr in dirs
            if all((c + dc * i, r + dr * i) in cells for i in range(4))]


def _name(cell):
    return f"{LETTERS[cell[0] - 1]}{cell[1]}"


def _parse(text):
    return LETTERS.index(text[0]) + 1, int(text[1:])


HEX_DIRS = [(1, 0), (0, 1), (1, 1)]   # rules doc: (+1, 0), (0, +1), (+1, +1)
SQUARE_DIRS = [(1, 0), (0, 1)]


def _findings(spec):
    return check(spec, KitContext(load_target("nooks").path))


def _board_findings(findings, prefix):
    return [f for f in findings if f.check.startswith(prefix)]


@pytest.mark.parametrize("kind,size,setup", [("hex", 3, ["b3", "d3"]), ("hex", 3, []),
                                             ("square", 5, []), ("square", 5, ["c3"])])
def test_validator_on_small_boards(kind, size, setup):
    if kind == "hex":
        spec = NooksSpec(game="nooks", side=size, setup=setup, square={"include": False})
        cells, dirs, prefix = _hex_cells(size), HEX_DIRS, f"hex side {size}:"
    else:
        spec = NooksSpec(game="nooks", side=3, setup=[], square={"size": size, "setup": setup})
        cells, dirs, prefix = _square_cells(size), SQUARE_DIRS, f"square {size}x{size}:"
    findings = _board_findings(_findings(spec), prefix)
    text = " | ".join(f.check for f in findings)
    start = {_parse(s) for s in setup}
    all_lines = _lines(cells, dirs)
    assert f"{len(all_lines)} wall placements on the empty board" in text
    after = [ln for ln in all_lines if start.isdisjoint(ln)]
    assert f"{len(after)} of {len(all_lines)} wall placements remain after setup" in text
    free = len(cells) - len(start)
    assert f"{free} free cells hold at most {free}//4 = {free // 4} walls" in text
    # the blocked board the validator shows: legal walls, and then no wall fits
    shown = next(f for f in findings if "finished board" in f.check)
    walls_text = re.search(r"has (\d+) walls \(([^)]*)\) and leaves (\d+) cells", shown.check)
    count, listed, nooks = int(walls_text.group(1)), walls_text.group(2), int(walls_text.group(3))
    walls = []
    for item in filter(None, listed.split(", ")):
        a, b = map(_parse, item.split("-"))
        wall = next(ln for ln in all_lines if {ln[0], ln[-1]} == {a, b})
        walls.append(wall)
    assert len(walls) == count
    taken = set(start)
    for wall in walls:
        assert taken.isdisjoint(wall)
        taken |= set(wall)
    assert not [ln for ln in all_lines if taken.isdisjoint(ln)]
    assert nooks == len(cells) - len(taken) == free - 4 * count
    ties = next(f for f in findings if "ties are impossible" in f.check)
    assert (ties.status == "pass") == (free % 2 == 1)


def test_builtin_validator_numbers():
    findings = _findings(load_target("nooks").spec)
    text = " | ".join(f.check for f in findings)
    # rules doc figures
    assert "hex side 8: 372 wall placements on the empty board (124 per direction" in text
    assert "hex side 8: 360 of 372 wall placements remain after setup" in text
    assert "167 free cells hold at most 167//4 = 41 walls, 2 + 4x41 = 166 <= 168" in text
    assert "square 11x11: 176 wall placements" in text
    warning = next(f for f in findings if f.check.startswith("hex side 8: the sparsest"))
    assert warning.status == "warning" and "use one stone to mark a captured nook" in warning.check
    walls, nooks = map(int, re.search(r"has (\d+) walls .* leaves (\d+) cells", warning.check).groups())
    assert nooks == 167 - 4 * walls and nooks // 2 + 1 > 30
    assert not [f for f in findings if f.status == "fail"]


def test_seed_coordinates_are_straight_walls():
    cells = _hex_cells(8)
    lines = {frozenset(ln) for ln in _lines(cells, HEX_DIRS)}
    for a, b in (("j12", "m12"), ("k12", "k15"), ("j12", "m15")):
        (c0, r0), (c1, r1) = _parse(a), _parse(b)
        run = frozenset((c0 + (c1 - c0) // 3 * i, r0 + (r1 - r0) // 3 * i) for i in range(4))
        assert run in lines
    assert frozenset((10 + i, 15 - i) for i in range(4)) not in lines  # (+1, -1) is not a line
    assert len(cells) == 169 and {_parse("b8"), _parse("n8")} <= cells
