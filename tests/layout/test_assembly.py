"""Assemble every tiled board the way a person would, from the printed pages alone: cut each piece
along the join line its label says to cut, lay the cut edge on the neighbour's join line with the
targets meeting, and check that every cell or node lands within 0.2 mm of its true board position.

Join lines, targets, labels, outlines and piece names are read from the PDF (tests/boardread.py);
the true positions come from the board's own drawing (the game's IR, in board mm)."""
from collections import Counter

import pytest

from boardread import assemble, circles, dist, polygons, read_piece, targets_on
from conftest import PT, open_pdf, pdf_of
from pnp.core.ir import Circle, Group, Polygon, Rect
from pnp.pipeline.plan import context as plan_context, load_target

TOLERANCE = 0.2  # mm
BOARDS = [("netmatch", "board"), ("nooks", "board"), ("nooks", "square board")]
CASES = [(game, board, paper) for game, board in BOARDS for paper in ("a4", "letter")]


def _flatten(shapes, dx=0.0, dy=0.0):
    """Filled cells of a drawing in board mm: ("hex", size, x, y), ("rect", size, x, y) or
    ("circle", size, x, y). Groups here only translate (the games' fit() shift)."""
    for s in shapes:
        if isinstance(s, Group):
            assert (s.rotate, s.sx, s.sy) == (0, 1, 1)
            yield from _flatten(s.children, dx + s.dx, dy + s.dy)
        elif isinstance(s, Polygon) and s.fill and len(s.points) == 6:
            xs, ys = [p[0] for p in s.points], [p[1] for p in s.points]
            yield "hex", round(max(xs) - min(xs), 1), sum(xs) / 6 + dx, sum(ys) / 6 + dy
        elif isinstance(s, Rect) and s.fill and abs(s.w - s.h) < 1e-6:
            yield "rect", round(s.w, 1), s.x + s.w / 2 + dx, s.y + s.h / 2 + dy
        elif isinstance(s, Circle) and s.fill:
            yield "circle", round(2 * s.r, 1), s.cx + dx, s.cy + dy


def truth(game: str, board: str):
    """(kind, size, centres): the board's playing field, its most common filled shape."""
    loaded = load_target(game)
    comp = next(c for c in loaded.game.components(loaded.spec, plan_context(loaded)) if c.name == board)
    found = list(_flatten(comp.fronts[0]))
    (kind, size), _ = Counter((k, s) for k, s, _, _ in found).most_common(1)[0]
    return kind, size, [(x, y) for k, s, x, y in found if (k, s) == (kind, size)]


def finder(kind: str, size: float):
    """Read that kind of cell from a pdfplumber page: centres in page mm."""
    def find(page):
        if kind == "hex":
            return [(x, y) for x, y, pts in polygons(page, 6)
                    if abs(max(p[0] for p in pts) - min(p[0] for p in pts) - size) < 0.15]
        if kind == "rect":
            return [((r["x0"] + r["x1"]) / 2 * PT, (r["top"] + r["bottom"]) / 2 * PT) for r in page.rects
                    if r.get("fill") and abs((r["x1"] - r["x0"]) * PT - size) < 0.1
                    and abs((r["bottom"] - r["top"]) * PT - size) < 0.1]
        return [(x, y) for x, y, d, _, filled in circles(page) if filled and abs(d - size) < 0.1]
    return find


def assemble_kit(result, board: str):
    """Read the board's pieces from the kit's PDF and assemble them: (assembly, truth centres)."""
    kind, size, centres = truth(result.game, board)
    pages = next(c["pages"] for c in result.manifest["components"] if c["name"] == board)
    with open_pdf(pdf_of(result)) as pdf:
        pieces = [read_piece(pdf.pages[n - 1], n, finder(kind, size)) for n in pages]
    pieces = [p for p in pieces if p is not None]
    return pieces, assemble(pieces), centres


def errors(assembly, centres):
    """(worst distance of a placed cell from its true position, true cells that no piece shows)."""
    worst = max(min(dist((x, y), c) for c in centres) for x, y, _ in assembly.cells)
    missing = [c for c in centres if min(dist(c, (x, y)) for x, y, _ in assembly.cells) > TOLERANCE]
    return worst, missing


@pytest.mark.parametrize("game,board,paper", CASES)
def test_board_assembles_as_printed(built, game, board, paper):
    pieces, assembly, centres = assemble_kit(built(game, paper), board)
    assert len(pieces) > 1, f"{board} is not tiled on {paper}"
    for p in pieces:  # every join line is labelled, towards the neighbour
        assert p.joins and all(j.side for j in p.joins)
    worst, missing = errors(assembly, centres)
    assert worst <= TOLERANCE and not missing and not assembly.problems, (
        f"worst cell {worst:.2f} mm off, {len(missing)} of {len(centres)} cells shown by no piece; {assembly.problems}")


def _marks(page, box, targets):
    """Playing marks drawn on a piece page, inside its box: words set larger than the strip labels
    (cell labels, letters, captions) and circles 1.5-16 mm across (nodes, setup markers, dots), as
    (x0, y0, x1, y1) mm; and the strip labels' words (the small words in the strips)."""
    x0, y0, x1, y1 = box
    words, labels = [], []
    for w in page.extract_words(extra_attrs=["size"]):
        b = (w["x0"] * PT, w["top"] * PT, w["x1"] * PT, w["bottom"] * PT)
        if x0 <= (b[0] + b[2]) / 2 <= x1 and y0 <= (b[1] + b[3]) / 2 <= y1:
            (labels if w["size"] <= 6.0 else words).append(b)
    rings = [(cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2) for cx, cy, d, _, _ in circles(page)
             if 1.5 <= d <= 16 and not any(dist((cx, cy), t) < 0.05 for t in targets)
             and x0 < cx + d / 2 and cx - d / 2 < x1 and y0 < cy + d / 2 and cy - d / 2 < y1]
    return words + rings, labels


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("game,board,paper", CASES)
def test_targets_and_labels_clear_of_playing_marks(built, game, board, paper):
    """No registration target and no strip label is printed on a node, setup marker or cell label."""
    result = built(game, paper)
    kind, size, _ = truth(game, board)
    pages = next(c["pages"] for c in result.manifest["components"] if c["name"] == board)
    with open_pdf(pdf_of(result)) as pdf:
        for n in pages:
            page = pdf.pages[n - 1]
            piece = read_piece(page, n, finder(kind, size))
            if piece is None:
                continue
            found = targets_on(page)
            marks, labels = _marks(page, piece.box, [(x, y) for x, y, _ in found])
            assert found and labels
            for x, y, d in found:
                box = (x - d / 2, y - d / 2, x + d / 2, y + d / 2)
                assert not any(_overlap(box, m) for m in marks), f"page {n}: target at {x:.1f}, {y:.1f} on a mark"
            for b in labels:
                assert not any(_overlap(b, m) for m in marks), f"page {n}: strip label at {b[0]:.1f}, {b[1]:.1f} on a mark"
