"""``--format pdf``: the whole kit as one PDF, ``<stem>.pdf`` (pnp.render.pdf); under `pnp watch`
unchanged pages are spliced in from the last build (pnp.render.pdfsplice)."""
from __future__ import annotations

from pathlib import Path

from ...core.memo import active
from ...core.safepath import checked_path
from ..pdf import PdfWriter
from ..pdfsplice import SplicingPdfWriter
from .base import PDF_METADATA, KitWriter, Page, WriteJob


class PdfKitWriter(KitWriter):
    """The whole kit as one PDF: ``<stem>.pdf``."""
    options = ("press", "pdfx")
    seconds_per_page = 0.0005
    seconds_per_part = 35e-6

    def __init__(self, job: WriteJob) -> None:
        super().__init__(job)
        self.path = checked_path(job.staging, f"{job.stem}.pdf")  # reportlab opens it (and its chunks) by name
        meta = job.metadata
        options = dict(duplex=job.opts.duplex, **{k: meta[k] for k in PDF_METADATA if k in meta})
        if active() is not None and job.settings.press is None:  # `pnp watch`: unchanged pages are reused
            self.pdf = SplicingPdfWriter(job.staging, self.path.name, **options)
        else:
            self.pdf = PdfWriter(self.path, **options, **job.settings.pdf_colour)

    def page(self, number: int, page: Page) -> None:
        self.pdf.add(self.prepared(page))

    def finish(self) -> list[Path]:
        self.pdf.close()
        return [Path(self.path.name)]

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"{stem}\.pdf"
