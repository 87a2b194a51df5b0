"""A kit packed onto sheets once: the plan packs it, and the cover (its page lists) and the
imposition (its pages) both use that one packing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from ..core.ir import Component
from .fold import FoldSheet, folds, pack_folded
from .options import ImposeOptions
from .packing import SheetPlan, grid_for, pack
from .paper import Sheet
from .tiling import Tiling


@dataclass(frozen=True, eq=False)
class Packing:
    """Where every part of a kit goes, before any page is drawn: ``sheets`` in print order (a
    SheetPlan per sheet of fronts, a FoldSheet for parts printed beside their fold-over backs) and
    ``tilings``, each board's cut into pieces by component index."""
    sheets: tuple[SheetPlan | FoldSheet, ...]
    tilings: Mapping[int, Tiling]

    def components_by_sheet(self) -> list[list[int]]:
        """Per sheet, the indices of the components printed on it, in kit order."""
        return [s.components() for s in self.sheets]


def pack_kit(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> Packing:
    """Pack the kit's parts and board pieces onto ``sheet`` (pnp.layout.packing; with duplex "fold",
    parts with backs beside their backs, pnp.layout.fold). ``opts`` are the effective options.

    Raises:
        LayoutError: a component that is not a board does not fit the sheet.
    """
    for comp in components:
        if not comp.board:
            grid_for(comp, sheet, opts.bleed)  # raises when it does not fit
    if opts.duplex == "fold":  # parts with backs on fold-over sheets, the rest as usual
        sheets, tilings = pack([replace(c, fronts=()) if folds(c) else c for c in components], sheet, opts)
        sheets = sorted(sheets + pack_folded(components, sheet, opts), key=lambda p: p.main())
    else:
        sheets, tilings = pack(components, sheet, opts)
    return Packing(tuple(sheets), dict(tilings))
