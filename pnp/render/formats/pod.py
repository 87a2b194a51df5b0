"""``--format pod``: print-on-demand files for a print service (pnp.render.pod)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ...core.errors import SpecError
from ...core.ir import Component
from .base import KitWriter, WriterSettings


class PodKitWriter(KitWriter):
    """Print-on-demand files for ``settings.service`` (a pnp.render.pod.Service): per card-like
    component one PNG per face and back with bleed, a per-card PDF and a contact sheet with the safe
    area: ``pod/<stem>/<stem>-<part>…`` (see pnp.render.pod). Costed per part (each card's images
    drawn), not per page."""
    folder = "pod"
    takes_cutter = False
    options = ("service", "workers", "press", "pdfx")
    seconds_per_page = 0.0
    seconds_per_part = 0.05

    @classmethod
    def unserved(cls, components: Sequence[Component], settings: WriterSettings) -> list[tuple[str, str]]:
        """The components the service takes none of; every card's image size checked before any is drawn.

        Raises:
            SpecError: no --service; LayoutError: a card's images too large (pnp.render.pod.check_size).
        """
        from ..pod import SERVICES, check_size, why_not  # Pillow and the raster path: this format only
        if settings.service is None:
            raise SpecError("--format pod needs --service.", field="--service",
                            hint=f"add --service {' | '.join(SERVICES)} (or custom:DPI,BLEED,SAFE)")
        for comp in components:
            if why_not(comp) is None:
                check_size(comp, settings.service)
        return [(c.name, why) for c in components if (why := why_not(c, settings.service))]

    def finish(self) -> list[Path]:
        from ..pod import why_not, write_component  # see unserved()
        service = self.job.settings.service
        for comp in self.job.components:
            if why_not(comp) is None:
                self.written += [p.relative_to(self.job.staging) for p in
                                 write_component(comp, service, self.job.kit_folder(f"{self.folder}/{self.job.stem}"),
                                                 self.job.stem, self.job.settings.workers,
                                                 **self.job.settings.pdf_colour)]
        return self.written

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"pod/{stem}/{stem}-[a-z0-9_-]+\.(png|pdf)"
