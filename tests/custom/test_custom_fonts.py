"""Your own fonts: a spec declares TTF/OTF files by name (``fonts:``), a template's
text layer chooses one (``font:``); the font is checked before anything is drawn (pnp.inputs.fontfile),
and a cell with a character the font lacks is bad input naming the data file, row, column and the
character.

The test fonts are made here with fontTools' FontBuilder (a TrueType and a CFF-flavoured OpenType
font with the capitals, the digits, the space and a round O), so nothing binary is committed.
"""
from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import snapshot
from pnp.cli import app

runner = CliRunner()

CHARS = "ABCDEFGHIJKLMNPQRSTUVWXYZ0123456789"  # and O, drawn round, and the space
UNUSED = "\u0416\u03a9"  # Ж and Ω: in the font, on no card (a subset leaves them out)
UPM = 1000
ADVANCE = {"space": 250, "O": 700}  # every other glyph advances 600 units


def _glyph_name(ch: str) -> str:
    return "O" if ch == "O" else f"g{ord(ch):04X}"


def _draw(pen, name: str) -> None:
    """A 500 x 700 unit box for each glyph, and O as a ring of cubic curves (a circle, r = 320 units)."""
    if name in ("space", ".notdef"):
        return
    if name != "O":
        pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((550, 700)); pen.lineTo((550, 0)); pen.closePath()
        return
    k, cx, cy, r = 0.5523, 350, 350, 320
    pen.moveTo((cx + r, cy))
    pen.curveTo((cx + r, cy + k * r), (cx + k * r, cy + r), (cx, cy + r))
    pen.curveTo((cx - k * r, cy + r), (cx - r, cy + k * r), (cx - r, cy))
    pen.curveTo((cx - r, cy - k * r), (cx - k * r, cy - r), (cx, cy - r))
    pen.curveTo((cx + k * r, cy - r), (cx + r, cy - k * r), (cx + r, cy))
    pen.closePath()


def make_font(path: Path, *, cff: bool = False, fs_type: int = 0, family: str = "Pnp Test") -> Path:
    """A small font at ``path``: TrueType outlines, or CFF ones when ``cff`` (an OTF), with OS/2 ``fs_type``."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = CHARS + "O" + UNUSED
    names = [".notdef", "space"] + [_glyph_name(c) for c in chars]
    advance = {n: ADVANCE.get(n, 600) for n in names}
    ps = family.replace(" ", "") + "-Regular"
    fb = FontBuilder(UPM, isTTF=not cff)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(c): _glyph_name(c) for c in chars}})
    if cff:
        strings = {}
        for n in names:
            pen = T2CharStringPen(advance[n], None)
            _draw(pen, n)
            strings[n] = pen.getCharString()
        fb.setupCFF(ps, {"FullName": family}, strings, {})
    else:
        glyphs = {}
        for n in names:
            pen = TTGlyphPen(None)
            _draw(Cu2QuPen(pen, 1.0, reverse_direction=True), n)
            glyphs[n] = pen.glyph()
        fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (advance[n], {"space": 0, ".notdef": 0, "O": 30}.get(n, 50)) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular", "psName": ps})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200, sCapHeight=700,
                fsType=fs_type)
    fb.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))
    return path


RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
SPEC = ("title: Deck\ncomponents:\n  - name: card\n    size: poker\n    data: deck.csv\n    front: front.yaml\n"
        "fonts:\n  Title: fonts/title.{ext}\n{extra}")
FRONT = ('layers:\n'
         '  - {type: rect, fill: "#ffffff", bleed: true}\n'
         '  - {type: text, text: "{word}", x: 5, y: 5, w: 53, h: 20, size: 18, font: Title}\n'
         '  - {type: text, text: "{note}", x: 5, y: 60, w: 53, h: 20, size: 9}\n')
CSV = "word,note\nTREE 42,plain words\nOAK,noto sans\n"


def _game(folder: Path, *, cff: bool = False, extra: str = "", front: str = FRONT, csv: str = CSV) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    make_font(folder / "fonts" / f"title.{'otf' if cff else 'ttf'}", cff=cff)
    (folder / "deck.yaml").write_text(SPEC.format(ext="otf" if cff else "ttf", extra=extra), encoding="utf-8")
    (folder / "front.yaml").write_text(front, encoding="utf-8")
    (folder / "deck.csv").write_text(csv, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    return folder / "deck.yaml"


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An output folder holding a good kit of the same name, to prove a refused build changes nothing."""
    root = tmp_path_factory.mktemp("good")
    out = root / "out"
    r = runner.invoke(app, ["build", str(_game(root / "deck")), "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    return out


# ---- bad input: exit 2, file, line or row and column, field, nothing written ------------------------------------

def _collection(path: Path) -> None:
    from fontTools.ttLib import TTCollection, TTFont
    a, b = make_font(path.with_suffix(".a.ttf")), make_font(path.with_suffix(".b.ttf"), family="Pnp Other")
    coll = TTCollection()
    coll.fonts = [TTFont(str(a)), TTFont(str(b))]
    coll.save(str(path))


def _woff(path: Path) -> None:
    from fontTools.ttLib import TTFont
    font = TTFont(str(make_font(path.with_suffix(".src.ttf"))))
    font.flavor = "woff"
    font.save(str(path))


def _truncated(path: Path) -> None:
    data = make_font(path).read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])


def _huge(path: Path) -> None:
    with open(path, "wb") as f:  # sparse: 31 MiB that take no room
        f.truncate(31 * 1024 * 1024)


# name: (make the font file at the given path, spec line, words in the message)
FONT_FILES = {
    "missing file": (lambda p: p.unlink(), ["does not exist"]),
    "not a font": (lambda p: p.write_text("word\nTREE\n", encoding="utf-8"), ["is not a TrueType or OpenType font"]),
    "collection": (_collection, ["font collection", "holding 2 fonts", "fonttools ttLib -y 0"]),
    "web font": (_woff, ["web font (WOFF)", "--flavor"]),
    "truncated": (_truncated, ["truncated or damaged"]),
    "restricted licence": (lambda p: make_font(p, fs_type=0x0002),
                           ["restricted licence", "fsType is 0x0002", "forbids embedding"]),
    "no subsetting": (lambda p: make_font(p, fs_type=0x0100), ["does not allow itself to be subset", "0x0100"]),
    "over 30 MiB": (_huge, ["over 30 MiB"]),
    "folder": (lambda p: (p.unlink(), p.mkdir()), ["is a folder"]),
}


def _refused(existing: Path, spec: Path, where: list[str], needles: list[str]) -> None:
    """Both build and validate exit 2 with every piece of ``where`` and ``needles`` in the message,
    and the existing kit is byte-for-byte as it was."""
    before = snapshot(existing)
    for command in ("build", "validate"):
        args = [command, str(spec)] + (["--out", str(existing), "-f", "pdf,svg"] if command == "build" else [])
        r = runner.invoke(app, args)
        out = " ".join(r.output.split())
        assert r.exit_code == 2, (command, r.output)
        assert "Traceback" not in r.output
        for needle in where + needles:
            assert needle in out, (needle, out)
    assert snapshot(existing) == before


@pytest.mark.parametrize("case", sorted(FONT_FILES))
def test_a_bad_font_file_is_refused_naming_the_declaration(existing, tmp_path, case):
    spec = _game(tmp_path / "deck")
    make, needles = FONT_FILES[case]
    make(tmp_path / "deck" / "fonts" / "title.ttf")
    _refused(existing, spec, ["deck.yaml, line 8, field fonts.Title", "font 'Title'"], needles)


def test_too_many_glyphs_is_refused_before_the_outlines_are_read(existing, tmp_path, monkeypatch):
    from fontTools.ttLib import TTFont

    from pnp.inputs import fontfile
    monkeypatch.setattr(fontfile, "MAX_GLYPHS", 10)  # the build's font book has parsed no font yet
    parsed = []
    monkeypatch.setattr(TTFont, "ensureDecompiled", lambda self, *a, **k: parsed.append(self))
    spec = _game(tmp_path / "deck")
    _refused(existing, spec, ["deck.yaml, line 8, field fonts.Title"], ["has 40 glyphs (limit 10"])
    assert parsed == []


SPEC_CASES = {
    # name: (spec extra / replaced fonts block, front, where, words)
    "unknown font in a template": (
        None, FRONT.replace("font: Title", "font: Titel"),
        ["front.yaml, line 3, field font"], ["font 'Titel' is not declared", "its fonts: Title"]),
    "built-in font's name": ("  noto sans: fonts/title.ttf\n", None, ["deck.yaml, line 9"], ["built-in font's name"]),
    "font name with a slash": ("  Bad/Name: fonts/title.ttf\n", None, ["deck.yaml, line 9"], ["a font name must be"]),
    "17 fonts": ("".join(f"  F{i}: fonts/title.ttf\n" for i in range(16)), None, ["deck.yaml, line 7, field fonts"],
                 ["declares 17 fonts (limit 16)"]),
}


@pytest.mark.parametrize("case", sorted(SPEC_CASES))
def test_a_bad_font_declaration_is_refused(existing, tmp_path, case):
    extra, front, where, needles = SPEC_CASES[case]
    spec = _game(tmp_path / "deck", extra=extra or "", front=front or FRONT)
    _refused(existing, spec, where, needles)


@pytest.mark.parametrize("cff", [False, True], ids=["ttf", "otf"])
def test_a_character_the_font_lacks_names_the_row_column_and_character(existing, tmp_path, cff):
    """'é' is not in the test font: refused naming deck.csv, its line and row, the column and U+00E9,
    while the same character in a column set in Noto Sans is fine."""
    csv = CSV + "CAF\u00c9,caf\u00e9 in noto sans\n"
    spec = _game(tmp_path / "deck", cff=cff, csv=csv)
    _refused(existing, spec, ["deck.csv, line 4, field text", "row 4, column 1 (word)"],
             ["'\u00c9' (U+00C9) is not in the font Title", "front.yaml layer 2"])
    (tmp_path / "deck" / "deck.csv").write_text(CSV + "CAFE,caf\u00e9 in noto sans\n", encoding="utf-8")
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out"), "-f", "pdf"])
    assert r.exit_code == 0, r.output


def test_a_lowercase_letter_the_font_lacks_is_refused_though_the_cell_is_ascii(existing, tmp_path):
    """The test font has capitals and digits only: a cell of printable ASCII is checked glyph by
    glyph all the same (only a font drawing every printable ASCII character skips the check)."""
    spec = _game(tmp_path / "deck", csv=CSV + "Oak,fine\n")
    _refused(existing, spec, ["deck.csv, line 4, field text", "row 4, column 1 (word)"],
             ["'a' (U+0061) is not in the font Title", "front.yaml layer 2"])


def test_the_glyphs_check_uses_each_layers_font(tmp_path):
    """`checks: glyphs` fails naming the row, column and the font that lacks the character."""
    spec = _game(tmp_path / "deck", extra="checks:\n  - {check: glyphs, component: card}\n",
                 csv=CSV + "Oak,fine\n")
    r = runner.invoke(app, ["validate", str(spec)])
    out = " ".join(r.output.split())
    assert r.exit_code == 1, r.output
    assert "'a' (U+0061) in row 4, column word, not in the font Title (title.ttf)" in out, out
    assert "note" not in out.split("missing:")[1], out  # Noto Sans has every letter of the note column


# ---- the reader -------------------------------------------------------------------------------------------------

def test_the_font_file_is_a_watched_input(tmp_path):
    from pnp.pipeline.plan import Request, load_paper, plan
    spec = _game(tmp_path / "deck")
    got = plan([str(spec)], Request(paper=load_paper("a4"), formats=("pdf",)))
    assert (tmp_path / "deck" / "fonts" / "title.ttf") in got.targets[0].inputs


def _bounds(font, name: str) -> tuple[float, ...]:
    from fontTools.pens.boundsPen import BoundsPen
    pen = BoundsPen(font.getGlyphSet())
    font.getGlyphSet()[name].draw(pen)
    return pen.bounds


def _points_on(font, name: str, steps: int = 24) -> list[tuple[float, float]]:
    """Points along the outline of glyph ``name`` (each segment sampled), in font units."""
    from fontTools.pens.basePen import BasePen

    class Sampler(BasePen):
        def __init__(self, glyphs):
            super().__init__(glyphs)
            self.points: list[tuple[float, float]] = []

        def _moveTo(self, p):
            self.points.append(p)

        def _lineTo(self, p):
            self.points.append(p)

        def _curveToOne(self, p1, p2, p3):
            p0 = self._getCurrentPoint()
            for i in range(1, steps + 1):
                t = i / steps
                u = 1 - t
                self.points.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                                         for a, b, c, d in zip(p0, p1, p2, p3)))

    pen = Sampler(font.getGlyphSet())
    font.getGlyphSet()[name].draw(pen)  # quadratic segments are decomposed to cubics by BasePen
    return pen.points


def test_a_cff_font_is_converted_to_truetype_outlines_within_a_thousandth_of_an_em(tmp_path):
    from fontTools.ttLib import TTFont

    from pnp.inputs.fontfile import CU2QU_MAX_ERR, read_font
    src = make_font(tmp_path / "t.otf", cff=True)
    got = read_font(src, "Title")
    assert got.converted and got.data != src.read_bytes() and got.source == src
    ttf, otf = TTFont(io.BytesIO(got.data)), TTFont(str(src))
    assert "glyf" in ttf and "CFF " not in ttf and "CFF " in otf
    assert ttf.getBestCmap() == otf.getBestCmap()
    assert ttf["hmtx"].metrics == otf["hmtx"].metrics
    for name in otf.getGlyphOrder():
        if name in ("space", ".notdef"):
            continue
        assert all(abs(a - b) <= 1 for a, b in zip(_bounds(ttf, name), _bounds(otf, name))), name
    # every point on the converted O lies within the conversion's tolerance of the original circle
    # (plus 0.71: points are rounded to whole units; plus 0.1: four cubics are not quite a circle)
    tolerance = UPM * CU2QU_MAX_ERR + 0.71 + 0.1
    points = _points_on(ttf, "O")
    assert len(points) > 24
    for x, y in points:
        assert abs(math.hypot(x - 350, y - 350) - 320) <= tolerance, (x, y)
    assert got.missing("OAK 7 \u00e9\u0416") == ["\u00e9"]


# ---- drawn: PDF (embedded subset), SVG (@font-face per page), cut-svg (outlines) ---------------------------------

SIZE_PT = 18.0
EM_MM = SIZE_PT * 25.4 / 72  # the test font's em at 18 pt, in mm
SET_IN_TITLE = ("TREE 42", "OAK")  # the word column, set in the declared font


@pytest.fixture(scope="module", params=[False, True], ids=["ttf", "otf"])
def kit(request, tmp_path_factory):
    """The test deck built with the font as TTF or as CFF OTF, in PDF, SVG and cutter SVG."""
    root = tmp_path_factory.mktemp("otf" if request.param else "ttf")
    spec = _game(root / "deck", cff=request.param)
    r = runner.invoke(app, ["build", str(spec), "--out", str(root / "out"), "-f", "pdf,svg,cut-svg"])
    assert r.exit_code == 0, r.output
    return root / "out" / "deck"


def test_the_pdf_embeds_a_subset_of_the_declared_font(kit):
    import re
    from io import BytesIO

    import pymupdf as fitz
    from fontTools.ttLib import TTFont
    doc = fitz.open(kit / "deck-a4.pdf")
    fonts = {f[3]: f[0] for f in doc[1].get_fonts()}  # base font name -> xref
    ours = [name for name in fonts if name.endswith("+PnpTest-Regular")]
    assert len(ours) == 1 and re.fullmatch(r"[A-Z]{6}\+PnpTest-Regular", ours[0]), fonts  # ABCDEF+: a subset
    assert any(name.endswith("+NotoSans-Regular") for name in fonts), fonts  # the note column
    _, ext, _, content = doc.extract_font(fonts[ours[0]])
    assert ext == "ttf" and content  # embedded: the font program is in the file
    embedded = TTFont(BytesIO(content))
    source = TTFont(str(next((kit.parent.parent / "deck" / "fonts").iterdir())))
    # reportlab's first subset holds the ASCII range; the glyphs beyond it that no card uses are left out
    assert embedded["maxp"].numGlyphs <= source["maxp"].numGlyphs - len(UNUSED)


def test_the_pdf_text_reads_back_in_the_declared_font_at_its_size(kit):
    import pdfplumber
    with pdfplumber.open(kit / "deck-a4.pdf") as pdf:
        chars = pdf.pages[1].chars
    ours = [c for c in chars if c["fontname"].endswith("+PnpTest-Regular")]
    words = "".join(c["text"] for c in ours)
    assert words == "".join(SET_IN_TITLE), words
    assert all(abs(c["size"] - SIZE_PT) < 0.01 for c in ours)
    # the advances are the declared font's: 0.6 em a glyph, 0.25 em a space (Noto Sans's differ)
    first = [c for c in ours if c["text"] in "TRE"]
    for c in first[:4]:
        assert abs((c["x1"] - c["x0"]) - 0.6 * SIZE_PT) < 0.01, c
    noto = {c["text"] for c in chars if c["fontname"].endswith("+NotoSans-Regular")}
    assert set("plainwords") <= noto


def test_the_pdf_glyphs_are_the_declared_outlines(kit):
    """Rendered at 600 dpi, the T of TREE is the test font's solid box: from 0.05 to 0.55 em right of
    its origin and from the baseline up to 0.7 em, to within 0.02 em (0.13 mm), empty around it."""
    import pymupdf as fitz
    import pdfplumber
    with pdfplumber.open(kit / "deck-a4.pdf") as pdf:
        page = pdf.pages[1]
        t = next(c for c in page.chars if c["fontname"].endswith("+PnpTest-Regular") and c["text"] == "T")
        height = float(page.height)
    ox, oy = t["matrix"][4], height - t["matrix"][5]  # the glyph origin, pt from the top left
    em = SIZE_PT
    zoom = 600 / 72
    doc = fitz.open(kit / "deck-a4.pdf")
    pix = doc[1].get_pixmap(matrix=fitz.Matrix(zoom, zoom), colorspace=fitz.csGRAY,
                            clip=fitz.Rect(ox - em, oy - em, ox + 2 * em, oy + em))

    def ink(fx: float, fy: float) -> bool:  # fx, fy in em from the origin, y up
        px = round((fx * em + em) * zoom)
        py = round((em - fy * em) * zoom)
        return pix.pixel(px, py)[0] < 128

    assert ink(0.3, 0.35) and ink(0.07, 0.02) and ink(0.53, 0.68)
    assert not ink(0.03, 0.35) and not ink(0.57, 0.35) and not ink(0.3, 0.72) and not ink(0.3, -0.02)


def _svg(path: Path):
    import xml.etree.ElementTree as ET
    return ET.parse(path).getroot()


SVG = "{http://www.w3.org/2000/svg}"


def test_each_svg_page_carries_the_declared_font_and_sets_the_text_in_it(kit):
    import base64
    import re
    from io import BytesIO

    from fontTools.ttLib import TTFont
    root = _svg(kit / "svg" / "deck-a4-p02.svg")
    faces = {}
    for style in root.iter(f"{SVG}style"):
        for family, data in re.findall(r"font-family: '([^']+)';.*?base64,([A-Za-z0-9+/=]+)\)", style.text or ""):
            faces[family] = TTFont(BytesIO(base64.b64decode(data)))
    ours = [f for f in faces if f.startswith("pnp Title-")]
    assert len(ours) == 1, faces
    font = faces[ours[0]]
    assert {ord(c) for c in "".join(SET_IN_TITLE) if c != " "} <= set(font.getBestCmap())
    assert not {ord(c) for c in UNUSED} & set(font.getBestCmap())  # a subset: what no card uses is left out
    from fontTools.pens.boundsPen import BoundsPen
    glyphs = font.getGlyphSet()
    pen = BoundsPen(glyphs)
    glyphs[font.getBestCmap()[ord("T")]].draw(pen)
    assert pen.bounds == (50, 0, 550, 700)  # the declared font's own outline
    texts = {el.text: el for el in root.iter(f"{SVG}text")}
    for word in SET_IN_TITLE:
        el = texts[word]
        assert el.get("font-family").startswith(f"'{ours[0]}', 'Pnp Test'"), el.attrib
        assert abs(float(el.get("font-size")) - EM_MM) < 1e-3
    assert texts["plain words"].get("font-family").startswith("'pnp Noto Sans'")


def _path_bounds(d: str) -> tuple[float, float, float, float]:
    """The bounding box of the points of an SVG path's absolute M, L, H, V, Q, C and Z commands."""
    import re
    xs, ys = [], []
    x = y = 0.0
    cmd = ""
    tokens = re.findall(r"[MLHVQCZ]|-?\d*\.?\d+(?:e-?\d+)?", d)
    i = 0
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            continue
        n = {"M": 2, "L": 2, "H": 1, "V": 1, "Q": 4, "C": 6}[cmd]
        vals = [float(v) for v in tokens[i:i + n]]
        i += n
        if cmd == "H":
            x = vals[0]
        elif cmd == "V":
            y = vals[0]
        else:
            for j in range(0, n, 2):
                xs.append(vals[j]); ys.append(vals[j + 1])
            x, y = vals[-2], vals[-1]
        xs.append(x); ys.append(y)
    return min(xs), min(ys), max(xs), max(ys)


def test_the_cutter_svg_draws_the_declared_font_as_outlines(kit):
    """No <text> in the cutter SVG; the line TREE 42 is one path whose ink runs from 0.05 em to
    3.8 em and from the baseline up 0.7 em (the test font's boxes), in mm."""
    root = _svg(kit / "cut" / "deck-a4-p02-cut.svg")
    assert not list(root.iter(f"{SVG}text"))
    want = (0.05 * EM_MM, -0.7 * EM_MM, 3.8 * EM_MM, 0.0)
    found = [_path_bounds(p.get("d")) for p in root.iter(f"{SVG}path")]
    assert any(all(abs(a - b) < 0.01 for a, b in zip(got, want)) for got in found), (want, found[:5])


def test_a_font_edited_between_builds_of_one_process_is_drawn_anew(tmp_path):
    """As in `pnp watch`: the same path with new content becomes a new face (its name holds the
    content's hash), so the second build embeds the new font, not the first one registered."""
    import pymupdf
    spec = _game(tmp_path / "deck")
    out = tmp_path / "out"
    names = []
    for family in ("Pnp Test", "Pnp Other"):
        make_font(tmp_path / "deck" / "fonts" / "title.ttf", family=family)
        r = runner.invoke(app, ["build", str(spec), "--out", str(out), "-f", "pdf"])
        assert r.exit_code == 0, r.output
        names.append({f[3].split("+")[-1] for f in pymupdf.open(out / "deck" / "deck-a4.pdf")[1].get_fonts()})
    assert "PnpTest-Regular" in names[0] and "PnpOther-Regular" in names[1] and "PnpTest-Regular" not in names[1]


# ---- rich text in a declared font ---------------------------------------------------------------------------------

RICH = ('layers:\n'
        '  - {type: text, text: "**{word}** *{word}* {word}", x: 5, y: 5, w: 53, h: 20, size: 9, wrap: true, font: Title'
        'ITALIC}\n')


def test_marked_up_text_is_set_in_the_layers_fonts(tmp_path):
    """**bold** runs in the layer's bold_font, *italic* ones in its italic_font, plain runs in its
    font, read back from the PDF by font name: no glyph drawn in a face the spec did not declare."""
    import pdfplumber
    folder = tmp_path / "deck"
    spec = _game(folder, extra="  Title Italic: fonts/italic.ttf\n  Title Bold: fonts/bold.ttf\n",
                 front=RICH.replace("ITALIC", ", italic_font: Title Italic, bold_font: Title Bold"))
    make_font(folder / "fonts" / "italic.ttf", family="Pnp Slant")
    make_font(folder / "fonts" / "bold.ttf", family="Pnp Heavy")
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    with pdfplumber.open(out / "deck" / "deck-a4.pdf") as pdf:
        chars = pdf.pages[1].chars
    by_font: dict[str, str] = {}
    for c in chars:
        by_font[c["fontname"].split("+")[-1]] = by_font.get(c["fontname"].split("+")[-1], "") + c["text"]
    assert by_font["PnpSlant-Regular"] == "TREE 42OAK", by_font  # the italic runs
    assert by_font["PnpHeavy-Regular"] == "TREE 42OAK", by_font  # the bold runs
    assert by_font["PnpTest-Regular"].replace(" ", "") == "TREE42OAK", by_font  # the plain runs
    assert "TREE" not in by_font["NotoSans-Regular"] and "NotoSans-Bold" not in by_font, by_font  # page furniture only


def test_bold_in_a_layer_with_a_font_and_no_bold_font_is_refused(existing, tmp_path):
    spec = _game(tmp_path / "deck", front=RICH.replace("ITALIC", ""))
    _refused(existing, spec, ["deck.csv, line 2, field text", "row 2, column 1 (word)"],
             ["starts bold text", "font Title has no bold face", "bold_font"])


def test_italic_in_a_layer_with_a_font_and_no_italic_font_is_refused(existing, tmp_path):
    spec = _game(tmp_path / "deck", front=RICH.replace("ITALIC", ", bold_font: Title"))
    _refused(existing, spec, ["deck.csv, line 2, field text", "row 2, column 1 (word)"],
             ["starts italic text", "font Title has no italic face", "italic_font"])


def test_an_undeclared_italic_font_is_refused(existing, tmp_path):
    spec = _game(tmp_path / "deck", front=RICH.replace("ITALIC", ", italic_font: Slanted"))
    _refused(existing, spec, ["front.yaml, line 2, field italic_font"], ["font 'Slanted' is not declared",
                                                                         "its fonts: Title"])


def test_the_svg_page_in_a_browser_without_the_font_matches_the_pdf(kit, tmp_path):
    """Chromium with no font installed draws the page from the SVG's embedded subsets: at most 2 % of
    pixels differ from PDFium's drawing of the PDF page (8 px/mm). The control removes the declared
    font's @font-face: that must differ by more, so the embedded subset is what the browser used."""
    import re

    from browser import require_chromium
    from test_svg_fonts import _differ_pair
    require_chromium("compares an SVG page set in a declared font, drawn by a browser, with the PDF page")
    svg = kit / "svg" / "deck-a4-p02.svg"
    text = svg.read_text(encoding="utf-8")
    bare = tmp_path / "bare.svg"
    bare.write_text(re.sub(r"<style[^>]*><!\[CDATA\[@font-face \{ font-family: 'pnp Title-.*?</style>", "", text,
                           flags=re.S), encoding="utf-8")
    assert "pnp Title-" in text and "@font-face { font-family: 'pnp Title-" not in bare.read_text(encoding="utf-8")
    embedded, control = _differ_pair(svg, bare, kit / "deck-a4.pdf", 2, tmp_path, 210 * 8, 297 * 8)
    assert embedded <= 0.02, f"{embedded:.2%} of pixels differ"
    # the words in the font cover little of an A4 page: measured 0.025 % with the font, 0.25 % without
    assert control > max(0.001, 4 * embedded), f"without its font the page should differ more ({control:.3%})"


def test_a_declared_fonts_svg_subset_is_found_in_the_cache_by_the_next_process(tmp_path):
    """Each process copies a declared font into a new private folder; the SVG subset cache in
    OUT/.pnp/cache keys such a font by its bytes, so a second build (a new process) makes no new entry."""
    import subprocess
    import sys
    spec = _game(tmp_path / "g")
    out = tmp_path / "out"
    cache = out / ".pnp" / "cache"
    runs = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-m", "pnp", "build", str(spec), "--format", "svg", "-o", str(out)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        runs.append(sorted(p.name for p in cache.rglob("*") if p.is_file()))
    assert runs[0], "the first build stored no font subset"
    assert runs[1] == runs[0]
