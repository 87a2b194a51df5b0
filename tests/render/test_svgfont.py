"""Fonts that travel with SVG output (pnp/render/svgfont.py): the embedded Noto Sans subset, glyph
outlines for cutter SVGs, and a headless-browser check that the embedded font makes an SVG look
like the PDF on a machine without Noto Sans."""
from __future__ import annotations

import base64
import io
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.recordingPen import RecordingPen
from fontTools.pens.transformPen import TransformPen
from fontTools.svgLib.path import parse_path
from fontTools.ttLib import TTFont

from pnp.core.fontbook import FontBook
from pnp.core.fonts import BOLD_FACE, CAP_HEIGHT, FONT_NAME, font_path, styled_face, text_width_mm, ttfont
from pnp.render import svgfont
from pnp.render.svgfont import FAMILY, css_family, font_face_css, subset_font, text_outline_path

PT = 25.4 / 72.0  # mm per point
SVG_NS = "http://www.w3.org/2000/svg"
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))


def _face_font(css: str) -> TTFont:
    """The font inside an @font-face rule's data: URL."""
    m = re.search(r"url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\) format\('woff2'\)", css)
    assert m, css[:200]
    return TTFont(io.BytesIO(base64.b64decode(m.group(1))))


def _bounds(d: str) -> tuple[float, float, float, float]:
    pen = BoundsPen(None)
    parse_path(d, pen)
    assert pen.bounds is not None
    return pen.bounds


@pytest.fixture(scope="module")
def full_font() -> TTFont:
    return TTFont(str(font_path()))


# --- the @font-face subset -------------------------------------------------------------------------

@pytest.mark.parametrize("chars", [ASCII, "Hello", "Ελληνικά Кириллица", "Zug—Straße"])
def test_subset_cmap_is_exactly_the_characters(chars):
    css = font_face_css(chars)
    assert css.startswith("@font-face {") and f"font-family: '{FAMILY}'" in css and "font-weight: 400" in css
    font = _face_font(css)
    assert set(font.getBestCmap()) == {ord(c) for c in chars} | {0x20}
    assert font.getGlyphOrder()[0] == ".notdef"
    # a static instance with no shaping tables: the browser advances glyphs as reportlab does
    for tag in ("fvar", "gvar", "HVAR", "MVAR", "GSUB", "GPOS", "GDEF"):
        assert tag not in font


def test_subset_ignores_characters_the_font_lacks():
    font = _face_font(font_face_css("a中b"))
    assert set(font.getBestCmap()) == {ord("a"), ord("b"), 0x20}


def test_subset_glyphs_and_advances_are_the_fonts(full_font):
    font = _face_font(font_face_css("Hgé"))
    cmap_full, cmap_sub = full_font.getBestCmap(), font.getBestCmap()
    for ch in "Hgé":
        full, sub = cmap_full[ord(ch)], cmap_sub[ord(ch)]
        assert font["hmtx"][sub][0] == full_font["hmtx"][full][0]
        a, b = BoundsPen(full_font.getGlyphSet()), BoundsPen(font.getGlyphSet())
        full_font.getGlyphSet()[full].draw(a)
        font.getGlyphSet()[sub].draw(b)
        assert a.bounds == b.bounds
    assert "Open Font License" in font["name"].getDebugName(13)  # the OFL travels with the font


@pytest.mark.parametrize("face", [FONT_NAME, "NotoSansArabic"])
def test_subset_check_accepts_the_subset_and_refuses_one_glyph_moved(face):
    """subset_matches, which reads glyphs by number: the subset subset_font makes passes; the same
    subset with one glyph's outline moved by one unit, or for other characters, does not."""
    from pnp.core.fonts import fallback_faces
    if face not in (FONT_NAME, *fallback_faces()):
        pytest.skip(f"{face} is not installed")
    chars = "Hello" if face == FONT_NAME else "\u0633\u0644\u0627\u0645"
    data = subset_font(chars, face=face)
    assert svgfont.subset_matches(data, chars, face)
    assert not svgfont.subset_matches(data, chars + "1", face)
    moved = TTFont(io.BytesIO(data))
    glyph = moved["glyf"][moved.getBestCmap()[ord(chars[-1])]]
    glyph.coordinates.translate((0, 1))
    buf = io.BytesIO()
    moved.flavor = "woff2"
    moved.save(buf)
    assert not svgfont.subset_matches(buf.getvalue(), chars, face)
    assert not svgfont.subset_matches(b"wOF2 no font", chars, face)


def test_subset_is_deterministic_and_kept_per_font_book():
    """The @font-face rule for a set of characters is kept by its font book (one per build) for the
    same set in any order, made again by a new book with the same bytes, and the same in a fresh
    interpreter (nothing kept from this one: no dependence on set or hash order)."""
    with FontBook().in_use() as book:
        first = font_face_css(ASCII)
        assert font_face_css(reversed(ASCII)) is first  # kept by the set of characters
        assert book.made["subset"] == 1
    with FontBook().in_use() as book:  # a new build's book: made again, the same bytes
        again = font_face_css(ASCII)
        assert book.made["subset"] == 1
    assert first == again and first is not again
    script = "import sys; from pnp.render.svgfont import font_face_css; sys.stdout.write(font_face_css(sys.argv[1]))"
    proc = subprocess.run([sys.executable, "-c", script, ASCII[::-1]], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == first and "@font-face" in first
    assert font_face_css(["Hel", "lo"]) == font_face_css("Hello")
    assert subset_font(ASCII) == subset_font(sorted(ASCII))


def test_subset_is_small():
    assert len(subset_font(ASCII)) < 8000  # measured 5,272 bytes of WOFF2 (fontTools 4.68)
    assert len(subset_font("Hello")) < 1500


def test_bold_face_is_a_wght_700_instance(full_font):
    css = font_face_css("Hello", bold=True)
    assert "font-weight: 700" in css
    bold = _face_font(css)
    regular = _face_font(font_face_css("Hello"))
    name = bold.getBestCmap()[ord("H")]
    assert bold["hmtx"][name][0] > regular["hmtx"][name][0]  # a true bold is wider than the layout's widths
    assert "fvar" not in bold


# --- outlines ---------------------------------------------------------------------------------------

def _glyph_box(full_font, ch):
    g = full_font["glyf"][full_font.getBestCmap()[ord(ch)]]
    return g.xMin, g.yMin, g.xMax, g.yMax


def test_outline_hello_width_and_anchors(full_font):
    size_pt, x, y = 20.0, 30.0, 50.0
    text = "Hello"
    size = size_pt * PT
    scale = size / full_font["head"].unitsPerEm
    width = text_width_mm(text, size_pt)
    cmap, hmtx = full_font.getBestCmap(), full_font["hmtx"]
    # reportlab's width is the fonts' advances, unkerned
    assert width == pytest.approx(sum(hmtx[cmap[ord(c)]][0] for c in text) * scale, abs=1e-9)
    lsb = _glyph_box(full_font, "H")[0]
    rsb = hmtx[cmap[ord("o")]][0] - _glyph_box(full_font, "o")[2]
    ymax = max(_glyph_box(full_font, c)[3] for c in text)
    ymin = min(_glyph_box(full_font, c)[1] for c in text)

    x0, y0, x1, y1 = _bounds(text_outline_path(text, size_pt, x, y, "start", "baseline", 0))
    assert x1 - x0 == pytest.approx(width - (lsb + rsb) * scale, abs=0.3)
    assert x1 - x0 == pytest.approx(width - (lsb + rsb) * scale, abs=0.003)
    assert x0 == pytest.approx(x + lsb * scale, abs=0.002)
    assert (y0, y1) == pytest.approx((y - ymax * scale, y - ymin * scale), abs=0.002)  # y down

    mx0, my0, mx1, my1 = _bounds(text_outline_path(text, size_pt, x, y, "middle", "baseline", 0))
    assert mx0 == pytest.approx(x - width / 2 + lsb * scale, abs=0.002)  # the advance box is centred on x
    assert mx1 == pytest.approx(x + width / 2 - rsb * scale, abs=0.002)
    assert (my0, my1) == pytest.approx((y0, y1), abs=0.001)

    ex0, _, ex1, _ = _bounds(text_outline_path(text, size_pt, x, y, "end", "baseline", 0))
    assert ex1 == pytest.approx(x - rsb * scale, abs=0.002)
    assert ex1 - ex0 == pytest.approx(x1 - x0, abs=0.002)


def test_outline_valign_middle_centres_the_cap_height(full_font):
    size_pt, x, y = 24.0, 10.0, 10.0
    size = size_pt * PT
    h_top = _glyph_box(full_font, "H")[3] / full_font["head"].unitsPerEm
    assert h_top == pytest.approx(CAP_HEIGHT, abs=0.001)
    _, top, _, bottom = _bounds(text_outline_path("H", size_pt, x, y, "middle", "middle", 0))
    assert top == pytest.approx(y - CAP_HEIGHT * size / 2, abs=0.002)
    assert bottom == pytest.approx(y + CAP_HEIGHT * size / 2, abs=0.002)


def test_outline_advances_are_reportlabs():
    """Each glyph sits where reportlab's advance widths put it: the outline of a text is the outlines
    of its characters, each set at the width of the text before it."""
    text, size_pt, x, y = "Wavy kerning: AV To.", 11.0, 12.5, 40.0
    whole = RecordingPen()
    parse_path(text_outline_path(text, size_pt, x, y), whole)
    parts = RecordingPen()
    for i, ch in enumerate(text):
        parse_path(text_outline_path(ch, size_pt, x + text_width_mm(text[:i], size_pt), y), parts)
    assert [op for op, _ in whole.value] == [op for op, _ in parts.value]
    a = np.array([c for _, pts in whole.value for p in pts for c in p])
    b = np.array([c for _, pts in parts.value for p in pts for c in p])
    assert np.abs(a - b).max() <= 0.0015


@pytest.mark.parametrize("angle", [90, -90, 30, 180])
def test_outline_rotation_is_clockwise_about_the_anchor(angle):
    x, y = 50.0, 60.0
    plain = text_outline_path("Rot", 12, x, y, "middle", "middle", 0)
    turned = text_outline_path("Rot", 12, x, y, "middle", "middle", angle)
    t = math.radians(angle)
    c, s = math.cos(t), math.sin(t)
    # SVG's rotate(angle) about (x, y), y down: clockwise on the page
    expected = RecordingPen()
    parse_path(plain, TransformPen(expected, (c, s, -s, c, x - c * x + s * y, y - s * x - c * y)))
    got = RecordingPen()
    parse_path(turned, got)
    assert [op for op, _ in got.value] == [op for op, _ in expected.value]
    a = np.array([v for _, pts in got.value for p in pts for v in p])
    b = np.array([v for _, pts in expected.value for p in pts for v in p])
    assert np.abs(a - b).max() <= 0.003
    if angle == 90:  # text running down the page
        x0, y0, x1, y1 = _bounds(turned)
        assert y1 - y0 > x1 - x0


def test_outline_rounding_and_refusals():
    d = text_outline_path("Ag", 9.5, 1 / 3, 2 / 3, "end", "middle", 17, font=BOLD_FACE)
    numbers = re.findall(r"-?\d+(?:\.\d+)?", d)
    assert numbers and all(len(n.split(".")[1]) <= 3 for n in numbers if "." in n)
    assert "e" not in d.lower()  # no exponents
    assert text_outline_path("A", 10, 0, 0, font=BOLD_FACE) != text_outline_path("A", 10, 0, 0)  # its own glyphs
    assert text_outline_path("   ", 10, 0, 0) == ""
    with pytest.raises(ValueError, match="cannot draw"):
        text_outline_path("日本", 10, 0, 0)
    with pytest.raises(ValueError):
        text_outline_path("x", 10, 0, 0, anchor="left")


def _outline_svg(lines, width_mm, height_mm) -> str:
    """A cutter-style SVG page: every line of text as a filled path, bold ones in the bold face."""
    parts = [f'<svg xmlns="{SVG_NS}" width="{width_mm}mm" height="{height_mm}mm" '
             f'viewBox="0 0 {width_mm} {height_mm}">']
    for x, y, text, size_pt, anchor, valign, bold in lines:
        d = text_outline_path(text, size_pt, x, y, anchor, valign, 0, font=styled_face(FONT_NAME, bold))
        parts.append(f'<path d="{d}" fill="#000000"/>')
    parts.append("</svg>")
    return "".join(parts)


LINES = [  # x, y mm, text, size pt, anchor, valign, bold
    (5, 10, "Hello World", 14, "start", "baseline", False),
    (60, 20, "Ελληνικά Кириллица", 14, "middle", "middle", False),
    (115, 32, "Bold words — WAVY", 14, "end", "baseline", True),
]
PAGE_W, PAGE_H, PX_PER_MM = 120, 40, 10


def test_outline_svg_parses_and_has_no_text(tmp_path):
    svg = _outline_svg(LINES, PAGE_W, PAGE_H)
    root = ET.fromstring(svg)
    tags = {el.tag for el in root.iter()}
    assert f"{{{SVG_NS}}}text" not in tags and not any(t.endswith("text") or t.endswith("tspan") for t in tags)
    paths = root.findall(f"{{{SVG_NS}}}path")
    assert len(paths) == len(LINES) and all(p.get("d") for p in paths)


def _pdf_png(lines, path: Path) -> np.ndarray:
    """Ink (0..1) of a tiny reportlab PDF of ``lines``, placed as pnp's PDF backend places Text,
    rendered by PyMuPDF at PX_PER_MM."""
    import pymupdf
    from reportlab.pdfgen import canvas

    ttfont()
    ttfont(BOLD_FACE)
    c = canvas.Canvas(str(path.with_suffix(".pdf")), pagesize=(PAGE_W / PT, PAGE_H / PT), invariant=1)
    c.translate(0, PAGE_H / PT)
    c.scale(1 / PT, -1 / PT)  # mm, y down, as pdf.py
    for x, y, text, size_pt, anchor, valign, bold in lines:
        size = size_pt * PT
        face = styled_face(FONT_NAME, bold)
        width = text_width_mm(text, size_pt, face)
        dx = {"start": 0.0, "middle": -width / 2, "end": -width}[anchor]
        dy = CAP_HEIGHT * size / 2 if valign == "middle" else 0.0
        c.setFillColorRGB(0, 0, 0)
        obj = c.beginText()
        obj.setTextTransform(1, 0, 0, -1, x + dx, y + dy)
        obj.setFont(face, size)
        obj.textOut(text)
        c.drawText(obj)
    c.showPage()
    c.save()
    with pymupdf.open(path.with_suffix(".pdf")) as doc:
        zoom = PX_PER_MM * PT
        pix = doc[0].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        pix.save(str(path))
    return _ink(path)


def _ink(png: Path) -> np.ndarray:
    from PIL import Image
    img = Image.open(png).convert("RGBA")
    white = Image.new("RGBA", img.size, (255, 255, 255, 255))
    img = Image.alpha_composite(white, img).convert("L").resize((PAGE_W * PX_PER_MM, PAGE_H * PX_PER_MM))
    return 1.0 - np.asarray(img, dtype=np.float64) / 255.0


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    ma, mb = a > 0.5, b > 0.5
    return float((ma & mb).sum() / max(1, (ma | mb).sum()))


def _line_extents(ink: np.ndarray) -> list[tuple[int, int] | None]:
    """Leftmost and rightmost inked column of each LINES row band (pixels)."""
    out = []
    for top, bottom in ((0, 130), (130, 260), (260, 400)):
        cols = np.where((ink[top:bottom] > 0.5).any(axis=0))[0]
        out.append((int(cols.min()), int(cols.max())) if cols.size else None)
    return out


def test_outline_svg_matches_the_pdf(tmp_path):
    """Rasterised by CairoSVG, the outlines cover the same pixels as the PDF's text."""
    import cairosvg  # a test dependency (the [test] extra), as in test_robustness.py: never skipped
    pdf = _pdf_png(LINES, tmp_path / "pdf.png")
    svg_png = tmp_path / "outline.png"
    cairosvg.svg2png(bytestring=_outline_svg(LINES, PAGE_W, PAGE_H).encode(), write_to=str(svg_png),
                     output_width=PAGE_W * PX_PER_MM, output_height=PAGE_H * PX_PER_MM)
    ink = _ink(svg_png)
    assert _iou(pdf, ink) > 0.9
    for got, want in zip(_line_extents(ink), _line_extents(pdf)):
        assert got is not None and abs(got[0] - want[0]) <= 1 and abs(got[1] - want[1]) <= 1


# --- a browser without Noto Sans ---------------------------------------------------------------------

def _text_svg(lines, embed: bool) -> str:
    """An SVG page whose text is <text> as pnp's SVG backend writes it (translate, text-anchor,
    font-size in mm, bold in the bold face at font-weight 700), with or without the embedded @font-face."""
    chars = "".join(line[2] for line in lines)
    style = f"<style>{font_face_css(chars)}{font_face_css(chars, face=BOLD_FACE)}</style>" if embed else ""
    els = []
    for x, y, text, size_pt, anchor, valign, bold in lines:
        size = size_pt * PT
        dy = CAP_HEIGHT * size / 2 if valign == "middle" else 0.0
        family = css_family(styled_face(FONT_NAME, bold))
        weight = ' font-weight="700"' if bold else ""
        els.append(f'<text x="0" y="{dy:.4f}" transform="translate({x},{y})" font-size="{size:.4f}" '
                   f'font-family="\'{family}\', \'Noto Sans\', sans-serif" text-anchor="{anchor}"{weight} '
                   f'text-rendering="geometricPrecision" xml:space="preserve" fill="#000000">{text}</text>')
    return (f'<svg xmlns="{SVG_NS}" width="{PAGE_W}mm" height="{PAGE_H}mm" viewBox="0 0 {PAGE_W} {PAGE_H}">'
            + style + "".join(els) + "</svg>")


def _fallback_font_dir() -> Path | None:
    """A folder of some installed font that is not Noto Sans: what a reader's machine has instead."""
    for name in ("dejavu", "liberation", "freefont"):
        folder = Path("/usr/share/fonts/truetype") / name
        if folder.is_dir() and any(folder.glob("*.ttf")) and not any(folder.glob("NotoSans*")):
            return folder
    return None


def test_browser_font_embedding(tmp_path):
    from browser import render_svg_png, require_chromium

    require_chromium("checks that a browser without Noto Sans draws SVG text from the font the SVG embeds")
    pdf = _pdf_png(LINES, tmp_path / "pdf.png")

    def shot(name: str, svg: str, font_dirs=()) -> np.ndarray:
        path = tmp_path / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        png = render_svg_png(path, tmp_path / f"{name}.png", PAGE_W * PX_PER_MM, PAGE_H * PX_PER_MM,
                             font_dirs=font_dirs)
        return _ink(png)

    # no font installed at all: the embedded font draws the text as the PDF does
    embedded = shot("embedded", _text_svg(LINES, embed=True))
    bare = shot("bare", _text_svg(LINES, embed=False))
    iou_embedded, iou_bare = _iou(pdf, embedded), _iou(pdf, bare)
    assert iou_embedded > 0.6, iou_embedded
    assert iou_bare < iou_embedded - 0.3, (iou_bare, iou_embedded)
    for got, want in zip(_line_extents(embedded), _line_extents(pdf)):
        assert got is not None and abs(got[0] - want[0]) <= 2 and abs(got[1] - want[1]) <= 2, (got, want)
    assert abs(embedded.sum() - pdf.sum()) < 0.05 * pdf.sum()  # as much ink: the same bold face as the PDF's

    # the usual case: the reader has other fonts but not Noto Sans
    fallback = _fallback_font_dir()
    if fallback is not None:
        embedded_fb = shot("embedded-fb", _text_svg(LINES, embed=True), [fallback])
        bare_fb = shot("bare-fb", _text_svg(LINES, embed=False), [fallback])
        assert _iou(pdf, embedded_fb) > 0.6
        assert _iou(pdf, bare_fb) < _iou(pdf, embedded_fb) - 0.3
        assert bare_fb.sum() > 0.5 * pdf.sum()  # the fallback font did draw, just not like the PDF

    # cutter outlines, seen by the browser, match the PDF too
    outlines = shot("outlines", _outline_svg(LINES, PAGE_W, PAGE_H))
    assert _iou(pdf, outlines) > 0.75


# --- other faces of the registry: Noto Sans italic ----------------------------------------------------

ITALIC = "NotoSans-Italic"


def test_italic_subset_is_the_italic_face():
    """The italic @font-face declares its own family and font-style: italic, carries exactly the
    characters asked for, and its font is the italic one (a negative italic angle, the italic bit)."""
    css = font_face_css("Hello", face=ITALIC)
    assert "font-family: 'pnp NotoSans-Italic'; font-style: italic; font-weight: 400;" in css
    font = _face_font(css)
    assert set(font.getBestCmap()) == {ord(c) for c in "Hello "}
    assert font["post"].italicAngle < -5 and font["OS/2"].fsSelection & 1
    assert "fvar" not in font
    assert _face_font(font_face_css("Hello"))["post"].italicAngle == 0  # the regular is upright


def test_italic_outlines_are_slanted_and_set_with_italic_advances():
    """Cutter outlines of italic text come from the italic face: the stem of an 'l' leans right
    (its top is further right than its foot), and the advances add up to the italic face's width."""
    size_pt = 40.0
    d = text_outline_path("l", size_pt, 0, 0, font=ITALIC)
    assert d != text_outline_path("l", size_pt, 0, 0)
    pen = RecordingPen()
    parse_path(d, pen)
    points = [pt for _, args in pen.value for pt in args]
    top = [x for x, y in points if y < -20 * PT]
    foot = [x for x, y in points if y > -2 * PT]
    assert min(top) > min(foot) + 1.0  # mm: leans right
    # "Hi|" and "Hi" differ by the advance of "|" placed after the italic advances of "Hi"
    x_bar = _bounds(text_outline_path("Hi|", size_pt, 0, 0, font=ITALIC))[2]
    x_bar_alone = _bounds(text_outline_path("|", size_pt, 0, 0, font=ITALIC))[2]
    assert x_bar - x_bar_alone == pytest.approx(text_width_mm("Hi", size_pt, ITALIC), abs=0.01)
    assert text_width_mm("Hi", size_pt, ITALIC) != pytest.approx(text_width_mm("Hi", size_pt), abs=0.05)


def test_cutter_svg_outlines_italic_text_with_the_italic_glyphs():
    """A cutter SVG (svg_text with cut) draws italic text as the italic face's outlines, placed as
    text_outline_path places them, and upright text with the regular ones."""
    from pnp.core.ir import Page, Text
    from pnp.render.svg import svg_text
    page = Page(80, 40, (Text(10, 20, "Slant", size_pt=14, font=ITALIC), Text(10, 35, "Slant", size_pt=14)), "x")
    root = ET.fromstring(svg_text(page, cut=True).split("?>", 1)[1])
    paths = {el.get("d"): el.get("transform") for el in root.iter(f"{{{SVG_NS}}}path")}
    assert paths[text_outline_path("Slant", 14, 0, 0, font=ITALIC)] == "translate(10,20)"
    assert paths[text_outline_path("Slant", 14, 0, 0)] == "translate(10,35)"
    assert not list(root.iter(f"{{{SVG_NS}}}text"))
