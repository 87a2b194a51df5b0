"""The rules text of a kit in Arabic and in Hindi (specs/questions' rules.ar.md and rules.hi.md) on
the cover: every heading and a bullet are drawn, in the PDF (read back with PyMuPDF's text trace) and
in the SVG (each shaped run's ``<use>`` glyphs, read with an XML parser), as HarfBuzz shapes the same
string in the same font file, shaped here with uharfbuzz directly; headings in the bold face (its own
file: name and advances); right-to-left text aligned right, in the right-hand column first; section
names in the kit's language; the SVG page in Chromium matches the PDF page in PDFium."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pymupdf
import pytest
from fontTools.ttLib import TTFont

from test_shaping import DEVANAGARI, HREF, PRIVATE, SVG, _cmap, _hb, _inked, _svg_glyph
from pnp.core import fonts
from pnp.core.errors import SpecError
from pnp.core.units import MM_PER_PT
from pnp.inputs.resources import builtin_spec
from pnp.inputs.rulestext import parse_rules
from pnp.layout.cover import BODY_PT, HEAD_PT
from pnp.layout.options import ImposeOptions
from pnp.pipeline.execute import execute_target
from pnp.pipeline.plan import Request, load_paper, plan
from pnp.render.formats import WriterSettings

FOLDER = builtin_spec("questions").parent
SHIPPED = Path(fonts.__file__).resolve().parent.parent / "fonts"
REGULAR = {"ar": "NotoSansArabic", "hi": DEVANAGARI}
BOLD_FILE = {"ar": SHIPPED / "NotoSansArabic-Bold.ttf",
             "hi": SHIPPED / ("NotoSans-Bold.ttf" if DEVANAGARI == "NotoSans" else "NotoSansDevanagari-Bold.ttf")}
"""The bold face a heading in each language must be drawn in: a static wght 700 file pnp ships."""
A4_MIDDLE = 105.0


def _rules(code: str) -> tuple[list[str], str]:
    """The ``## `` headings of rules.<code>.md and its last bullet (one printed line), as written."""
    lines = (FOLDER / f"rules.{code}.md").read_text(encoding="utf-8").splitlines()
    return [line[3:] for line in lines if line.startswith("## ")], [line[2:] for line in lines if line.startswith("- ")][-1]


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    root = tmp_path_factory.mktemp("rules-scripts")
    out = {}
    for code in ("ar", "hi"):
        request = Request(load_paper("a4"), ("pdf", "svg"), ImposeOptions(), {}, WriterSettings(), language=code)
        built = plan([str(builtin_spec("questions"))], request)
        result = execute_target(built.targets[0], built.request, root / code)
        pdf = next(p for p in result.files if p.suffix == ".pdf")
        svg = sorted(p for p in result.files if p.suffix == ".svg")[0]
        out[code] = (pdf, svg)
    return out


def _runs(page, file: Path) -> list[tuple[float, list]]:
    """(size pt, [(glyph id in ``file``, origin x mm, origin y mm)]) of each line drawn in the font
    ``file`` (by its PostScript name): the trace's consecutive spans of that font and size within
    1.5 mm of one baseline (a mark's origin is offset from it), joined (PyMuPDF cuts a run where
    glyphs are positioned; a bullet, a Text of its own, is left out). Glyphs are read back through their
    characters, as pnp's test_shaping does."""
    cmap, name = _cmap_of(file), TTFont(str(file))["name"].getDebugName(6)
    lines: list[tuple[float, float, list]] = []
    for s in page.get_texttrace():
        if s["font"].split("+")[-1] != name or not s["chars"]:
            lines.append((0.0, 0.0, []))  # another font between: the next span starts a new run
            continue
        y = s["chars"][0][2][1] * MM_PER_PT
        if not lines or not lines[-1][2] or lines[-1][0] != s["size"] or abs(lines[-1][1] - y) > 1.5:
            lines.append((s["size"], y, []))
        lines[-1][2].extend((PRIVATE if 0xE000 <= c[0] <= 0xF8FF else cmap.get(c[0], -1), c[2][0] * MM_PER_PT,
                             c[2][1] * MM_PER_PT) for c in s["chars"] if c[0] != 0x2022)  # not a bullet
    return [(size, glyphs) for size, _, glyphs in lines if glyphs]


def _cmap_of(file: Path) -> dict[int, int]:
    tt = TTFont(str(file))
    order = {name: i for i, name in enumerate(tt.getGlyphOrder())}
    return {u: order[name] for u, name in tt.getBestCmap().items()}


def _drawn_as(page, text: str, file: Path, size_pt: float) -> list:
    """The run of ``page`` drawn in ``file`` whose glyphs are HarfBuzz's shaping of ``text`` in that
    file, each at its pen position (checked to 0.01 mm at ``size_pt``); fails when there is none."""
    want = _hb(text, file)
    mapped = set(_cmap_of(file).values())
    ids = [g if g in mapped else PRIVATE for g, _, _ in want]
    found = [glyphs for size, glyphs in _runs(page, file) if [g for g, _, _ in glyphs] == ids
             and size == pytest.approx(size_pt, abs=1e-3)]
    assert found, f"no run drawn in {file.name} holds the {len(ids)} glyphs HarfBuzz shapes {text!r} into"
    glyphs = found[0]
    mm = size_pt * MM_PER_PT / 1000
    start = glyphs[0][1] - want[0][1] * mm
    for (gid, x, _), (_, wx, _) in zip(glyphs, want):
        assert x == pytest.approx(start + wx * mm, abs=0.01), f"{text!r}: glyph {gid} misplaced"
    return [(g, x, y, a * mm) for (g, x, y), (_, _, a) in zip(glyphs, want)]


@pytest.mark.parametrize("code", ["ar", "hi"])
def test_the_headings_are_drawn_as_harfbuzz_shapes_them_in_the_bold_face(kits, code):
    pdf, _ = kits[code]
    assert TTFont(str(BOLD_FILE[code]))["OS/2"].usWeightClass == 700
    headings, _ = _rules(code)
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        drawn = [_drawn_as(page, heading, BOLD_FILE[code], HEAD_PT) for heading in headings]
    regular = fonts.face(REGULAR[code]).path
    differs = [h for h in headings if [round(a) for _, _, a in _hb(h, regular)] != [round(a) for _, _, a in
                                                                                  _hb(h, BOLD_FILE[code])]]
    assert differs, "the bold and regular faces shape the headings alike: the test could not tell them apart"
    if code == "ar":  # right to left: each heading ends at its column's right edge; the right column comes first
        ends = [glyphs[-1][1] + glyphs[-1][3] for glyphs in drawn]
        assert max(ends) - min(ends) < 0.05, f"the headings end at {ends}"
        assert min(glyphs[0][1] for glyphs in drawn) > A4_MIDDLE
    else:  # left to right: each heading starts at the left column's left edge
        starts = [glyphs[0][1] - _hb(h, BOLD_FILE[code])[0][1] * HEAD_PT * MM_PER_PT / 1000
                  for glyphs, h in zip(drawn, headings)]
        assert max(starts) - min(starts) < 0.05 and max(starts) < A4_MIDDLE


@pytest.mark.parametrize("code", ["ar", "hi"])
def test_a_bullet_is_drawn_as_harfbuzz_shapes_it_and_aligned_to_its_direction(kits, code):
    pdf, _ = kits[code]
    headings, bullet = _rules(code)
    regular = fonts.face(REGULAR[code]).path
    with pymupdf.open(pdf) as doc:
        page = doc[0]
        glyphs = _drawn_as(page, bullet, regular, BODY_PT)
        heading = _drawn_as(page, headings[-1], BOLD_FILE[code], HEAD_PT)
        dots = [c[2] for s in page.get_texttrace() for c in s["chars"] if chr(c[0]) == "\u2022"]
    y = glyphs[0][2]
    dot = next(o for o in dots if abs(o[1] * MM_PER_PT - y) < 0.01)[0] * MM_PER_PT
    if code == "ar":  # the bullet at the column's right edge, the text ending left of it
        end = glyphs[-1][1] + glyphs[-1][3]
        assert dot > end and end < heading[-1][1] + heading[-1][3] - 2.0
    else:
        assert dot < glyphs[0][1]


@pytest.mark.parametrize("code", ["ar", "hi"])
def test_the_svg_places_the_same_glyphs(kits, code):
    _, svg = kits[code]
    root = ET.parse(svg).getroot()
    paths = {el.get("id"): el.get("d") for el in root.iter(f"{SVG}path") if el.get("id")}
    headings, bullet = _rules(code)
    bold = "NotoSansArabic-Bold" if code == "ar" else BOLD_FILE[code].stem
    for text, face, file, size in [(h, bold, BOLD_FILE[code], HEAD_PT) for h in headings] + [
            (bullet, REGULAR[code], fonts.face(REGULAR[code]).path, BODY_PT)]:
        group = next((g for g in root.iter(f"{SVG}g") if g.get("aria-label") == text), None)
        assert group is not None, f"no shaped run {text!r} in the SVG"
        uses = list(group.iter(f"{SVG}use"))
        inked = _inked_in(file)
        want = [(g, x) for g, x, _ in _hb(text, file) if inked(g)]
        assert len(uses) == len(want), f"{text!r}: {len(uses)} glyphs drawn, HarfBuzz shapes {len(want)}"
        start = float(uses[0].get("x")) - want[0][1]
        for use, (gid, x) in zip(uses, want):
            assert float(use.get("x")) == pytest.approx(start + x, abs=0.01)
            ref = next(use.get(h) for h in HREF if use.get(h))
            assert paths[ref[1:]] == _svg_glyph(face, gid)  # the outline of that glyph of that face
        scale = float(re.search(r"scale\(([0-9.]+)\)", group.get("transform")).group(1))
        assert scale == pytest.approx(size * MM_PER_PT / 1000, rel=1e-3)


def _inked_in(file: Path):
    tt = TTFont(str(file))
    order, glyf = tt.getGlyphOrder(), tt["glyf"]
    return lambda gid: glyf[order[gid]].numberOfContours != 0


@pytest.mark.parametrize("code", ["ar", "hi"])
def test_chromium_draws_the_svg_rules_page_as_pdfium_draws_the_pdf(kits, code, tmp_path):
    """On the cover's rules (from the first heading down), pixels that differ by more than 64 grey levels
    (after a 1-pixel blur) are at most 2 % of the PDF's inked pixels. The control, each shaped run's
    glyphs in reverse order, must differ by over 10 %, so the comparison can fail."""
    from browser import differing_ink, require_chromium
    require_chromium("compares the Arabic and Hindi rules drawn by a browser with the PDF")
    pdf, svg = kits[code]
    text = svg.read_text(encoding="utf-8")

    def reverse(m):  # the x positions of a run's glyphs mirrored: the letters in the wrong order
        xs = [float(x) for x in re.findall(r' x="([-0-9.]+)"', m.group(0))]
        if not xs:
            return m.group(0)
        top = max(xs) + min(xs)
        return re.sub(r' x="([-0-9.]+)"', lambda n: f' x="{top - float(n.group(1)):.4f}"', m.group(0))
    control = tmp_path / "control.svg"
    control.write_text(re.sub(r'<g aria-label="[^"]*"[^>]*>.*?</g>', reverse, text, flags=re.S), encoding="utf-8")
    with pymupdf.open(pdf) as doc:  # from above the first heading (the text of the header is not shaped)
        top = _drawn_as(doc[0], _rules(code)[0][0], BOLD_FILE[code], HEAD_PT)[0][2] - 5
    shares = differing_ink(pdf, 0, (svg, control), [(10, top, 200, 260)], 8, tmp_path)
    print(f"{code}: differing pixels per inked pixel on the rules: {shares[0]:.2%} (control {shares[1]:.2%})")
    assert shares[0] <= 0.02, f"{shares[0]:.2%} of the rules' pixels differ"
    assert shares[1] > 0.1, f"with the glyphs reversed only {shares[1]:.2%} differ"


def test_section_names_in_english_in_a_translated_file_and_by_position_in_an_unknown_language(tmp_path):
    text = (FOLDER / "rules.md").read_text(encoding="utf-8")
    english = tmp_path / "rules.ar.md"
    english.write_text(text, encoding="utf-8")
    assert [b.text for b in parse_rules(english, language="ar").blocks if b.kind == "heading"][0] == "Components"
    german = tmp_path / "rules.de.md"
    names = ("Material", "Aufbau", "Ein Zug", "Ende und Sieger", "Feinheiten")
    german.write_text(re.sub(r"^## .*$", lambda m, it=iter(names): "## " + next(it), text, flags=re.M), encoding="utf-8")
    assert tuple(b.text for b in parse_rules(german, language="de").blocks if b.kind == "heading") == names
    with pytest.raises(SpecError) as err:  # without a language, the English names are required
        parse_rules(german)
    assert "Components" in str(err.value)
    arabic = (FOLDER / "rules.ar.md").read_text(encoding="utf-8")
    wrong = tmp_path / "rules.hi.md"
    wrong.write_text(arabic, encoding="utf-8")  # Arabic section names in a Hindi kit
    with pytest.raises(SpecError) as err:
        parse_rules(wrong, language="hi")
    assert "सामग्री" in str(err.value) and "Components" in str(err.value) and err.value.line == 4
