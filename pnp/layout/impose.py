"""N-up imposition: a grid of components inside the printable area, with gutters, crop marks,
a footer and scale bar on every page, a bill-of-materials first page, and mirrored duplex backs.

Pages are produced lazily (a generator), so a deck of any size is imposed and written as a stream.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterator, Sequence

from ..errors import LayoutError
from ..ir import Circle, Component, Drawing, Group, Imposed, Page, Text
from ..units import fmt_mm
from . import marks
from .bleed import extend_for_bleed
from .cover import BomCover, Cover
from .options import ImposeOptions
from .sheets import Sheet
from .tiling import board_pages, board_piece_count

@dataclass(frozen=True)
class Grid:
    """An N-up grid: ``cols`` x ``rows`` cells; trim of cell (c, r) at (x0 + c*pitch_x, y0 + r*pitch_y)."""
    cols: int
    rows: int
    x0: float
    y0: float
    pitch_x: float
    pitch_y: float
    width: float
    height: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot(self, i: int) -> tuple[float, float]:
        """Top-left of the trim of the i-th slot (row-major)."""
        return (self.x0 + (i % self.cols) * self.pitch_x, self.y0 + (i // self.cols) * self.pitch_y)


def grid_for(comp: Component, sheet: Sheet, bleed: float = 0.0) -> Grid:
    """The largest N-up grid of ``comp`` that fits the content area with crop marks, centred.

    The gap between neighbours is the sheet's gutter, widened to 2 x bleed when bleed needs more.

    Raises:
        LayoutError: the component does not fit, naming by how many mm.
    """
    cx, cy, cw, ch = sheet.content_area
    _, reserve = sheet.mark_reserve(bleed)
    aw, ah = cw - 2 * reserve - 2 * bleed, ch - 2 * reserve - 2 * bleed
    gap = max(sheet.gutter, 2 * bleed)
    if comp.width > aw or comp.height > ah:
        over_w, over_h = max(0.0, comp.width - aw), max(0.0, comp.height - ah)
        raise LayoutError(
            f"component {comp.name!r} ({fmt_mm(comp.width)} x {fmt_mm(comp.height)}) does not fit the printable "
            f"area of {sheet.name} ({fmt_mm(aw)} x {fmt_mm(ah)} after margins, footer and crop marks) "
            f"by {fmt_mm(max(over_w, over_h))}.",
            field=comp.name, hint="make it smaller in the spec, or use a larger --paper (a3, tabloid)")
    cols = max(1, int((aw + gap + 1e-9) // (comp.width + gap)))
    rows = max(1, int((ah + gap + 1e-9) // (comp.height + gap)))
    bw = cols * comp.width + (cols - 1) * gap
    bh = rows * comp.height + (rows - 1) * gap
    return Grid(cols, rows, cx + (cw - bw) / 2, cy + (ch - bh) / 2, comp.width + gap, comp.height + gap,
                comp.width, comp.height)


def effective_options(components: Sequence[Component], opts: ImposeOptions) -> ImposeOptions:
    """``opts`` with duplex turned off when no component has a back: such a kit must not ask the
    printer for two-sided printing (board pieces would land back to back)."""
    if opts.duplex != "none" and not any(c.back is not None for c in components):
        return replace(opts, duplex="none")
    return opts


def _sides(opts: ImposeOptions) -> int:
    """Pages per sheet of paper: 2 in duplex mode (every front is followed by its back or a blank)."""
    return 2 if opts.duplex != "none" else 1


def _pages_of(comp: Component, sheet: Sheet, opts: ImposeOptions) -> int:
    if comp.board:
        return board_piece_count(comp, sheet, opts.overlap) * _sides(opts)
    per = grid_for(comp, sheet, opts.bleed).per_page
    return math.ceil(comp.count / per) * _sides(opts)


def plan_pages(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions,
               front_pages: int = 1) -> list[tuple[int, int]]:
    """For each component, (first page, page count), 1-based, after ``front_pages`` cover pages.

    Raises:
        LayoutError: a component that is not a board does not fit the sheet.
    """
    out, page = [], 1 + front_pages * _sides(opts)
    for comp in components:
        n = _pages_of(comp, sheet, opts)
        out.append((page, n))
        page += n
    return out


def impose(title: str, components: Sequence[Component], sheet: Sheet,
           opts: ImposeOptions = ImposeOptions(), cover: Cover | None = None
           ) -> tuple[int, list[tuple[int, int]], Iterator[Page]]:
    """Impose a kit: returns (total pages, per-component (first page, count), lazy page iterator).

    The ``cover`` pages come first (default: a bill-of-materials page); then every component in order. Each page has a footer
    "<title> — <component> — page i of n" and the 50 mm scale check. In duplex mode every page is
    followed by its back: mirrored backs for parts that have one, else a blank, so that fronts and
    backs always share a sheet of paper. Duplex is dropped when no component has a back.

    Raises:
        LayoutError: a component does not fit (checked before any page is made).
    """
    opts = effective_options(components, opts)
    cover = cover or BomCover(title)
    plan = plan_pages(components, sheet, opts, cover.count)
    total = plan[-1][0] + plan[-1][1] - 1 if plan else cover.count * _sides(opts)

    def blank(number: int, name: str) -> Page:
        x, y, w, h = sheet.printable
        text = f"{title} \u2014 back of page {number - 1} \u2014 page {number} of {total}"
        return Page(sheet.width, sheet.height, (Text(x + w / 2, y + h / 2, "this side intentionally left blank",
                                                     size_pt=9, anchor="middle", fill="#888888"),)
                    + marks.footer(sheet, text), name, side="back")

    def pages() -> Iterator[Page]:
        number = 1
        for page in cover.pages(components, plan, sheet, opts, total):
            yield page
            number += 1
            if opts.duplex != "none":
                yield blank(number, page.label)
                number += 1
        for comp in components:
            if comp.board:
                gen = board_pages(comp, sheet, opts.overlap)
            else:
                gen = component_pages(comp, sheet, opts)
            for part in gen:
                text = f"{title} \u2014 {comp.name}{' (backs)' if part.side == 'back' else ''} \u2014 page {number} of {total}"
                yield Page(sheet.width, sheet.height, part.items + marks.footer(sheet, text), comp.name,
                           trim_box=part.trim, bleed_box=part.bleed_box, placements=part.placements,
                           side=part.side, tile=part.tile)
                number += 1
                if opts.duplex != "none" and (comp.back is None or comp.board):
                    yield blank(number, comp.name)
                    number += 1

    return total, plan, pages()


def component_pages(comp: Component, sheet: Sheet, opts: ImposeOptions):
    """Yield an Imposed sheet for each sheet of ``comp``,
    each fronts sheet followed by its backs sheet when duplex is on."""
    grid = grid_for(comp, sheet, opts.bleed)
    per = grid.per_page
    b = opts.bleed
    offset, _ = sheet.mark_reserve(b)
    cm = sheet.crop_marks
    back = extend_for_bleed(comp.back, comp.width, comp.height, b) if comp.back is not None else None
    n_front = len(comp.fronts)
    total = comp.count
    for start in range(0, total, per):
        n = min(per, total - start)
        items: list = []
        placements = []
        for i in range(n):
            x, y = grid.slot(i)
            face = comp.fronts[(start + i) // comp.copies] if n_front else ()
            items.append(_place(extend_for_bleed(face, comp.width, comp.height, b), x, y, comp, b))
            placements.append((comp.name, x, y, comp.width, comp.height, comp.shape))
        used_cols = min(n, grid.cols)
        used_rows = math.ceil(n / grid.cols)
        xs = [grid.x0 + c * grid.pitch_x + d for c in range(used_cols) for d in (0, comp.width)]
        ys = [grid.y0 + r * grid.pitch_y + d for r in range(used_rows) for d in (0, comp.height)]
        bw = (used_cols - 1) * grid.pitch_x + comp.width
        bh = (used_rows - 1) * grid.pitch_y + comp.height
        block = (grid.x0 - b, grid.y0 - b, bw + 2 * b, bh + 2 * b)
        items.extend(marks.crop_marks(xs, ys, (grid.x0, grid.y0, bw, bh), offset, cm.length, cm.width))
        trim = (grid.x0, grid.y0, bw, bh)
        yield Imposed(tuple(items), "front", trim, (block if b > 0 else None), tuple(placements))
        if back is not None and opts.duplex != "none":
            yield _backs(comp, back, grid, n, sheet, opts)


def _backs(comp: Component, back: Drawing, grid: Grid, n: int, sheet: Sheet, opts: ImposeOptions):
    """The backs sheet for a fronts sheet of ``n`` parts, mirrored for the flip edge and shifted."""
    dx, dy = opts.back_offset
    b = opts.bleed
    items, placements = [], []
    xs, ys = [], []
    for i in range(n):
        x, y = grid.slot(i)
        if opts.duplex == "long":
            x = sheet.width - x - comp.width
        else:
            y = sheet.height - y - comp.height
        x, y = x + dx, y + dy
        items.append(_place(back, x, y, comp, b))
        placements.append((comp.name, x, y, comp.width, comp.height, comp.shape))
        xs.append(x)
        ys.append(y)
    x0, y0 = min(xs), min(ys)
    trim = (x0, y0, max(xs) + comp.width - x0, max(ys) + comp.height - y0)
    bleed_box = (trim[0] - b, trim[1] - b, trim[2] + 2 * b, trim[3] + 2 * b) if b > 0 else None
    return Imposed(tuple(items), "back", trim, bleed_box, tuple(placements))


CUT_GUIDE = "#9a9a9a"


def _place(drawing: Drawing, x: float, y: float, comp: Component, bleed: float) -> Group:
    """The drawing at (x, y), clipped to trim + bleed. Round parts get a thin grey cut circle at the
    trim, because crop marks can only show their bounding square."""
    children = tuple(drawing)
    if comp.shape == "circle":
        children += (Circle(comp.width / 2, comp.height / 2, comp.width / 2, fill=None, stroke=CUT_GUIDE,
                            stroke_width=0.12),)
    return Group(children, dx=x, dy=y, clip=(-bleed, -bleed, comp.width + 2 * bleed, comp.height + 2 * bleed))
