"""Filling a template from a data row: each layer bound once by its type (pnp.custom.layers,
textbind, imagebind), then ``Face.draw(row)`` makes one front or back in mm. Text that does not fit
its box at its smallest size is refused naming the data file, row and column and the template
layer, before anything is drawn on paper. ``Face.fingerprint(row)`` says what a face is drawn from
(the template's digest and the row's values it reads) without drawing it.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import text as typeset
from ..core.ir import Group
from ..inputs.images import read_image
from .imagebind import BoundImage
from .imagecheck import Absent
from .layers import BoundLayer, CircleLayer, Context, Filler, LineLayer, PolygonLayer, RectLayer

__all__ = ["BoundLayer", "Context", "Face", "Filler", "bind_layer"]
from .table import Row
from .template import Placed
from .textbind import BoundText


FINGERPRINT_SCHEME = 2
"""What a template-drawn part's fingerprint is made of (Face.fingerprint); 1 was the drawn shapes
walked (pnp.pipeline.parts._Canon, still used for parts no template draws). A change here changes
every template-drawn part's fingerprint."""

_canonical = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode
"""A value's canonical JSON text (keys sorted, no spaces)."""
_string = json.encoder.encode_basestring
"""A string's JSON text as _canonical writes it (ensure_ascii=False): a list of strings is
"[" + ",".join(map(_string, cells)) + "]", without the encoder made per call."""


def _icons(layer, values: dict, row: Row | None) -> list[str]:
    """The sha256 of each icon (``:name:``, pnp.custom.icons) a text layer with markup prints for ``values``."""
    if layer.unmarked:
        return []
    text = layer.text.fill(values)
    if not text.strip() or not typeset.has_markup(text, True):
        return []
    column = layer.text.columns[0] if layer.text.columns else None
    return [read_image(Path(span.icon.src), field="icons", root=Path(span.icon.root) if span.icon.root else None).sha256
            for para in layer.rich(text, row, column, layer.ctx.icons) for span in para if span.icon is not None]


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
        self.ctx = ctx
        self._digest: bytes | None = None
        self._pictured = [layer for layer in self.layers if layer.src is not None]  # image layers
        self._marked = [layer for layer in self.texts if layer.place.layer.markup and ctx.icons is not None]

    @property
    def digest(self) -> bytes:
        """The sha256 (32 bytes) of all that draws this face and no row changes: FINGERPRINT_SCHEME,
        the part size (mm), the kit's language, every layer's type and resolved settings in order
        (its ``name:`` and ``extends:`` left out: they name, they do not draw) and the sha256 of each
        declared font file its text layers set text in. Worked out once."""
        if self._digest is None:
            layers = []
            for layer in self.layers:
                settings = layer.place.layer.model_dump(mode="json", exclude={"name", "extends"})
                fonts = [None if f is None else f.sha256 for f in
                         (getattr(layer, n, None) for n in ("font", "italic", "bold", "bold_italic"))] \
                    if layer.text is not None else []
                layers.append([settings, fonts])
            form = [FINGERPRINT_SCHEME, round(self.ctx.width, 4), round(self.ctx.height, 4), self.ctx.language, layers]
            self._digest = hashlib.sha256(_canonical(form).encode("utf-8")).digest()
        return self._digest

    def fingerprint(self, row: Row | None) -> bytes:
        """The sha256 (32 bytes) of what draws the face for ``row``, without drawing it: ``digest``,
        the cells of the columns the template reads (``reads``, in that order), and the sha256 of
        every picture its image layers show for the row (a placeholder's label for one not there) and
        of every icon its text marks print. Two rows with the same cells in those columns get the
        same fingerprint; a cell of a column the template does not read changes nothing.

        Raises:
            SpecError, DataError: a picture or icon the row names cannot be read (as drawing it would);
                build_components draws every face first, so a build meets none here.
        """
        if not self.varying:
            row = None
        values = row.values if row is not None else {}
        read = [values.get(c, "") for c in self.reads]
        pictures = []
        for layer in self._pictured:
            if layer.show is None or layer.show(values):
                facts = layer.picture(values, row)
                pictures.append(None if facts is None else facts.label if isinstance(facts, Absent) else facts.sha256)
        for layer in self._marked:
            if layer.show is None or layer.show(values):
                pictures.append(_icons(layer, values, row))
        cells = "[" + ",".join(map(_string, read)) + "]"
        if not pictures:
            text = cells
        elif not self._pictured and not any(pictures):  # text layers' icon lists, all empty: as _canonical writes it
            text = "[" + cells + ",[" + ",".join(["[]"] * len(pictures)) + "]]"
        else:
            text = _canonical([read, pictures])
        return hashlib.sha256(self.digest + text.encode("utf-8", "surrogatepass")).digest()

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
