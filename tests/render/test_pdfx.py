"""CMYK and PDF/X-4 output (docs/print.md), read back: pikepdf for the structure (every content
stream, of pages and of forms), the shipped ICC profile's header, Ghostscript (AGPL, tests only) for
rendering and ink coverage (its ``inkcov`` device)."""
from __future__ import annotations

import hashlib
import io
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageCms
from typer.testing import CliRunner

from conftest import REPO, pdf_of
from pnp.cli import app
from pnp.colour.press import SHIPPED, shipped_press
from pnp.core.ir import Image as IrImage, Line, Page, Rect, Text
from pnp.core.units import MM_PER_PT
from pnp.engine.plugins import game_names
from pnp.render.pdf import PdfWriter
from pnp.render.pdfpost import content_tag
from pnp.render.pod import SERVICES

runner = CliRunner()
GS = shutil.which("gs")
KITS = ("playing-cards", "questions")  # pictures (PNG, SVG art), icons, template text; rich text
COLOUR_OPS = {"rg", "RG", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS"}  # none of these in a CMYK file: only k / K


def _pt(mm: float) -> float:
    return mm / MM_PER_PT


@pytest.fixture(scope="module")
def x4(tmp_path_factory):
    """Two kits built with --pdfx --bleed 3 as sheets (pdf) and per-card files (pod, DriveThruCards):
    {kit: (sheet PDF, [per-card PDFs])}."""
    out = tmp_path_factory.mktemp("x4")
    got = {}
    for kit in KITS:
        r = runner.invoke(app, ["build", str(REPO / "specs" / kit), "--pdfx", "--bleed", "3", "-f", "pdf,pod",
                                "--service", "drivethru", "-o", str(out), "-q"])
        assert r.exit_code == 0, r.output
        folder = out / kit
        got[kit] = (next(folder.glob("*.pdf")), sorted((folder / "pod").rglob("*.pdf")))
    return got


def _all_pdfs(x4) -> list[Path]:
    return [p for sheet, cards in x4.values() for p in [sheet, *cards]]


def _walk(pdf):
    """(content stream operations, resources, xobjects seen) of every page and form, once each."""
    seen: dict = {}

    def walk(obj, resources):
        yield pikepdf.parse_content_stream(obj), resources
        xobjects = resources.get("/XObject") if resources is not None else None
        for _, x in (xobjects.items() if xobjects is not None else ()):
            if x.objgen in seen:
                continue
            seen[x.objgen] = x
            if x.get("/Subtype") == "/Form":
                yield from walk(x, x.get("/Resources"))
    for page in pdf.pages:
        yield from walk(page, page.obj.get("/Resources"))


def _images(pdf) -> list:
    images = {}
    for _, resources in _walk(pdf):
        xobjects = resources.get("/XObject") if resources is not None else None
        for _, x in (xobjects.items() if xobjects is not None else ()):
            if x.get("/Subtype") == "/Image":
                images[x.objgen] = x
    return list(images.values())


def _fonts(pdf) -> list:
    """Every font named by a page's or a form's resources."""
    fonts = {}
    for _, resources in _walk(pdf):
        named = resources.get("/Font") if resources is not None else None
        for _, f in (named.items() if named is not None else ()):
            fonts[f.objgen] = f
    return list(fonts.values())


def _program(font):
    for f in [font] + list(font.get("/DescendantFonts", [])):
        desc = f.get("/FontDescriptor")
        for key in ("/FontFile2", "/FontFile3", "/FontFile"):
            if desc is not None and key in desc:
                return desc[key].read_bytes()
    return None


def test_header_intent_and_identification(x4):
    icc = SHIPPED.read_bytes()
    for path in _all_pdfs(x4):
        assert path.read_bytes()[:8] == b"%PDF-1.6", path
        with pikepdf.open(path) as pdf:
            [intent] = pdf.Root.OutputIntents
            assert intent.S == "/GTS_PDFX" and intent.Type == "/OutputIntent"
            assert str(intent.OutputConditionIdentifier) == "CGATS TR 003"
            assert str(intent.RegistryName) == "http://www.color.org"
            profile = intent.DestOutputProfile
            data = profile.read_bytes()
            assert profile.N == 4 and data[16:20] == b"CMYK" and data[12:16] == b"prtr" and data == icc
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
            assert pdf.docinfo["/Trapped"] == "/False" and str(pdf.docinfo["/Title"])
            assert len(pdf.trailer.ID) == 2
            with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
                assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
                assert meta["pdf:Trapped"] == "False"
                assert meta["xmpMM:DocumentID"].startswith("uuid:") and meta["xmpMM:VersionID"] == "1"
                assert meta["xmp:CreateDate"] and meta["xmp:ModifyDate"] and meta["dc:title"]


def test_trim_and_bleed_boxes_per_page(x4):
    """Sheets: TrimBox = BleedBox = the A4 sheet. Per-card files: TrimBox = the poker card (63.5 x
    88.9 mm), BleedBox = the card and the service's bleed round it."""
    close = lambda a, b: all(abs(float(x) - float(y)) < 0.01 for x, y in zip(a, b))  # noqa: E731
    for kit, (sheet, cards) in x4.items():
        with pikepdf.open(sheet) as pdf:
            for page in pdf.pages:
                assert close(page.TrimBox, (0, 0, _pt(210), _pt(297))), (kit, list(page.TrimBox))
                assert close(page.BleedBox, page.TrimBox)
        bleed = SERVICES["drivethru"].bleed
        w, h = (63.5, 88.9) if kit == "playing-cards" else (None, None)
        for card in cards:
            with pikepdf.open(card) as pdf:
                for page in pdf.pages:
                    x0, y0, x1, y1 = map(float, page.TrimBox)
                    if w is not None:
                        assert abs((x1 - x0) - _pt(w)) < 0.01 and abs((y1 - y0) - _pt(h)) < 0.01
                    assert close(page.BleedBox, (x0 - _pt(bleed), y0 - _pt(bleed), x1 + _pt(bleed), y1 + _pt(bleed)))
                    assert close(page.MediaBox, page.BleedBox)


def test_only_cmyk_colour_anywhere(x4):
    """No RGB or grey colour operator in any content stream (pages and forms), every image DeviceCMYK
    (a soft mask DeviceGray), no inline image, no text render mode 2."""
    for path in _all_pdfs(x4):
        with pikepdf.open(path) as pdf:
            ops = {}
            for ops_list, _ in _walk(pdf):
                for operands, op in ops_list:
                    ops.setdefault(str(op), []).append(operands)
            assert not COLOUR_OPS & set(ops), (path.name, COLOUR_OPS & set(ops))
            assert "k" in ops and "BI" not in ops
            assert all(float(o[0]) != 2 for o in ops.get("Tr", []))
            for image in _images(pdf):
                assert image.ColorSpace == "/DeviceCMYK", (path.name, image.ColorSpace)
                if "/SMask" in image:
                    assert image.SMask.ColorSpace == "/DeviceGray"
    with pikepdf.open(x4["playing-cards"][0]) as pdf:
        assert _images(pdf)  # the joker's PNG is there, as DeviceCMYK


def test_every_font_embedded_with_a_content_tag_across_two_kits(x4):
    by_tag: dict[str, set] = {}
    for path in _all_pdfs(x4):
        with pikepdf.open(path) as pdf:
            fonts = _fonts(pdf)
            assert fonts
            for font in fonts:
                program = _program(font)
                assert program is not None, (path.name, str(font.BaseFont))  # no standard 14 font
                tag = re.fullmatch(r"/([A-Z]{6})\+.+", str(font.BaseFont))
                assert tag and tag.group(1) != "AAAAAA", str(font.BaseFont)
                by_tag.setdefault(tag.group(1), set()).add(hashlib.sha256(program).hexdigest())
    assert all(len(programs) == 1 for programs in by_tag.values()), by_tag  # one tag, one subset
    programs = [p for ps in by_tag.values() for p in ps]
    assert len(programs) == len(set(programs))  # and one subset, one tag
    assert len(by_tag) >= 4  # two kits, regular and bold faces, several subsets


ALL_KITS = game_names() + ["playing-cards", "questions"]


@pytest.mark.parametrize("kit", ALL_KITS)
def test_default_rgb_kits_embed_every_font_with_content_tags(kit, built):
    """Not only PDF/X: every PDF names only embedded fonts (forms and SVG art included), tagged from
    the subset's content."""
    result = built(kit if kit in game_names() else str(REPO / "specs" / kit))
    with pikepdf.open(pdf_of(result)) as pdf:
        fonts = _fonts(pdf)
        assert fonts
        tags = {}
        for font in fonts:
            program = _program(font)
            assert program is not None, str(font.BaseFont)
            tag = re.fullmatch(r"/([A-Z]{6})\+.+", str(font.BaseFont)).group(1)
            assert tag == content_tag(program)
            assert tags.setdefault(tag, program) == program


def test_svg_art_text_in_a_standard_font_is_embedded(tmp_path):
    """Text in SVG art names Helvetica (or nothing, svglib's default): pnp sets it in its own face."""
    art = tmp_path / "art.svg"
    art.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
                   '<text x="2" y="12" font-family="Helvetica" font-size="8">Hi</text>'
                   '<text x="2" y="19" font-family="Helvetica" font-weight="bold" font-size="6">Bo</text></svg>',
                   encoding="utf-8")
    path = tmp_path / "a.pdf"
    w = PdfWriter(path, title="art")
    w.add(Page(50, 30, (IrImage(2, 2, 40, 20, str(art)),), "p"))
    w.close()
    with pikepdf.open(path) as pdf:
        names = sorted(str(f.BaseFont).split("+")[-1] for f in _fonts(pdf))
        assert all(_program(f) is not None for f in _fonts(pdf)), names
        assert "NotoSans-Bold" in names and "NotoSans-Regular" in names, names


def test_svg_art_pictures_are_converted_and_the_shared_drawing_is_not(tmp_path):
    """A raster inside SVG art is drawn in CMYK in a CMYK file, and still in RGB in an RGB file made
    after it from the same (cached) drawing."""
    import base64
    png = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 114, 178)).save(png, format="PNG")
    art = tmp_path / "pic.svg"
    art.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" '
                   'height="20" viewBox="0 0 20 20"><image x="0" y="0" width="20" height="20" xlink:href="data:image/png;'
                   f'base64,{base64.b64encode(png.getvalue()).decode()}"/></svg>', encoding="utf-8")
    spaces = {}
    for press in (shipped_press(), None):
        path = tmp_path / f"{press is None}.pdf"
        w = PdfWriter(path, press=press)
        w.add(Page(30, 30, (IrImage(5, 5, 20, 20, str(art)),), "p"))
        w.close()
        with pikepdf.open(path) as pdf:
            found = set()
            for ops, _ in _walk(pdf):
                for op in ops:
                    if isinstance(op, pikepdf.ContentStreamInlineImage):
                        found.add(str(op.iimage.obj.get("/CS", op.iimage.obj.get("/ColorSpace"))))
            found |= {str(i.ColorSpace) for i in _images(pdf)}
        spaces[press is None] = found
    assert spaces[False] and all("CMYK" in s for s in spaces[False]), spaces
    assert spaces[True] and all("RGB" in s for s in spaces[True]), spaces


def _ink(pdf_path: Path) -> list[tuple[float, float, float, float]]:
    run = subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=inkcov", "-o", "-", str(pdf_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [tuple(map(float, line.split()[:4])) for line in run.stdout.splitlines() if line.strip().endswith("OK")]


def _small_black_page() -> Page:
    """6 pt and 10 pt black text and a 0.2 mm black line on a white card."""
    return Page(63.5, 88.9, (Text(5, 20, "Small black text, 6 pt", 6, fill="#000000"),
                             Text(5, 30, "Black text, 10 pt", 10, fill="#000000"),
                             Line(5, 40, 55, 40, stroke="#000000", stroke_width=0.2)), "card")


@pytest.mark.skipif(GS is None, reason="Ghostscript (apt-get install ghostscript; .ci/run installs it)")
def test_ghostscript_renders_and_small_black_is_k_only(x4, tmp_path):
    for path in _all_pdfs(x4)[:6]:
        run = subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage", str(path)],
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "Error" not in run.stdout + run.stderr, (path.name, run.stderr)
    for press, pdfx in ((shipped_press(), True), (None, False)):
        path = tmp_path / f"small-{pdfx}.pdf"
        w = PdfWriter(path, title="small black", press=press, pdfx=pdfx)
        w.add(_small_black_page())
        w.close()
        [(c, m, y, k)] = _ink(path)
        assert k > 0
        if pdfx:
            assert c == m == y == 0, (c, m, y, k)
        else:  # the RGB file: Ghostscript's conversion of RGB black is a four-colour black
            assert c > 0 and m > 0 and y > 0


def _transform_of(icc: Path):
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(icc)), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def test_colours_converted_once_through_the_profile(tmp_path):
    """A colour fill is the profile's CMYK of it (relative colorimetric, black-point compensation);
    black and greys are K only."""
    press = shipped_press()
    path = tmp_path / "c.pdf"
    w = PdfWriter(path, press=press, pdfx=True, title="colours")
    w.add(Page(50, 50, (Rect(0, 0, 50, 50, fill="#d55e00"), Rect(5, 5, 10, 10, fill="#808080"),
                        Rect(20, 5, 10, 10, fill="#000000"), Rect(35, 5, 10, 10, fill="#d55e00")), "p"))
    w.close()
    transform = _transform_of(SHIPPED)
    want = [v / 255 for v in ImageCms.applyTransform(Image.new("RGB", (1, 1), (0xd5, 0x5e, 0)), transform).getpixel((0, 0))]
    with pikepdf.open(path) as pdf:
        fills = [tuple(float(v) for v in operands) for ops, _ in _walk(pdf) for operands, op in ops if str(op) == "k"]
    assert any(all(abs(a - b) < 0.002 for a, b in zip(f, want)) for f in fills), (fills, want)
    assert (0, 0, 0, 1) in fills and any(f[:3] == (0, 0, 0) and abs(f[3] - (1 - 128 / 255)) < 0.002 for f in fills)
    assert len({f for f in fills if f[0] or f[1] or f[2]}) == 1  # one sRGB colour, one CMYK colour


def test_rgb_picture_becomes_cmyk_and_its_alpha_a_soft_mask(tmp_path):
    pic = tmp_path / "pic.png"
    im = Image.new("RGBA", (40, 30), (0, 114, 178, 255))
    im.paste((213, 94, 0, 0), (0, 0, 20, 30))  # the left half fully transparent
    im.save(pic)
    opaque = tmp_path / "opaque.png"
    Image.new("RGB", (16, 16), (0, 158, 115)).save(opaque)
    path = tmp_path / "p.pdf"
    transform = _transform_of(SHIPPED)
    w = PdfWriter(path, press=shipped_press(), title="pictures")
    w.add(Page(80, 60, (IrImage(5, 5, 40, 30, str(pic)), IrImage(50, 5, 16, 16, str(opaque))), "p"))
    w.close()
    with pikepdf.open(path) as pdf:
        images = _images(pdf)
        assert sorted((int(i.Width), int(i.Height)) for i in images) == [(16, 16), (40, 30)]
        for image in images:
            assert image.ColorSpace == "/DeviceCMYK" and image.BitsPerComponent == 8
            w, h = int(image.Width), int(image.Height)
            decoded = Image.frombytes("CMYK", (w, h), image.read_bytes())
            want = ImageCms.applyTransform(Image.new("RGB", (1, 1), (0, 114, 178) if w == 40 else (0, 158, 115)),
                                           transform).getpixel((0, 0))
            assert all(abs(a - b) <= 1 for a, b in zip(decoded.getpixel((w - 1, 0)), want)), (decoded.getpixel((w - 1, 0)), want)
        [masked] = [i for i in images if "/SMask" in i]
        alpha = pikepdf.PdfImage(masked.SMask).as_pil_image()
        assert int(masked.Width) == 40 and alpha.getpixel((5, 5)) == 0 and alpha.getpixel((35, 5)) == 255
        assert not any("/SMask" in i for i in images if int(i.Width) == 16)


def test_cmyk_without_pdfx_converts_but_does_not_claim_pdfx(tmp_path):
    r = runner.invoke(app, ["build", str(REPO / "specs" / "questions"), "--colour", "cmyk", "-f", "pdf",
                            "-o", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    with pikepdf.open(next((tmp_path / "questions").glob("*.pdf"))) as pdf:
        assert "/OutputIntents" not in pdf.Root and "/GTS_PDFXVersion" not in pdf.docinfo
        ops = {str(op) for ops, _ in _walk(pdf) for _, op in ops}
        assert "k" in ops and not COLOUR_OPS & ops


def test_icc_names_another_profile(tmp_path):
    """A user's CMYK profile is embedded as a custom output condition described by its own tag."""
    mine = tmp_path / "mine.icc"
    mine.write_bytes(SHIPPED.read_bytes())
    r = runner.invoke(app, ["build", str(REPO / "specs" / "questions"), "--pdfx", "--icc", str(mine), "-f", "pdf",
                            "-o", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 0, r.output
    with pikepdf.open(next((tmp_path / "out" / "questions").glob("*.pdf"))) as pdf:
        [intent] = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "Custom" and "/RegistryName" not in intent
        assert str(intent.Info) == ImageCms.getOpenProfile(str(mine)).profile.profile_description


def _rgb_profile() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


BAD_ICC = {
    "missing": (None, "no such file"),
    "text": (b"not a profile at all\n" * 10, "not an ICC profile"),
    "rgb": (_rgb_profile(), "colour space is RGB, not CMYK"),
    "truncated": (SHIPPED.read_bytes()[:5000], "truncated or damaged"),
    "folder": ("dir", "not a file"),
}


@pytest.mark.parametrize("case", sorted(BAD_ICC))
def test_bad_icc_exits_2_naming_the_file_and_writes_nothing(case, tmp_path):
    content, why = BAD_ICC[case]
    bad = tmp_path / f"bad-{case}.icc"
    if content == "dir":
        bad.mkdir()
    elif content is not None:
        bad.write_bytes(content)
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(REPO / "specs" / "questions"), "--pdfx", "--icc", str(bad), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert str(bad) in r.output and "--icc" in r.output and why in r.output, r.output
    assert "Traceback" not in r.output
    assert not out.exists()


GS_PROFILES = Path("/usr/share/color/icc/ghostscript")  # AGPL: used here, never copied into pnp


@pytest.mark.skipif(not (GS_PROFILES / "ps_cmyk.icc").is_file(), reason="Ghostscript's profiles are not installed")
def test_system_profiles_one_usable_one_refused_before_writing(tmp_path):
    """Ghostscript's default_cmyk.icc works; its ps_cmyk.icc passes the header checks but LittleCMS cannot
    convert with it: refused up front (exit 2, nothing written), not halfway through the kit."""
    r = runner.invoke(app, ["build", "nonaga", "--pdfx", "--icc", str(GS_PROFILES / "default_cmyk.icc"), "-f", "pdf",
                            "-o", str(tmp_path / "ok"), "-q"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["build", "nonaga", "--pdfx", "--icc", str(GS_PROFILES / "ps_cmyk.icc"), "-f", "pdf",
                            "-o", str(tmp_path / "bad")])
    assert r.exit_code == 2 and "ps_cmyk.icc" in r.output and "LittleCMS cannot use it" in r.output, r.output
    assert not (tmp_path / "bad").exists()


def test_colour_rgb_with_pdfx_is_refused(tmp_path):
    r = runner.invoke(app, ["build", "nonads", "--pdfx", "--colour", "rgb", "-o", str(tmp_path / "o")])
    assert r.exit_code == 2 and "--colour" in r.output and not (tmp_path / "o").exists()
    r = runner.invoke(app, ["build", "nonads", "--colour", "lab", "-o", str(tmp_path / "o")])
    assert r.exit_code == 2 and "rgb or cmyk" in r.output


def test_pdfx_build_is_reproducible(tmp_path):
    got = []
    for i in range(2):
        r = runner.invoke(app, ["build", "nonaga", "--pdfx", "-f", "pdf", "-o", str(tmp_path / str(i)), "-q"])
        assert r.exit_code == 0, r.output
        got.append(next((tmp_path / str(i) / "nonaga").glob("*.pdf")).read_bytes())
    assert got[0] == got[1]


def test_shipped_profile_names_its_source():
    notice = (SHIPPED.parent / "README.md").read_text(encoding="utf-8")
    assert "CGATS TR 003-2007" in notice and "characterization data" in notice
    header = SHIPPED.read_bytes()
    assert header[16:20] == b"CMYK" and header[36:40] == b"acsp"
    assert "TR 003" in ImageCms.getOpenProfile(str(SHIPPED)).profile.copyright
    assert '"pnp.colour" = ["profiles/*.icc", "profiles/README.md"]' in (REPO / "pyproject.toml").read_text()
