"""Text layers' fit: box, valign: cap-middle and underline: true, measured in the PDF: a planted long
word fills the safe area's width and stays inside it, capitals are centred on the box to a tenth of
a millimetre (ink measured in a rendering), an underline is ruled under its text only (bad values
and combinations: tests/bad_input/test_custom_bad_input.py)."""
from __future__ import annotations

import pymupdf as fitz
import pytest

from conftest import build_kit, open_pdf, pdf_of
from pnp.core.units import MM_PER_PT
from test_custom_templates import CARD_SPEC, _kit

LONG = "SUPERCALIFRAGILISTICEXPIALIDOCIOUS"
SPEC = CARD_SPEC.replace('    back: "{back}.yaml"\n', "")  # one 50 x 70 mm card per row of cards.csv, no back
# the word in the safe area's width (3 mm inside each side), its capitals centred 20 mm from the top;
# a second line whose underline depends on the row
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: text, text: "{word}", x: 3mm, y: 10mm, w: 100% - 6mm, h: 20mm, size: 200, min_size: 2, fit: box,
     align: center, valign: cap-middle, markup: false}
  - {name: mark, type: text, text: "{mark}", x: 3mm, y: 40mm, w: 44mm, h: 10mm, size: 20, align: center,
     valign: cap-middle, markup: false, when: {column: ruled, equals: "no"}}
  - {extends: mark, underline: true, when: {column: ruled, equals: "yes"}}
"""
CSV = f"word,mark,ruled\nHH,6,yes\n{LONG},8,no\nHILL,9,yes\n"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    root = tmp_path_factory.mktemp("fitbox")
    folder = _kit(root / "kit", SPEC, {"front.yaml": FRONT, "cards.csv": CSV})
    return build_kit(str(folder), out=root / "out", formats=("pdf",))


def _cards(page) -> list[tuple[float, float]]:
    """The top-left corners (mm, y down) of the white 50 x 70 mm cards on a pymupdf page."""
    out = []
    for d in page.get_drawings():
        r = d["rect"]
        if d.get("fill") == (1.0, 1.0, 1.0) and abs(r.width * MM_PER_PT - 50) < 0.05 and abs(r.height * MM_PER_PT - 70) < 0.05:
            out.append((r.x0 * MM_PER_PT, r.y0 * MM_PER_PT))
    return sorted(set((round(x, 3), round(y, 3)) for x, y in out))


def _words(page) -> dict[str, tuple[float, float, float, float, float]]:
    """Each word on the page: (x0, x1, baseline y, size pt, first glyph's origin x) in mm."""
    out = {}
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                chars = span["chars"]
                text = "".join(c["c"] for c in chars)
                if text.strip():
                    out[text] = (chars[0]["bbox"][0] * MM_PER_PT, chars[-1]["bbox"][2] * MM_PER_PT,
                                 chars[0]["origin"][1] * MM_PER_PT, span["size"], chars[0]["origin"][0] * MM_PER_PT)
    return out


def _card_page(doc):
    return next(p for p in doc if _cards(p))


def test_a_planted_long_word_fills_the_safe_area_and_stays_inside(kit):
    with fitz.open(pdf_of(kit)) as doc:
        page = _card_page(doc)
        cards = _cards(page)
        x0, x1, base, size, _ = _words(page)[LONG]
    (cx, _), = [c for c in cards if c[0] <= x0 <= c[0] + 50 and c[1] <= base <= c[1] + 70]
    assert cx + 3 - 0.05 <= x0 and x1 <= cx + 47 + 0.05  # inside the safe area, 3 mm in from each side
    assert x1 - x0 > 44 - 0.5                              # and as wide as it allows: any size, not a step
    assert 2 < size < 20


def test_capitals_are_centred_on_the_box_middle(kit):
    with fitz.open(pdf_of(kit)) as doc:
        page = _card_page(doc)
        (cx, cy) = next(c for c in _cards(page) if abs(_words(page)["HH"][4] - (c[0] + 25)) < 25)
        dpi = 600
        clip = fitz.Rect(cx / MM_PER_PT, cy / MM_PER_PT, (cx + 50) / MM_PER_PT, (cy + 40) / MM_PER_PT)
        pix = page.get_pixmap(dpi=dpi, clip=clip, colorspace=fitz.csGRAY)
    per_mm = dpi / 25.4
    ink = [y for y in range(pix.height) for x in range(0, pix.width, 2) if pix.pixel(x, y)[0] < 128]
    top, bottom = min(ink) / per_mm, (max(ink) + 1) / per_mm
    assert abs((top + bottom) / 2 - 20.0) < 0.1           # box 10..30 mm: its middle 20 mm from the card top
    assert bottom - top > 19.0                             # "HH" is as tall as the box lets it be (cap height 20 mm)


def test_underline_is_ruled_under_its_text_only(kit):
    with open_pdf(pdf_of(kit)) as pdf:
        page = next(p for p in pdf.pages if any(w["text"] == "8" for w in p.extract_words()))
        marks = {w["text"]: w for w in page.extract_words() if w["text"] in ("6", "8", "9")}
        rules = [ln for ln in page.lines + page.rects if abs(ln["top"] - ln["bottom"]) < 3]
    assert set(marks) == {"6", "8", "9"}
    ruled = set()
    for text, w in marks.items():
        for ln in rules:  # a rule just below the glyphs' baseline, as wide as the glyph
            if abs(ln["x0"] - w["x0"]) < 0.5 and abs(ln["x1"] - w["x1"]) < 0.5 and w["top"] < ln["top"] < w["bottom"] + 2:
                ruled.add(text)
    assert ruled == {"6", "9"}
