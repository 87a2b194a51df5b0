"""Pages and fill of every kit's component sheets, per paper: what a player prints.

Fill of a sheet = area of the parts' trims on it / printable area of the sheet (sheet less its
margins). Cover pages are not counted. Run against any checkout (it finds pnp's modules under
their old or new names):

    PYTHONPATH=/path/to/checkout python bench/page_fill.py [a4 letter a3]
"""
from __future__ import annotations

import sys

try:  # the build plan (after eb425f2)
    from pnp.pipeline.plan import Request, load_paper, plan
    from pnp.layout.paper import load_sheet

    def prepare(game: str):
        return plan([game], Request(load_paper("a4"))).targets[0]
except ImportError:  # the flat layout of b06101b
    from pnp.kit import prepare
    from pnp.layout.sheets import load_sheet
from pnp.engine import registry
from pnp.layout.impose import effective_options
from pnp.layout.kitpacking import pack_kit
from pnp.layout.options import ImposeOptions
from pnp.layout.packing import BoardBlock


def sheet_fills(game: str, paper: str) -> list[tuple[float, str]]:
    """(fill 0..1, names of the components on it) of every component sheet of ``game`` on ``paper``."""
    p = prepare(game)
    sheet = load_sheet(paper)
    opts = effective_options(p.components, ImposeOptions())
    sheets = pack_kit(p.components, sheet, opts).sheets
    _, _, pw, ph = sheet.printable
    out = []
    for s in sheets:
        area = sum(b.w * b.h if isinstance(b, BoardBlock) else b.count * b.w * b.h for b in s.blocks)
        names = ", ".join(p.components[c].name for c in s.components())
        out.append((area / (pw * ph), names))
    return out


def main(papers: list[str]) -> None:
    for paper in papers:
        print(f"## {paper}")
        for game in sorted(registry()):
            fills = sheet_fills(game, paper)
            shown = " ".join(f"{f * 100:.0f}%" for f, _ in fills)
            print(f"{game:9} {len(fills):2} sheets  fill {shown}")
            for i, (f, names) in enumerate(fills, 1):
                print(f"{'':13}{i:2}: {f * 100:5.1f}%  {names}")


if __name__ == "__main__":
    main(sys.argv[1:] or ["a4", "letter", "a3"])
