"""The bleed of a die's net and a standee (specs/shapes), read from rendered pixels: cut 1.5 mm
outside the printed cut line, as an unsteady hand might, and with --bleed 3 the knife runs through
the faces', stands' and tabs' colours, never white paper; 1.5 mm either side of a fold the colour is
the one printed without bleed (no face reaches over a fold onto its neighbour). The cut and score
lines come from the cutter SVG, the pixels from the PDF rendered by PDFium."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from typer.testing import CliRunner

from pnp.cli import app

SPEC = Path(__file__).resolve().parents[2] / "specs" / "shapes"
SVG = "{http://www.w3.org/2000/svg}"
DPI = 150
OFF = 1.5       # mm: how far off the line the knife or the fold runs
LONG = 10.0     # mm: edges and folds at least this long are sampled
NETS = (28, 12, 8)  # vertices of a d6 net, a standee strip, a standee's base fin


def _signed_area(pts) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1])) / 2


def _contains(pts, p) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _build(out: Path, bleed: int) -> Path:
    r = CliRunner().invoke(app, ["build", str(SPEC), "--out", str(out), "-f", "pdf,cut-svg", "--bleed", str(bleed)])
    assert r.exit_code == 0, r.output
    return out / "shapes"


def _net_page(kit: Path):
    """The first page holding nets: ([(outline, its folds)], a colour lookup at (x, y) mm on the page)."""
    for svg in sorted((kit / "cut").glob("*-cut.svg")):
        layers = {g.get("id"): g for g in ET.parse(svg).getroot().iter(SVG + "g")}
        polys = [[tuple(map(float, p.split(","))) for p in el.get("points").split()]
                 for el in layers["layer-cut"] if el.tag == SVG + "polygon"]
        polys = [p for p in polys if len(p) in NETS]
        if not polys:
            continue
        folds = [tuple(float(el.get(k)) for k in ("x1", "y1", "x2", "y2"))
                 for el in layers.get("layer-score", ()) if el.tag == SVG + "line"]
        nets = [(p, [f for f in folds if _contains(p, ((f[0] + f[2]) / 2, (f[1] + f[3]) / 2))]) for p in polys]
        number = int(svg.stem.split("-p")[-1].removesuffix("-cut"))
        doc = pypdfium2.PdfDocument(str(next(kit.glob("*.pdf"))))
        img = np.asarray(doc[number - 1].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
        return nets, lambda x, y: img[int(round(y * DPI / 25.4)), int(round(x * DPI / 25.4))]
    raise AssertionError("no page holds a die's net or a standee")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict:
    """Per bleed (0 and 3 mm): the page of nets."""
    return {b: _net_page(_build(tmp_path_factory.mktemp(f"bleed{b}"), b)) for b in (0, 3)}


@pytest.mark.parametrize("bleed", [0, 3])
def test_an_off_cut_of_a_net_shows_no_white_with_bleed(pages, bleed):
    nets, colour = pages[bleed]
    kinds = {len(p) for p, _ in nets}
    assert kinds == set(NETS)  # dice, strips and fins are all on the page
    sampled = white = 0
    for pts, _ in nets:
        sign = 1 if _signed_area(pts) > 0 else -1
        for a, b in zip(pts, pts[1:] + pts[:1]):
            length = math.dist(a, b)
            if length < LONG:
                continue
            nx, ny = sign * (b[1] - a[1]) / length, -sign * (b[0] - a[0]) / length  # outward
            c = colour((a[0] + b[0]) / 2 + OFF * nx, (a[1] + b[1]) / 2 + OFF * ny)
            sampled += 1
            white += int(c.min() >= 250)
    assert sampled >= 2 * 6 + 2 * 4 + 2 * 3  # every die's faces 1, 3, 4; every strip's and fin's long sides
    if bleed:
        assert white == 0, f"{white} of {sampled} cut edges show white paper {OFF} mm outside the cut"
    else:
        assert white > sampled // 2  # without bleed the paper past most cuts is white (the control)


def _beside_folds(nets):
    """Per net in reading order: the points OFF mm either side of each long fold's middle, in mm
    from the net's top-left corner."""
    out = []
    for pts, folds in sorted(nets, key=lambda n: (len(n[0]), round(min(y for _, y in n[0])), min(x for x, _ in n[0]))):
        x0, y0 = min(x for x, _ in pts), min(y for _, y in pts)
        points = []
        for x1, y1, x2, y2 in folds:
            length = math.hypot(x2 - x1, y2 - y1)
            if length < LONG:
                continue
            nx, ny = (y2 - y1) / length, -(x2 - x1) / length
            mx, my = (x1 + x2) / 2 - x0, (y1 + y2) / 2 - y0
            points += [(mx + OFF * nx, my + OFF * ny), (mx - OFF * nx, my - OFF * ny)]
        out.append((x0, y0, points))
    return out


def test_no_bleed_reaches_over_a_fold(pages):
    (nets, colour), (plain, colour0) = pages[3], pages[0]
    here, there = _beside_folds(nets), _beside_folds(plain)
    assert len(here) == len(there) and sum(len(p) for *_, p in here) >= 2 * (2 * 12 + 2)
    for (x0, y0, points), (u0, v0, _) in zip(here, there):
        for x, y in points:
            a, b = colour(x0 + x, y0 + y), colour0(u0 + x, v0 + y)
            assert np.abs(a - b).max() <= 8, f"{a} beside a fold with bleed, {b} without, at ({x:.1f}, {y:.1f}) mm"


def _distance_to_outline(pts, p) -> float:
    best = math.inf
    for a, b in zip(pts, pts[1:] + pts[:1]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy or 1.0)))
        best = min(best, math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy))
    return best


def _white_around(pts, colour) -> tuple[int, int]:
    """(points sampled, points white): every point of a 0.25 mm grid within OFF mm outside the outline
    ``pts``, short edges and notches included, less the printed cut line's own pixels (0.3 mm)."""
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    sampled = white = 0
    for i in range(int((max(xs) - min(xs) + 2 * OFF) / 0.25) + 1):
        for j in range(int((max(ys) - min(ys) + 2 * OFF) / 0.25) + 1):
            p = (min(xs) - OFF + 0.25 * i, min(ys) - OFF + 0.25 * j)
            if _contains(pts, p) or not 0.3 <= _distance_to_outline(pts, p) <= OFF:
                continue
            sampled += 1
            white += int(colour(*p).min() >= 250)
    return sampled, white


@pytest.mark.parametrize("bleed", [0, 3])
def test_a_cut_off_anywhere_around_a_strip_or_fin_shows_no_white_with_bleed(pages, bleed):
    """Every point of paper within OFF mm outside a standee strip's or base fin's cut line, short edges
    and slots included (a knife off at a slot's mouth cuts through the bleed band across it), is
    printed colour with --bleed 3."""
    nets, colour = pages[bleed]
    counts = [_white_around(pts, colour) for pts, _ in nets if len(pts) != NETS[0]]  # dice: the long edges above
    sampled, white = sum(c[0] for c in counts), sum(c[1] for c in counts)
    assert sampled > 1000
    if bleed:
        assert white == 0, f"{white} of {sampled} points within {OFF} mm outside a strip or fin show white paper"
    else:
        assert white > sampled // 2  # the control: without bleed the paper round a part is white


def test_a_cut_off_anywhere_around_the_tuck_box_shows_no_white_with_bleed(tmp_path):
    """The playing cards' tuck box net with --bleed 3 (specs/playing-cards): every point within OFF mm
    outside its cut outline, round the dust flaps' slants and the tuck flap too, is printed colour."""
    r = CliRunner().invoke(app, ["build", str(SPEC.parent / "playing-cards"), "--out", str(tmp_path), "-f",
                                 "pdf,cut-svg", "--bleed", "3"])
    assert r.exit_code == 0, r.output
    kit = tmp_path / "playing-cards"
    found = []
    for svg in sorted((kit / "cut").glob("*-cut.svg")):
        layers = {g.get("id"): g for g in ET.parse(svg).getroot().iter(SVG + "g")}
        polys = [[tuple(map(float, p.split(","))) for p in el.get("points").split()]
                 for el in layers.get("layer-cut", ()) if el.tag == SVG + "polygon"]
        if polys:
            found.append((int(svg.stem.split("-p")[-1].removesuffix("-cut")), polys))
    assert len(found) == 1 and len(found[0][1]) == 1  # one page, one net
    number, (net,) = found[0]
    doc = pypdfium2.PdfDocument(str(next(kit.glob("*.pdf"))))
    img = np.asarray(doc[number - 1].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)
    sampled, white = _white_around(net, lambda x, y: img[int(round(y * DPI / 25.4)), int(round(x * DPI / 25.4))])
    assert sampled > 1000
    assert white == 0, f"{white} of {sampled} points within {OFF} mm outside the tuck box's cut show white paper"
