"""The shipped data-driven examples, read back from their PDFs: every card found by its trim (the white
background the template draws to the trim, measured in mm), the text of every cell on its card, the
counts per column value the spec declares, and no glyph outside its card or its template's text box.

Expected values come from the examples' own CSV and template files (read here with csv and yaml), not
from pnp's reading of them."""
from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import REPO, build_kit, filled_rects, mm, open_pdf, pdf_of

EXAMPLES = REPO / "specs"
TOL = 0.1  # mm
WHITE = (1.0, 1.0, 1.0)


def _rows(name: str) -> list[dict]:
    with (EXAMPLES / name / f"{'cards' if name == 'playing-cards' else name}.csv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _length(v) -> float:
    return float(str(v).removesuffix("mm"))


def _text_boxes(name: str) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) mm of every text layer of the example's front template."""
    layers, named = [], {}
    for L in yaml.safe_load((EXAMPLES / name / "front.yaml").read_text(encoding="utf-8"))["layers"]:
        L = {**named.get(L.get("extends"), {}), **L}  # a layer that extends a named one takes its fields
        named[L.get("name")] = L
        layers.append(L)
    return [(_length(L["x"]), _length(L["y"]), _length(L["w"]), _length(L["h"])) for L in layers if L["type"] == "text"]


def _cards(pdf, w: float, h: float):
    """(page, (x, y, w, h) mm) of every card: the white rectangles of the trim size."""
    for page in pdf.pages[1:]:
        for r in filled_rects(page, WHITE):
            if abs(r[2] - w) < TOL and abs(r[3] - h) < TOL:
                yield page, r


def _chars_in(page, rect, pad=0.0):
    x, y, w, h = rect
    return [c for c in page.chars if x - pad <= mm((c["x0"] + c["x1"]) / 2) <= x + w + pad
            and y - pad <= mm((c["top"] + c["bottom"]) / 2) <= y + h + pad]


def _inside(c, box, tol=0.05) -> bool:
    x, y, w, h = box
    return (x - tol <= mm(c["x0"]) and mm(c["x1"]) <= x + w + tol and y - tol <= mm(c["top"])
            and mm(c["bottom"]) <= y + h + tol)


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("custom")
    return {name: build_kit(str(EXAMPLES / name), out=out) for name in ("playing-cards", "questions")}


SUITS = ("spades", "hearts", "diamonds", "clubs")
PIP_DPI = 200  # the corner suit is about 4 mm: at 200 dpi a half-pixel offset of the card moves few of its pixels


def _pip_box() -> tuple[float, float, float, float]:
    """(x, y, w, h) mm of the suit in the top-left corner index: the image layer of front.yaml named
    "corner suit", on every card but the jokers."""
    layers = yaml.safe_load((EXAMPLES / "playing-cards" / "front.yaml").read_text(encoding="utf-8"))["layers"]
    pip = next(L for L in layers if L.get("name") == "corner suit")
    return tuple(_length(pip[k]) for k in ("x", "y", "w", "h"))


def _inked(im):
    """A boolean array of ``im`` (RGB or RGBA): True where it is clearly not white (or, with alpha, opaque)."""
    import numpy as np
    if im.mode == "RGBA":
        return np.asarray(im.getchannel("A")) > 128
    return np.asarray(im.convert("RGB")).min(axis=2) < 200


def _icon_masks(w_mm: float, h_mm: float) -> dict:
    """Each suit's SVG file, rendered by cairosvg (not by pnp) into the pip box as "contain" places it."""
    import io

    import cairosvg
    from PIL import Image
    side = min(w_mm, h_mm)  # the icons are square
    n = round(side / 25.4 * PIP_DPI)
    W, H = round(w_mm / 25.4 * PIP_DPI), round(h_mm / 25.4 * PIP_DPI)
    out = {}
    for suit in SUITS:
        png = cairosvg.svg2png(url=str(EXAMPLES / "playing-cards" / "icons" / f"{suit}.svg"), output_width=n,
                               output_height=n)
        canvas = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        canvas.paste(Image.open(io.BytesIO(png)).convert("RGBA"), ((W - n) // 2, (H - n) // 2))
        out[suit] = _inked(canvas)
    return out


def _suit(bitmap, card, pip, masks) -> str:
    """The suit whose icon the card's corner index shows: the rendered crop compared pixel by pixel
    with each icon (intersection over union above 0.92); "joker" when none matches."""
    px = PIP_DPI / 25.4
    x, y = card[0] + pip[0], card[1] + pip[1]
    H, W = next(iter(masks.values())).shape
    best, score = "joker", 0.92  # a spade and a club overlap by about 0.83
    for dx in (-1, 0, 1):  # a card's corner falls between pixels: the best of the neighbouring crops
        for dy in (-1, 0, 1):
            left, top = round(x * px) + dx, round(y * px) + dy
            got = _inked(bitmap.crop((left, top, left + W, top + H)))
            for suit, mask in masks.items():
                iou = (got & mask).sum() / max((got | mask).sum(), 1)
                if iou > score:
                    best, score = suit, iou
    return best


def test_playing_cards_read_back(kits):
    rows = _rows("playing-cards")
    boxes = _text_boxes("playing-cards")
    seen, suits = Counter(), Counter()
    pip = _pip_box()
    masks = _icon_masks(pip[2], pip[3])
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf_of(kits["playing-cards"])))
    bitmaps: dict[int, object] = {}
    with open_pdf(pdf_of(kits["playing-cards"])) as pdf:
        cards = list(_cards(pdf, 63.5, 88.9))  # poker: 2.5 x 3.5 in
        assert len(cards) == len(rows)
        for page, card in cards:
            if page.page_number not in bitmaps:
                bitmaps[page.page_number] = doc[page.page_number - 1].render(scale=PIP_DPI / 72).to_pil()
            chars = _chars_in(page, card, pad=1.0)
            for c in chars:  # no glyph outside the trim or its text box
                assert _inside(c, card), c["text"]
                assert any(_inside(c, (card[0] + bx, card[1] + by, bw, bh)) for bx, by, bw, bh in boxes), c["text"]
            seen["".join(sorted(c["text"] for c in chars if c["text"].strip()))] += 1
            suits[_suit(bitmaps[page.page_number], card, pip, masks)] += 1
    # the rank twice (both corner indices); a joker spells JOKER in both corners and under its picture,
    # and prints its name
    want = Counter("".join(sorted(r["rank"] * 2 if r["suit"] != "joker" else "JOKER" * 3 + r["name"].replace(" ", "")))
                   for r in rows)
    assert seen == want
    assert suits == Counter(r["suit"] for r in rows)
    assert all(suits[s] == 13 for s in ("spades", "hearts", "diamonds", "clubs"))  # the spec's per_value check


def test_questions_read_back(kits):
    rows = _rows("questions")
    boxes = _text_boxes("questions")
    question_box = max(boxes, key=lambda b: b[2] * b[3])
    texts, categories, languages = Counter(), Counter(), Counter()
    with open_pdf(pdf_of(kits["questions"])) as pdf:
        cards = list(_cards(pdf, 70.0, 120.0))
        assert len(cards) == len(rows)
        for page, card in cards:
            for c in _chars_in(page, card, pad=1.0):
                assert _inside(c, card), c["text"]
                assert any(_inside(c, (card[0] + bx, card[1] + by, bw, bh)) for bx, by, bw, bh in boxes), c["text"]
            qx, qy, qw, qh = question_box
            region = (card[0] + qx, card[1] + qy, qw, qh)
            lines: dict[float, list] = {}
            for c in sorted(_chars_in(page, region), key=lambda c: (round(c["top"], 1), c["x0"])):
                lines.setdefault(round(c["top"], 1), []).append(c)
            text = " ".join(_spaced(line).strip() for line in lines.values())
            texts[" ".join(text.split())] += 1
            band = _chars_in(page, (card[0], card[1], card[2], 22.0))
            categories["".join(c["text"] for c in band)] += 1
            foot = _chars_in(page, (card[0], card[1] + 106.0, card[2], 14.0))
            languages["".join(c["text"] for c in foot)] += 1
    assert texts == Counter(" ".join(_unmarked(r["question"]).split()) for r in rows)
    assert categories == Counter(r["category"] for r in rows)
    assert set(categories.values()) == {8}  # the spec's per_value check: 8 of each category
    assert languages == Counter(r["language"].replace(" ", "") for r in rows)
    joined = "".join(texts)  # Greek and Cyrillic letters were read back, not only Latin
    assert any("\u0370" <= ch <= "\u03ff" for ch in joined) and any("\u0400" <= ch <= "\u04ff" for ch in joined)


def _spaced(line) -> str:
    """A line's characters in order, with a space where the gap between two is a space or more wide
    (runs of another style and inline icons are drawn apart, without space characters between)."""
    out = ""
    for prev, c in zip([None] + line, line):
        if prev is not None and mm(c["x0"] - prev["x1"]) > 0.2 * mm(c["size"]) and c["text"] != " " != prev["text"]:
            out += " "
        out += c["text"]
    return out


def _unmarked(text: str) -> str:
    """A cell as printed: ``**bold**`` marks and ``:icon:`` names taken out (the questions use no other
    markup)."""
    return re.sub(r"\*\*|:[A-Za-z0-9_-]+:", " ", text)


def test_question_deck_has_a_bold_keyword_and_an_inline_icon(kits):
    """The deck's marked-up question: 'building' in the bold face, the rest of its text not, and the hammer icon
    (icons/hammer.svg, its dark ink) drawn after it on the same baseline, as tall as the capitals."""
    import pymupdf
    row = next(r for r in _rows("questions") if ":hammer:" in r["question"])
    bold = re.findall(r"\*\*(.+?)\*\*", row["question"])
    with pymupdf.open(str(pdf_of(kits["questions"]))) as doc:
        page = next(p for p in doc if "remember" in p.get_text() and "hands?" in p.get_text())
        trace = page.get_texttrace()
        size_pt = next(s["size"] for s in trace if "remember" in "".join(chr(c[0]) for c in s["chars"]))
        assert all(s["type"] == 0 for s in trace)  # filled, nothing stroked
        stroked = [s for s in trace if "Bold" in s["font"] and s["size"] == size_pt]  # not the bold category bands
        assert ["".join(chr(c[0]) for c in s["chars"]).strip() for s in stroked] == bold
        word = stroked[0]
        x1, baseline = mm(word["chars"][-1][3][2]), mm(word["chars"][0][2][1])
        ink = [d["rect"] for d in page.get_drawings()
               if d.get("fill") and all(abs(v - 0x22 / 255) < 0.01 for v in d["fill"])]
        top, bottom = mm(min(r.y0 for r in ink)), mm(max(r.y1 for r in ink))
        left = mm(min(r.x0 for r in ink))
    size = mm(word["size"])
    assert left > x1 and left - x1 < size  # right after the bold word
    assert bottom <= baseline + TOL and bottom > baseline - 0.15 * size  # on the baseline (ink ends near it)
    assert 0.5 * size < bottom - top <= 0.72 * size  # about the cap height (0.714 em) tall, not taller


def test_question_sizes_vary_with_length(kits):
    """Long questions are shrunk and wrapped, short ones set large: the sizes read back differ."""
    sizes = set()
    with open_pdf(pdf_of(kits["questions"])) as pdf:
        for page, card in _cards(pdf, 70.0, 120.0):
            chars = _chars_in(page, (card[0] + 7, card[1] + 28, 56, 74))
            sizes.add(round(max(c["size"] for c in chars), 1))
    assert max(sizes) == 20 and min(sizes) <= 16 and len(sizes) >= 4  # 20 pt is the template's size


def test_examples_on_the_cover_with_rules(kits):
    for name, result in kits.items():
        with open_pdf(pdf_of(result)) as pdf:
            cover = pdf.pages[0].extract_text()
        title = yaml.safe_load((EXAMPLES / name / f"{name}.yaml").read_text(encoding="utf-8"))["title"]
        assert f"{title} \u2014 print and play" in cover
        for section in ("Components", "Setup", "A turn", "End and winner", "Fine points"):
            assert section in cover
        assert result.manifest["components"][0]["shape"] == "rounded"


def test_examples_are_built_by_default():
    from pnp.cli.options import targets as _targets
    targets = _targets(None)
    assert {Path(t).name for t in targets} >= {"playing-cards", "questions", "nonads", "netmatch"}


def test_watch_sees_data_and_templates(kits):
    used = {p.name for p in kits["playing-cards"].inputs}
    assert {"playing-cards.yaml", "cards.csv", "front.yaml", "card-back.yaml", "rules.md"} <= used


def test_watch_sees_included_templates(tmp_path):
    """A template's includes are inputs too: `pnp watch` rebuilds when one of them changes."""
    import shutil
    game = tmp_path / "playing-cards"
    shutil.copytree(EXAMPLES / "playing-cards", game)
    (game / "back.yaml").write_text("include: [shared/card-back.yaml]\nlayers: []\n", encoding="utf-8")
    spec = game / "playing-cards.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("back: shared/card-back.yaml", "back: back.yaml"),
                    encoding="utf-8")
    result = build_kit(str(game), out=tmp_path / "out", formats=("pdf",))
    assert {"back.yaml", "card-back.yaml"} <= {p.name for p in result.inputs}
