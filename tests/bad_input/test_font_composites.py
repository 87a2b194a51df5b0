"""Every font the checks accept, every writer accepts, or the checks refuse it.

A composite glyph that contains itself (or nests without end) passed pnp.inputs.fontfile and crashed
the SVG writers (fontTools recurses through components): it is refused with the spec's file, line and
field, the font file and the glyph. Fonts the checks accept (the built-in Noto Sans, a minimal TrueType
font, a CFF font converted, a TrueType font with nested composites) build as PDF, SVG with text, SVG
with outlines and cutter SVG. The fonts are made here with fontTools.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from test_custom_fonts import FRONT, _game, _refused, existing, make_font, runner  # noqa: F401 (fixture)
from pnp.cli import app


def _composites(path: Path, chains: dict[str, list[str]]) -> Path:
    """Rewrite the font at ``path`` so that each glyph of ``chains`` is a composite of the glyphs listed
    (bounds given by hand: fontTools cannot compute them for a cycle)."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent
    font = TTFont(str(path), recalcBBoxes=False)
    for name, parts in chains.items():
        glyph = Glyph()
        glyph.numberOfContours, glyph.components = -1, []
        glyph.xMin = glyph.yMin = 0
        glyph.xMax, glyph.yMax = 600, 700
        for part in parts:
            comp = GlyphComponent()
            comp.glyphName, comp.x, comp.y, comp.flags = part, 0, 0, 0
            glyph.components.append(comp)
        font["glyf"][name] = glyph
    font.save(str(path))
    return path


A, B, C = "g0041", "g0042", "g0043"  # the glyphs of A, B and C in make_font's font
DEEP = {f"g{0x41 + i:04X}": [f"g{0x42 + i:04X}"] for i in range(10)}  # A -> B -> ... -> K, 10 levels

BAD = {
    "contains itself": ({A: [A]}, [f"composite glyph '{A}' that contains itself"]),
    "a cycle of two": ({A: [B], B: [A]}, [f"composite glyph '{A}' that contains itself ('{A}' -> '{B}' -> '{A}')"]),
    "nested 10 deep": (DEEP, [f"composite glyph '{A}' nested more than 8 levels deep"]),
    "2,000 outlines": ({A: [C] * 2000}, [f"composite glyph '{A}' made of more than 1024 outlines"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_font_with_runaway_composites_is_refused(existing, tmp_path, case):
    """Exit 2 for build and validate, one message naming the declaration, the font file and the glyph;
    the existing kit unchanged (on main: accepted, then a traceback from the SVG writer)."""
    chains, needles = BAD[case]
    spec = _game(tmp_path / "deck")
    _composites(tmp_path / "deck" / "fonts" / "title.ttf", chains)
    _refused(existing, spec, ["deck.yaml, line 8, field fonts.Title", "font 'Title'", "title.ttf"], needles)


# ---- what the checks accept, every writer draws -------------------------------------------------------------------

def _nested(path: Path) -> None:
    """make_font's font with A a composite of B (moved), B a composite of C: two levels of components."""
    make_font(path)
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent
    font = TTFont(str(path))
    for name, part, dx in ((A, B, 30), (B, C, 0)):
        glyph, comp = Glyph(), GlyphComponent()
        comp.glyphName, comp.x, comp.y, comp.flags = part, dx, 0, 0
        glyph.numberOfContours, glyph.components = -1, [comp]
        font["glyf"][name] = glyph
    font.save(str(path))


FONTS = {
    "built-in Noto Sans": None,
    "minimal TrueType": lambda p: make_font(p),
    "CFF converted": lambda p: make_font(p, cff=True),
    "nested composites": _nested,
}


@pytest.mark.parametrize("name", sorted(FONTS))
def test_every_writer_draws_a_font_the_checks_accept(tmp_path, name):
    """PDF, SVG (text), SVG (--svg-text outlines) and cutter SVG of a kit set in the font: exit 0, the
    PDF's text reads back, every SVG parses, and the cutter SVG draws the words as paths."""
    from pypdf import PdfReader
    make = FONTS[name]
    ext = "otf" if name == "CFF converted" else "ttf"
    spec = _game(tmp_path / "deck", cff=ext == "otf", csv="word,note\nABBA CAB,plain words\nOAK,noto\n",
                 front=FRONT if make else FRONT.replace(", font: Title", ""))
    if make:
        make(tmp_path / "deck" / "fonts" / f"title.{ext}")
    for args, out in ((["-f", "pdf,svg,cut-svg"], "text"), (["-f", "svg", "--svg-text", "outlines"], "outlines")):
        r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / out), *args])
        assert r.exit_code == 0 and "Traceback" not in r.output, r.output
        kit = tmp_path / out / "deck"
        svgs = sorted(kit.rglob("*.svg"))
        assert svgs
        for svg in svgs:
            ET.parse(svg)  # well-formed
    text = "".join(p.extract_text() for p in PdfReader(tmp_path / "text" / "deck" / "deck-a4.pdf").pages)
    assert "ABBA CAB" in text.replace("\n", " ") or "ABBACAB" in text.replace(" ", ""), text[:300]
    ns = "{http://www.w3.org/2000/svg}"
    for out, sub in (("text", "cut"), ("outlines", "svg")):
        pages = sorted((tmp_path / out / "deck" / sub).glob("*.svg"))
        roots = [ET.parse(p).getroot() for p in pages]
        assert not any(list(r.iter(f"{ns}text")) for r in roots), out
        assert sum(len(r.findall(f".//{ns}path")) for r in roots) > 0, out
