"""Fold-over sheets folded as the paper says, read back from the PDF: each side's art stays on its
side of the fold line, and a cut that strays towards the fold shows that side's own colour.

For every shipped kit with fold-over parts (the manifest's paper "fold"), on A4 and Letter, without
bleed and with --bleed 3: the fold line is the dashed line labelled "fold"; every fill and stroke
drawn inside a part's clip is read with its clip (PyMuPDF's drawings with their scissors), so what
shows of it is known in mm, and none may reach across the line. Then the sheet is folded: each
back's trim (from the cutter SVG) is reflected across the line onto its front's, and the page,
rendered by PDFium, is sampled OFF mm outside the fold-side trim of each front and each back, where a
knife that strays towards the fold cuts: the colour there is the one just inside that side's own
trim, never the other side's.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pymupdf
import pypdfium2
import pytest

from conftest import PT
from pnp.inputs.resources import shipped_specs
from pnp.layout.options import ImposeOptions
from pnp.pipeline.execute import build_kit
from test_fold import fold_lines, reflect

SVG = "{http://www.w3.org/2000/svg}"
DPI = 150
TOL = 0.02     # mm: a fill this close to the line is on it, not over it
INSIDE = 1.0   # mm inside a trim: the colour of that side's art at its edge
DIFF = 40      # 0..255: the most two samples of one colour differ by at a page's 150 dpi


def _visible(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every fill and stroke drawn inside a part's clip, as (kind, x0, y0, x1, y1 mm of what shows:
    its box, a stroke's grown by half its width, cut to its clip). Shapes outside any part's clip (crop
    marks, the fold line, the footer: in a Form's page-sized box, or none) are left out."""
    out, clips = [], {}
    page_box = page.rect
    for d in page.get_drawings(extended=True):
        level = d["level"]
        if d["type"] == "clip":
            clips = {k: v for k, v in clips.items() if k < level}
            clips[level] = d["scissor"]
            continue
        if d["type"] not in ("f", "s", "fs"):
            continue
        outer = [clips[k] for k in clips if k < level]
        if not outer:
            continue
        clip = outer[-1]
        if not clip in page_box:
            continue
        r = pymupdf.Rect(d["rect"])
        if "s" in d["type"]:
            r = r + (-(d.get("width") or 0) / 2, -(d.get("width") or 0) / 2,
                     (d.get("width") or 0) / 2, (d.get("width") or 0) / 2)
        shown = r & clip
        if shown.is_empty and not (shown.width or shown.height):
            continue
        out.append((d["type"], (shown.x0 * PT, shown.y0 * PT, shown.x1 * PT, shown.y1 * PT)))
    return out


def _trims(svg: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each part's cut outline on a cutter SVG page: (shape, its box x0, y0, x1, y1 mm)."""
    cut = next(g for g in ET.parse(svg).getroot().iter(SVG + "g") if g.get("id") == "layer-cut")
    out = []
    for el in cut:
        if el.tag == SVG + "rect":
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            out.append(("rect", (x, y, x + w, y + h)))
        elif el.tag == SVG + "circle":
            cx, cy, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
            out.append(("circle", (cx - r, cy - r, cx + r, cy + r)))
        else:
            raise AssertionError(f"{svg.name}: a fold-over part cut as {el.tag}: this test folds rects and circles")
    return out


def _fold_side_points(box, shape: str, axis: str, at: float, off: float) -> list[tuple[tuple, tuple]]:
    """Pairs (inside, outside) of points at the part's side facing the fold line: INSIDE mm within the
    trim and ``off`` mm outside it (towards the line), along the middle 80 % of the side (a rounded
    corner's curve left out), or at the one point a circle comes nearest the line."""
    x0, y0, x1, y1 = box
    k = 0 if axis == "x" else 1
    lo, hi = box[k], box[k + 2]
    edge, sign = (hi, 1) if hi <= at else (lo, -1)
    across = (y0, y1) if axis == "x" else (x0, x1)
    ts = [0.5] if shape == "circle" else [0.1 + 0.08 * i for i in range(11)]
    out = []
    for t in ts:
        v = across[0] + t * (across[1] - across[0])
        a, b = edge - sign * INSIDE, edge + sign * off
        out.append(((a, v), (b, v)) if axis == "x" else ((v, a), (v, b)))
    return out


def _build(tmp: Path, game: str, paper: str, bleed: float):
    r = build_kit(game, paper=paper, out=tmp, formats=("pdf", "cut-svg"),
                  opts=ImposeOptions(duplex="fold", bleed=bleed))
    pdf = next(p for p in r.files if p.suffix == ".pdf")
    return r, pdf, {int(p.stem.split("-p")[-1].removesuffix("-cut")): p for p in r.files if p.suffix == ".svg"}


@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", shipped_specs())
def test_each_side_of_a_fold_sheet_keeps_its_own_art(tmp_path, game, paper, bleed):
    result, pdf, svgs = _build(tmp_path, game, paper, bleed)
    folded = {p for c in result.manifest["components"] if c["paper"] == "fold" for p in c["pages"]}
    doc = pymupdf.open(pdf)
    pdfium = pypdfium2.PdfDocument(str(pdf))
    found = set()
    sampled = 0
    try:
        for number, page in enumerate(doc, start=1):
            lines = fold_lines(page)
            if not lines:
                continue
            found.add(number)
            (axis, at, _), = lines
            k = 0 if axis == "x" else 1
            # 1. nothing shown on one side of the line reaches over it
            shapes = _visible(page)
            assert shapes, f"page {number}: no art read back"
            for kind, box in shapes:
                lo, hi = box[k], box[k + 2]
                assert hi <= at + TOL or lo >= at - TOL, \
                    f"page {number}: a {kind!r} shown from {lo:.2f} to {hi:.2f} mm crosses the fold at {at:.2f} mm"
            # 2. fold the sheet: each back onto its front, then cut OFF mm astray towards the fold
            parts = _trims(svgs[number])
            fronts = [p for p in parts if p[1][k + 2] <= at]
            backs = [p for p in parts if p[1][k] >= at]
            assert fronts and len(fronts) == len(backs), f"page {number}: {len(fronts)} fronts, {len(backs)} backs"
            gap = min(at - f[1][k + 2] for f in fronts)
            assert gap > 0.5, f"page {number}: a front's trim {gap:.2f} mm from the fold line"
            off = gap / 2  # halfway between the trim and the line: a cut astray by 1 mm (1.5 mm with --bleed 3)
            img = np.asarray(pdfium[number - 1].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)

            def colour(p):
                return img[int(round(p[1] * DPI / 25.4)), int(round(p[0] * DPI / 25.4))]
            for shape, box in fronts:
                if at - box[k + 2] > gap + 0.01:
                    continue  # not next to the fold
                mate = min(backs, key=lambda b: max(abs(u - v) for u, v in zip(reflect(b[1], axis, at), box)))
                assert max(abs(u - v) for u, v in zip(reflect(mate[1], axis, at), box)) < 0.2, \
                    f"page {number}: no back folds onto the front at {box}"
                for side, part in (("front", box), ("back", mate[1])):
                    for inside, outside in _fold_side_points(part, shape, axis, at, off):
                        a, b = colour(inside), colour(outside)
                        sampled += 1
                        assert np.abs(a - b).max() <= DIFF, (
                            f"page {number}: a cut {off:.1f} mm astray towards the fold beside the {side} at "
                            f"({outside[0]:.1f}, {outside[1]:.1f}) mm shows {tuple(b)}, its edge is {tuple(a)}")
    finally:
        doc.close()
        pdfium.close()
    assert found == folded, f"fold lines on pages {sorted(found)}, fold-over parts on {sorted(folded)}"
    if folded:
        assert sampled, "no part next to the fold was sampled"
