"""No cut line over the artwork unless asked: round and rounded parts print a grey line at the trim
only with ``--cut-lines`` (ImposeOptions.cut_lines); read back from the PDF."""
from __future__ import annotations

import pymupdf as fitz
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.ir import Circle, Component, Rect
from pnp.layout.cover import BomCover
from pnp.layout.impose import CUT_GUIDE, impose
from pnp.layout.options import ImposeOptions
from pnp.pipeline.plan import load_paper
from pnp.render.formats import WriteJob, formats

PT = 25.4 / 72
GREY = tuple(int(CUT_GUIDE[i:i + 2], 16) / 255 for i in (1, 3, 5))
PARTS = [Component("disc", 30, 30, ((Circle(15, 15, 15, fill="#c04040", stroke=None, bleed=True),),), copies=3,
                   shape="circle"),
         Component("card", 40, 60, ((Rect(0, 0, 40, 60, fill="#4060c0", stroke=None, bleed=True),),), copies=2,
                   shape="rounded", radius=3)]


def _pdf(tmp_path, cut_lines: bool):
    """The kit of PARTS as a PDF, and its imposed pages."""
    sheet = load_paper("a4").sheet
    opts = ImposeOptions(cut_lines=cut_lines)
    pages = list(impose("cut", PARTS, sheet, opts, BomCover("cut")).pages)
    writer = formats().get("pdf")(WriteJob(tmp_path, "cut", len(pages), opts, PARTS))
    for n, page in enumerate(pages, 1):
        writer.page(n, page)
    return tmp_path / writer.finish()[0], pages


def _grey_strokes(pdf):
    """Per page, the boxes (x0, y0, x1, y1 mm) of every path stroked in the cut-guide grey."""
    out = []
    with fitz.open(pdf) as doc:
        for page in doc:
            out.append([tuple(v * PT for v in d["rect"]) for d in page.get_drawings()
                        if d.get("color") and all(abs(a - b) < 0.01 for a, b in zip(d["color"], GREY))])
    return out


def test_no_line_at_the_trim_by_default(tmp_path):
    pdf, pages = _pdf(tmp_path, False)
    assert any(p.placements for p in pages)
    assert all(not boxes for boxes in _grey_strokes(pdf))


def test_cut_lines_draw_one_grey_outline_at_each_round_and_rounded_trim(tmp_path):
    pdf, pages = _pdf(tmp_path, True)
    for page, boxes in zip(pages, _grey_strokes(pdf)):
        trims = sorted((p.x, p.y, p.x + p.w, p.y + p.h) for p in page.placements)
        assert len(boxes) == len(trims)
        for got, want in zip(sorted(boxes), trims):  # each outline lies on its part's trim (half the line outside)
            assert got == pytest.approx(want, abs=0.2)


def test_build_cut_lines_option(tmp_path):
    """`pnp build --cut-lines` draws them on a shipped kit with round parts; without it there are none."""
    runner = CliRunner()
    for flag, expect in (([], False), (["--cut-lines"], True)):
        out = tmp_path / ("with" if expect else "without")
        result = runner.invoke(app, ["build", "nonaga", "--format", "pdf", "--out", str(out), *flag])
        assert result.exit_code == 0, result.output
        strokes = _grey_strokes(next(out.glob("nonaga/*.pdf")))
        assert any(strokes) is expect


def test_cut_lines_with_bleed_are_said_to_be_ignored_and_the_cover_asks_for_no_grey_line(tmp_path):
    """With --bleed nothing is drawn on a cut: --cut-lines is dropped with a note naming it, and the
    cover's cutting instructions do not send a scissor along a grey line that is not there."""
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", "nonaga", "--format", "pdf", "--bleed", "3", "--cut-lines",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert "note: --cut-lines ignored: with --bleed" in flat
    pdf = next(out.glob("nonaga/*.pdf"))
    assert not any(_grey_strokes(pdf))
    with fitz.open(pdf) as doc:
        cover = " ".join(doc[0].get_text().split())
    assert "grey circle" not in cover and "Round parts" in cover
