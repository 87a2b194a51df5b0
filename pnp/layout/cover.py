"""The kit's cover: page 1 (continued on page 2 only when the rules need it).

It carries the game's title and designer credit, a one-line description, the bill of materials
(every component with its count, trim size and pages), a print-and-cut guide for this kit only
(scale check, duplex pages, round parts, board assembly) and the rules quick reference, set in two
columns with Noto Sans's real metrics (pnp.core.fonts.wrap).

``impose`` asks a Cover how many pages it takes (``count``, known before the plan) and then for
those pages (``pages(...)``) once every component's pages are planned. The rules text is data: a
small Markdown file (see pnp.inputs.rulestext) that the user can edit and rebuild.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, Sequence

from ..core.errors import LayoutError
from ..inputs.rulestext import Block, Rules
from ..core.fonts import text_width_mm, wrap
from ..core.ir import Component, Line, Page, Text
from ..core.units import MM_PER_PT, fmt_mm
from . import marks
from .options import ImposeOptions
from .paper import Sheet
from .tiling import JOIN_INSTRUCTIONS, piece_grid

BODY_PT, HEAD_PT, SMALL_PT = 8.0, 9.5, 7.5
LEADING = 1.28          # line height / font size
COLUMN_GAP = 6.0        # mm between rules columns
BULLET_INDENT = 3.0     # mm
SOURCE_PT, SOURCE_LEAD = 6.5, 2.9   # the rules-source note at the foot of the last cover page
GREY, INK, RULE_LINE = "#555555", "#000000", "#b0b0b0"

class Cover(Protocol):
    """Front matter of a kit: ``count`` pages, drawn by ``pages()`` once the plan is known."""
    count: int

    def pages(self, components: Sequence[Component], plan: list[tuple[int, ...]], sheet: Sheet,
              opts: ImposeOptions, total: int) -> list[Page]: ...


@dataclass(frozen=True)
class CoverInfo:
    """What the cover says about the game: ``title``, ``designer`` and ``year`` (from the spec),
    the parsed ``rules`` and where they came from (``rules_source``, one line)."""
    title: str
    designer: str
    year: int | None
    rules: Rules
    rules_source: str = ""


@dataclass
class _Flow:
    """Rules text placed in columns: one list of Text shapes per column."""
    columns: list[list] = field(default_factory=list)


class KitCover:
    """The cover of a kit on ``sheet``: 1 page, or 2 when the rules do not fit under the header.

    Raises:
        LayoutError: on construction, when the rules do not fit two pages (names the rules file and
            the line where the text ran out of room).
    """

    def __init__(self, info: CoverInfo, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> None:
        self.info, self.components, self.sheet, self.opts = info, components, sheet, opts
        x, y, w, h = sheet.content_area
        self.header_bottom = self._header([(1, 1)] * len(components), 1)[1] + 4.0
        self.col_w = (w - COLUMN_GAP) / 2
        first = [(x, self.header_bottom), (x + self.col_w + COLUMN_GAP, self.header_bottom)]
        second = [(x, y + 6.0), (x + self.col_w + COLUMN_GAP, y + 6.0)]
        self.slots = first + second
        self.source_lines = wrap(info.rules_source, SOURCE_PT, w) if info.rules_source else []
        self.bottom = y + h - 2.0 - len(self.source_lines) * SOURCE_LEAD
        self.flow = self._flow_rules()
        self.count = 1 if len(self.flow.columns) <= 2 else 2

    # -- header: title, credit, bill of materials, print guide ----------------------------------
    def _guide(self) -> list[str]:
        comps, opts = self.components, self.opts
        out = ["Scale check: print at 100 % / Actual size; the bar at the foot of every page must measure 50 mm."]
        backed = [c.name for c in comps if c.back is not None and not c.board]
        if backed and opts.duplex != "none":
            edge = "long" if opts.duplex == "long" else "short"
            out.append(f"Two-sided: print the whole file duplex, flipping on the {edge} edge; each sheet of "
                       f"{', '.join(backed)} fronts is followed by its backs, every other page is blank on the back.")
        elif backed:
            out.append(f"One-sided print. The {', '.join(backed)} have printable backs: rebuild with --duplex long "
                       "to get them.")
        else:
            out.append("One-sided print: no part has a printed back.")
        out.append("Cut on the crop marks: the short lines outside each part, in line with its edges.")
        round_parts = [c.name for c in comps if c.shape == "circle"]
        if round_parts:
            out.append(f"Round parts ({', '.join(round_parts)}): cut along the thin grey circle; the crop marks "
                       "show only the square around it.")
        rounded = [c.name for c in comps if c.shape == "rounded"]
        if rounded:
            out.append(f"Rounded corners ({', '.join(rounded)}): cut straight on the crop marks, then round each "
                       "corner along the thin grey arc (a corner punch of the same radius does it at once).")
        tiled = [c for c in comps if c.board and piece_grid(c, self.sheet, opts.overlap) != (1, 1)]
        for c in tiled:
            cols, rows = piece_grid(c, self.sheet, opts.overlap)
            out.append(f"The {c.name} comes in {cols * rows} pieces ({cols} x {rows}, named on each piece). "
                       + JOIN_INSTRUCTIONS)
        return out

    def _header_lines(self, w: float) -> list[tuple[str, float, bool, str]]:
        """(text, size_pt, bold, colour) lines of the guide, wrapped to width ``w``."""
        out = []
        for item in self._guide():
            for i, part in enumerate(wrap(item, SMALL_PT, w - BULLET_INDENT)):
                out.append((("\u2022 " if i == 0 else "") + part, SMALL_PT, False, INK))
        return out

    def _header(self, plan, total: int) -> tuple[list, float]:
        """The header's shapes and the y of its last baseline (mm)."""
        info, sheet, opts = self.info, self.sheet, self.opts
        x, y, w, _ = sheet.content_area
        credit = f"designed by {info.designer}" + (f" ({info.year})" if info.year else "")
        items: list = [Text(x, y + 8, f"{info.title} \u2014 print-and-play kit", size_pt=20, bold=True),
                       Text(x, y + 14.5, credit, size_pt=11),
                       Text(x, y + 20, info.rules.description, size_pt=9, fill=GREY),
                       Text(x, y + 25.5, f"Paper {sheet.name.upper()} ({fmt_mm(sheet.width)} x "
                            f"{fmt_mm(sheet.height)}), bleed {fmt_mm(opts.bleed)}, duplex {opts.duplex}, "
                            f"{total} pages.", size_pt=SMALL_PT, fill=GREY),
                       Line(x, y + 28, x + w, y + 28, stroke=RULE_LINE, stroke_width=0.3)]
        row_y = y + 34
        items.append(Text(x, row_y, "Bill of materials", size_pt=HEAD_PT + 1, bold=True))
        cols = (x, x + 38, x + 52, x + 88, x + 106)
        row_y += 5.5
        for cx, head in zip(cols, ("component", "count", "trim size", "pages", "what it is")):
            items.append(Text(cx, row_y, head, size_pt=SMALL_PT, bold=True))
        items.append(Line(x, row_y + 1.3, x + w, row_y + 1.3, stroke_width=0.2))
        note_w = x + w - cols[4]
        for comp, numbers in zip(self.components, plan):
            row_y += 5.0
            size = (f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle"
                    else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}")
            pages = marks.page_ranges(numbers)
            note = (wrap(comp.note, SMALL_PT, note_w) or [""])[0]
            for cx, value in zip(cols, (comp.name, str(comp.count), size, pages, note)):
                items.append(Text(cx, row_y, value, size_pt=SMALL_PT, fill=INK if cx != cols[4] else GREY))
        row_y += 9.0
        items.append(Text(x, row_y, "Print and cut", size_pt=HEAD_PT + 1, bold=True))
        lead = SMALL_PT * MM_PER_PT * LEADING
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
        flow.columns[0].append(Text(self.slots[0][0], y + title_size * MM_PER_PT, "Rules quick reference",
                                    size_pt=title_size, bold=True))
        y += title_size * MM_PER_PT * 1.6
        blocks = self.info.rules.blocks

        def lines_of(block: Block) -> list[tuple[str, float, bool, float, bool]]:
            """(text, size_pt, bold, indent, starts a bullet) for each printed line of a block."""
            if block.kind == "heading":
                return [(t, HEAD_PT, True, 0.0, False) for t in wrap(block.text, HEAD_PT, self.col_w)]
            if block.kind == "bullet":
                return [(t, BODY_PT, False, BULLET_INDENT, i == 0)
                        for i, t in enumerate(wrap(block.text, BODY_PT, self.col_w - BULLET_INDENT))]
            return [(t, BODY_PT, False, 0.0, False) for t in wrap(block.text, BODY_PT, self.col_w)]

        for i, block in enumerate(blocks):
            lines = lines_of(block)
            before = 2.2 if block.kind == "heading" else 1.0
            need = before + sum(size * MM_PER_PT * LEADING for _, size, _, _, _ in lines)
            if block.kind == "heading" and i + 1 < len(blocks):  # keep a heading with its first lines
                need += BODY_PT * MM_PER_PT * LEADING * 2
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
                if bullet:
                    flow.columns[col].append(Text(x0, y, "\u2022", size_pt=size))
                flow.columns[col].append(Text(x0 + indent, y, text, size_pt=size, bold=bold))
                if text_width_mm(text, size) > self.col_w - indent + 1e-6:
                    raise LayoutError(f"the word {text!r} is wider than a rules column ({fmt_mm(self.col_w)}).",
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
                    items.append(Text(x, self.bottom + (i + 1) * SOURCE_LEAD, line, size_pt=SOURCE_PT, fill=GREY))
            label = "cover" if number == 1 else "cover (rules, continued)"
            text = f"{self.info.title} \u2014 {label} \u2014 page {number} of {total}"
            out.append(Page(sheet.width, sheet.height, tuple(items) + marks.footer(sheet, text), "cover"))
        return out


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
    items: list = [Text(x, y + 8, f"{title} \u2014 print-and-play kit", size_pt=18, bold=True),
                   Text(x, y + 15, f"Paper {sheet.name.upper()} ({fmt_mm(sheet.width)} x {fmt_mm(sheet.height)}), "
                        f"bleed {fmt_mm(opts.bleed)}, duplex {opts.duplex}, {total} pages. "
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
