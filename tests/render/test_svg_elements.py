"""pnp.render.svg's element classes make their XML straight from ``attribs``; it must be the XML
svgwrite's own ``get_xml`` makes of the same element (issue 24: the SVG backend's speed)."""
from __future__ import annotations

import random
from xml.etree import ElementTree

import pytest
import svgwrite

from pnp.render import svg


def _svgwrite_class(cls):
    """The svgwrite class a fast class extends."""
    return next(c for c in cls.__mro__ if c.__module__.startswith("svgwrite."))


def _value(rng: random.Random) -> str:
    return rng.choice(["0", "1.5", "-2.25", "#ff0000", "none", "url(#c1)", "a & b", "<x>", '"q"', "tab\tline\nnext",
                       "translate(1,2) rotate(30)", "'pnp Noto Sans', 'Noto Sans', sans-serif", "é ü 中"])


@pytest.mark.parametrize("cls", svg.FAST_ELEMENTS, ids=lambda c: c.__name__)
def test_the_xml_is_svgwrites(cls):
    rng = random.Random(cls.__name__)
    dwg = svgwrite.Drawing(debug=False)
    names = ["x", "y", "width", "height", "fill", "stroke", "stroke-width", "transform", "clip-path",
             "font-family", "text-anchor", "inkscape:label", "id", "rx"]
    for _ in range(50):
        args = {"SvgText": ("a < b & \"c\" \u00e9",), "Use": ("#u1",), "SvgRect": (("1", "2"), ("3", "4")),
                "SvgCircle": (("1", "2"), "3"), "SvgLine": (("0", "0.5"), ("1", "1"))}.get(cls.__name__, ())
        el = cls(*args, factory=dwg)
        for name in rng.sample(names, rng.randint(1, len(names))):
            el.attribs[name] = _value(rng)
        if cls is svg.SvgPolygon:  # svgwrite writes points from .points; the fast class from attribs
            el.points = [(str(rng.randint(0, 9)), str(rng.randint(0, 9))) for _ in range(rng.randint(1, 5))]
            el.attribs["points"] = " ".join(f"{x},{y}" for x, y in el.points)
        if cls is svg.SvgGroup:
            child = svg.SvgRect(("1", "2"), ("3", "4"), factory=dwg)
            child.attribs["fill"] = _value(rng)
            el.add(child)
        ours = ElementTree.tostring(el.get_xml(), encoding="unicode")
        theirs = ElementTree.tostring(_svgwrite_class(cls).get_xml(el), encoding="unicode")
        assert ours == theirs


def test_the_renderer_builds_only_fast_elements_for_shapes_and_text():
    """Every element a page of shapes and text holds (below the document's own furniture) is of a fast class."""
    from pnp.core.ir import Circle, Group, Line, Page, Polygon, Rect, Text
    page = Page(50, 50, (Group((Rect(1, 1, 5, 5, r=1), Circle(10, 10, 3), Line(0, 0, 5, 5, dash=(1, 1)),
                                Polygon(((0, 0), (5, 0), (0, 5))), Text(5, 20, "Hi & <there>", underline=True)),
                               dx=1, clip=(0, 0, 40, 40)),), "p")
    dwg = svgwrite.Drawing(debug=False)
    renderer = svg.SvgRenderer(dwg)
    renderer.draw_all(page.items)

    def walk(el):
        for child in el.elements:
            yield child
            yield from walk(child)
    drawn = [el for el in walk(dwg) if el.elementname not in ("defs", "clipPath")]
    clip_rects = {id(r) for c in dwg.defs.elements for r in c.elements}  # a clip's rectangle: svgwrite's own
    assert drawn and all(isinstance(el, svg.FAST_ELEMENTS) for el in drawn if id(el) not in clip_rects), \
        [type(el).__name__ for el in drawn]
