"""Sizes as printed: text under 6 pt, lines under 0.25 pt, pictures under 300 / 150 dpi; each
proven by a planted defect that fails and its absence that passes, the finding naming the
component, card, page and a place inside the part."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image as PILImage

from pnp.core.findings import FAIL, PASS, WARN
from pnp.core.ir import Image, Rect, Text
from preflight_kits import assert_inside, card, not_passed, of, placement, run


def test_a_4pt_text_fails_naming_its_card_page_and_place():
    comp = card("token", [[Text(5, 20, "tiny", size_pt=4)], [Text(5, 20, "fine", size_pt=9)]])
    found, pages = run([comp])
    bad = not_passed(found, "text at least")
    assert [f.status for f in bad] == [FAIL]
    assert "'tiny'" in bad[0].check and "4.00 pt" in bad[0].check
    number, p = placement(pages, "token", 0)
    assert bad[0].where.card == "card 1"
    assert_inside(bad[0].where, number, p)


def test_text_of_6pt_and_more_passes():
    found, _ = run([card("token", [[Text(5, 20, "six", size_pt=6)], [Text(5, 20, "ten", size_pt=10)]])])
    assert [f.status for f in of(found, "text at least")] == [PASS]


def test_a_005mm_frame_fails_and_a_02mm_frame_passes():
    thin = card("frame", [[Rect(5, 5, 30, 30, stroke="#000000", stroke_width=0.05)]])
    found, pages = run([thin])
    bad = not_passed(found, "lines at least")
    assert [f.status for f in bad] == [FAIL] and "0.050 mm" in bad[0].check
    number, p = placement(pages, "frame", 0)
    assert_inside(bad[0].where, number, p)
    assert bad[0].where.x == pytest.approx(p.x + 5, abs=0.01) and bad[0].where.y == pytest.approx(p.y + 5, abs=0.01)
    found, _ = run([card("frame", [[Rect(5, 5, 30, 30, stroke="#000000", stroke_width=0.2)]])])
    assert [f.status for f in of(found, "lines at least")] == [PASS]


def _png(path, px: int):
    PILImage.fromarray(np.full((px, px, 3), 90, np.uint8)).save(path)
    return str(path)


def test_a_96dpi_picture_fails(tmp_path):
    src = _png(tmp_path / "low.png", 240)  # 240 px over 63.5 mm: 96 dpi
    found, pages = run([card("art", [[Image(0, 0, 63.5, 63.5, src)]], 63.5, 63.5)])
    bad = not_passed(found, "docs/templates.md, Images")
    assert [f.status for f in bad] == [FAIL] and "96 dpi" in bad[0].check and "'low.png'" in bad[0].check
    number, p = placement(pages, "art", 0)
    assert_inside(bad[0].where, number, p)


def test_a_750px_picture_over_63_5mm_is_exactly_300dpi_and_passes(tmp_path):
    src = _png(tmp_path / "exact.png", 750)
    found, _ = run([card("art", [[Image(0, 0, 63.5, 63.5, src)]], 63.5, 63.5)])
    assert [f.status for f in of(found, "docs/templates.md, Images")] == [PASS]
    src = _png(tmp_path / "short.png", 749)  # one pixel less: under 300 dpi, a warning
    found, _ = run([card("art", [[Image(0, 0, 63.5, 63.5, src)]], 63.5, 63.5)])
    assert [f.status for f in not_passed(found, "docs/templates.md, Images")] == [WARN]
