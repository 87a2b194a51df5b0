"""The kit's cover: page 1 (continued on page 2 only when the rules need it).

It carries the game's title and designer credit, a one-line description, the bill of materials
(every component with its count, trim size and pages), a print-and-cut guide for this kit only
(scale check, duplex pages, round parts, board assembly) and the rules quick reference, set in two
columns with Noto Sans's real metrics (pnp.text.wrapping.wrap; rules with **bold** or *italic* runs
through pnp.text).

``impose`` asks a Cover how many pages it takes (``count``, known before the plan) and then for
those pages (``pages(...)``) once every component's pages are planned. The rules text is data: a
small Markdown file (see pnp.inputs.rulestext) that the user can edit and rebuild.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

from ..core.errors import LayoutError
from ..inputs.rulestext import Block, Rules
from ..inputs.textcheck import credit_line, line_width_mm, title_line
from .. import text as typeset
from ..text.wrapping import wrap
from ..core.shaping import paragraph_rtl
from ..core.ir import Component, Line, Page, Text
from ..core.units import MM_PER_PT, fmt_mm
from ..core.words import Words, english
from . import marks
from .options import ImposeOptions
from .kitpacking import Packing
from .packing import paper_of
from .paper import Sheet
from .tiling import JOIN_INSTRUCTIONS, piece_grid

BODY_PT, HEAD_PT, SMALL_PT = 8.0, 9.5, 7.5
LEADING = 1.28          # line height / font size
COLUMN_GAP = 6.0        # mm between rules columns
BULLET_INDENT = 3.0     # mm
SOURCE_PT, SOURCE_LEAD = 6.5, 2.9   # the rules-source note at the foot of the last cover page
GREY, INK, RULE_LINE = "#555555", "#000000", "#b0b0b0"
BOM_COLUMNS = (0.0, 27.0, 38.0, 72.0, 88.0, 124.0)  # mm from the left edge: component .. what it is
BOM_GAP = 2.0  # mm at least between a heading of the bill of materials and the next column
CARD_STOCK, PLAIN_PAPER = "200\u2013300 g/m\u00b2", "80\u2013120 g/m\u00b2"
FOLD_PAPER = "120\u2013160 g/m\u00b2"
PAPER_TEXT = {"card": f"card stock {CARD_STOCK}", "plain": f"plain {PLAIN_PAPER}, glued onto card",
              "fold": f"paper {FOLD_PAPER}, folded and glued"}  # by pnp.layout.packing.paper_of


def plural(comps: Sequence[Component], _: Words = english) -> str:
    """Parts named as a player reads them: "word cards and letter tokens", "the setup sheet" one. In
    another language (pnp's words ``_``) the names stay as the designer wrote them: its plural is no
    added "s"."""
    names = [c.name + ("s" if c.count > 1 and not c.name.endswith("s") and _ is english else "") for c in comps]
    if len(names) < 2:
        return "".join(names)
    return _("{parts} and {last}").format(parts=", ".join(names[:-1]), last=names[-1])


def box_steps(boxes: Sequence[Component], _: Words = english) -> str:
    """How to make the tuck boxes (parts with an inside, ``Component.inner``), in a player's words
    (in the words ``_``)."""
    return _("Tuck box ({parts}): make it as its bottom says.").format(
        parts=", ".join(dict.fromkeys(c.name.split(" (")[0] for c in boxes)))


def _pages(numbers, _: Words = english) -> str:
    """"page 3" or "pages 1\u20133, 5" (in the words ``_``)."""
    return (_("page {pages}") if len(set(numbers)) == 1 else _("pages {pages}")).format(pages=marks.page_ranges(numbers))


class Cover(Protocol):
    """Front matter of a kit: ``count`` pages, drawn by ``pages()`` once the plan is known."""
    count: int

    def pages(self, components: Sequence[Component], plan: list[tuple[int, ...]], sheet: Sheet,
              opts: ImposeOptions, total: int) -> list[Page]: ...


PRINT_SHOP_LINE = "For a print shop: PDF/X-4, colours in CMYK. At home, print the home PDF of this kit."
"""The first line of what to print on the cover of a print shop's kit (``CoverInfo.print_shop``, ``--pdfx``)."""


@dataclass(frozen=True, eq=False)
class CoverInfo:
    """What the cover says about the game: ``title``, ``designer``, ``year`` and whether it is
    ``traditional`` (from the spec), the parsed ``rules``, where they came from (``rules_source``, one
    line: see source_line) and ``credits`` for what the kit designed itself ("board layout: pnp")."""
    title: str
    designer: str
    year: int | None
    rules: Rules
    rules_source: str = ""
    credits: tuple[str, ...] = ()
    traditional: bool = False
    words: Words = field(default=english, compare=False)
    """pnp's own words in the kit's language (pnp.core.words): headings, print guide, bill of materials."""
    print_shop: bool = False
    """The kit is a print shop's file (PDF/X-4, CMYK): the cover says so first (PRINT_SHOP_LINE)."""

    @property
    def credit(self) -> str:
        """The header's credit line: the designer's credit (see credit_line) and the kit's own
        ``credits``, joined by " \u00b7 "; "" when there is none."""
        return " \u00b7 ".join(c for c in (credit_line(self.designer, self.year, self.traditional, self.words),
                                           *self.credits) if c)

    @property
    def title_line(self) -> str:
        """The header's title line, "<title> \u2014 print and play" in the kit's words."""
        return title_line(self.title, self.words)

    @staticmethod
    def source_line(designer: str, title: str, traditional: bool = False, _: Words = english) -> str:
        """The rules-source note printed at the foot of the cover, in a player's words (pnp's words
        ``_``): the rules of ``title`` "by" a named ``designer`` (no possessive, so "the pnp developers"
        reads right), the traditional rules of a ``traditional`` game, or just the rules of ``title``."""
        if traditional:
            return _("These rules are a summary in pnp's own words of the traditional rules of {title}; "
                     "house rules vary from table to table.").format(title=title)
        if designer:
            return _("These rules are a summary in pnp's own words of the rules of {title} by {designer}; "
                     "where they differ, the original rules are the authority.").format(title=title, designer=designer)
        return _("These rules are a summary in pnp's own words of the rules of {title}; "
                 "where they differ, the original rules are the authority.").format(title=title)


@dataclass(eq=False)
class _Flow:
    """Rules text placed in columns: one list of Text shapes per column."""
    columns: list[list] = field(default_factory=list)


def bom_columns(heads: list[str]) -> tuple[float, ...]:
    """The left edges (mm from the content's left edge) of the bill of materials' columns for the
    headings ``heads`` (in the kit's language): BOM_COLUMNS, each moved right where the heading
    before it, set bold at SMALL_PT, would come within BOM_GAP of it."""
    out = [BOM_COLUMNS[0]]
    for cx, head in zip(BOM_COLUMNS[1:], heads):
        out.append(max(cx, out[-1] + line_width_mm(head, SMALL_PT, True) + BOM_GAP))
    return tuple(out)


def wrapped(text: str, size_pt: float, width: float, bold: bool = False) -> list[typeset.Line]:
    """Plain ``text`` broken into lines at most ``width`` mm wide at ``size_pt``, in Noto Sans (Bold
    with ``bold``), as pnp.text sets it (typeset.plain_lines: a Latin run by Noto Sans's simpleSplit,
    shaped or right-to-left scripts and characters in a script's fallback face in runs); an empty
    line is left out."""
    return [line for line in typeset.plain_lines(text, size_pt, width, bold) if line.pieces]


def block_lines(block: Block, icons, width: float, body_pt: float = BODY_PT, head_pt: float = HEAD_PT,
                markup: bool = True) -> list[tuple[typeset.Line, float, bool, float, bool]]:
    """(line, size_pt, bold, indent mm, starts a bullet) for each printed line of a rules ``block``
    wrapped to ``width`` mm (typeset.set_lines): its bold or italic runs and icons (through ``icons``)
    parsed unless ``markup`` is False (the text is plain, as typed; then an empty line is left out),
    characters Noto Sans lacks in a script's fallback face. ``bold``: the block is a heading."""
    heading = block.kind == "heading"
    size, indent = (head_pt, 0.0) if heading else (body_pt, BULLET_INDENT if block.kind == "bullet" else 0.0)
    rich = markup and typeset.has_markup(block.text, icons is not None)
    paras = typeset.parse(block.text, icons, bold=heading) if rich else typeset.plain(block.text, bold=heading)
    lines = [line for line in typeset.set_lines(typeset.fallback(paras), size, width - indent) if rich or line.pieces]
    return [(line, size, heading, indent, block.kind == "bullet" and i == 0) for i, line in enumerate(lines)]


def line_shapes(text: typeset.Line, size: float, bold: bool, indent: float, bullet: bool, x: float,
                y: float, width: float | None = None, fill: str = INK) -> tuple[list, float]:
    """The shapes of one line of block_lines() with its baseline at (x, y) mm (a bullet at x, the line
    ``indent`` mm right of it, typeset.draw_line; ``bold`` is in its runs) and the line's width in
    mm. A right-to-left line (typeset.Line.rtl) in a column ``width`` mm wide is mirrored: the bullet
    ends at the column's right edge and the text ends ``indent`` mm left of it."""
    if text.rtl and width is not None:
        shapes = [Text(x + width, y, "\u2022", size_pt=size, anchor="end", fill=fill)] if bullet else []
        return shapes + list(typeset.draw_line(text, x + width - indent - text.width, y, size, fill)), text.width
    shapes = [Text(x, y, "\u2022", size_pt=size, fill=fill)] if bullet else []
    return shapes + list(typeset.draw_line(text, x + indent, y, size, fill)), text.width


class KitCover:
    """The cover of a kit on ``sheet``: 1 page, or 2 when the rules do not fit under the header.

    Raises:
        LayoutError: on construction, when the rules do not fit two pages (names the rules file and
            the line where the text ran out of room).
    """

    def __init__(self, info: CoverInfo, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions,
                 packing: Packing) -> None:
        self.info, self.components, self.sheet, self.opts = info, components, sheet, opts
        x, y, w, h = sheet.content_area
        _check_one_line_texts(info, sheet, w)
        # the header's height depends on the page lists it prints: measure it with the kit's packing
        # (the one imposition uses), numbered for a cover of one page and of two, and keep the taller
        sheets = packing.components_by_sheet()
        self.header_bottom = max(self._header(self._numbered(sheets, n), 1)[1] for n in (1, 2)) + 4.0
        self.col_w = (w - COLUMN_GAP) / 2
        first = [(x, self.header_bottom), (x + self.col_w + COLUMN_GAP, self.header_bottom)]
        second = [(x, y + 6.0), (x + self.col_w + COLUMN_GAP, y + 6.0)]
        if info.rules.blocks and paragraph_rtl(info.rules.blocks[0].text):  # right to left: the right column first
            first, second = first[::-1], second[::-1]
        self.slots = first + second
        self.source_lines = wrapped(info.rules_source, SOURCE_PT, w) if info.rules_source else []
        self.bottom = y + h - 2.0 - len(self.source_lines) * SOURCE_LEAD
        self.flow = self._flow_rules()
        self.count = 1 if len(self.flow.columns) <= 2 else 2

    def _numbered(self, sheets: list[list[int]], cover_pages: int) -> list[tuple[int, ...]]:
        """Per component, the pages it is printed on when the sheets (component indices on each)
        follow ``cover_pages`` cover pages; in duplex mode each sheet is a front and a back page."""
        sides = 1 if self.opts.duplex == "none" else 2
        pages: list[list[int]] = [[] for _ in self.components]
        for i, on_sheet in enumerate(sheets):
            first = 1 + (cover_pages + i) * sides
            for c in on_sheet:
                pages[c] += range(first, first + sides)
        return [tuple(p) for p in pages]

    # -- header: title, credit, what to print, bill of materials, print guide ------------------
    def guide(self) -> list[str]:
        """The print-and-cut steps the cover lists (in a player's words), for the rules booklet."""
        return self._guide()

    def _guide(self) -> list[str]:
        """The print-and-cut steps for this kit's parts, in a player's words (no command lines)."""
        comps, opts, _ = self.components, self.opts, self.info.words
        out = [_("Print at 100 % (Actual size, not Fit to page): the bar at the foot of every page must "
                 "measure 50 mm.")]
        backed = plural([c for c in comps if c.back is not None and not c.board], _)
        if backed and opts.duplex == "fold":
            out.append(_("Fold-over backs ({parts}): print one-sided; fold each sheet along the dashed "
                         "line marked \u201cfold\u201d, printed sides out, so each back lies behind its front; "
                         "glue the halves together, then cut through both layers on the crop marks.").format(parts=backed))
        elif backed and opts.duplex != "none":
            edge = _("long") if opts.duplex == "long" else _("short")
            out.append(_("Print two-sided, flipping on the {edge} edge: each sheet of {parts} is followed by "
                         "its backs; the other pages are blank on the back.").format(edge=edge, parts=backed))
        elif backed:
            out.append(_("Printed one-sided: the {parts} have plain backs.").format(parts=backed))
        else:
            out.append(_("Printed one-sided: no part has a printed back."))
        if backed:  # a part with a back is played face down: its face must not show through
            out.append((_("Face-down parts ({parts}) must not show through: the two glued layers hide the faces; "
                          "paper of about 120\u2013160 g/m\u00b2 folds cleanly.") if opts.duplex == "fold" else
                        _("Face-down parts ({parts}) must not show through: print them on card stock ({stock}).")
                        if opts.duplex != "none" else
                        _("Face-down parts ({parts}) must not show through: print them on card stock ({stock}), or "
                          "print them with fold-over or two-sided backs.")).format(parts=backed, stock=CARD_STOCK))
        parts, boards, folded = (plural([c for c in comps if paper_of(c, opts) == p], _) for p in ("card", "plain", "fold"))
        paper = [_("card stock ({stock}) for the {parts}").format(stock=CARD_STOCK, parts=parts)] if parts else []
        paper += [_("paper of {paper} for the {parts}, folded and glued").format(paper=FOLD_PAPER, parts=folded)
                  ] if folded else []
        paper += [_("plain paper ({paper}) for the {parts}, glued onto card or thin board").format(
            paper=PLAIN_PAPER, parts=boards)] if boards else []
        out.append((_("Paper: ") if opts.mix_papers else _("Paper (each sheet holds parts of one paper): "))
                   + "; ".join(paper) + "." + (
            _(" No card stock? Glue the printed sheet onto thin card before cutting.") if parts else ""))
        out.append(_("Cut on the crop marks: the short lines outside each block of parts, in line with every cut."))
        round_parts = plural([c for c in comps if c.shape == "circle"], _)
        if round_parts and opts.cut_lines:
            out.append(_("Round parts ({parts}): cut along the thin grey circle; the crop marks "
                         "show only the square around it.").format(parts=round_parts))
        elif round_parts:
            out.append(_("Round parts ({parts}): cut the square on the crop marks, then the circle inside it, "
                         "which touches the middle of each side (a circle punch of the part's diameter does it at "
                         "once).").format(parts=round_parts))
        rounded = [c for c in comps if c.shape == "rounded"]
        if rounded:
            out.append((_("Rounded corners ({parts}): cut straight on the crop marks, then round each corner along "
                          "the thin grey arc (a corner punch of the same radius does it at once).") if opts.cut_lines
                        else _("Rounded corners ({parts}): cut straight on the crop marks, then round each corner with "
                               "a corner punch of {radius} radius.")).format(
                parts=", ".join(c.name for c in rounded), radius=fmt_mm(max(c.radius for c in rounded))))
        shaped = [c for c in comps if c.shape == "polygon" and not c.inner]  # a box's own bottom says how
        if shaped:
            folded = [c.name for c in shaped if c.folds]
            out.append((_("Shaped parts ({parts}): cut along the thin grey outline printed round each (they have no "
                          "crop marks); score the dashed lines of the {folded} with a blunt knife against a ruler, "
                          "then fold them away from the print and glue the grey tabs.") if folded else
                        _("Shaped parts ({parts}): cut along the thin grey outline printed round each (they have no "
                          "crop marks).")).format(parts=", ".join(c.name for c in shaped), folded=", ".join(folded)))
        boxes = [c for c in comps if c.inner]
        if boxes:
            out.append(box_steps(boxes, _))
        tiled = [c for c in comps if c.board and piece_grid(c, self.sheet, opts.overlap) != (1, 1)]
        for c in tiled:
            cols, rows = piece_grid(c, self.sheet, opts.overlap)
            out.append(_("The {name} comes in {count} pieces ({cols} x {rows}, named on each piece). ").format(
                name=c.name, count=cols * rows, cols=cols, rows=rows) + _(JOIN_INSTRUCTIONS))
        return out

    def _header_lines(self, w: float) -> list[tuple[str, float, bool, str]]:
        """(text, size_pt, bold, colour) lines of the guide, wrapped to width ``w``."""
        out = []
        for item in self._guide():
            for i, part in enumerate(wrap(item, SMALL_PT, w - BULLET_INDENT)):
                out.append((("\u2022 " if i == 0 else "") + part, SMALL_PT, False, INK))
        return out

    def _what_to_print(self, plan, total: int) -> list[str]:
        """"Print one copy of pages ...": the standard game's pages (the cover with them), then one
        line per optional variant with the pages only it needs."""
        cover = set(range(1, total + 1)) - {n for numbers in plan for n in numbers}
        groups: dict[str, set[int]] = {"": set(cover)}
        for comp, numbers in zip(self.components, plan):
            groups.setdefault(comp.variant, set()).update(numbers)
        _ = self.info.words
        lines = [_(PRINT_SHOP_LINE)] if self.info.print_shop else []
        lines += [_("Print one copy of {pages}: that is the whole game.").format(pages=_pages(groups.pop(""), _))]
        lines += [_("Only for the {variant}: {pages} as well.").format(variant=variant, pages=_pages(numbers, _))
                  for variant, numbers in groups.items() if numbers]
        return lines

    def _header(self, plan, total: int) -> tuple[list, float]:
        """The header's shapes and the y of its last baseline (mm)."""
        info, sheet, opts = self.info, self.sheet, self.opts
        _ = info.words
        x, y, w, _h = sheet.content_area
        credit = info.credit
        sides = {"none": _("one-sided"), "fold": _("one-sided (fold-over backs)")}.get(
            opts.duplex, _("two-sided (flip on the {edge} edge)").format(edge=_(opts.duplex)))
        bleed = _(", bleed {bleed}").format(bleed=fmt_mm(opts.bleed)) if opts.bleed > 0 else ""
        items: list = [*typeset.text_shapes(x, y + 8, info.title_line, 20, bold=True, width=w),
                       *typeset.text_shapes(x, y + 14.5, credit, 11, width=w),
                       *typeset.text_shapes(x, y + 20, info.rules.description, 9, GREY, width=w)]
        row_y = y + 20
        for line in self._what_to_print(plan, total):
            row_y += 5.0
            items.append(Text(x, row_y, line, size_pt=9, bold=True))
        row_y += 4.5
        items += [Text(x, row_y, _("Paper {name} ({size}), {sides}{bleed}, {total} pages in all.").format(
                           name=sheet.name.upper(), size=f"{fmt_mm(sheet.width)} x {fmt_mm(sheet.height)}", sides=sides,
                           bleed=bleed, total=total), size_pt=SMALL_PT, fill=GREY),
                  Line(x, row_y + 2.5, x + w, row_y + 2.5, stroke=RULE_LINE, stroke_width=0.3)]
        row_y += 8.5
        items.append(Text(x, row_y, _("Bill of materials"), size_pt=HEAD_PT + 1, bold=True))
        lead = SMALL_PT * MM_PER_PT * LEADING
        row_y += 5.5
        heads = [_(head) for head in ("component", "count", "trim size", "pages", "paper", "what it is")]
        columns = bom_columns(heads)
        for cx, head in zip(columns, heads):
            items.append(Text(x + cx, row_y, head, size_pt=SMALL_PT, bold=True))
        items.append(Line(x, row_y + 1.3, x + w, row_y + 1.3, stroke_width=0.2))
        widths = [b - a - 2.0 for a, b in zip(columns, columns[1:] + (w + 2.0,))]
        row_y += 1.3
        for comp, numbers in zip(self.components, plan):
            size = (_("diameter {size}").format(size=fmt_mm(comp.width)) if comp.shape == "circle"
                    else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}")
            paper = _(PAPER_TEXT[paper_of(comp, self.opts)])
            cells = (comp.name, str(comp.count), size, marks.page_ranges(numbers), paper, comp.note)
            wrapped = [wrap(value, SMALL_PT, cw) or [""] for value, cw in zip(cells, widths)]
            for k in range(max(len(lines) for lines in wrapped)):
                for cx, lines, colour in zip(columns, wrapped, (INK,) * 5 + (GREY,)):
                    if k < len(lines):
                        items.append(Text(x + cx, row_y + 3.7 + k * lead, lines[k], size_pt=SMALL_PT, fill=colour))
            row_y += 3.7 + (max(len(lines) for lines in wrapped) - 1) * lead + 1.0
        row_y += 7.0
        items.append(Text(x, row_y, _("Print and cut"), size_pt=HEAD_PT + 1, bold=True))
        row_y += 1.0
        for text, size, bold, colour in self._header_lines(w):
            row_y += lead
            indent = 0.0 if text.startswith("\u2022 ") else BULLET_INDENT
            items.append(Text(x + indent, row_y, text, size_pt=size, bold=bold, fill=colour))
        return items, row_y

    # -- rules in columns --------------------------------------------------------------------------
    def _flow_rules(self) -> _Flow:
        flow = _Flow([[]])
        col = 0
        _, top = self.slots[0]
        y = top + 2.0
        title_size = HEAD_PT + 2.5
        flow.columns[0].extend(typeset.text_shapes(self.slots[0][0], y + title_size * MM_PER_PT,
                                                    self.info.words("Rules quick reference"), title_size, bold=True,
                                                    width=self.col_w))
        y += title_size * MM_PER_PT * 1.6
        blocks = self.info.rules.printed()

        def lines_of(block: Block) -> list[tuple[typeset.Line, float, bool, float, bool]]:
            return block_lines(block, self.info.rules.icons, self.col_w)

        for i, block in enumerate(blocks):
            lines = lines_of(block)
            before = 2.2 if block.kind == "heading" else 1.0
            need = before + sum(size * MM_PER_PT * LEADING for _, size, _, _, _ in lines)
            if block.kind == "heading" and i + 1 < len(blocks):  # keep a heading with its first block
                need += 1.0 + BODY_PT * MM_PER_PT * LEADING * min(3, len(lines_of(blocks[i + 1])))
            if y + need > self.bottom and flow.columns[col]:
                col += 1
                if col >= len(self.slots):
                    raise LayoutError(f"the rules text does not fit two cover pages on {self.sheet.name}: it runs out "
                                      f"of room at line {block.line}.", file=self.info.rules.path, line=block.line,
                                      field="rules", hint="shorten the rules text, or use a larger --paper")
                flow.columns.append([])
                y = self.slots[col][1]
            x0 = self.slots[col][0]
            y += before
            for text, size, bold, indent, bullet in lines:
                y += size * MM_PER_PT * LEADING
                shapes, width = line_shapes(text, size, bold, indent, bullet, x0, y, self.col_w)
                flow.columns[col].extend(shapes)
                if width > self.col_w - indent + 1e-6:
                    shown = "".join(s.text for _, s in text.pieces)
                    raise LayoutError(f"the word {shown!r} is wider than a rules column ({fmt_mm(self.col_w)}).",
                                      file=self.info.rules.path, line=block.line, field="rules",
                                      hint="break the long word")
            if y > self.bottom + 1e-6:
                raise LayoutError(f"a rules paragraph is taller than a whole column on {self.sheet.name}.",
                                  file=self.info.rules.path, line=block.line, field="rules",
                                  hint="split the paragraph")
        return flow

    def pages(self, components, plan, sheet, opts, total) -> list[Page]:
        x, _, w, _ = sheet.content_area
        out = []
        for number in range(1, self.count + 1):
            items: list = self._header(plan, total)[0] if number == 1 else []
            if number == 1:
                y = self.header_bottom - 1.5
                items.append(Line(x, y, x + w, y, stroke=RULE_LINE, stroke_width=0.3))
            columns = self.flow.columns[(number - 1) * 2:number * 2]
            for col in columns:
                items.extend(col)
            if number == self.count:
                for i, line in enumerate(self.source_lines):
                    items += line_shapes(line, SOURCE_PT, False, 0.0, False, x, self.bottom + (i + 1) * SOURCE_LEAD, w,
                                         GREY)[0]
            _ = self.info.words
            label = _("cover") if number == 1 else _("cover (rules, continued)")
            text = marks.footer_text(self.info.title, label, number, total, _)
            out.append(Page(sheet.width, sheet.height, tuple(items) + marks.footer(sheet, text, _), _("cover")))
        return out


def _check_one_line_texts(info: CoverInfo, sheet: Sheet, width: float) -> None:
    """Refuse a title, credit or description wider than the cover's ``width`` on this sheet (the
    inputs are measured against A4 when read; a narrower custom sheet is checked here).

    Raises:
        LayoutError: naming the field (the rules file and line 2 for the description).
    """
    for text, size, bold, name, file, line in (
            (info.title_line, 20, True, "title", None, None),
            (info.credit, 11, False, "designer", None, None),
            (info.rules.description, 9, False, "rules", info.rules.path, 2)):
        got = line_width_mm(text, size, bold)
        if got > width + 1e-6:
            raise LayoutError(f"the cover line {text[:60]!r} is {got:.0f} mm wide at {size:g} pt; the cover of "
                              f"{sheet.name} is {width:.0f} mm wide.", file=file, line=line, field=name,
                              hint="shorten it, or use a wider --paper")


class BomCover:
    """A one-page cover for kits built without rules text: the title and the bill of materials."""
    count = 1

    def __init__(self, title: str) -> None:
        self.title = title

    def pages(self, components, plan, sheet, opts, total) -> list[Page]:
        return [bom_page(self.title, components, plan, sheet, opts, total)]


def bom_page(title: str, components: Sequence[Component], plan, sheet: Sheet, opts: ImposeOptions, total: int) -> Page:
    """A plain bill-of-materials page: every component with its count, trim size and pages."""
    x, y, w, _ = sheet.printable
    sides = "one-sided" if opts.duplex == "none" else f"two-sided (flip on the {opts.duplex} edge)"
    items: list = [Text(x, y + 8, title_line(title), size_pt=18, bold=True),
                   Text(x, y + 15, f"Paper {sheet.name.upper()} ({fmt_mm(sheet.width)} x {fmt_mm(sheet.height)}), "
                        f"bleed {fmt_mm(opts.bleed)}, {sides}, {total} pages. "
                        "Print at 100 % / Actual size.", size_pt=9),
                   Text(x, y + 26, "Bill of materials", size_pt=13, bold=True)]
    cols = (x, x + 60, x + 80, x + 125)
    row_y = y + 34
    for cx, head in zip(cols, ("component", "count", "trim size", "pages")):
        items.append(Text(cx, row_y, head, size_pt=9, bold=True))
    items.append(Line(x, row_y + 1.5, x + w, row_y + 1.5, stroke_width=0.2))
    for comp, numbers in zip(components, plan):
        row_y += 6
        size = f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle" else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}"
        pages = marks.page_ranges(numbers)
        for cx, value in zip(cols, (comp.name, str(comp.count), size, pages)):
            items.append(Text(cx, row_y, value, size_pt=9))
    text = f"{title} \u2014 bill of materials \u2014 page 1 of {total}"
    return Page(sheet.width, sheet.height, tuple(items) + marks.footer(sheet, text), "bill of materials")
