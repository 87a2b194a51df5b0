"""A text layer bound to a data table (pnp.custom.draw.BoundLayer): its fonts and box worked out
once, then per row the text filled in, checked (length, glyphs, markup), fitted to its box by pnp.text
(a plain text as paragraphs of one run: pnp.text takes its Latin shortcut itself) and drawn, each Text
with the width fitting measured. Lengths in mm, sizes in points.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cached_property

from .. import text as typeset
from ..core.fonts import (DEFAULT_FACE, ITALIC_FACE, cap_height, face as font_face, fallback_for, missing_glyphs,
                          styled_face)
from ..core.errors import SpecError
from ..core.ir import Group, Text
from ..core.shaping import needs_shaping
from ..core.units import MM_PER_PT
from .layers import _ANCHOR, DEFAULT_MIN_PT, EPS, MAX_TEXT_CHARS, QUARTER_TURNS, BoundLayer, Context, Filler
from .icons import IconFolder
from .languages import column, source, translated
from .template import Placed, TextLayer

SYMBOLS_HINT = ("use Latin, Greek or Cyrillic letters, or a symbol of Noto Sans Math or Symbols "
                "(docs/templates.md, Symbols)")
"""The fix a message gives for a character no embedded font of pnp draws."""
PRESENTATION_SELECTORS = {0xFE0E: None, 0xFE0F: None}
"""Variation selectors 15 and 16 (text or emoji presentation of the character before): paper has one
presentation, so a cell's "📦️" prints its 📦 as the symbol fonts draw it and the selector is left out."""


def presented(text: str) -> str:
    """``text`` without its PRESENTATION_SELECTORS (a text with none returned as it is, not copied)."""
    if text.isascii() or ("\ufe0f" not in text and "\ufe0e" not in text):
        return text
    return text.translate(PRESENTATION_SELECTORS)


class BoundText(BoundLayer):
    """``type: text``: the text's Filler (``text``), its declared fonts (``font``, ``italic``, ``bold``,
    ``bold_italic``: pnp.inputs.fontfile.FontFile, or None for Noto Sans), the face plain text is set
    in (``styled``), the cap height of the face it starts in (``cap``, em) and its anchor in the box
    (``centre``), all worked out once; ``draw`` fits the row's text to the box (pnp.text).

    Raises:
        SpecError: an undeclared font, a text box past the part, ``fit: box`` with ``wrap: true``.
    """

    def __init__(self, place: Placed, ctx: Context):
        super().__init__(place, ctx)
        layer = place.layer
        self.text = Filler(layer.text, place.file, place.line_of("text"), "text", ctx.columns, self.data)
        self.reads.update(self.text.columns)
        if ctx.language:  # its translations are read too
            self.reads.update(column(c, ctx.language) for c in self.text.columns)
        self.font = self._font(layer.font) if layer.font is not None else None
        self.face = self.font.face if self.font is not None else DEFAULT_FACE
        self.italic = self._font(layer.italic_font, "italic_font") if layer.italic_font is not None else None
        self.bold, self.bold_italic = (self._font(name, field) if name is not None else None for name, field in
                                       ((layer.bold_font, "bold_font"), (layer.bold_italic_font, "bold_italic_font")))
        self.cap = cap_height(self.bold.face if layer.bold and self.bold is not None
                              else styled_face(self.face, layer.bold))  # em: the face the text starts in
        self.styled = styled_face(self.face, layer.bold)  # the face plain text is set in
        self.plain_cap = cap_height(self.styled)  # em: plain text's cap height
        # the glyph check's face draws every printable ASCII character: such a cell needs no check
        self.ascii_ok = font_face(DEFAULT_FACE).ascii_ok if self.font is None else self.font.ascii_ok
        self.least = self.smallest
        self.unmarked = self._unmarked(ctx)
        w, h = ctx.width, ctx.height
        bx, by, bw, bh = self.box
        # the text's anchor, its x from the box's centre, and the box's centre (mm): fixed by the template
        self.centre = (*_ANCHOR[layer.align](bh if layer.rotate in (90, 270) else bw), bx + bw / 2, by + bh / 2)
        if not (-EPS <= bx and -EPS <= by and bx + bw <= w + EPS and by + bh <= h + EPS):
            raise SpecError(f"{place.label}: its text box ({bx:g}, {by:g}) {bw:g} x {bh:g} mm reaches past the "
                            f"{w:g} x {h:g} mm part, where the cut would take letters off.", file=place.file,
                            line=place.line, field="x", hint="keep text boxes on the part, ideally 3 mm inside")
        if layer.fit == "box" and layer.wrap:
            raise SpecError(f"{place.label}: fit: box sets each line of the text as large as the box allows "
                            "and never breaks lines; wrap: true breaks them.", file=place.file,
                            line=place.line_of("wrap"), field="wrap",
                            hint="remove wrap: true (break lines with \\n), or use fit: shrink with wrap: true")

    def _unmarked(self, ctx: Context) -> bool:
        """True when no row's text can hold markup (typeset.has_markup with icons: ``*``, ``\\`` or an
        ``:icon:``): a layer with ``markup: false``, a text with no placeholder and none, or a sole
        ``{column}`` when no cell of the columns the layer reads (``reads``: the column, its
        translation, a ``when:`` column) holds any. Checked per column, once: the cells joined by NUL,
        which no markup mark spans."""
        layer = self.place.layer
        if not layer.markup:
            return True
        if self.text.constant is not None:
            return not typeset.has_markup(self.text.constant, True)
        if self.text.sole is None or ctx.table is None:
            return False
        cells = "\0".join([row.values.get(c, "") for c in self.reads for row in ctx.table.rows])
        return not typeset.has_markup(cells, True)

    @property
    def smallest(self) -> float:
        """The smallest size (pt) the text layer sets its text at: its min_size with ``fit: shrink``
        or ``fit: box``."""
        L = self.place.layer
        return min(L.size, (L.min_size or DEFAULT_MIN_PT) if L.fit != "none" else L.size)

    def fit_work(self, values: dict) -> float:
        """About how many characters this layer lays out for a row with ``values``: the text's length
        times the sizes tried (typeset.scan_layouts)."""
        if self.show is not None and not self.show(values):
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
        fallback face draws: pnp.core.fonts.FALLBACKS), and the font's name for messages; the
        presentation selectors the layer leaves out (:func:`presented`) are not asked of it."""
        text = presented(text)
        lacking = self.font.missing(text) if self.font is not None else missing_glyphs(text)
        if fallbacks and lacking:
            lacking = [ch for ch in lacking if fallback_for(ch) is None]
        return lacking, self._label(self.face)

    def _source(self, values: dict, columns) -> str | None:
        """The column key whose cell the first of ``columns`` prints in this kit's language (``name@de``, else
        ``name``): what an error about the text names."""
        return source(values, columns[0], self.ctx.language) if columns else None

    def draw(self, values, row, out) -> None:
        L = self.place.layer
        text = presented(self.text.fill(translated(values, self.ctx.language) if self.ctx.language else values))
        if not text.strip():
            return
        if len(text) > MAX_TEXT_CHARS:
            raise self._data_error(row, self._source(values, self.text.columns),
                                   f"the text has {len(text):,} characters (limit {MAX_TEXT_CHARS:,}).",
                                   "shorten the cell: no card holds more", "text")
        icons = self.ctx.icons
        # ASCII is never shaped and no script's fallback face draws it (pnp.core.fonts.fallback_for)
        if text.isascii() and self.ascii_ok and text.isprintable():
            lacking = []
        else:
            lacking = self.font.missing(text) if self.font is not None else missing_glyphs(text)
        shaped = not text.isascii() and (needs_shaping(text) or any(fallback_for(ch) for ch in lacking))
        rich = (not self.unmarked and typeset.has_markup(text, icons is not None)) or shaped
        column = self._source(values, self.text.columns) if rich else None  # what errors name (else found then)
        paras = self.rich(text, row, column, icons if L.markup else None, L.markup) if rich else None
        missing = lacking if paras is None else ()
        if missing:
            column = self._source(values, [c for c in self.text.columns
                                           if missing[0] in translated(values, self.ctx.language).get(c, "")]
                                  or self.text.columns)
            raise self._data_error(row, column, f"{missing[0]!r} (U+{ord(missing[0]):04X}) is not in "
                                   f"{self._label(self.face)}.",
                                   SYMBOLS_HINT if self.font is None else
                                   "use characters the font has, or choose another font for the layer", "text")
        if paras is None:  # one run a paragraph, in the layer's face (its bold as the layer says)
            paras = typeset.plain(text, L.bold, self.face if self.font is not None else "")
            cap = self.plain_cap
        else:
            cap = self.cap
        x, y, w, h = self.box
        bw, bh = (h, w) if L.rotate in (90, 270) else (w, h)
        smallest = self.least
        try:
            if L.fit == "box":  # runs measured as drawn (HarfBuzz's advances for shaped ones)
                got = typeset.fit_box(paras, L.size, smallest, bw, bh, L.line_spacing,
                                      cap if L.valign == "cap-middle" else None)
            else:
                got = typeset.fit(paras, L.size, smallest, bw, bh, L.wrap, L.line_spacing)
        except typeset.TooManySizes as stop:
            raise self._data_error(row, column or self._source(values, self.text.columns),
                                   f"shrink-to-fit laid the text out at {typeset.MAX_SCAN_STEPS} sizes "
                                   f"from {stop.from_pt:g} pt down to {stop.last_pt:g} pt and it fitted at none "
                                   f"(it may fit lower, but pnp stops there: each size sets the whole text).",
                                   f"set the layer's size: to about {stop.last_pt:g} pt, make its box larger, or "
                                   "shorten the text", "size") from None
        if got is None:
            column = column or self._source(values, self.text.columns)
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
        if rich:
            self.ctx.faces.update(typeset.faces_used(paras))
            self.ctx.unbolded.update(typeset.unbolded(paras))
        else:
            self.ctx.faces.add(self.styled)
        self._set(got, L, cap, self.colours["colour"](values, row) or "#000000", not rich, out)

    def _set(self, got: typeset.Fitted, L: TextLayer, cap: float, colour: str, anchored: bool, out: list) -> None:
        """Append the lines of ``got`` in the layer's box: with ``anchored`` (a plain text, as pnp has
        always drawn one: the anchor keeps it aligned in a viewer that measures in its own font) a line
        of one Latin run (typeset.whole) as one Text at the layer's anchor; any other line as its runs
        and icons (typeset.draw_line) from its aligned start; each Text with its width (mm). With ``valign: cap-middle`` the first line's cap
        height (``cap``, em) to the last line's baseline is centred on the box's middle, a whole line
        as a Text with valign "middle" on its own cap middle. Turned by the layer's ``rotate`` about
        the box's centre: in one Group, or, when every line is whole and centred on its cap middle,
        each Text turned about its own anchor where the turned box puts it."""
        anchor, tx, cx, cy = self.centre
        size, baselines = got.size_pt, got.baselines
        middle = L.valign == "cap-middle"
        if anchored and len(baselines) == 1:  # the usual cell: one line
            line = got.lines[0]
            if not line.pieces:
                return
            span = typeset.whole(line)
            if span is not None:  # one Latin run: one Text (else its runs, below)
                self._one_line(line, span, baselines[0], got.height, size, L, colour, middle, out)
                return
        x, y, w, h = self.box
        bw, bh = (h, w) if L.rotate in (90, 270) else (w, h)
        if middle:
            capped = cap * size * MM_PER_PT
            first = baselines[0]
            tall = baselines[-1] - first + capped
            top = 0.0
        else:
            top = {"top": 0.0, "middle": (bh - got.height) / 2, "bottom": bh - got.height}[L.valign] - bh / 2
        drawn = [(line, base, typeset.whole(line) if anchored else None)
                 for line, base in zip(got.lines, baselines) if line.pieces]
        if middle and L.rotate != 0 and all(span is not None for _, _, span in drawn):
            cos, sin = QUARTER_TURNS[L.rotate]
            turn = float(L.rotate)
            for line, b, span in drawn:  # no group: each line turned about its own anchor
                mid = -tall / 2 + capped / 2 + (b - first)
                out.append(Text(cx + tx * cos - mid * sin, cy + tx * sin + mid * cos, span.text, size_pt=size,
                                anchor=anchor, valign="middle", fill=colour, bold=span.bold, font=span.font,
                                rotate=turn, underline=L.underline, width=line.width))
            return
        # in place (no group: one transform fewer per text in every backend), or in the turned box's frame
        left, at_y, ax = (x, cy + top, cx + tx) if L.rotate == 0 else (-bw / 2, top, tx)
        shapes: list = []
        for line, b, span in drawn:
            if span is not None:
                if middle:
                    shapes.append(Text(ax, (cy if L.rotate == 0 else 0.0) + (-tall / 2 + capped / 2 + (b - first)),
                                       span.text, size_pt=size, anchor=anchor, valign="middle", fill=colour,
                                       bold=span.bold, font=span.font, underline=L.underline, width=line.width))
                else:
                    shapes.append(Text(ax, at_y + b, span.text, size_pt=size, anchor=anchor, fill=colour,
                                       bold=span.bold, font=span.font, underline=L.underline, width=line.width))
                continue
            side = {"start": "right" if line.rtl else "left", "end": "left" if line.rtl else "right"}.get(
                L.align, L.align)
            shift = {"left": 0.0, "center": (bw - line.width) / 2, "right": bw - line.width}[side]
            base = at_y + (b - first - (baselines[-1] - first) / 2 + capped / 2) if middle else at_y + b
            if L.underline:
                shapes.append(typeset.underline(line, left + shift, base, size, colour))
            shapes += typeset.draw_line(line, left + shift, base, size, colour)
        if L.rotate == 0:
            out.extend(shapes)
        else:
            out.append(Group(tuple(shapes), dx=x + w / 2, dy=y + h / 2, rotate=float(L.rotate)))

    def _one_line(self, line, span, base: float, height: float, size: float, L: TextLayer, colour: str,
                  middle: bool, out: list) -> None:
        """_set for one whole line (one Latin run, baseline ``base`` mm from the box top, the block
        ``height`` mm tall): the same Text, placed as _set's general loop places it."""
        anchor, tx, cx, cy = self.centre
        if middle:  # on its cap middle, at the box's middle
            valign, ty, upright_y = "middle", 0.0, cy
        else:  # its baseline where the block's valign puts it
            x, y, w, h = self.box
            bh = w if L.rotate in (90, 270) else h
            top = {"top": 0.0, "middle": (bh - height) / 2, "bottom": bh - height}[L.valign] - bh / 2
            valign, ty, upright_y = "baseline", top + base, cy + top + base
        if L.rotate == 0:
            out.append(Text(cx + tx, upright_y, span.text, size_pt=size, anchor=anchor, valign=valign, fill=colour,
                            bold=span.bold, font=span.font, underline=L.underline, width=line.width))
            return
        # turned about its own anchor, which the turned box puts at the box's centre plus (tx, ty) turned
        cos, sin = QUARTER_TURNS[L.rotate]
        out.append(Text(cx + tx * cos - ty * sin, cy + tx * sin + ty * cos, span.text, size_pt=size, anchor=anchor,
                        valign=valign, fill=colour, bold=span.bold, font=span.font, rotate=float(L.rotate),
                        underline=L.underline, width=line.width))

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
                                   SYMBOLS_HINT if span.font in (DEFAULT_FACE, ITALIC_FACE)
                                   else "use characters the font has, or choose another font for the layer", "text")
        return paras
