"""PNG files of rendered bitmaps, encoded by pypng: 8-bit RGB or RGBA, non-interlaced, with the
resolution in pHYs.

A rendered card is mostly flat colour, which deflate packs well without any row filter; pypng gives
every row filter type 0 ("None") and deflates at :data:`LEVEL`. Pillow's encoder tries all five
filters on every row (about two thirds of its time on a card image, whatever the level): the same
pixels, files within 10 % of Pillow's, in about 40 % of its time (a poker card at 300 dpi: 10
against 25 ms). The filter and the level change the file's size only, never what a print service
sees: The Game Crafter takes PNG (or JPG) uploads at its template's pixel size (TGC Design Guide,
"PNG uploads", docs/print.md); the pixel size and the 300 dpi in pHYs are what the services check
(docs/print.md, "Print-on-demand services").
"""
from __future__ import annotations

import io

import numpy as np
import png as pypng

LEVEL = 1
"""zlib level of the image data: level 6 takes about twice as long for files 3 to 10 % smaller."""
M_PER_IN = 0.0254


def encode(buffer, width: int, height: int, stride: int, channels: int = 3, dpi: float | None = None,
           level: int = LEVEL) -> bytes:
    """The PNG file of a bitmap: ``height`` rows of ``stride`` bytes in ``buffer`` (anything a
    memoryview takes, at least ``stride x height`` bytes), each row starting with ``width`` pixels
    of ``channels`` bytes (3: R, G, B; 4: R, G, B, A; the rest of the row is padding and ignored);
    ``dpi`` written as pHYs (pixels per metre). The rows are read in place, not copied.

    Raises:
        ValueError: ``channels`` is not 3 or 4, a size is not positive, or ``buffer`` is too short.
    """
    if channels not in (3, 4):
        raise ValueError(f"a PNG row of {channels} bytes a pixel is neither RGB nor RGBA")
    row = width * channels
    view = memoryview(buffer).cast("B")
    if width < 1 or height < 1 or stride < row or len(view) < stride * height:
        raise ValueError(f"a {width} x {height} bitmap needs {height} rows of at least {row} bytes")
    rows = np.frombuffer(view, np.uint8, stride * height).reshape(height, stride)[:, :row]
    per_metre = {"x_pixels_per_unit": round(dpi / M_PER_IN), "y_pixels_per_unit": round(dpi / M_PER_IN),
                 "unit_is_meter": True} if dpi else {}
    writer = pypng.Writer(width, height, greyscale=False, alpha=channels == 4, bitdepth=8, compression=level,
                          **per_metre)
    out = io.BytesIO()
    writer.write_packed(out, rows)
    return out.getvalue()


def encode_image(image, dpi: float | None = None, level: int = LEVEL) -> bytes:
    """The PNG file of a PIL image in mode RGB or RGBA (see encode).

    Raises:
        ValueError: another mode.
    """
    if image.mode not in ("RGB", "RGBA"):
        raise ValueError(f"a {image.mode} image is not RGB or RGBA")
    channels = len(image.mode)
    return encode(image.tobytes(), image.width, image.height, image.width * channels, channels, dpi, level)
