"""``--format preview``: every page of the PDF as PNG and a contact sheet (pnp.render.raster)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...core.ir import Component
from .base import KitWriter, Page, WriterSettings
from .pdf import PdfKitWriter

SECONDS_PER_PAGE_50DPI = 0.03


class PreviewKitWriter(KitWriter):
    """Every page of the PDF as PNG at ``settings.dpi`` plus a contact sheet:
    ``preview/<stem>-pNN.png`` and ``preview/<stem>-contact.png`` (bounded in pixels and memory:
    see pnp.render.raster; a long kit's contact sheet shows a sample of its pages)."""
    folder = "preview"
    requires = ("pdf",)
    options = ("dpi", "workers")

    def page(self, number: int, page: Page) -> None:
        from ..raster import check_page_pixels  # pypdfium2 and Pillow: this format only
        check_page_pixels(page.width, page.height, self.job.settings.dpi, number)

    def finish(self) -> list[Path]:
        from ..raster import render_previews  # see page()
        return render_previews(self.job.staging / f"{self.job.stem}.pdf", self.job.staging, self.folder,
                               self.job.stem, self.job.settings.dpi, workers=self.job.settings.workers)

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"preview/{stem}-(p\d+|contact)\.png"

    @classmethod
    def seconds(cls, pages: int, components: Sequence[Component], settings: WriterSettings) -> float:
        """Each page rendered from the PDF at ``settings.dpi``: growing with dpi squared (a wall-clock
        time, so it errs high)."""
        return pages * (PdfKitWriter.seconds_per_page + SECONDS_PER_PAGE_50DPI * (settings.dpi / 50) ** 2)

    @classmethod
    def pixels(cls, sheet, settings: WriterSettings) -> tuple[int, str, float]:
        """A page at ``settings.dpi``."""
        dpi = settings.dpi
        return int((sheet.width / 25.4 * dpi) * (sheet.height / 25.4 * dpi)), "--format preview", dpi
