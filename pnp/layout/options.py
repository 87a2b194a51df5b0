"""How to impose a kit: bleed, duplex and back offset, validated in one place."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import SpecError

DUPLEX_MODES = ("none", "long", "short")
MAX_BLEED = 10.0        # mm: a print shop asks for 3; more is a typo
MAX_BACK_OFFSET = 20.0  # mm: printers are off by 1-4 mm


@dataclass(frozen=True)
class ImposeOptions:
    """How to impose: ``bleed`` in mm (0..10), ``duplex`` "none" | "long" | "short" (the flip edge),
    ``back_offset`` (dx, dy) in mm (each at most 20) added to back sheets to correct a printer's
    misregistration, ``overlap`` of poster pieces in mm.

    Raises:
        SpecError: on construction, naming the command-line option that is out of range.
    """
    bleed: float = 0.0
    duplex: str = "none"
    back_offset: tuple[float, float] = (0.0, 0.0)
    overlap: float = 10.0

    def __post_init__(self) -> None:
        if self.duplex not in DUPLEX_MODES:
            raise SpecError(f"duplex {self.duplex!r} is not none, long or short.", field="--duplex",
                            hint="use --duplex long (flip on the long edge), short, or none")
        if not (math.isfinite(self.bleed) and 0 <= self.bleed <= MAX_BLEED):
            raise SpecError(f"bleed {self.bleed:g} mm is outside 0..{MAX_BLEED:g} mm.", field="--bleed",
                            hint="a print shop wants 3 mm; home printing 0-2 mm")
        if len(self.back_offset) != 2 or not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET
                                                 for v in self.back_offset):
            raise SpecError(f"back offset {self.back_offset} is more than {MAX_BACK_OFFSET:g} mm.",
                            field="--back-offset", hint="printers are off by 1-4 mm; measure it with `pnp calibrate`")
        if not (math.isfinite(self.overlap) and 0 < self.overlap <= 50):
            raise SpecError(f"overlap {self.overlap:g} mm is outside 0..50 mm.", field="overlap")
