"""Every kit cut 1.5 mm astray with --bleed 3, read back from the files: each part's cut outline from
the cutter SVG (rects, rounded rects, circles, polygons: cards, tiles, the tuck box's net, hexes,
buoys, dice, standees and their bases), the colours from the PDF rendered by PDFium. At points along
every cut edge, 1.5 mm outside the outline (where a knife that strays that far cuts) the colour is
the edge's own, the one 0.5 mm inside it: never white paper, the box's cream or a grey cut line
where the art is another colour (boards, on plain paper, get no bleed). A point counts where the art is one colour around it (a line or a
letter meeting the edge is not the edge's colour; a line of the art running on through the bleed is
not a cut astray's colour either), outside the part itself (a notch) and away from a corner, whose
bleed two edges share."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pypdfium2
import pytest

from pnp.inputs.resources import shipped_specs
from pnp.layout.options import ImposeOptions
from pnp.pipeline.execute import build_kit
from test_shaped_bleed import _contains, _distance_to_outline

SVG = "{http://www.w3.org/2000/svg}"
DPI = 200
OFF = 1.5       # mm astray, outward
BLEED = 3.0     # mm: the kits are built with --bleed 3
IN = 0.5        # mm inside: the edge's own colour
STEADY = 1.0    # mm deeper, and along either way by half of it: the same colour there, or the point is skipped
DIFF = 40       # 0..255
STEP = 2.0      # mm between points along an edge
END = 1.5       # mm left out at each end of an edge (corners, arcs)


def _outlines(svg: Path) -> list[list[tuple[float, float]]]:
    """Each cut outline of a cutter SVG page as a closed polygon, mm (circles and rounded corners as
    many sides)."""
    cut = next(g for g in ET.parse(svg).getroot().iter(SVG + "g") if g.get("id") == "layer-cut")
    out = []
    for el in cut:
        if el.tag == SVG + "polygon":
            out.append([tuple(map(float, p.split(","))) for p in el.get("points").split()])
        elif el.tag == SVG + "circle":
            cx, cy, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
            out.append([(cx + r * math.cos(2 * math.pi * k / 36), cy + r * math.sin(2 * math.pi * k / 36))
                        for k in range(36)])
        elif el.tag == SVG + "rect":
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            r = float(el.get("rx") or 0)
            pts = []
            for cx, cy, a0 in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90),
                               (x + r, y + r, 180)):
                pts += [(cx + r * math.cos(math.radians(a0 + 10 * k)), cy + r * math.sin(math.radians(a0 + 10 * k)))
                        for k in range(10 if r else 1)]
            out.append(pts)
    return out


def _near_corner(pts, k: int, p, t) -> bool:
    """Whether ``p`` lies within the bleed (BLEED mm) of an edge other than edge ``k`` that turns from
    it by more than 40 degrees: a corner, whose bleed two edges share (a concave corner's twice over)."""
    for j, (a, b) in enumerate(zip(pts, pts[1:] + pts[:1])):
        length = math.dist(a, b)
        if j == k or length == 0:
            continue
        u = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
        if u[0] * t[0] + u[1] * t[1] > math.cos(math.radians(40)):
            continue
        if _distance_to_outline([a, b], p) < BLEED:
            return True
    return False


def _samples(pts):
    """(edge index, point on the cut, outward normal, direction along) every STEP mm of each edge
    long enough."""
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(pts, pts[1:] + pts[:1]))
    sign = 1 if area > 0 else -1
    for k, (a, b) in enumerate(zip(pts, pts[1:] + pts[:1])):
        length = math.dist(a, b)
        if length < 2 * END:
            if length > 0.5:  # a short side of a circle or an arc: its middle
                t = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
                yield k, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), (sign * t[1], -sign * t[0]), t
            continue
        t = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
        n = (sign * t[1], -sign * t[0])
        s = END
        while s <= length - END:
            yield k, (a[0] + s * t[0], a[1] + s * t[1]), n, t
            s += STEP


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict:
    out = {}
    for game in shipped_specs():
        r = build_kit(game, out=tmp_path_factory.mktemp(game), formats=("pdf", "cut-svg"), opts=ImposeOptions(bleed=BLEED))
        out[game] = r
    return out


@pytest.mark.parametrize("game", shipped_specs())
def test_a_cut_astray_finds_the_edges_colour(kits, game):
    result = kits[game]
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    svgs = sorted(p for p in result.files if p.suffix == ".svg" and p.stem.endswith("-cut"))
    boards = {p for c in result.manifest["components"] if c["paper"] == "plain" for p in c["pages"]}  # no bleed
    doc = pypdfium2.PdfDocument(str(pdf))
    sampled, wrong = 0, []
    try:
        for svg in svgs:
            number = int(svg.stem.split("-p")[-1].removesuffix("-cut"))
            if number in boards:
                continue
            img = np.asarray(doc[number - 1].render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)

            def colour(x, y):
                i, j = int(round(y * DPI / 25.4)), int(round(x * DPI / 25.4))
                return img[i, j] if 0 <= i < img.shape[0] and 0 <= j < img.shape[1] else None
            outlines = _outlines(svg)
            for k, pts in enumerate(outlines):
                for e, (x, y), (nx, ny), (tx, ty) in _samples(pts):
                    out = (x + OFF * nx, y + OFF * ny)
                    if _contains(pts, out) or _near_corner(pts, e, out, (tx, ty)) or \
                            any(_contains(q, out) for j, q in enumerate(outlines) if j != k):
                        continue
                    inside = colour(x - IN * nx, y - IN * ny)
                    around = [colour(x - STEADY * nx, y - STEADY * ny),
                              colour(x - IN * nx + STEADY / 2 * tx, y - IN * ny + STEADY / 2 * ty),
                              colour(x - IN * nx - STEADY / 2 * tx, y - IN * ny - STEADY / 2 * ty)]
                    got = colour(*out)
                    around += [colour(out[0] + d * nx, out[1] + d * ny) for d in (-STEADY / 2, STEADY / 2)]
                    around += [colour(out[0] + d * tx, out[1] + d * ty) for d in (-STEADY / 2, STEADY / 2)]
                    if inside is None or got is None or \
                            any(a is None or np.abs(a - (inside if i < 3 else got)).max() > DIFF
                                for i, a in enumerate(around)):
                        continue  # a line or a letter at the edge, or in the bleed (the art running on)
                    sampled += 1
                    if np.abs(got - inside).max() > DIFF:
                        wrong.append((number, round(out[0], 1), round(out[1], 1), tuple(got), tuple(inside)))
    finally:
        doc.close()
    parts = {p for c in result.manifest["components"] if c["paper"] != "plain" for p in c["pages"]}
    assert bool(sampled) == bool(parts), f"{sampled} cut edges sampled, parts on pages {sorted(parts)}"
    assert not wrong, (f"{len(wrong)} of {sampled} points {OFF} mm outside a cut show another colour than the edge "
                       f"(page, x, y, colour there, edge's colour): {wrong[:6]}")
