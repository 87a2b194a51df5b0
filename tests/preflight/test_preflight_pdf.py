"""Checks of what only the PDF holds, on tiny PDFs made with reportlab: RGB content in a CMYK kit,
fonts not embedded (a base-14 font), and ink coverage measured from CMYK pixels; each planted defect
fails, its absence passes, and the place is the one drawn."""
from __future__ import annotations

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.core.findings import FAIL, PASS
from pnp.core.fonts import face
from pnp.core.ir import Component, Page, Placement
from pnp.preflight import ink
from pnp.preflight.pdffacts import read_facts
from pnp.preflight.pixels import rendered
from pnp.preflight.run import colour_spaces, fonts
from pnp.preflight.scene import PageScene, Where
from preflight_kits import pdf_with

PT = 25.4 / 72
A4_H = 841.8897637795277  # pt


def _cmyk_and_rgb(c):
    c.setFillColorCMYK(0.2, 0.1, 0.0, 0.3)
    c.rect(72, 600, 100, 100, stroke=0, fill=1)
    c.setFillColorRGB(1, 0, 0)
    c.rect(200, 400, 50, 50, stroke=0, fill=1)


def test_rgb_in_a_cmyk_kit_fails_at_the_place_drawn(tmp_path):
    facts = read_facts(pdf_with(tmp_path / "mixed.pdf", _cmyk_and_rgb))
    assert facts.cmyk
    bad = [f for f in colour_spaces(facts, []) if f.status != PASS]
    assert [f.status for f in bad] == [FAIL] and "RGB colour rg 1 0 0" in bad[0].check
    assert bad[0].where.page == 1
    assert bad[0].where.x == pytest.approx(200 * PT, abs=0.01)
    assert bad[0].where.y == pytest.approx((A4_H - 400) * PT, abs=0.01)


def test_a_cmyk_only_kit_passes_and_an_rgb_kit_is_not_held_to_cmyk(tmp_path):
    def cmyk_only(c):
        c.setFillColorCMYK(0.2, 0.1, 0.0, 0.3)
        c.rect(72, 600, 100, 100, stroke=0, fill=1)
    facts = read_facts(pdf_with(tmp_path / "cmyk.pdf", cmyk_only))
    assert facts.cmyk and [f.status for f in colour_spaces(facts, [])] == [PASS]

    def rgb_only(c):
        c.setFillColorRGB(1, 0, 0)
        c.rect(72, 600, 100, 100, stroke=0, fill=1)
    facts = read_facts(pdf_with(tmp_path / "rgb.pdf", rgb_only))
    assert not facts.cmyk and [f.status for f in colour_spaces(facts, [])] == [PASS]


def test_a_base14_font_fails_and_an_embedded_font_passes(tmp_path):
    def helvetica(c):
        c.setFont("Helvetica", 12)
        c.drawString(100, 500, "base fourteen")
    bad = [f for f in fonts(read_facts(pdf_with(tmp_path / "h.pdf", helvetica)), []) if f.status != PASS]
    assert [f.status for f in bad] == [FAIL]
    assert "Helvetica (a base-14 font, not embedded)" in bad[0].check
    assert bad[0].where.x == pytest.approx(100 * PT, abs=0.01)
    assert bad[0].where.y == pytest.approx((A4_H - 500) * PT, abs=0.01)

    pdfmetrics.registerFont(TTFont("PreflightNoto", face("NotoSans").path))

    def embedded(c):
        c.setFont("PreflightNoto", 12)
        c.drawString(100, 500, "embedded")
    found = fonts(read_facts(pdf_with(tmp_path / "e.pdf", embedded)), [])
    assert not [f for f in found if f.status == FAIL]
    # reportlab selects Helvetica at the start of every page and sets nothing with it: only a warning
    assert all("selected but sets no text" in f.check for f in found if f.status != PASS)


def _coverage(path, cmyk):
    """The coverage findings of a one-page CMYK PDF whose one placed part (a 'swatch', card 1) is the
    square drawn at 72, 600 pt (100 pt wide) in ``cmyk``."""
    def draw(c):
        c.setFillColorCMYK(*cmyk)
        c.rect(72, 600, 100, 100, stroke=0, fill=1)
    facts = read_facts(pdf_with(path, draw))
    comp = Component("swatch", 100 * PT, 100 * PT, ((),))
    box = Placement("swatch", 72 * PT, (A4_H - 700) * PT, 100 * PT, 100 * PT, face=0)
    scene = PageScene(Page(210, 297, (), "", placements=(box,)), 1, [comp])
    coverage = ink.Coverage(facts.cmyk_colours)
    found = []
    for raster in rendered(path):
        found += ink.over_limit(scene, raster, coverage, 300)
    return ink.findings(found, 300, "test", coverage), box


def test_ink_coverage_over_300_percent_fails_measured_from_cmyk_pixels(tmp_path):
    found, box = _coverage(tmp_path / "heavy.pdf", (1, 1, 1, 1))
    bad = [f for f in found if f.status != PASS]
    assert [f.status for f in bad] == [FAIL] and "400 %" in bad[0].check
    w = bad[0].where
    assert (w.component, w.card, w.page) == ("swatch", "card 1", 1)
    assert box.x - 0.1 <= w.x <= box.x + box.w and box.y - 0.1 <= w.y <= box.y + box.h


def test_ink_coverage_at_280_percent_passes(tmp_path):
    found, _ = _coverage(tmp_path / "light.pdf", (0.7, 0.7, 0.4, 1.0))
    assert [f.status for f in found] == [PASS]


def test_an_rgb_picture_in_a_cmyk_kit_fails_at_its_corner(tmp_path):
    from PIL import Image as PILImage
    from reportlab.lib.utils import ImageReader

    def draw(c):
        c.setFillColorCMYK(0, 0, 0, 1)
        c.rect(72, 600, 100, 100, stroke=0, fill=1)
        c.drawImage(ImageReader(PILImage.new("RGB", (8, 8), (200, 30, 30))), 300, 200, 40, 40)
    facts = read_facts(pdf_with(tmp_path / "picture.pdf", draw))
    bad = [f for f in colour_spaces(facts, []) if f.status != PASS]
    assert [f.status for f in bad] == [FAIL] and "RGB picture" in bad[0].check and "8 x 8 px" in bad[0].check
    assert bad[0].where.x == pytest.approx(300 * PT, abs=0.01)
    assert bad[0].where.y == pytest.approx((A4_H - 240) * PT, abs=0.01)  # the picture's top-left corner


def _picture_coverage(path, heavy_px: int):
    """The coverage findings of a one-page PDF holding a 100 x 100 px CMYK picture drawn 100 pt (35.3 mm)
    square at 72, 600 pt: inks 20/20/20/20 % (80 %) except a ``heavy_px`` square in its top-left corner
    at 100/100/100/100 % (400 %)."""
    from PIL import Image as PILImage
    from reportlab.lib.utils import ImageReader
    im = PILImage.new("CMYK", (100, 100), (51, 51, 51, 51))
    if heavy_px:
        im.paste((255, 255, 255, 255), (0, 0, heavy_px, heavy_px))

    def draw(c):
        c.drawImage(ImageReader(im), 72, 600, 100, 100)
    facts = read_facts(pdf_with(path, draw))
    return ink.findings(ink.pictures_over_limit(facts.pictures, 300, lambda use: Where(use.page, use.x, use.y)), 300, "test",
                        ink.Coverage(facts.cmyk_colours)), facts


def test_a_cmyk_picture_over_the_limit_fails_at_its_corner_with_its_area(tmp_path):
    found, facts = _picture_coverage(tmp_path / "heavy-picture.pdf", 20)
    bad = [f for f in found if f.status != PASS]
    assert [f.status for f in bad] == [FAIL] and "up to 400 %" in bad[0].check
    side_mm = 100 * PT
    heavy_mm2 = (side_mm * 20 / 100) ** 2  # 20 x 20 of 100 x 100 px over 35.3 mm square: 49.8 mm²
    assert f"over {heavy_mm2:.1f} mm²" in bad[0].check
    assert bad[0].where.x == pytest.approx(72 * PT, abs=0.01)
    assert bad[0].where.y == pytest.approx((A4_H - 700) * PT, abs=0.01)  # the picture's top-left corner


def test_a_cmyk_picture_under_the_limit_passes(tmp_path):
    found, facts = _picture_coverage(tmp_path / "light-picture.pdf", 0)
    assert facts.pictures and [f.status for f in found] == [PASS]
    hist = facts.pictures[0].histogram
    assert int(hist[80]) == 100 * 100  # every pixel 4 x 20 %
