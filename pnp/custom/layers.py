"""Template layers bound to a data table: placeholders compiled once (``Filler``), ``when:``, colours,
boxes, and the shape layers (rect, circle, polygon, line); text and image layers are
pnp.custom.textbind and pnp.custom.imagebind. A template is checked against the columns of its data
once, when it is bound (a placeholder naming no column is refused naming the template file, line
and the columns there are); drawing a row is then cheap. Lengths in mm.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

from ..core.colour import colour_of
from ..core.errors import SpecError
from ..core.ir import Circle, Line, Polygon, Rect
from .icons import IconFolder
from .table import Row, Table, key
from .template import Placed, WhenSpec, parse_placeholders

MAX_TEXT_CHARS = 5000  # characters one text layer sets: a tarot card full of 4 pt text holds about 3,000
DEFAULT_MIN_PT = 6.0  # the smallest size of ``fit: shrink`` when the layer gives no min_size
EPS = 1e-6  # mm
_ANCHOR = {"left": lambda w: ("start", -w / 2), "start": lambda w: ("start", -w / 2), "center": lambda w: ("middle", 0.0),
           "right": lambda w: ("end", w / 2), "end": lambda w: ("end", w / 2)}
"""A plain text's anchor and its x from the box's centre (mm), by align, for a box ``w`` mm wide:
plain text runs left to right (right-to-left text is set as rich text, pnp.text)."""
QUARTER_TURNS = {90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}  # (cos, sin) of a clockwise turn, y down
class Filler:
    """A string with ``{column}`` placeholders, compiled once: ``columns`` it reads, ``fill(values)``.

    ``file`` and ``line`` say where the string was written, ``field`` its key; ``columns`` are the
    data's column keys (None: the component has no data), ``data`` the data file (for messages).

    Raises:
        SpecError: an unmatched brace, an empty placeholder, or a placeholder naming no column.
    """

    def __init__(self, text: str, file: Path, line: int | None, field: str, columns: set[str] | None,
                 data: Path | None):
        try:
            parts = parse_placeholders(text)
        except ValueError as exc:
            raise SpecError(f"{field} {text!r} has {exc}.", file=file, line=line,
                            field=field, hint="write {column} to fill in a column, {{ and }} for braces") from None
        self.parts = [p if isinstance(p, str) else key(p[0]) for p in parts]
        self.slots = [i for i, p in enumerate(parts) if not isinstance(p, str)]
        self.columns = [self.parts[i] for i in self.slots]
        for name, col in zip((parts[i][0] for i in self.slots), self.columns):
            if columns is None:
                raise SpecError(f"{field} uses the placeholder {{{name}}}, but this component has no data.",
                                file=file, line=line, field=field,
                                hint="add data: to the component in the spec, or remove the placeholder")
            if col not in columns:
                raise SpecError(f"{field} uses the placeholder {{{name}}}, but {data.name if data else 'the data'} "
                                f"has no column {name!r} (its columns: {', '.join(sorted(columns))}).",
                                file=file, line=line, field=field,
                                hint="use one of the data's column names, or add the column to the data")
        self.constant = "".join(self.parts) if not self.slots else None
        self.sole = self.parts[0] if len(self.parts) == 1 and self.slots else None  # "{column}" alone: its cell
        self.fixed = sum(len(p) for i, p in enumerate(self.parts) if i not in self.slots)  # characters not filled in

    def fill(self, values: dict[str, str]) -> str:
        if self.sole is not None:
            return values.get(self.sole, "")
        if self.constant is not None:
            return self.constant
        out = list(self.parts)
        for i in self.slots:
            out[i] = values.get(out[i], "")
        return "".join(out)

    def length(self, values: dict[str, str]) -> int:
        """``len(fill(values))`` without making the string (the cells are strings)."""
        n = self.fixed
        for c in self.columns:
            n += len(values.get(c, ""))
        return n


@dataclass(eq=False)
class Context:
    """What binding needs: the part size (mm), the data's column keys (None: no data) and the table;
    for image layers the spec's folder (``src`` is relative to it) and ``record``, called with each
    picture file's path (for `pnp watch`); the icons folder (None: no icons) and the fonts the spec
    declares (pnp.inputs.fontfile.FontFile by name); ``language``: the kit's language, whose
    ``name@language`` columns text placeholders print (pnp.custom.languages), None for the cells as they are."""
    width: float
    height: float
    columns: set[str] | None
    table: Table | None
    spec_dir: Path | None = None
    record: Callable[[Path], None] | None = None
    icons: IconFolder | None = None
    fonts: dict = field(default_factory=dict)
    language: str | None = None
    faces: set = field(default_factory=set)
    """The faces text was set in (names, pnp.core.fonts), filled as faces are drawn: the build note's."""
    unbolded: set = field(default_factory=set)
    """The faces bold text was set regular in, having no bold (typeset.unbolded): the build note's."""


def _when(spec, place: Placed, ctx: Context) -> Callable[[dict], bool] | None:
    if spec is None:
        return None
    when = WhenSpec(column=spec) if isinstance(spec, str) else spec
    col = key(when.column)
    if ctx.columns is None or col not in ctx.columns:
        raise SpecError(f"when: names column {when.column!r}, which the data does not have"
                        f"{'' if ctx.columns is None else ' (its columns: ' + ', '.join(sorted(ctx.columns)) + ')'}.",
                        file=place.file, line=place.line_of("when"), field="when",
                        hint="name a column of the data")
    eq = None if when.equals is None else ({when.equals} if isinstance(when.equals, str) else set(when.equals))
    ne = set() if when.not_ is None else ({when.not_} if isinstance(when.not_, str) else set(when.not_))
    if eq is None and not ne:
        return lambda v: bool(v.get(col))
    return lambda v: (eq is None or v.get(col, "") in eq) and v.get(col, "") not in ne


class BoundLayer:
    """One layer bound to a data table: ``draw(values, row, out)`` appends its shapes (mm) for a row
    (``values``: its cells by column key). What does not depend on the row is worked out once, here,
    when the template is bound: the ``when:`` test (``show``), the colours, the box (``box``: x, y,
    w, h mm, or None), the columns it reads (``reads``) and whether it varies at all (``varying``).
    ``text`` and ``src`` are the Fillers of a text and an image layer (None on other layers).
    A layer type is a subclass (bind_layer picks it by the layer's ``type``).

    Raises:
        SpecError: a placeholder naming no column, a bad colour, a box of no size (the template file,
            line and field).
    """
    text: Filler | None = None
    src: Filler | None = None

    def __init__(self, place: Placed, ctx: Context):
        self.place, self.ctx = place, ctx
        layer = place.layer
        self.show = _when(layer.when, place, ctx)
        # the column keys this layer reads (placeholders and when:): what Face.draw's memo compares
        self.reads: set[str] = set()
        if layer.when is not None:
            self.reads.add(key(layer.when if isinstance(layer.when, str) else layer.when.column))
        self.colours = {f: self._colour_filler(getattr(layer, f), f)
                        for f in ("fill", "stroke", "colour") if isinstance(getattr(layer, f, None), str)}
        self.data = ctx.table.path if ctx.table else None
        w, h = ctx.width, ctx.height
        self.box = None
        if hasattr(layer, "w"):
            self.box = (layer.x.mm(w), layer.y.mm(h), layer.w.mm(w), layer.h.mm(h))
            if self.box[2] <= 0 or self.box[3] <= 0:
                raise SpecError(f"{place.label}: its box is {self.box[2]:g} x {self.box[3]:g} mm.", file=place.file,
                                line=place.line, field="w", hint="give the layer a positive width and height")

    @cached_property
    def varying(self) -> bool:
        """The layer draws something that depends on the row (a when:, a placeholder, a colour from a
        cell); worked out once, when first asked (the subclass has set its Fillers by then)."""
        return (self.show is not None or any(f is not None and f.constant is None for f in (self.text, self.src))
                or any(getattr(c, "varying", False) for c in self.colours.values()))

    def fit_work(self, values: dict) -> float:
        """About how many characters this layer lays out for a row with ``values`` (0 but for text)."""
        return 0

    def draw(self, values: dict, row: Row | None, out: list) -> None:
        """Append the layer's shapes for the row to ``out``."""
        raise NotImplementedError

    def _colour_filler(self, value: str, field: str):
        filler = Filler(value, self.place.file, self.place.line_of(field), field, self.ctx.columns,
                        self.ctx.table and self.ctx.table.path)
        self.reads.update(filler.columns)
        if filler.constant is not None:
            try:
                const = colour_of(filler.constant)
            except ValueError as exc:
                raise SpecError(f"{field}: {exc}.", file=self.place.file, line=self.place.line_of(field),
                                field=field) from None
            return lambda values, row: const

        def resolve(values: dict, row: Row | None) -> str | None:
            text = filler.fill(values)
            try:
                return colour_of(text)
            except ValueError as exc:
                raise self._data_error(row, filler.columns[0], str(exc) + ".", "fix the cell", field) from None
        resolve.varying = True
        return resolve

    def _data_error(self, row: Row | None, column: str | None, message: str, hint: str, field: str):
        where = f"{self.place.label}, field {field}"
        if row is None or self.ctx.table is None:
            return SpecError(f"{where}: {message}", file=self.place.file, line=self.place.line_of(field),
                             field=field, hint=hint)
        return self.ctx.table.error(row.number, column, f"{message.rstrip('.')} (template {where}).", hint, field=field)

    def paint(self, values: dict, row: Row | None) -> tuple[str | None, str | None]:
        c = self.colours
        return (c["fill"](values, row) if "fill" in c else None, c["stroke"](values, row) if "stroke" in c else None)


class RectLayer(BoundLayer):
    """``type: rect`` (and ``rounded``): a rectangle in its box, corners rounded by ``radius``."""

    def draw(self, values, row, out) -> None:
        fill, stroke = self.paint(values, row)
        x, y, w, h = self.box
        out.append(Rect(x, y, w, h, fill=fill, stroke=stroke, stroke_width=self.place.layer.stroke_width,
                        bleed=self.place.layer.bleed, r=min(self.place.layer.radius, w / 2, h / 2)))


class CircleLayer(BoundLayer):
    """``type: circle``: centre ``cx``, ``cy`` and radius ``r``."""

    def draw(self, values, row, out) -> None:
        fill, stroke = self.paint(values, row)
        L, w, h = self.place.layer, self.ctx.width, self.ctx.height
        out.append(Circle(L.cx.mm(w), L.cy.mm(h), L.r.mm(w), fill=fill, stroke=stroke, stroke_width=L.stroke_width,
                          bleed=L.bleed))


class PolygonLayer(BoundLayer):
    """``type: polygon``: its ``points``."""

    def draw(self, values, row, out) -> None:
        fill, stroke = self.paint(values, row)
        L, w, h = self.place.layer, self.ctx.width, self.ctx.height
        out.append(Polygon(tuple((px.mm(w), py.mm(h)) for px, py in L.points), fill=fill, stroke=stroke,
                           stroke_width=L.stroke_width))


class LineLayer(BoundLayer):
    """``type: line``: from (x1, y1) to (x2, y2), dashed or not."""

    def draw(self, values, row, out) -> None:
        L, w, h = self.place.layer, self.ctx.width, self.ctx.height
        stroke = self.colours["stroke"](values, row) or "#000000"
        out.append(Line(L.x1.mm(w), L.y1.mm(h), L.x2.mm(w), L.y2.mm(h), stroke=stroke, stroke_width=L.stroke_width,
                        dash=L.dash))
