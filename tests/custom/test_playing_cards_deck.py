"""The playing-cards example as a deck, read back from the PDF that `pnp build` writes: the pips of
every rank against the standard layout (a table written here, not pnp's output), pips below the middle
turned half a turn, the court cards' figures, the jokers' indices at the other cards' index size, and
credits that read naturally on the covers.

Placements are found by walking the PDF's content streams with pypdf (the transformation matrix
followed through q/Q and cm): each card is the clip of its trim (a 63.5 x 88.9 mm rectangle), each
picture an XObject drawn with Do; one SVG file is one XObject in the document, so the suit of a card
is the XObject of its corner index, and its pips are the same XObject drawn in the card's middle.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import REPO, mm, open_pdf

SPEC = REPO / "specs" / "playing-cards"
TRIM = (63.5, 88.9)           # poker, mm
SAFE = 3.0                    # the safe area: 3 mm inside the trim (docs/print.md)
CORNER = 14.0                 # the corner indices lie within 14 mm of the card's left and right edges

# The standard pip layout: pips in the (left, centre, right) columns, and how many stand above the
# card's middle, on it and below it. Every common deck (Anglo-American pattern) is drawn so.
STANDARD = {
    "A": ((0, 1, 0), (0, 1, 0)),
    "2": ((0, 2, 0), (1, 0, 1)),
    "3": ((0, 3, 0), (1, 1, 1)),
    "4": ((2, 0, 2), (2, 0, 2)),
    "5": ((2, 1, 2), (2, 1, 2)),
    "6": ((3, 0, 3), (2, 2, 2)),
    "7": ((3, 1, 3), (3, 2, 2)),
    "8": ((3, 2, 3), (3, 2, 3)),
    "9": ((4, 1, 4), (4, 1, 4)),
    "10": ((4, 2, 4), (5, 0, 5)),
}
COURTS = ("J", "Q", "K")


def _mul(a, b):
    """The product a x b of two PDF matrices (a, b, c, d, e, f): a applied first."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _box(m, x0, y0, x1, y1):
    """The rectangle (x0, y0)-(x1, y1) through matrix m: (left, bottom, right, top) in points."""
    pts = [(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]) for x in (x0, x1) for y in (y0, y1)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _walk(reader, stream, resources, ctm, cards, draws, depth=0):
    """Append each card trim clip (box) to ``cards`` and each XObject drawn (name, box, matrix) to
    ``draws``, following the graphics state through ``stream`` and into form XObjects."""
    stack = []
    xobjects = resources.get("/XObject", {}) if resources else {}
    for operands, op in ContentStream(stream, reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            box = _box(ctm, x, y, x + w, y + h)
            if abs(mm(box[2] - box[0]) - TRIM[0]) < 0.05 and abs(mm(box[3] - box[1]) - TRIM[1]) < 0.05:
                cards.add(tuple(round(v, 2) for v in box))
        elif op == b"Do":
            form = xobjects[operands[0]].get_object()
            if form.get("/Subtype") != "/Form":
                draws.append((str(operands[0]), _box(ctm, 0, 0, 1, 1), ctm))
                continue
            inner = _mul(tuple(float(v) for v in form.get("/Matrix", (1, 0, 0, 1, 0, 0))), ctm)
            draws.append((str(operands[0]), _box(inner, *(float(v) for v in form["/BBox"])), inner))
            if depth < 4:
                _walk(reader, form, form.get("/Resources"), inner, cards, draws, depth + 1)


def _centre(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _inside(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """Every card of the built kit: {rank index text, corner XObject, pips, figures, index sizes, box}."""
    out = tmp_path_factory.mktemp("deck")
    done = subprocess.run([sys.executable, "-m", "pnp", "build", str(SPEC), "--out", str(out)],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    pdf = out / "playing-cards" / "playing-cards-a4.pdf"
    reader = PdfReader(str(pdf))
    result = []
    with open_pdf(pdf) as plumber:
        for number, page in enumerate(reader.pages[1:], start=2):
            cards, draws = set(), []
            _walk(reader, page.get_contents(), page["/Resources"], (1, 0, 0, 1, 0, 0), cards, draws)
            height = float(page.mediabox.top)
            chars = plumber.pages[number - 1].chars
            for box in sorted(cards, key=lambda b: (-b[3], b[0])):
                result.append(_card(box, [d for d in draws if _inside(_centre(d[1]), box)], chars, height))
    return {"cards": result, "pdf": pdf, "out": out}


def _card(box, draws, chars, height):
    """One card read back: its top-left index (text and sizes), the XObject of its corner suit, and
    the pictures in its middle (pips and figures) as (name, box, matrix)."""
    left, top = box[0], height - box[3]           # pdfplumber measures y from the page's top
    index = [c for c in chars if 0 < mm((c["x0"] + c["x1"]) / 2 - left) < CORNER
             and 0 < mm((c["top"] + c["bottom"]) / 2 - top) < TRIM[1] / 2]
    index.sort(key=lambda c: (round(c["top"], 1), c["x0"]))
    corner = [d for d in draws if mm(_centre(d[1])[0] - box[0]) < CORNER and mm(box[3] - _centre(d[1])[1]) < TRIM[1] / 2]
    # (draws are only those whose centre lies on this card)
    middle = [d for d in draws if CORNER < mm(_centre(d[1])[0] - box[0]) < TRIM[0] - CORNER]
    return {"box": box, "index": "".join(c["text"] for c in index), "sizes": {round(c["size"], 2) for c in index},
            "suit": corner[0][0] if corner else None, "middle": middle}


def _pips(card):
    return [d for d in card["middle"] if d[0] == card["suit"]]


def test_every_card_is_read_back(deck):
    cards = deck["cards"]
    assert len(cards) == 54
    ranks = Counter(c["index"] for c in cards)
    assert ranks == Counter({**{r: 4 for r in [*STANDARD, *COURTS]}, "JOKER": 2})
    suits = Counter(c["suit"] for c in cards if c["index"] != "JOKER")
    assert len(suits) == 4 and set(suits.values()) == {13}  # four suit icons, thirteen cards each


@pytest.mark.parametrize("rank", list(STANDARD))
def test_pips_follow_the_standard_layout(deck, rank):
    (columns, rows) = STANDARD[rank]
    for card in (c for c in deck["cards"] if c["index"] == rank):
        box = card["box"]
        cx, cy = _centre(box)
        got_columns, got_rows = [0, 0, 0], [0, 0, 0]
        pips = _pips(card)
        for _, pip, matrix in pips:
            x, y = _centre(pip)
            got_columns[0 if mm(x - cx) < -2 else 2 if mm(x - cx) > 2 else 1] += 1
            where = 0 if mm(y - cy) > 1 else 2 if mm(y - cy) < -1 else 1      # PDF y points up
            got_rows[where] += 1
            # upright (the picture's y axis up the page) above the middle and on it, turned half a turn below
            assert (matrix[0] < 0 and matrix[3] < 0) == (where == 2), (rank, where, matrix)
            assert matrix[0] * matrix[3] > 0  # turned, never mirrored
            # inside the safe area
            assert mm(pip[0] - box[0]) >= SAFE and mm(box[2] - pip[2]) >= SAFE
            assert mm(pip[1] - box[1]) >= SAFE and mm(box[3] - pip[3]) >= SAFE
        assert (tuple(got_columns), tuple(got_rows)) == (columns, rows), rank
        if rank != "A":
            assert len({(round(p[1][2] - p[1][0], 2), round(p[1][3] - p[1][1], 2)) for p in pips}) == 1  # one pip size


def test_the_ace_pip_is_large(deck):
    def width(rank):
        return {round(mm(p[1][2] - p[1][0]), 2) for c in deck["cards"] if c["index"] == rank for p in _pips(c)}
    ace, two = width("A"), width("2")
    assert len(ace) == len(two) == 1 and min(ace) > 2 * max(two)


def test_court_cards_carry_a_double_ended_figure(deck):
    figures = defaultdict(set)
    for card in deck["cards"]:
        big = [d for d in card["middle"] if mm(d[1][2] - d[1][0]) > 30 and mm(d[1][3] - d[1][1]) > 60]
        if card["index"] in COURTS:
            assert len(big) == 1, card["index"]
            figures[card["index"]].add(big[0][0])
            name, box, _ = big[0]
            assert mm(box[0] - card["box"][0]) >= SAFE and mm(card["box"][2] - box[2]) >= SAFE
        else:
            assert big == [], card["index"]
    # one figure per rank and colour: two each (red and black suits), none shared between ranks
    assert {r: len(f) for r, f in figures.items()} == {"J": 2, "Q": 2, "K": 2}
    assert not (figures["J"] & figures["Q"] or figures["Q"] & figures["K"] or figures["J"] & figures["K"])


def test_the_figures_are_double_ended():
    """Each figure SVG (drawn by art/make_courts.py) holds the same half twice, the second turned half a
    turn about the frame's centre (read with an XML parser)."""
    import xml.etree.ElementTree as ET
    for path in sorted((SPEC / "art").glob("*.svg")):
        root = ET.parse(path).getroot()
        groups = [g for g in root if g.tag.endswith("}g")]
        w, h = (float(v) for v in root.get("viewBox").split()[2:])
        assert [g.get("transform") for g in groups] == [f"rotate(0 {w / 2:g} {h / 2:g})",
                                                      f"rotate(180 {w / 2:g} {h / 2:g})"], path.name
        assert [ET.tostring(c) for c in groups[0]] == [ET.tostring(c) for c in groups[1]], path.name
        assert len(groups[0]) >= 10, path.name  # a figure, not an empty frame


def test_joker_indices_match_the_other_indices(deck):
    sizes = {c["index"]: c["sizes"] for c in deck["cards"]}
    jokers = [c for c in deck["cards"] if c["index"] == "JOKER"]
    others = set().union(*(c["sizes"] for c in deck["cards"] if c["index"] != "JOKER"))
    assert len(others) == 1, sizes
    assert len(jokers) == 2 and all(c["sizes"] == others for c in jokers)


def _cover(pdf: Path) -> str:
    with open_pdf(pdf) as doc:
        return " ".join(doc.pages[0].extract_text().split())


def _natural(text: str) -> None:
    """No possessive after a word that is not a name, and no "designed by" without one."""
    assert not re.search(r"\b(developers|\)|domain|designer|game)'s\b", text), text
    assert "s's " not in text, text
    assert not re.search(r"designed by\s*(\(|$|[.;,])", text), text


def test_playing_cards_cover_credits_a_traditional_game(deck):
    text = _cover(deck["pdf"])
    _natural(text)
    assert "a traditional game, in the public domain" in text
    assert "designed by" not in text
    assert "the traditional rules of Playing cards" in text
    for svg in (deck["out"] / "playing-cards" / "svg").glob("*.svg"):
        desc = re.search(r"<desc>(.*?)</desc>", svg.read_text(encoding="utf-8"), re.S).group(1)
        assert "designed by" not in desc and "a traditional game" in desc, svg.name


@pytest.mark.parametrize("designer", ["the pnp developers", None])
def test_questions_cover_reads_naturally(tmp_path, designer):
    """The questions example with its designer (a group, plural) and with none. Its rules are the
    data-driven game's own, not pnp's summary of someone's rules: the cover claims no summary."""
    import shutil
    game = tmp_path / "questions"
    shutil.copytree(REPO / "specs" / "questions", game)
    spec = game / "questions.yaml"
    lines = [ln for ln in spec.read_text(encoding="utf-8").splitlines(keepends=True) if not ln.startswith("designer:")]
    if designer:
        lines.insert(1, f"designer: {designer}\n")
    spec.write_text("".join(lines), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pnp", "build", str(game), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    text = _cover(tmp_path / "out" / "questions" / "questions-a4.pdf")
    _natural(text)
    assert "summary in pnp's own words" not in text
    if designer:
        assert f"designed by {designer}" in text
    else:
        assert "designed by" not in text


def test_credit_line_in_every_case():
    from pnp.inputs.textcheck import credit_line
    assert credit_line("Cameron Browne", 2011) == "designed by Cameron Browne (2011)"
    assert credit_line("", None) == ""
    assert credit_line("", None, traditional=True) == "a traditional game, in the public domain"
    assert credit_line("A. Hoyle", None, traditional=True) == "a traditional game, arranged by A. Hoyle"
