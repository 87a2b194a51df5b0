"""Fonts travel with the SVG: every page with text embeds a font subset covering its characters, cutter
SVGs hold no <text>, and the trope card SVG drawn by a browser that has no Noto Sans matches the PDF."""
from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from pnp.engine import registry
from pnp.pipeline.execute import build_kit

from browser import render_svg_png, require_chromium
from conftest import pdf_of

SVG = "{http://www.w3.org/2000/svg}"


def _font_cmap(root) -> set[str]:
    """The characters the page's @font-face rules draw: of each rule's font, the code points its
    unicode-range (when it declares one) lets the browser take from it."""
    style = "".join(el.text or "" for el in root.iter(f"{SVG}style"))
    rules = re.findall(r"@font-face \{[^{}]*\}", style)
    assert rules, "no embedded @font-face"
    out: set[str] = set()
    for rule in rules:
        m = re.search(r"url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)", rule)
        cmap = set(TTFont(io.BytesIO(base64.b64decode(m.group(1)))).getBestCmap())
        declared = re.search(r"unicode-range: ([^;]+);", rule)
        if declared:
            allowed = set()
            for a, b in re.findall(r"U\+([0-9A-F]+)(?:-([0-9A-F]+))?", declared.group(1)):
                allowed.update(range(int(a, 16), int(b or a, 16) + 1))
            cmap &= allowed
        out |= {chr(c) for c in cmap}
    return out


@pytest.mark.parametrize("game", sorted(registry()))
def test_every_svg_page_with_text_embeds_a_font_covering_its_characters(built, game):
    pages = [p for p in built(game).files if p.suffix == ".svg"]
    assert pages
    for path in pages:
        root = ET.parse(path).getroot()
        text = "".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))
        if not text:
            continue
        missing = set(text) - _font_cmap(root) - {" "}
        assert not missing, f"{path.name}: embedded font lacks {sorted(missing)}"
        families = {el.get("font-family") for el in root.iter(f"{SVG}text")}
        assert all(f.startswith(("'pnp Noto Sans'", "'pnp NotoSans-Bold'")) for f in families)  # bold: its own face


def test_unicode_words_get_their_glyphs_embedded(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("ΛΟΓΟ\nЖИЗН\nÑAND\n", encoding="utf-8")
    result = build_kit("netmatch", out=tmp_path / "o", overrides={"words": words}, formats=("svg",))
    card_page = next(p for p in result.files if p.name.endswith("-p02.svg"))
    assert set("ΛΟΓЖИЗНÑ") <= _font_cmap(ET.parse(card_page).getroot())


@pytest.mark.parametrize("game", ["numeria", "netmatch"])
def test_cutter_svgs_carry_text_as_outlines(tmp_path, game):
    result = build_kit(game, out=tmp_path, formats=("cut-svg",))
    cuts = [p for p in result.files if p.suffix == ".svg"]
    assert cuts
    for path in cuts:
        root = ET.parse(path).getroot()
        assert not list(root.iter(f"{SVG}text")), path.name
        art = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "layer-art")
        assert len(list(art.iter(f"{SVG}path"))) > 0


def _differ(svg, pdf_page, tmp_path, name, w_px, h_px, font_dirs=()) -> float:
    """Share of pixels (0..1) that differ by more than 64 of 255 grey levels between the browser's
    rendering of ``svg`` and PDFium's of ``pdf_page``, both at w_px x h_px and softened by a 1-pixel
    Gaussian blur so that two rasterisers' different anti-aliasing of the same glyph edge is not
    counted, while a missing, substituted or shifted glyph is. ``font_dirs``: the browser's only
    installed fonts (none by default)."""
    from PIL import ImageFilter
    render_svg_png(svg, tmp_path / f"{name}.png", w_px, h_px, font_dirs=font_dirs)
    browser = Image.open(tmp_path / f"{name}.png").convert("L").resize((w_px, h_px))
    pdf = pdf_page.render(scale=w_px / pdf_page.get_width()).to_pil().convert("L").resize((w_px, h_px))
    a, b = (np.asarray(im.filter(ImageFilter.GaussianBlur(1)), dtype=np.int16) for im in (browser, pdf))
    return float(np.mean(np.abs(a - b) > 64))


def _differ_pair(svg, control, pdf, number, tmp_path, w_px, h_px, font_dirs=()) -> tuple[float, float]:
    """_differ of ``svg`` and of ``control`` against page ``number`` (from 1) of the PDF file ``pdf``."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        page = doc[number - 1]
        return (_differ(svg, page, tmp_path, "embedded", w_px, h_px, font_dirs),
                _differ(control, page, tmp_path, "control", w_px, h_px, font_dirs))
    finally:
        doc.close()


def test_trope_card_in_a_browser_without_noto_sans_matches_the_pdf(tmp_path):
    """Chromium with an empty fontconfig (no font installed at all) draws the trope-card SVG from its
    embedded font: at most 2 % of pixels may differ from the PDF page at the same size (8 px/mm). The
    same SVG with its @font-face removed must differ by more, so the comparison can fail."""
    require_chromium("compares the trope card SVG, drawn by a browser with no font installed, with the PDF page")
    result = build_kit("numeria", out=tmp_path, formats=("pdf", "svg"))
    svg = next(p for p in result.files if p.suffix == ".svg" and "Numeria \u2014 tropes" in p.read_text(encoding="utf-8"))
    number = int(re.search(r"-p(\d+)\.svg$", svg.name).group(1))
    bare = tmp_path / "bare.svg"
    bare.write_text(re.sub(r"<style\b.*?</style>", "", svg.read_text(encoding="utf-8"), flags=re.S), encoding="utf-8")
    embedded, control = _differ_pair(svg, bare, pdf_of(result), number, tmp_path, 210 * 8, 297 * 8)
    assert embedded <= 0.02, f"{embedded:.2%} of pixels differ"
    assert control > 0.02, f"without its font the page should differ, but only {control:.2%} of pixels do"


def test_italic_text_in_a_browser_without_noto_sans_matches_the_pdf(tmp_path):
    """A page of italic and upright text (pnp's SVG backend, two @font-face rules) drawn by Chromium
    with no font installed matches PDFium's drawing of the PDF within 2 % of pixels. The control
    sets the italic texts in the upright face: that must differ by more, so the italic face the SVG
    embeds is what the browser used."""
    require_chromium("compares italic text in the SVG, drawn by a browser with no font installed, with the PDF")
    from pnp.core.ir import Page, Text
    from pnp.render.pdf import PdfWriter
    from pnp.render.svg import svg_text

    italic = "NotoSans-Italic"
    page = Page(90, 40, (Text(5, 14, "Lilly lived", size_pt=30, font=italic),
                         Text(85, 34, "quietly", size_pt=30, anchor="end", bold=True, font=italic),
                         Text(5, 34, "up", size_pt=30)), "italic")
    pdf_path = tmp_path / "italic.pdf"
    writer = PdfWriter(pdf_path)
    writer.add(page)
    writer.close()
    svg = tmp_path / "italic.svg"
    svg.write_text(svg_text(page), encoding="utf-8")
    root = ET.parse(svg).getroot()
    slanted = [el for el in root.iter(f"{SVG}text") if el.get("font-style") == "italic"]
    assert [el.text for el in slanted] == ["Lilly lived", "quietly"]
    upright = tmp_path / "upright.svg"
    upright.write_text(svg.read_text(encoding="utf-8").replace("'pnp NotoSans-Italic'", "'pnp Noto Sans'")
                       .replace(' font-style="italic"', ""), encoding="utf-8")
    embedded, control = _differ_pair(svg, upright, pdf_path, 1, tmp_path, 90 * 8, 40 * 8)
    assert embedded <= 0.02, f"{embedded:.2%} of pixels differ"
    assert control > 0.02, f"upright text in place of italic should differ, but only {control:.2%} of pixels do"


def test_symbols_in_a_browser_without_any_font_match_the_pdf(tmp_path):
    """Symbols Noto Sans lacks (≤ ≥ ≠, ♀ ♂, ♠ ♥ ♦ ★) set in pnp's symbol faces (pnp.core.fonts
    FALLBACKS: Noto Sans Math, Symbols, Symbols 2) and drawn by Chromium with no font installed
    match PDFium's drawing of the PDF within 2 % of pixels: the SVG carries the three faces itself.
    The control names Noto Sans for them instead, which has none of these glyphs: it must differ by
    more, so the embedded symbol faces are what the browser drew."""
    require_chromium("compares symbols in the SVG, drawn by a browser with no font installed, with the PDF")
    from pnp.core.ir import Page, Text
    from pnp.render.pdf import PdfWriter
    from pnp.render.svg import svg_text

    page = Page(90, 40, (Text(5, 16, "≤ ≥ ≠", size_pt=30, font="NotoSansMath"),
                         Text(5, 35, "♠♥♦★", size_pt=30, font="NotoSansSymbols2"),
                         Text(85, 35, "♀♂", size_pt=30, anchor="end", font="NotoSansSymbols")), "symbols")
    pdf_path = tmp_path / "symbols.pdf"
    writer = PdfWriter(pdf_path)
    writer.add(page)
    writer.close()
    svg = tmp_path / "symbols.svg"
    text = svg_text(page)
    svg.write_text(text, encoding="utf-8")
    faces = ("NotoSansMath", "NotoSansSymbols", "NotoSansSymbols2")
    assert all(f"'pnp {face}'" in text for face in faces)
    control = tmp_path / "control.svg"
    bare = text
    for face in faces:  # in the texts' font-family attributes only: the @font-face rules stay
        bare = bare.replace(f"font-family=\"'pnp {face}'", "font-family=\"'pnp Noto Sans'")
    assert bare != text
    control.write_text(bare, encoding="utf-8")
    embedded, differs = _differ_pair(svg, control, pdf_path, 1, tmp_path, 90 * 8, 40 * 8)
    assert embedded <= 0.02, f"{embedded:.2%} of pixels differ"
    assert differs > 0.02, f"symbols in Noto Sans should differ, but only {differs:.2%} of pixels do"
