"""The floor: bare reportlab and bare svgwrite drawing the same primitives on the same pages,
with no pnp code in between (no IR, no imposition, no transforms)."""
from __future__ import annotations

import io
from collections import Counter

import svgwrite
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas


def count_primitives(pages) -> list[Counter]:
    """Per page, how many rect, circle, polygon, line and text primitives pnp drew (groups opened)."""
    from pnp.core.ir import Group
    out = []
    for page in pages:
        c = Counter()
        stack = list(page.items)
        while stack:
            s = stack.pop()
            if isinstance(s, Group):
                stack.extend(s.children)
            else:
                c[type(s).__name__.lower()] += 1
        out.append(c)
    return out


def reportlab_floor(counts: list[Counter], font_path: str) -> bytes:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    if "FloorSans" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("FloorSans", font_path))
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(210 * mm, 297 * mm), invariant=1, pageCompression=1)
    for page in counts:
        c.setFillColorRGB(0.2, 0.3, 0.4)
        for i in range(page["rect"]):
            c.rect(20 * mm + i % 50, 20 * mm + i % 70, 10 * mm, 10 * mm, stroke=1, fill=1)
        for i in range(page["circle"]):
            c.circle(50 * mm, 50 * mm + i % 90, 5 * mm, stroke=1, fill=1)
        for i in range(page["polygon"]):
            p = c.beginPath()
            p.moveTo(10, 10 + i % 50)
            p.lineTo(30, 10)
            p.lineTo(20, 30)
            p.close()
            c.drawPath(p, stroke=1, fill=1)
        for i in range(page["line"]):
            c.line(10, 10 + i % 80, 100, 10 + i % 80)
        c.setFont("FloorSans", 12)
        for i in range(page["text"]):
            c.drawString(30 * mm, 30 * mm + i % 100, "WORD")
        c.showPage()
    c.save()
    return buf.getvalue()


def svgwrite_floor(counts: list[Counter], css: str = "") -> list[str]:
    """Per page, an SVG with the same number of each primitive; with ``css`` (the @font-face rule pnp
    embeds, the same string) in a ``<style>`` on every page that has text, as pnp writes it."""
    out = []
    for page in counts:
        d = svgwrite.Drawing(size=("210mm", "297mm"), profile="full", debug=False)
        d["viewBox"] = "0 0 210 297"
        # float coordinates rounded as a careful writer would (pnp writes 4 decimals)
        for i in range(page["rect"]):
            d.add(d.rect((round(20.25 + i % 50 * 1.37, 4), 20.5), (10.5, 10.25), fill="#000000", stroke="#000000"))
        for i in range(page["circle"]):
            d.add(d.circle((50.5, round(50.25 + i % 90 * 1.13, 4)), 5.25, fill="#ff0000"))
        for i in range(page["polygon"]):
            d.add(d.polygon([(10.5, round(10.25 + i % 50 * 1.1, 4)), (30.25, 10.5), (20.75, 30.5)], fill="#00ff00"))
        for i in range(page["line"]):
            y = round(10.5 + i % 80 * 1.7, 4)
            d.add(d.line((10.25, y), (100.5, y), stroke="#000000", stroke_width=0.2))
        for i in range(page["text"]):
            d.add(d.text("WORD", insert=(30.5, round(30.25 + i % 100 * 1.3, 4)), font_size=4.23))
        if css and page["text"]:
            d.attribs["text-rendering"] = "geometricPrecision"
            d.attribs["xml:space"] = "preserve"
            d.defs.add(d.style(css))
        out.append(d.tostring())
    return out
