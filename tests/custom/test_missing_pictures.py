"""Pictures not there yet (docs/templates.md, "Pictures not there yet"): an image layer's
``missing: placeholder``, built through the CLI and read back.

A deck of three cards names a picture that is there (have.png), one that is not (ninja-mask.png) and a
web address (https://example.com/art/card-12.png), as `pnp new` writes a picture column (``src:
"{picture}"``). Measured: in the PDF the two labels' text is on the page inside the layer's box of
the card whose row names it, the picture that is there is the page's one image, at its box, and the
placeholders are tinted boxes of the layer's size with a dark cross (pixels rendered by pypdfium2);
in the SVG the same labels are <text> inside the same boxes (transforms composed) and the one
<image> a data: URL. `pnp build` exits 0 with one warning note naming both; `pnp validate` exits 1
with a FAIL naming both. Without the field the build exits 2 naming the row and column, for the
missing file and for the web address (pnp never downloads). A picture that is there but bad is
refused exactly as without the field (test_custom_images.test_bad_picture). The label is fitted
between 5 and 9 pt or left out; a tuck box's template counts too; `pnp watch` rebuilds when the
picture arrives.
"""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import filled_rects, mm, open_pdf
from pnp.cli import app
from pnp.core.fonts import text_width_mm
from pnp.core.ir import Line, Rect, Text
from pnp.custom.imagecheck import web_label
from pnp.custom.placeholder import INK, LABEL_MAX_PT, LABEL_MIN_PT, TINT, placeholder
from test_custom_images import RULES, SPEC, TOL, _cards, _png, page_bitmap, svg_walk
from test_images import XLINK
from test_render_equivalence import _apply

runner = CliRunner()
BOX = (4.0, 4.0, 40.0, 40.0)  # the picture layer's box on a card, mm
NAME_BOX = (4.0, 60.0, 50.0, 10.0)
URL = "https://example.com/art/card-12.png"
ROWS = {"Have": "have.png", "Mask": "ninja-mask.png", "Web": URL}
LABELS = {"Mask": "ninja-mask.png", "Web": "card-12.png"}


def _rgb(colour: str) -> tuple[float, ...]:
    return tuple(round(int(colour[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))


def _deck(folder, extra: str = ", missing: placeholder", rows: dict = ROWS):
    folder.mkdir(parents=True)
    x, y, w, h = BOX
    nx, ny, nw, nh = NAME_BOX
    (folder / "deck.yaml").write_text(SPEC.replace("deck.csv", "cards.csv"), encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "front.yaml").write_text(
        'layers:\n  - {type: rect, fill: "#ffffff"}\n'
        f'  - {{type: text, text: "{{name}}", x: {nx}, y: {ny}, w: {nw}, h: {nh}, size: 12}}\n'
        f'  - {{type: image, src: "{{picture}}", x: {x}, y: {y}, w: {w}, h: {h}{extra}}}\n', encoding="utf-8")
    (folder / "cards.csv").write_text("name,picture\n" + "".join(f"{n},{p}\n" for n, p in rows.items()),
                                      encoding="utf-8")
    _png(folder / "have.png", 1600, 1600)
    return folder / "deck.yaml"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The deck built once, PDF and SVG: (build output, kit folder)."""
    root = tmp_path_factory.mktemp("missing")
    spec = _deck(root / "deck")
    r = runner.invoke(app, ["build", str(spec), "--out", str(root / "out"), "-f", "pdf", "-f", "svg"])
    assert r.exit_code == 0, r.output
    return r.output, root / "out" / "deck"


def _inside(point, card, box, slack: float = 0.0) -> bool:
    x, y, w, h = box
    px, py = point[0] - card[0], point[1] - card[1]
    return x - slack <= px <= x + w + slack and y - slack <= py <= y + h + slack


def _pdf_cards(page) -> dict[str, tuple[float, float]]:
    """Each card's name -> its top-left corner on the page (mm), from the name printed in its box."""
    cards = _cards(page)
    named = {}
    for word in page.extract_words():
        centre = (mm((word["x0"] + word["x1"]) / 2), mm((word["top"] + word["bottom"]) / 2))
        for card in cards:
            if word["text"] in ROWS and _inside(centre, card, NAME_BOX):
                named[word["text"]] = card
    return named


def test_labels_and_the_picture_there_in_the_pdf(kit):
    _output, folder = kit
    with open_pdf(folder / "deck-a4.pdf") as pdf:
        page = pdf.pages[1]
        cards = _pdf_cards(page)
        assert sorted(cards) == sorted(ROWS)
        words = page.extract_words()
        for name, label in LABELS.items():
            found = [w for w in words if w["text"] == label]
            assert len(found) == 1, (label, [w["text"] for w in words])
            w = found[0]
            for corner in ((w["x0"], w["top"]), (w["x1"], w["bottom"])):
                assert _inside((mm(corner[0]), mm(corner[1])), cards[name], BOX), (label, corner)
        # the picture that is there: the page's one image, filling its square box on its own card
        (image,) = page.images
        got = (mm(image["x0"]), mm(image["top"]), mm(image["x1"] - image["x0"]), mm(image["bottom"] - image["top"]))
        have = cards["Have"]
        assert all(abs(a - b) < TOL for a, b in zip(got, (have[0] + BOX[0], have[1] + BOX[1], BOX[2], BOX[3]))), got
        # the placeholders: a tinted box of the layer's size on each of the two other cards
        tinted = [r for r in filled_rects(page, _rgb(TINT)) if abs(r[2] - BOX[2]) < TOL and abs(r[3] - BOX[3]) < TOL]
        want = sorted((cards[n][0] + BOX[0], cards[n][1] + BOX[1]) for n in LABELS)
        assert sorted((round(r[0], 1), round(r[1], 1)) for r in tinted) == [tuple(round(v, 1) for v in p) for p in want]


def test_placeholder_pixels(kit):
    """Rendered: the tint off the cross, the ink on the diagonal, the picture's own colours elsewhere."""
    _output, folder = kit
    dpi = 200
    px = dpi / 25.4
    bitmap = page_bitmap(folder / "deck-a4.pdf", 1, dpi)
    with open_pdf(folder / "deck-a4.pdf") as pdf:
        cards = _pdf_cards(pdf.pages[1])
    x, y, w, h = BOX

    def colour(card, fx, fy):
        return bitmap.getpixel((round((card[0] + x + w * fx) * px), round((card[1] + y + h * fy) * px)))

    def near(got, want, tol=12):
        return all(abs(a - b) <= tol for a, b in zip(got, want))

    tint = tuple(round(v * 255) for v in _rgb(TINT))
    ink = tuple(round(v * 255) for v in _rgb(INK))
    for name in LABELS:
        assert near(colour(cards[name], 0.5, 0.15), tint), name  # above the label, between the arms
        assert near(colour(cards[name], 0.25, 0.25), ink, 60), name  # on the diagonal
    assert not near(colour(cards["Have"], 0.5, 0.15), tint)


def _svg_drawn(path):
    """(texts, images) of an SVG page: each <text>'s content and each <image>'s href, with its (x, y)
    after every enclosing transform (test_custom_images.svg_walk)."""
    found: dict[str, list] = {"text": [], "image": []}

    def visit(tag, el, m):
        what = "".join(el.itertext()) if tag == "text" else el.get(XLINK)
        found[tag].append((what, _apply(m, float(el.get("x", 0)), float(el.get("y", 0)))))

    svg_walk(path, visit, ("text", "image"))
    return found["text"], found["image"]


def test_labels_and_the_picture_there_in_the_svg(kit):
    _output, folder = kit
    with open_pdf(folder / "deck-a4.pdf") as pdf:
        cards = _pdf_cards(pdf.pages[1])
    texts, images = _svg_drawn(sorted((folder / "svg").glob("deck-a4-p*.svg"))[1])
    for name, label in LABELS.items():
        at = [p for t, p in texts if t == label]
        assert len(at) == 1 and _inside(at[0], cards[name], BOX), (label, at)
    assert len(images) == 1 and images[0][0].startswith("data:image/png")
    assert _inside(images[0][1], cards["Have"], BOX, TOL)


def test_build_warns_once_naming_them(kit):
    output, _folder = kit
    text = " ".join(output.split())
    notes = [ln for ln in output.splitlines() if "not in the game folder" in ln]
    assert len(notes) == 1 and notes[0].startswith("note: warning: card: 2 pictures"), output
    for needle in ("ninja-mask.png", URL, "a web address", "column picture", "row 3", "row 4"):
        assert needle in text, needle
    assert "Traceback" not in output


def test_validate_fails_naming_them(tmp_path):
    spec = _deck(tmp_path / "deck")
    r = runner.invoke(app, ["validate", str(spec)])
    text = " ".join(r.output.split())
    assert r.exit_code == 1, r.output
    fails = [ln for ln in r.output.splitlines() if ln.strip().startswith("FAIL")]
    assert len(fails) == 1 and "ninja-mask.png" in fails[0] and URL in fails[0], r.output
    assert "2 pictures not in the game folder (1 a web address)" in text
    # with every picture there, nothing fails (the one finding is the placeholders')
    spec = _deck(tmp_path / "whole", rows={"Have": "have.png"})
    r = runner.invoke(app, ["validate", str(spec)])
    assert r.exit_code == 0 and "FAIL" not in r.output, r.output


def test_a_tuck_box_template_is_named_too(tmp_path):
    """A box_template's picture not there yet is counted like a card's: validate fails naming it."""
    spec = _deck(tmp_path / "deck", rows={"Have": "have.png"})
    spec.write_text(spec.read_text(encoding="utf-8") + "    box: tuck\n    box_template: box.yaml\n", encoding="utf-8")
    (spec.parent / "box.yaml").write_text(
        "layers:\n  - {type: image, src: art/box-art.png, x: 5, y: 5, w: 30, h: 30, missing: placeholder}\n",
        encoding="utf-8")
    r = runner.invoke(app, ["validate", str(spec)])
    fails = [ln for ln in r.output.splitlines() if ln.strip().startswith("FAIL")]
    assert r.exit_code == 1 and len(fails) == 1 and "1 picture not in the game folder" in fails[0], r.output
    assert "art/box-art.png (box.yaml layer 1 (image))" in fails[0], r.output


def test_watch_rebuilds_when_the_picture_arrives(tmp_path):
    """A kit built with a placeholder is built again, with the picture, once the file is saved."""
    from test_watch import _stop, _until, _watch
    spec = _deck(tmp_path / "deck", rows={"Have": "have.png", "Mask": "ninja-mask.png"})
    proc, lines = _watch(tmp_path, str(spec))
    pdf = tmp_path / "out" / "deck" / "deck-a4.pdf"

    def images() -> int:
        try:
            with open_pdf(pdf) as doc:
                return len(doc.pages[1].images)
        except Exception:  # not written yet, or being switched in
            return -1
    try:
        _until(lambda: images() == 1, "the first kit, with one picture and a placeholder", lines)
        _png(tmp_path / "deck" / "ninja-mask.png", 1600, 1600)
        _until(lambda: images() == 2, "the kit after the picture was saved", lines)
    finally:
        _stop(proc)


@pytest.mark.parametrize("rows, row, needles", [
    ({"Have": "have.png", "Mask": "ninja-mask.png"}, 3, ["'ninja-mask.png'", "cannot read the image"]),
    ({"Have": "have.png", "Web": URL}, 3, [f"'{URL}' is a web address", "pnp never downloads during a build"]),
], ids=["missing file", "web address"])
def test_without_the_field_the_build_stops(tmp_path, rows, row, needles):
    spec = _deck(tmp_path / "deck", extra="", rows=rows)
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "out")])
    text = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert f"cards.csv, line {row}, field src: row {row}, column 2 (picture)" in text, text
    for needle in needles:
        assert needle in text, (needle, text)
    assert not (tmp_path / "out" / "deck").exists()


def _texts(shapes):
    return [s for s in shapes if isinstance(s, Text)]


def test_the_label_is_fitted_or_left_out():
    shapes = placeholder(10, 20, 40, 30, "ninja-mask.png")
    rect = next(s for s in shapes if isinstance(s, Rect))
    assert (rect.x, rect.y, rect.w, rect.h, rect.fill) == (10, 20, 40, 30, TINT)
    crosses = [s for s in shapes if isinstance(s, Line)]
    assert {(c.x1, c.y1, c.x2, c.y2) for c in crosses} == {(10, 20, 50, 50), (50, 20, 10, 50)}
    (label,) = _texts(shapes)
    assert label.text == "ninja-mask.png" and label.size_pt == LABEL_MAX_PT and label.x == 30
    # a long name shrinks, inside the box, never below the smallest size
    long = "a-rather-long-file-name-for-art.png"
    (label,) = _texts(placeholder(0, 0, 40, 30, long))
    assert LABEL_MIN_PT <= label.size_pt < LABEL_MAX_PT and text_width_mm(long, label.size_pt) <= 40 - 2
    # too long for 5 pt, a box too low, a glyph Noto Sans lacks, right to left: no label, still a placeholder
    for w, h, name in ((40, 30, "x" * 80 + ".png"), (40, 2.5, "a.png"), (40, 30, "\u732b.png"),
                       (40, 30, "\u05d0\u05d1.png"), (40, 30, ""), (1, 1, "a.png")):
        shapes = placeholder(0, 0, w, h, name)
        assert _texts(shapes) == [] and len(shapes) == 3, (w, h, name)


@pytest.mark.parametrize("url, label", [
    ("https://example.com/art/card-12.png", "card-12.png"),
    ("http://example.com/art/card%2012.png?v=2#top", "card 12.png"),
    ("HTTPS://example.com/", "example.com"),
    ("https://", ""),
])
def test_a_web_address_is_labelled_with_its_last_path_part(url, label):
    assert web_label(url) == label
