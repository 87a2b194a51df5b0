"""Template text layers with shaped text: ``fit: box`` with ``valign: cap-middle`` and ``underline``
on an Arabic text (its size from HarfBuzz's advances: the run as wide as the box), and ``**bold**``
Arabic drawn in the bold face pnp ships (its name in the PDF, its advances and outlines, not the
regular face's), read back from the PDF (PyMuPDF) and the SVG (an XML parser) and compared with
HarfBuzz's shaping of the same string in the same font file; a face without a bold is named in the
build note."""
from __future__ import annotations

import re
from statistics import mode
import xml.etree.ElementTree as ET
from pathlib import Path

import pymupdf
import pytest
from fontTools.ttLib import TTFont

from conftest import pdf_of
from test_custom_templates import _kit
from test_rules_scripts import SHIPPED, _drawn_as, _inked_in
from test_shaping import HREF, SVG, _card_origin, _hb, _svg_glyph
from pnp.core import fonts
from pnp.core.units import MM_PER_PT
from pnp.pipeline.execute import build_kit

BOXED = "أهلا بالعالم"
BOLD_WORD, REST = "مرحبا", "بالعالم"
HEBREW = "שלום"
SPEC = """title: Boxes
components:
  - name: card
    size: [90mm, 60mm]
    data: cards.csv
    front: front.yaml
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: rect, x: 5, y: 5, w: 80, h: 50, fill: "#fff8e0"}
  - {type: text, text: "{boxed}", x: 5, y: 5, w: 80, h: 20, size: 60, min_size: 6, fit: box, valign: cap-middle,
     underline: true, colour: "#102030"}
  - {type: text, text: "{bold}", x: 5, y: 30, w: 80, h: 12, size: 16}
  - {type: text, text: "{hebrew}", x: 5, y: 43, w: 80, h: 12, size: 16}
"""
ARABIC_BOLD = SHIPPED / "NotoSansArabic-Bold.ttf"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    root = tmp_path_factory.mktemp("shaped-layers")
    folder = _kit(root / "boxes", SPEC, {"front.yaml": FRONT, "cards.csv": f"boxed,bold,hebrew\n{BOXED},"
                                         f"**{BOLD_WORD}** {REST},**{HEBREW}** עולם\n"})
    result = build_kit(str(folder), out=root / "out", formats=("pdf", "svg"))
    doc = pymupdf.open(str(pdf_of(result)))
    svg = sorted(p for p in result.files if p.suffix == ".svg")[-1]
    yield doc[-1], svg, result.notes
    doc.close()


def _cap_height(path: Path) -> float:
    tt = TTFont(str(path))
    return tt["OS/2"].sCapHeight / tt["head"].unitsPerEm


def test_an_arabic_text_fits_its_box_by_harfbuzz_advances_centred_on_its_caps_and_underlined(kit):
    page, _, _ = kit
    x0, y0 = _card_origin(page)
    arabic = fonts.face("NotoSansArabic").path
    advance = sum(a for _, _, a in _hb(BOXED, arabic))  # 1/1000 em
    size = 80 / (advance / 1000 * MM_PER_PT)  # the size at which the run is the box's 80 mm: width decides here
    assert size * MM_PER_PT * _cap_height(fonts.face("NotoSans").path) < 20  # (the caps fit the height)
    glyphs = _drawn_as(page, BOXED, arabic, size)
    left, right = glyphs[0][1] - _hb(BOXED, arabic)[0][1] * size * MM_PER_PT / 1000, glyphs[-1][1] + glyphs[-1][3]
    assert left == pytest.approx(x0 + 5, abs=0.02) and right == pytest.approx(x0 + 85, abs=0.02)
    cap = _cap_height(fonts.face("NotoSans").path) * size * MM_PER_PT
    baseline = mode(round(y, 3) for _, _, y, _ in glyphs)  # marks are offset from it; most glyphs sit on it
    assert baseline == pytest.approx(y0 + 5 + 10 + cap / 2, abs=0.02)  # the caps centred on the box's middle
    rules = [(item[1], item[2]) for d in page.get_drawings() for item in d["items"]
             if item[0] == "l" and d.get("color") and abs(d["color"][0] - 0x10 / 255) < 0.01]
    assert len(rules) == 1, "one underline under the line"
    a, b = rules[0]
    assert a.y * MM_PER_PT == pytest.approx(baseline + 0.12 * size * MM_PER_PT, abs=0.02)
    assert sorted((a.x * MM_PER_PT, b.x * MM_PER_PT)) == pytest.approx([x0 + 5, x0 + 85], abs=0.02)


def test_bold_arabic_is_drawn_in_the_bold_face(kit):
    page, _, _ = kit
    regular = fonts.face("NotoSansArabic").path
    assert TTFont(str(ARABIC_BOLD))["OS/2"].usWeightClass == 700
    bold_adv = [a for _, _, a in _hb(BOLD_WORD, ARABIC_BOLD)]
    assert bold_adv != [a for _, _, a in _hb(BOLD_WORD, regular)], "the weights shape the word alike: no test"
    glyphs = _drawn_as(page, BOLD_WORD, ARABIC_BOLD, 16)  # by the font named NotoSansArabic-Bold, its advances
    assert len(glyphs) == len(bold_adv)
    _drawn_as(page, REST, regular, 16)  # the rest of the line regular
    names = {f[3].split("+")[-1] for f in page.get_fonts()}
    assert "NotoSansArabic-Bold" in names and TTFont(str(ARABIC_BOLD))["name"].getDebugName(6) == "NotoSansArabic-Bold"


def test_the_svg_draws_the_same_glyphs_in_the_same_faces(kit):
    page, svg, _ = kit
    root = ET.parse(svg).getroot()
    paths = {el.get("id"): el.get("d") for el in root.iter(f"{SVG}path") if el.get("id")}
    arabic = fonts.face("NotoSansArabic").path
    for text, face, file in ((BOXED, "NotoSansArabic", arabic), (BOLD_WORD, "NotoSansArabic-Bold", ARABIC_BOLD),
                             (REST, "NotoSansArabic", arabic)):
        group = next(g for g in root.iter(f"{SVG}g") if g.get("aria-label") == text)
        uses = list(group.iter(f"{SVG}use"))
        inked = _inked_in(file)
        want = [(g, x) for g, x, _ in _hb(text, file) if inked(g)]
        assert len(uses) == len(want), f"{text!r}: {len(uses)} glyphs drawn, HarfBuzz shapes {len(want)}"
        start = float(uses[0].get("x")) - want[0][1]
        outlines = []
        for use, (gid, x) in zip(uses, want):
            assert float(use.get("x")) == pytest.approx(start + x, abs=0.01)
            ref = next(use.get(h) for h in HREF if use.get(h))
            assert paths[ref[1:]] == _svg_glyph(face, gid)
            outlines.append(paths[ref[1:]])
        if face.endswith("-Bold"):  # not the regular face's outlines
            assert outlines != [_svg_glyph("NotoSansArabic", gid) for gid, _ in want]
    boxed = next(g for g in root.iter(f"{SVG}g") if g.get("aria-label") == BOXED)
    scale = float(re.search(r"scale\(([0-9.e-]+)\)", boxed.get("transform")).group(1))
    advance = sum(a for _, _, a in _hb(BOXED, arabic))
    assert scale * advance == pytest.approx(80, abs=0.02)  # the run as wide as the box in the SVG too
    assert any(el.get("stroke") == "#102030" for el in root.iter(f"{SVG}line"))  # the underline


def test_a_face_without_bold_is_named_in_the_build_note(kit):
    _, _, notes = kit
    assert any("Noto Sans Hebrew has no bold face" in n for n in notes), notes
    assert not any("Noto Sans Arabic has no bold" in n for n in notes)


def test_marked_up_latin_text_fits_a_box_with_each_face_s_advances():
    """``fit: box`` on rich text: a bold word and a regular one, one line as wide as the box, the
    bold word measured in Noto Sans Bold (reportlab's own widths of each file, read here)."""
    from reportlab.pdfbase.ttfonts import TTFont as RLFont
    from pnp import text as richtext
    got = richtext.fit_box(richtext.parse("**LEAF** tree"), 200, 4, 60, 30, 1.2)
    bold = RLFont("probe-bold", str(SHIPPED / "NotoSans-Bold.ttf")).stringWidth("LEAF", 10)
    regular = RLFont("probe-regular", str(fonts.face("NotoSans").path)).stringWidth(" tree", 10)
    assert got is not None and len(got.lines) == 1
    assert got.size_pt == pytest.approx(10 * 60 / ((bold + regular) * MM_PER_PT), rel=1e-6)
    assert got.lines[0].width == pytest.approx(60, abs=1e-6)
