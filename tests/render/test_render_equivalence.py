"""The PDF and the SVG of a page are the same geometry: every IR shape type is drawn through both
backends, read back (PDF with pdfplumber, SVG with an XML parser and its transforms), and compared
within 0.05 mm. Both backends refuse a glyph the font lacks, alike."""
from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET

import pdfplumber
import pytest

from pnp.core.errors import LayoutError
from pnp.core.ir import Circle, Group, Line, Page, Polygon, Rect, Text
from pnp.render.pdf import PdfWriter
from pnp.render.svg import page_to_svg
from pnp.core.units import MM_PER_PT

TOL = 0.05  # mm
SVG = "{http://www.w3.org/2000/svg}"

SHAPES = (
    Rect(10, 10, 30, 20, fill="#ff0000"),
    Rect(50, 10, 12.5, 7.25, fill=None, stroke="#000000", stroke_width=0.4),
    Circle(80, 20, 8, fill="#00ff00"),
    Polygon(((10, 50), (30, 50), (20, 70)), fill="#0000ff"),
    Line(10, 150, 100, 160, dash=(2, 1)),
    Group((Rect(0, 0, 20, 10, fill="#888888"), Circle(5, 5, 2, fill="#000000")), dx=120, dy=50, rotate=30),
    Group((Polygon(((0, 0), (10, 0), (0, 8)), fill="#333333"),), dx=150, dy=120, sx=-1),
    Group((Rect(0, 0, 30, 30, fill="#cccccc"),), dx=20, dy=200, clip=(0, 0, 15, 15)),
    Text(50, 100, "Hello", size_pt=20, anchor="middle"),
    Text(20, 120, "Start", size_pt=12),
    Text(190, 130, "End", size_pt=14, anchor="end", bold=True),
    Text(100, 240, "Mid", size_pt=16, anchor="middle", valign="middle", underline=True),
    Text(170, 180, "Turned", size_pt=10, rotate=90),
    # turned texts whose anchor and valign move them off their point (set by a matrix in the PDF)
    Text(60, 175, "Centred", size_pt=12, anchor="middle", valign="middle", rotate=90),
    Text(120, 215, "Upside", size_pt=12, anchor="end", rotate=180, underline=True),
    Text(195, 220, "Quarter", size_pt=9, anchor="middle", valign="middle", rotate=270, underline=True),
    Text(30, 270, "Slanted", size_pt=15, font="NotoSans-Italic"),
    Text(150, 280, "Leaning", size_pt=11, anchor="middle", valign="middle", bold=True, font="NotoSans-Italic"),
)
PAGE = Page(210, 297, SHAPES, "every shape")


def _pdf_objects():
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    writer.add(PAGE)
    writer.close()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as pdf:
        page = pdf.pages[0]
        h = float(page.height)
        boxes = [(o["x0"] * MM_PER_PT, o["top"] * MM_PER_PT, o["x1"] * MM_PER_PT, o["bottom"] * MM_PER_PT)
                 for o in page.rects + page.curves]
        lines = [tuple(round(v * MM_PER_PT, 3) for pt in o["pts"] for v in pt) for o in page.lines]
        texts = {}
        for ch in page.chars:
            texts.setdefault(_text_key(ch), []).append(ch)
        words = []
        for chars in texts.values():
            a, b, c, d, e, f = chars[0]["matrix"]
            words.append({"text": "".join(c["text"] for c in chars), "x": e * MM_PER_PT, "y": (h - f) * MM_PER_PT,
                          "size": chars[0]["size"] * MM_PER_PT, "advance": _advance(chars),
                          "font": chars[0]["fontname"].partition("+")[2]})
    return boxes, lines, words


def _text_key(ch):
    a, b, c, d, e, f = ch["matrix"]
    return (round(b, 2), round(d, 2), round(f, 1) if abs(b) < 1e-6 else round(e, 1))


def _advance(chars) -> float:
    """Advance width of a run of glyphs in mm: pdfminer's glyph boxes are advance-wide along the baseline."""
    horizontal = abs(chars[0]["matrix"][1]) < 1e-6
    if horizontal:
        return (max(c["x1"] for c in chars) - min(c["x0"] for c in chars)) * MM_PER_PT
    return (max(c["bottom"] for c in chars) - min(c["top"] for c in chars)) * MM_PER_PT


def _matrix(transform: str):
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", transform or ""):
        v = [float(x) for x in re.split(r"[ ,]+", args.strip())]
        if name == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "rotate":
            r = math.radians(v[0])
            t = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
        elif name == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        else:
            raise AssertionError(f"unexpected transform {name}")
        m = _mul(m, t)
    return m


def _mul(m, t):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = t
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _bbox(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _svg_objects():
    root = ET.fromstring(page_to_svg(PAGE))
    boxes, lines, texts = [], [], []

    def walk(el, m):
        for child in el:
            tag = child.tag.replace(SVG, "")
            cm = _mul(m, _matrix(child.get("transform", "")))
            if tag in ("defs", "clipPath"):
                continue
            if tag == "g":
                walk(child, cm)
            elif tag == "rect":
                x, y, w, h = (float(child.get(k)) for k in ("x", "y", "width", "height"))
                boxes.append(_bbox([_apply(cm, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]))
            elif tag == "circle":
                cx, cy, r = (float(child.get(k)) for k in ("cx", "cy", "r"))
                pts = [_apply(cm, cx + r * math.cos(t), cy + r * math.sin(t)) for t in
                       (i * math.pi / 2 for i in range(4))]
                boxes.append(_bbox(pts))
            elif tag == "polygon":
                nums = [float(v) for v in re.split(r"[ ,]+", child.get("points").strip())]
                boxes.append(_bbox([_apply(cm, nums[i], nums[i + 1]) for i in range(0, len(nums), 2)]))
            elif tag == "line":
                p1 = _apply(cm, float(child.get("x1")), float(child.get("y1")))
                p2 = _apply(cm, float(child.get("x2")), float(child.get("y2")))
                lines.append(tuple(round(v, 3) for v in p1 + p2))
            elif tag == "text":
                x, y = _apply(cm, float(child.get("x", 0)), float(child.get("y", 0)))
                scale = math.hypot(cm[0], cm[1])
                texts.append({"text": child.text, "x": x, "y": y, "size": float(child.get("font-size")) * scale,
                              "anchor": child.get("text-anchor"), "dir": (cm[0], cm[1]),
                              "family": child.get("font-family"), "style": child.get("font-style")})
    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return boxes, lines, texts


def _close(a, b):
    return all(abs(x - y) <= TOL for x, y in zip(a, b))


def test_paths_match_within_tolerance():
    pdf_boxes, _, _ = _pdf_objects()
    svg_boxes, _, _ = _svg_objects()
    assert len(pdf_boxes) == len(svg_boxes) >= 8
    for box in svg_boxes:
        assert any(_close(box, other) for other in pdf_boxes), f"SVG shape at {box} has no PDF twin"


def test_lines_match_including_underline():
    _, pdf_lines, _ = _pdf_objects()
    _, svg_lines, _ = _svg_objects()
    drawn = sum(isinstance(s, Line) or (isinstance(s, Text) and s.underline) for s in SHAPES)
    assert len(pdf_lines) == len(svg_lines) == drawn  # the dashed line and the underlines
    for line in svg_lines:
        assert any(_close(line, other) or _close(line, other[2:] + other[:2]) for other in pdf_lines), line


def test_text_origin_size_and_anchor_match():
    _, _, pdf_words = _pdf_objects()
    _, _, svg_texts = _svg_objects()
    assert sorted(w["text"] for w in pdf_words) == sorted(t["text"] for t in svg_texts)
    for t in svg_texts:
        word = next(w for w in pdf_words if w["text"] == t["text"])
        shift = {"start": 0.0, "middle": 0.5, "end": 1.0}[t["anchor"]] * word["advance"]
        dx, dy = t["dir"]
        assert abs(word["x"] + dx * shift - t["x"]) <= TOL and abs(word["y"] + dy * shift - t["y"]) <= TOL, t
        if dy == 0:  # pdfminer reports a rotated glyph's size as its box height, so compare upright text only
            assert abs(word["size"] - t["size"]) <= TOL


def test_bold_is_the_bold_face_in_both():
    """Bold text is set in the bold face, filled and not stroked: its PostScript name in the PDF,
    the bold @font-face (font-weight 700) in the SVG."""
    _, _, pdf_words = _pdf_objects()
    assert next(w for w in pdf_words if w["text"] == "End")["font"] == "NotoSans-Bold"
    assert next(w for w in pdf_words if w["text"] == "Leaning")["font"] == "NotoSans-BoldItalic"
    svg = page_to_svg(PAGE)
    el = next(e for e in ET.fromstring(svg).iter(f"{SVG}text") if e.text == "End")
    assert el.get("font-weight") == "700" and el.get("stroke") is None and el.get("stroke-width") is None
    assert el.get("font-family").startswith("'pnp NotoSans-Bold'")


def test_italic_is_set_in_the_italic_face_by_both():
    """The italic texts are drawn with the italic font program in the PDF (its PostScript name) and
    with the italic @font-face in the SVG (family and style); the upright ones with the regular (bold
    ones with their bold: test_bold_is_the_bold_face_in_both)."""
    _, _, pdf_words = _pdf_objects()
    _, _, svg_texts = _svg_objects()
    slanted = {"Slanted", "Leaning"}
    bold = {"End", "Leaning"}
    for word in pdf_words:
        if word["text"] not in bold:
            assert word["font"] == ("NotoSans-Italic" if word["text"] in slanted else "NotoSans-Regular"), word
    for t in svg_texts:
        italic = t["text"] in slanted
        if t["text"] not in bold:
            assert t["family"].startswith("'pnp NotoSans-Italic'" if italic else "'pnp Noto Sans'"), t
        assert t["style"] == ("italic" if italic else None), t
    css = "".join(e.text or "" for e in ET.fromstring(page_to_svg(PAGE)).iter(f"{SVG}style"))
    assert re.findall(r"font-family: '([^']+)'; font-style: (\w+)", css) == [
        ("pnp Noto Sans", "normal"), ("pnp NotoSans-Bold", "normal"), ("pnp NotoSans-BoldItalic", "italic"),
        ("pnp NotoSans-Italic", "italic")]


def test_italic_advances_are_the_italic_face_s():
    """The PDF's italic word is as wide as the italic face's advances say, and narrower than the same
    word upright (so the measurement tells the faces apart)."""
    from pnp.core.fonts import text_width_mm
    _, _, pdf_words = _pdf_objects()
    word = next(w for w in pdf_words if w["text"] == "Slanted")
    assert word["advance"] == pytest.approx(text_width_mm("Slanted", 15, "NotoSans-Italic"), abs=TOL)
    assert text_width_mm("Slanted", 15, "NotoSans-Italic") < text_width_mm("Slanted", 15) - 0.3


@pytest.mark.parametrize("backend", ["pdf", "svg"])
def test_both_backends_refuse_a_missing_glyph(backend):
    page = Page(100, 100, (Text(10, 10, "\u6f22\u5b57"),), "x")
    with pytest.raises(LayoutError, match="U\\+6F22"):
        if backend == "pdf":
            w = PdfWriter(io.BytesIO())
            w.add(page)
        else:
            page_to_svg(page)


@pytest.mark.parametrize("backend", ["pdf", "svg"])
def test_both_backends_refuse_a_glyph_the_italic_face_lacks_and_an_unknown_face(backend):
    def draw(text):
        page = Page(100, 100, (text,), "x")
        if backend == "pdf":
            PdfWriter(io.BytesIO()).add(page)
        else:
            page_to_svg(page)
    with pytest.raises(LayoutError, match="U\\+6F22.*Noto Sans italic"):
        draw(Text(10, 10, "a\u6f22", font="NotoSans-Italic"))
    with pytest.raises(LayoutError, match="no font called 'Nope'"):
        draw(Text(10, 10, "a", font="Nope"))
