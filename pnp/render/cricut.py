"""Cricut Print Then Cut files (``--cutter cricut``): what Design Space takes from its own software.

Design Space prints its own sensor marks around an image it is given and cuts round the image's
opaque shapes, so pnp prints no marks. Per front sheet with parts it writes, in ``cricut/``:

- ``<stem>-pNN.png``: the sheet's parts as one RGBA image at ``DPI`` (300), cropped to the
  parts on the pixel grid of the page: each part opaque over exactly its cut outline (its artwork on
  white), everything else (gutters, crop marks, footer) transparent, so the outline Design Space
  traces is the part's trim. The image is at most the Print Then Cut area
  (pnp.layout.cutter_marks.Cricut, 171.45 x 234.95 mm);
- ``<stem>-pNN.svg``: the same parts' cut outlines (layer "cut", hairline red) in the
  image's coordinates, width and height in mm equal to the image's (a reference, or a Basic Cut);
- ``<stem>.txt``: how to upload them, with each image's size to type into Design Space
  (in, mm), because Design Space does not take an image's size from its dpi.

The figures and sources are in docs/print.md ("Print-then-cut").
"""
from __future__ import annotations

import io
import math
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw

from ..core.errors import PnpError
from ..core.ir import Circle, Group, Page, Polygon
from ..core.safepath import write_bytes
from ..layout.cutter_marks import Cricut
from . import imagepool, png
from .pdf import PdfWriter
from .svg import cut_outlines, svg_text

DPI = 300
MM_PER_IN = 25.4
CROP_SPARE = 2  # pixels rendered round the image's box, so rounding never cuts into it
SUPERSAMPLE = 4  # the opaque shapes are drawn 4x larger, then averaged: edge pixels carry their coverage


@dataclass(frozen=True)
class CricutSheet:
    """One written sheet: its PNG and SVG paths, ``origin`` (x, y) page mm of the image's top-left
    corner, ``size`` (w, h) mm of the image, ``parts`` how many cut outlines."""
    png: Path
    svg: Path
    origin: tuple[float, float]
    size: tuple[float, float]
    parts: int


def image_box(page: Page, dpi: int = DPI) -> tuple[int, int, int, int]:
    """(left, top, width, height) pixels of the page at ``dpi`` that hold every part's trim: the
    parts' bounding box widened to whole pixels."""
    px = dpi / MM_PER_IN
    x0 = min(p.x for p in page.placements)
    y0 = min(p.y for p in page.placements)
    x1 = max(p.x + p.w for p in page.placements)
    y1 = max(p.y + p.h for p in page.placements)
    left, top = math.floor(x0 * px + 1e-6), math.floor(y0 * px + 1e-6)
    return left, top, math.ceil(x1 * px - 1e-6) - left, math.ceil(y1 * px - 1e-6) - top


def _cut_shapes(page: Page, ox: float, oy: float) -> tuple:
    """The page's cut outlines (pnp.render.svg.cut_outlines) moved so (ox, oy) is the origin."""
    out = []
    for s in cut_outlines(page):
        if isinstance(s, Circle):
            out.append(replace(s, cx=s.cx - ox, cy=s.cy - oy))
        elif isinstance(s, Polygon):
            out.append(replace(s, points=tuple((x - ox, y - oy) for x, y in s.points)))
        else:
            out.append(replace(s, x=s.x - ox, y=s.y - oy))
    return tuple(out)


def _mask(shapes: Sequence, size: tuple[int, int], dpi: int) -> Image.Image:
    """An "L" image of ``size`` pixels: 255 inside the shapes (mm, image origin), 0 outside, the
    coverage in between."""
    k = SUPERSAMPLE * dpi / MM_PER_IN
    big = Image.new("L", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), 0)
    draw = ImageDraw.Draw(big)
    for s in shapes:
        if isinstance(s, Polygon):
            draw.polygon([(x * k, y * k) for x, y in s.points], fill=255)
        elif isinstance(s, Circle):
            draw.ellipse(((s.cx - s.r) * k, (s.cy - s.r) * k, (s.cx + s.r) * k - 1, (s.cy + s.r) * k - 1), fill=255)
        else:
            box = (s.x * k, s.y * k, (s.x + s.w) * k - 1, (s.y + s.h) * k - 1)
            if s.r > 0:
                draw.rounded_rectangle(box, radius=s.r * k, fill=255)
            else:
                draw.rectangle(box, fill=255)
    return big.resize(size, Image.BOX)


def _render(page: Page, box: tuple[int, int, int, int], dpi: int) -> Image.Image:
    """The page's artwork (no marks) at ``dpi``, cropped to ``box`` pixels, RGB on white. Only the box
    (and CROP_SPARE pixels round it) is rendered, so the pixels do not grow with the sheet: a 2 x 2 m
    sheet costs what its Print Then Cut image costs. PDFium renders the page at the same size and
    offset and clips, so the pixels are those of the whole page rendered and cropped, to within one
    level of anti-aliasing on a few edge pixels (tests/bad_input/test_bounded_work.py)."""
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    writer.add(page)
    writer.close()
    doc = pdfium.PdfDocument(buf.getvalue())
    left, top, w, h = box
    scale = dpi / 72
    try:
        pg = doc[0]
        full_w, full_h = math.ceil(pg.get_width() * scale), math.ceil(pg.get_height() * scale)
        cut = (max(0, left - CROP_SPARE) / scale, max(0, full_h - top - h - CROP_SPARE) / scale,
               max(0, full_w - left - w - CROP_SPARE) / scale, max(0, top - CROP_SPARE) / scale)
        px = [math.ceil(c * scale) for c in cut]  # the pixels PDFium cuts off, as pypdfium2 computes them
        img = pg.render(scale=scale, crop=cut, may_draw_forms=True).to_pil().convert("RGB")
    finally:
        doc.close()
    return img.crop((left - px[0], top - px[3], left - px[0] + w, top - px[3] + h))


def check_sheet(page: Page, cutter: Cricut, base: str, dpi: int = DPI) -> tuple[int, int, int, int]:
    """The image box (image_box) of one imposed front page, checked against ``cutter``'s area.

    Raises:
        PnpError: the parts do not fit ``cutter``'s Print Then Cut area (a sheet laid out without
            cutter_sheet's margin).
    """
    box = image_box(page, dpi)
    size_mm = (box[2] * MM_PER_IN / dpi, box[3] * MM_PER_IN / dpi)
    if size_mm[0] > cutter.width + 1e-6 or size_mm[1] > cutter.height + 1e-6:
        raise PnpError(f"{base}: the parts span {size_mm[0]:.2f} x {size_mm[1]:.2f} mm, more than {cutter.title}'s "
                       f"Print Then Cut area ({cutter.width:g} x {cutter.height:g} mm).", field="--cutter",
                       hint="build with --cutter cricut on A4 or Letter, whose margins keep the parts inside it")
    return box


@dataclass(frozen=True)
class SheetJob:
    """One sheet to write (the arguments of write_sheet), handed to a worker process."""
    page: Page
    cutter: Cricut
    root: Path
    folder: str
    base: str
    title: str = ""
    dpi: int = DPI


def _write_job(job: SheetJob) -> CricutSheet:
    return write_sheet(job.page, job.cutter, job.root, job.folder, job.base, job.title, job.dpi)


def write_sheets(jobs: Sequence[SheetJob], workers: int | None = None) -> list[CricutSheet]:
    """write_sheet for every job, on ``workers`` processes (None: every core; pnp.render.imagepool),
    each sheet's files written as soon as they are made; returns the sheets in job order. The files
    do not depend on the number of workers.

    Raises:
        PnpError: what write_sheet raised for the first failing job.
    """
    with closing(imagepool.stream(jobs, _write_job, imagepool.workers_for(len(jobs), workers))) as results:
        return list(results)


def write_sheet(page: Page, cutter: Cricut, root: Path, folder: str, base: str, title: str = "",
                dpi: int = DPI) -> CricutSheet:
    """Write ``base.png`` and ``base.svg`` for one imposed front page into
    ``root/folder`` (through pnp.core.safepath); return what was written, paths relative to ``root``.

    Raises:
        PnpError: the parts do not fit ``cutter``'s Print Then Cut area (check_sheet).
    """
    box = check_sheet(page, cutter, base, dpi)
    size_mm = (box[2] * MM_PER_IN / dpi, box[3] * MM_PER_IN / dpi)
    origin = (box[0] * MM_PER_IN / dpi, box[1] * MM_PER_IN / dpi)
    shapes = _cut_shapes(page, *origin)
    art = _render(page, box, dpi)
    # everything drawn outside a part (gutter, crop marks, footer) goes; a part's unpainted paper stays white
    art.putalpha(_mask(shapes, art.size, dpi))
    png_name, svg_name = f"{base}.png", f"{base}.svg"
    write_bytes(root, f"{folder}/{png_name}", png.encode_image(art, dpi))
    cut_page = Page(size_mm[0], size_mm[1], (Group(shapes, layer="cut"),), page.label)
    desc = (f"{cutter.title} Print Then Cut outlines of {png_name}: {len(shapes)} parts, "
            f"{size_mm[0]:.2f} x {size_mm[1]:.2f} mm, same coordinates as the image.")
    write_bytes(root, f"{folder}/{svg_name}", svg_text(cut_page, title, desc).encode("utf-8"))
    return CricutSheet(Path(folder, png_name), Path(folder, svg_name), origin, size_mm, len(shapes))


def write_guide(sheets: Sequence[tuple[int, CricutSheet]], cutter: Cricut, root: Path, folder: str, stem: str) -> Path:
    """Write ``root/folder/<stem>.txt``: the steps in Design Space and each image's size;
    return its path relative to ``root``."""
    lines = [
        f"Print Then Cut in {cutter.title}: one image per sheet of parts.",
        "",
        "1. Upload the image (Upload > Upload Image), keep its transparent background, and choose",
        "   Print Then Cut. Design Space cuts round each part's outline.",
        "2. On the canvas, unlock the size and type the width and height below (Design Space does not",
        "   read the image's 300 dpi). Never let it resize the image to fit.",
        "3. Make it: Design Space prints the image with its own sensor marks. Print at 100 % / Actual",
        "   size (never fit to page), then load the sheet and cut in the same Design Space session.",
        f"The images are at most {cutter.width / MM_PER_IN:g} x {cutter.height / MM_PER_IN:g} in "
        f"({cutter.width:g} x {cutter.height:g} mm), the Print Then Cut size every machine takes.",
        "The .svg beside each image holds the same cut outlines at the same size, to check the",
        "contours Design Space shows; do not add it as a second cut layer (it would cut twice).",
        "",
    ]
    for number, sheet in sheets:
        w, h = sheet.size
        lines.append(f"{sheet.png.name}: {w / MM_PER_IN:.3f} x {h / MM_PER_IN:.3f} in "
                     f"({w:.2f} x {h:.2f} mm), {sheet.parts} parts (page {number} of the PDF)")
    name = f"{stem}.txt"
    write_bytes(root, f"{folder}/{name}", ("\n".join(lines) + "\n").encode("utf-8"))
    return Path(folder, name)
