"""SVG backend (svgwrite). One SVG per page; width and height in mm with a viewBox in mm, so the
user unit is 1 mm and cutters (Inkscape, LightBurn, Silhouette) import at true size.

Groups with a ``layer`` become Inkscape layers (inkscape:groupmode="layer").
"""
from __future__ import annotations

from pathlib import Path

import svgwrite

from ..fonts import CAP_HEIGHT, FONT_FAMILY
from ..ir import Circle, Group, Line, Page, Polygon, Rect, Text

INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
PT_TO_MM = 25.4 / 72.0


def _n(v: float) -> float | int:
    r = round(v, 4) + 0.0
    return int(r) if r.is_integer() else r


def page_to_svg(page: Page) -> str:
    """Serialise one Page as an SVG document (a string)."""
    dwg = svgwrite.Drawing(size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"), profile="full", debug=False)
    dwg["viewBox"] = f"0 0 {_n(page.width)} {_n(page.height)}"
    dwg.attribs["xmlns:inkscape"] = INKSCAPE_NS
    ctx = {"dwg": dwg, "clips": 0}
    for shape in page.items:
        dwg.add(_element(shape, ctx))
    return dwg.tostring()


def write_svg(page: Page, path: Path) -> None:
    """Write one Page to ``path`` as SVG (UTF-8)."""
    path.write_text('<?xml version="1.0" encoding="utf-8" ?>\n' + page_to_svg(page), encoding="utf-8")


def _paint(fill, stroke, width) -> dict:
    out = {"fill": fill or "none"}
    if stroke and width > 0:
        out["stroke"] = stroke
        out["stroke_width"] = _n(width)
    return out


def _element(s, ctx):
    dwg = ctx["dwg"]
    if isinstance(s, Rect):
        return dwg.rect((_n(s.x), _n(s.y)), (_n(s.w), _n(s.h)), **_paint(s.fill, s.stroke, s.stroke_width))
    if isinstance(s, Circle):
        return dwg.circle((_n(s.cx), _n(s.cy)), _n(s.r), **_paint(s.fill, s.stroke, s.stroke_width))
    if isinstance(s, Polygon):
        return dwg.polygon([(_n(x), _n(y)) for x, y in s.points], **_paint(s.fill, s.stroke, s.stroke_width))
    if isinstance(s, Line):
        el = dwg.line((_n(s.x1), _n(s.y1)), (_n(s.x2), _n(s.y2)), stroke=s.stroke, stroke_width=_n(s.stroke_width))
        if s.dash:
            el["stroke-dasharray"] = " ".join(str(_n(d)) for d in s.dash)
        return el
    if isinstance(s, Text):
        return _text(s, dwg)
    if isinstance(s, Group):
        g = dwg.g()
        transform = []
        if s.dx or s.dy:
            transform.append(f"translate({_n(s.dx)},{_n(s.dy)})")
        if s.rotate:
            transform.append(f"rotate({_n(s.rotate)})")
        if (s.sx, s.sy) != (1, 1):
            transform.append(f"scale({_n(s.sx)},{_n(s.sy)})")
        if transform:
            g["transform"] = " ".join(transform)
        if s.layer:
            g["inkscape:groupmode"] = "layer"
            g["inkscape:label"] = s.layer
            g["id"] = f"layer-{s.layer}"
        if s.clip:
            ctx["clips"] += 1
            clip = dwg.defs.add(dwg.clipPath(id=f"c{ctx['clips']}"))
            x, y, w, h = s.clip
            clip.add(dwg.rect((_n(x), _n(y)), (_n(w), _n(h))))
            g["clip-path"] = f"url(#c{ctx['clips']})"
        for child in s.children:
            g.add(_element(child, ctx))
        return g
    raise TypeError(f"unknown shape {type(s).__name__}")  # pragma: no cover


def _text(t: Text, dwg):
    size = t.size_pt * PT_TO_MM
    shift = CAP_HEIGHT * size / 2 if t.valign == "middle" else 0.0
    el = dwg.text(t.text, insert=(0, _n(shift)), fill=t.fill, font_size=_n(size),
                  font_family=f"'{FONT_FAMILY}', sans-serif")
    el["text-anchor"] = t.anchor
    if t.bold:
        el["font-weight"] = "bold"
    if t.underline:
        el["text-decoration"] = "underline"
    transform = f"translate({_n(t.x)},{_n(t.y)})"
    if t.rotate:
        transform += f" rotate({_n(t.rotate)})"
    el["transform"] = transform
    return el


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


def write_cut_svg(page: Page, path: Path) -> None:
    """Write a cutter SVG: an Inkscape layer "art" with the artwork and a layer "cut" holding only the
    cut outlines (hairline, pure red, one closed shape per component), sizes in mm."""
    from dataclasses import replace
    layered = replace(page, items=(Group(page.items, layer="art"), Group(cut_outlines(page), layer="cut")))
    write_svg(layered, path)
