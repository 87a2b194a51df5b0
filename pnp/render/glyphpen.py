"""SVG path data of a glyph outline drawn by HarfBuzz, scaled and flipped on the way.

:class:`GlyphPathPen` is a pen (the fontTools pen protocol HarfBuzz's ``draw_glyph_with_pen`` calls:
``moveTo``, ``lineTo``, ``qCurveTo``, ``curveTo``, ``closePath``) that maps each point ``(x, y)``
in font units to ``(k * x, -k * y)`` and writes the SVG path commands fontTools'
``SVGPathPen`` writes for the mapped outline behind a ``TransformPen((k, 0, 0, -k, 0, 0))``, with
the same number format (:func:`num`): the same string, character for character
(tests/render/test_glyphpen.py draws every glyph of the shipped faces both ways). It exists for
speed: one Python call per segment instead of four pen layers. A segment HarfBuzz never emits (a
quadratic run of more than one control point, an implied on-curve point, a cubic of other than three
points, an open path's ``endPath``) sets :attr:`GlyphPathPen.unsupported` (HarfBuzz ignores an
exception raised in a pen), and the caller draws the glyph through fontTools' pens instead.
"""
from __future__ import annotations


def num(v: float) -> str:
    """``v`` rounded to 0.001 as SVG text: no trailing zeros or point, "0" for any value that rounds
    to zero (never "-0"). The same text as ``f"{round(v, 3):.3f}"`` with its zeros stripped: both
    round the float's exact value half to even at the third decimal."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


class GlyphPathPen:
    """Collects the SVG path data (:meth:`commands`) of one outline, its points scaled by ``k`` and
    its y axis flipped (font units, y up -> ``k`` units, y down)."""

    __slots__ = ("k", "unsupported", "_out", "_last", "_x", "_y")

    def __init__(self, k: float) -> None:
        self.k = k
        self.unsupported = False        # a call this pen does not write was made: commands() is not the outline
        self._out: list[str] = []
        self._last: str | None = None   # the last command letter written ("M" stays after an implied line)
        self._x: float | None = None    # the current point, mapped
        self._y: float | None = None

    def moveTo(self, pt) -> None:
        if self._last == "M":  # a move right after a move (or its implied lines): the last one goes
            self._out.pop()
        k = self.k
        x, y = k * pt[0], -k * pt[1]
        self._out.append(f"M{num(x)} {num(y)}")
        self._last = "M"
        self._x, self._y = x, y

    def lineTo(self, pt) -> None:
        k = self.k
        x, y = k * pt[0], -k * pt[1]
        if x == self._x:
            if y == self._y:
                return  # a repeated point
            self._out.append(f"V{num(y)}")
            self._last = "V"
        elif y == self._y:
            self._out.append(f"H{num(x)}")
            self._last = "H"
        elif self._last == "M":
            self._out.append(f" {num(x)} {num(y)}")
        else:
            self._out.append(f"L{num(x)} {num(y)}")
            self._last = "L"
        self._x, self._y = x, y

    def qCurveTo(self, *points) -> None:
        if len(points) != 2 or points[1] is None:
            self.unsupported = True  # several control points, or none on the curve
            return
        k = self.k
        (cx, cy), (x, y) = points
        x, y = k * x, -k * y
        self._out.append(f"Q{num(k * cx)} {num(-k * cy)} {num(x)} {num(y)}")
        self._last = "Q"
        self._x, self._y = x, y

    def curveTo(self, *points) -> None:
        if len(points) != 3:
            self.unsupported = True
            return
        k = self.k
        (ax, ay), (bx, by), (x, y) = points
        x, y = k * x, -k * y
        self._out.append(f"C{num(k * ax)} {num(-k * ay)} {num(k * bx)} {num(-k * by)} {num(x)} {num(y)}")
        self._last = "C"
        self._x, self._y = x, y

    def closePath(self) -> None:
        self._out.append("Z")
        self._last = "Z"
        self._x = self._y = None

    def endPath(self) -> None:
        self.unsupported = True

    def commands(self) -> str:
        """The path data drawn so far."""
        return "".join(self._out)
