"""Standee slots sized from the stock's thickness, read back from the cutter SVG (`-f cut-svg`, layer
`cut`): each strip has a slot at both ends that takes the base fin (one layer: thickness + play) and
each base fin a slot that takes the folded stands (two layers: 2 x thickness + play), the play 0.2 mm
(docs/templates.md). Pushed together as the kit says, the card that goes in each slot leaves 0 to
0.2 mm free and the two slots' depths add to the stand's height. Checked for the card stock's default
(0.3 mm) and a declared ``thickness:``; out-of-range thicknesses are refused with one line."""
from __future__ import annotations

import re
import shutil

import pytest
from typer.testing import CliRunner

from conftest import REPO, assert_refused
from pnp.cli import app

runner = CliRunner()
PLAY = 0.2       # mm: the play docs/templates.md states
STOCK = 0.3      # mm: the usual card stock, the default
FIGURE = (30.0, 50.0)  # the sailor's size in specs/shapes/shapes.yaml


def _kit(tmp_path, thickness: str | None):
    folder = tmp_path / "harbour"
    shutil.copytree(REPO / "specs" / "shapes", folder)
    spec = folder / "shapes.yaml"
    (folder / "shapes.yaml").rename(folder / "harbour.yaml")
    spec = folder / "harbour.yaml"
    if thickness is not None:
        text = spec.read_text()
        assert "    back: sailor-back.yaml\n" in text
        spec.write_text(text.replace("    back: sailor-back.yaml\n", f"    back: sailor-back.yaml\n"
                                                                  f"    thickness: {thickness}\n"))
    return spec


def _cut_polygons(folder) -> list[list[tuple[float, float]]]:
    out = []
    for svg in sorted(folder.glob("cut/*-cut.svg")):
        text = svg.read_text()
        layer = text[text.index('id="layer-cut"'):]
        for pts in re.findall(r'<polygon[^>]*points="([^"]+)"', layer):
            out.append([tuple(float(v) for v in p.split(",")) for p in pts.split()])
    return out


def _slots(poly) -> list[tuple[float, float]]:
    """(width, depth) mm of each rectangular notch cut into the top or bottom edge of an axis-aligned
    outline: two vertical edges going into the part from the same edge line, joined at the notch's floor."""
    ys = [y for _, y in poly]
    top, bottom = min(ys), max(ys)
    out = []
    n = len(poly)
    for i in range(n):
        a, b, c, d = poly[i], poly[(i + 1) % n], poly[(i + 2) % n], poly[(i + 3) % n]
        for edge, other in ((top, bottom), (bottom, top)):
            if (abs(a[1] - edge) < 1e-6 and abs(d[1] - edge) < 1e-6 and abs(b[1] - c[1]) < 1e-6
                    and abs(b[1] - edge) > 1e-6 and abs(b[1] - other) > 1e-6 and abs(a[0] - b[0]) < 1e-6 and abs(c[0] - d[0]) < 1e-6):
                out.append((abs(c[0] - b[0]), abs(b[1] - edge)))
    return out


@pytest.mark.parametrize("declared, t", [(None, STOCK), ("0.6mm", 0.6), ("1.5mm", 1.5)])
def test_slot_widths_are_the_stock_thickness_plus_play(tmp_path, declared, t):
    spec = _kit(tmp_path, declared)
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "-o", str(out), "-f", "pdf,cut-svg", "-q"])
    assert r.exit_code == 0, r.output
    strips, bases = [], []
    for poly in _cut_polygons(out / "harbour"):
        xs, ys = [x for x, _ in poly], [y for _, y in poly]
        w, h = max(xs) - min(xs), max(ys) - min(ys)
        if abs(w - FIGURE[0]) > 1e-6:
            continue
        (strips if h > 2 * FIGURE[1] else bases).append((h, _slots(poly)))
    rows = sum(1 for line in (spec.parent / "sailors.csv").read_text().splitlines()[1:] if line.strip())
    assert len(strips) == len(bases) == rows  # one strip and one base per sailor
    for length, slots in strips:
        stand = (length - 2 * FIGURE[1]) / 2
        assert len(slots) == 2  # one at each end
        for width, depth in slots:
            assert width == pytest.approx(t + PLAY, abs=1e-3)
            assert 0 <= width - t <= PLAY + 1e-3  # the base fin, one layer, slides in
            for height, (base_slot,) in bases:  # cross-lap: the depths add up to the stand
                assert depth + base_slot[1] == pytest.approx(stand, abs=1e-3) == pytest.approx(height, abs=1e-3)
    for _, slots in bases:
        (width, _depth), = slots
        assert width == pytest.approx(2 * t + PLAY, abs=1e-3)
        assert 0 <= width - 2 * t <= PLAY + 1e-3  # the folded stands, two layers, slide in


@pytest.mark.parametrize("value, needle", [("0mm", "between 0.05 mm and 3 mm, got 0 mm"),
                                           ("0.01mm", "between 0.05 mm and 3 mm, got 0.01 mm"),
                                           ("5mm", "between 0.05 mm and 3 mm, got 5 mm"),
                                           ("-1mm", "between 0.05 mm and 3 mm"), ("thick", "expected a length")])
def test_out_of_range_thickness_refused(tmp_path, value, needle):
    spec = _kit(tmp_path, value)
    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "keep.txt").write_text("a kit built before\n")
    line = next(i for i, s in enumerate(spec.read_text().splitlines(), start=1) if s.strip().startswith("thickness:"))
    assert_refused(spec, existing, "harbour.yaml", f"line {line}", "components.4.thickness", [needle])


def test_a_slot_too_wide_for_a_narrow_figure_refused(tmp_path):
    spec = _kit(tmp_path, "2.5mm")  # the base slot 2 x 2.5 + 0.2 = 5.2 mm: over half a 10 mm figure
    text = spec.read_text()
    assert "    size: [30mm, 50mm]" in text
    spec.write_text(text.replace("    size: [30mm, 50mm]", "    size: [10mm, 50mm]"))
    existing = tmp_path / "existing"
    existing.mkdir()
    assert_refused(spec, existing, "harbour.yaml", None, None, ["5.2 mm, more than half the 10 mm figure"])
