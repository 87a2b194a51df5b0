"""Real bold: the shipped Noto Sans Bold faces, and every kit's bold text set in them, nothing stroked.

The shipped files are checked against the installed variable font they are made from
(pnp/fonts/make_bold.py), the PDFs are read back with pikepdf (content streams of pages and of
every form XObject) and with PyMuPDF (which font each drawn word is set in), the SVG pages with an
XML parser.
"""
from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET

import pikepdf
import pymupdf
import pytest
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont

from conftest import REPO, pdf_of
from pnp.core.fonts import BOLD_FACE, BOLD_ITALIC_FACE, DEFAULT_FACE, ITALIC_FACE, face, styled_face
from pnp.engine.plugins import game_names
from pnp.fonts import make_bold
from pnp.pipeline.execute import build_kit

SVG = "{http://www.w3.org/2000/svg}"
PAIRS = [(BOLD_FACE, DEFAULT_FACE, "NotoSans-Bold.ttf"), (BOLD_ITALIC_FACE, ITALIC_FACE, "NotoSans-BoldItalic.ttf")]
SAMPLE = "Hamburgefonstiv ÆØ ß Ωλ Жд 0123 &?"


@pytest.mark.parametrize("bold, regular, file", PAIRS)
def test_shipped_bold_face_is_the_wght_700_instance(bold, regular, file):
    shipped = TTFont(face(bold).path)
    source = TTFont(face(regular).path)
    assert face(bold).path.name == file and face(bold).path.parent.name == "fonts"
    assert "fvar" not in shipped and "fvar" in source
    assert shipped["OS/2"].usWeightClass == 700
    assert shipped["OS/2"].fsSelection & 0x20 and shipped["head"].macStyle & 1  # bold bits
    assert shipped["name"].getDebugName(6) == file[:-4]  # the PostScript name PDFs name the font by
    assert set(shipped.getBestCmap()) == set(source.getBestCmap())  # the same coverage as the regular face
    # the same outlines and advances as the script makes from the installed font, for a sample of
    # glyphs (the whole instance takes ~15 s): subset the variable source, then instance it
    from fontTools import subset
    from fontTools.varLib import instancer
    options = subset.Options()
    options.notdef_outline = True
    options.glyph_names = True
    options.layout_features = []
    sub = subset.Subsetter(options)
    sub.populate(text=SAMPLE)
    sub.subset(source)
    buf = io.BytesIO()
    instancer.instantiateVariableFont(source, {"wght": make_bold.WEIGHT, "wdth": 100}).save(buf)
    want = TTFont(io.BytesIO(buf.getvalue()))  # saved, as the script saves it: coordinates rounded
    want_cmap, got_cmap = want.getBestCmap(), shipped.getBestCmap()
    want_glyphs, got_glyphs = want.getGlyphSet(), shipped.getGlyphSet()
    for ch in set(SAMPLE) - {" "}:
        a, b = RecordingPen(), RecordingPen()
        want_glyphs[want_cmap[ord(ch)]].draw(a)
        got_glyphs[got_cmap[ord(ch)]].draw(b)
        assert a.value == b.value, ch
        assert want["hmtx"][want_cmap[ord(ch)]][0] == shipped["hmtx"][got_cmap[ord(ch)]][0], ch
    h = ord("H")
    assert shipped["hmtx"][got_cmap[h]][0] > source["hmtx"][source.getBestCmap()[h]][0]  # bold is wider


def test_the_licence_ships_beside_the_fonts():
    folder = face(BOLD_FACE).path.parent
    assert "SIL Open Font License, Version 1.1" in (folder / "OFL.txt").read_text(encoding="utf-8")
    assert '"pnp.fonts" = ["*.ttf", "OFL.txt"]' in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_styled_face():
    assert styled_face(DEFAULT_FACE, True) == BOLD_FACE and styled_face(ITALIC_FACE, True) == BOLD_ITALIC_FACE
    assert styled_face(DEFAULT_FACE, False) == DEFAULT_FACE and styled_face("Mine", True) == "Mine"


# --- PDFs ------------------------------------------------------------------------------------------

def _streams(pdf: pikepdf.Pdf):
    """(content stream operations, resources) of every page and of every form XObject, once each."""
    seen = set()

    def walk(obj, resources):
        yield pikepdf.parse_content_stream(obj), resources
        xobjects = resources.get("/XObject", {}) if resources is not None else {}
        for _, x in xobjects.items():
            if x.get("/Subtype") == "/Form" and x.objgen not in seen:
                seen.add(x.objgen)
                yield from walk(x, x.get("/Resources"))
    for page in pdf.pages:
        yield from walk(page, page.obj.get("/Resources"))


def _fonts(pdf: pikepdf.Pdf) -> list:
    out = {}
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/BaseFont" in obj:
            out[obj.objgen] = obj
    return list(out.values())


def _embedded(font) -> bool:
    for f in [font] + list(font.get("/DescendantFonts", [])):
        desc = f.get("/FontDescriptor")
        if desc is not None and any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            return True
    return False


KITS = game_names() + ["playing-cards", "questions"]


@pytest.mark.parametrize("kit", KITS)
def test_no_stroked_text_and_bold_embedded(kit, built):
    game = kit if kit in game_names() else str(REPO / "specs" / kit)
    result = built(game)
    with pikepdf.open(pdf_of(result)) as pdf:
        modes = {float(op.operands[0]) for ops, _ in _streams(pdf) for op in ops if str(op.operator) == "Tr"}
        assert 2 not in modes and 1 not in modes  # no glyph is outlined to look bold
        fonts = _fonts(pdf)
        bold = [f for f in fonts if "Bold" in str(f.BaseFont)]
        assert bold, [str(f.BaseFont) for f in fonts]  # the cover's headings at least
        assert all(_embedded(f) for f in bold)
    # the cover's bold headings are drawn in the bold font, its printing guide is not
    with pymupdf.open(pdf_of(result)) as doc:
        spans = [s for b in doc[0].get_text("dict")["blocks"] for line in b.get("lines", ())
                 for s in line["spans"]]
    heads = [s for s in spans if s["text"].strip() == "Bill of materials"]
    assert heads and all("Bold" in s["font"] for s in heads), heads
    rows = [s for s in spans if s["text"].startswith("\u2022 Print at 100")]
    assert rows and not any("Bold" in s["font"] for s in rows)


def test_markup_bold_runs_use_the_bold_font(tmp_path):
    """A template text with **bold** runs: the bold words are in the bold font, the rest regular."""
    result = build_kit(str(REPO / "specs" / "questions"), out=tmp_path, formats=("pdf",))
    import csv
    with (REPO / "specs" / "questions" / "questions.csv").open(encoding="utf-8", newline="") as f:
        rows = "\n".join(row["question"] for row in csv.DictReader(f))  # the English kit's: the cells as written
    marked = {m.strip() for m in re.findall(r"\*\*([^*]+)\*\*", rows)}
    assert marked
    with pymupdf.open(pdf_of(result)) as doc:
        spans = [s for page in doc for b in page.get_text("dict")["blocks"] for line in b.get("lines", ())
                 for s in line["spans"]]
    bold_words = {w for s in spans if "Bold" in s["font"] for w in s["text"].split()}
    regular_words = {w for s in spans if "Bold" not in s["font"] for w in s["text"].split()}
    for run in marked:
        assert set(run.split()) <= bold_words, run
    assert regular_words  # the text around the runs stays regular


# --- SVG -------------------------------------------------------------------------------------------

def test_svg_names_and_embeds_the_bold_face(tmp_path):
    result = build_kit("netmatch", out=tmp_path, formats=("svg",))
    svgs = sorted(p for p in result.files if p.suffix == ".svg")
    checked = 0
    for path in svgs:
        root = ET.parse(path).getroot()
        bold = [t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "700"]
        if not bold:
            continue
        assert not any(t.get("stroke") for t in root.iter(f"{SVG}text"))  # nothing stroked
        assert all(t.get("font-family").startswith("'pnp NotoSans-Bold'") for t in bold)
        css = "".join(s.text or "" for s in root.iter(f"{SVG}style"))
        rules = [r for r in css.split("@font-face") if "'pnp NotoSans-Bold'" in r]
        assert rules and all("font-weight: 700" in r for r in rules)  # one per shipped chunk touched
        cmap = set()
        for rule in rules:
            font = TTFont(io.BytesIO(base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", rule).group(1))))
            assert font["OS/2"].usWeightClass == 700
            cmap |= set(font.getBestCmap())
        assert all(ord(c) in cmap for t in bold for c in (t.text or "") if not c.isspace())
        checked += 1
    assert checked >= 2
