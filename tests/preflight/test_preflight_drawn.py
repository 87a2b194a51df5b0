"""Checks measured on the rendered pages: WCAG contrast of text against what is drawn behind it,
faces told apart only by colours that collapse under simulated colour-vision deficiency, art short
of the bleed line, and text past the safe area. Each planted defect fails (or warns), its absence
passes, and the finding names the component, card, page and a place inside the part."""
from __future__ import annotations

import pytest

from pnp.core.findings import FAIL, PASS, WARN
from pnp.core.ir import Circle, Polygon, Rect, Text
from pnp.preflight.contrast import ratio
from preflight_kits import assert_inside, card, not_passed, of, placement, run


def test_wcag_ratio_of_black_on_white_is_21_and_of_equal_colours_1():
    assert ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert ratio((119, 119, 119), (119, 119, 119)) == pytest.approx(1.0)
    assert ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)  # WCAG's #767676 on white


def test_grey_text_on_grey_fails_naming_the_background_drawn():
    face = [Rect(0, 0, 40, 40, fill="#808080", stroke=None), Text(4, 22, "hidden", size_pt=10, fill="#999999")]
    found, pages = run([card("plate", [face])])
    bad = not_passed(found, "WCAG")
    assert [f.status for f in bad] == [FAIL]
    assert "#808080" in bad[0].check and "'hidden'" in bad[0].check
    assert float(bad[0].check.split("contrast ")[1].split(":")[0]) < 3.0
    number, p = placement(pages, "plate", 0)
    assert_inside(bad[0].where, number, p)


def test_large_grey_text_only_warns_and_dark_text_on_grey_passes():
    big = [Rect(0, 0, 40, 40, fill="#808080", stroke=None), Text(2, 25, "Big", size_pt=24, fill="#d0d0d0")]
    found, _ = run([card("plate", [big])])
    assert [f.status for f in not_passed(found, "WCAG")] == [WARN]  # 2.2:1 for large text: a warning
    dark = [Rect(0, 0, 40, 40, fill="#d0d0d0", stroke=None), Text(4, 22, "clear", size_pt=10, fill="#000000")]
    found, _ = run([card("plate", [dark])])
    assert [f.status for f in of(found, "WCAG")] == [PASS]


RED, GREEN, BLUE = "#dc2828", "#28a028", "#2850dc"


def _suit(colour, shape="disc"):
    mark = (Circle(20, 20, 12, fill=colour, stroke=None) if shape == "disc" else
            Polygon(((20, 6), (34, 34), (6, 34)), fill=colour, stroke=None))
    return [Rect(0, 0, 40, 40, fill="#ffffff", stroke=None), mark]


def test_two_suits_differing_only_in_red_and_green_fail_under_deuteranopia():
    found, pages = run([card("suit", [_suit(RED), _suit(GREEN)])])
    bad = not_passed(found, "protanopia, deuteranopia")
    assert bad and all(f.status == FAIL for f in bad)
    text = " ".join(f.check for f in bad)
    assert "deuteranopia" in text and "card 1 and card 2" in text
    number, p = placement(pages, "suit", 0)
    assert_inside(bad[0].where, number, p)


def test_suits_that_differ_in_shape_too_pass():
    found, _ = run([card("suit", [_suit(RED), _suit(GREEN, "triangle")])])
    assert [f.status for f in of(found, "protanopia, deuteranopia")] == [PASS]


def test_red_and_blue_suits_do_not_collapse_under_red_green_deficiencies():
    found, _ = run([card("suit", [_suit(RED), _suit(BLUE)])])
    text = " ".join(f.check for f in not_passed(found, "protanopia, deuteranopia"))
    assert "deuteranopia" not in text and "protanopia" not in text


def test_art_short_of_the_bleed_line_fails_and_bleeding_art_passes():
    short = card("tile", [[Rect(0, 0, 40, 40, fill="#3060a0", stroke=None)]])  # reaches the trim, not marked bleed
    found, pages = run([short], bleed=3)
    bad = not_passed(found, "bleed line")
    assert bad and all(f.status == FAIL for f in bad)
    assert {f.check.split(" edge")[0].split("the ")[-1] for f in bad if f.where} >= {"top", "left"}
    number, p = placement(pages, "tile", 0)
    assert_inside(bad[0].where, number, p)
    bleeds = card("tile", [[Rect(0, 0, 40, 40, fill="#3060a0", stroke=None, bleed=True)]])
    found, _ = run([bleeds], bleed=3)
    assert [f.status for f in of(found, "bleed line")] == [PASS]


def test_text_past_the_safe_area_warns_and_text_inside_passes():
    found, pages = run([card("label", [[Text(1, 20, "edge", size_pt=8)]])])
    bad = not_passed(found, "inside the trim (docs/print.md, Preflight)")
    assert [f.status for f in bad] == [WARN] and "left edge" in bad[0].check
    number, p = placement(pages, "label", 0)
    assert_inside(bad[0].where, number, p)
    found, _ = run([card("label", [[Text(8, 20, "safe", size_pt=8)]])])
    assert [f.status for f in of(found, "inside the trim (docs/print.md, Preflight)")] == [PASS]
