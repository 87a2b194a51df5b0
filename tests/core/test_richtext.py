"""Rich text in template text layers (pnp.text): the markup parsed, then a deck built and
read back from its PDF (PyMuPDF) and SVG (an XML parser): each run in its face (the italic font
program for *italic*), bold as a stroke, inline icons on the baseline at the cap height and flowing
with the words, wrapped lines inside their box; bad markup, unknown icons and missing glyphs refused
naming the data file, row, column and field, with nothing written."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pymupdf
import pytest
from fontTools.ttLib import TTFont
from PIL import Image as PILImage

from conftest import pdf_of
from test_custom_templates import _kit as _base_kit
from pnp.pipeline.execute import build_kit
from pnp.core import fonts
from pnp.core.errors import PnpError
from pnp.text import Icon, MarkupError, parse
from pnp.core.units import MM_PER_PT

TOL = 0.1  # mm
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
BOX = (5.0, 10.0, 50.0, 60.0)  # the text layer's box on the card, mm
PURPLE = (0x6a / 255, 0x3d / 255, 0x9a / 255)
SPEC = """title: Rich
components:
  - name: card
    size: [60mm, 90mm]
    data: cards.csv
    front: front.yaml
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: rect, x: 5, y: 10, w: 50, h: 60, fill: "#fff8e0", stroke: none}
  - {type: text, text: "{text}", x: 5, y: 10, w: 50, h: 60, size: 14, min_size: 6, fit: shrink, wrap: true}
  - {type: text, text: "{foot}", x: 5, y: 75, w: 50, h: 10, size: 9, align: right}
"""
LONG = ("Gain **3** :coin: and draw *two* cards. Then **discard *one* card** :gem: at random, and *pass* the "
        ":coin: to the player on your left.")
CSV = f'text,foot\n"{LONG}",*for* :gem:\n"Line one\\nLine **two** and *three*",plain\n'


def _cap_height(face: str) -> float:
    """Cap height of a face as a fraction of the em, read from its file with fontTools."""
    tt = TTFont(str(fonts.face(face).path))
    return tt["OS/2"].sCapHeight / tt["head"].unitsPerEm


def _icons(folder):
    folder.mkdir()
    im = PILImage.new("RGBA", (60, 60), (0, 0, 0, 0))
    im.paste((230, 160, 0, 255), (0, 0, 60, 60))
    im.save(folder / "coin.png")
    (folder / "gem.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="12mm" viewBox="0 0 10 12">'
        '<rect width="10" height="12" fill="#6a3d9a"/><path d="M5 1 L9 5 L5 11 L1 5 Z" fill="#ffffff"/></svg>',
        encoding="utf-8")


def _kit(folder, csv: str = CSV, front: str = FRONT):
    _base_kit(folder, SPEC, {"front.yaml": front, "cards.csv": csv})
    _icons(folder / "icons")
    return folder


# --- the markup -----------------------------------------------------------------------------------

def _styles(paras):
    return [[(s.text or ":" + s.icon.name + ":", s.bold, s.italic) for s in p] for p in paras]


def test_bold_italic_breaks_and_escapes():
    got = parse("a **b *c*** d\\nx\\*y\\:z\\\\w\nlast")
    assert _styles(got) == [[("a ", False, False), ("b ", True, False), ("c", True, True), (" d", False, False)],
                            [("x*y:z\\w", False, False)], [("last", False, False)]]
    assert _styles(parse("**all** of *it*", bold=True)) == [[("all", False, False), (" of ", True, False),
                                                             ("it", True, True)]]
    assert _styles(parse("3 :coin: no icons")) == [[("3 :coin: no icons", False, False)]]
    assert _styles(parse("3 * 4 ** 2 = *x*")) == [[("3 * 4 ** 2 = ", False, False), ("x", False, True)]]


@pytest.mark.parametrize("text, offset", [("a **b", 2), ("*a **b** c", 0), ("x *y", 2), ("**a*", 0), ("*a *b", 0)])
def test_an_unclosed_mark_is_refused_at_its_character(text, offset):
    with pytest.raises(MarkupError) as info:
        parse(text)
    assert info.value.offset == offset and "never closed" in info.value.message


def test_icons_are_looked_up_and_unknown_ones_refused():
    def lookup(name):
        if name != "coin":
            raise KeyError(f"there is no icon :{name}:")
        return Icon("coin", "/x/coin.png", 1.0)
    assert _styles(parse("3:coin: **x**", lookup)) == [[("3", False, False), (":coin:", False, False),
                                                        (" ", False, False), ("x", True, False)]]
    with pytest.raises(MarkupError, match="no icon :gem:") as info:
        parse("a :gem:", lookup)
    assert info.value.offset == 2
    assert _styles(parse("ratio 1\\:2:", lookup)) == [[("ratio 1:2:", False, False)]]


# --- a deck read back from the PDF ---------------------------------------------------------------

@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    root = tmp_path_factory.mktemp("rich")
    folder = _kit(root / "rich")
    result = build_kit(str(folder), out=root / "out", formats=("pdf", "svg"))
    doc = pymupdf.open(str(pdf_of(result)))
    page = next(p for p in doc if "Gain" in p.get_text())
    svg = next(p for p in result.files if p.suffix == ".svg" and "Gain" in p.read_text(encoding="utf-8"))
    yield page, svg
    doc.close()


def _mm(v: float) -> float:
    return v * MM_PER_PT


def _cards(page):
    """The text boxes drawn on the page (the #fff8e0 rectangles), (x0, y0, x1, y1) mm."""
    boxes = [d["rect"] for d in page.get_drawings()
             if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], (1.0, 0xf8 / 255, 0xe0 / 255)))]
    return sorted((_mm(r.x0), _mm(r.y0), _mm(r.x1), _mm(r.y1)) for r in boxes)


def _spans(page):
    """(text, font, bold, size pt, [(char, x0, x1, baseline) mm], text render type) of every text run
    drawn; bold: set in a bold face (its PostScript name says Bold)."""
    out = []
    for s in page.get_texttrace():
        chars = [(chr(c[0]), _mm(c[3][0]), _mm(c[3][2]), _mm(c[2][1])) for c in s["chars"]]
        out.append(("".join(c[0] for c in chars), s["font"], "Bold" in s["font"], s["size"], chars, s["type"]))
    return out


def _icons_drawn(page):
    """(x0, y0, x1, y1) mm of every icon: the raster coins and the purple SVG gems."""
    boxes = [tuple(_mm(v) for v in i["bbox"]) for i in page.get_image_info()]
    boxes += [(_mm(d["rect"].x0), _mm(d["rect"].y0), _mm(d["rect"].x1), _mm(d["rect"].y1)) for d in page.get_drawings()
              if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], PURPLE))]
    return boxes


def test_each_run_is_drawn_in_its_face_and_bold_in_the_bold_face(deck):
    page, _ = deck
    spans = _spans(page)
    filled = [s for s in spans if not s[2]]
    italic = {w for text, font, *_ in filled if font == "NotoSans-Italic" for w in text.split()}
    assert italic == {"two", "pass", "three", "for"}  # and "one", in bold italic
    assert {font for _, font, *_ in filled} == {"NotoSans-Regular", "NotoSans-Italic"}
    bold = [s for s in spans if s[2]]
    assert {w for text, *_ in bold for w in text.split()} == {"3", "discard", "one", "card", "two"}
    assert any(text.strip() == "one" and font == "NotoSans-BoldItalic" for text, font, *_ in bold)  # bold italic
    assert {font for _, font, *_ in bold} == {"NotoSans-Bold", "NotoSans-BoldItalic"}
    assert all(kind == 0 for *_, kind in spans)  # every run filled, none stroked
    plain = [text for text, font, stroked_, *_ in spans if "plain" in text]
    assert plain and all("*" not in t for t, *_ in spans)  # the markup itself is never printed


def test_icons_sit_on_the_baseline_at_cap_height_between_their_words(deck):
    page, _ = deck
    chars = [c + (size,) for _, _, stroked, size, cs, _ in _spans(page) for c in cs]
    icons = _icons_drawn(page)
    assert len(icons) == 4  # two coins and a gem in the long text, a gem in the foot
    cap = _cap_height("NotoSans")
    for x0, y0, x1, y1 in icons:
        line = [c for c in chars if c[1] < x1 + 15 and c[2] > x0 - 15 and y0 - 1 < c[3] < y1 + 1]
        assert line, (x0, y0)
        baseline, size = line[0][3], line[0][4]
        assert abs(y1 - baseline) <= TOL, (y1, baseline)
        assert abs((y1 - y0) - cap * _mm(size)) <= TOL, (y1 - y0, size)
        for ch, cx0, cx1, _, _ in line:  # no glyph drawn under the icon
            assert cx1 <= x0 + 0.01 or cx0 >= x1 - 0.01 or not ch.strip(), (ch, cx0, cx1, x0, x1)
    gems = [b for b in icons if abs((b[2] - b[0]) / (b[3] - b[1]) - 10 / 12) < 0.01]
    assert len(gems) == 2  # the SVG keeps its 10:12 proportions
    coin_y = sorted({round(b[3], 1) for b in icons if b not in gems})
    assert len(coin_y) == 2  # the two coins are on different lines: icons flow with the wrapped words


def test_wrapped_lines_never_leave_their_box(deck):
    page, _ = deck
    boxes = _cards(page)
    assert len(boxes) == 2
    for bx0, by0, bx1, by1 in boxes:
        assert abs((bx1 - bx0) - BOX[2]) < TOL and abs((by1 - by0) - BOX[3]) < TOL
        inside = [c + (size,) for _, font, stroked, size, cs, _ in _spans(page) for c in cs
                  if bx0 - 1 < c[1] < bx1 + 1 and by0 - 1 < c[3] < by1 + 1]
        assert inside
        for ch, x0, x1, base, size in inside:
            asc, desc = fonts.face("NotoSans").ascent, fonts.face("NotoSans").descent
            assert bx0 - 0.01 <= x0 and x1 <= bx1 + 0.01, (ch, x0, x1)
            assert base - asc * _mm(size) >= by0 - 0.01 and base + desc * _mm(size) <= by1 + 0.01
        for x0, y0, x1, y1 in _icons_drawn(page):
            if by0 <= y0 <= by1 and bx0 - 5 <= x0 <= bx1 + 5:
                assert bx0 - 0.01 <= x0 and x1 <= bx1 + 0.01 and y1 <= by1
        baselines = sorted({round(c[3], 2) for c in inside})
        assert len(baselines) >= 2  # both texts break into lines (one by wrapping, one at \n)
    long = [c for _, _, _, _, cs, _ in _spans(page) for c in cs if boxes[0][0] - 1 < c[1] < boxes[0][2] + 1]
    assert len({round(c[3], 2) for c in long if boxes[0][1] < c[3] < boxes[0][3]}) >= 5  # wrapped


# --- the same page in the SVG ----------------------------------------------------------------------

def _svg_walk(root):
    """(element, 2x3 matrix) of every drawn <text> and <image> of the SVG, <use> resolved."""
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    out = []

    def matrix(transform):
        m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        for name, args in re.findall(r"(\w+)\(([^)]*)\)", transform or ""):
            v = [float(x) for x in re.split(r"[ ,]+", args.strip())]
            t = {"translate": lambda: (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0),
                 "scale": lambda: (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0),
                 "rotate": lambda: (math.cos(math.radians(v[0])), math.sin(math.radians(v[0])),
                                    -math.sin(math.radians(v[0])), math.cos(math.radians(v[0])), 0, 0)}[name]()
            a, b, c, d, e, f = m
            A, B, C, D, E, F = t
            m = (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)
        return m

    def mul(m, t):
        a, b, c, d, e, f = m
        A, B, C, D, E, F = t
        return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)

    def walk(el, m):
        for child in el:
            tag = child.tag.replace(SVG, "")
            if tag in ("defs", "clipPath", "style"):
                continue
            cm = mul(m, matrix(child.get("transform")))
            if tag == "use":
                target = ids[(child.get(XLINK) or child.get("href"))[1:]]
                if target.tag.replace(SVG, "") == "image":
                    out.append((target, cm))
                else:
                    walk(target, cm)
            elif tag in ("text", "image"):
                out.append((child, cm))
            elif tag == "g":
                walk(child, cm)
    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return out


def test_the_svg_sets_the_same_runs_and_icons(deck):
    page, svg = deck
    drawn = _svg_walk(ET.parse(svg).getroot())
    italic = {w for el, _ in drawn if el.tag == f"{SVG}text" and el.get("font-style") == "italic"
              for w in el.text.split()}
    assert italic == {"two", "one", "pass", "three", "for"}
    assert all(el.get("font-family").startswith(("'pnp NotoSans-Italic'", "'pnp NotoSans-BoldItalic'"))
               for el, _ in drawn if el.get("font-style") == "italic")
    bold = {w for el, _ in drawn if el.tag == f"{SVG}text" and el.get("font-weight") == "700" for w in el.text.split()}
    assert bold == {"3", "discard", "one", "card", "two"}
    assert not any(el.get("stroke") for el, _ in drawn if el.tag == f"{SVG}text")
    svg_icons = []
    for el, (a, b, c, d, e, f) in drawn:
        if el.tag == f"{SVG}image":
            w, h = float(el.get("width")), float(el.get("height"))
            svg_icons.append((e, f, e + a * w, f + d * h))
    pdf_icons = _icons_drawn(page)
    assert len(svg_icons) == len(pdf_icons) == 4
    for box in svg_icons:
        assert any(all(abs(p - q) <= 0.05 for p, q in zip(box, other)) for other in pdf_icons), box


# --- bad input -------------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, says", [
    ("Gain **3 coins", r"cards\.csv.*row 3.*column 1 \(text\).*character 6.*\*\* .*never closed"),
    ("Gain 3 :ruby: now", r"cards\.csv.*row 3.*column 1 \(text\).*:ruby:.*:coin:, :gem:"),
])
def test_bad_markup_and_unknown_icons_name_the_row_column_and_field(tmp_path, cell, says):
    csv = f"text,foot\nfine,x\n\"{cell}\",y\n"
    folder = _kit(tmp_path / "rich", csv=csv)
    with pytest.raises(PnpError) as info:
        build_kit(str(folder), out=tmp_path / "out", formats=("pdf",))
    text = str(info.value)
    assert re.search(says, text, re.S), text
    assert info.value.field == "text"
    assert not (tmp_path / "out" / "rich").exists()


def test_a_glyph_the_italic_face_lacks_is_refused_with_the_face_named(tmp_path):
    lacking = sorted(c for c in fonts.face("NotoSans").cmap - fonts.face("NotoSans-Italic").cmap
                     if c > 0x20 and chr(c).isprintable())
    assert lacking
    ch = chr(lacking[0])
    folder = _kit(tmp_path / "rich", csv=f"text,foot\nplain {ch},x\n*slanted {ch}*,y\n")
    with pytest.raises(PnpError) as info:
        build_kit(str(folder), out=tmp_path / "out", formats=("pdf",))
    text = str(info.value)
    assert "row 3" in text and "Noto Sans italic" in text and f"U+{lacking[0]:04X}" in text, text
    assert not (tmp_path / "out" / "rich").exists()


def test_markup_false_prints_the_characters_as_typed(tmp_path):
    front = FRONT.replace("wrap: true}", "wrap: true, markup: false}")
    folder = _kit(tmp_path / "rich", csv='text,foot\n"5 * 3 = **15** :coin:",x\n')
    (folder / "front.yaml").write_text(front, encoding="utf-8")
    result = build_kit(str(folder), out=tmp_path / "out", formats=("pdf",))
    with pymupdf.open(str(pdf_of(result))) as doc:
        assert any("5 * 3 = **15** :coin:" in p.get_text() for p in doc)
        assert not any(p.get_image_info() for p in doc)


def test_the_svg_in_a_browser_without_fonts_matches_the_pdf_in_the_text_boxes(deck, tmp_path):
    """Chromium with no font installed draws the rich-text card SVG (italic @font-face, bold strokes,
    icons as data: URLs) like PDFium draws the PDF: within the text boxes, pixels that differ by more
    than 64 grey levels (after a 1-pixel blur, as in test_svg_fonts) are at most 5 % of the PDF's
    inked pixels there. The control (icons dropped, italic set upright) must differ by over 10 %,
    so the comparison can fail."""
    from browser import differing_ink, require_chromium
    require_chromium("compares rich text with italic runs and icons, drawn by a browser with no font, with the PDF")
    page, svg = deck
    control = tmp_path / "control.svg"
    text = svg.read_text(encoding="utf-8")
    control.write_text(re.sub(r'href="data:[^"]*"', 'href=""', text).replace("'pnp NotoSans-Italic'", "'pnp Noto Sans'")
                       .replace(' font-style="italic"', ""), encoding="utf-8")
    shares = differing_ink(page.parent.name, page.number, (svg, control), _cards(page), 8, tmp_path)
    print(f"differing pixels per inked pixel in the text boxes: {shares[0]:.2%} (control {shares[1]:.2%})")
    assert shares[0] <= 0.05, f"{shares[0]:.2%} of the text boxes' pixels differ"
    assert shares[1] > 0.1, f"without icons and italics the boxes should differ, but only {shares[1]:.2%} do"


# --- the rules quick reference on the cover -------------------------------------------------------

RICH_RULES_LINE = ("Shuffle **all tiles** face down. Each player draws a *target* tile (the pattern they must "
                   "***build***), then a hand tile; 3 * 4 cells stay an asterisk.")


@pytest.fixture(scope="module")
def cover(tmp_path_factory):
    from pnp.inputs.resources import builtin_folder, specs_dir
    root = tmp_path_factory.mktemp("cover")
    lines = (builtin_folder("nonads") / "rules.md").read_text(encoding="utf-8").split("\n")
    assert lines[9].startswith("Shuffle all tiles")
    lines[9] = RICH_RULES_LINE
    rules = root / "rules.md"
    rules.write_text("\n".join(lines), encoding="utf-8")
    result = build_kit("nonads", out=root / "out", formats=("pdf",), overrides={"rules": rules})
    doc = pymupdf.open(str(pdf_of(result)))
    yield doc[0]
    doc.close()


def test_cover_rules_set_bold_and_italic_runs(cover):
    spans = _spans(cover)
    para = [s for s in spans if any(w in s[0] for w in ("Shuffle", "target", "build", "face down", "tiles"))]
    italic = {w for text, font, *_ in spans if font == "NotoSans-Italic" for w in text.split()}
    assert italic == {"target"}
    assert {w for text, font, *_ in spans if font == "NotoSans-BoldItalic" for w in text.split()} == {"build"}
    bold = {w for text, font, is_bold, *_ in para if is_bold for w in text.split()}
    assert {"all", "tiles", "build"} <= bold and "Shuffle" not in bold and "target" not in bold
    text = cover.get_text()
    assert "3 * 4 cells" in text and "**" not in text and "*target*" not in text


def test_cover_rich_paragraph_reads_in_order_and_stays_in_its_column(cover):
    """The marked-up paragraph wraps like the plain ones: its words in reading order with one space
    between runs of different styles, every line inside the left rules column (which ends 6 mm,
    the column gap, before the right column starts)."""
    chars = [c for _, _, stroked, _, cs, _ in _spans(cover) for c in cs]
    start = next(c for c in chars if c[0] == "S" and "".join(
        x[0] for x in chars[chars.index(c):chars.index(c) + 7]) == "Shuffle")
    lines: dict[float, list] = {}
    for c in chars:
        if c[3] >= start[3] - 0.01 and abs(c[1] - start[1]) < 100:
            lines.setdefault(round(c[3], 2), []).append(c)
    words = []
    for base in sorted(lines)[:4]:
        row = sorted((c for c in lines[base] if c[1] >= start[1] - 0.01 and c[2] < start[1] + 100), key=lambda c: c[1])
        text = ""
        for prev, c in zip([None] + row, row):
            if prev is not None and c[1] - prev[2] > 0.5:  # a gap of at least a space (Noto Sans: 0.26 em)
                text += " "
            text += c[0]
        words.append(text)
    joined = " ".join(words)
    assert joined.startswith("Shuffle all tiles face down. Each player draws a target tile"), joined
    assert "must build), then a hand tile;" in joined
    lefts = sorted({round(c[1], 1) for c in chars if c[0] == "\u2022"})
    assert len(lefts) == 2  # bullets in both rules columns
    right_edge = lefts[1] - 6.0
    for base in sorted(lines)[:3]:
        assert max(c[2] for c in lines[base] if c[1] < right_edge + 1) <= right_edge + 0.01


def test_rules_refuse_a_glyph_the_italic_face_lacks_with_line_and_column(tmp_path):
    from pnp.core.errors import SpecError
    from pnp.inputs.resources import builtin_folder, specs_dir
    from pnp.inputs.rulestext import parse_rules
    lacking = sorted(c for c in fonts.face("NotoSans").cmap - fonts.face("NotoSans-Italic").cmap
                     if c > 0x20 and chr(c).isprintable())
    ch = chr(lacking[0])
    lines = (builtin_folder("nonads") / "rules.md").read_text(encoding="utf-8").split("\n")
    lines[9] = f"Upright {ch} is fine; *slanted {ch}* is not."
    path = tmp_path / "r.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        parse_rules(path)
    assert info.value.line == 10 and f"column {lines[9].rindex(ch) + 1}:" in info.value.message
    assert "Noto Sans italic" in info.value.message
    lines[9] = f"Upright {ch} is fine."
    path.write_text("\n".join(lines), encoding="utf-8")
    assert parse_rules(path).blocks


def test_the_icons_a_deck_uses_are_inputs_pnp_watch_watches():
    from pnp.pipeline.plan import Request, load_paper, plan
    from pnp.inputs.resources import builtin_folder, specs_dir
    kits = plan([str(specs_dir() / "questions")], Request(load_paper("a4"))).targets
    assert [tp.loaded.game.name for tp in kits] == ["questions", "questions-ar", "questions-hi"]  # its languages
    for tp in kits:
        assert specs_dir() / "questions" / "icons" / "hammer.svg" in tp.inputs


ALIGNED = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: text, text: "{text}", x: 5, y: 10, w: 50, h: 20, size: 10, align: right}
  - {type: text, text: "{text}", x: 5, y: 35, w: 50, h: 20, size: 10, align: center}
  - {type: text, text: "{text}", x: 20, y: 58, w: 20, h: 28, size: 10, rotate: 90}
"""


def test_right_centre_and_turned_rich_lines_keep_to_their_box(tmp_path):
    """Marked-up lines aligned right end at the box's right edge, centred ones are centred on it (both
    measured from the drawn glyphs and icon, to 0.1 mm), and a box turned 90 degrees sets its runs
    running down the page inside the box."""
    folder = _kit(tmp_path / "rich", csv='text,foot\n"Go **far** :gem: *now*",x\n', front=ALIGNED)
    result = build_kit(str(folder), out=tmp_path / "out", formats=("pdf",))
    with pymupdf.open(str(pdf_of(result))) as doc:
        page = next(p for p in doc if "far" in p.get_text())
        cards = [d["rect"] for d in page.get_drawings() if d.get("fill") == (1.0, 1.0, 1.0)
                 and abs(_mm(d["rect"].width) - 60) < TOL]
        assert len(cards) == 1
        cx, cy = _mm(cards[0].x0), _mm(cards[0].y0)
        spans = _spans(page)
        icons = _icons_drawn(page)
        dirs = {s["dir"] for s in page.get_texttrace()}
    assert dirs == {(1.0, 0.0), (0.0, 1.0)}  # upright lines and the turned box (running down)

    def extent(y0, y1):
        xs = [(c[1], c[2]) for _, _, stroked, _, cs, _ in spans for c in cs
              if cy + y0 <= c[3] <= cy + y1 and c[0].strip()]
        xs += [(b[0], b[2]) for b in icons if cy + y0 <= b[3] <= cy + y1 and b[2] - b[0] < b[3] - b[1]]
        return min(x for x, _ in xs) - cx, max(x for _, x in xs) - cx
    left, right = extent(10, 30)
    assert abs(right - 55) <= TOL and left > 20
    left, right = extent(35, 55)
    assert abs((left + right) / 2 - 30) <= TOL
    turned = [b for b in icons if b[3] - b[1] < b[2] - b[0]]  # the gem lies on its side
    assert len(turned) == 1
    x0, y0, x1, y1 = turned[0]
    assert cx + 20 <= x0 and x1 <= cx + 40 and cy + 58 <= y0 and y1 <= cy + 86


@pytest.mark.parametrize("pixels,verdict", [(20, "fail"), (30, "warning"), (60, "pass")])
def test_raster_icons_count_in_print_quality(tmp_path, pixels, verdict):
    """A PNG icon is printed as tall as the cap height of its text (at most the layer's size, 14 pt
    here): its dpi there, worked out from the font file's own cap height, decides the finding."""
    from typer.testing import CliRunner
    from pnp.cli import app
    folder = _kit(tmp_path / "rich")
    PILImage.new("RGB", (pixels, pixels), (230, 160, 0)).save(folder / "icons" / "coin.png")
    height_mm = _cap_height("NotoSans") * 14 * MM_PER_PT
    dpi = pixels / (height_mm / 25.4)
    r = CliRunner().invoke(app, ["validate", str(folder), "--json"])
    import json
    found = [f for g in json.loads(r.output)["games"] for f in g["findings"]
             if "dpi" in f["check"] and "icon" in f["check"]]
    if verdict == "pass":
        assert r.exit_code == 0 and not found, r.output
        return
    assert found and found[0]["status"] == verdict, r.output
    assert "icon :coin:" in found[0]["check"] and "coin.png" in found[0]["check"]
    assert f"at {dpi:.0f} dpi" in found[0]["check"] and f"{height_mm:.1f} mm" in found[0]["check"]
    assert r.exit_code == (1 if verdict == "fail" else 0)


# --- icons on the cover (a data-driven game's icons folder) -----------------------------------------

ICON_RULES = ("# Kit\nA test kit.\n\n## Components\n- 12 gold :coin: coins and a :gem: gem.\n\n## Setup\n"
              "Ratio 3\\:2, as written.\n\n## A turn\nPlay.\n\n## End and winner\nNobody.\n\n## Fine points\n- None.\n")


def _cover_kit(folder, rules: str):
    _kit(folder)
    (folder / "rules.md").write_text(rules, encoding="utf-8")
    return folder


def test_cover_icons_sit_on_the_baseline_at_cap_height(tmp_path):
    """`:coin:` and `:gem:` in the rules text are the game's icons on the cover, as tall as the
    capitals (cap height from the font file) of the 9-ish pt body text, bottoms on its baseline;
    `\\:` prints a colon."""
    folder = _cover_kit(tmp_path / "rich", ICON_RULES)
    result = build_kit(str(folder), out=tmp_path / "out", formats=("pdf",))
    doc = pymupdf.open(str(pdf_of(result)))
    try:
        cover = doc[0]
        icons = _icons_drawn(cover)
        spans = [s for b in cover.get_text("dict")["blocks"] for line in b.get("lines", []) for s in line["spans"]]
        text = cover.get_text()
    finally:
        doc.close()
    assert "Ratio 3:2, as written." in text and "\\" not in text and ":coin:" not in text
    line = next(s for s in spans if "gold" in s["text"])
    size_mm, base = _mm(line["size"]), _mm(line["origin"][1])
    cap = _cap_height("NotoSans") * size_mm
    assert len(icons) == 2
    for x0, y0, x1, y1 in icons:
        assert abs(y1 - base) < 0.1 and abs((y1 - y0) - cap) < 0.1, ((x0, y0, x1, y1), base, cap)


def test_cover_icon_the_folder_lacks_is_refused_with_line_and_column(tmp_path):
    from typer.testing import CliRunner
    from pnp.cli import app
    folder = _cover_kit(tmp_path / "rich", ICON_RULES.replace(":gem:", ":ruby:"))
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["build", str(folder), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "rules.md" in r.output and "line 5" in r.output and "column 30" in r.output and ":ruby:" in r.output
    assert "coin" in r.output  # the icons the folder has
    assert not out.exists() or not any(out.iterdir())


def test_built_in_games_keep_colon_words_as_text(tmp_path):
    """A game without an icons folder prints `:name:` as typed (no lookup, nothing refused)."""
    from pnp.inputs.resources import builtin_folder, specs_dir
    from pnp.inputs.rulestext import parse_rules
    lines = (builtin_folder("nonads") / "rules.md").read_text(encoding="utf-8").split("\n")
    lines[9] = "Shuffle :all: tiles."
    rules = tmp_path / "rules.md"
    rules.write_text("\n".join(lines), encoding="utf-8")
    assert any(":all:" in b.text for b in parse_rules(rules).blocks)


def test_an_icon_symlinked_out_of_the_spec_folder_is_refused(tmp_path):
    """An icons folder entry that is a symlink to a picture elsewhere is never printed (a spec someone
    sends you cannot make pnp embed a file from elsewhere): exit 2 naming the row, and nothing written."""
    import os
    from typer.testing import CliRunner
    from pnp.cli import app
    folder = _kit(tmp_path / "rich")
    outside = tmp_path / "private.png"
    PILImage.new("RGB", (60, 60), (1, 2, 3)).save(outside)
    (folder / "icons" / "coin.png").unlink()
    os.symlink(outside, folder / "icons" / "coin.png")
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["build", str(folder), "-o", str(out)])
    assert r.exit_code == 2 and "must name a file inside the game folder" in r.output and "row 2" in r.output, r.output
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("value", ["/usr/share/icons", "../elsewhere", "art/../../x"])
def test_an_icons_folder_outside_the_spec_folder_is_refused(tmp_path, value):
    from typer.testing import CliRunner
    from pnp.cli import app
    folder = _kit(tmp_path / "rich")
    spec = folder / "rich.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + f"icons: {value}\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(folder)])
    assert r.exit_code == 2 and "icons" in r.output and "inside the spec's folder" in r.output, r.output


@pytest.mark.parametrize("text", ["aaaa bbbb cccc dddd:coin:", "aaaa bbbb cccc :coin:dddd", "aaaa bbbb **dddd**:coin: x"])
def test_an_icon_touching_a_word_wraps_with_it(text):
    """At every width that breaks the line, the icon is on the line of the word it touches (no space
    between them), never alone at the start or end of a line."""
    from pnp.text import Icon, break_lines, width
    coin = Icon("coin", "/coin.svg", 1.0)
    para = parse(text, lambda name: coin)[0]
    touching = "dddd"
    full = sum(width(s, 10.0) for s in para)
    broke = 0
    for step in range(8, int(full) + 1):
        lines = break_lines(para, 10.0, float(step))
        broke += len(lines) > 1
        with_icon = [line for line in lines if any(s.icon is not None for _, s in line.pieces)]
        assert len(with_icon) == 1
        assert touching in "".join(s.text for _, s in with_icon[0].pieces), (step, text)
    assert broke  # some widths did wrap


@pytest.mark.parametrize("text", ["aaaa bbbb cccc **dddd** :coin: eeee", "aaaa bbbb dddd  :coin:", "dddd :coin: :coin: x"])
def test_an_icon_after_a_space_wraps_with_the_word_before_it(text):
    """The question deck's `**building** :hammer:`: at every width that breaks the line, the icons
    are on the line of the word before them, after it, never at the start of a line."""
    from pnp.text import Icon, break_lines, width
    coin = Icon("coin", "/coin.svg", 1.0)
    para = parse(text, lambda name: coin)[0]
    full = sum(width(s, 10.0) for s in para)
    broke = 0
    for step in range(8, int(full) + 1):
        lines = break_lines(para, 10.0, float(step))
        broke += len(lines) > 1
        for line in lines:
            spans = [s for _, s in line.pieces]
            if any(s.icon is not None for s in spans):
                assert "dddd" in "".join(s.text for s in spans), (step, text)
                assert spans[0].icon is None, (step, text)
    assert broke
