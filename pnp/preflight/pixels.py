"""The drawn pages as pixels: a kit's PDF rendered page by page at DPI with pypdfium2 (PDFium,
Apache-2.0/BSD-3), one page in memory at a time, and the mapping between page millimetres and pixels."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
from PIL import Image, ImageDraw

DPI = 300  # a print shop's resolution: a 0.09 mm line is about one pixel
MM_PER_INCH = 25.4


class Raster:
    """One rendered page: ``rgb``, an (h, w, 3) uint8 array, at ``dpi``."""

    def __init__(self, rgb: np.ndarray, dpi: float = DPI) -> None:
        self.rgb = rgb
        self.dpi = dpi

    def px(self, mm: float) -> int:
        """The pixel index of ``mm`` from the page's top or left edge (clamped to the page)."""
        return int(round(mm * self.dpi / MM_PER_INCH))

    def crop(self, box: tuple[float, float, float, float]) -> np.ndarray:
        """The pixels of ``box`` (x0, y0, x1, y1) mm, clipped to the page; possibly empty."""
        h, w = self.rgb.shape[:2]
        x0, y0 = max(0, self.px(box[0])), max(0, self.px(box[1]))
        x1, y1 = min(w, self.px(box[2])), min(h, self.px(box[3]))
        return self.rgb[y0:max(y0, y1), x0:max(x0, x1)]

    def part(self, p) -> np.ndarray:
        """The pixels of a placement's trim box (a pnp.core.ir.Placement), those outside a shaped
        part's cut outline (``p.cut.points``) white: what is cut out, not its neighbours' corners."""
        crop = self.crop((p.x, p.y, p.x + p.w, p.y + p.h))
        if not p.cut.points or crop.size == 0:
            return crop
        x0, y0 = max(0, self.px(p.x)), max(0, self.px(p.y))
        mask = Image.new("1", (crop.shape[1], crop.shape[0]), 0)
        ImageDraw.Draw(mask).polygon([(self.px(p.x + x) - x0, self.px(p.y + y) - y0) for x, y in p.cut.points], fill=1)
        out = crop.copy()
        out[~np.asarray(mask, dtype=bool)] = 255
        return out


def rendered(pdf: Path, dpi: float = DPI) -> Iterator[Raster]:
    """Every page of ``pdf`` rendered at ``dpi`` in RGB, in order, one at a time (the caller checked
    the pixels per page before: pnp.layout.limits.check_preflight)."""
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            page.close()
            yield Raster(np.asarray(image), dpi)
    finally:
        doc.close()
