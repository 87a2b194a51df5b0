"""The paper's four edges in a scan of the calibration sheet (``pnp calibrate --measure`` with two
scans): the paper is what front and back share, so each side's marks are measured from its edges.

The scan is first rectified with the homography its markers give (picture pixels -> the sheet's mm,
seen from the front), so each edge is close to a known straight line (x = 0, x = width, y = 0,
y = height). Along each edge, every SAMPLE mm, the grey profile across it is
walked in from the darker background to where it first rises half way to the paper's grey (to a
fraction of a pixel); a straight line is fitted to those points (OpenCV's fitLine,
Huber: a dust speck or a shadow does not pull it), and the four lines meet in the paper's corners.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..core.errors import PnpError
from ..layout.paper import Sheet

SCALE = 8.0        # px per mm of the rectified picture
BORDER = 14.0      # mm of the rectified picture past the paper on every side
SAMPLE = 2.0       # mm between samples along an edge
SEARCH = 10.0      # mm searched either side of where the markers put the edge
BACKGROUND = 1.5   # mm of background needed outside the edge
MIN_STEP = 25.0    # grey levels between background and paper
MIN_POINTS = 0.5   # of the samples along an edge must find the step
MAX_MISS = 6.0     # mm a corner may lie from where the markers put it

_HINT = "scan each side with the whole sheet on a darker background (the lid open, or a dark sheet behind it)"


def paper_corners(grey: np.ndarray, h: np.ndarray, sheet: Sheet, path: Path) -> np.ndarray:
    """(4, 2) float array: the paper's corners (top-left, top-right, bottom-right, bottom-left as seen
    from the front) in the mm of the homography ``h`` (picture pixels -> sheet mm).

    Raises:
        PnpError: an edge is not seen (the scan is cropped to the paper, or the background is as
            light as the paper), or the corners lie more than MAX_MISS mm from where they belong.
    """
    w, hh = sheet.width, sheet.height
    shift = np.array([[SCALE, 0, BORDER * SCALE], [0, SCALE, BORDER * SCALE], [0, 0, 1]], dtype=np.float64)
    size = (int(round((w + 2 * BORDER) * SCALE)), int(round((hh + 2 * BORDER) * SCALE)))
    warp = shift @ h
    flat = cv2.warpPerspective(grey, warp, size, flags=cv2.INTER_LINEAR, borderValue=0).astype(np.float32)
    valid = cv2.warpPerspective(np.full(grey.shape, 255, np.uint8), warp, size, flags=cv2.INTER_NEAREST,
                                borderValue=0) == 255
    flat = cv2.GaussianBlur(flat, (0, 0), 1.0)
    # each edge: where it should be (mm), along x or y, which way is outside, the span sampled
    lines = {}
    for name, axis, at, outward, span in (("left", "x", 0.0, -1, hh), ("right", "x", w, 1, hh),
                                          ("top", "y", 0.0, -1, w), ("bottom", "y", hh, 1, w)):
        points = _edge_points(flat, valid, axis, at, outward, span)
        needed = MIN_POINTS * (0.8 * span / SAMPLE)
        if len(points) < needed:
            raise PnpError(f"the paper's {name} edge cannot be seen in this scan ({len(points)} of "
                           f"{int(0.8 * span / SAMPLE)} places).", file=path, hint=_HINT)
        lines[name] = _fit(points)
    corners = np.array([_meet(lines["left"], lines["top"]), _meet(lines["right"], lines["top"]),
                        _meet(lines["right"], lines["bottom"]), _meet(lines["left"], lines["bottom"])])
    expected = np.array([(0, 0), (w, 0), (w, hh), (0, hh)], dtype=np.float64)
    miss = float(np.max(np.linalg.norm(corners - expected, axis=1)))
    if miss > MAX_MISS:
        raise PnpError(f"the paper's edges found in this scan are {miss:.1f} mm from where a {sheet.name} sheet's "
                       "edges are.", file=path, hint=_HINT + "; give --paper as the sheet was printed")
    return corners


def _edge_points(flat: np.ndarray, valid: np.ndarray, axis: str, at: float, outward: int,
                 span: float) -> np.ndarray:
    """(N, 2) mm points on one paper edge: for each sample along it, walking in from the background,
    the sub-pixel place where the grey first rises half way from the background's level to the
    paper's (print only darkens the paper, so nothing before the edge rises that far)."""
    points = []
    c = (BORDER + at) * SCALE
    lo, hi = int(round(c - SEARCH * SCALE)), int(round(c + SEARCH * SCALE))
    reach = int(round(BACKGROUND * SCALE))
    for s in np.arange(0.1 * span, 0.9 * span, SAMPLE):
        k = int(round((BORDER + s) * SCALE))
        profile, ok = (flat[k, lo:hi], valid[k, lo:hi]) if axis == "x" else (flat[lo:hi, k], valid[lo:hi, k])
        if outward > 0:  # index 0 outermost
            profile, ok = profile[::-1], ok[::-1]
        start = int(np.argmax(ok)) if ok.any() else len(ok)
        if len(profile) - start < 3 * reach or not ok[start:].all():
            continue
        background = float(np.median(profile[start:start + reach]))
        paper = float(np.percentile(profile[start:], 90))
        if paper - background < MIN_STEP:
            continue  # no background seen here: the scan's own border is not the paper's edge
        half = (background + paper) / 2
        above = np.nonzero(profile[start + reach:] >= half)[0]
        if not len(above):
            continue
        i = start + reach + int(above[0])
        a, b = profile[i - 1], profile[i]
        pos = i - 1 + (half - a) / (b - a) if b != a else float(i)
        pixel = lo + pos if outward < 0 else hi - 1 - pos
        across = pixel / SCALE - BORDER
        along = k / SCALE - BORDER
        points.append((across, along) if axis == "x" else (along, across))
    return np.array(points, dtype=np.float64).reshape(-1, 2)


def _fit(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A straight line through ``points`` (a point on it and its unit direction), robust to strays."""
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], dtype=np.float64), np.array([vx, vy], dtype=np.float64)


def _meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Where two lines (point, direction) cross."""
    (p, u), (q, v) = a, b
    t = np.linalg.solve(np.column_stack([u, -v]), q - p)
    return p + t[0] * u
