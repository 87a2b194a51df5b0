"""Nothing a person must read is printed under 6 pt: every glyph of every page of every kit, read
back from the PDF with pdfplumber, on A4 and Letter, home and print-shop (3 mm bleed, long-edge
duplex) builds."""
from __future__ import annotations

import math

import pytest

from pnp.engine import registry
from pnp.layout.options import ImposeOptions

from conftest import open_pdf, pdf_of

GAMES = sorted(registry())
MIN_PT = 6.0
BUILDS = [("a4", None), ("letter", None), ("a4", (3.0, "long")), ("letter", (3.0, "long"))]


def glyph_size_pt(char: dict) -> float:
    """The font size of one glyph in points as the reader sees it, whatever its rotation.

    pdfminer's ``size`` is the glyph box's height on the page, which for text turned 90 degrees is
    the advance instead. The glyph box in text space is ``adv`` wide and one font size high;
    turned by the angle of its matrix, its page box is w = adv|cos| + size|sin| and
    h = adv|sin| + size|cos|; solved for size along the better-conditioned axis.
    """
    a, b, _, _, _, _ = char["matrix"]
    scale = math.hypot(a, b)
    cos, sin = abs(a) / scale, abs(b) / scale
    adv = char["adv"] * scale
    w, h = char["x1"] - char["x0"], char["bottom"] - char["top"]
    return (h - adv * sin) / cos if cos >= sin else (w - adv * cos) / sin


def test_glyph_size_reads_turned_text_right():
    """The measure itself: upright and quarter-turned glyphs of a known size give that size."""
    upright = {"matrix": (2.0, 0.0, 0.0, 2.0, 0, 0), "adv": 1.0, "x0": 0, "x1": 2.0, "top": 0, "bottom": 7.0}
    turned = {"matrix": (0.0, -2.0, 2.0, 0.0, 0, 0), "adv": 1.0, "x0": 0, "x1": 7.0, "top": 0, "bottom": 2.0}
    assert glyph_size_pt(upright) == pytest.approx(7.0)
    assert glyph_size_pt(turned) == pytest.approx(7.0)


@pytest.mark.parametrize("paper,shop", BUILDS, ids=["a4", "letter", "a4-bleed3-long", "letter-bleed3-long"])
@pytest.mark.parametrize("game", GAMES)
def test_no_text_under_6pt(built, game, paper, shop):
    kw = {"formats": ("pdf",)}
    if shop:
        kw["opts"] = ImposeOptions(bleed=shop[0], duplex=shop[1])
    small: dict[tuple[int, float], str] = {}
    glyphs = 0
    with open_pdf(pdf_of(built(game, paper, **kw))) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            for char in page.chars:
                if not char["text"].strip():
                    continue
                glyphs += 1
                size = glyph_size_pt(char)
                if size < MIN_PT - 0.01:
                    key = (number, round(size, 2))
                    small[key] = small.get(key, "") + char["text"]
    assert glyphs > 0
    assert not small, f"{game} {paper} {shop}: text under {MIN_PT} pt (page, size: text): " + "; ".join(
        f"p{n} {s} pt: {t[:40]!r}" for (n, s), t in sorted(small.items()))


@pytest.mark.parametrize("paper,duplex", [("a4", "long"), ("letter", "short")])
def test_calibration_sheet_text_not_under_6pt(tmp_path, paper, duplex):
    """The duplex calibration sheet's offset labels are read by a person holding the sheet to a light."""
    from pnp.pipeline.calibrate import build_calibration
    pdf_path = build_calibration(paper, duplex, out=tmp_path)
    with open_pdf(pdf_path) as pdf:
        sizes = [glyph_size_pt(c) for page in pdf.pages for c in page.chars if c["text"].strip()]
    assert len(sizes) > 81  # at least one glyph per target label
    assert min(sizes) >= MIN_PT - 0.01, f"smallest text {min(sizes):.2f} pt"
