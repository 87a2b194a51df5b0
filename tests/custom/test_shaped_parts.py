"""Shaped parts of a data-driven game (specs/shapes): every cut path in the cutter SVG has its
shape's vertices, the d6 nets fold into cubes and the standees' backs onto their fronts (from the
geometry the PDF draws, read back with pdfplumber), hexes nest, and art follows the outline grown
by the bleed (rendered pixels)."""
from __future__ import annotations

import csv
import math
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2
import pytest
import yaml
from typer.testing import CliRunner

from pnp.cli import app

runner = CliRunner()
SPEC = Path(__file__).resolve().parents[2] / "specs" / "shapes"
SVG = "{http://www.w3.org/2000/svg}"
MM = 25.4 / 72
HEX = (30, 34.64)  # a pointy-top hex 30 mm across the flats
GUIDE_GREY = 0x9a / 255  # the printed cut guide's grey (pnp.layout.impose.CUT_GUIDE)


def _components() -> dict:
    spec = yaml.safe_load((SPEC / "shapes.yaml").read_text(encoding="utf-8"))
    return {c["name"]: c for c in spec["components"]}


def _mm(v) -> float:
    return float(str(v).removesuffix("mm"))


def _build(out: Path, *args: str) -> Path:
    r = runner.invoke(app, ["build", str(SPEC), "--out", str(out), "-f", "pdf,cut-svg", *args])
    assert r.exit_code == 0, r.output
    return out / "shapes"


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("shapes"))


def _cut_paths(kit: Path) -> list[tuple[str, list[tuple[float, float]]]]:
    """Every cut path of every cutter SVG page: ("polygon", its points) or ("circle", [centre])."""
    out = []
    for f in sorted((kit / "cut").glob("*-cut.svg")):
        root = ET.parse(f).getroot()
        for g in root.iter(SVG + "g"):
            if g.get("id") != "layer-cut":
                continue
            for el in g:
                if el.tag == SVG + "polygon":
                    out.append(("polygon", [tuple(map(float, p.split(","))) for p in el.get("points").split()]))
                elif el.tag == SVG + "circle":
                    out.append(("circle", [(float(el.get("cx")), float(el.get("cy")))]))
                else:
                    out.append((el.tag, []))
    return out


def _size(points) -> tuple[float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2))


def test_every_shaped_cut_path_has_its_vertices(kit):
    comps = _components()
    hexes = sum(int(r["copies"]) for r in csv.DictReader((SPEC / "tiles.csv").open(encoding="utf-8")))
    dice = len(list(csv.DictReader((SPEC / "dice.csv").open(encoding="utf-8"))))
    sailors = len(list(csv.DictReader((SPEC / "sailors.csv").open(encoding="utf-8"))))
    w, h = map(_mm, comps["sea tile"]["size"])
    edge = _mm(comps["die"]["size"])
    fw, fh = map(_mm, comps["sailor"]["size"])
    paths = _cut_paths(kit)
    by_size: dict = {}
    for kind, pts in paths:
        if kind == "polygon":
            by_size.setdefault(_size(pts), []).append(len(pts))
    # a hexagon: 6 corners, in its w x h box
    assert by_size.pop((w, h)) == [6] * hexes
    # the buoy: the points the spec lists
    bw, bh = map(_mm, comps["buoy"]["size"])
    assert by_size.pop((bw, bh)) == [len(comps["buoy"]["points"])] * comps["buoy"]["copies"]
    # a die's cross: 6 faces x 4 sides - 2 x 5 sides shared = 14 outer sides; the cube has 12 edges, 5 folded
    # in the cross, so 7 seams are glued, each on one tab whose two outer corners add 2 vertices to its side
    die = [n for (sw, sh), ns in by_size.items() if sh == 3 * edge and 4 * edge < sw < 5 * edge for n in ns]
    assert die == [14 + 2 * 7] * dice
    # a standee strip: 4 corners and a slot of 4 corners at each end; its base fin: 4 corners and one slot
    strips = [n for (sw, sh), ns in by_size.items() if sw == fw and sh > 2 * fh for n in ns]
    bases = [n for (sw, sh), ns in by_size.items() if sw == fw and sh < fh / 2 for n in ns]
    assert strips == [4 + 2 * 4] * sailors
    assert bases == [4 + 4] * sailors
    assert sum(kind == "circle" for kind, _ in paths) == comps["coin"]["copies"]


def _pdf_shapes(pdf_path: Path):
    """Per page: the cut guides (grey stroked closed paths, mm), dashed lines (mm) and filled rects."""
    pages = []
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            guides = [[(x * MM, y * MM) for x, y in c["pts"][:-1]] for c in page.curves
                      if c["stroke"] and isinstance(c["stroking_color"], tuple) and len(c["stroking_color"]) == 3
                      and all(abs(v - GUIDE_GREY) < 0.01 for v in c["stroking_color"])]
            dashed = [tuple(v * MM for xy in line["pts"] for v in xy) for line in page.lines if line.get("dash")]
            rects = [r for r in page.rects if r["fill"]]
            words = page.extract_words()
            chars = page.chars
            pages.append((guides, dashed, rects, words, chars))
    return pages


def _inside(poly, p) -> bool:
    n, inside = len(poly), False
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if (a[1] > p[1]) != (b[1] > p[1]) and a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) > p[0]:
            inside = not inside
    return inside


def _near(a, b, tol=0.05) -> bool:
    return abs(a[0] - b[0]) < tol and abs(a[1] - b[1]) < tol


def _same_segment(s, t, tol=0.05) -> bool:
    a, b, c, d = (s[0], s[1]), (s[2], s[3]), (t[0], t[1]), (t[2], t[3])
    return (_near(a, c, tol) and _near(b, d, tol)) or (_near(a, d, tol) and _near(b, c, tol))


# rolling a cube over the plane, one cell in direction (dx, dy): the world rotation that tips it over
# the edge on that side (its top turns towards the roll); a cube's orientation is kept as the matrix
# taking world directions to the cube's frame, so the face on the plane has the normal M (0, 0, -1)
ROLL = {(1, 0): np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]), (-1, 0): np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]]),
        (0, 1): np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]), (0, -1): np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])}


def _fold_cube(cells: set, folded: set):
    """Roll a cube over the net's cells along the folded sides: per cell, the cube face it becomes
    (an outward normal in the cube's frame) and the map from a side of a cell to a cube edge."""
    start = min(cells)
    orient = {start: np.eye(3, dtype=int)}
    todo = [start]
    while todo:
        c = todo.pop()
        for d, rot in ROLL.items():
            n = (c[0] + d[0], c[1] + d[1])
            side = frozenset((c, n))
            if n in cells and side in folded and n not in orient:
                orient[n] = orient[c] @ rot.T  # world to cube frame: the cube turned by rot
                todo.append(n)

    def edge(cell, d):  # the cube edge under the side of ``cell`` towards d: the midpoint, cube frame
        local = np.array([d[0] * 0.5, d[1] * 0.5, -0.5])
        return tuple(np.round(orient[cell] @ local, 6))

    normals = {c: tuple(np.round(orient[c] @ np.array([0, 0, -1]), 6)) for c in orient}
    return normals, edge


def test_d6_nets_fold_into_cubes_of_the_stated_edge(kit):
    edge = _mm(_components()["die"]["size"])
    found = numbered = 0
    for guides, dashed, rects, words, chars in _pdf_shapes(kit / "shapes-a4.pdf"):
        for outline in guides:
            w, h = _size(outline)
            if not (abs(h - 3 * edge) < 0.05 and 4 * edge < w < 5 * edge):
                continue
            found += 1
            x0, y0 = min(p[0] for p in outline), min(p[1] for p in outline)
            folds = [s for s in dashed if all(_inside(outline, ((s[0] + s[2]) / 2 + dx, (s[1] + s[3]) / 2 + dy))
                                              for dx, dy in ((0, 0),))]
            lengths = {round(math.dist(s[:2], s[2:]), 2) for s in folds}
            assert lengths == {edge}  # every fold is a face's side: faces are edge x edge squares
            # faces: the cells of the edge grid whose centre lies inside the cut outline
            cells = {(c, r) for c in range(5) for r in range(3)
                     if _inside(outline, (x0 + (c + 0.5) * edge, y0 + (r + 0.5) * edge))}
            assert len(cells) == 6

            def side(cell, d):  # the side of a cell towards d, as a segment in page mm
                cx, cy = x0 + cell[0] * edge, y0 + cell[1] * edge
                if d[0]:
                    x = cx + (edge if d[0] > 0 else 0)
                    return (x, cy, x, cy + edge)
                y = cy + (edge if d[1] > 0 else 0)
                return (cx, y, cx + edge, y)

            folded = {frozenset((c, (c[0] + d[0], c[1] + d[1]))) for c in cells for d in ROLL
                      if any(_same_segment(side(c, d), s) for s in folds)}
            inner = {f for f in folded if all(cell in cells for cell in f)}
            assert len(inner) == 5  # a net of six faces is a tree of five folds
            normals, cube_edge = _fold_cube(cells, inner)
            assert len(set(normals.values())) == 6  # six faces, six different sides of the cube
            # tabs: a fold on a face's side with no face beyond; the outline reaches past it by the tab's depth
            tabs = [(c, d) for c in cells for d in ROLL if frozenset((c, (c[0] + d[0], c[1] + d[1]))) in folded
                    and (c[0] + d[0], c[1] + d[1]) not in cells]
            for c, d in tabs:
                s = side(c, d)
                beyond = ((s[0] + s[2]) / 2 + d[0] * 1.0, (s[1] + s[3]) / 2 + d[1] * 1.0)
                assert _inside(outline, beyond)  # paper 1 mm past the fold: the tab
            seams = [cube_edge(c, d) for c, d in tabs]
            shared = [cube_edge(*sorted(f)[:1], (sorted(f)[1][0] - sorted(f)[0][0], sorted(f)[1][1] - sorted(f)[0][1]))
                      for f in inner]
            assert len(set(seams)) == len(seams) == 7  # one tab per open seam
            assert set(seams) | set(shared) == {e for e in _cube_edges()}  # the folded net closes the cube
            # the sail die: opposite faces sum to seven
            digits = {}
            for wd in words:
                if wd["text"].isdigit():
                    cell = (int((wd["x0"] * MM - x0) // edge), int((wd["top"] * MM - y0) // edge))
                    if cell in cells:
                        digits[normals[cell]] = int(wd["text"])
            if len(digits) == 6:
                numbered += 1
                for n, v in digits.items():
                    assert v + digits[tuple(-x + 0.0 for x in n)] == 7
    assert found == 2 and numbered == 1  # the wind die has letters, the sail die 1 to 6


def _cube_edges():
    out = set()
    for axis in range(3):
        for a in (-0.5, 0.5):
            for b in (-0.5, 0.5):
                p = [a, b]
                p.insert(axis, 0.0)
                out.add(tuple(np.round(np.array(p), 6)))
    return out


def test_standee_back_folds_onto_its_front(kit):
    fw, fh = map(_mm, _components()["sailor"]["size"])
    found = 0
    for guides, dashed, rects, words, chars in _pdf_shapes(kit / "shapes-a4.pdf"):
        for outline in guides:
            w, h = _size(outline)
            if not (abs(w - fw) < 0.05 and h > 2 * fh):
                continue
            found += 1
            (fold,) = [s for s in dashed if _inside(outline, ((s[0] + s[2]) / 2, (s[1] + s[3]) / 2 + 0.01))
                       and abs(s[1] - s[3]) < 1e-6]
            y = fold[1]
            assert round(abs(fold[2] - fold[0]), 2) == fw  # the fold runs across the strip at the head
            mirrored = [(x, 2 * y - py) for x, py in outline]
            assert all(any(_near(p, q) for q in outline) for p in mirrored)  # stands and slots meet when folded
            # the panels: the figure's background, fw x fh, one each side of the fold, mirror images
            x0 = min(p[0] for p in outline)
            y0, y1 = min(p[1] for p in outline), max(p[1] for p in outline)
            panels = [(r["x0"] * MM, r["top"] * MM, r["x1"] * MM, r["bottom"] * MM) for r in rects
                      if abs(r["x0"] * MM - x0) < 0.05 and y0 < r["top"] * MM < y1 and abs((r["x1"] - r["x0"]) * MM - fw) < 0.05
                      and abs((r["bottom"] - r["top"]) * MM - fh) < 0.05]
            assert len(panels) == 2
            back, front = sorted(panels, key=lambda r: r[1])
            assert back[3] == pytest.approx(y, abs=0.05) and front[1] == pytest.approx(y, abs=0.05)
            assert 2 * y - back[1] == pytest.approx(front[3], abs=0.05)  # the back lies on the front
            # the back's text is turned 180 degrees (upright once folded behind), the front's upright
            inside = [c for c in chars if x0 < c["x0"] * MM < x0 + fw]
            above = [c for c in inside if back[1] < c["top"] * MM < y]
            below = [c for c in inside if y < c["top"] * MM < front[3]]
            assert above and below
            assert all(c["matrix"][0] < 0 for c in above) and all(c["matrix"][0] > 0 for c in below)
    assert found == 2


def _hex_pages(kit: Path) -> dict[int, list]:
    """Per page number (1-based, from the cutter SVG's name ...-pNN-cut.svg): its hexagons' cut paths."""
    return {int(f.stem.split("-p")[-1].removesuffix("-cut")):
            [pts for kind, pts in _cut_paths_of(f) if kind == "polygon" and len(pts) == 6]
            for f in sorted((kit / "cut").glob("*-cut.svg"))}


def _cut_paths_of(f: Path):
    root = ET.parse(f).getroot()
    return [("polygon", [tuple(map(float, p.split(","))) for p in el.get("points").split()])
            for g in root.iter(SVG + "g") if g.get("id") == "layer-cut" for el in g if el.tag == SVG + "polygon"]


def _point_segment(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _gap(p, q) -> float:
    """Least distance between two convex polygons; negative when they overlap (by separating axes)."""
    if _separation(p, q) <= 1e-9:
        return _separation(p, q)
    return min(min(_point_segment(v, a[i], a[(i + 1) % len(a)]) for v in b for i in range(len(a)))
               for a, b in ((p, q), (q, p)))


def _separation(p, q) -> float:
    worst = -math.inf
    for poly in (p, q):
        for i in range(len(poly)):
            a, b = poly[i], poly[(i + 1) % len(poly)]
            n = (b[1] - a[1], a[0] - b[0])
            length = math.hypot(*n)
            n = (n[0] / length, n[1] / length)
            pa = [x * n[0] + y * n[1] for x, y in p]
            qa = [x * n[0] + y * n[1] for x, y in q]
            worst = max(worst, max(min(qa) - max(pa), min(pa) - max(qa)))
    return worst


def _hex_kit(tmp_path: Path, copies: int, *args: str) -> dict[int, list]:
    folder = tmp_path / "hexes"
    folder.mkdir()
    (folder / "hexes.yaml").write_text(
        f"title: Hexes\ncomponents:\n  - name: hex\n    size: [{HEX[0]}mm, {HEX[1]}mm]\n    shape: hex\n    copies: {copies}\n"
        "    front: front.yaml\n", encoding="utf-8")
    (folder / "front.yaml").write_text('layers:\n  - {type: rect, fill: "#1f5f8b", bleed: true}\n', encoding="utf-8")
    (folder / "rules.md").write_text((SPEC / "rules.md").read_text(encoding="utf-8"), encoding="utf-8")
    r = runner.invoke(app, ["build", str(folder), "--out", str(tmp_path / "out"), "-f", "pdf,cut-svg", *args])
    assert r.exit_code == 0, r.output
    return _hex_pages(tmp_path / "out" / "hexes")


@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_hexes_nest_sharing_edges_or_a_bleed_apart(tmp_path, bleed):
    pages = _hex_kit(tmp_path, 60, "--bleed", f"{bleed:g}")
    first = pages[min(pages)]
    gaps = [_gap(p, q) for p, q in combinations(first, 2)]
    assert min(gaps) == pytest.approx(2 * bleed, abs=0.01)  # no overlap; neighbours' bleeds meet
    near = [(p, q) for p, q in combinations(first, 2) if _gap(p, q) < 2 * bleed + 0.01]
    boxes_overlap = sum(1 for p, q in near if min(y for _, y in q) < max(y for _, y in p) - 1
                        and min(y for _, y in p) < max(y for _, y in q) - 1
                        and abs(min(y for _, y in p) - min(y for _, y in q)) > 1)
    assert boxes_overlap > 0  # rows interlock: neighbours in the next row reach into this row's boxes
    if bleed == 0:  # neighbours share whole edges
        shared = sum(1 for p, q in near for i in range(6)
                     if any(_same_segment((*p[i], *p[(i + 1) % 6]), (*q[j], *q[(j + 1) % 6]), 0.01) for j in range(6)))
        assert shared >= len(first)
    # more than a grid of their boxes holds in the same room
    xs = [x for p in first for x, _ in p]
    ys = [y for p in first for _, y in p]
    room_w, room_h = max(xs) - min(xs), max(ys) - min(ys)
    grid = (math.floor((room_w + 2 * bleed) / (HEX[0] + 2 * bleed))
            * math.floor((room_h + 2 * bleed) / (HEX[1] + 2 * bleed)))
    assert len(first) > grid


def test_art_follows_the_outline_grown_by_the_bleed(tmp_path):
    bleed, dpi = 2.0, 150
    pages = _hex_kit(tmp_path, 1, "--bleed", f"{bleed:g}")
    number = min(pages)
    hexes = pages[number]
    pdf = pypdfium2.PdfDocument(str(tmp_path / "out" / "hexes" / "hexes-a4.pdf"))
    img = np.asarray(pdf[number - 1].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
    px = dpi / 25.4

    def colour(x, y):
        return img[int(round(y * px)), int(round(x * px))]

    blue = np.array([0x1f, 0x5f, 0x8b])
    for hexagon in hexes:
        cx = sum(x for x, _ in hexagon) / 6
        cy = sum(y for _, y in hexagon) / 6
        for i in range(6):
            a, b = hexagon[i], hexagon[(i + 1) % 6]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            d = math.hypot(mx - cx, my - cy)
            ux, uy = (mx - cx) / d, (my - cy) / d
            assert np.abs(colour(mx + ux * bleed / 2, my + uy * bleed / 2) - blue).max() < 40  # art in the bleed
            assert colour(mx + ux * (bleed + 1.0), my + uy * (bleed + 1.0)).min() > 240  # none past it
        top = min(hexagon, key=lambda p: p[1])
        left = min(x for x, _ in hexagon)
        assert colour(left + 1.0, top[1] + 1.0).min() > 240  # the corner of its box, far outside the hex: paper


@pytest.mark.parametrize("shape, warned", [("rect", False), ("hex", True)])
def test_safe_area_follows_the_outline(tmp_path, shape, warned):
    """A text box 4 mm inside a 40 x 46 mm box but across the hexagon's slanted edge near its top
    corner: safe in a rectangle, not in the hex."""
    folder = tmp_path / "tiles"
    folder.mkdir()
    (folder / "tiles.yaml").write_text(
        f"title: Tiles\ncomponents:\n  - name: tile\n    size: [40mm, 46mm]\n    shape: {shape}\n"
        "    front: front.yaml\n", encoding="utf-8")
    (folder / "front.yaml").write_text('layers:\n  - {type: text, text: "N", x: 14, y: 4, w: 12, h: 6}\n',
                                       encoding="utf-8")
    (folder / "rules.md").write_text((SPEC / "rules.md").read_text(encoding="utf-8"), encoding="utf-8")
    r = runner.invoke(app, ["validate", str(folder)])
    out = " ".join(r.output.split())
    assert ("WARNING tile: text boxes closer than 3 mm" in out) == warned, out
    if warned:
        assert "front.yaml layer 1 (text) 0.5 mm" in out
