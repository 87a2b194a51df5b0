"""The built-in faces' SVG fonts ship in unicode-range chunks (pnp/render/fontchunks.py): the shipped
files are what the generator makes from the installed fonts, the chunks partition each face's cmap,
each rule's unicode-range is exactly its font's cmap, a page embeds exactly the chunks its characters
fall in, a build runs no subsetting, and a chunk file made from another font is not used."""
from __future__ import annotations

import base64
import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from pnp.pipeline.execute import build_kit
from pnp.core.fontbook import FontBook
from pnp.core.fonts import DEFAULT_FACE, ITALIC_FACE, face as font_face
from pnp.core.ir import Page, Text
from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir
from pnp.render import fontchunks, svgfont
from pnp.render.svg import page_to_svg

from browser import require_chromium
from conftest import pdf_of
from test_svg_fonts import _differ_pair

SVG = "{http://www.w3.org/2000/svg}"
FACES = (DEFAULT_FACE, ITALIC_FACE)
RULE = re.compile(r"@font-face \{ (?P<body>[^{}]*) \}")
# ASCII and pnp's typography, written out here rather than read from the code under test
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
BASE = {*range(0x20, 0x7f), 0x2014, 0x2013, 0x2022, 0xd7, 0x2026, 0x2018, 0x2019, 0x201c, 0x201d, 0xb0, 0xb2, 0xb7}


def _installed_cmap(face: str) -> set[int]:
    return set(TTFont(font_face(face).path, lazy=True).getBestCmap())


def _parse_range(value: str) -> set[int]:
    """The code points a CSS unicode-range value lists (U+41, U+30-39; no wildcards)."""
    out: set[int] = set()
    for part in value.split(","):
        m = re.fullmatch(r"U\+([0-9A-F]+)(?:-([0-9A-F]+))?", part.strip())
        assert m, f"not a unicode-range item: {part!r}"
        out.update(range(int(m[1], 16), int(m[2] or m[1], 16) + 1))
    return out


def _rules(css: str) -> list[dict]:
    """Each @font-face rule of ``css`` as {descriptor: value, "font": TTFont of its data: URL,
    "range": code points of its unicode-range, or None when it declares none}."""
    rules = []
    for m in RULE.finditer(css):
        fields = dict(part.split(": ", 1) for part in m["body"].rstrip(";").split("; "))
        data = re.fullmatch(r"url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\) format\('woff2'\)", fields["src"])
        assert data, fields["src"][:80]
        fields["font"] = TTFont(io.BytesIO(base64.b64decode(data[1])))
        fields["range"] = _parse_range(fields["unicode-range"]) if "unicode-range" in fields else None
        rules.append(fields)
    assert RULE.sub("", css).strip() == "", "something besides @font-face rules in the CSS"
    return rules


def _page_rules(svg: str) -> list[dict]:
    return [r for el in ET.fromstring(svg).iter(f"{SVG}style") for r in _rules(el.text or "")]


def _glyphs(font: TTFont, cps) -> dict:
    """code point -> (advance, glyf coordinates and end points, components) as ``font`` draws it."""
    cmap, glyf, hmtx = font.getBestCmap(), font["glyf"], font["hmtx"]
    out = {}
    for cp in cps:
        g = glyf[cmap[cp]]
        shape = (tuple(map(tuple, g.getCoordinates(glyf)[0])), tuple(g.getCoordinates(glyf)[1]))
        out[cp] = (hmtx[cmap[cp]][0], shape)
    return out


@pytest.fixture
def no_subsetting(monkeypatch):
    """Any fontTools subset fails the test; the test runs in a font book of its own (nothing in memory
    from earlier tests), which has made no subset at its end."""
    def refuse(*_a, **_k):
        pytest.fail("a font was subset")
    monkeypatch.setattr("fontTools.subset.Subsetter.subset", refuse)
    with FontBook().in_use() as book:
        yield book
    assert book.made["subset"] == 0


# --- the shipped files ------------------------------------------------------------------------------

@pytest.mark.parametrize("face", FACES)
def test_the_shipped_chunks_are_what_the_generator_makes(face, tmp_path):
    """Regenerated from the installed font, every chunk decodes to the same cmap, glyph outlines (glyf
    coordinates) and advances as the shipped one, and the files are equal byte for byte."""
    assert fontchunks.shipped(face) is not None, (
        f"{fontchunks.chunk_file(face).name} is missing or was made from another font file: "
        "run python -m pnp.render.fontchunks")
    made = fontchunks.write_font_chunks([face], tmp_path)[0]
    ours = fontchunks.shipped(face, made)
    theirs = fontchunks.shipped(face)
    assert [c.name for c in ours.chunks] == [c.name for c in theirs.chunks]
    for a, b in zip(ours.chunks, theirs.chunks):
        fa, fb = (TTFont(io.BytesIO(base64.b64decode(c.data))) for c in (a, b))
        assert fa.getBestCmap().keys() == fb.getBestCmap().keys() == set(a.cps), a.name
        assert _glyphs(fa, a.cps) == _glyphs(fb, b.cps), a.name
    assert made.read_bytes() == fontchunks.chunk_file(face).read_bytes()


@pytest.mark.parametrize("face", FACES)
def test_chunks_partition_the_cmap_and_each_range_is_its_fonts_cmap(face):
    """The chunks' code points are disjoint and make up the installed face's cmap (read with
    fontTools); base is the base characters, every other chunk lies in one block of 128; each rule
    declares the face's family and style and a unicode-range listing exactly what its font maps."""
    ship = fontchunks.shipped(face)
    assert ship is not None
    cmap = _installed_cmap(face)
    seen: set[int] = set()
    for chunk in ship.chunks:
        assert not seen & set(chunk.cps), chunk.name
        seen |= set(chunk.cps)
    assert seen == cmap
    assert ship.chunks[0].name == "base" and set(ship.chunks[0].cps) == BASE & cmap
    for chunk in ship.chunks[1:]:
        assert len({cp // 128 for cp in chunk.cps}) == 1 and not BASE & set(chunk.cps), chunk.name
    rules = _rules(fontchunks.chunks_css(map(chr, cmap), face))
    assert len(rules) == len(ship.chunks)
    family = "'pnp Noto Sans'" if face == DEFAULT_FACE else f"'pnp {face}'"
    ranges = []
    for rule in rules:
        assert (rule["font-family"], rule["font-style"], rule["font-weight"]) == (
            family, "italic" if face == ITALIC_FACE else "normal", "400")
        assert rule["range"] == set(rule["font"].getBestCmap()), rule["unicode-range"][:80]
        assert "fvar" not in rule["font"] and "GPOS" not in rule["font"] and "GSUB" not in rule["font"]
        ranges.append(rule["range"])
    assert set().union(*ranges) == cmap


@pytest.mark.parametrize("face", FACES)
def test_a_chunk_draws_as_the_per_page_subset_does(face):
    """Instancing first and subsetting the chunks after gives the same outlines and advances as the
    per-page subset (subset first, then instanced) and the widths reportlab lays text out with."""
    text = "Ag\u00e9\u03a9\u03bb\u0416\u044f\u2014\u20ac\u1e9e"
    ship = fontchunks.shipped(face)
    cps = [ord(c) for c in text]
    per_page = TTFont(io.BytesIO(svgfont.subset_font(text, face=face)))
    chunked = {}
    for chunk in ship.chunks:
        if set(chunk.cps) & set(cps):
            font = TTFont(io.BytesIO(base64.b64decode(chunk.data)))
            chunked.update(_glyphs(font, [cp for cp in cps if cp in chunk.cps]))
    assert chunked == _glyphs(per_page, cps)
    upm = per_page["head"].unitsPerEm
    widths = font_face(face).widths
    for cp, (advance, _) in chunked.items():
        assert advance * 1000 / upm == pytest.approx(widths[cp], abs=0.5), hex(cp)


# --- pages ------------------------------------------------------------------------------------------

def test_a_page_gets_exactly_the_chunks_its_characters_need(no_subsetting):
    """Greek and Cyrillic upright, Greek italic: per face, the rules are the base chunk (if the face
    sets a base character) and one per 128-block of the other characters, no more, and together they
    cover every character set in the face."""
    upright = "Hello \u03a9\u03bc\u03ad\u03b3\u03b1 \u0416\u0438\u0437\u043d\u044c \u2014 5\u00b0"
    italic = "\u0395\u03bb\u03bb\u03ac\u03b4\u03b1"
    page = Page(100, 40, (Text(5, 10, upright), Text(5, 30, italic, font=ITALIC_FACE)), "p")
    rules = _page_rules(page_to_svg(page))
    for family, text in (("'pnp Noto Sans'", upright), (f"'pnp {ITALIC_FACE}'", italic)):
        cps = {ord(c) for c in text}
        want = ({"base"} if cps & BASE else set()) | {cp // 128 for cp in cps - BASE}
        got = []
        for rule in (r for r in rules if r["font-family"] == family):
            got.append("base" if rule["range"] <= BASE else next(iter({cp // 128 for cp in rule["range"]})))
            assert rule["range"] <= BASE or len({cp // 128 for cp in rule["range"]}) == 1
        assert sorted(map(str, got)) == sorted(map(str, want)), family
        assert cps <= set().union(*(r["range"] for r in rules if r["font-family"] == family))


def test_the_questions_deck_builds_with_no_subsetting_and_no_cache_entry(tmp_path, no_subsetting, monkeypatch):
    """The questions example (Greek and Cyrillic) built into a new --out: no font subset is made, the
    subset cache stays empty, and every SVG page's characters are covered by its rules' ranges."""
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    out = tmp_path / "out"
    result = build_kit(str(specs_dir() / "questions"), formats=("svg",), out=out)
    assert not list(out.rglob("font-*.css")) and not (out / ".pnp" / "cache").exists()
    pages = [p for p in result.files if p.suffix == ".svg"]
    greek = 0
    for path in pages:
        text = path.read_text(encoding="utf-8")
        chars = {ord(c) for el in ET.fromstring(text).iter(f"{SVG}text") for c in "".join(el.itertext())}
        ranges = set().union(*(r["range"] for r in _page_rules(text)))
        assert chars <= ranges, path.name
        greek += any(0x370 <= c < 0x400 for c in chars)
    assert greek, "no page of the questions deck sets Greek: the test checks nothing beyond base"


@pytest.mark.parametrize("kit", ["questions", "playing-cards"])
def test_a_new_process_building_a_kit_imports_no_subsetter(tmp_path, kit):
    """In a fresh process with an empty cache, building the SVGs of the questions (Greek, Cyrillic) and
    playing-cards (italic) examples never imports fontTools' subsetter or instancer."""
    code = ("import sys\nfrom pnp.pipeline.execute import build_kit\n"
            f"build_kit({str(specs_dir() / kit)!r}, formats=('svg',), out={str(tmp_path / 'out')!r})\n"
            "print(sorted(m for m in ('fontTools.subset', 'fontTools.varLib.instancer') if m in sys.modules))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PNP_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"
    assert not (tmp_path / "cache").exists()
    assert list((tmp_path / "out").rglob("*.svg"))


# --- another font file ------------------------------------------------------------------------------

def test_a_chunk_file_made_from_another_font_is_not_used(tmp_path, monkeypatch):
    """A chunk file whose first line names another font file is refused; pages then get one
    @font-face per face with a subset made for their characters (and cached), as before chunks."""
    other = tmp_path / "chunks.txt"
    lines = fontchunks.chunk_file(DEFAULT_FACE).read_text(encoding="ascii").splitlines()
    other.write_text("\n".join(["123 " + "0" * 64] + lines[1:]) + "\n", encoding="ascii")
    assert fontchunks.shipped(DEFAULT_FACE, other) is None
    good = tmp_path / "good.txt"
    good.write_text("\n".join(lines) + "\n", encoding="ascii")
    assert fontchunks.shipped(DEFAULT_FACE, good) is not None  # the same file with its true first line is used
    folder = tmp_path / "chunks"  # the book reads the built-in faces' chunk files from here
    folder.mkdir()
    fontchunks.chunk_file(DEFAULT_FACE, folder).write_bytes(other.read_bytes())
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    with FontBook(chunk_folder=folder).in_use() as book:
        assert fontchunks.shipped(DEFAULT_FACE) is None
        text = "Word \u03a9\u0416"
        svg = page_to_svg(Page(60, 20, (Text(5, 10, text),), "p"), cache=tmp_path / "cache")
        assert book.made["subset"] == 1
    assert fontchunks.shipped(DEFAULT_FACE) is not None  # outside that book: pnp's own chunk files
    (rule,) = _page_rules(svg)
    assert rule["range"] is None
    assert set(rule["font"].getBestCmap()) == (BASE | {ord(c) for c in text}) & _installed_cmap(DEFAULT_FACE)
    assert len(list((tmp_path / "cache").glob("font-*.css"))) == 1


# --- what a browser draws -----------------------------------------------------------------------------

@pytest.mark.parametrize("kit, wanted", [("questions", ((0x370, 0x400), (0x400, 0x500))), ("playing-cards", None)])
def test_chunked_pages_in_a_browser_without_noto_sans_match_the_pdf(tmp_path, kit, wanted):
    """Chromium with DejaVu Sans as its only font draws a questions page with Greek and Cyrillic, and
    the playing-cards page with italic text, from their chunk rules (every face must load, or
    render_svg_png raises): at most 2 % of pixels differ from PDFium's drawing of the PDF page
    (8 px/mm). The same SVG without its rules (DejaVu Sans drawn instead) differs by more.

    Why one installed font: Chromium 156 with no font at all fails to load one of two faces of a
    family whenever a single text needs both (e.g. "Ā AB": base and U+0100 chunks), with a
    NetworkError, every time (measured); with any font installed every face loads."""
    require_chromium("compares chunk-font SVG pages, drawn by a browser with no Noto Sans, with the PDF")
    if not DEJAVU.is_dir():
        pytest.skip(f"needs DejaVu Sans in {DEJAVU} (apt-get install fonts-dejavu-core) as the browser's only font")
    result = build_kit(str(specs_dir() / kit), out=tmp_path / "out", formats=("pdf", "svg"))

    def pick(path: Path) -> bool:
        text = path.read_text(encoding="utf-8")
        if wanted:  # a page with a character of each block (Greek, Cyrillic)
            return all(any(lo <= ord(c) < hi for c in text) for lo, hi in wanted)
        return 'font-style="italic"' in text
    svg = next(p for p in sorted(result.files) if p.suffix == ".svg" and pick(p))
    rules = _page_rules(svg.read_text(encoding="utf-8"))
    assert rules and all(r["range"] for r in rules)
    if wanted:
        assert len(rules) >= 3                                # base, Greek and Cyrillic at least
    else:
        assert any(r["font-style"] == "italic" for r in rules)
    number = int(re.search(r"-p(\d+)\.svg$", svg.name).group(1))
    bare = tmp_path / "bare.svg"
    bare.write_text(re.sub(r"<style\b.*?</style>", "", svg.read_text(encoding="utf-8"), flags=re.S), encoding="utf-8")
    root = ET.parse(svg).getroot()
    w, h = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
    embedded, control = _differ_pair(svg, bare, pdf_of(result), number, tmp_path, round(w * 8), round(h * 8),
                                     font_dirs=[DEJAVU])
    assert embedded <= 0.02, f"{embedded:.2%} of pixels differ"
    assert control > 0.02, f"without its fonts the page should differ, but only {control:.2%} of pixels do"
