"""Raster output through PyMuPDF: page previews, contact sheets and single-face images (RGB PNG)."""
from __future__ import annotations

import io
import math
from pathlib import Path

import pymupdf
from PIL import Image

from ..ir import Page
from .pdf import PdfWriter


def pdf_pages_to_png(pdf: Path, out_dir: Path, stem: str, dpi: int, progress=None) -> list[Path]:
    """Render every page of ``pdf`` to ``out_dir/<stem>-pNN.png`` at ``dpi``; return the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    with pymupdf.open(pdf) as doc:
        width = max(2, len(str(doc.page_count)))
        for i, page in enumerate(doc, start=1):
            pix = page.get_pixmap(dpi=dpi, alpha=False)
            path = out_dir / f"{stem}-p{i:0{width}d}.png"
            _save_png(Image.frombytes("RGB", (pix.width, pix.height), pix.samples), path)
            paths.append(path)
            if progress:
                progress(i, doc.page_count)
    return paths


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
    zoom = pymupdf.Matrix(dpi / 72.0, dpi / 72.0)
    with pymupdf.open(stream=buf.getvalue(), filetype="pdf") as doc:
        for page in doc:
            pix = page.get_pixmap(matrix=zoom, alpha=False)
            yield Image.frombytes("RGB", (pix.width, pix.height), pix.samples)


def _save_png(image: Image.Image, path: Path) -> None:
    image.save(path, format="PNG", optimize=False)
