"""Reading a photo or scan for ``pnp calibrate --measure``: an untrusted file, bounded before it is
decoded.

Only a regular file of at most MAX_BYTES is read (pnp.inputs.safefile.read_regular); Pillow reads its
header first and a picture of more than MAX_PIXELS is refused before its pixels are decoded. A phone
photo's EXIF orientation is applied; the picture comes back grey, 8 bits, no larger than WORK_SIDE
pixels on its long side (a photo past that is reduced: ~10 px per mm of an A4 sheet is plenty).
"""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from ..core.errors import PnpError
from ..inputs.safefile import NotRegular, read_regular

MAX_BYTES = 80 * 1024 * 1024
MAX_PIXELS = 100_000_000
MIN_SIDE = 200       # pixels: a smaller picture cannot show 2 mm cells
WORK_SIDE = 3200     # pixels on the long side the marks are looked for at


def load_grey(path: Path) -> np.ndarray:
    """The picture at ``path`` as a (rows, cols) uint8 array, EXIF-orientation applied, reduced to at
    most WORK_SIDE pixels on its long side.

    Raises:
        PnpError: no such file, not a regular file, over MAX_BYTES, not a picture Pillow reads, over
            MAX_PIXELS or under MIN_SIDE pixels on a side (each naming the file).
    """
    try:
        raw = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        raise PnpError("no such file.", file=path, hint="give the photo or scan of the printed calibration sheet")
    except NotRegular as exc:
        raise PnpError(f"cannot be read: {exc}.", file=path, hint="give a picture file (JPEG, PNG, TIFF)") from None
    except OSError as exc:
        raise PnpError(f"cannot be read: {exc.strerror or exc}.", file=path) from None
    if len(raw) > MAX_BYTES:
        raise PnpError(f"is more than {MAX_BYTES // 2**20} MiB.", file=path,
                       hint="save the photo as a JPEG of at most 100 megapixels")
    try:
        with Image.open(io.BytesIO(raw)) as im:
            w, h = im.size
            if w * h > MAX_PIXELS:
                raise PnpError(f"is {w} x {h} pixels, more than {MAX_PIXELS // 1_000_000} megapixels.", file=path,
                               hint="scan at 300-600 dpi, or save the photo smaller")
            if min(w, h) < MIN_SIDE:
                raise PnpError(f"is {w} x {h} pixels: too small to show the sheet's marks.", file=path,
                               hint=f"give a photo or scan of at least {MIN_SIDE * 5} pixels across")
            im = ImageOps.exif_transpose(im).convert("L")
            if max(im.size) > WORK_SIDE:
                im.thumbnail((WORK_SIDE, WORK_SIDE), Image.Resampling.LANCZOS)
            return np.asarray(im, dtype=np.uint8).copy()
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError) as exc:
        raise PnpError(f"is not a picture pnp can read ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}).",
                       file=path, hint="give a JPEG, PNG or TIFF photo or scan of the calibration sheet") from None
