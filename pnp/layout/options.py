"""How to impose a kit: bleed, duplex and back offset, validated in one place."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core.errors import SpecError
from ..core.words import Words, english

DUPLEX_MODES = ("none", "long", "short", "fold")
# "fold": fold-over backs (the print-and-play "gutter fold"): fronts and backs side by side on one
# sheet about a fold line, printed one-sided (pnp/layout/fold.py); "long"/"short": two-sided printing.
MAX_BLEED = 10.0        # mm: a print shop asks for 3; more is a typo
MAX_BACK_OFFSET = 20.0  # mm: printers are off by 1-4 mm


@dataclass(frozen=True)
class ImposeOptions:
    """How to impose: ``bleed`` in mm (0..10), ``duplex`` "none" | "long" | "short" (the flip edge of a
    two-sided print) | "fold" (fold-over backs on one side of the paper), ``back_offset`` (dx, dy) in mm
    (each at most 20) added to back sheets to correct a printer's misregistration (two-sided only),
    ``overlap`` of poster pieces in mm, ``mix_papers``: parts of different paper (card stock, plain
    paper for boards) may share a sheet (by default never: pnp.layout.packing.paper_of), ``cut_lines``:
    a thin grey line drawn at the trim of round and rounded parts (off by default: cut lines belong in
    crop marks and cutter files, and a line over the artwork shows when a cut is off; docs/output.md).
    ``words``: pnp's own words in the kit's language (pnp.core.words), for everything imposition prints:
    footers, the scale check, fold and join labels (set per kit by pnp.pipeline.plan; English by default).

    Raises:
        SpecError: on construction, naming the command-line option that is out of range.
    """
    bleed: float = 0.0
    duplex: str = "none"
    back_offset: tuple[float, float] = (0.0, 0.0)
    overlap: float = 10.0
    mix_papers: bool = False
    cut_lines: bool = False
    words: Words = field(default=english, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.duplex not in DUPLEX_MODES:
            raise SpecError(f"duplex {self.duplex!r} is not one of {', '.join(DUPLEX_MODES)}.", field="--duplex",
                            hint="use --duplex long (flip on the long edge), short, fold (fold-over backs, "
                                 "one-sided), or none")
        if not (math.isfinite(self.bleed) and 0 <= self.bleed <= MAX_BLEED):
            raise SpecError(f"bleed {self.bleed:g} mm is outside 0..{MAX_BLEED:g} mm.", field="--bleed",
                            hint="a print shop wants 3 mm; home printing 0-2 mm")
        if len(self.back_offset) != 2 or not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET
                                                 for v in self.back_offset):
            raise SpecError(f"back offset {self.back_offset} is more than {MAX_BACK_OFFSET:g} mm.",
                            field="--back-offset", hint="printers are off by 1-4 mm; measure it with `pnp calibrate`")
        if self.duplex == "fold" and any(self.back_offset):
            raise SpecError("a back offset corrects two-sided printing; fold-over backs are printed on one side.",
                            field="--back-offset", hint="drop --back-offset, or use --duplex long or short")
        if not (math.isfinite(self.overlap) and 0 < self.overlap <= 50):
            raise SpecError(f"overlap {self.overlap:g} mm is outside 0..50 mm.", field="overlap")
