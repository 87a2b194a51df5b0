"""Seam cuts: in the cutter SVG, the piece of a tiled board marked "cut" carries its join line as a
cut path, so a machine cuts the seam; the glue tab stays (is not cut off).

Read back: the join lines and their "cut" / "glue" labels from the PDF (pdfplumber, via
boardread.read_piece: dashed, labelled, targets centred on them), the cut layer of the same page's cutter SVG with an XML parser; positions
compared in mm to 0.1 mm.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boardread import _on_line, read_piece
from conftest import open_pdf, pdf_of

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.1  # mm


def cut_segments(svg: Path) -> list[tuple[float, float, float, float]]:
    """Straight cut strokes of the layer "cut" as (x0, y0, x1, y1) mm, rectangles as their 4 edges."""
    root = ET.parse(svg).getroot()
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "layer-cut")
    out = []
    for el in layer.iter():
        if el.tag == f"{SVG}rect":
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            out += [(x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h), (x + w, y, x + w, y + h)]
        elif el.tag == f"{SVG}line":
            out.append(tuple(float(el.get(k)) for k in ("x1", "y1", "x2", "y2")))
    return out


def _along(seg, vertical: bool):
    """(across, lo, hi) of an axis-aligned segment, or None when it does not run that way."""
    x0, y0, x1, y1 = seg
    if vertical and abs(x0 - x1) < 1e-6:
        return x0, min(y0, y1), max(y0, y1)
    if not vertical and abs(y0 - y1) < 1e-6:
        return y0, min(x0, x1), max(x0, x1)
    return None


@pytest.mark.parametrize("game,paper,board", [("netmatch", "a4", "board"), ("nooks", "a4", "board"),
                                              ("nooks", "letter", "board")])
def test_cut_piece_has_its_seam_in_the_cut_layer(built, game, paper, board):
    result = built(game, paper, formats=("pdf", "cut-svg"))
    stem = f"{game}-{paper}"
    cut_seams = glue_seams = 0
    with open_pdf(pdf_of(result)) as pdf:
        digits = max(2, len(str(len(pdf.pages))))
        for i, page in enumerate(pdf.pages):
            piece = read_piece(page, i, lambda p: [])
            if piece is None:
                continue
            svg = pdf_of(result).parent / "cut" / f"{stem}-p{i + 1:0{digits}d}-cut.svg"
            segs = cut_segments(svg)
            # join lines: labelled and carrying registration targets (a dashed line of the board art is neither)
            for j in (j for j in piece.joins if j.side and _on_line(j, piece.targets)):
                on = [a for a in (_along(s, j.vertical) for s in segs) if a and abs(a[0] - j.at) <= TOL]
                # a join line also runs over the strip cut off along a seam across it: the cut path
                # lies on the line and covers at least 90 % of it
                covered = any(lo >= j.lo - TOL and hi <= j.hi + TOL and hi - lo >= 0.9 * (j.hi - j.lo)
                              for _, lo, hi in on)
                if j.cut:
                    cut_seams += 1
                    assert covered, (f"page {i + 1}: join line at {j.at:.2f} mm ({j.lo:.1f}-{j.hi:.1f}) is not "
                                     f"a cut path in {svg.name}")
                else:
                    glue_seams += 1
                    assert not on, f"page {i + 1}: the glue tab would be cut off at {j.at:.2f} mm"
                    # the tab stays: the cut outline runs past the join line on the tab's side
                    beyond = [a for a in (_along(s, j.vertical) for s in segs)
                              if a and (a[0] - j.at) * j.side > 1.0 and min(a[2], j.hi) - max(a[1], j.lo) >= 0.9 * (j.hi - j.lo)]
                    assert beyond, f"page {i + 1}: no cut edge beyond the glue tab of the join at {j.at:.2f} mm"
    assert cut_seams >= 1 and cut_seams == glue_seams, (cut_seams, glue_seams)
