"""Total area coverage (TAC): the sum of the four inks' percentages at a point, which a press limits
(ink above it does not dry and sets off onto the next sheet). Measured on the rendered page.

* A CMYK kit: each pixel painted by one of the PDF's CMYK colours (pnp.preflight.pdffacts) carries
  that colour's coverage, found by rendering every colour once as a swatch with the same renderer
  (PDFium) and looking the page's pixels up among the swatches; anti-aliased edges and pictures match
  no swatch and are not counted there; each CMYK picture is measured from its own pixels as the PDF
  holds them (pnp.preflight.pdffacts.PictureInk), its area scaled to where it is placed.
* An RGB kit: each pixel through the naive conversion (C, M, Y = 1 - R, G, B; K = min(C, M, Y) taken
  out, C' = (C - K) / (1 - K), ...), the conversion a file gets with no colour management: at most
  300 %, so only a service's lower limit can fail it. The press's profile decides the real figure.
"""
from __future__ import annotations

import io
from typing import Iterable

import numpy as np

from ..core.findings import FAIL, Finding
from .pixels import Raster
from .report import listed
from .scene import PageScene

DEFAULT_LIMIT = 300.0  # % : the usual sheet-fed offset limit (docs/print.md, Preflight)
MIN_AREA_MM2 = 1.0     # mm² above the limit before it counts (a dot of anti-aliasing does not)
MAX_SWATCHES = 4096
NAIVE_MAX = 300.0      # % : the naive conversion of RGB stays under this (K takes the common part of C, M, Y)
# Per print service (pnp.render.pod.SERVICES names): (limit %, where the figure comes from). None of the
# card services publishes a figure (docs/print.md, Preflight): they keep the default.
SERVICE_LIMITS = {
    "drivethru": (300.0, "no published figure for cards (DriveThruCards asks for PDF/X-1a); the default"),
    "tgc": (300.0, "no published figure (The Game Crafter takes RGB images); the default"),
    "mpc": (300.0, "no published figure; the default"),
    "printerstudio": (300.0, "no published figure; the default"),
}


def limit_for(service) -> tuple[float, str]:
    """The coverage limit in % for ``service`` (None: the default) and its source."""
    name = getattr(service, "name", None)
    if name in SERVICE_LIMITS:
        return SERVICE_LIMITS[name]
    return DEFAULT_LIMIT, "the usual limit for coated stock on a sheet-fed press"


class Coverage:
    """Per-pixel coverage of rendered pages: through the swatches of ``cmyk_colours`` (a CMYK kit)
    or the naive conversion (``cmyk_colours`` None: an RGB kit)."""

    def __init__(self, cmyk_colours: Iterable[tuple[float, float, float, float]] | None) -> None:
        self.cmyk = cmyk_colours is not None
        self._keys = self._tac = None
        if self.cmyk:
            colours = sorted(cmyk_colours)[:MAX_SWATCHES]
            keys = _key(_swatches(colours)) if colours else np.zeros(0, np.int64)
            tac = np.array([100.0 * sum(c) for c in colours])
            order = np.lexsort((-tac, keys))  # one key per rendered colour, with the highest coverage
            keys, tac = keys[order], tac[order]
            first = np.ones(len(keys), bool)
            first[1:] = keys[1:] != keys[:-1]
            self._keys, self._tac = keys[first], tac[first]

    @property
    def method(self) -> str:
        return ("CMYK kit: from its CMYK colours, pixel by pixel" if self.cmyk else
                "RGB kit: through the naive conversion (no colour profile; at most 300 %)")

    def of(self, rgb: np.ndarray) -> np.ndarray:
        """Coverage in % of every pixel of ``rgb`` (h, w, 3 uint8); 0 where unknown."""
        if not self.cmyk:
            f = 1.0 - rgb.astype(np.float32) / 255.0
            k = f.min(axis=2)
            rest = np.where(k < 1.0, (f.sum(axis=2) - 3 * k) / np.maximum(1.0 - k, 1e-6), 0.0)
            return 100.0 * (rest + k)
        keys = _key(rgb.reshape(-1, 3)).reshape(rgb.shape[:2])
        if len(self._keys) == 0:
            return np.zeros(keys.shape, np.float32)
        at = np.clip(np.searchsorted(self._keys, keys), 0, len(self._keys) - 1)
        return np.where(self._keys[at] == keys, self._tac[at], 0.0)


def over_limit(sc: PageScene, raster: Raster, coverage: Coverage, limit: float) -> list[tuple[str, object, str]]:
    """(FAIL, where, what) for each part (and the sheet furniture) of this page with more than
    MIN_AREA_MM2 above ``limit`` %."""
    if not coverage.cmyk and limit >= NAIVE_MAX:
        return []  # the naive conversion never reaches it: nothing to measure
    tac = coverage.of(raster.rgb)
    over = tac > limit + 1e-6
    if not over.any():
        return []
    px_mm2 = (25.4 / raster.dpi) ** 2
    out = []
    left = over.copy()  # what no part's trim has claimed yet: the sheet furniture's
    boxes = [(i, (p.x, p.y, p.x + p.w, p.y + p.h)) for i, p in enumerate(sc.placements)] + [(None, None)]
    for i, box in boxes:
        region = left
        if box is not None:
            y0, y1, x0, x1 = raster.px(box[1]), raster.px(box[3]), raster.px(box[0]), raster.px(box[2])
            region = np.zeros_like(over)
            region[y0:y1, x0:x1] = left[y0:y1, x0:x1]
            left[y0:y1, x0:x1] = False
        count = int(region.sum())
        if count * px_mm2 < MIN_AREA_MM2:
            continue
        ys, xs = np.nonzero(region)
        out.append((FAIL, sc.where(xs[0] * 25.4 / raster.dpi, ys[0] * 25.4 / raster.dpi, i),
                    f"ink coverage up to {float(tac[region].max()):.0f} % over {count * px_mm2:.1f} mm², above "
                    f"{limit:g} %"))
    return out


def pictures_over_limit(pictures, limit: float, where) -> list[tuple[str, object, str]]:
    """(FAIL, where, what) for each placed CMYK picture (pdffacts.PictureInk) with more than
    MIN_AREA_MM2 of its printed area above ``limit`` %; ``where(use)`` names the part it is on."""
    out = []
    for pic in pictures:
        hist = pic.histogram
        total = int(hist.sum())
        above = int(hist[int(limit) + 1:].sum())
        if total == 0 or above == 0 or pic.area_mm2 * above / total < MIN_AREA_MM2:
            continue
        peak = int(np.nonzero(hist)[0][-1])
        out.append((FAIL, where(pic.use), f"{pic.use.what}: ink coverage up to {peak} % over "
                    f"{pic.area_mm2 * above / total:.1f} mm², above {limit:g} %"))
    return out


def findings(found, limit: float, source: str, coverage: Coverage) -> list[Finding]:
    """The coverage findings of a kit from the (status, where, what) of every page (over_limit)."""
    rule = f"total area coverage at most {limit:g} % ({source}; docs/print.md, Preflight)"
    return listed([(s, w, f"{what} ({coverage.method})") for s, w, what in found], rule,
                  f"ink coverage stays at or under {limit:g} % ({coverage.method})")


def _key(rgb: np.ndarray) -> np.ndarray:
    rgb = rgb.astype(np.int64)
    return (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]


def _swatches(colours: list[tuple[float, float, float, float]]) -> np.ndarray:
    """How PDFium renders each CMYK colour: a PDF of one 8 pt square per colour (reportlab), rendered
    at 72 dpi, read at each square's centre; (n, 3) uint8."""
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    from reportlab.pdfgen import canvas  # only the swatches draw a PDF of their own
    cols = 64
    rows = (len(colours) + cols - 1) // cols
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(cols * 8, rows * 8), invariant=1)
    for n, (cc, m, y, k) in enumerate(colours):
        c.setFillColorCMYK(cc, m, y, k)
        c.rect((n % cols) * 8, (rows - 1 - n // cols) * 8, 8, 8, stroke=0, fill=1)
    c.save()
    doc = pdfium.PdfDocument(buf.getvalue())
    try:
        image = np.asarray(doc[0].render(scale=1).to_pil().convert("RGB"))
    finally:
        doc.close()
    return np.array([image[(n // cols) * 8 + 4, (n % cols) * 8 + 4] for n in range(len(colours))], np.uint8)
