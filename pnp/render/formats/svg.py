"""``--format svg`` and ``--format cut-svg``: one SVG file per imposed page (pnp.render.svg), a
page drawn once per build and reused while unchanged (pnp.render.pagememo)."""
from __future__ import annotations

import re
from pathlib import Path

from ...core.safepath import write_bytes
from ..pagememo import FontStamps, page_text
from ..svg import svg_text
from .base import SVG_TEXT_MODES, KitWriter, Page, WriteJob  # noqa: F401  (SVG_TEXT_MODES: its option's values)

class PageSvgWriter(KitWriter):
    """One SVG file per page, named ``<folder>/<stem>-pNN<suffix>.svg`` (``cut``: a cutter SVG;
    ``settings.svg_text == "outlines"``: text as glyph outlines, ``--svg-text outlines``)."""
    suffix = ""
    only_pages_with_parts = False
    cut = False
    options = ("svg_text",)

    def __init__(self, job: WriteJob) -> None:
        super().__init__(job)
        self.fonts = FontStamps()  # each face's bytes hashed once per build

    def page(self, number: int, page: Page) -> None:
        if self.only_pages_with_parts and not page.placements:
            return
        rel = Path(self.folder) / f"{self.job.stem}-p{number:0{self.job.page_digits}d}{self.suffix}.svg"
        page, about = self.prepared(page), self.job.describe(number, page)
        outlines = self.job.settings.svg_text == "outlines"
        text = page_text(page, self.fonts, (*about, str(self.cut), str(outlines)),
                         lambda: svg_text(page, *about, cut=self.cut, cache=self.job.cache, outlines=outlines))
        write_bytes(self.job.staging, rel.as_posix(), text.encode("utf-8"))
        self.written.append(rel)

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"{cls.folder}/{stem}-p\d+{re.escape(cls.suffix)}\.svg"


class SvgKitWriter(PageSvgWriter):
    """One SVG per page: ``svg/<stem>-pNN.svg``."""
    folder = "svg"
    seconds_per_page = 0.0015
    seconds_per_part = 210e-6


class CutSvgKitWriter(PageSvgWriter):
    """Cutter SVGs for pages with parts: ``cut/<stem>-pNN-cut.svg`` (layers "cut" and "art")."""
    folder = "cut"
    suffix = "-cut"
    only_pages_with_parts = True
    cut = True
