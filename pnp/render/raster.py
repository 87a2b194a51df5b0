"""Raster output through pypdfium2 (PDFium; Apache-2.0/BSD-3): page previews, contact sheets and
single-face images (RGB PNG).

Bounds, checked before anything is rendered (so memory stays under about 0.5 GB at any dpi and any
page count):

* a page image is at most :data:`MAX_PIXELS` (40 megapixels: A4 or Letter at 600 dpi, A3 or Tabloid
  at 450 dpi); a larger one is refused with a LayoutError naming the page size and the highest dpi
  that fits, as soon as the first page is imposed (before the PDF is finished or anything rendered);
* pages are rendered and written one at a time in each worker process (every core by default,
  pnp.render.imagepool), each dropped before the next;
* the contact sheet shows at most :data:`CONTACT_MAX` pages (every page when there are no more,
  else that many spread evenly over the kit, first and last included, each labelled with its page
  number), each thumbnail fitting :data:`THUMB_BOX` pixels, in :data:`CONTACT_COLUMNS` columns: at most
  about 1,250 x 10,000 pixels. Thumbnails are pasted into it as their pages are rendered; none are kept.
"""
from __future__ import annotations

import io
import math
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw

from ..core.errors import LayoutError
from ..core.ir import Page
from ..core.safepath import open_write
from ..layout.limits import MAX_RASTER_PIXELS
from . import imagepool, png
from .pdf import PdfWriter

MAX_PIXELS = MAX_RASTER_PIXELS
"""Largest page image, in pixels (about 120 MB as RGB); the plan checks it first (pnp.layout.limits)."""
THUMB_BOX = (300, 600)
"""(width, height) in pixels a contact-sheet thumbnail fits in."""
CONTACT_COLUMNS = 4
CONTACT_MAX = 64
"""Most pages a contact sheet shows; a longer kit's sheet shows that many, spread evenly."""
_PAD, _LABEL = 10, 14


def check_page_pixels(width_mm: float, height_mm: float, dpi: float, number: int | None = None) -> None:
    """Refuse a page of ``width_mm`` x ``height_mm`` whose image at ``dpi`` would exceed MAX_PIXELS.

    Raises:
        LayoutError: naming the page, its size, the pixels and the highest dpi that fits.
    """
    _check_size(width_mm * 72 / 25.4, height_mm * 72 / 25.4, dpi, number)


def _check_size(w_pt: float, h_pt: float, dpi: float, number: int | None = None) -> None:
    pixels = (w_pt * dpi / 72.0) * (h_pt * dpi / 72.0)
    if pixels > MAX_PIXELS:
        which = f"page {number}, " if number else ""
        raise LayoutError(f"{which}a {w_pt / 72 * 25.4:.0f} x {h_pt / 72 * 25.4:.0f} mm page at {dpi:g} dpi would be "
                          f"{pixels / 1e6:.0f} megapixels (limit {MAX_PIXELS / 1e6:.0f}).", field="--dpi",
                          hint=f"use at most --dpi {max(1, int(dpi * math.sqrt(MAX_PIXELS / pixels)))} for this sheet")


def sample_pages(count: int, limit: int = CONTACT_MAX) -> list[int]:
    """0-based page indices a contact sheet of ``count`` pages shows: all of them up to ``limit``,
    else ``limit`` of them evenly spread, first and last included."""
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def _thumb_size(w: float, h: float) -> tuple[int, int]:
    scale = min(THUMB_BOX[0] / w, THUMB_BOX[1] / h)
    return max(1, round(w * scale)), max(1, round(h * scale))


class ContactSheet:
    """A contact sheet built one thumbnail at a time: ``sizes`` are the (width, height) of the pages
    it will show, in any unit; ``add()`` pastes a page image into its cell; ``save()`` writes it."""

    def __init__(self, sizes: list[tuple[float, float]], numbers: list[int]) -> None:
        self.thumbs = [_thumb_size(w, h) for w, h in sizes]
        self.numbers = numbers
        self.cols = max(1, min(CONTACT_COLUMNS, len(sizes)))
        rows = max(1, math.ceil(len(sizes) / self.cols))
        self.cell_h = max((h for _, h in self.thumbs), default=1) + _LABEL
        width = self.cols * (THUMB_BOX[0] + _PAD) + _PAD
        self.image = Image.new("RGB", (width, rows * (self.cell_h + _PAD) + _PAD), (128, 128, 128))
        self.draw = ImageDraw.Draw(self.image)

    def add(self, slot: int, thumb: Image.Image) -> None:
        """Paste ``thumb`` (a page image made by thumbnail() at ``self.thumbs[slot]``) into cell ``slot``,
        with its page number."""
        w, h = self.thumbs[slot]
        x = _PAD + (slot % self.cols) * (THUMB_BOX[0] + _PAD)
        y = _PAD + (slot // self.cols) * (self.cell_h + _PAD)
        self.image.paste(thumb, (x, y))
        self.draw.text((x, y + h + 1), f"p{self.numbers[slot]}", fill=(255, 255, 255))


def thumbnail(page: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``page`` scaled to ``size`` pixels for a contact sheet."""
    return page.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)


PAGES_PER_TASK = 4
"""Preview pages one worker renders at a time (fixed: the files do not depend on the number of workers)."""


@dataclass(frozen=True)
class _Pages:
    """What a worker needs to render some preview pages: the PDF, the 0-based page ``indices``, the
    dpi, where each PNG goes (``root``/``rels``) and the thumbnail size of each page the contact sheet
    shows (None for the others)."""
    pdf: Path
    indices: tuple[int, ...]
    dpi: float
    root: Path
    rels: tuple[str, ...]
    thumbs: tuple[tuple[int, int] | None, ...]


def _render_pages(task: _Pages) -> list[Image.Image | None]:
    """Render and write the task's pages; return their thumbnails (None where the sheet shows none)."""
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    doc = pdfium.PdfDocument(str(task.pdf))
    out = []
    try:
        for i, rel, size in zip(task.indices, task.rels, task.thumbs):
            page = doc[i]
            image = _render(page, task.dpi)
            page.close()
            _save_png(image, task.root, rel)
            out.append(thumbnail(image, size) if size else None)
            del image
    finally:
        doc.close()
    return out


def render_previews(pdf: Path, root: Path, folder: str, stem: str, dpi: float,
                    progress: Callable[[int, int], None] | None = None, workers: int | None = None) -> list[Path]:
    """Render every page of ``pdf`` to ``folder/<stem>-pNN.png`` and a contact sheet
    ``folder/<stem>-contact.png`` under ``root`` (written through pnp.core.safepath), within the
    bounds of this module, on ``workers`` processes (None: every core; pnp.render.imagepool), each
    page written as soon as it is rendered. Returns the paths written relative to ``root``, the
    contact sheet last.

    Raises:
        LayoutError: a page would exceed MAX_PIXELS at ``dpi`` (before any page is rendered).
        OutputError: a symlink or special file in the way, or a write error.
    """
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    doc = pdfium.PdfDocument(str(pdf))
    try:
        count = len(doc)
        for i in range(count):
            _check_size(*doc.get_page_size(i), dpi, i + 1)
        shown = sample_pages(count)
        slot = {index: n for n, index in enumerate(shown)}
        sheet = ContactSheet([doc.get_page_size(i) for i in shown], [i + 1 for i in shown])
    finally:
        doc.close()
    digits = max(2, len(str(count)))
    rels = [f"{folder}/{stem}-p{i + 1:0{digits}d}.png" for i in range(count)]
    tasks = [_Pages(pdf, tuple(idx), dpi, root, tuple(rels[i] for i in idx),
                    tuple(sheet.thumbs[slot[i]] if i in slot else None for i in idx))
             for idx in (range(start, min(start + PAGES_PER_TASK, count)) for start in range(0, count, PAGES_PER_TASK))]
    done = 0
    with closing(imagepool.stream(tasks, _render_pages, imagepool.workers_for(len(tasks), workers))) as results:
        for task, thumbs in zip(tasks, results):
            for i, thumb in zip(task.indices, thumbs):
                if thumb is not None:
                    sheet.add(slot[i], thumb)
                done += 1
                if progress:
                    progress(done, count)
    rel = f"{folder}/{stem}-contact.png"
    _save_png(sheet.image, root, rel)
    return [Path(r) for r in rels] + [Path(rel)]


def _render(page, dpi: float) -> Image.Image:
    """One PDF page as an RGB image at ``dpi``.

    Raises:
        LayoutError: the image would exceed MAX_PIXELS (before rendering).
    """
    _check_size(*page.get_size(), dpi)
    image = page.render(scale=dpi / 72.0, may_draw_forms=True).to_pil()
    return image if image.mode == "RGB" else image.convert("RGB")


def drawings_to_images(drawings, width: float, height: float, dpi: float):
    """Rasterise each Drawing (local coords 0..width x 0..height mm) to an RGB PIL image, in order.

    Raises:
        LayoutError: an image would exceed MAX_PIXELS.
    """
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    count = 0
    for d in drawings:
        writer.add(Page(width, height, tuple(d), "face"))
        count += 1
    writer.close()
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        for i in range(len(doc)):
            yield _render(doc[i], dpi)
    finally:
        doc.close()


def _save_png(image: Image.Image, root: Path, rel: str) -> None:
    with open_write(root, rel) as f:
        f.write(png.encode_image(image))
