"""Nonads' tiles are drawn by its spec folder's templates (specs/nonads/tile-<grid>.yaml) from the rows
the generator computes: a colour changed in a copy of the folder's template is the colour printed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf as fitz
import pytest

from pnp.core.errors import SpecError
from pnp.pipeline.plan import context, load_target

SPECS = Path(__file__).resolve().parents[2] / "specs"


def _fills(pdf: Path) -> set[tuple[float, float, float]]:
    """The fill colours of every path drawn on the PDF's pages (RGB 0..1, rounded)."""
    with fitz.open(pdf) as doc:
        return {tuple(round(c, 3) for c in d["fill"]) for page in doc for d in page.get_drawings()
                if d.get("fill") is not None}


def _build(folder: Path, out: Path) -> Path:
    from typer.testing import CliRunner
    from pnp.cli import app
    result = CliRunner().invoke(app, ["-q", "build", str(folder / "nonads.yaml"), "--out", str(out), "--format", "pdf"])
    assert result.exit_code == 0, result.output
    return next(out.glob("nonads/*.pdf"))


def test_the_template_draws_the_tiles(tmp_path):
    folder = tmp_path / "nonads"
    shutil.copytree(SPECS / "nonads", folder)
    before = _fills(_build(folder, tmp_path / "a"))
    template = folder / "tile-3.yaml"
    text = template.read_text(encoding="utf-8")
    assert '"{border}", bleed' not in text and 'fill: "{border}"' in text
    template.write_text(text.replace('fill: "{border}"', 'fill: "#12ab34"'), encoding="utf-8")
    after = _fills(_build(folder, tmp_path / "b"))
    green = (round(0x12 / 255, 3), round(0xab / 255, 3), round(0x34 / 255, 3))
    assert green not in before and green in after


def test_the_rows_give_each_cell_its_colour():
    loaded = load_target("nonads")
    (tile,) = loaded.game.components(loaded.spec, context(loaded))
    blacks = [sum(1 for s in front if getattr(s, "fill", None) == loaded.spec.black_colour) for front in tile.fronts]
    assert blacks and set(blacks) == {loaded.spec.black}


def test_a_template_border_width_other_than_the_spec_is_refused(tmp_path):
    folder = tmp_path / "nonads"
    shutil.copytree(SPECS / "nonads", folder)
    spec = folder / "nonads.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("cell_border: 0.25mm", "cell_border: 0.5mm"))
    loaded = load_target(str(spec))
    with pytest.raises(SpecError, match="cell_border"):
        loaded.game.components(loaded.spec, context(loaded))
