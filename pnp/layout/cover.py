"""The kit's first pages: what the kit is and the bill of materials (every component with its
count, trim size and pages).

``impose`` asks a Cover how many pages it takes (``count``, known before the plan) and then for
those pages (``pages(...)``), once every component's pages are planned.
"""
from __future__ import annotations

from typing import Protocol, Sequence

from ..ir import Component, Line, Page, Text
from ..units import fmt_mm
from . import marks
from .options import ImposeOptions
from .sheets import Sheet


class Cover(Protocol):
    """Front matter of a kit: ``count`` pages, drawn by ``pages()`` once the plan is known."""
    count: int

    def pages(self, components: Sequence[Component], plan: list[tuple[int, int]], sheet: Sheet,
              opts: ImposeOptions, total: int) -> list[Page]: ...


class BomCover:
    """A one-page cover: the title and the bill of materials."""
    count = 1

    def __init__(self, title: str) -> None:
        self.title = title

    def pages(self, components, plan, sheet, opts, total) -> list[Page]:
        return [bom_page(self.title, components, plan, sheet, opts, total)]


def bom_page(title: str, components: Sequence[Component], plan, sheet: Sheet, opts: ImposeOptions, total: int) -> Page:
    """Page 1: the bill of materials — every component with its count, trim size and pages."""
    x, y, w, _ = sheet.printable
    items: list = [Text(x, y + 8, f"{title} \u2014 print-and-play kit", size_pt=18, bold=True),
                   Text(x, y + 15, f"Paper {sheet.name.upper()} ({fmt_mm(sheet.width)} x {fmt_mm(sheet.height)}), "
                        f"bleed {fmt_mm(opts.bleed)}, duplex {opts.duplex}, {total} pages. "
                        "Print at 100 % / Actual size.", size_pt=9),
                   Text(x, y + 26, "Bill of materials", size_pt=13, bold=True)]
    cols = (x, x + 60, x + 80, x + 125)
    heads = ("component", "count", "trim size", "pages")
    row_y = y + 34
    for cx, head in zip(cols, heads):
        items.append(Text(cx, row_y, head, size_pt=9, bold=True))
    items.append(Line(x, row_y + 1.5, x + w, row_y + 1.5, stroke_width=0.2))
    for comp, (first, n) in zip(components, plan):
        row_y += 6
        size = f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle" else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}"
        pages = f"{first}" if n == 1 else f"{first}\u2013{first + n - 1}"
        for cx, value in zip(cols, (comp.name, str(comp.count), size, pages)):
            items.append(Text(cx, row_y, value, size_pt=9))
        if comp.note:
            row_y += 4.5
            items.append(Text(x + 4, row_y, comp.note, size_pt=7.5, fill="#444444"))
    row_y += 12
    for line in ("Cut on the crop marks (short lines outside each part). Check the scale bar below before cutting.",
                 "Round parts have a thin grey cut circle. Boards larger than the paper come in pieces: trim each piece's",
                 "\"trim off\" strip along the dashed line, lay that edge on the neighbour's dashed line (\"glue\" strip), glue."):
        items.append(Text(x, row_y, line, size_pt=8.5))
        row_y += 5
    text = f"{title} \u2014 bill of materials \u2014 page 1 of {total}"
    return Page(sheet.width, sheet.height, tuple(items) + marks.footer(sheet, text), "bill of materials")
