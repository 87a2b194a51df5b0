"""Matched floors for NetMatch word-card decks: a bare reportlab (or bare svgwrite) script that draws
exactly what pnp draws on the word-card pages, and nothing else (no pnp, no IR, no imposition).

Per page: 9 cards, each a clipped white card with the word (bold, fitted to the card), a small
upside-down copy and the "NetMatch" footer, all in Noto Sans; the crop marks; the 50 mm scale bar
and the two footer texts. The SVG floor also writes the same ``<title>``, ``<desc>`` and embedded
font ``<style>`` element (the same base64 string pnp embeds) on every page.

Run as a whole process by bench/run.py (never imported by pnp):

    python bench/floor_cards.py pdf LAYOUT.json WORDS.txt OUT.pdf
    python bench/floor_cards.py svg LAYOUT.json WORDS.txt OUT_FOLDER

LAYOUT.json is written by bench/run.py from pnp's own imposition (untimed): page and card size,
slot positions, crop marks and footer, fonts, sizes and colours.
"""
from __future__ import annotations

import json
import sys

MM_PER_PT = 25.4 / 72.0
CAP_HEIGHT = 0.714
BOLD_STROKE = 0.035


def _words(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [w.strip() for w in f if w.strip()]


def _pages(words: list[str], per: int):
    for start in range(0, len(words), per):
        yield start // per, words[start:start + per]


def pdf_floor(layout: dict, words: list[str], out: str) -> None:
    from reportlab.lib.colors import HexColor
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    font = "NotoSans"
    pdfmetrics.registerFont(TTFont(font, layout["font_path"]))
    mm = 1 / MM_PER_PT
    pw, ph = layout["page"]
    cw, ch = layout["card"]
    safe, max_pt = layout["safe"], layout["word_size_pt"]
    ink, grey, white = HexColor("#000000"), HexColor("#555555"), HexColor("#ffffff")
    c = canvas.Canvas(out, pagesize=(pw * mm, ph * mm), invariant=1, pageCompression=1)
    c.setTitle(layout["title"])

    def fit(word: str, width: float, most: float) -> float:
        w = pdfmetrics.stringWidth(word, font, 10.0) * MM_PER_PT
        return min(most, 10.0 * width / w) if w > 0 else most

    first = layout["first_page"]
    total = layout["total_pages"]
    for index, chunk in _pages(words, len(layout["slots"])):
        for word, (x, y) in zip(chunk, layout["slots"]):
            c.saveState()
            c.translate(x * mm, (ph - y) * mm)  # card's top-left; y up
            clip = c.beginPath()
            clip.rect(0, -ch * mm, cw * mm, ch * mm)
            c.clipPath(clip, stroke=0, fill=0)
            c.setFillColor(white)
            c.rect(0, -ch * mm, cw * mm, ch * mm, stroke=0, fill=1)
            big = fit(word, cw - 2 * safe - 2, max_pt)
            c.setFillColor(ink)
            c.setStrokeColor(ink)
            c.setLineWidth(BOLD_STROKE * big)
            t = c.beginText()
            t.setTextRenderMode(2)  # bold: fill + stroke
            t.setFont(font, big)
            t.setTextOrigin(cw / 2 * mm - pdfmetrics.stringWidth(word, font, big) / 2,
                            -(ch / 2 * mm + CAP_HEIGHT * big / 2))
            t.textOut(word)
            t.setTextRenderMode(0)
            c.drawText(t)
            small = fit(word, cw / 2, 11.0)
            c.setFillColor(grey)
            c.setFont(font, small)
            c.saveState()
            c.translate(cw / 2 * mm, -(safe + 4) * mm)
            c.rotate(180)
            c.drawCentredString(0, -CAP_HEIGHT * small / 2, word)
            c.restoreState()
            c.setFont(font, 6)
            c.drawCentredString(cw / 2 * mm, -(ch - safe - 3) * mm, "NetMatch")
            c.restoreState()
        c.setStrokeColor(ink)
        for x1, y1, x2, y2, w in layout["lines"]:
            c.setLineWidth(w * mm)
            c.line(x1 * mm, (ph - y1) * mm, x2 * mm, (ph - y2) * mm)
        c.setFillColor(ink)
        for x, y, size, anchor, text in layout["texts"]:
            text = text.format(page=first + index, total=total)
            c.setFont(font, size)
            (c.drawRightString if anchor == "end" else c.drawString)(x * mm, (ph - y) * mm, text)
        c.showPage()
    c.save()


def svg_floor(layout: dict, words: list[str], out: str) -> None:
    import os

    import svgwrite

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    font = "NotoSans"
    pdfmetrics.registerFont(TTFont(font, layout["font_path"]))
    pw, ph = layout["page"]
    cw, ch = layout["card"]
    safe, max_pt = layout["safe"], layout["word_size_pt"]
    stack = layout["font_stack"]
    css = layout["css"]

    def n(v: float):
        r = round(v, 4) + 0.0
        return int(r) if r.is_integer() else r

    def fit(word: str, width: float, most: float) -> float:
        w = pdfmetrics.stringWidth(word, font, 10.0) * MM_PER_PT
        return min(most, 10.0 * width / w) if w > 0 else most

    def text(d, s: str, x, y, size_pt: float, fill: str, anchor: str, middle: bool, bold: bool = False,
             rotate: float = 0):
        size = size_pt * MM_PER_PT
        el = d.text(s, insert=(0, n(CAP_HEIGHT * size / 2 if middle else 0.0)), fill=fill, font_size=n(size),
                    font_family=stack)
        el["text-anchor"] = anchor
        if bold:
            el["stroke"] = fill
            el["stroke-width"] = n(size * BOLD_STROKE)
        el["transform"] = f"translate({n(x)},{n(y)})" + (f" rotate({n(rotate)})" if rotate else "")
        return el

    os.makedirs(out, exist_ok=True)
    first = layout["first_page"]
    total = layout["total_pages"]
    digits = max(2, len(str(total)))
    for index, chunk in _pages(words, len(layout["slots"])):
        number = first + index
        d = svgwrite.Drawing(size=(f"{n(pw)}mm", f"{n(ph)}mm"), profile="full", debug=False)
        d["viewBox"] = f"0 0 {n(pw)} {n(ph)}"
        d.attribs["xmlns:inkscape"] = "http://www.inkscape.org/namespaces/inkscape"
        d.set_desc(title=layout["title"], desc=layout["desc"].format(page=number, total=total))
        for i, (word, (x, y)) in enumerate(zip(chunk, layout["slots"]), start=1):
            clip = d.defs.add(d.clipPath(id=f"c{i}"))
            clip.add(d.rect((0, 0), (n(cw), n(ch))))
            g = d.g(transform=f"translate({n(x)},{n(y)})")
            g["clip-path"] = f"url(#c{i})"
            g.add(d.rect((0, 0), (n(cw), n(ch)), fill="#ffffff"))
            g.add(text(d, word, cw / 2, ch / 2, fit(word, cw - 2 * safe - 2, max_pt), "#000000", "middle", True,
                       bold=True))
            g.add(text(d, word, cw / 2, safe + 4, fit(word, cw / 2, 11.0), "#555555", "middle", True, rotate=180))
            g.add(text(d, "NetMatch", cw / 2, ch - safe - 3, 6, "#555555", "middle", False))
            d.add(g)
        for x1, y1, x2, y2, w in layout["lines"]:
            d.add(d.line((n(x1), n(y1)), (n(x2), n(y2)), stroke="#000000", stroke_width=n(w)))
        for x, y, size, anchor, s in layout["texts"]:
            d.add(text(d, s.format(page=number, total=total), x, y, size, "#000000", anchor, False))
        d.attribs["text-rendering"] = "geometricPrecision"
        d.attribs["xml:space"] = "preserve"
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
