"""One renderer base for every backend: a method per IR shape, and shared text placement.

Modelled on reportlab's ``graphics.renderbase.Renderer``: ``draw(shape)`` dispatches on the shape's
type to ``rect``, ``circle``, ``polygon``, ``line``, ``text``, ``group`` or ``image``; a backend
(pdf.py, svg.py) implements those seven methods and nothing else decides how a shape is drawn. Text placement (font
size in mm, advance width, anchor shift, baseline shift, glyph check, bold face, underline) is
computed here once, so the PDF and the SVG of a page put every glyph in the same place.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ..core.errors import LayoutError
from ..core.fontbook import current, kept
from ..core.fonts import cap_height, face, missing_glyphs, styled_face, text_width_mm
from ..core.ir import Circle, Group, Image, Line, Polygon, Rect, Text
from ..text import UNDERLINE_DROP, UNDERLINE_WIDTH  # a Text's underline, as rich text's
from ..inputs.images import ImageFacts, read_image
from ..inputs.safefile import LinkFree
from ..core.units import MM_PER_PT



class TextPlacement(NamedTuple):
    """Where a Text's glyphs go, in mm, relative to its anchor point (x, y) before rotation.

    ``size`` is the font size in mm; ``width`` the advance width of the whole text; the glyphs start
    at (dx, dy) with dy the baseline (y down); ``font`` is the face the glyphs are set in (the bold
    face of ``Text.font`` for bold text, pnp.core.fonts.styled_face); ``underline`` is
    (x1, x2, y, thickness) or None.
    """
    size: float
    width: float
    dx: float
    dy: float
    font: str
    underline: tuple[float, float, float, float] | None


def place_text(t: Text) -> TextPlacement:
    """Place ``t`` with the metrics of the face it is drawn in (``t.font``, or its bold face when
    ``t.bold``).

    A Text that carries its ``width`` (measured, and its glyphs checked, by the typesetter that made
    it: pnp.core.ir.Text) is placed from it with no second measure or check.

    Otherwise memoised per (text, size, anchor, valign, bold, underline, font) in a table that is emptied when it
    reaches 8,192 entries: furniture texts (footers, labels) repeat and are found there; the words of
    a large deck each come once, cost less to place than an LRU cache's bookkeeping, and must not
    make memory grow. The table is the font book's (pnp.core.fontbook: one per build), as the faces
    it measures with are.

    Raises:
        LayoutError: the text has a character its face cannot draw, or names no registered face
            (both backends refuse it alike, before anything is written).
    """
    if t.width is not None:
        return _place(t.text, t.size_pt, t.anchor, t.valign, t.bold, t.underline, t.font, t.width)
    placed = current().placed
    key = (t.text, t.size_pt, t.anchor, t.valign, t.bold, t.underline, t.font)
    got = placed.get(key)
    if got is None:
        got = kept(placed, key, _place(*key))
    return got


_SHIFT = {"start": 0.0, "middle": -0.5, "end": -1.0}


def _place(text: str, size_pt: float, anchor: str, valign: str, bold: bool, underline: bool,
           font: str, width: float | None = None) -> TextPlacement:
    """The placement of a text in the face ``font`` (its bold face with ``bold``); ``width``: its
    advance width (mm) as its maker measured it, glyphs checked (None: checked and measured here)."""
    try:
        font = styled_face(font, bold)
        missing = missing_glyphs(text, font) if width is None else ()
        cap = cap_height(font) if valign == "middle" else 0.0
    except KeyError as exc:
        raise LayoutError(f"the text {text!r} is set in {exc.args[0]}", field="font",
                          hint="register the font before drawing with it") from None
    if missing:
        raise LayoutError(f"the text {text!r} uses {missing[0]!r} (U+{ord(missing[0]):04X}), which the "
                          f"embedded font {face(font).label} cannot draw.", field="text",
                          hint="use Latin, Greek or Cyrillic letters")
    size = size_pt * MM_PER_PT
    if width is None:
        width = text_width_mm(text, size_pt, font)
    dx = _SHIFT[anchor] * width
    dy = cap * size / 2
    rule = (dx, dx + width, dy + size * UNDERLINE_DROP, size * UNDERLINE_WIDTH) if underline else None
    return TextPlacement(size, width, dx, dy, font, rule)


class Renderer:
    """Base of every backend: ``draw(shape)`` calls the method for the shape's type.

    Subclasses implement ``rect``, ``circle``, ``polygon``, ``line``, ``text`` and ``group``; a group
    method draws its children with ``self.draw``.
    """

    _METHODS = {Rect: "rect", Circle: "circle", Polygon: "polygon", Line: "line", Text: "text", Group: "group",
                Image: "image"}

    def draw(self, shape) -> None:
        """Draw one IR shape.

        Raises:
            TypeError: ``shape`` is not an IR shape.
        """
        name = self._METHODS.get(type(shape))
        if name is None:
            raise TypeError(f"unknown shape {type(shape).__name__}")
        getattr(self, name)(shape)

    def draw_all(self, shapes) -> None:
        """Draw shapes in order (later ones on top)."""
        table = self.__dict__.get("_bound")
        if table is None:  # shape type -> bound method, made once per renderer
            table = self._bound = {cls: getattr(self, name) for cls, name in self._METHODS.items()}
        for shape in shapes:
            method = table.get(type(shape))
            if method is None:
                self.draw(shape)  # raises TypeError for a non-shape
            else:
                method(shape)

    def rect(self, s: Rect) -> None:
        raise NotImplementedError

    def circle(self, s: Circle) -> None:
        raise NotImplementedError

    def polygon(self, s: Polygon) -> None:
        raise NotImplementedError

    def line(self, s: Line) -> None:
        raise NotImplementedError

    def text(self, s: Text) -> None:
        raise NotImplementedError

    def group(self, s: Group) -> None:
        raise NotImplementedError

    def image(self, s: Image) -> None:
        raise NotImplementedError


FITS = ("contain", "cover", "stretch")


@lru_cache(maxsize=1024)  # process-wide: strings to paths, the same answer whatever the build
def _image_paths(src: str, root: str | None) -> tuple[Path, Path | None]:
    """An Image's ``src`` and ``root`` as paths, made once per name (a sheet places the same picture
    many times): a game folder's file as a LinkFree path (checked link-free by inside())."""
    return (LinkFree(src) if root else Path(src)), (Path(root) if root else None)


def place_image(s: Image) -> tuple[ImageFacts, tuple[float, float, float, float]]:
    """The checked image of ``s`` and where its whole picture goes, (x, y, w, h) in mm, for both
    backends: "contain" scales it to fit inside the box and centres it, "cover" scales it to fill
    the box and centres it (the box clips the overflow), "stretch" is the box.

    Raises:
        SpecError: the image file is bad (pnp.inputs.images.read_image).
        ValueError: an unknown ``fit``.
    """
    src, root = _image_paths(s.src, s.root)
    facts = read_image(src, root=root)
    if s.fit == "stretch":
        return facts, (s.x, s.y, s.w, s.h)
    if s.fit not in FITS:
        raise ValueError(f"fit must be one of {', '.join(FITS)}, not {s.fit!r}")
    iw, ih = facts.size
    scale = (min if s.fit == "contain" else max)(s.w / iw, s.h / ih)
    w, h = iw * scale, ih * scale
    return facts, (s.x + (s.w - w) / 2, s.y + (s.h - h) / 2, w, h)
