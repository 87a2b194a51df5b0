"""Does it fit: how many pages each board of a kit takes on a sheet, as validator findings.

Layout owns this question (games only describe their parts): `pnp build` reports it for the chosen
sheet, `pnp validate` for every standard paper. Source: docs/print.md ("boards larger than the
paper are tiled; A3 and Tabloid print them whole when they fit").
"""
from __future__ import annotations

from typing import Sequence

from ..core.findings import Finding, verdict
from ..core.ir import Component
from ..core.units import fmt_mm
from .paper import Sheet
from .tiling import DEFAULT_OVERLAP, piece_grid, rotated

RULE = "docs/print.md: boards larger than the paper are tiled"


def board_fit(components: Sequence[Component], sheets: Sequence[Sheet],
              overlap: float = DEFAULT_OVERLAP) -> list[Finding]:
    """One finding per board component and sheet: PASS when the board prints whole on one page
    (upright or turned a quarter turn), WARNING when it is split into poster pieces (which is
    fine, but means cutting and gluing).

    Raises:
        LayoutError: the overlap leaves no room on a sheet.
    """
    out = []
    for comp in components:
        if not comp.board:
            continue
        for sheet in sheets:
            cols, rows = piece_grid(comp, sheet, overlap)
            _, _, aw, ah = sheet.board_area
            size = f"{comp.name} {fmt_mm(comp.width)} x {fmt_mm(comp.height)}"
            where = f"{sheet.name.upper()} ({fmt_mm(aw)} x {fmt_mm(ah)} for a board)"
            if cols * rows == 1:
                turn = ", turned a quarter turn" if rotated(comp, sheet) else ""
                out.append(verdict(True, f"{size} fits one {where} page{turn}", RULE))
            else:
                out.append(verdict(False, f"{size} is split into {cols * rows} pieces ({cols} x {rows}) on {where}",
                                   RULE, warn=True))
    return out
