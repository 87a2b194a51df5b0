"""Filling a template from a data row: each layer bound once by its type (pnp.custom.layers,
textbind, imagebind), then ``Face.draw(row)`` makes one front or back in mm. Text that does not fit
its box at its smallest size is refused naming the data file, row and column and the template
layer, before anything is drawn on paper.
"""
from __future__ import annotations

from ..core.ir import Group
from .imagebind import BoundImage
from .layers import BoundLayer, CircleLayer, Context, Filler, LineLayer, PolygonLayer, RectLayer

__all__ = ["BoundLayer", "Context", "Face", "Filler", "bind_layer"]
from .table import Row
from .template import Placed
from .textbind import BoundText


def _layer_types() -> dict[str, type[BoundLayer]]:
    """Layer type -> its class (``rounded`` is a rect with a radius)."""
    return {"rect": RectLayer, "rounded": RectLayer, "circle": CircleLayer, "polygon": PolygonLayer,
            "line": LineLayer, "text": BoundText, "image": BoundImage}


def bind_layer(place: Placed, ctx: Context) -> BoundLayer:
    """The layer ``place`` bound to the table of ``ctx``, as the class of its type (text: pnp.custom.textbind,
    image: pnp.custom.imagebind).

    Raises:
        SpecError: see each class.
    """
    return _layer_types()[place.layer.type](place, ctx)


class Face:
    """A template bound to a data table; ``draw(row)`` is one face (a Drawing, mm) for that row.

    Template furniture: each run of consecutive layers that reads no column (no
    ``{column}`` placeholder, no ``when:``) is the same on every part, so it is drawn once, with the
    first row that shows it, and given as a ``Group`` keyed ``key`` + the run's layer numbers, which
    the PDF backend draws once per document as a Form XObject and the SVG backend once per page
    (pnp.core.ir.Group). Runs keep the layers' order, so furniture under and over the row's own
    layers stays under and over them. ``key`` must name the template and the part size (the layers'
    millimetres depend on both); None draws every layer in place.
    """

    def __init__(self, layers: list[Placed], ctx: Context, key: str | None = None):
        self.layers = [bind_layer(p, ctx) for p in layers]
        self.texts = [layer for layer in self.layers if layer.text is not None]  # what fit_work counts
        self.varying = any(layer.varying for layer in self.layers)
        # (first layer number, layers) of each run of layers that all vary or all stay the same
        self.runs: list[tuple[int, list[BoundLayer]]] = []
        for i, layer in enumerate(self.layers):
            if self.runs and self.runs[-1][1][0].varying == layer.varying:
                self.runs[-1][1].append(layer)
            else:
                self.runs.append((i, [layer]))
        self.key = key
        self.furniture: dict[int, tuple] = {}  # first layer number of a constant run -> its drawing
        self.reads = sorted({c for layer in self.layers for c in layer.reads})
        self._last: tuple[tuple, tuple] | None = None  # (the values read, the drawing) of the last draw()

    def fit_work(self, row: Row | None) -> float:
        """About how many characters draw(row) lays out in its text layers (BoundLayer.fit_work):
        what text fitting costs, counted before any is drawn."""
        values = row.values if row is not None and self.varying else {}
        return sum([layer.fit_work(values) for layer in self.texts if layer.varying or row is None])

    def draw(self, row: Row | None) -> tuple:
        """The face for ``row`` (a tuple of shapes, mm). A row whose columns this template reads hold
        the same values as the last row drawn gets the very same drawing (one object: a common back
        is drawn once and told apart from another by identity)."""
        if not self.varying:  # reads no column (a common back): drawn as the template, without a row
            row = None
        values = row.values if row is not None else {}
        read = tuple(values.get(c, "") for c in self.reads)
        if self._last is not None and self._last[0] == read:
            return self._last[1]
        drawing = self._draw(values, row)
        self._last = (read, drawing)
        return drawing

    def _draw(self, values: dict, row: Row | None) -> tuple:
        out: list = []
        for first, run in self.runs:
            if run[0].varying:
                for layer in run:
                    if layer.show is None or layer.show(values):
                        layer.draw(values, row, out)
                continue
            drawn = self.furniture.get(first)
            if drawn is None:  # drawn with the first row, so a template error names it as before
                shapes: list = []
                for layer in run:
                    layer.draw(values, row, shapes)
                drawn = self.furniture[first] = (
                    () if not shapes else tuple(shapes) if self.key is None
                    else (Group(tuple(shapes), key=f"{self.key}\x1flayers {first + 1}-{first + len(run)}"),))
            out.extend(drawn)
        return tuple(out)
