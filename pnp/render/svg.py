"""SVG backend (svgwrite). One SVG per page; width and height in mm with a viewBox in mm, so the
user unit is 1 mm and cutters (Inkscape, LightBurn, Silhouette) import at true size.

Groups with a ``layer`` become Inkscape layers (inkscape:groupmode="layer"). A group with a reuse
``key`` (pnp.core.ir.Group) is written once per page into ``<defs>`` as ``<g id="uN">`` and placed
with ``<use>`` wherever the key appears on that page (cutter SVGs draw every group in place: cutter
software handles ``<use>`` unevenly).
"""
from __future__ import annotations

import base64
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree

import svgwrite
from svgwrite import container, shapes, text as svgtext

from ..core.fonts import DEFAULT_FACE, FONT_FAMILY, face as font_face
from ..core.ir import Circle, Group, Image, Line, Page, Polygon, Rect, Text
from ..inputs.images import picture_bytes
from .base import Renderer, place_image, place_text
from .fontcache import font_css
from .fontchunks import BASE_CHARS, chunks_css
from .svgfont import FAMILY, font_stack, glyph_path, text_outline_path
from ..core.fonts import shaped
from ..core.shaping import needs_shaping

INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
FONT_STACK = f"'{FAMILY}', '{FONT_FAMILY}', sans-serif"


@lru_cache(maxsize=8192)
def _n(v: float) -> str:
    """``v`` rounded to 0.0001 mm, as SVG text: no trailing ".0" when whole, no -0. Text, not a number:
    svgwrite turns a number into text itself, checking its debug switch for each one. Memoised: a
    sheet repeats its coordinates (rows, columns, crop marks), and a lookup costs a fifth of the rounding."""
    r = round(v, 4)
    i = int(r)
    return str(i if i == r else r)


def page_to_svg(page: Page, title: str = "", desc: str = "", outline_text: bool = False,
                cache: Path | None = None, reuse: bool | None = None) -> str:
    """Serialise one Page as an SVG document (a string), with ``<title>`` and ``<desc>`` when given.

    Text travels with the page, so a viewer without Noto Sans draws the same letters: one ``<style>``
    per face used on the page (Noto Sans first, then by name). A built-in face (Noto Sans, its italic, bold, bold italic)
    gets an ``@font-face`` per shipped chunk its characters touch, each with its ``unicode-range``
    (pnp.render.fontchunks; no subsetting); a registered font, or a built-in face whose installed
    file is not the one the chunks were made from, one ``@font-face`` with a subset of BASE_CHARS plus
    the characters set in it (pnp.render.fontcache). With ``outline_text`` (cutter SVGs, and page
    SVGs built with ``--svg-text outlines``) text becomes glyph outlines (``<path>``) instead, and
    no ``@font-face`` is written. ``reuse``: keyed groups written once in ``<defs>`` and placed with
    ``<use>`` (default: when text is not outlined, as cutter SVGs draw every group in place).
    ``cache`` is the folder of font subsets kept between builds (pnp.render.fontcache), or None.

    Raises:
        LayoutError: a text uses a character the embedded font cannot draw.
    """
    dwg = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    dwg.attribs["xmlns:inkscape"] = INKSCAPE_NS
    if title or desc:
        dwg.set_desc(title=title or None, desc=desc or None)
    renderer = SvgRenderer(dwg, outline_text, not outline_text if reuse is None else reuse)
    renderer.draw_all(page.items)
    if renderer.chars or renderer.faces:
        dwg.attribs["text-rendering"] = "geometricPrecision"  # no rounding of glyph advances to pixels
        dwg.attribs["xml:space"] = "preserve"                 # runs of spaces as in the PDF
    faces = dict(renderer.faces)
    if renderer.chars:
        faces[DEFAULT_FACE] = renderer.chars
    for face in sorted(faces, key=lambda f: (f != DEFAULT_FACE, f)):  # Noto Sans first, then by name
        chars = frozenset(faces[face])   # a built-in face: its shipped chunks; else (or another
        css = chunks_css(chars, face)    # version of the font) a subset made for the page
        if css is None:
            css = font_css(chars, BASE_CHARS, cache, face=face)
        if css:
            dwg.defs.add(dwg.style(css))
    # svgwrite's own tostring() serialises to UTF-8 bytes and decodes them again (for Python 2); the
    # same tree serialised straight to str is the same text at about half the cost
    return ElementTree.tostring(dwg.get_xml(), encoding="unicode")


def svg_text(page: Page, title: str = "", desc: str = "", cut: bool = False, cache: Path | None = None,
             outlines: bool = False) -> str:
    """The text of an SVG file (XML declaration and document) for one Page: as write_svg writes it,
    or with ``cut`` as write_cut_svg does; ``outlines``: a page SVG with its text as glyph outlines
    (keyed groups still placed with ``<use>``). ``cache`` as in page_to_svg."""
    if cut:
        layers = (Group(page.items, layer="art"), Group(cut_outlines(page), layer="cut"))
        scores = score_lines(page)
        page = replace(page, items=layers + ((Group(scores, layer="score"),) if scores else ()))
    return '<?xml version="1.0" encoding="utf-8" ?>\n' + page_to_svg(page, title, desc, outline_text=cut or outlines,
                                                                     cache=cache, reuse=not cut)


def write_svg(page: Page, path: Path, title: str = "", desc: str = "") -> None:
    """Write one Page to ``path`` as SVG (UTF-8)."""
    path.write_text(svg_text(page, title, desc), encoding="utf-8")


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


def _paint(el, fill, stroke, width):
    """``el`` with its fill and stroke set (SVG attribute names, as text, into the element's
    ``attribs``: svgwrite's keyword path re-spells every name)."""
    el.attribs["fill"] = fill or "none"
    return _stroked(el, stroke, width) if stroke and width > 0 else el


def _stroked(el, stroke, width):
    """``el`` with its stroke colour and width (mm) set."""
    el.attribs["stroke"] = stroke
    el.attribs["stroke-width"] = _n(width)
    return el


class SvgRenderer(Renderer):
    """Draws IR shapes as svgwrite elements into ``dwg`` (one method per shape; see base.Renderer)."""

    def __init__(self, dwg, outline_text: bool = False, reuse: bool = True) -> None:
        self.dwg = dwg
        self.parent = dwg
        self.clips = 0
        self.outline_text = outline_text
        self.reuse = reuse              # keyed groups into <defs>, placed with <use>
        self.chars: set[str] = set()   # characters drawn as Noto Sans text (for the embedded font subset)
        self.faces: dict[str, set[str]] = {}  # every other face used -> its characters
        self.images: dict[str, str] = {}  # image sha256 -> id of its <image> in <defs>
        self.uses: dict[str, str] = {}  # Group.key -> id of its <g> in <defs> on this page
        self.clip_ids: dict[tuple, str] = {}  # a group's clip rectangle -> id of its <clipPath> on this page
        self.glyphs: dict[tuple, str] = {}  # (face, glyph id) of shaped text -> id of its <path> in <defs>

    def rect(self, s: Rect) -> None:
        el = shapes.Rect((_n(s.x), _n(s.y)), (_n(s.w), _n(s.h)), factory=self.dwg)
        if s.r > 0:
            el.attribs["rx"] = el.attribs["ry"] = _n(s.r)
        self.parent.add(_paint(el, s.fill, s.stroke, s.stroke_width))

    def circle(self, s: Circle) -> None:
        el = shapes.Circle((_n(s.cx), _n(s.cy)), _n(s.r), factory=self.dwg)
        self.parent.add(_paint(el, s.fill, s.stroke, s.stroke_width))

    def polygon(self, s: Polygon) -> None:
        el = shapes.Polygon([(_n(x), _n(y)) for x, y in s.points], factory=self.dwg)
        self.parent.add(_paint(el, s.fill, s.stroke, s.stroke_width))

    def line(self, s: Line) -> None:
        el = _stroked(shapes.Line((_n(s.x1), _n(s.y1)), (_n(s.x2), _n(s.y2)), factory=self.dwg), s.stroke, s.stroke_width)
        if s.dash:
            el.attribs["stroke-dasharray"] = " ".join(str(_n(d)) for d in s.dash)
        self.parent.add(el)

    def group(self, s: Group) -> None:
        dwg = self.dwg
        if s.key is not None and not s.layer and self.reuse:
            ref = self.uses.get(s.key)
            if ref is None:
                ref = self.uses[s.key] = f"u{len(self.uses) + 1}"
                self._content(s, dwg.defs.add(dwg.g(id=ref)))
            el = container.Use(f"#{ref}", factory=dwg)
            transform = _transform(s)
            if transform:
                el.attribs["transform"] = transform
            self.parent.add(el)
            return
        g = container.Group(factory=dwg)
        transform = _transform(s)
        if transform:
            g.attribs["transform"] = transform
        if s.layer:
            g.attribs.update({"inkscape:groupmode": "layer", "inkscape:label": s.layer, "id": f"layer-{s.layer}"})
        self.parent.add(g)
        self._content(s, g)

    def _content(self, s: Group, g) -> None:
        """Draw ``s``'s clip and children into the element ``g``."""
        dwg = self.dwg
        if s.clip:  # one <clipPath> per rectangle on the page: it clips in the user space of each group
            ref = self.clip_ids.get(s.clip)   # that uses it, so the parts of a sheet share one
            if ref is None:
                self.clips += 1
                ref = self.clip_ids[s.clip] = f"c{self.clips}"
                clip = dwg.defs.add(dwg.clipPath(id=ref))
                x, y, w, h = s.clip
                clip.add(dwg.rect((_n(x), _n(y)), (_n(w), _n(h))))
            g.attribs["clip-path"] = f"url(#{ref})"
        if s.clip_path:  # a polygon: on a group of its own inside, so a rectangle and a polygon both clip
            ref = self.clip_ids.get(s.clip_path)
            if ref is None:
                self.clips += 1
                ref = self.clip_ids[s.clip_path] = f"c{self.clips}"
                dwg.defs.add(dwg.clipPath(id=ref)).add(shapes.Polygon([(_n(x), _n(y)) for x, y in s.clip_path],
                                                                      factory=dwg))
            inner = container.Group(factory=dwg)
            inner.attribs["clip-path"] = f"url(#{ref})"
            g.add(inner)
            g = inner
        outer, self.parent = self.parent, g
        self.draw_all(s.children)
        self.parent = outer

    def image(self, s: Image) -> None:
        """The picture embedded as a data: URL (the SVG file stands alone), clipped to its box; the
        same file is embedded once per page and reused with <use>."""
        facts, (x, y, w, h) = place_image(s)
        dwg = self.dwg
        ref = self.images.get(facts.sha256)
        if ref is None:
            ref = self.images[facts.sha256] = f"img{len(self.images) + 1}"
            mime = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}[facts.kind]
            url = f"data:{mime};base64," + base64.b64encode(picture_bytes(facts)).decode("ascii")
            iw, ih = facts.size
            dwg.defs.add(dwg.image(href=url, insert=(0, 0), size=(_n(iw), _n(ih)), id=ref,
                                   preserveAspectRatio="none"))
        self.clips += 1
        clip = dwg.defs.add(dwg.clipPath(id=f"c{self.clips}"))
        clip.add(dwg.rect((_n(s.x), _n(s.y)), (_n(s.w), _n(s.h))))
        g = dwg.g(clip_path=f"url(#c{self.clips})")
        iw, ih = facts.size
        use = dwg.use(f"#{ref}", transform=f"translate({_n(x)},{_n(y)}) scale({_n(w / iw)},{_n(h / ih)})")
        g.add(use)
        self.parent.add(g)

    def text(self, t: Text) -> None:
        p = place_text(t)
        dwg = self.dwg
        transform = f"translate({_n(t.x)},{_n(t.y)})"
        if t.rotate:
            transform += f" rotate({_n(t.rotate)})"
        font = p.font  # the bold face for bold text: its own glyphs, nothing stroked
        if needs_shaping(t.text):
            self._shaped(t, p, transform)
            return
        if self.outline_text:  # glyph outlines in the text's own frame: no program can swap the font
            el = dwg.path(d=text_outline_path(t.text, t.size_pt, 0.0, 0.0, t.anchor, t.valign, font=font),
                          fill=t.fill)
            attribs = el.attribs
        else:
            el = svgtext.Text(t.text, factory=dwg)
            attribs = el.attribs
            attribs.update({"x": "0", "y": _n(p.dy), "fill": t.fill, "font-size": _n(p.size), "text-anchor": t.anchor})
            if font == DEFAULT_FACE:
                self.chars.update(t.text)
                attribs["font-family"] = FONT_STACK
            else:
                self.faces.setdefault(font, set()).update(t.text)
                attribs["font-family"] = font_stack(font)
                drawn = font_face(font)
                if drawn.style == "italic":  # matches the italic @font-face; nothing synthesised
                    attribs["font-style"] = "italic"
                if drawn.weight != 400:  # matches the bold @font-face (font-weight: 700)
                    attribs["font-weight"] = str(drawn.weight)
        if p.underline is None:
            attribs["transform"] = transform
            self.parent.add(el)
            return
        g = container.Group(factory=dwg)
        g.attribs["transform"] = transform
        x1, x2, uy, thick = p.underline
        g.add(_stroked(shapes.Line((_n(x1), _n(uy)), (_n(x2), _n(uy)), factory=dwg), t.fill, thick))
        g.add(el)
        self.parent.add(g)


    def _shaped(self, t: Text, p, transform: str) -> None:
        """A text in a script that is shaped (pnp.core.shaping) as its glyphs placed where HarfBuzz put
        them: a group scaled to 1/1000 em holding, per glyph with an outline, a ``<use>`` of the
        glyph's path in ``<defs>`` (once per page; inline ``<path>``s in SVGs whose groups are drawn in
        place, the cutter's) at its pen position plus offset. The group's ``aria-label`` is the text."""
        dwg = self.dwg
        g = container.Group(factory=dwg)
        g.attribs["transform"] = f"{transform} translate({_n(p.dx)},{_n(p.dy)}) scale({p.size / 1000:.9g})"
        g.attribs["fill"] = t.fill
        g.attribs["aria-label"] = t.text
        pen = 0.0
        for glyph in shaped(t.text, p.font):
            d = glyph_path(p.font, glyph.gid)
            x, y = _n(pen + glyph.dx), _n(-glyph.dy)
            pen += glyph.advance
            if not d:
                continue
            if self.reuse:
                ref = self.glyphs.get((p.font, glyph.gid))
                if ref is None:
                    ref = self.glyphs[p.font, glyph.gid] = f"gl{len(self.glyphs) + 1}"
                    dwg.defs.add(dwg.path(d=d, id=ref))
                el = container.Use(f"#{ref}", factory=dwg)
                el.attribs["x"], el.attribs["y"] = x, y
            else:
                el = dwg.path(d=d)
                el.attribs["transform"] = f"translate({x},{y})"
            g.add(el)
        self.parent.add(g)


CUT_COLOUR = "#ff0000"
SCORE_COLOUR = "#0000ff"  # score (fold) lines: a colour of their own, mapped to a scoring tool
CUT_WIDTH = 0.025  # mm: a hairline (0.001 in), what laser and vinyl cutter software expects


def cut_outlines(page: Page) -> tuple:
    """One closed outline per trimmed part on the page: a Circle for round parts, a Polygon for
    polygon parts, else a Rect (rounded corners for rounded parts)."""
    out = []
    for p in page.placements:
        if p.cut.kind == "polygon":
            out.append(Polygon(tuple((p.x + x, p.y + y) for x, y in p.cut.points), fill=None,
                               stroke=CUT_COLOUR, stroke_width=CUT_WIDTH))
        elif p.cut.kind == "circle":
            out.append(Circle(p.x + p.w / 2, p.y + p.h / 2, p.w / 2, fill=None, stroke=CUT_COLOUR,
                              stroke_width=CUT_WIDTH))
        else:
            out.append(Rect(p.x, p.y, p.w, p.h, fill=None, stroke=CUT_COLOUR, stroke_width=CUT_WIDTH, r=p.cut.radius))
    return tuple(out)


def score_lines(page: Page) -> tuple:
    """The score (fold) lines of every trimmed part on the page, as hairline Lines in SCORE_COLOUR
    (page coordinates, mm)."""
    return tuple(Line(p.x + x1, p.y + y1, p.x + x2, p.y + y2, stroke=SCORE_COLOUR, stroke_width=CUT_WIDTH)
                 for p in page.placements for x1, y1, x2, y2 in p.cut.folds)


def write_cut_svg(page: Page, path: Path, title: str = "", desc: str = "") -> None:
    """Write a cutter SVG: an Inkscape layer "art" with the artwork (text as glyph outlines, so cutter
    software never substitutes a font), a layer "cut" holding only the cut outlines (hairline,
    pure red, one closed shape per component) and, when a part has fold lines, a layer "score"
    holding them (hairline, pure blue), sizes in mm."""
    path.write_text(svg_text(page, title, desc, cut=True), encoding="utf-8")
