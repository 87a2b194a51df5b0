"""Pictures of the printed calibration sheet, made from pnp's own PDF: the two pages rendered with
PDFium, the back moved by a known printer error, then combined as light through paper would show
them, or laid on a scanner's dark background; then photographed (rotation, perspective, blur, noise,
JPEG).

Units: mm on the sheet; ``error`` (ex, ey) is where the printer puts the back page's content, in
the back page's own coordinates (x right, y down as the back page is drawn), relative to the paper;
``front_error`` the same for the front page.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium


def render(pdf: Path, dpi: float, pages: tuple[int, ...] = (0, 1)) -> tuple[np.ndarray, ...]:
    """The PDF's ``pages`` (0-based; default the calibration sheet's front and back) as float32 grey
    arrays in 0..1, ``dpi`` pixels per inch."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return tuple(np.asarray(doc[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L"), np.float32) / 255
                     for i in pages)
    finally:
        doc.close()


def shifted(page: np.ndarray, dx_mm: float, dy_mm: float, dpi: float) -> np.ndarray:
    """``page`` with its content moved by (dx, dy) mm on the paper (white comes in at the edges)."""
    k = dpi / 25.4
    m = np.array([[1, 0, dx_mm * k], [0, 1, dy_mm * k]], dtype=np.float64)
    return cv2.warpAffine(page, m, (page.shape[1], page.shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=1.0)


def through_light(front: np.ndarray, back: np.ndarray, duplex: str, error: tuple[float, float], dpi: float,
                  attenuation: float = 0.45, diffusion_mm: float = 0.25) -> np.ndarray:
    """The sheet held against a light, seen from the front: the back page moved by the printer
    ``error``, mirrored for the flip edge, blurred by the paper and its ink only ``attenuation`` as
    dark, multiplied with the front (light through both layers of ink)."""
    seen = shifted(back, *error, dpi)
    seen = seen[:, ::-1] if duplex == "long" else seen[::-1, :]
    seen = cv2.GaussianBlur(np.ascontiguousarray(seen), (0, 0), diffusion_mm * dpi / 25.4)
    return front * (1 - attenuation * (1 - seen))


@dataclass(frozen=True)
class Camera:
    """How the sheet is photographed: turned ``rotate`` degrees, its corners pulled by up to
    ``perspective`` of its size (a camera not square on), blurred (``blur`` px), ``noise`` (grey
    levels, sd), saved as a JPEG of ``quality``, the sheet ``fill`` of the picture's long side,
    on a background of grey ``background`` (0..1)."""
    rotate: float = 0.0
    perspective: float = 0.0
    blur: float = 0.0
    noise: float = 0.0
    quality: int = 90
    fill: float = 0.85
    background: float = 0.5
    side: int = 2400
    seed: int = 0


def photograph(sheet: np.ndarray, camera: Camera, path: Path) -> Path:
    """``sheet`` (float 0..1) photographed by ``camera``, written as a JPEG at ``path``."""
    rng = np.random.default_rng(camera.seed)
    h, w = sheet.shape
    scale = camera.fill * camera.side / max(w, h)
    out_w, out_h = (camera.side, int(camera.side * 0.75)) if w > h else (int(camera.side * 0.75), camera.side)
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    centre = np.array([out_w / 2, out_h / 2])
    t = np.radians(camera.rotate)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    dst = (src - (w / 2, h / 2)) * scale @ rot.T + centre
    dst += rng.uniform(-1, 1, (4, 2)) * camera.perspective * max(w, h) * scale
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    picture = cv2.warpPerspective(sheet, m, (out_w, out_h), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=camera.background)
    if camera.blur:
        picture = cv2.GaussianBlur(picture, (0, 0), camera.blur)
    picture = picture * 255 + rng.normal(0, camera.noise, picture.shape)
    cv2.imwrite(str(path), np.clip(picture, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, camera.quality])
    return path
