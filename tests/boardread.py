"""Read boards back from a built PDF: hexagons, circles and words in mm, mapped to board coordinates
through each poster piece's tile offsets (Page.tile from imposing the same components)."""
from __future__ import annotations

import math

from conftest import PT, open_pdf, pdf_of
from pnp.kit import load_target
from pnp.games import KitContext
from pnp.layout.impose import ImposeOptions, impose
from pnp.layout.sheets import load_sheet


def page_tiles(game: str, paper: str, component: str):
    """[(page index 0-based, TileInfo or None, placement)] of every page of ``component``, from
    imposing the built-in spec exactly as the kit does."""
    loaded = load_target(game)
    comps = loaded.game.components(loaded.spec, KitContext(loaded.path))
    _, _, pages = impose(loaded.spec.title or loaded.game.title, comps, load_sheet(paper), ImposeOptions())
    return [(i, p.tile, p.placements[0]) for i, p in enumerate(pages) if p.label == component]


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
                _, px, py, w, h, _ = placement
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
