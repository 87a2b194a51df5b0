"""``--format cricut``: Cricut Print Then Cut images and cut SVGs, the output of ``--cutter cricut``
(pnp.render.cricut)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

from ...core.errors import SpecError
from ...core.ir import Component
from ...layout.limits import CRICUT_DPI
from .base import KitWriter, Page, WriteJob, WriterSettings


class CricutKitWriter(KitWriter):
    """Cricut Print Then Cut (``--cutter cricut``): per front sheet with parts, the parts as one
    transparent PNG within Design Space's Print Then Cut area and a cut SVG in the same coordinates,
    plus the sizes to set (``cricut/<stem>-pNN.png|svg``, ``cricut/<stem>.txt``, the stem ending in
    "-cricut"; see pnp.render.cricut). Costed as a 300 dpi render per page."""
    folder = "cricut"
    options = ("cutter", "workers")
    seconds_per_page = 0.2
    seconds_per_part = 500e-6

    def __init__(self, job: WriteJob) -> None:
        super().__init__(job)
        self.sheets: list = []

    @classmethod
    def unserved(cls, components: Sequence[Component], settings: WriterSettings) -> list[tuple[str, str]]:
        cutter = settings.cutter
        if getattr(cutter, "output_format", None) != cls.name:
            raise SpecError("--format cricut is the Print Then Cut output of --cutter cricut.", field="--format",
                            hint="use --cutter cricut instead of --format cricut")
        unfit = [(c.name, f"{c.width:g} x {c.height:g} mm, larger than {cutter.title}'s Print Then Cut area "
                          f"({cutter.width:g} x {cutter.height:g} mm)") for c in components
                 if not c.board and not cutter.fits(c.width, c.height)]
        if unfit and len(unfit) == len(components):
            raise SpecError(f"--cutter cricut can cut none of the parts: {'; '.join(f'{n} ({why})' for n, why in unfit)}.",
                            field="--cutter", hint="print the PDF without --cutter and cut by hand, or make the parts "
                                                   "smaller")
        return unfit

    @classmethod
    def warnings(cls, components: Sequence[Component], settings: WriterSettings) -> list[str]:
        backed = [c.name for c in components if c.back is not None]
        return [f"--cutter cricut: Design Space prints one side, so the Print Then Cut images hold the fronts only; "
                f"no back is printed for {', '.join(backed)}."] if backed else []

    @classmethod
    def pixels(cls, sheet, settings: WriterSettings) -> tuple[int, str, float]:
        """A Print Then Cut image: at most the cutter's area (``settings.cutter``, a
        pnp.layout.cutter_marks.Cricut) at CRICUT_DPI."""
        cutter = settings.cutter
        w, h = (sheet.width, sheet.height) if cutter is None else (min(sheet.width, cutter.width),
                                                                   min(sheet.height, cutter.height))
        return math.ceil(w / 25.4 * CRICUT_DPI) * math.ceil(h / 25.4 * CRICUT_DPI), "--cutter cricut", CRICUT_DPI

    def page(self, number: int, page: Page) -> None:
        from ..cricut import SheetJob, check_sheet  # Pillow and the raster path: this format only
        if page.side != "front" or not page.placements:
            return
        base = f"{self.job.stem}-p{number:0{self.job.page_digits}d}"
        check_sheet(page, self.job.settings.cutter, base)  # refused before any image is drawn
        self.sheets.append((number, SheetJob(page, self.job.settings.cutter, self.job.staging, self.folder, base,
                                             self.job.describe(number, page)[0])))

    def finish(self) -> list[Path]:
        from ..cricut import write_guide, write_sheets  # see page()
        if self.sheets:
            self.job.kit_folder(self.folder)
            made = write_sheets([job for _, job in self.sheets], self.job.settings.workers)
            sheets = [(number, sheet) for (number, _), sheet in zip(self.sheets, made)]
            for _, sheet in sheets:
                self.written += [sheet.png, sheet.svg]
            self.written.append(write_guide(sheets, self.job.settings.cutter, self.job.staging, self.folder,
                                            self.job.stem))
        return self.written

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"cricut/{stem}(-p\d+\.(png|svg)|\.txt)"
