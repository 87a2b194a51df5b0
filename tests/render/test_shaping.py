"""Complex scripts drawn as HarfBuzz shapes them: the glyphs pnp draws in the PDF (glyph ids and
positions read back with PyMuPDF's text trace) and in the SVG (the ``<use>`` of each glyph, read
with an XML parser) are HarfBuzz's shaping of the same run with the same font file, shaped here with
uharfbuzz directly; a right-to-left line keeps its number and Latin word left to right; the SVG in
Chromium (no font installed) matches the PDF page in PDFium."""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pymupdf
import pytest
import uharfbuzz as hb
from fontTools.ttLib import TTFont

from conftest import pdf_of
from test_custom_templates import _kit
from pnp.core import fonts
from pnp.core.units import MM_PER_PT
from pnp.pipeline.execute import build_kit

SVG = "{http://www.w3.org/2000/svg}"
HREF = ("href", "{http://www.w3.org/1999/xlink}href")
ARABIC = "مرحبا بالعالم"
HEBREW = "שלום עולם"
HINDI = "नमस्ते क्षत्रिय दुनिया"
MIXED = "في عام 2024 لعبنا Catan معا"
SPEC = """title: Scripts
fonts: {Hebrew: NotoSansHebrew-Regular.ttf}
components:
  - name: card
    size: [90mm, 60mm]
    data: cards.csv
    front: front.yaml
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: rect, x: 5, y: 5, w: 80, h: 50, fill: "#fff8e0"}
  - {type: text, text: "{arabic}", x: 5, y: 5, w: 80, h: 12, size: 16}
  - {type: text, text: "{hebrew}", x: 5, y: 18, w: 80, h: 12, size: 16, font: Hebrew}
  - {type: text, text: "{hindi}", x: 5, y: 30, w: 80, h: 12, size: 16}
  - {type: text, text: "{mixed}", x: 5, y: 42, w: 80, h: 12, size: 16}
"""
FEATURES = {"kern": True, "liga": True, "dlig": True}  # reportlab's shaping features (its shapeFragWord)


def _hb(text: str, path: Path) -> list[tuple[int, float, float]]:
    """(glyph id, pen x + x offset, advance) of each glyph HarfBuzz shapes ``text`` into, em/1000."""
    face = hb.Face(hb.Blob(path.read_bytes()))
    font = hb.Font(face)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf, FEATURES)
    k, pen, out = 1000 / face.upem, 0.0, []
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        out.append((info.codepoint, (pen + pos.x_offset) * k, pos.x_advance * k))
        pen += pos.x_advance
    return out


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    root = tmp_path_factory.mktemp("scripts")
    folder = _kit(root / "scripts", SPEC, {"front.yaml": FRONT,
                                            "cards.csv": f"arabic,hebrew,hindi,mixed\n{ARABIC},{HEBREW},{HINDI},{MIXED}\n"})
    shutil.copy(fonts.face("NotoSansHebrew").path, folder / "NotoSansHebrew-Regular.ttf")
    result = build_kit(str(folder), out=root / "out", formats=("pdf", "svg"))
    doc = pymupdf.open(str(pdf_of(result)))
    page = doc[-1]
    svg = sorted(p for p in result.files if p.suffix == ".svg")[-1]
    yield page, svg
    doc.close()


def _font_file(name: str) -> Path:
    return fonts.face(name).path


FACES = {"Arabic": "NotoSansArabic", "Hebrew": "NotoSansHebrew", "Devanagari": "NotoSansDevanagari"}


PRIVATE = "private"


def _cmap(face: str) -> dict[int, int]:
    tt = TTFont(str(_font_file(face)))
    order = {name: i for i, name in enumerate(tt.getGlyphOrder())}
    return {u: order[name] for u, name in tt.getBestCmap().items()}


def _traces(page, face: str | None = None):
    """(PostScript font name, [(glyph, origin x mm, origin y mm)]) per text run drawn, in stream
    order. The PDF holds subsets, whose glyph ids are their own: each glyph is read back as the
    character its ToUnicode map gives, then as that character's glyph id in the font file; a shaped
    glyph that no character maps to is written with a private-use character (reportlab's shaping)
    and read back as PRIVATE."""
    out = []
    for s in page.get_texttrace():
        cmap = _cmap(face or next((f for part, f in FACES.items() if part in s["font"]), "NotoSans"))
        out.append((s["font"], [(PRIVATE if 0xE000 <= c[0] <= 0xF8FF else cmap.get(c[0], -1), c[2][0] * MM_PER_PT,
                                 c[2][1] * MM_PER_PT) for c in s["chars"]]))
    return out


def _run_glyphs(page, face: str, y_from: float, y_to: float):
    """The glyphs drawn with baselines between y_from and y_to mm, read back as glyphs of ``face``.
    (The Devanagari font names itself NotoSans-Regular, so runs are told apart by where they are.)"""
    return [g for _, glyphs in _traces(page, face) for g in glyphs if y_from <= g[2] <= y_to]


def _card_origin(page) -> tuple[float, float]:
    boxes = [d["rect"] for d in page.get_drawings() if d.get("fill") and
             all(abs(a - b) < 0.01 for a, b in zip(d["fill"], (1.0, 0xf8 / 255, 0xe0 / 255)))]
    r = boxes[0]
    return r.x0 * MM_PER_PT - 5, r.y0 * MM_PER_PT - 5


DEVANAGARI = "NotoSans" if ord("न") in fonts.face("NotoSans").cmap else "NotoSansDevanagari"
"""The face Hindi is set in: Noto Sans itself when it draws Devanagari (its newer versions do), else the fallback."""


@pytest.mark.parametrize("text, face, row", [(ARABIC, "NotoSansArabic", 0), (HEBREW, "NotoSansHebrew", 1),
                                             (HINDI, DEVANAGARI, 2)])
def test_the_pdf_draws_the_glyphs_harfbuzz_shapes(kit, text, face, row):
    page, _ = kit
    x0, y0 = _card_origin(page)
    top = y0 + 5 + 12.5 * row
    drawn = _run_glyphs(page, face, top, top + 12)
    want = _hb(text, _font_file(face))
    mapped = set(_cmap(face).values())
    assert [g for g, _, _ in drawn] == [g if g in mapped else PRIVATE for g, _, _ in want], f"{face}: glyphs differ"
    assert sum(g == PRIVATE for g, _, _ in drawn) < len(drawn) / 2  # most glyphs are told by their character
    size_mm = 16 * MM_PER_PT
    start = drawn[0][1] - want[0][1] * size_mm / 1000
    for (gid, x, _), (_, wx, _) in zip(drawn, want):
        assert x == pytest.approx(start + wx * size_mm / 1000, abs=0.01), f"{face}: glyph {gid} misplaced"
    if face == DEVANAGARI:  # left to right: from the box's left edge
        assert start == pytest.approx(x0 + 5, abs=0.05)
    else:  # right to left: aligned to the right edge of the box
        width = sum(a for _, _, a in want) * size_mm / 1000
        assert start + width == pytest.approx(x0 + 85, abs=0.05)


def test_a_right_to_left_line_keeps_its_number_and_latin_word_in_order(kit):
    page, _ = kit
    x0, y0 = _card_origin(page)
    top = y0 + 42
    arabic = [g for font, glyphs in _traces(page) if "Arabic" in font for g in glyphs if top <= g[2] <= top + 12]
    latin = [g for font, glyphs in _traces(page) if "Arabic" not in font for g in glyphs if top <= g[2] <= top + 12]
    # the Latin word, in Noto Sans, reads left to right
    latin_gids = [g for g, _, _ in sorted(latin, key=lambda g: g[1])]
    assert latin_gids == [g for g, _, _ in _hb("Catan", _font_file("NotoSans"))]
    # the number, in the Arabic face, left to right: its glyphs are HarfBuzz's for "2024", in that order
    digits = [g for g, _, _ in _hb("2024", _font_file("NotoSansArabic"))]
    run = sorted((g for g in arabic if g[0] in digits), key=lambda g: g[1])
    assert [g for g, _, _ in run] == digits
    # right to left between the runs: "2024" (earlier in the text) right of "Catan" (later)
    assert min(x for _, x, _ in run) > max(x for _, x, _ in latin)
    # every other Arabic glyph of the line is one HarfBuzz makes of its Arabic words, as many of them
    font = _font_file("NotoSansArabic")
    mapped, space = set(_cmap("NotoSansArabic").values()), _hb(" ", font)[0][0]
    words = [g for w in ("في", "عام", "لعبنا", "معا") for g, _, _ in _hb(w, font)]
    assert sorted(str(g) for g, _, _ in arabic if g not in digits and g != space) == sorted(
        str(g if g in mapped else PRIVATE) for g in words)
    assert max(x for _, x, _ in arabic) < x0 + 85  # right-aligned: nothing past the box


def test_the_svg_places_the_same_glyphs(kit):
    page, svg = kit
    root = ET.parse(svg).getroot()
    paths = {el.get("id"): el.get("d") for el in root.iter(f"{SVG}path") if el.get("id")}
    for text, face in ((ARABIC, "NotoSansArabic"), (HEBREW, "NotoSansHebrew"), (HINDI, DEVANAGARI)):
        group = next(g for g in root.iter(f"{SVG}g") if g.get("aria-label") == text)
        uses = list(group.iter(f"{SVG}use"))
        inked = _inked(face)
        want = [(g, x) for g, x, _ in _hb(text, _font_file(face)) if inked(g)]
        assert len(uses) == len(want), f"{face}: {len(uses)} glyphs drawn, HarfBuzz shapes {len(want)}"
        start = float(uses[0].get("x")) - want[0][1]
        for use, (gid, x) in zip(uses, want):
            assert float(use.get("x")) == pytest.approx(start + x, abs=0.01)
            ref = next(use.get(h) for h in HREF if use.get(h))
            assert paths[ref[1:]] == _svg_glyph(face, gid)  # the outline of that very glyph
        scale = float(re.search(r"scale\(([0-9.]+)\)", group.get("transform")).group(1))
        assert scale == pytest.approx(16 * MM_PER_PT / 1000, rel=1e-3)


def _inked(face: str):
    tt = TTFont(str(_font_file(face)))
    order, glyf = tt.getGlyphOrder(), tt["glyf"]
    return lambda gid: glyf[order[gid]].numberOfContours != 0


def _svg_glyph(face: str, gid: int) -> str:
    from pnp.render.svgfont import glyph_path
    return glyph_path(face, gid)


def test_chromium_draws_the_svg_page_as_pdfium_draws_the_pdf(kit, tmp_path):
    """Within the card, pixels that differ by more than 64 grey levels (after a 1-pixel blur) are at
    most 2 % of the PDF's inked pixels. The control, each shaped run's glyphs in reverse order, must
    differ by over 10 %, so the comparison can fail."""
    from browser import differing_ink, require_chromium
    require_chromium("compares shaped Arabic, Hebrew and Devanagari drawn by a browser with the PDF")
    page, svg = kit
    text = svg.read_text(encoding="utf-8")

    def reverse(m):  # the x positions of a run's glyphs mirrored: the letters in the wrong order
        xs = [float(x) for x in re.findall(r' x="([-0-9.]+)"', m.group(0))]
        top = max(xs) + min(xs)
        return re.sub(r' x="([-0-9.]+)"', lambda n: f' x="{top - float(n.group(1)):.4f}"', m.group(0))
    control = tmp_path / "control.svg"
    control.write_text(re.sub(r'<g aria-label="[^"]*"[^>]*>.*?</g>', reverse, text, flags=re.S), encoding="utf-8")
    x0, y0 = _card_origin(page)
    shares = differing_ink(page.parent.name, page.number, (svg, control), [(x0 + 5, y0 + 5, x0 + 85, y0 + 55)], 8,
                           tmp_path)
    print(f"differing pixels per inked pixel on the card: {shares[0]:.2%} (control {shares[1]:.2%})")
    assert shares[0] <= 0.02, f"{shares[0]:.2%} of the card's pixels differ"
    assert shares[1] > 0.1, f"with the glyphs reversed only {shares[1]:.2%} differ"
