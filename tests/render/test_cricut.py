"""--cutter cricut: one Print Then Cut image and one cut SVG per sheet, for Cricut Design Space.

Read back: each PNG (Pillow: its alpha channel and dpi) and each SVG's "cut" layer (XML parser).
Every cut outline of the SVG must be the edge of an opaque part of the image to 0.1 mm (measured
from the alpha coverage across each edge), every opaque pixel must lie in some outline and every
outline be opaque inside, and each image must fit Design Space's Print Then Cut area, 6.75 x 9.25
in (docs/print.md). Rounded cards (the playing-cards example) and round parts (Nonaga's discs and
pawns) are both covered, on A4 and on Letter.
"""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from typer.testing import CliRunner

from conftest import REPO, snapshot
from pnp.cli import app

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.1
AREA = (6.75 * 25.4, 9.25 * 25.4)  # Cricut's Print Then Cut size for every machine (docs/print.md)
CARDS = REPO / "specs" / "playing-cards" / "playing-cards.yaml"
DECK = 54  # the example's own check: count equals 54


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("cricut")
    for target, paper in ((str(CARDS), "a4"), ("nonaga", "letter")):
        r = CliRunner().invoke(app, ["build", target, "--cutter", "cricut", "--paper", paper, "--format", "pdf,cut-svg",
                                     "--out", str(out)])
        assert r.exit_code == 0, r.output
    return out


def _pairs(kits: Path) -> list[tuple[Path, Path]]:
    pngs = sorted(kits.glob("*/cricut/*.png"))
    assert pngs, "no Print Then Cut images written"
    return [(p, p.with_suffix(".svg")) for p in pngs]


def _mm(value: str) -> float:
    assert value.endswith("mm"), value
    return float(value[:-2])


def _cut_shapes(svg: Path) -> tuple[tuple[float, float], list[tuple]]:
    """((width, height) mm, [("rect", x, y, w, h, r) | ("circle", cx, cy, r) | ("polygon", points)]) of the
    cut layer."""
    root = ET.parse(svg).getroot()
    size = (_mm(root.get("width")), _mm(root.get("height")))
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "layer-cut")
    shapes = []
    for el in layer.iter():
        if el.tag == f"{SVG}rect":
            shapes.append(("rect", *(float(el.get(k)) for k in ("x", "y", "width", "height")), float(el.get("rx", 0))))
        elif el.tag == f"{SVG}circle":
            shapes.append(("circle", *(float(el.get(k)) for k in ("cx", "cy", "r"))))
        elif el.tag == f"{SVG}polygon":
            shapes.append(("polygon", tuple(tuple(float(v) for v in pair.split(",")) for pair in el.get("points").split())))
    return size, shapes


def _image(png: Path) -> tuple[np.ndarray, float]:
    """(alpha as floats 0..1, pixels per mm) of a PNG, from its own dpi."""
    with Image.open(png) as im:
        dpi = round(im.info["dpi"][0])
        assert im.mode == "RGBA"
        alpha = np.asarray(im.getchannel("A"), dtype=float) / 255
    return alpha, dpi / 25.4


def _edges(profile: np.ndarray, start: int) -> tuple[float, float]:
    """(first, last) edge in pixels of the opaque run of ``profile`` (alpha along a line) that
    contains index ``start``, to sub-pixel precision from the coverage of the edge pixels."""
    i = start
    while i > 0 and profile[i - 1] > 0:
        i -= 1
    j = start
    while j < len(profile) - 1 and profile[j + 1] > 0:
        j += 1
    return i + (1 - profile[i]), j + profile[j]


def _bounds(shape) -> tuple[float, float, float, float]:
    if shape[0] == "polygon":
        xs, ys = [p[0] for p in shape[1]], [p[1] for p in shape[1]]
        return min(xs), min(ys), max(xs), max(ys)
    if shape[0] == "circle":
        _, cx, cy, r = shape
        return cx - r, cy - r, cx + r, cy + r
    _, x, y, w, h, _r = shape
    return x, y, x + w, y + h


def _inside(shape, xs: np.ndarray, ys: np.ndarray, grow: float) -> np.ndarray:
    """Which points (mm) lie inside ``shape`` grown by ``grow`` mm (shrunk when negative)."""
    if shape[0] == "polygon":  # even-odd rule, then the distance to the nearest edge
        pts = shape[1]
        inside = np.zeros(xs.shape, bool)
        dist = np.full(xs.shape, np.inf)
        for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
            crosses = (ay > ys) != (by > ys)
            with np.errstate(divide="ignore", invalid="ignore"):
                at = ax + (ys - ay) * (bx - ax) / (by - ay)
            inside ^= crosses & (xs < at)
            ex, ey = bx - ax, by - ay
            t = np.clip(((xs - ax) * ex + (ys - ay) * ey) / (ex * ex + ey * ey), 0, 1)
            dist = np.minimum(dist, np.hypot(xs - ax - t * ex, ys - ay - t * ey))
        return (inside | (dist <= grow)) if grow >= 0 else (inside & (dist >= -grow))
    if shape[0] == "circle":
        _, cx, cy, r = shape
        return np.hypot(xs - cx, ys - cy) <= r + grow
    _, x, y, w, h, r = shape
    if r + grow <= 0:  # a sharp corner shrunk: the box shrunk by -grow
        return (xs >= x - grow) & (xs <= x + w + grow) & (ys >= y - grow) & (ys <= y + h + grow)
    inner_x = np.clip(xs, x + r, x + w - r)
    inner_y = np.clip(ys, y + r, y + h - r)
    return np.hypot(xs - inner_x, ys - inner_y) <= r + grow


def test_every_cut_outline_is_an_edge_of_the_image(kits):
    """Across the middle of each outline, the opaque run of the image starts and ends on the
    outline's edges to 0.1 mm, in x and in y."""
    checked = 0
    for png, svg in _pairs(kits):
        alpha, k = _image(png)
        _, shapes = _cut_shapes(svg)
        for shape in shapes:
            if shape[0] == "polygon":  # its box's middle lines need not cross its edges at the box
                continue               # (test_opaque_exactly_where_the_outlines_are checks it)
            x0, y0, x1, y1 = _bounds(shape)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            left, right = _edges(alpha[int(cy * k)], int(cx * k))
            top, bottom = _edges(alpha[:, int(cx * k)], int(cy * k))
            for drawn, cut in ((left, x0), (right, x1), (top, y0), (bottom, y1)):
                assert abs(drawn / k - cut) <= TOL, f"{png.name}: edge at {drawn / k:.3f} mm, cut at {cut:.3f} mm"
            checked += 1
    assert checked >= DECK


def test_opaque_exactly_where_the_outlines_are(kits):
    """Every pixel more than 0.1 mm inside an outline is opaque; every pixel with any ink farther
    than 0.1 mm outside every outline is fully transparent (so Design Space traces only the parts)."""
    for png, svg in _pairs(kits):
        alpha, k = _image(png)
        _, shapes = _cut_shapes(svg)
        ys, xs = np.mgrid[0:alpha.shape[0], 0:alpha.shape[1]]
        xs, ys = (xs + 0.5) / k, (ys + 0.5) / k   # pixel centres, mm
        near = np.zeros(alpha.shape, bool)
        for shape in shapes:
            inside = _inside(shape, xs, ys, -TOL - 0.5 / k)
            assert alpha[inside].min() == 1.0, f"{png.name}: a transparent pixel inside {shape}"
            near |= _inside(shape, xs, ys, TOL + 0.75 / k)
        assert not alpha[~near].any(), f"{png.name}: ink outside every cut outline"


def test_images_fit_the_print_then_cut_area_and_the_svg_matches(kits):
    for png, svg in _pairs(kits):
        alpha, k = _image(png)
        h_mm, w_mm = alpha.shape[0] / k, alpha.shape[1] / k
        assert w_mm <= AREA[0] and h_mm <= AREA[1], f"{png.name}: {w_mm:.2f} x {h_mm:.2f} mm"
        (sw, sh), shapes = _cut_shapes(svg)
        assert abs(sw - w_mm) <= TOL and abs(sh - h_mm) <= TOL
        for shape in shapes:
            x0, y0, x1, y1 = _bounds(shape)
            assert x0 >= -TOL and y0 >= -TOL and x1 <= sw + TOL and y1 <= sh + TOL


def test_image_is_the_printed_sheet(kits):
    """Each image is its PDF page's parts, in place: the outlines of the page's cutter SVG (page mm)
    are the image's outlines moved by one offset, to 0.01 mm, and the image's opaque pixels are the
    PDF page's pixels there (rendered at the image's dpi)."""
    for png, svg in _pairs(kits):
        kit = png.parent.parent
        stem, page_no = png.stem.rsplit("-p", 1)
        _, on_page = _cut_shapes(kit / "cut" / f"{stem}-p{page_no}-cut.svg")
        _, in_image = _cut_shapes(svg)
        assert len(on_page) == len(in_image)
        ox, oy = (_bounds(on_page[0])[i] - _bounds(in_image[0])[i] for i in (0, 1))
        for a, b in zip(on_page, in_image):
            pa, pb = _bounds(a), _bounds(b)
            assert all(abs(pa[i] - pb[i] - (ox, oy)[i % 2]) <= 0.01 for i in range(4)), (png.name, a, b)
        with Image.open(png) as im:
            rgb = np.asarray(im.convert("RGB"), dtype=float)
            alpha = np.asarray(im.getchannel("A"))
            dpi = round(im.info["dpi"][0])
        doc = pdfium.PdfDocument(str(kit / f"{stem}.pdf"))
        try:
            page = doc[int(page_no) - 1].render(scale=dpi / 72).to_pil().convert("RGB")
        finally:
            doc.close()
        left, top = round(ox * dpi / 25.4), round(oy * dpi / 25.4)
        printed = np.asarray(page.crop((left, top, left + rgb.shape[1], top + rgb.shape[0])), dtype=float)
        diff = np.abs(printed - rgb)[alpha == 255]
        assert diff.mean() < 0.25 and np.percentile(diff, 99.9) <= 16, (png.name, diff.mean())  # 1 px off: 53


def test_the_whole_deck_is_cut_and_rounded(kits):
    """The playing-cards example's 54 rounded poker cards (2.5 x 3.5 in, radius 3 mm in its spec) each have one outline."""
    shapes = [s for _, svg in _pairs(kits) if "playing-cards" in svg.name for s in _cut_shapes(svg)[1]]
    assert 1 <= [s[0] for s in shapes].count("polygon") <= 2  # the tuck box (box: tuck), whole or in two pieces
    shapes = [s for s in shapes if s[0] != "polygon"]
    assert len(shapes) == DECK
    assert all(s[0] == "rect" and abs(s[5] - 3.0) <= TOL and abs(s[3] - 63.5) <= TOL and abs(s[4] - 88.9) <= TOL
               for s in shapes)


def test_round_parts_are_circles(kits):
    shapes = [s for _, svg in _pairs(kits) if svg.name.startswith("nonaga") for s in _cut_shapes(svg)[1]]
    assert shapes and any(s[0] == "circle" for s in shapes)


def test_guide_gives_each_image_its_size(kits):
    for guide in kits.glob("*/cricut/*.txt"):
        text = guide.read_text(encoding="utf-8")
        assert "Print Then Cut" in text and "sensor marks" in text
        for png in guide.parent.glob("*.png"):
            alpha, k = _image(png)
            line = next(line for line in text.splitlines() if line.startswith(png.name))
            assert f"({alpha.shape[1] / k:.2f} x {alpha.shape[0] / k:.2f} mm)" in line, line


def test_part_larger_than_the_area_is_named_and_nothing_written(tmp_path):
    folder = tmp_path / "big"
    shutil.copytree(CARDS.parent, folder)
    spec = folder / CARDS.name
    spec.write_text(spec.read_text(encoding="utf-8").replace("size: poker", "size: [180mm, 200mm]"), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    before = snapshot(out)
    r = CliRunner().invoke(app, ["build", str(folder / CARDS.name), "--cutter", "cricut", "--out", str(out)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert "card (180 x 200 mm, larger than" in flat and "171.45 x 234.95 mm" in flat
    assert snapshot(out) == before


def test_backs_left_out_are_named(tmp_path):
    """Nonads tiles have a printed back (its spec); Design Space prints one side, and the build says so."""
    r = CliRunner().invoke(app, ["build", "nonads", "--cutter", "cricut", "--duplex", "long", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "no back is printed for tile" in " ".join(r.output.split())
    assert sorted(p.suffix for p in (tmp_path / "nonads" / "cricut").iterdir()).count(".png") >= 1
