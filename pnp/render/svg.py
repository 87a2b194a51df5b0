"""SVG backend (svgwrite). One SVG per page; width and height in mm with a viewBox in mm, so the
user unit is 1 mm and cutters (Inkscape, LightBurn, Silhouette) import at true size.

Groups with a ``layer`` become Inkscape layers (inkscape:groupmode="layer"). A group with a reuse
``key`` (pnp.core.ir.Group) is written once per page into ``<defs>`` as ``<g id="uN">`` and placed
with ``<use>`` wherever the key appears on that page (cutter SVGs draw every group in place: cutter
software handles ``<use>`` unevenly).
"""
from __future__ import annotations

from pathlib import Path

import svgwrite

from ..core.fonts import FONT_FAMILY
from ..core.ir import Circle, Group, Line, Page, Polygon, Rect, Text
from .base import Renderer, place_text
from .fontcache import font_css
from .svgfont import FAMILY, text_outline_path

INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
FONT_STACK = f"'{FAMILY}', '{FONT_FAMILY}', sans-serif"


def _n(v: float) -> float | int:
    r = round(v, 4) + 0.0
    return int(r) if r.is_integer() else r


BASE_CHARS = frozenset(chr(c) for c in range(0x20, 0x7f)) | frozenset("\u2014\u2013\u2022\u00d7\u2026\u2018\u2019\u201c\u201d\u00b0\u00b2")
"""Characters every embedded font subset carries (ASCII and pnp's typography), so pages that use
only these share one cached subset."""


def page_to_svg(page: Page, title: str = "", desc: str = "", outline_text: bool = False) -> str:
    """Serialise one Page as an SVG document (a string), with ``<title>`` and ``<desc>`` when given.

    Text travels with the page: a ``<style>`` holds an ``@font-face`` with the subset of Noto Sans
    the page needs (BASE_CHARS plus its own characters), so a viewer without Noto Sans draws the same
    letters. With ``outline_text`` (cutter SVGs) text becomes glyph outlines (``<path>``) instead.

    Raises:
        LayoutError: a text uses a character the embedded font cannot draw.
    """
    dwg = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    dwg.attribs["xmlns:inkscape"] = INKSCAPE_NS
    if title or desc:
        dwg.set_desc(title=title or None, desc=desc or None)
    renderer = SvgRenderer(dwg, outline_text)
    renderer.draw_all(page.items)
    if renderer.chars:
        dwg.attribs["text-rendering"] = "geometricPrecision"  # no rounding of glyph advances to pixels
        dwg.attribs["xml:space"] = "preserve"                 # runs of spaces as in the PDF
        dwg.defs.add(dwg.style(font_css(frozenset(renderer.chars), BASE_CHARS)))
    return dwg.tostring()


def write_svg(page: Page, path: Path, title: str = "", desc: str = "") -> None:
    """Write one Page to ``path`` as SVG (UTF-8)."""
    path.write_text('<?xml version="1.0" encoding="utf-8" ?>\n' + page_to_svg(page, title, desc), encoding="utf-8")


def _transform(s: Group) -> str:
    """A group's SVG transform attribute ("" when it has none)."""
    transform = []
    if s.dx or s.dy:
        transform.append(f"translate({_n(s.dx)},{_n(s.dy)})")
    if s.rotate:
        transform.append(f"rotate({_n(s.rotate)})")
    if (s.sx, s.sy) != (1, 1):
        transform.append(f"scale({_n(s.sx)},{_n(s.sy)})")
    return " ".join(transform)


def _paint(fill, stroke, width) -> dict:
    out = {"fill": fill or "none"}
    if stroke and width > 0:
        out["stroke"] = stroke
        out["stroke_width"] = _n(width)
    return out


class SvgRenderer(Renderer):
    """Draws IR shapes as svgwrite elements into ``dwg`` (one method per shape; see base.Renderer)."""

    def __init__(self, dwg, outline_text: bool = False) -> None:
        self.dwg = dwg
        self.parent = dwg
        self.clips = 0
        self.outline_text = outline_text
        self.chars: set[str] = set()   # characters drawn as text (for the embedded font subset)
        self.uses: dict[str, str] = {}  # Group.key -> id of its <g> in <defs> on this page

    def rect(self, s: Rect) -> None:
        self.parent.add(self.dwg.rect((_n(s.x), _n(s.y)), (_n(s.w), _n(s.h)), **_paint(s.fill, s.stroke, s.stroke_width)))

    def circle(self, s: Circle) -> None:
        self.parent.add(self.dwg.circle((_n(s.cx), _n(s.cy)), _n(s.r), **_paint(s.fill, s.stroke, s.stroke_width)))

    def polygon(self, s: Polygon) -> None:
        self.parent.add(self.dwg.polygon([(_n(x), _n(y)) for x, y in s.points],
                                         **_paint(s.fill, s.stroke, s.stroke_width)))

    def line(self, s: Line) -> None:
        el = self.dwg.line((_n(s.x1), _n(s.y1)), (_n(s.x2), _n(s.y2)), stroke=s.stroke, stroke_width=_n(s.stroke_width))
        if s.dash:
            el["stroke-dasharray"] = " ".join(str(_n(d)) for d in s.dash)
        self.parent.add(el)

    def group(self, s: Group) -> None:
        dwg = self.dwg
        if s.key is not None and not s.layer and not self.outline_text:
            ref = self.uses.get(s.key)
            if ref is None:
                ref = self.uses[s.key] = f"u{len(self.uses) + 1}"
                self._content(s, dwg.defs.add(dwg.g(id=ref)))
            el = dwg.use(f"#{ref}")
            transform = _transform(s)
            if transform:
                el["transform"] = transform
            self.parent.add(el)
            return
        g = dwg.g()
        transform = _transform(s)
        if transform:
            g["transform"] = transform
        if s.layer:
            g["inkscape:groupmode"] = "layer"
            g["inkscape:label"] = s.layer
            g["id"] = f"layer-{s.layer}"
        self.parent.add(g)
        self._content(s, g)

    def _content(self, s: Group, g) -> None:
        """Draw ``s``'s clip and children into the element ``g``."""
        dwg = self.dwg
        if s.clip:
            self.clips += 1
            clip = dwg.defs.add(dwg.clipPath(id=f"c{self.clips}"))
            x, y, w, h = s.clip
            clip.add(dwg.rect((_n(x), _n(y)), (_n(w), _n(h))))
            g["clip-path"] = f"url(#c{self.clips})"
        outer, self.parent = self.parent, g
        self.draw_all(s.children)
        self.parent = outer

    def text(self, t: Text) -> None:
        p = place_text(t)
        dwg = self.dwg
        transform = f"translate({_n(t.x)},{_n(t.y)})"
        if t.rotate:
            transform += f" rotate({_n(t.rotate)})"
        if self.outline_text:  # glyph outlines in the text's own frame: cutter software never swaps a font
            el = dwg.path(d=text_outline_path(t.text, t.size_pt, 0.0, 0.0, t.anchor, t.valign), fill=t.fill)
        else:
            self.chars.update(t.text)
            el = dwg.text(t.text, insert=(0, _n(p.dy)), fill=t.fill, font_size=_n(p.size), font_family=FONT_STACK)
            el["text-anchor"] = t.anchor
        if p.bold_stroke:  # the same bold as the PDF: fill plus an outline of the same colour
            el["stroke"] = t.fill
            el["stroke-width"] = _n(p.bold_stroke)
        if p.underline is None:
            el["transform"] = transform
            self.parent.add(el)
            return
        g = dwg.g(transform=transform)
        x1, x2, uy, thick = p.underline
        g.add(dwg.line((_n(x1), _n(uy)), (_n(x2), _n(uy)), stroke=t.fill, stroke_width=_n(thick)))
        g.add(el)
        self.parent.add(g)


CUT_COLOUR = "#ff0000"
CUT_WIDTH = 0.025  # mm: a hairline (0.001 in), what laser and vinyl cutter software expects


def cut_outlines(page: Page) -> tuple:
    """One closed outline per trimmed part on the page: a Circle for round parts, else a Rect."""
    out = []
    for _name, x, y, w, h, shape in page.placements:
        if shape == "circle":
            out.append(Circle(x + w / 2, y + h / 2, w / 2, fill=None, stroke=CUT_COLOUR, stroke_width=CUT_WIDTH))
        else:
            out.append(Rect(x, y, w, h, fill=None, stroke=CUT_COLOUR, stroke_width=CUT_WIDTH))
    return tuple(out)


def write_cut_svg(page: Page, path: Path, title: str = "", desc: str = "") -> None:
    """Write a cutter SVG: an Inkscape layer "art" with the artwork (text as glyph outlines, so cutter
    software never substitutes a font) and a layer "cut" holding only the cut outlines (hairline,
    pure red, one closed shape per component), sizes in mm."""
    from dataclasses import replace
    layered = replace(page, items=(Group(page.items, layer="art"), Group(cut_outlines(page), layer="cut")))
    path.write_text('<?xml version="1.0" encoding="utf-8" ?>\n' + page_to_svg(layered, title, desc, outline_text=True),
                    encoding="utf-8")
