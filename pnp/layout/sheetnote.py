"""The build note of how many of each part a sheet holds, and why fewer when the paper could hold more.

pnp.layout.packing lays the parts out; this says, per part, what a sheet of it alone holds ("cols x
rows") and what takes the room when that is fewer than fit: the bleed, a cutting machine's margin
for its registration marks and its gutter, or the footer and crop marks on a paper whose printable
area would take more trims edge to edge (README, Printing: "why fewer when they could be more").
"""
from __future__ import annotations

from typing import Sequence

from ..core.errors import LayoutError
from ..core.ir import Component
from ..core.units import fmt_mm
from .options import ImposeOptions
from .nesting import is_hex
from .packing import Grid, choose_footer, grid_for
from .paper import Sheet
from .sheetspace import EPS


def sheet_counts(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions, cutter: str | None = None,
                 plain: Sheet | None = None) -> str | None:
    """One line for the build's notes: how many of each part (not boards) a sheet of ``sheet`` holds
    on its own, as "cols x rows", and why when fewer than the paper could hold (:func:`_why_fewer`);
    on a cutting machine's sheet (``sheet.butt`` false) a closing sentence says what ``cutter`` (the
    machine's marks or area, in words) takes, against ``plain``, the paper without it. None when the
    kit has no such parts. Fold-over parts are counted as printed beside their backs
    (pnp/layout/fold.py) and not here."""
    parts = [c for c in components if not c.board and c.count and not (opts.duplex == "fold" and c.back is not None)]
    if not parts:
        return None
    said, cut = [], False
    for comp in parts:
        try:
            paper = choose_footer([comp], sheet, opts)
            grid = grid_for(comp, paper, opts.bleed)
        except LayoutError:
            continue
        why, by_cutter = _why_fewer(comp, sheet, paper, grid, opts, plain)
        cut |= by_cutter
        side = ", footer along the side" if paper.footer == "side" else ""
        said.append(f"{comp.name} {grid.per_page} ({grid.cols} x {grid.rows}{side}"
                    + (f"; {'; '.join(why)}" if why else "") + ")")
    if not said:
        return None
    note = f"per {sheet.name} sheet: " + ", ".join(said) + "."
    if cut:
        _, _, pw, ph = sheet.printable
        note += (f" {cutter or 'The cutter'} keeps parts {fmt_mm(sheet.margin)} from the paper's edges "
                 f"({_size(pw, ph)} for parts), and {fmt_mm(sheet.gutter)} apart so it cuts each alone.")
    return note


def _size(w: float, h: float) -> str:
    return f"{round(w, 2):g} x {fmt_mm(h)}"


def _why_fewer(comp: Component, sheet: Sheet, paper: Sheet, grid: Grid, opts: ImposeOptions,
               plain: Sheet | None) -> tuple[list[str], bool]:
    """Why ``comp``'s ``grid`` on ``paper`` (``sheet`` with its footer placed) holds fewer than could
    be, and whether a cutting machine's sheet is the reason: the bleed (the count without it); a
    cutting machine's sheet (``sheet.butt`` false: the count on ``plain``, without the machine, or
    butted); and, for parts set in a grid whose printable area would take more trims butted edge to
    edge, the room the footer and the crop marks leave and which way it runs out."""
    why, by_cutter = [], False
    if opts.bleed > 0:
        flat = choose_footer([comp], sheet, ImposeOptions())
        most = grid_for(comp, flat, 0.0).per_page
        if most > grid.per_page:
            why.append(f"{most} without the {fmt_mm(opts.bleed)} bleed")
    if not sheet.butt:
        base = plain if plain is not None else sheet.model_copy(update={"butt": True})
        most = grid_for(comp, choose_footer([comp], base, ImposeOptions()), 0.0).per_page
        if most > grid.per_page:
            by_cutter = plain is not None
            why.append(f"{most} without --cutter" if by_cutter else f"{most} without a gutter between parts for the cutter")
    _, _, pw, ph = sheet.printable
    across, down = int((pw + EPS) // comp.width), int((ph + EPS) // comp.height)
    nested = is_hex(comp.cut_shape.points, comp.width, comp.height)
    if not why and not nested and across * down > grid.per_page:
        _, _, cw, ch = paper.part_area(opts.bleed)
        _, reserve = paper.mark_reserve(opts.bleed)
        aw, ah = cw - 2 * reserve - 2 * opts.bleed, ch - 2 * reserve - 2 * opts.bleed
        short = [f"{grid.cols} across" if grid.cols < across else "", f"{grid.rows} down" if grid.rows < down else ""]
        why.append(f"{sheet.name}'s printable area, {_size(pw, ph)}, takes {across} x {down} trims, but the footer "
                   f"and the crop marks leave {_size(aw, ah)}: room for {' and '.join(x for x in short if x)}")
    return why, by_cutter
