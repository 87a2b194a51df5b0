"""Matched floors for NetMatch word-card decks: a bare reportlab (or bare svgwrite) script that draws
exactly what pnp draws on the word-card pages, and nothing else (no pnp, no IR, no imposition), as a
careful programmer would with only the library: what repeats is drawn once and placed.

Per page: the word cards, each clipped to its trim, with the card's face (the white field and the
"NetMatch" footer) placed from one Form XObject (PDF) or one ``<g>`` in ``<defs>`` (SVG, ``<use>``),
the word set as large as its box allows in Noto Sans Bold and a small upside-down copy in Noto Sans;
the crop marks and the scale bar, each one form (one ``<defs>`` group a page in SVG, as every SVG page
stands alone); the footer text with its page number. The SVG floor also writes the same ``<title>``,
``<desc>`` and embedded-font ``<style>`` elements (the same strings pnp embeds) on every page.

Run as a whole process by bench/run.py (never imported by pnp):

    python bench/floor_cards.py pdf LAYOUT.json WORDS.txt OUT.pdf
    python bench/floor_cards.py svg LAYOUT.json WORDS.txt OUT_FOLDER

LAYOUT.json is written by bench/run.py (card_layout) from pnp's own imposition, untimed: page and
card size, slot positions, the card face, the word boxes (as specs/netmatch/card.yaml sets them), the
furniture groups, fonts, cap heights and colours. Coordinates in it are millimetres, y down.
"""
from __future__ import annotations

import json
import sys

MM_PER_PT = 25.4 / 72.0
PT = 72.0 / 25.4  # points per millimetre


def _words(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [w.strip() for w in f if w.strip()]


def _pages(words: list[str], per: int):
    for start in range(0, len(words), per):
        yield start // per, words[start:start + per]


def _fitted(width_at_10: float, box_w: float, most: float) -> float:
    """The size (pt) that sets a text ``width_at_10`` mm wide at 10 pt to fill ``box_w`` mm, at most
    ``most``."""
    return min(most, 10.0 * box_w / width_at_10) if width_at_10 > 0 else most


class Shapes:
    """Draws the layout's shape dicts (rect, line, text) on a reportlab canvas, in a frame of points,
    y up, whose origin is the group's (0, 0); ``colour`` turns "#rrggbb" into a reportlab colour.
    A text's ``{page}`` and ``{total}`` are filled in from ``page`` when it is given."""

    def __init__(self, c, colour) -> None:
        self.c, self.colour = c, colour
        self.draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}

    def __call__(self, items, page: dict | None = None) -> None:
        c, colour = self.c, self.colour
        for s in items:
            if s["type"] == "rect":
                c.setFillColor(colour(s["fill"]))
                c.rect(s["x"] * PT, -(s["y"] + s["h"]) * PT, s["w"] * PT, s["h"] * PT, stroke=0, fill=1)
            elif s["type"] == "line":
                c.setStrokeColor(colour(s["stroke"]))
                c.setLineWidth(s["width"] * PT)
                c.line(s["x1"] * PT, -s["y1"] * PT, s["x2"] * PT, -s["y2"] * PT)
            else:
                c.setFillColor(colour(s["fill"]))
                c.setFont(s["font"], s["size"])
                self.draw[s["anchor"]](s["x"] * PT, -s["y"] * PT, s["text"] if page is None else s["text"].format(**page))


class PdfFloor:
    """What both PDF floors share (this one and bench/floor_deck.py): the fonts registered, one
    canvas, the card's face and every keyed furniture group (crop marks, scale bar) each made once as
    a Form XObject; ``open_card`` starts a card (saveState, translate to its top-left, clip to its
    trim, place the face: y up, points), ``close_card`` ends it, ``page_done`` draws the page's
    furniture and finishes the page."""

    def __init__(self, layout: dict, out: str) -> None:
        from reportlab.lib.colors import HexColor
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont
        from reportlab.pdfgen import canvas

        for name, path in layout["fonts"].items():
            pdfmetrics.registerFont(TTFont(name, path))
        self.layout = layout
        self.pw, self.ph = layout["page"]
        self.colours: dict = {}
        self.colour_of = HexColor
        c = self.c = canvas.Canvas(out, pagesize=(self.pw * PT, self.ph * PT), invariant=1, pageCompression=1,
                                   initialFontName=layout["regular"])
        c.setTitle(layout["title"])
        self.shapes = Shapes(c, self.colour)
        # what repeats, once: the card's face, and every keyed furniture group (crop marks, scale bar)
        far = max(self.pw, self.ph) * PT  # each form's bounding box: as far as any page reaches, every way
        c.beginForm("face", -far, -far, far, far)
        self.shapes(layout["face"])
        c.endForm()
        for i, g in enumerate(layout["groups"]):
            if g["key"]:
                c.beginForm(f"g{i}", -far, -far, far, far)
                self.shapes(g["items"])
                c.endForm()

    def colour(self, hex_colour: str):
        got = self.colours.get(hex_colour)
        if got is None:
            got = self.colours[hex_colour] = self.colour_of(hex_colour)
        return got

    def open_card(self, x: float, y: float) -> None:
        c = self.c
        cw, ch = self.layout["card"]
        c.saveState()
        c.translate(x * PT, (self.ph - y) * PT)  # the card's top-left; y up
        clip = c.beginPath()
        clip.rect(0, -ch * PT, cw * PT, ch * PT)
        c.clipPath(clip, stroke=0, fill=0)
        c.doForm("face")

    def close_card(self) -> None:
        self.c.restoreState()

    def page_done(self, number: int) -> None:
        c = self.c
        for i, g in enumerate(self.layout["groups"]):
            c.saveState()
            c.translate(g["dx"] * PT, (self.ph - g["dy"]) * PT)
            if g["rotate"]:
                c.rotate(-g["rotate"])  # y up: the same turn on the paper
            if g["key"]:
                c.doForm(f"g{i}")
            else:
                self.shapes(g["items"], {"page": number, "total": self.layout["total_pages"]})
            c.restoreState()
        c.showPage()


def pdf_floor(layout: dict, words: list[str], out: str) -> None:
    from reportlab.pdfbase import pdfmetrics

    floor = PdfFloor(layout, out)
    c = floor.c
    (big, small) = layout["word_boxes"]
    widths: list = []
    for box in (big, small):  # each word's width at 10 pt in the box's face, for fitting
        widths.append({w: pdfmetrics.stringWidth(w, box["font"], 10.0) * MM_PER_PT for w in set(words)})
    for index, chunk in _pages(words, len(layout["slots"])):
        for word, (x, y) in zip(chunk, layout["slots"]):
            floor.open_card(x, y)
            for box, width in zip((big, small), widths):
                size = _fitted(width[word], box["w"], box["size"])
                c.saveState()
                c.translate(box["x"] * PT, -box["y"] * PT)
                if box["rotate"]:
                    c.rotate(-box["rotate"])
                c.setFillColor(floor.colour(box["fill"]))
                c.setFont(box["font"], size)
                c.drawCentredString(0, -box["cap"] * size / 2, word)  # the capitals' middle on the box's
                c.restoreState()
            floor.close_card()
        floor.page_done(layout["first_page"] + index)
    c.save()


def svg_floor(layout: dict, words: list[str], out: str) -> None:
    import os

    import svgwrite

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    fonts = layout["fonts"]
    for name, path in fonts.items():
        pdfmetrics.registerFont(TTFont(name, path))
    pw, ph = layout["page"]
    cw, ch = layout["card"]
    stacks = layout["font_stacks"]

    def n(v: float):
        r = round(v, 4) + 0.0
        return int(r) if r.is_integer() else r

    def text(d, s: str, x, y, size_pt: float, fill: str, anchor: str, font: str, dy: float = 0.0, rotate: float = 0):
        el = d.text(s, insert=(0, n(dy)), fill=fill, font_size=n(size_pt * MM_PER_PT), font_family=stacks[font])
        el["text-anchor"] = anchor
        if font != layout["regular"]:
            el["font-weight"] = "700"
        el["transform"] = f"translate({n(x)},{n(y)})" + (f" rotate({n(rotate)})" if rotate else "")
        return el

    def shapes(d, parent, items, page=None):
        for s in items:
            if s["type"] == "rect":
                parent.add(d.rect((n(s["x"]), n(s["y"])), (n(s["w"]), n(s["h"])), fill=s["fill"]))
            elif s["type"] == "line":
                parent.add(d.line((n(s["x1"]), n(s["y1"])), (n(s["x2"]), n(s["y2"])), stroke=s["stroke"],
                                  stroke_width=n(s["width"])))
            else:
                said = s["text"] if page is None else s["text"].format(page=page, total=total)
                parent.add(text(d, said, s["x"], s["y"], s["size"], s["fill"], s["anchor"], s["font"]))

    def transform(g):
        return f"translate({n(g['dx'])},{n(g['dy'])})" + (f" rotate({n(g['rotate'])})" if g["rotate"] else "")

    big, small = layout["word_boxes"]
    widths = [{w: pdfmetrics.stringWidth(w, box["font"], 10.0) * MM_PER_PT for w in set(words)}
              for box in (big, small)]
    os.makedirs(out, exist_ok=True)
    first, total = layout["first_page"], layout["total_pages"]
    digits = max(2, len(str(total)))
    for index, chunk in _pages(words, len(layout["slots"])):
        number = first + index
        d = svgwrite.Drawing(size=(f"{n(pw)}mm", f"{n(ph)}mm"), profile="full", debug=False)
        d["viewBox"] = f"0 0 {n(pw)} {n(ph)}"
        d.attribs["xmlns:inkscape"] = "http://www.inkscape.org/namespaces/inkscape"
        d.set_desc(title=layout["title"], desc=layout["desc"].format(page=number, total=total))
        # what repeats, once a page (each SVG page stands alone): the card's clip and face, the
        # keyed furniture
        d.defs.add(d.clipPath(id="c1")).add(d.rect((0, 0), (n(cw), n(ch))))
        shapes(d, d.defs.add(d.g(id="face")), layout["face"])
        for word, (x, y) in zip(chunk, layout["slots"]):
            g = d.g(transform=f"translate({n(x)},{n(y)})")
            g["clip-path"] = "url(#c1)"
            g.add(d.use("#face"))
            for box, width in zip((big, small), widths):
                size = _fitted(width[word], box["w"], box["size"])
                g.add(text(d, word, box["x"], box["y"], size, box["fill"], "middle", box["font"],
                           dy=box["cap"] * size * MM_PER_PT / 2, rotate=box["rotate"]))
            d.add(g)
        for i, grp in enumerate(layout["groups"]):
            g = d.add(d.g(transform=transform(grp)))
            if grp["key"]:
                shapes(d, d.defs.add(d.g(id=f"g{i}")), grp["items"])
                g.add(d.use(f"#g{i}"))
            else:
                shapes(d, g, grp["items"], number)
        d.attribs["text-rendering"] = "geometricPrecision"
        d.attribs["xml:space"] = "preserve"
        for css in layout["css"]:
            d.defs.add(d.style(css))
        with open(os.path.join(out, f"floor-p{number:0{digits}d}.svg"), "w", encoding="utf-8") as f:
            f.write('<?xml version="1.0" encoding="utf-8" ?>\n' + d.tostring())


def main(argv: list[str]) -> None:
    kind, layout_path, words_path, out = argv
    with open(layout_path, encoding="utf-8") as f:
        layout = json.load(f)
    words = _words(words_path)
    (pdf_floor if kind == "pdf" else svg_floor)(layout, words, out)


if __name__ == "__main__":
    main(sys.argv[1:])
