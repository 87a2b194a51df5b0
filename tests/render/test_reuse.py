"""Reuse: a keyed Group is drawn once per PDF as a Form XObject and once per SVG page in <defs>,
placed again wherever the key appears; what is drawn is the same as without the key. Also the one
reportlab internal pnp relies on (pnp/render/reportlab_adapter.py): pages deflated as they are
finished."""
from __future__ import annotations

import dataclasses
import io
import math
import random
import re
import shutil
import subprocess
import tracemalloc
import xml.etree.ElementTree as ET

import numpy as np
import pdfplumber
import pypdf
import pypdfium2 as pdfium
import pytest
from pypdf.generic import ContentStream
from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfgen import canvas as rl_canvas

from pnp.pipeline.plan import Request, load_paper, plan
from pnp.core.fontbook import FontBook
from pnp.core.fonts import DEFAULT_FACE, FONT_NAME, ttfont
from pnp.core.ir import Circle, Group, Line, Page, Rect, Text
from pnp.core.units import MM_PER_PT
from pnp.layout.impose import impose
from pnp.render.pdf import PdfWriter
from pnp.render.reportlab_adapter import GlyphRuns
from pnp.render.svg import page_to_svg

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
CARD = (Rect(0, 0, 40, 25, fill="#3366cc", stroke=None), Circle(20, 12.5, 5, fill="#ffffff", stroke="#000000"),
        Text(20, 22, "card", size_pt=8, anchor="middle"))
SLOTS = [(10.0, 10.0), (60.0, 10.0), (110.0, 10.0), (10.0, 50.0)]


def _page(key: str | None, slots=SLOTS) -> Page:
    return Page(210, 297, tuple(Group(CARD, dx=x, dy=y, clip=(0, 0, 40, 25), key=key) for x, y in slots), "cards")


def _pdf(pages) -> bytes:
    buf = io.BytesIO()
    w = PdfWriter(buf)
    for p in pages:
        w.add(p)
    w.close()
    return buf.getvalue()


def _forms(data: bytes) -> tuple[set, list[int]]:
    """(the Form XObjects of the document, the number of `Do` operators on each page)."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    forms, uses = set(), []
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        for name, ref in xobjects.items():
            assert ref.get_object()["/Subtype"] == "/Form"
            forms.add(ref.idnum)
        uses.append(len(re.findall(rb"/\S+ Do", page.get_contents().get_data())))
    return forms, uses


def test_a_keyed_group_is_one_form_placed_at_every_use():
    data = _pdf([_page("card"), _page("card", SLOTS[:2])])
    forms, uses = _forms(data)
    assert len(forms) == 1 and uses == [4, 2]
    # what was drawn, measured in mm from the PDF (pdfplumber follows the form): a 40 x 25 mm blue
    # rectangle at every slot of the page
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page, slots in zip(pdf.pages, (SLOTS, SLOTS[:2])):
            blue = sorted((round(r["x0"] * MM_PER_PT, 2), round(r["top"] * MM_PER_PT, 2),
                           round(r["width"] * MM_PER_PT, 2), round(r["height"] * MM_PER_PT, 2))
                          for r in page.rects if r.get("non_stroking_color") in ((0.2, 0.4, 0.8), [0.2, 0.4, 0.8]))
            assert blue == sorted((x, y, 40.0, 25.0) for x, y in slots)
            words = [w for w in page.extract_words() if w["text"] == "card"]
            assert len(words) == len(slots)


def _pixels(data: bytes) -> list[np.ndarray]:
    doc = pdfium.PdfDocument(data)
    out = [np.asarray(doc[i].render(scale=100 / 72).to_pil().convert("RGB"), dtype=np.int16) for i in range(len(doc))]
    doc.close()
    return out


def test_a_form_renders_what_the_group_drew():
    keyed, plain = _pixels(_pdf([_page("card")])), _pixels(_pdf([_page(None)]))
    assert len(keyed) == len(plain) == 1
    assert keyed[0].shape == plain[0].shape
    assert np.abs(keyed[0] - plain[0]).max() <= 2  # anti-aliasing rounding at most (bench/samepixels.py)
    assert (keyed[0] != 255).any()  # something was drawn


def test_a_form_does_not_inherit_the_colour_of_the_page_where_it_is_placed():
    """The form is made where the page's fill is already grey and its font already the bold face, and
    placed again after red paint and plain text: it must carry its own colour and fonts."""
    grey_text = Text(10, 10, "x", fill="#888888")
    bold = Text(30, 10, "B", bold=True, size_pt=20)
    page1 = Page(100, 100, (Text(60, 60, "g", fill="#888888", bold=True), Group((grey_text, bold), key="k")), "a")
    page2 = Page(100, 100, (Rect(0, 0, 5, 5, fill="#ff0000", stroke=None), Text(50, 50, "y"),
                            Group((grey_text, bold), key="k", dx=40, dy=40)), "b")
    data = _pdf([page1, page2])
    reader = pypdf.PdfReader(io.BytesIO(data))
    [ref] = reader.pages[0]["/Resources"]["/XObject"].values()
    ops = ref.get_object().get_data().decode("latin-1")
    assert not re.search(r"\bTr\b", ops)  # bold is a face, never a text render mode
    fonts = ref.get_object()["/Resources"]["/Font"]
    assert any("Bold" in str(f.get_object()["/BaseFont"]) for f in fonts.values())  # "B" in the bold face
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            xs = [c for c in page.chars if c["text"] == "x"]
            assert xs and all(all(abs(v - 0x88 / 255) < 1e-3 for v in c["non_stroking_color"]) for c in xs)


def test_kit_furniture_is_drawn_once_per_document():
    """The NetMatch kit: every keyed group of the imposed pages is one form, and every use of a key
    is one `Do`; crop marks read back from a later page lie where the IR put them (in mm)."""
    [tp] = plan(["netmatch"], Request(load_paper("a4"))).targets
    pages = impose(tp.info.title, tp.components, load_paper("a4").sheet, tp.opts, tp.cover).pages
    pages = list(pages)
    keys, uses = set(), []

    def walk(items, page_uses):
        for s in items:
            if isinstance(s, Group):
                if s.key is not None:
                    if s.key not in keys:
                        keys.add(s.key)
                        walk(s.children, [])  # a nested key inside a form counts once, in the form
                    page_uses[0] += 1
                    continue
                walk(s.children, page_uses)
    for p in pages:
        n = [0]
        walk(p.items, n)
        uses.append(n[0])
    data = _pdf(pages)
    reader = pypdf.PdfReader(io.BytesIO(data))
    form_ids = set()

    def collect(obj):
        for ref in (obj.get("/Resources", {}).get("/XObject") or {}).values():
            if ref.idnum not in form_ids:
                form_ids.add(ref.idnum)
                collect(ref.get_object())
    for page in reader.pages:
        collect(page)
    assert len(form_ids) == len(keys) > 3
    assert [len(re.findall(rb"/\S+ Do", p.get_contents().get_data())) for p in reader.pages] == uses
    assert len(pages) > 5 and all(u > 0 for u in uses)  # every page has at least its scale bar as a form
    # crop marks of the last card page, measured from the PDF, are the IR's crop-mark lines
    number = max(i for i, p in enumerate(pages) if any(q.name == "word card" for q in p.placements))
    expected = set()

    def lines(items):
        for s in items:
            if isinstance(s, Group) and s.key and s.key.startswith("crop marks"):
                expected.update((round(l.x1, 1), round(l.y1, 1), round(l.x2, 1), round(l.y2, 1))
                                for l in s.children if isinstance(l, Line))
    lines(pages[number].items)
    assert expected
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        got = {(round(l["x0"] * MM_PER_PT, 1), round(l["top"] * MM_PER_PT, 1), round(l["x1"] * MM_PER_PT, 1),
                round(l["bottom"] * MM_PER_PT, 1)) for l in pdf.pages[number].lines}
    assert expected <= got


def test_svg_writes_a_keyed_group_once_per_page_and_uses_it():
    root = ET.fromstring(page_to_svg(_page("card")))
    defs = root.find(f"{SVG}defs")
    [card] = [g for g in defs.findall(f"{SVG}g")]
    uses = root.findall(f"{SVG}use")
    assert len(uses) == len(SLOTS) and {u.get(XLINK) for u in uses} == {f"#{card.get('id')}"}
    got = sorted(tuple(float(v) for v in re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", u.get("transform")).groups())
                 for u in uses)
    assert got == sorted(SLOTS)
    # the content is in the definition, once: one rect of 40 x 25 mm, one circle, one text, clipped
    assert [(r.get("width"), r.get("height")) for r in card.iter(f"{SVG}rect")] == [("40", "25")]
    assert len(list(card.iter(f"{SVG}text"))) == 1 and card.get("clip-path")
    assert root.findall(f".//{SVG}use") == uses  # nothing else refers to it


def test_cut_svgs_draw_keyed_groups_in_place():
    root = ET.fromstring(page_to_svg(_page("card"), outline_text=True))
    assert not root.findall(f".//{SVG}use")
    assert len([r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#3366cc"]) == len(SLOTS)


def test_one_canvas_for_a_long_document(tmp_path):
    """More pages than the old chunk size (2,000) go into one PDF written by one canvas: no chunk
    files beside it, every page present, and qpdf finds the file sound."""
    path = tmp_path / "long.pdf"
    w = PdfWriter(path)
    pages = 2100
    for i in range(pages):
        w.add(Page(50, 50, (Rect(5, 5, 10 + i % 30, 10, fill="#000000"), Group((Line(0, 0, 5, 5),), key="mark")),
                   "p"))
    w.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.pdf"]
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == pages
    widths = [float(reader.pages[i].mediabox.width) * MM_PER_PT for i in (0, pages - 1)]
    assert all(abs(wd - 50) < 0.01 for wd in widths)
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf is not installed (apt-get install qpdf), so the structural check cannot run")
    assert subprocess.run(["qpdf", "--check", str(path)], capture_output=True).returncode == 0


def _shown_runs(data: bytes) -> list[tuple[int, str, bytes]]:
    """Every text show (Tj) on page 1 of the PDF ``data``, read back with pypdf: (the subset's
    number in the order the page first shows them, its font name less the subset tag, the bytes
    shown, unescaped)."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    page = reader.pages[0]
    fonts = page["/Resources"]["/Font"]
    order: list[str] = []
    runs, font = [], None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"Tf":
            font = str(operands[0])
        elif op == b"Tj":
            order += [font] if font not in order else []
            base = str(fonts[font]["/BaseFont"]).partition("+")[2]
            runs.append((order.index(font), base, operands[0].get_original_bytes()))
    return runs


def test_text_runs_are_what_reportlabs_text_object_writes():
    """The texts PdfWriter writes (its runs from reportlab_adapter.GlyphRuns) show the same bytes in
    the same font subsets as reportlab's own text object writes for the same texts in the same order,
    read back from both files: Latin, Greek, Cyrillic, PDF string escapes, a text drawn twice, texts
    made only of characters shown before (encoded from the kept codes) and a no-break space. And they
    read back as the texts."""
    texts = ["Hello", "W\u00f6rd \u03a9\u03bc", "(a\\b)", "\u0416\u0443\u043a", "Hello", "olleH", "\\b(a)",
             "Hello \u0416\u0443\u043a \u03a9\u03bc", "Hello\u00a0World"]
    ours = io.BytesIO()
    w = PdfWriter(ours)
    w.add(Page(60, 60, tuple(Text(5, 8 + 8 * i, t, size_pt=10) for i, t in enumerate(texts)), "p"))
    w.close()
    theirs = io.BytesIO()
    c = rl_canvas.Canvas(theirs, invariant=1)
    for i, t in enumerate(texts):
        obj = c.beginText(10, 150 - 20 * i)
        obj.setFont(FONT_NAME, 10)
        obj.textOut(t)
        c.drawText(obj)
    c.showPage()
    c.save()
    got = _shown_runs(ours.getvalue())
    assert len(got) == len(texts) and got == _shown_runs(theirs.getvalue())
    with pdfplumber.open(io.BytesIO(ours.getvalue())) as pdf:
        assert pdf.pages[0].extract_text().splitlines() == [t.replace("\u00a0", " ") for t in texts]


def test_kept_glyph_codes_give_what_reportlab_gives_across_subsets():
    """GlyphRuns against reportlab's splitString on a second document, text by text in the same order:
    600 texts of up to 30 characters (some empty) drawn from 400 Latin, Greek and Cyrillic letters (more than one
    subset holds, so texts span two subsets and later ones reuse codes of both) give the same runs,
    and both documents end with the same subsets."""
    font = ttfont()  # Noto Sans, registered with reportlab
    pool = [chr(c) for c in range(0x21, 0x7F)] + [chr(c) for c in range(0xC0, 0x180)] + \
        [chr(c) for c in range(0x391, 0x3CA) if c != 0x3A2] + [chr(c) for c in range(0x410, 0x450)]
    pool = pool[:400]
    rng = random.Random(47)
    ours, theirs = rl_canvas.Canvas(io.BytesIO()), rl_canvas.Canvas(io.BytesIO())
    runs = GlyphRuns(ours)
    for _ in range(600):
        text = "".join(rng.choice(pool[:rng.choice((40, 120, 400))]) for _ in range(rng.randint(0, 30)))
        doc = theirs._doc
        expected = [(font.getSubsetInternalName(s, doc), escapePDF(chunk)) for s, chunk in font.splitString(text, doc)]
        assert runs(font, text) == expected, text
    assert len(font.state[ours._doc].subsets) > 1
    assert font.state[ours._doc].subsets == font.state[theirs._doc].subsets


def _stripes(i: int) -> Page:
    """A page of 2,000 thin bars, a different set on each page (about 45 KB of content stream)."""
    return Page(200, 200, tuple(Rect(5 + (k * 7 + i) % 190, 5 + (k % 400) * 0.45, 1 + k % 4, 0.3, fill="#000000")
                                for k in range(2000)), "p")


def test_pages_are_compressed_as_they_are_finished():
    """reportlab_adapter.compress_last_page deflates each page as add() finishes it, so the writer
    holds a long document's pages compressed: the memory it holds after 40 pages (tracemalloc) is
    under half the pages' content streams as they read back from the file, inflated."""
    out = io.BytesIO()
    w = PdfWriter(out)
    w.add(_stripes(0))  # the font and the document's first objects, before measuring
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(1, 41):
            w.add(_stripes(i))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    w.close()
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()))
    raw = sum(len(p.get_contents().get_data()) for p in reader.pages[1:])
    assert len(reader.pages) == 41 and raw > 40 * 40_000
    assert held < raw / 2, (held, raw)


def test_the_drawing_is_unchanged_by_the_key_in_the_model():
    g = Group(CARD, dx=1, key="k")
    assert dataclasses.replace(g, key=None) == Group(CARD, dx=1) and g != Group(CARD, dx=1)
    assert math.isclose(g.dx, 1)


def test_a_page_of_base_characters_embeds_the_shipped_base_chunk(monkeypatch):
    """A page of base characters embeds exactly one @font-face, the shipped base chunk of Noto Sans
    (tests/render/test_font_chunks.py checks it is what fontTools makes), and subsets no font."""
    from pnp.render import fontchunks
    base = fontchunks.shipped(DEFAULT_FACE).chunks[0]
    assert base.name == "base" and set(base.cps) == {ord(c) for c in fontchunks.BASE_CHARS}
    with FontBook().in_use() as book:
        root = ET.fromstring(page_to_svg(Page(50, 50, (Text(5, 5, "Hello, 50 mm \u2014 ok"),), "p")))
    assert book.made["subset"] == 0
    (style,) = root.findall(f"{SVG}defs/{SVG}style")
    assert style.text.count("@font-face") == 1 and f"base64,{base.data})" in style.text


def test_a_base_chunk_made_from_another_font_is_not_used(tmp_path, monkeypatch):
    """A chunk file whose first line names another font file is not used: the page gets a subset made
    for it (a single @font-face with no unicode-range)."""
    from pnp.render import fontchunks
    fontchunks.chunk_file(DEFAULT_FACE, tmp_path).write_text("123 abc\nbase 20-7e AAAA\n", encoding="ascii")
    with FontBook(chunk_folder=tmp_path).in_use() as book:
        assert fontchunks.shipped(DEFAULT_FACE) is None
        root = ET.fromstring(page_to_svg(Page(50, 50, (Text(5, 5, "Hello"),), "p")))
    assert book.made["subset"] == 1
    (style,) = root.findall(f"{SVG}defs/{SVG}style")
    assert style.text.count("@font-face") == 1 and "unicode-range" not in style.text and "AAAA)" not in style.text


# -- data-driven decks: template furniture drawn once ----------------------------------------------------
DECK_SPEC = """title: Furniture deck
designer: pnp tests
rules: rules.md
components:
  - name: word card
    size: [40mm, 60mm]
    data: deck.csv
    front: front.yaml
"""
# under the row's word: a navy card face (reads no column); over it: a light-blue bar across the word
# (reads no column)
DECK_FRONT = """layers:
  - {type: rect, fill: "#123456", bleed: true}
  - {type: text, text: "{word}", x: 4mm, y: 22mm, w: 32mm, h: 14mm, size: 20, align: center, valign: middle,
     colour: "#ffffff"}
  - {type: rect, x: 2mm, y: 28mm, w: 36mm, h: 2mm, fill: "#abcdef"}
"""
DECK_WORDS = [f"W{i:02d}" for i in range(40)]  # more than two sheets hold


def _deck(tmp_path):
    """The deck's planned kit and its imposed pages (A4)."""
    folder = tmp_path / "deck"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text(DECK_SPEC, encoding="utf-8")
    (folder / "front.yaml").write_text(DECK_FRONT, encoding="utf-8")
    (folder / "deck.csv").write_text("word\n" + "\n".join(DECK_WORDS) + "\n", encoding="utf-8")
    (folder / "rules.md").write_text("# Furniture deck\nA deck for a test.\n\n## Components\n- 14 word cards.\n\n"
                                     "## Setup\nNone.\n\n## A turn\nNone.\n\n## End and winner\nNone.\n\n## Fine points\n- None.\n",
                                     encoding="utf-8")
    [tp] = plan([str(folder / "deck.yaml")], Request(load_paper("a4"))).targets
    return tp, list(impose(tp.info.title, tp.components, load_paper("a4").sheet, tp.opts, tp.cover).pages)


def _streams(data: bytes) -> tuple[list[bytes], list[bytes]]:
    """(every page's content, every Form XObject's content), decompressed; each form once."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    pages, forms, seen = [], [], set()

    def collect(obj):
        for ref in (obj.get("/Resources", {}).get("/XObject") or {}).values():
            if ref.idnum not in seen and ref.get_object()["/Subtype"] == "/Form":
                seen.add(ref.idnum)
                forms.append(ref.get_object().get_data())
                collect(ref.get_object())
    for page in reader.pages:
        pages.append(page.get_contents().get_data())
        collect(page)
    return pages, forms


def _rgb_op(hex_colour: str, op: str) -> bytes:
    """The colour operator reportlab writes for ``hex_colour`` (``rg`` fill, ``RG`` stroke)."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.rl_accel import fp_str
    c = HexColor(hex_colour)
    return f"{fp_str(c.red, c.green, c.blue)} {op}".encode()


def test_a_decks_template_furniture_is_one_form_per_document(tmp_path):
    """A data-driven deck's layers that read no column (the navy face under the word, the bar over
    it) are each drawn once in the PDF, in a Form XObject of their own, and shown on every card:
    read back in mm from every page, with the row's word in between."""
    tp, pages = _deck(tmp_path)
    data = _pdf(pages)
    page_ops, form_ops = _streams(data)
    navy, bar = _rgb_op("#123456", "rg"), _rgb_op("#abcdef", "rg")
    for op in (navy, bar):
        assert sum(op in s for s in page_ops) == 0  # never drawn on a page itself
        assert sum(op in s for s in form_ops) == 1  # drawn once, in one form
    assert not any(navy in s and bar in s for s in form_ops)  # under and over the word: two forms
    cards = 0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            words = [w for w in page.extract_words() if w["text"] in DECK_WORDS]
            def filled(colour):
                rgb = tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
                return [r for r in page.rects if r.get("fill") and r.get("non_stroking_color") is not None
                        and np.allclose(r["non_stroking_color"], rgb, atol=1e-3)]
            faces, bars = filled("#123456"), filled("#abcdef")
            assert len(faces) == len(bars) == len(words)
            for w in words:  # each word on a 40 x 60 mm navy face, a 36 x 2 mm bar 2 mm in, 28 mm down
                [face] = [r for r in faces if r["x0"] <= w["x0"] and w["x1"] <= r["x1"]
                          and r["top"] <= w["top"] and w["bottom"] <= r["bottom"]]
                assert (round(face["width"] * MM_PER_PT, 2), round(face["height"] * MM_PER_PT, 2)) == (40.0, 60.0)
                [box] = [r for r in bars if abs(r["x0"] - face["x0"] - 2 / MM_PER_PT) < 0.05
                         and abs(r["top"] - face["top"] - 28 / MM_PER_PT) < 0.05]
                assert (round(box["width"] * MM_PER_PT, 2), round(box["height"] * MM_PER_PT, 2)) == (36.0, 2.0)
            cards += len(words)
    assert cards == len(DECK_WORDS) and len(pdf.pages) > 3


def test_a_decks_pages_render_the_same_with_and_without_furniture_keys(tmp_path, monkeypatch):
    """Every page of the deck, keyed furniture drawn as forms, has the pixels (100 dpi) of the deck
    drawn with every layer in place on every card, in template order: the word stays over the navy
    face and under the bar."""
    from pnp.custom import draw, parts
    _, pages = _deck(tmp_path / "keyed")
    keyed = _pixels(_pdf(pages))

    class InPlace(draw.Face):  # every layer drawn on every card, in template order
        def draw(self, row):
            values, out = (row.values if row is not None else {}), []
            for layer in self.layers:
                if layer.show is None or layer.show(values):
                    layer.draw(values, row, out)
            return tuple(out)
    monkeypatch.setattr(parts, "Face", InPlace)
    _, in_place = _deck(tmp_path / "in-place")
    assert not any(isinstance(s, Group) and s.key for p in in_place for g in p.items
                   if isinstance(g, Group) for s in g.children)
    plain = _pixels(_pdf(in_place))
    assert len(keyed) == len(plain) == len(pages)
    for a, b in zip(keyed, plain):
        assert a.shape == b.shape and np.abs(a - b).max() <= 2  # anti-aliasing rounding at most
    navy = np.array([0x12, 0x34, 0x56])
    assert any((np.abs(a - navy).max(axis=2) == 0).sum() > 1000 for a in keyed)  # the faces were drawn


def test_a_decks_furniture_is_defined_once_per_svg_page(tmp_path):
    _, pages = _deck(tmp_path)
    page = next(p for p in pages if len(p.placements) > 1)
    root = ET.fromstring(page_to_svg(page))
    navy = [r for r in root.iter(f"{SVG}rect") if r.get("fill") == "#123456"]
    assert len(navy) == 1  # drawn once, in <defs>
    [face] = [g for g in root.find(f"{SVG}defs").iter(f"{SVG}g") if navy[0] in list(g.iter(f"{SVG}rect"))
              and g.get("id")]
    uses = [u for u in root.iter(f"{SVG}use") if u.get(XLINK) == f"#{face.get('id')}"]
    words = [t for t in root.iter(f"{SVG}text") if "".join(t.itertext()) in DECK_WORDS]
    assert len(uses) == len(words) == len(page.placements) > 1

