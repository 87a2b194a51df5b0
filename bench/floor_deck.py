"""A matched floor for the bench's data-driven deck (bench/custom_deck.py): a bare reportlab script
that draws exactly the deck's card pages as a careful programmer would with only the library, so
that a card of the deck can be compared with the least a card of the same drawing costs (beside
case e's comparison with a NetMatch card, which draws two texts where this card draws six).

Per card: saveState, translate, a clipping path, the card's face (the white field and the "Bench
deck" footer: one Form XObject, placed with doForm), then its three texts, each fitted as the front
template asks: the word shrunk in quarter points until it fits its box (advance widths from
``stringWidth``), its small copy shrunk alike and turned half a turn about its box's centre, the
clue wrapped by reportlab's ``simpleSplit`` at each size tried from 9 pt down until its lines fit
the box, every line set with ``drawCentredString``. Per page the crop marks and the scale bar (one
form each) and the footer text with its page number (bench/floor_cards.py's PdfFloor, which the
NetMatch floor uses too). Its full pages and pnp's differ in no pixel (pdftoppm, 100 dpi; the last,
partial page is laid out as a full one, where pnp centres its rows).

    python bench/floor_deck.py LAYOUT.json DECK.csv OUT.pdf

LAYOUT.json is written by bench.custom_deck.deck_layout from pnp's own imposition of the deck,
untimed (pnp is imported there, never in the floor): page and card size, slot positions, the face, the text
boxes of the front template, the furniture, fonts and their ascent and descent. Millimetres, y down.
"""
from __future__ import annotations

import csv
import json
import sys

from floor_cards import MM_PER_PT, PT, PdfFloor  # run as a script: bench/ is on the path

STEP = 0.25  # pt: the sizes tried when a text shrinks


def _shrunk(box: dict, text: str, width_pt) -> tuple[float, list[str]] | None:
    """The largest size (a quarter-point step from the box's size down to its min_size) at which
    ``text`` fits the box, with its lines (wrapped by simpleSplit when the box wraps), or None."""
    from reportlab.lib.utils import simpleSplit

    w, h, font = box["w"], box["h"], box["font"]
    tall = box["ascent"] + box["descent"]
    steps = int((box["size"] - box["min_size"] + 1e-9) / STEP)
    if not box["wrap"]:  # one line: its width and height grow with the size, so the size is computed
        wide = width_pt(text, font, 1.0) * MM_PER_PT
        best = min(box["size"], w / wide if wide else box["size"], h / (tall * MM_PER_PT))
        steps = min(steps, int((best - box["min_size"] + 1e-9) / STEP) + 1)  # and checked from one step above
    for k in range(steps, -1, -1):
        size = box["min_size"] + k * STEP
        lines = simpleSplit(text, font, size, w * PT) if box["wrap"] else [text]
        em = size * MM_PER_PT
        if (tall * em + (len(lines) - 1) * box["spacing"] * em <= h + 1e-9
                and all(width_pt(line, font, size) * MM_PER_PT <= w + 1e-9 for line in lines)):
            return size, lines
    return None


def pdf_floor(layout: dict, rows: list[dict], out: str) -> None:
    from reportlab.pdfbase import pdfmetrics

    width_pt = pdfmetrics.stringWidth
    floor = PdfFloor(layout, out)
    c = floor.c
    slots, boxes = layout["slots"], layout["boxes"]
    for start in range(0, len(rows), len(slots)):
        for row, (x, y) in zip(rows[start:start + len(slots)], slots):
            floor.open_card(x, y)
            for box in boxes:
                size, lines = _shrunk(box, row[box["column"]], width_pt)
                em = size * MM_PER_PT
                tall = (box["ascent"] + box["descent"]) * em + (len(lines) - 1) * box["spacing"] * em
                top = (box["h"] - tall) / 2 if box["valign"] == "middle" else 0.0
                c.saveState()
                c.translate((box["x"] + box["w"] / 2) * PT, -(box["y"] + box["h"] / 2) * PT)  # the box's centre
                if box["rotate"]:
                    c.rotate(-box["rotate"])  # y up: the same turn on the paper
                c.setFillColor(floor.colour(box["fill"]))
                c.setFont(box["font"], size)
                for i, line in enumerate(lines):
                    base = top + box["ascent"] * em + i * box["spacing"] * em - box["h"] / 2
                    c.drawCentredString(0, -base * PT, line)
                c.restoreState()
            floor.close_card()
        floor.page_done(layout["first_page"] + start // len(slots))
    c.save()


def main(argv: list[str]) -> None:
    layout_path, rows_path, out = argv
    with open(layout_path, encoding="utf-8") as f:
        layout = json.load(f)
    with open(rows_path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    pdf_floor(layout, rows, out)


if __name__ == "__main__":
    main(sys.argv[1:])
