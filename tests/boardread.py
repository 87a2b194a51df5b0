"""Read boards back from a built PDF: hexagons, circles and words in mm, mapped to board coordinates
through each poster piece's tile offsets (Page.tile from imposing the same components); and read a
tiled board's pieces the way a person assembling them would (``read_piece``, ``assemble``): only
from what is drawn on the pages, never from the code's numbers."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from conftest import PT, open_pdf, pdf_of
from pnp.pipeline.plan import context as plan_context, load_target
from pnp.layout.impose import ImposeOptions, impose
from pnp.layout.paper import load_sheet


def page_tiles(game: str, paper: str, component: str):
    """[(page index 0-based, TileInfo or None, placement)] of every page of ``component``, from
    imposing the built-in spec exactly as the kit does."""
    loaded = load_target(game)
    comps = loaded.game.components(loaded.spec, plan_context(loaded))
    pages = impose(loaded.spec.title or loaded.game.title, comps, load_sheet(paper), ImposeOptions()).pages
    out = []
    for i, p in enumerate(pages):
        mine = [q for q in p.placements if q.name == component]
        if mine:
            out.append((i, p.tile if p.tile and _holds(p.tile, mine[0]) else None, mine[0]))
    return out


def _holds(tile, placement) -> bool:
    """True when ``placement`` (what is kept of a piece) lies in the piece ``tile`` is about."""
    (px, py), (_, _, w, h) = tile.page_xy, tile.window
    x, y, pw, ph = placement.x, placement.y, placement.w, placement.h
    return px - 1e-6 <= x and py - 1e-6 <= y and x + pw <= px + w + 1e-6 and y + ph <= py + h + 1e-6


def placements(game: str, paper: str, component: str):
    """{page index 0-based: [(x, y, w, h)]}: where every part of ``component`` sits (pages may be
    shared with other components)."""
    loaded = load_target(game)
    comps = loaded.game.components(loaded.spec, plan_context(loaded))
    pages = impose(loaded.spec.title or loaded.game.title, comps, load_sheet(paper), ImposeOptions()).pages
    out = {}
    for i, p in enumerate(pages):
        mine = [(q.x, q.y, q.w, q.h) for q in p.placements if q.name == component]
        if mine and p.side == "front":
            out[i] = mine
    return out


def inside_any(x: float, y: float, boxes, tol: float = 0.05) -> bool:
    """True when (x, y) lies in one of ``boxes`` (x, y, w, h)."""
    return any(bx - tol <= x <= bx + bw + tol and by - tol <= y <= by + bh + tol for bx, by, bw, bh in boxes)


def polygons(page, vertices: int):
    """Filled closed paths with ``vertices`` corners: (centre x, centre y, [(x, y) corners]) in mm."""
    out = []
    for c in page.curves:
        pts = c["pts"]
        if c.get("fill") and len(pts) == vertices + 1 and pts[0] == pts[-1]:
            corners = [(x * PT, y * PT) for x, y in pts[:-1]]
            cx = sum(p[0] for p in corners) / vertices
            cy = sum(p[1] for p in corners) / vertices
            out.append((cx, cy, corners))
    return out


def circles(page):
    """Every circle-like curve (bezier, 4 segments) as (cx, cy, diameter, fill colour, filled) in mm."""
    out = []
    for c in page.curves:
        w, h = (c["x1"] - c["x0"]) * PT, (c["bottom"] - c["top"]) * PT
        if abs(w - h) < 0.05 and len(c["pts"]) <= 6:
            out.append(((c["x0"] + c["x1"]) / 2 * PT, (c["top"] + c["bottom"]) / 2 * PT, w,
                        tuple(round(v, 3) for v in (c.get("non_stroking_color") or ())), bool(c.get("fill"))))
    return out


def words(page):
    """Words as (text, centre x, centre y) in mm."""
    return [(w["text"], (w["x0"] + w["x1"]) / 2 * PT, (w["top"] + w["bottom"]) / 2 * PT)
            for w in page.extract_words()]


def board_readback(result, game: str, component: str, vertices: int = 6):
    """Cells and words of a (possibly tiled) board in board mm.

    Returns (cells, words, pieces): cells = [(bx, by, piece name)] for every polygon whose centre lies
    inside its piece's window; words likewise; pieces = [(name, window)].
    """
    cells, texts, pieces = [], [], []
    with open_pdf(pdf_of(result)) as pdf:
        for index, tile, placement in page_tiles(game, result.paper, component):
            page = pdf.pages[index]
            if tile is None:
                px, py, w, h = placement.x, placement.y, placement.w, placement.h
                bx, by = 0.0, 0.0
                name, window = "whole", (0.0, 0.0, w, h)
            else:
                px, py = tile.page_xy
                bx, by, w, h = tile.window
                name, window = tile.name, tile.window
            pieces.append((name, window))

            def inside(x, y):
                return px - 1e-6 <= x <= px + w + 1e-6 and py - 1e-6 <= y <= py + h + 1e-6

            for cx, cy, _ in polygons(page, vertices):
                if inside(cx, cy):
                    cells.append((cx - px + bx, cy - py + by, name))
            for text, x, y in words(page):
                if inside(x, y):
                    texts.append((text, x - px + bx, y - py + by, name))
    return cells, texts, pieces


def dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


# -- assembling a tiled board as a person would -----------------------------------------------------
# Everything below reads only what is printed: dashed join lines, registration targets (a circle
# with a cross through its centre), the strip labels beside each join line ("cut ..." / "trim ..."
# on the strip that is cut off, "glue ..." on the tab), the piece outline and the piece name
# ("B2 of 2x3"). A piece is cut along each join line whose label says cut, and laid with that cut
# edge on the neighbour's join line, targets on targets.

LONG = 100.0      # mm: a piece's outline edges are at least this long; board artwork lines are shorter
CUT_WORDS = re.compile(r"cut|trim", re.I)
GLUE_WORDS = re.compile(r"glue", re.I)
PIECE_NAME = re.compile(r"\b([A-Z])(\d+) of (\d+)\s*[\u00d7x]\s*(\d+)")


@dataclass
class Join:
    """A join line on a piece: ``vertical`` (x = ``at``) or horizontal (y = ``at``), page mm;
    ``side`` is -1 or +1: the side of the line its strip label is on (the strip that is cut off or
    covered, towards the neighbour); ``cut`` is True when this piece is the one cut along it."""
    vertical: bool
    at: float
    lo: float
    hi: float
    side: int = 0
    cut: bool = False
    targets: list = field(default_factory=list)  # target centres (x, y) on this line or past it


@dataclass
class Piece:
    """One printed piece: its name (col, row) of (cols, rows), the box its outline and join lines
    span, its join lines, its targets, and the board's cells read from the page."""
    page: int
    col: int
    row: int
    cols: int
    rows: int
    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    joins: list[Join]
    targets: list[tuple[float, float]]
    cells: list[tuple[float, float]]

    def visible(self) -> tuple[float, float, float, float]:
        """The part that shows once the board is assembled: the box less every strip beyond a join
        line (cut off on a cut piece, covered by the neighbour on a glue tab)."""
        x0, y0, x1, y1 = self.box
        for j in self.joins:
            if j.vertical:
                x0, x1 = (x0, min(x1, j.at)) if j.side > 0 else (max(x0, j.at), x1)
            else:
                y0, y1 = (y0, min(y1, j.at)) if j.side > 0 else (max(y0, j.at), y1)
        return (x0, y0, x1, y1)


def _straight(page):
    """Axis-aligned straight strokes on a page as (x0, y0, x1, y1, dashed) in mm, including the
    edges of stroked rectangles."""
    out = []
    for l in page.lines:
        dash = l.get("dash")
        dashed = bool(dash and dash[0])
        out.append((l["x0"] * PT, l["top"] * PT, l["x1"] * PT, l["bottom"] * PT, dashed))
    for r in page.rects:
        if r.get("stroke") and not r.get("fill"):
            x0, y0, x1, y1 = r["x0"] * PT, r["top"] * PT, r["x1"] * PT, r["bottom"] * PT
            out += [(x0, y0, x1, y0, False), (x0, y1, x1, y1, False), (x0, y0, x0, y1, False), (x1, y0, x1, y1, False)]
    return [s for s in out if abs(s[0] - s[2]) < 0.01 or abs(s[1] - s[3]) < 0.01]


def targets_on(page):
    """Registration targets: stroked, unfilled circles with a horizontal and a vertical line through
    their centre, each longer than the circle is wide. Returns [(x, y, size)] in mm."""
    lines = _straight(page)
    out = []
    for cx, cy, d, _, filled in circles(page):
        if filled:
            continue
        across = [s for s in lines if not s[4] and abs(s[1] - cy) < 0.05 and abs(s[3] - cy) < 0.05
                  and s[0] < cx - d / 2 and s[2] > cx + d / 2]
        down = [s for s in lines if not s[4] and abs(s[0] - cx) < 0.05 and abs(s[2] - cx) < 0.05
                and s[1] < cy - d / 2 and s[3] > cy + d / 2]
        if across and down:
            out.append((cx, cy, max(across[0][2] - across[0][0], down[0][3] - down[0][1])))
    return out


def read_piece(page, index: int, cell_finder) -> Piece | None:
    """Read one page as a board piece (None when it holds none): the printed name, outline box,
    join lines with their labels and targets, and the cells ``cell_finder(page)`` finds inside."""
    name = PIECE_NAME.search(page.extract_text() or "")
    if not name:
        return None
    col, row = ord(name.group(1)) - ord("A"), int(name.group(2)) - 1
    lines = _straight(page)
    edges = [s for s in lines if max(abs(s[2] - s[0]), abs(s[3] - s[1])) >= LONG]
    dashed = [s for s in lines if s[4] and max(abs(s[2] - s[0]), abs(s[3] - s[1])) >= 20]
    pts = [(s[0], s[1]) for s in edges + dashed] + [(s[2], s[3]) for s in edges + dashed]
    box = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
    joins: dict[tuple, Join] = {}
    for x0, y0, x1, y1, _ in dashed:
        vertical = abs(x0 - x1) < 0.01
        key = (vertical, round(x0 if vertical else y0, 1))
        lo, hi = (y0, y1) if vertical else (x0, x1)
        if key in joins:
            joins[key].lo, joins[key].hi = min(joins[key].lo, lo), max(joins[key].hi, hi)
        else:
            joins[key] = Join(vertical, x0 if vertical else y0, lo, hi)
    words = [(w["text"], (w["x0"] + w["x1"]) / 2 * PT, (w["top"] + w["bottom"]) / 2 * PT) for w in page.extract_words()]
    inside = [(t, x, y) for t, x, y in words if box[0] <= x <= box[2] and box[1] <= y <= box[3]]
    for j in joins.values():
        near = []
        for text, x, y in inside:
            u, v = (x, y) if j.vertical else (y, x)
            if j.lo <= v <= j.hi and abs(u - j.at) < 12 and (CUT_WORDS.search(text) or GLUE_WORDS.search(text)):
                near.append((abs(u - j.at), u, text))
        if near:
            _, u, text = min(near)
            j.side = 1 if u > j.at else -1
            j.cut = bool(CUT_WORDS.search(text))
    targets = [(x, y) for x, y, _ in targets_on(page) if box[0] <= x <= box[2] and box[1] <= y <= box[3]]
    piece = Piece(index, col, row, int(name.group(3)), int(name.group(4)), box, list(joins.values()), targets, [])
    vx0, vy0, vx1, vy1 = piece.visible()
    piece.cells = [(x, y) for x, y in cell_finder(page) if vx0 - 0.01 <= x <= vx1 + 0.01 and vy0 - 0.01 <= y <= vy1 + 0.01]
    return piece


@dataclass
class Assembly:
    """Where each piece went (page mm + offset = board mm, A1's top-left corner at 0, 0), the cells
    of every piece in board mm, and what went wrong on the way."""
    offsets: dict[tuple[int, int], tuple[float, float]]
    cells: list[tuple[float, float, tuple[int, int]]]
    problems: list[str]


def _on_line(j: Join, pts, tol: float = 0.3):
    """The targets centred on join line ``j`` (within ``tol`` mm), as (across, along): on a cut
    piece these are the halves left on the cut edge."""
    out = []
    for x, y in pts:
        u, v = (x, y) if j.vertical else (y, x)
        if j.lo - 1 <= v <= j.hi + 1 and abs(u - j.at) <= tol:
            out.append((u, v))
    return out


def assemble(pieces: list[Piece]) -> Assembly:
    """Lay the pieces as the printed instruction says: start from A1; every piece cut along a join
    line goes onto the neighbour on that line's label side, its cut edge on the neighbour's join
    line and its surviving targets on the neighbour's targets. A piece joined to two placed
    neighbours must land at the same place from both."""
    by_pos = {(p.col, p.row): p for p in pieces}
    problems: list[str] = []
    first = by_pos.get((0, 0))
    if first is None:
        return Assembly({}, [], ["no piece A1"])
    offsets = {(0, 0): (-first.box[0], -first.box[1])}
    proposals: dict[tuple[int, int], list[tuple[float, float]]] = {}
    done: set[tuple[int, int, int]] = set()
    progress = True
    while progress:
        progress = False
        for p in pieces:
            for n, j in enumerate(p.joins):
                step = (j.side, 0) if j.vertical else (0, j.side)
                gpos = (p.col + step[0], p.row + step[1])
                if not j.cut or j.side == 0 or (p.col, p.row, n) in done or gpos not in offsets:
                    continue
                done.add((p.col, p.row, n))
                progress = True
                g = by_pos[gpos]
                gj = [k for k in g.joins if k.vertical == j.vertical and not k.cut and k.side == -j.side]
                if not gj:
                    problems.append(f"{_name(p)}: its neighbour {_name(g)} has no join line to lay it on")
                    continue
                gj = gj[0]
                gx, gy = offsets[gpos]
                # across the line: the cut edge (this piece's line) on the neighbour's line
                shift_u = gj.at + (gx if j.vertical else gy) - j.at
                # along the line: the target halves left on the cut edge on the neighbour's targets
                mine = sorted(v for _, v in _on_line(j, p.targets))
                theirs = sorted(v + (gy if j.vertical else gx) for _, v in _on_line(gj, g.targets))
                if not mine or len(mine) != len(theirs):
                    problems.append(f"{_name(p)}: {len(mine)} target(s) survive the cut, {_name(g)} shows "
                                    f"{len(theirs)} on its join line")
                    g_lo = g.box[1] + gy if j.vertical else g.box[0] + gx
                    shift_v = g_lo - (p.box[1] if j.vertical else p.box[0])  # fall back on the outline
                else:
                    diffs = [t - m for m, t in zip(mine, theirs)]
                    shift_v = sum(diffs) / len(diffs)
                    if max(diffs) - min(diffs) > 0.2:
                        problems.append(f"{_name(p)}: its targets do not all meet {_name(g)}'s")
                proposal = (shift_u, shift_v) if j.vertical else (shift_v, shift_u)
                proposals.setdefault((p.col, p.row), []).append(proposal)
                offsets.setdefault((p.col, p.row), proposal)
    for pos, props in proposals.items():
        for a in props[1:]:
            if dist(a, props[0]) > 0.2:
                problems.append(f"{_name(by_pos[pos])} lands {dist(a, props[0]):.2f} mm apart from its two neighbours")
    for p in pieces:
        if (p.col, p.row) not in offsets:
            problems.append(f"{_name(p)} could not be placed")
    cells = [(x + offsets[(p.col, p.row)][0], y + offsets[(p.col, p.row)][1], (p.col, p.row))
             for p in pieces if (p.col, p.row) in offsets for x, y in p.cells]
    return Assembly(offsets, cells, problems)


def _name(p: Piece) -> str:
    return f"{chr(ord('A') + p.col)}{p.row + 1}"
