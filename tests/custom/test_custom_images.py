"""Template image layers (docs/templates.md, "Images"), built through the CLI and read back.

PDF: every picture placed at its layer's box on its card to 0.1 mm for each fit (contain, cover,
stretch, and a box turned 90 degrees), each raster file embedded once in the whole document however
many cards and pages use it (image XObjects counted with pikepdf), the right pixels (a crop rendered
by pypdfium2 compared with the source file). SVG: each picture a data: URL, placed at the same box
(the page's transforms composed with an XML parser). Print quality: 100 dpi fails `pnp validate`
(exit 1) and `pnp build`, 200 dpi warns (a note in the build), 300 dpi passes, a layer's min_dpi
lowers the floor. Bad pictures (missing, truncated, huge, outside the spec's folder, a row naming a
missing file, a dangling link) exit 2 naming file, row, column and field, before anything is drawn, with
--out unchanged; all but the missing ones also with the layer's ``missing: placeholder``. Expected boxes come from this file's own layers and the pixel sizes it gave the images.
"""
from __future__ import annotations

import re
from collections import Counter
import xml.etree.ElementTree as ET

import pytest
from PIL import Image as PILImage
from typer.testing import CliRunner

from conftest import filled_rects, mm, open_pdf, snapshot
from pnp.cli import app
from test_images import QUADRANTS, SVG_NS, XLINK, _expected, _png, _png_header
from test_render_equivalence import _apply, _bbox, _matrix, _mul

runner = CliRunner()
CARD = (63.5, 88.9)  # poker: 2.5 x 3.5 in
WHITE = (1.0, 1.0, 1.0)
TOL = 0.1  # mm
RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
SPEC = "title: Deck\ncomponents:\n  - name: card\n    size: poker\n    data: deck.csv\n    front: front.yaml\n"
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" width="40mm" height="20mm">'
        '<rect width="40" height="20" fill="#00a0a0"/><circle cx="20" cy="10" r="8" fill="#ffffff"/></svg>')
# (fit, src, box mm, rotate): the layers of the placement deck, drawn on every card
LAYERS = [("contain", "art/{image}", (4, 4, 40, 40), 0),
          ("cover", "art/{image}", (46, 4, 14, 30), 0),
          ("stretch", "art/{image}", (4, 50, 30, 15), 0),
          ("stretch", "art/{image}", (40, 40, 12, 40), 90),
          ("contain", "art/icon.svg", (4, 70, 30, 14), 0)]


def _front(layers=LAYERS, extra: str = "") -> str:
    lines = ["layers:", '  - {type: rect, fill: "#ffffff"}']
    for fit, src, (x, y, w, h), rot in layers:
        lines.append(f"  - {{type: image, src: '{src}', x: {x}, y: {y}, w: {w}, h: {h}, fit: {fit}, rotate: {rot}"
                     f"{extra}}}")
    return "\n".join(lines) + "\n"


def _game(folder, front: str, csv: str, pngs: dict[str, tuple[int, int]] | None = None):
    """A deck in ``folder``: deck.yaml, front.yaml, deck.csv, rules.md, art/icon.svg and, for each
    name in ``pngs``, a quadrant PNG of that many pixels in art/."""
    (folder / "art").mkdir(parents=True, exist_ok=True)
    (folder / "deck.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "front.yaml").write_text(front, encoding="utf-8")
    (folder / "deck.csv").write_text(csv, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "art" / "icon.svg").write_text(ICON, encoding="utf-8")
    for name, (w, h) in (pngs or {}).items():
        _png(folder / "art" / name, w, h)
    return folder / "deck.yaml"


ROWS = ["a.png", "b.png", "a.png", "b.png", "a.png", "a.png", "b.png", "a.png", "a.png", "b.png", "a.png", "a.png"]
SIZES = {"a.png": (400, 200), "b.png": (300, 300)}


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """The placement deck built once (PDF and SVG): 12 cards over two pages, two PNG files."""
    root = tmp_path_factory.mktemp("images")
    spec = _game(root / "deck", _front(), "name,image\n" + "".join(f"c{i},{f}\n" for i, f in enumerate(ROWS)),
                 {name: (w * 4, h * 4) for name, (w, h) in SIZES.items()})  # x4: over 300 dpi in every box
    r = runner.invoke(app, ["build", str(spec), "--out", str(root / "out"), "-f", "pdf", "-f", "svg"])
    assert r.exit_code == 0, r.output
    return root, root / "out" / "deck"


def _cards(page):
    return sorted(r[:2] for r in filled_rects(page, WHITE) if abs(r[2] - CARD[0]) < TOL and abs(r[3] - CARD[1]) < TOL)


def _want(card, fit, box, rot, size) -> tuple[float, float, float, float]:
    """Where the whole picture goes on the page, from the layer and the file's pixel size."""
    x, y, w, h = box
    if rot in (90, 270):  # the picture fills the turned box: its bounding box is the layer's box
        size = size[::-1]
    px, py, pw, ph = _expected((x, y, w, h), size, fit)
    return card[0] + px, card[1] + py, pw, ph


def _which(card, boxes, layers) -> str | None:
    """The file (a.png or b.png) whose pictures are at every layer's box on ``card``, else None."""
    for name, (w, h) in SIZES.items():
        size = (w * 4, h * 4)
        wants = [_want(card, fit, box, rot, (40, 20) if src.endswith(".svg") else size) for fit, src, box, rot in layers]
        if all(any(all(abs(a - b) < TOL for a, b in zip(got, want)) for got in boxes) for want in wants):
            return name
    return None


def test_each_picture_at_its_box(deck):
    """Every card has the four raster layers' pictures where its layers put them, for the file its row
    names (the two files differ in shape, so contain and cover place them differently)."""
    _root, kit = deck
    found = Counter()
    with open_pdf(kit / "deck-a4.pdf") as pdf:
        for page in pdf.pages[1:]:
            images = [(mm(o["x0"]), mm(o["top"]), mm(o["x1"] - o["x0"]), mm(o["bottom"] - o["top"]))
                      for o in page.images]
            cards = _cards(page)
            for card in cards:
                found[_which(card, images, LAYERS[:4])] += 1  # the rasters (the SVG icon is vectors)
            assert len(images) == 4 * len(cards)
    assert found == Counter(ROWS)


def test_each_raster_file_embedded_once(deck):
    import pikepdf
    _root, kit = deck
    with pikepdf.open(kit / "deck-a4.pdf") as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        masks = {o.get("/SMask").objgen for o in images if o.get("/SMask") is not None}
        pictures = [o for o in images if o.objgen not in masks]
        assert len(pdf.pages) - 1 >= 2  # the cards span two pages: once per document, not per page
    assert sorted((int(o.Width), int(o.Height)) for o in pictures) == sorted((w * 4, h * 4) for w, h in SIZES.values())


def page_bitmap(pdf, index: int, dpi: float):
    """Page ``index`` (0-based) of the PDF file ``pdf`` rendered by pypdfium2 at ``dpi``, as an RGB PIL image."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def test_right_pixels(deck):
    """The stretched picture's quadrants have the source's colours; the 90-degree box shows the picture
    turned clockwise (the source's top-left red quadrant at the box's top right); "cover" leaves the
    page white just outside its box."""
    _root, kit = deck
    dpi = 150
    px = dpi / 25.4
    bitmap = page_bitmap(kit / "deck-a4.pdf", 1, dpi)
    with open_pdf(kit / "deck-a4.pdf") as pdf:
        card = _cards(pdf.pages[1])[0]

    def colour(x, y):
        return bitmap.getpixel((round((card[0] + x) * px), round((card[1] + y) * px)))

    def near(got, want):
        return all(abs(a - b) <= 16 for a, b in zip(got, want))

    x, y, w, h = LAYERS[2][2]  # stretch
    for i, want in enumerate(QUADRANTS):
        assert near(colour(x + w * (0.25 + 0.5 * (i % 2)), y + h * (0.25 + 0.5 * (i // 2))), want), i
    x, y, w, h = LAYERS[3][2]  # stretch, turned 90 degrees clockwise: red top right, green bottom right
    assert near(colour(x + w * 0.75, y + h * 0.25), QUADRANTS[0])
    assert near(colour(x + w * 0.75, y + h * 0.75), QUADRANTS[1])
    assert near(colour(x + w * 0.25, y + h * 0.25), QUADRANTS[2])
    x, y, w, h = LAYERS[1][2]  # cover: clipped to its box
    assert colour(x - 0.7, y + h / 2) == (255, 255, 255)
    assert not near(colour(x + 0.7, y + h / 2), (255, 255, 255))
    # a crop of the contain picture against the source scaled to the same pixels
    fit, _src, box, _rot = LAYERS[0]
    gx, gy, gw, gh = _want((0, 0), fit, box, 0, tuple(v * 4 for v in SIZES[ROWS[0]]))
    inset = 1.0  # mm: leave the resampled edges out
    crop = bitmap.crop((round((card[0] + gx + inset) * px), round((card[1] + gy + inset) * px),
                        round((card[0] + gx + gw - inset) * px), round((card[1] + gy + gh - inset) * px)))
    source = _png(_root / "src.png", *(v * 4 for v in SIZES[ROWS[0]]))
    with PILImage.open(source) as im:
        iw, ih = im.size
        k = iw / gw  # source pixels per mm
        ref = im.crop((round(inset * k), round(inset * k), round(iw - inset * k), round(ih - inset * k)))
        ref = ref.convert("RGB").resize(crop.size)
    import numpy as np
    diff = np.abs(np.asarray(crop, dtype=float) - np.asarray(ref, dtype=float)).mean()
    assert diff < 8, f"mean difference per channel {diff:.1f}"


def svg_walk(path, visit, tags=("image",)) -> None:
    """Call ``visit(tag, element, matrix)`` for every element of an SVG page whose tag is in ``tags``,
    ``matrix`` composing every enclosing transform (its own too), following <use> into <defs>."""
    root = ET.parse(path).getroot()
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}

    def walk(el, m):
        m = _mul(m, _matrix(el.get("transform")))
        tag = el.tag.replace(SVG_NS, "")
        if tag == "defs":
            return
        if tag == "use":
            walk(ids[el.get(XLINK).lstrip("#")], m)
            return
        if tag in tags:
            visit(tag, el, m)
            return
        for child in el:
            walk(child, m)

    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))


def _svg_pictures(path):
    """(href, (x, y, w, h)) of every <image> drawn on an SVG page: the bounding box of its rectangle
    after every enclosing transform, following <use> into <defs>."""
    out = []

    def visit(_tag, el, m):
        w, h = float(el.get("width")), float(el.get("height"))
        x0, y0, x1, y1 = _bbox([_apply(m, x, y) for x, y in ((0, 0), (w, 0), (0, h), (w, h))])
        out.append((el.get(XLINK), (x0, y0, x1 - x0, y1 - y0)))

    svg_walk(path, visit)
    return out


def test_svg_pages_embed_pictures_at_the_same_boxes(deck):
    _root, kit = deck
    with open_pdf(kit / "deck-a4.pdf") as pdf:
        cards = [_cards(page) for page in pdf.pages[1:]]
    svgs = sorted((kit / "svg").glob("deck-a4-p*.svg"))[1:]
    assert len(svgs) == len(cards)
    found = Counter()
    for path, page_cards in zip(svgs, cards):
        pictures = _svg_pictures(path)
        assert all(href.startswith("data:image/") for href, _ in pictures)  # the file stands alone
        embedded = [el for el in ET.parse(path).getroot().iter(f"{SVG_NS}image")]
        assert len(embedded) == len({el.get(XLINK) for el in embedded})  # each file once per page
        for card in page_cards:
            found[_which(card, [box for _, box in pictures], LAYERS)] += 1
        assert len(pictures) == len(LAYERS) * len(page_cards)
    assert found == Counter(ROWS)


def test_watch_records_every_picture(tmp_path):
    from pnp.pipeline.execute import build_kit
    spec = _game(tmp_path / "deck", _front(), "name,image\nA,a.png\nB,b.png\nC,\n", {"a.png": (900, 900),
                                                                                 "b.png": (900, 900)})
    result = build_kit(str(spec), out=tmp_path / "out", formats=("pdf",))
    used = {p.relative_to((tmp_path / "deck").resolve()).as_posix() for p in result.inputs
            if p.is_relative_to((tmp_path / "deck").resolve())}
    assert {"art/a.png", "art/b.png", "art/icon.svg"} <= used


def test_empty_cell_draws_no_picture(tmp_path):
    spec = _game(tmp_path / "deck", _front(LAYERS[:1]), "name,image\nA,a.png\nB,\n", {"a.png": (1600, 800)})
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out"), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    with open_pdf(tmp_path / "out" / "deck" / "deck-a4.pdf") as pdf:
        page = pdf.pages[1]
        cards = _cards(page)
        assert len(cards) == 2
        inside = [sum(1 for o in page.images if c[0] <= mm(o["x0"]) < c[0] + CARD[0] and c[1] <= mm(o["top"]) < c[1] + CARD[1])
                  for c in cards]
    assert sorted(inside) == [0, 1]


# print quality: a 50.8 x 25.4 mm stretched box (2 x 1 in); a W x W/2 px picture prints at W/2 dpi
DPI_BOX = (5, 5, 50.8, 25.4)


def _dpi_game(tmp_path, width_px: int, extra: str = ""):
    front = _front([("stretch", "art/pic.png", DPI_BOX, 0)], extra)
    return _game(tmp_path / "deck", front, "name\nA\n", {"pic.png": (width_px, width_px // 2)})


def _dpi_of(width_px: int) -> float:
    return min(width_px / (DPI_BOX[2] / 25.4), width_px // 2 / (DPI_BOX[3] / 25.4))


def test_low_dpi_fails_validate_and_build(tmp_path):
    spec = _dpi_game(tmp_path, 200)
    r = runner.invoke(app, ["validate", str(spec)])
    text = " ".join(r.output.split())
    assert r.exit_code == 1, r.output
    assert "FAIL" in text and "art/pic.png" in text and f"{DPI_BOX[2]:.1f} x {DPI_BOX[3]:.1f} mm" in text
    assert f"at {_dpi_of(200):.0f} dpi" in text
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "--out", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.output and "art/pic.png" in r.output
    assert not (out / "deck").exists()


def test_medium_dpi_warns_and_build_notes_it(tmp_path):
    spec = _dpi_game(tmp_path, 400)
    r = runner.invoke(app, ["validate", str(spec)])
    text = " ".join(r.output.split())
    assert r.exit_code == 0, r.output
    assert "WARNING" in text and "FAIL" not in text and f"at {_dpi_of(400):.0f} dpi" in text
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out"), "-f", "pdf"])
    text = " ".join(r.output.split())
    assert r.exit_code == 0, r.output
    assert "warning" in text and f"art/pic.png printed {DPI_BOX[2]:.1f} x {DPI_BOX[3]:.1f} mm at 200 dpi" in text
    assert (tmp_path / "out" / "deck" / "deck-a4.pdf").is_file()


def test_300_dpi_is_clean(tmp_path):
    spec = _dpi_game(tmp_path, 600)
    r = runner.invoke(app, ["validate", str(spec)])
    assert r.exit_code == 0 and "WARNING" not in r.output and "FAIL" not in r.output, r.output
    assert "1 raster picture at 300 dpi or more (lowest 300 dpi" in " ".join(r.output.split())


def test_min_dpi_allows_a_low_resolution(tmp_path):
    spec = _dpi_game(tmp_path, 200, ", min_dpi: 90")
    r = runner.invoke(app, ["validate", str(spec)])
    assert r.exit_code == 0, r.output
    assert "WARNING" in r.output and "FAIL" not in r.output
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out"), "-f", "pdf"])
    assert r.exit_code == 0, r.output


def test_svg_art_has_no_dpi(tmp_path):
    front = _front([("contain", "art/icon.svg", (5, 5, 50, 50), 0)])
    spec = _game(tmp_path / "deck", front, "name\nA\n")
    r = runner.invoke(app, ["validate", str(spec)])
    assert r.exit_code == 0 and "1 SVG picture (vectors: any size)" in " ".join(r.output.split()), r.output


# bad pictures: (src of the layer, csv, what to do to the folder, (file, line, field, words in the message))
BAD = {
    "missing file": ("art/{image}", "name,image\nA,a.png\nB,gone.png\n", None,
                     ("deck.csv", "line 3", "src", ["row 3, column 2 (image)", "'art/gone.png'", "cannot read",
                                                    "front.yaml layer 2 (image)"])),
    "missing fixed file": ("art/none.png", "name\nA\n", None,
                           ("front.yaml", "line 3", "src", ["'art/none.png'", "cannot read"])),
    "truncated": ("art/{image}", "name,image\nA,a.png\nB,cut.png\n", "truncate",
                  ("deck.csv", "line 3", "src", ["row 3, column 2 (image)", "'art/cut.png'", "cannot be decoded"])),
    "huge": ("art/{image}", "name,image\nA,huge.png\n", "huge",
             ("deck.csv", "line 2", "src", ["'art/huge.png'", "pixels"])),
    "dot-dot": ("{image}", "name,image\nA,../outside.png\n", None,
                ("deck.csv", "line 2", "src", ["row 2, column 2 (image)", "'../outside.png'", "leads out of"])),
    "absolute": ("{image}", "name,image\nA,/etc/hostname\n", None,
                 ("deck.csv", "line 2", "src", ["'/etc/hostname'", "absolute path"])),
    "symlink out": ("art/{image}", "name,image\nA,link.png\n", "symlink",
                    ("deck.csv", "line 2", "src", ["'art/link.png'", "leads outside the folder (a symlink)"])),
    "symlink loop": ("art/{image}", "name,image\nA,loop.png\n", "loop",
                     ("deck.csv", "line 2", "src", ["'art/loop.png'", "cannot be followed"])),
    # refused as a cell that cannot print, before it is taken as a file name
    "control character": ("art/{image}", "name,image\nA,a\x01.png\n", None,
                          ("deck.csv", "line 2", "components.0.data", ["column 2 (image)", "U+0001"])),
    "not an image": ("art/{image}", "name,image\nA,notes.png\n", "text",
                     ("deck.csv", "line 2", "src", ["'art/notes.png'", "not a PNG, JPEG or SVG"])),
    "dangling link": ("art/{image}", "name,image\nA,dangle.png\n", "dangle",
                      ("deck.csv", "line 2", "src", ["'art/dangle.png'", "cannot read the image"])),
}
FORGIVEN = ("missing file", "missing fixed file")  # what a layer's missing: placeholder prints a placeholder for


def spoil(art, tmp_path, action: str | None, case: str) -> None:
    """Make the bad picture of BAD's ``case`` in the folder ``art`` (``action``: truncate, huge,
    symlink (to a file in ``tmp_path``), loop, text, dangle; None: nothing to make)."""
    outside = tmp_path / "outside.png"
    if action == "truncate":
        data = _png(tmp_path / "whole.png", 800, 600).read_bytes()
        (art / "cut.png").write_bytes(data[: len(data) // 2])
    elif action == "huge":
        (art / "huge.png").write_bytes(_png_header(50_000, 50_000))
    elif action == "symlink":
        _png(outside, 1600, 800)
        (art / "link.png").symlink_to(outside)
    elif action == "loop":
        (art / "loop.png").symlink_to(art / "loop2.png")
        (art / "loop2.png").symlink_to(art / "loop.png")
    elif action == "text":
        (art / "notes.png").write_text("not a picture\n", encoding="utf-8")
    elif action == "dangle":  # a link inside the folder to nothing: not absent, so never forgiven
        (art / "dangle.png").symlink_to(art / "nothing-here.png")
    if case == "dot-dot":
        _png(tmp_path / "outside.png", 1600, 800)  # it exists: refused for where it is, not for being missing


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An output folder holding a good kit of the same name, to prove a refused build changes nothing."""
    root = tmp_path_factory.mktemp("good")
    spec = _game(root / "deck", _front(LAYERS[:1]), "name,image\nA,a.png\n", {"a.png": (1600, 800)})
    r = runner.invoke(app, ["build", str(spec), "--out", str(root / "out"), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    return root / "out"


@pytest.mark.parametrize("case, missing", [(case, "") for case in sorted(BAD)]
                         + [(case, ", missing: placeholder") for case in sorted(BAD) if case not in FORGIVEN],
                         ids=lambda v: v.replace(", missing: ", "") or None)
def test_bad_picture(existing, tmp_path, monkeypatch, case, missing):
    """Refused the same with the layer's missing: placeholder, which forgives only absence."""
    src, csv, action, (fname, line, field, needles) = BAD[case]
    folder = tmp_path / "deck"
    spec = _game(folder, _front([("contain", src, (4, 4, 40, 40), 0)], missing), csv, {"a.png": (1600, 800)})
    spoil(folder / "art", tmp_path, action, case)
    from pnp.custom import draw
    drawn = []
    monkeypatch.setattr(draw.Face, "draw", lambda self, row: drawn.append(row))
    before = snapshot(existing)
    for command in ("build", "validate"):
        args = [command, str(spec)] + (["--out", str(existing)] if command == "build" else [])
        r = runner.invoke(app, args)
        text = " ".join(r.output.split())
        assert r.exit_code == 2, (case, r.output)
        assert "Traceback" not in r.output
        assert f"{fname}, {line}, field {field}" in text, text
        for needle in needles:
            assert needle in text, (needle, text)
        assert "not a picture" not in text  # a refused file's content is never quoted
    assert drawn == []  # refused before any face was drawn
    assert snapshot(existing) == before


def test_example_cards_in_a_browser_match_the_pdf(tmp_path):
    """Chromium draws the playing-card example's SVG pages (suit icons and the joker's PNG embedded as
    data: URLs) within 2 % of the PDF pages' pixels: a page of hearts and diamonds and the jokers'
    page. The hearts page with its pictures' data removed differs by more, so the comparison can fail."""
    from browser import require_chromium
    from test_svg_fonts import _differ
    require_chromium("compares the playing-card SVG pages with pictures to the PDF pages in a browser")
    import pypdfium2 as pdfium

    from conftest import REPO
    from pnp.pipeline.execute import build_kit
    result = build_kit(str(REPO / "specs" / "playing-cards"), out=tmp_path / "out", formats=("pdf", "svg"))
    svgs = sorted(p for p in result.files if p.suffix == ".svg")
    doc = pdfium.PdfDocument(str(next(p for p in result.files if p.suffix == ".pdf")))
    w_px, h_px = 210 * 4, 297 * 4
    try:
        hearts, jokers = 4, len(doc)  # page 4 (9 cards a sheet): the last hearts and the first diamond; the last: jokers
        bare = tmp_path / "bare.svg"
        bare.write_text(re.sub(r'href="data:[^"]*"', 'href=""', svgs[hearts - 1].read_text(encoding="utf-8")),
                        encoding="utf-8")
        same = [_differ(svgs[n - 1], doc[n - 1], tmp_path, f"p{n}", w_px, h_px) for n in (hearts, jokers)]
        control = _differ(bare, doc[hearts - 1], tmp_path, "bare", w_px, h_px)
    finally:
        doc.close()
    assert all(s <= 0.02 for s in same), [f"{s:.2%}" for s in same]
    assert control > 0.02, f"without the pictures the page should differ, but only {control:.2%} of pixels do"


def test_watch_rebuilds_when_a_missing_picture_appears(tmp_path):
    """A row naming a picture that is not there yet stops the build with the error; saving the file
    (nothing else changes) rebuilds the kit."""
    from test_watch import _stop, _until, _watch
    spec = _game(tmp_path / "deck", _front(LAYERS[:1]), "name,image\nA,moon.png\n")
    proc, lines = _watch(tmp_path, str(spec))
    pdf = tmp_path / "out" / "deck" / "deck-a4.pdf"
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first round", lines)
        assert any(ln.startswith("error:") and "'art/moon.png'" in ln for ln in lines) and not pdf.exists()
        _png(tmp_path / "deck" / "art" / "moon.png", 1600, 800)
        _until(pdf.is_file, "the build after the picture was saved", lines)
    finally:
        _stop(proc)
    with open_pdf(pdf) as doc:
        assert len(doc.pages[1].images) == 1


def test_pictures_of_a_component_are_bounded_together(tmp_path, monkeypatch):
    """The distinct picture files of one component are bounded in total bytes (each is embedded in
    the PDF): the row whose file passes the limit is named; nothing is drawn."""
    from pnp.custom import imagecheck
    spec = _game(tmp_path / "deck", _front(LAYERS[:1]), "name,image\nA,a.png\nB,b.png\nC,a.png\nD,c.png\n",
                 {"a.png": (1600, 800), "b.png": (1600, 800), "c.png": (1600, 800)})
    sizes = sorted((tmp_path / "deck" / "art" / n).stat().st_size for n in ("a.png", "b.png", "c.png"))
    monkeypatch.setattr(imagecheck, "MAX_PICTURE_BYTES", sizes[0] + sizes[1] + sizes[2] - 1)
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out")])
    text = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert "deck.csv, line 5, field src" in text and "3 picture files" in text
    assert not (tmp_path / "out" / "deck").exists()


BLEED_FRONT = """layers:
  - {type: image, src: art/a.png, fit: stretch, bleed: true}
  - {type: image, src: art/b.png, x: 20, y: 30, w: 20, h: 20, fit: stretch, bleed: true}
"""


def _image_boxes(pdf) -> list[tuple[float, ...]]:
    """(x0, y0, x1, y1) mm of every picture on the first card page, read back with PyMuPDF."""
    import pymupdf
    with pymupdf.open(str(pdf)) as doc:
        return sorted(tuple(round(v * 25.4 / 72, 2) for v in i["bbox"]) for i in doc[1].get_image_info())


@pytest.mark.parametrize("bleed", [3.0, 1.5])
def test_a_bleeding_picture_grows_past_the_trim_by_the_bleed(tmp_path, bleed):
    """`bleed: true` on a full-card picture: with --bleed B its box reaches B mm past the trim on
    every side (same centre); a picture inside the card is not moved, whatever its flag."""
    spec = _game(tmp_path / "deck", BLEED_FRONT, "name\nc1\n", {"a.png": (1200, 1600), "b.png": (400, 400)})
    boxes = {}
    for b in (0.0, bleed):
        out = tmp_path / f"out{b}"
        r = runner.invoke(app, ["build", str(spec), "--out", str(out), "-f", "pdf", "--bleed", str(b)])
        assert r.exit_code == 0, r.output
        boxes[b] = _image_boxes(next((out / "deck").glob("*.pdf")))
    (plain, inner), (grown, inner_b) = [sorted(bx, key=lambda q: q[2] - q[0], reverse=True) for bx in boxes.values()]
    assert abs((plain[2] - plain[0]) - CARD[0]) < 0.1 and abs((plain[3] - plain[1]) - CARD[1]) < 0.1
    assert abs((grown[2] - grown[0]) - (CARD[0] + 2 * bleed)) < 0.1
    assert abs((grown[3] - grown[1]) - (CARD[1] + 2 * bleed)) < 0.1
    assert abs((inner[2] - inner[0]) - 20) < 0.1 and abs((inner_b[2] - inner_b[0]) - 20) < 0.1
    assert abs((inner_b[0] - grown[0]) - (inner[0] - plain[0]) - bleed) < 0.1  # 20 mm in from the trim, still


def test_bleed_on_a_turned_picture_is_refused(tmp_path):
    spec = _game(tmp_path / "deck", "layers:\n  - {type: image, src: art/a.png, rotate: 90, bleed: true}\n",
                 "name\nc1\n", {"a.png": (1200, 1600)})
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "--out", str(out)])
    assert r.exit_code == 2 and "front.yaml" in r.output and "line 2" in r.output and "bleed" in r.output, r.output
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("px, status", [((750, 1050), "pass"), ((749, 1049), "warning")])
def test_a_picture_of_exactly_300_dpi_at_its_printed_size_passes(px, status):
    """750 x 1050 px over a 63.5 x 88.9 mm poker card is exactly 300 dpi (the float division alone
    gives 299.99999999999994): no warning; one pixel fewer is under 300 dpi and warns."""
    from pnp.custom.imagecheck import PictureUse, printed_size, quality
    from pathlib import Path
    from pnp.inputs.images import ImageFacts
    facts = ImageFacts(Path("card.png"), "png", px, "0" * 64)
    size = printed_size(facts.size, 63.5, 88.9, "contain")
    use = PictureUse("front.yaml layer 1 (image)", "card.png", facts, size, facts.dpi_at(*size), 150)
    assert [f.status for f in quality("card", [use])] == [status]
