"""Raster output through pypdfium2 (PDFium; Apache-2.0/BSD-3): page previews, contact sheets and
single-face images (RGB PNG)."""
from __future__ import annotations

import io
import math
from pathlib import Path

from PIL import Image

from ..core.ir import Page
from .pdf import PdfWriter


def pdf_pages_to_png(pdf: Path, out_dir: Path, stem: str, dpi: int, progress=None) -> list[Path]:
    """Render every page of ``pdf`` to ``out_dir/<stem>-pNN.png`` at ``dpi``; return the paths."""
    import pypdfium2 as pdfium
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        count = len(doc)
        width = max(2, len(str(count)))
        for i in range(count):
            path = out_dir / f"{stem}-p{i + 1:0{width}d}.png"
            _save_png(_render(doc[i], dpi), path)
            paths.append(path)
            if progress:
                progress(i + 1, count)
    finally:
        doc.close()
    return paths


MAX_PIXELS = 60_000_000  # one page image; 300 dpi on A0 is 140 megapixels


def _render(page, dpi: float) -> Image.Image:
    """One PDF page as an RGB image at ``dpi``.

    Raises:
        LayoutError: the image would exceed MAX_PIXELS (a 2 m sheet at 300 dpi), before rendering.
    """
    w_pt, h_pt = page.get_size()
    pixels = (w_pt * dpi / 72.0) * (h_pt * dpi / 72.0)
    if pixels > MAX_PIXELS:
        from ..core.errors import LayoutError
        raise LayoutError(f"a {w_pt / 72 * 25.4:.0f} x {h_pt / 72 * 25.4:.0f} mm page at {dpi:g} dpi would be "
                          f"{pixels / 1e6:.0f} megapixels (limit {MAX_PIXELS / 1e6:.0f}).", field="--dpi",
                          hint="use a lower --dpi for large sheets")
    return page.render(scale=dpi / 72.0, may_draw_forms=True).to_pil().convert("RGB")


def contact_sheet(images: list[Path], path: Path, columns: int = 4, thumb_width: int = 300) -> Path:
    """Tile ``images`` as thumbnails, ``columns`` across, on a grey background; write an RGB PNG."""
    thumbs = []
    for p in images:
        with Image.open(p) as im:
            ratio = thumb_width / im.width
            thumbs.append(im.convert("RGB").resize((thumb_width, max(1, round(im.height * ratio)))))
    cols = min(columns, len(thumbs))
    rows = math.ceil(len(thumbs) / cols)
    cell_h = max(t.height for t in thumbs)
    pad = 10
    sheet = Image.new("RGB", (cols * (thumb_width + pad) + pad, rows * (cell_h + pad) + pad), (128, 128, 128))
    for i, t in enumerate(thumbs):
        sheet.paste(t, (pad + (i % cols) * (thumb_width + pad), pad + (i // cols) * (cell_h + pad)))
    _save_png(sheet, path)
    return path


def drawings_to_images(drawings, width: float, height: float, dpi: float):
    """Rasterise each Drawing (local coords 0..width x 0..height mm) to an RGB PIL image, in order."""
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    count = 0
    for d in drawings:
        writer.add(Page(width, height, tuple(d), "face"))
        count += 1
    writer.close()
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        for i in range(len(doc)):
            yield _render(doc[i], dpi)
    finally:
        doc.close()


def _save_png(image: Image.Image, path: Path) -> None:
    image.save(path, format="PNG", optimize=False)
