"""Filling a template from a data row: placeholders, ``when:``, colours, text fitting, IR shapes in mm.

bind() checks a template against the columns of its data once (a placeholder naming no column is
refused naming the template file, line and the columns there are); Face.draw(row) then makes one
front or back. Text that does not fit its box at its smallest size is refused naming the data file,
row and column and the template layer, before anything is drawn on paper.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Callable

from ..core.errors import SpecError
from .. import text as typeset
from ..core.colour import colour_of
from ..core.fonts import (DEFAULT_FACE, ITALIC_FACE, cap_height, face as font_face, fallback_for, missing_glyphs,
                          styled_face)
from ..core.shaping import needs_shaping
from ..core.ir import Circle, Group, Image, Line, Polygon, Rect, Text
from ..inputs.images import ImageFacts
from .icons import IconFolder
from .imagecheck import Absent, load_picture
from .languages import column, source, translated
from .placeholder import placeholder
from .table import Row, Table, key
from .template import ImageLayer, Placed, TextLayer, WhenSpec, parse_placeholders
from ..text import fit_plain, fit_plain_box
from ..core.units import MM_PER_PT

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
        self.fixed = sum(len(p) for i, p in enumerate(self.parts) if i not in self.slots)  # characters not filled in

    def fill(self, values: dict[str, str]) -> str:
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
    """One layer bound to a data table: ``draw(row, out)`` appends its shapes (mm) for ``row``."""

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
        data = ctx.table.path if ctx.table else None
        self.text = (Filler(layer.text, place.file, place.line_of("text"), "text", ctx.columns, data)
                     if isinstance(layer, TextLayer) else None)
        self.src = (Filler(layer.src, place.file, place.line_of("src"), "src", ctx.columns, data)
                    if isinstance(layer, ImageLayer) else None)
        self._pictures: dict[str, ImageFacts] = {}
        self.reads.update(*(f.columns for f in (self.text, self.src) if f is not None))
        if self.text is not None and ctx.language:  # its translations are read too
            self.reads.update(column(c, ctx.language) for c in self.text.columns)
        self.font = self._font(layer.font) if self.text is not None and layer.font is not None else None
        self.face = self.font.face if self.font is not None else DEFAULT_FACE
        italic = layer.italic_font if self.text is not None else None
        self.italic = self._font(italic, "italic_font") if italic is not None else None
        self.bold = self.bold_italic = None
        self.cap = 0.0  # em: the cap height of the face the layer's text starts in
        if self.text is not None:
            self.bold, self.bold_italic = (self._font(name, field) if name is not None else None for name, field in
                                           ((layer.bold_font, "bold_font"), (layer.bold_italic_font, "bold_italic_font")))
            self.cap = cap_height(self.bold.face if layer.bold and self.bold is not None
                                  else styled_face(self.face, layer.bold))
            self.styled = styled_face(self.face, layer.bold)  # the face plain text is set in
            self.least = self.smallest
        self.varying = (self.show is not None or (self.text is not None and self.text.constant is None)
                        or (self.src is not None and self.src.constant is None)
                        or any(getattr(c, "varying", False) for c in self.colours.values()))
        self.draw = getattr(self, "_" + ("rect" if layer.type == "rounded" else layer.type))
        w, h = ctx.width, ctx.height
        self.box = None
        if hasattr(layer, "w"):
            self.box = (layer.x.mm(w), layer.y.mm(h), layer.w.mm(w), layer.h.mm(h))
            if self.box[2] <= 0 or self.box[3] <= 0:
                raise SpecError(f"{place.label}: its box is {self.box[2]:g} x {self.box[3]:g} mm.", file=place.file,
                                line=place.line, field="w", hint="give the layer a positive width and height")
            bx, by, bw, bh = self.box
            # a text's anchor, its x from the box's centre, and the box's centre (mm): fixed by the template
            self.centre = (*_ANCHOR[layer.align](bh if layer.rotate in (90, 270) else bw), bx + bw / 2, by + bh / 2) \
                if self.text is not None else None
            if self.text is not None and not (-EPS <= bx and -EPS <= by and bx + bw <= w + EPS and by + bh <= h + EPS):
                raise SpecError(f"{place.label}: its text box ({bx:g}, {by:g}) {bw:g} x {bh:g} mm reaches past the "
                                f"{w:g} x {h:g} mm part, where the cut would take letters off.", file=place.file,
                                line=place.line, field="x", hint="keep text boxes on the part, ideally 3 mm inside")
            if self.text is not None and layer.fit == "box" and layer.wrap:
                raise SpecError(f"{place.label}: fit: box sets each line of the text as large as the box allows "
                                "and never breaks lines; wrap: true breaks them.", file=place.file,
                                line=place.line_of("wrap"), field="wrap",
                                hint="remove wrap: true (break lines with \\n), or use fit: shrink with wrap: true")
            if self.src is not None and layer.bleed and layer.rotate:
                raise SpecError(f"{place.label}: bleed: true grows an unturned picture past the trim; this one is "
                                f"turned {layer.rotate} degrees.", file=place.file, line=place.line_of("bleed"),
                                field="bleed", hint="save the picture turned and drop rotate:, or drop bleed:")

    @property
    def smallest(self) -> float:
        """The smallest size (pt) the text layer sets its text at: its min_size with ``fit: shrink``
        or ``fit: box``."""
        L = self.place.layer
        return min(L.size, (L.min_size or DEFAULT_MIN_PT) if L.fit != "none" else L.size)

    def fit_work(self, values: dict) -> float:
        """About how many characters this layer lays out for a row with ``values`` (a text layer: the
        text's length times the sizes tried, typeset.scan_layouts; 0 for other layers)."""
        if self.text is None or (self.show is not None and not self.show(values)):
            return 0
        return self.text.length(translated(values, self.ctx.language)) * self.tries

    @cached_property
    def tries(self) -> int:
        """How many sizes a text layer's fitting lays its text out at, at most (typeset.scan_layouts)."""
        L = self.place.layer
        return 1 if L.fit == "box" else 1 + typeset.scan_layouts(L.size, self.smallest)

    def _font(self, name: str, field: str = "font"):
        """The declared font ``name`` (a FontFile), named by the layer's ``field``.

        Raises:
            SpecError: the spec declares no font of that name (the template file, line and field;
                the declared names listed)."""
        got = self.ctx.fonts.get(name)
        if got is None:
            declared = ", ".join(sorted(self.ctx.fonts))
            raise SpecError(f"{self.place.label}: font {name!r} is not declared in the spec"
                            + (f" (its fonts: {declared})." if declared else " (it declares no fonts:)."),
                            file=self.place.file, line=self.place.line_of(field), field=field,
                            hint="use one of the spec's font names, or declare it: fonts: {" + name + ": FILE.ttf}"
                            if declared else "declare it in the spec: fonts: {" + name + f": FILE.ttf}}, or remove {field}:")
        return got

    def _label(self, face: str) -> str:
        """How a message names the face ``face``: "the font Title (title.ttf)" for a declared font."""
        for font in (self.font, self.italic, self.bold, self.bold_italic):
            if font is not None and font.face == face:
                return f"the font {font.name} ({font.source.name})"
        return f"the embedded font {font_face(face).label}"

    def _in_layer_fonts(self, paras: tuple, row, column) -> tuple:
        """``paras`` with each span set in the layer's declared faces (``font``, ``italic_font``,
        ``bold_font``, ``bold_italic_font``); with none declared, in Noto Sans and its styles.

        Raises:
            DataError, SpecError: a bold or italic run in a layer with ``font:`` and no declared face
                for that style (pnp never slants or emboldens a font, nor mixes in Noto Sans)."""
        if self.font is None and self.italic is None and self.bold is None and self.bold_italic is None:
            return paras
        out = []
        for para in paras:
            spans = []
            for span in para:
                declared, field, style = ((self.bold_italic, "bold_italic_font", "bold italic") if span.bold and span.italic
                                          else (self.bold, "bold_font", "bold") if span.bold
                                          else (self.italic, "italic_font", "italic") if span.italic
                                          else (self.font, "font", ""))
                if declared is not None:
                    face = declared.face
                elif not style:
                    face = self.face
                elif self.font is None:  # Noto Sans: its own styles (Span.drawn)
                    face = ITALIC_FACE if span.italic else ""
                else:
                    mark = "**" if span.bold else "*"
                    raise self._data_error(row, column, f"character {span.offset + 1} of the text starts {style} "
                                           f"text ({mark}...{mark} or the layer's bold: true), and the layer's font "
                                           f"{self.font.name} has no {style} face.",
                                           f"declare the font's {style} file in the spec's fonts: and name it in the "
                                           f"layer's {field}:, or write \\* for an asterisk", "text")
                spans.append(replace(span, face=face, bold=span.bold and declared is None))
            out.append(tuple(spans))
        return tuple(out)

    def missing_glyphs(self, text: str, fallbacks: bool = True) -> tuple[list[str], str]:
        """The characters of ``text`` this layer's font lacks (with ``fallbacks``, and no script's
        fallback face draws: pnp.core.fonts.FALLBACKS), and the font's name for messages."""
        lacking = self.font.missing(text) if self.font is not None else missing_glyphs(text)
        if fallbacks and lacking:
            lacking = [ch for ch in lacking if fallback_for(ch) is None]
        return lacking, self._label(self.face)

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

    def _rect(self, values, row, out) -> None:
        fill, stroke = self.paint(values, row)
        x, y, w, h = self.box
        out.append(Rect(x, y, w, h, fill=fill, stroke=stroke, stroke_width=self.place.layer.stroke_width,
                        bleed=self.place.layer.bleed, r=min(self.place.layer.radius, w / 2, h / 2)))

    def _circle(self, values, row, out) -> None:
        fill, stroke = self.paint(values, row)
        L, w, h = self.place.layer, self.ctx.width, self.ctx.height
        out.append(Circle(L.cx.mm(w), L.cy.mm(h), L.r.mm(w), fill=fill, stroke=stroke, stroke_width=L.stroke_width,
                          bleed=L.bleed))

    def _polygon(self, values, row, out) -> None:
        fill, stroke = self.paint(values, row)
        L, w, h = self.place.layer, self.ctx.width, self.ctx.height
        out.append(Polygon(tuple((px.mm(w), py.mm(h)) for px, py in L.points), fill=fill, stroke=stroke,
                           stroke_width=L.stroke_width))

    def _line(self, values, row, out) -> None:
        L, w, h = self.place.layer, self.ctx.width, self.ctx.height
        stroke = self.colours["stroke"](values, row) or "#000000"
        out.append(Line(L.x1.mm(w), L.y1.mm(h), L.x2.mm(w), L.y2.mm(h), stroke=stroke, stroke_width=L.stroke_width,
                        dash=L.dash))

    def _source(self, values: dict, columns) -> str | None:
        """The column key whose cell the first of ``columns`` prints in this kit's language (``name@de``, else
        ``name``): what an error about the text names."""
        return source(values, columns[0], self.ctx.language) if columns else None

    def _text(self, values, row, out) -> None:
        L = self.place.layer
        text = self.text.fill(translated(values, self.ctx.language) if self.ctx.language else values)
        if not text.strip():
            return
        column = self._source(values, self.text.columns)
        if len(text) > MAX_TEXT_CHARS:
            raise self._data_error(row, column, f"the text has {len(text):,} characters (limit {MAX_TEXT_CHARS:,}).",
                                   "shorten the cell: no card holds more", "text")
        icons = self.ctx.icons
        # ASCII is never shaped and no script's fallback face draws it (pnp.core.fonts.fallback_for)
        lacking = self.font.missing(text) if self.font is not None else missing_glyphs(text)
        shaped = not text.isascii() and (needs_shaping(text) or any(fallback_for(ch) for ch in lacking))
        rich = (L.markup and typeset.has_markup(text, icons is not None)) or shaped
        paras = self.rich(text, row, column, icons if L.markup else None, L.markup) if rich else None
        missing = lacking if paras is None else ()
        if missing:
            column = self._source(values, [c for c in self.text.columns
                                           if missing[0] in translated(values, self.ctx.language).get(c, "")]
                                  or self.text.columns)
            raise self._data_error(row, column, f"{missing[0]!r} (U+{ord(missing[0]):04X}) is not in "
                                   f"{self._label(self.face)}.",
                                   "use Latin, Greek or Cyrillic letters" if self.font is None else
                                   "use characters the font has, or choose another font for the layer", "text")
        x, y, w, h = self.box
        bw, bh = (h, w) if L.rotate in (90, 270) else (w, h)
        smallest = self.least
        try:
            if paras is None and L.fit == "box":
                got = fit_plain_box(text, L.size, smallest, bw, bh, L.line_spacing, self.styled, caps=L.valign == "cap-middle")
            elif paras is None:
                got = fit_plain(text, L.size, smallest, bw, bh, L.wrap, L.line_spacing, self.styled)
            elif L.fit == "box":  # runs measured as drawn (HarfBuzz's advances for shaped ones)
                got = typeset.fit_box(paras, L.size, smallest, bw, bh, L.line_spacing,
                                       self.cap if L.valign == "cap-middle" else None)
            else:
                got = typeset.fit(paras, L.size, smallest, bw, bh, L.wrap, L.line_spacing)
        except typeset.TooManySizes as stop:
            raise self._data_error(row, column, f"shrink-to-fit laid the text out at {typeset.MAX_SCAN_STEPS} sizes "
                                   f"from {stop.from_pt:g} pt down to {stop.last_pt:g} pt and it fitted at none "
                                   f"(it may fit lower, but pnp stops there: each size sets the whole text).",
                                   f"set the layer's size: to about {stop.last_pt:g} pt, make its box larger, or "
                                   "shorten the text", "size") from None
        if got is None:
            shown = text if len(text) <= 40 else text[:37] + "..."
            if smallest < L.size:  # a smaller size was allowed and tried
                raise self._data_error(row, column, f"the text {shown!r} does not fit its {bw:g} x {bh:g} mm box even "
                                       f"at {smallest:g} pt.",
                                       "shorten the text, or make the layer's box larger or its min_size smaller"
                                       if L.fit == "box" else "shorten the text, or make the layer's box larger, its "
                                       "min_size smaller or set fit: shrink and wrap: true", "text")
            raise self._data_error(row, column, f"the text {shown!r} does not fit its {bw:g} x {bh:g} mm box at "
                                   f"{L.size:g} pt, the layer's one size.",
                                   "shorten the text, make the layer's box larger, or let it shrink: fit: shrink "
                                   "(with min_size and wrap: true)", "text")
        if paras is not None:
            self.ctx.faces.update(typeset.faces_used(paras))
            self.ctx.unbolded.update(typeset.unbolded(paras))
        else:
            self.ctx.faces.add(self.styled)
        colour = self.colours["colour"](values, row) or "#000000"
        if L.valign == "cap-middle" and paras is None:  # each line centred on its cap height (Text valign "middle")
            self._cap_middle(got, L, colour, out)
            return
        if L.valign == "cap-middle":  # runs: baselines where _cap_middle centres plain lines, from the box's middle
            cap = self.cap * got.size_pt * MM_PER_PT
            first = got.baselines[0]
            got = replace(got, baselines=tuple(b - first - (got.baselines[-1] - first) / 2 + cap / 2
                                               for b in got.baselines))
            top = 0.0
        else:
            top = {"top": 0.0, "middle": (bh - got.height) / 2, "bottom": bh - got.height}[L.valign] - bh / 2
        if paras is not None:  # runs and icons, placed from the box's left edge
            if L.rotate == 0:
                out.extend(typeset.draw(got, x, y + h / 2 + top, bw, L.align, colour, L.underline))
            else:
                out.append(Group(tuple(typeset.draw(got, -bw / 2, top, bw, L.align, colour, L.underline)),
                                 dx=x + w / 2, dy=y + h / 2, rotate=float(L.rotate)))
            return
        anchor, tx = _ANCHOR[L.align](bw)
        if L.rotate == 0:  # set in place: no group (one transform fewer per text in every backend)
            cx, cy = x + w / 2 + tx, y + h / 2 + top
            out.extend(Text(cx, cy + base, line, size_pt=got.size_pt, anchor=anchor, fill=colour, bold=L.bold,
                            font=self.face, underline=L.underline)
                       for line, base in zip(got.lines, got.baselines) if line)
            return
        lines = tuple(Text(tx, top + base, line, size_pt=got.size_pt, anchor=anchor, fill=colour, bold=L.bold,
                           font=self.face, underline=L.underline)
                      for line, base in zip(got.lines, got.baselines) if line)
        out.append(Group(lines, dx=x + w / 2, dy=y + h / 2, rotate=float(L.rotate)))

    def _cap_middle(self, got, L: TextLayer, colour: str, out: list) -> None:
        """Append the lines of ``got`` (plain text) with the middle of their capitals, the first line's
        cap height to the last line's baseline, on the box's middle: each line a Text with valign
        "middle" on its own cap middle (one line: on the box's centre itself)."""
        anchor, tx, cx, cy = self.centre
        cap = self.cap * got.size_pt * MM_PER_PT
        first = got.baselines[0]
        tall = got.baselines[-1] - first + cap
        size, bold, font, underline = got.size_pt, L.bold, self.face, L.underline
        if L.rotate == 0:
            cx += tx
            out.extend(Text(cx, cy + (-tall / 2 + cap / 2 + (b - first)), line, size_pt=size, anchor=anchor,
                            valign="middle", fill=colour, bold=bold, font=font, underline=underline)
                       for line, b in zip(got.lines, got.baselines) if line)
            return
        # each line turned about its own anchor (Text.rotate), placed where the turned box puts it: no group
        cos, sin = QUARTER_TURNS[L.rotate]
        turn = float(L.rotate)
        for line, b in zip(got.lines, got.baselines):
            if line:
                mid = -tall / 2 + cap / 2 + (b - first)
                out.append(Text(cx + tx * cos - mid * sin, cy + tx * sin + mid * cos, line, size_pt=size,
                                anchor=anchor, valign="middle", fill=colour, bold=bold, font=font, rotate=turn,
                                underline=underline))

    def picture(self, values: dict, row: Row | None) -> ImageFacts | Absent | None:
        """The checked picture file an image layer draws for ``row`` (None when a column its ``src``
        names is empty, or it fills in empty: no picture on that part; an Absent, drawn as a
        placeholder, for one not there yet with ``missing: placeholder``); each file is checked once per build.

        Raises:
            SpecError, DataError: see pnp.custom.imagecheck.load_picture, naming the data file, row,
                column and this layer; its ``inputs`` holds the picture's path, which `pnp watch`
                then watches, so adding the missing file rebuilds.
        """
        text = self.src.fill(values).strip()
        if not text or any(not values.get(c, "").strip() for c in self.src.columns):
            return None
        facts = self._pictures.get(text)
        if facts is None:
            column = self.src.columns[0] if self.src.columns else None
            try:
                facts = self._pictures[text] = load_picture(text, self.ctx.spec_dir or Path("."), self.ctx.record,
                                                            self.place.layer.missing)
            except SpecError as exc:
                err = self._data_error(None if column is None else row, column, exc.message, exc.hint, "src")
                err.inputs = (Path(exc.file),) if exc.file else ()  # `pnp watch` waits for the file too
                raise err from None
        return facts

    def _image(self, values, row, out) -> None:
        facts = self.picture(values, row)
        if facts is None:
            return
        L, (x, y, w, h) = self.place.layer, self.box
        bw, bh = (h, w) if L.rotate in (90, 270) else (w, h)
        bx, by = (x, y) if L.rotate == 0 else (-bw / 2, -bh / 2)  # a turned box is drawn about its centre
        drawn = (placeholder(bx, by, bw, bh, facts.label) if isinstance(facts, Absent)
                 else (Image(bx, by, bw, bh, str(facts.path), L.fit, bleed=L.bleed, root=facts.root),))
        if L.rotate == 0:
            out.extend(drawn)
        else:
            out.append(Group(drawn, dx=x + w / 2, dy=y + h / 2, rotate=float(L.rotate)))
    def rich(self, text: str, row, column, icons: IconFolder | None, markup: bool = True) -> tuple:
        """The text's markup parsed (pnp.text; without ``markup``, its lines as they are), the
        characters its faces lack set in a script's fallback face (typeset.fallback), every run's
        glyphs checked in its face.

        Raises:
            DataError, SpecError: unbalanced markup, an unknown icon or a glyph a face lacks (naming
                the data file, row and column, or the template line, and the field text)."""
        try:
            paras = (typeset.parse(text, icons.lookup if icons else None, bold=self.place.layer.bold) if markup
                     else typeset.plain(text, bold=self.place.layer.bold))
        except typeset.MarkupError as exc:
            raise self._data_error(row, column, f"character {exc.offset + 1} of the text: {exc.message}.",
                                   "add the picture to the icons folder, or write \\: for a colon" if exc.icon else
                                   "close the ** or * (or write \\* for an asterisk, or set markup: false on the "
                                   "layer)", "text") from None
        paras = typeset.fallback(self._in_layer_fonts(paras, row, column))
        lacking = typeset.missing(paras)
        if lacking:
            span, ch = lacking
            raise self._data_error(row, column, f"{ch!r} (U+{ord(ch):04X}) is not in {self._label(span.font)}.",
                                   "use Latin, Greek or Cyrillic letters" if span.font in (DEFAULT_FACE, ITALIC_FACE)
                                   else "use characters the font has, or choose another font for the layer", "text")
        return paras


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
        self.layers = [BoundLayer(p, ctx) for p in layers]
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
