"""``pnp calibrate --measure``: the duplex offset read off a photo or two scans of the printed sheet.

Two kinds of picture:

* **light** (one picture): the sheet held against a light (a window, a light box), both sides'
  marks seen at once, the back's through the paper. The front's eight markers (known mm positions,
  pnp.layout.calibration_marks) give the homography from the picture to the front's mm, which corrects
  perspective, rotation and scale; the back's markers, mapped through it, land where the printer put
  them. A picture taken from the back (everything mirrored) is read mirrored.
* **scans** (two pictures, either order): the front and the back scanned, each with the paper's edges
  showing against a darker background. The paper is what the two sides share: in each scan the
  paper's four edges are found (pnp.calibration.edges) and each side's markers located relative to
  the paper; the offset is the back's place less the front's.

Sign convention: ``offset`` is where the back's marks sit relative to the front's, seen from the front
(x right, y down, mm). ``back_offset`` is the ``--back-offset DX,DY`` that cancels it: impose adds it
to every back position on the back page (pnp.layout.impose._back), and a displacement on the back page
is seen from the front mirrored (long edge: x negated; short edge: y negated), so
``back_offset = -mirror(offset)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable
from pathlib import Path

import cv2
import numpy as np

from ..core.errors import PnpError
from ..layout.options import MAX_BACK_OFFSET
from ..layout.paper import Sheet
from .edges import paper_corners
from .pictures import load_grey
from ..layout.calibration_marks import (BACK_BASE, BACK_MARKS, DICTIONARY, FRONT_MARKS, OWN, Mark,
                                        SheetMarks, paper_code, paper_name)

MIN_FRONT = 4          # front markers needed to fix the perspective
MIN_BACK_SCAN = 4      # back markers needed in a scan of the back
MAX_RESIDUAL = 1.0     # mm: the front's markers must fit the sheet's layout this well
AGREE = 0.15          # mm: a back marker this close to the markers' median counts in the mean
SPREAD_NOTE = 0.5      # mm: back markers that disagree more than this: the back is turned or scaled too


@dataclass(frozen=True)
class Measurement:
    """What --measure found.

    Attributes:
        mode: "light" (one picture against a light) or "scans" (front and back scans).
        paper: the name of the sheet the markers fit (the paper the sheet was printed on).
        duplex: the flip edge the sheet was printed for ("long" or "short", read off its back markers).
        offset: (dx, dy) mm, the back's marks relative to the front's, seen from the front.
        back_offset: (dx, dy) mm, the --back-offset that moves the backs onto the fronts.
        spread: mm, the largest distance of one back marker's offset from the mean.
        front_marks, back_marks: how many markers of each side were used.
    """
    mode: str
    paper: str
    duplex: str
    offset: tuple[float, float]
    back_offset: tuple[float, float]
    spread: float
    front_marks: int
    back_marks: int


class _Detector:
    """OpenCV's ArUco detector for the sheet's dictionary, corners refined to a fraction of a pixel."""

    def __init__(self) -> None:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.adaptiveThreshWinSizeMin = 5
        params.adaptiveThreshWinSizeMax = 65
        params.adaptiveThreshWinSizeStep = 10
        params.minMarkerPerimeterRate = 0.02
        self._detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)

    def find(self, grey: np.ndarray) -> dict[int, np.ndarray]:
        """Every marker seen: its number -> (4, 2) float corners in pixels (a number seen twice is dropped)."""
        corners, ids, _ = self._detector.detectMarkers(grey)
        if ids is None:
            return {}
        found: dict[int, list] = {}
        for c, i in zip(corners, ids.ravel()):
            found.setdefault(int(i), []).append(c.reshape(4, 2).astype(np.float64))
        return {i: cs[0] for i, cs in found.items() if len(cs) == 1}


def _fit(found: dict[int, np.ndarray], marks: dict[int, Mark], ids) -> tuple[np.ndarray, float]:
    """The homography from picture pixels to the sheet's mm (seen from the front) fitted to the
    markers ``ids`` found (at least MIN_FRONT of them), and the largest distance, mm, of a marker
    corner from where ``marks`` puts it."""
    seen = [i for i in ids if i in found]
    src = np.concatenate([found[i] for i in seen])
    dst = np.concatenate([marks[i].corners() for i in seen])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        return np.eye(3), math.inf
    return h, float(np.max(np.linalg.norm(_apply(h, src) - dst, axis=1)))


def _paper_code(found: dict[int, np.ndarray]) -> tuple[int, int]:
    """(paper code, how many of its front markers were found): the code with most of them."""
    counts = [sum(code * FRONT_MARKS + k in found for k in range(FRONT_MARKS)) for code in range(OWN + 1)]
    best = int(np.argmax(counts))
    return best, counts[best]


def _no_sheet(found: dict[int, np.ndarray], what: Path) -> None:
    """Raise unless at least MIN_FRONT front markers of one paper were found.

    Raises:
        PnpError: too few: this is not a picture of the calibration sheet (or not of all of it)."""
    seen = _paper_code(found)[1]
    if seen < MIN_FRONT:
        raise PnpError(f"no pnp calibration sheet found: {seen} of its {FRONT_MARKS} front markers seen "
                       f"(at least {MIN_FRONT} needed).", file=what,
                       hint="photograph or scan the whole sheet printed by `pnp calibrate`, in focus and evenly lit")


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(N, 2) points mapped through the 3x3 homography ``h``."""
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), h).reshape(-1, 2)


def _duplex(found: dict[int, np.ndarray], what: Path, scan: bool = False) -> str:
    """The flip edge the sheet was printed for, from the back markers seen (the edge with more).

    Raises:
        PnpError: no back marker seen (through the paper, or in a scan of the back when ``scan``)."""
    counts = {d: sum(1 for i in range(base, base + BACK_MARKS) if i in found) for d, base in BACK_BASE.items()}
    best = max(counts, key=counts.get)
    if counts[best] == 0 and scan:
        raise PnpError("no back of a pnp calibration sheet found in this scan (none of its 6 markers seen).",
                       file=what, hint="give a scan of the front and a scan of the back of the printed sheet")
    if counts[best] == 0:
        raise PnpError("no back markers seen through the paper.", file=what,
                       hint="hold the sheet flat against a bright window or light box (the back's marks must show), "
                            "or give two scans: front and back")
    return best


def _offsets(h: np.ndarray, found: dict[int, np.ndarray], marks: tuple[Mark, ...]) -> np.ndarray:
    """(N, 2) mm: for each of ``marks`` found, its centre through ``h`` less where the sheet puts it."""
    return np.array([_apply(h, found[m.id]).mean(axis=0) - np.array(m.centre) for m in marks if m.id in found])


class Measurer:
    """Finds the sheet's markers in pictures of the calibration sheet. The paper it was printed on
    is read off its front markers' numbers: ``paper``, when given, must be that paper (the one way
    to measure a sheet of one's own); else ``builtin(name)`` gives the built-in paper's Sheet."""

    def __init__(self, paper: Sheet | None, builtin: Callable[[str], Sheet]) -> None:
        self.paper, self.builtin = paper, builtin
        self._detector = _Detector()

    def _look(self, grey: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """The picture and its markers, read mirrored when that shows more markers (a photo taken
        from the back)."""
        plain = self._detector.find(grey)
        if _paper_code(plain)[1] >= MIN_FRONT:
            return grey, plain
        flipped = np.ascontiguousarray(grey[:, ::-1])
        mirrored = self._detector.find(flipped)
        return (flipped, mirrored) if len(mirrored) > len(plain) else (grey, plain)

    def _layout(self, found: dict[int, np.ndarray], duplex: str, what: Path) -> tuple[SheetMarks, np.ndarray]:
        """The layout of the paper the front's markers name, and the picture's homography to it.

        Raises:
            PnpError: a sheet of one's own and no --paper; --paper not the one printed on; the
                markers do not fit that paper's layout within MAX_RESIDUAL mm."""
        code, _ = _paper_code(found)
        name = paper_name(code)
        if self.paper is not None and paper_code(self.paper) != code:
            printed = name or "a sheet of your own"
            raise PnpError(f"this sheet was printed on {printed}, not on {self.paper.name}.", file=what,
                           field="--paper", hint="drop --paper, or give the paper the sheet was printed on")
        if self.paper is None and name is None:
            raise PnpError("this sheet was printed on a sheet of your own.", file=what, field="--paper",
                           hint="give --paper FILE.yaml, the sheet it was printed with")
        layout = SheetMarks(self.paper or self.builtin(name), duplex)
        h, residual = _fit(found, layout.by_id(), tuple(m.id for m in layout.front))
        if residual > MAX_RESIDUAL:
            raise PnpError(f"the sheet's markers are {residual:.1f} mm from where they are on a {layout.sheet.name} "
                           "sheet.", file=what, hint="photograph or scan the sheet flat (a curled sheet bends its marks)")
        return layout, h

    def measure(self, paths: list[Path]) -> Measurement:
        """The offset from one picture against a light, or from two scans (front and back, any order).

        Raises:
            PnpError: a file that cannot be read or is not a picture; no calibration sheet in it; no
                back marks; the paper's edges not found in a scan; an offset past MAX_BACK_OFFSET.
        """
        if not 1 <= len(paths) <= 2:
            raise PnpError(f"--measure takes one picture or two scans, not {len(paths)}.", field="--measure",
                           hint="give a photo of the sheet against a light, or a scan of each side")
        greys = [load_grey(p) for p in paths]
        result = self._light(greys[0], paths[0]) if len(paths) == 1 else self._scans(greys, paths)
        if max(abs(v) for v in result.back_offset) > MAX_BACK_OFFSET:
            raise PnpError(f"the back sits {result.offset[0]:+.1f},{result.offset[1]:+.1f} mm from the front, more "
                           f"than {MAX_BACK_OFFSET:g} mm.", file=paths[-1],
                           hint="check the sheet was printed two-sided on the flip edge it names, at 100 %")
        return result

    def _light(self, grey: np.ndarray, path: Path) -> Measurement:
        grey, found = self._look(grey)
        _no_sheet(found, path)
        layout, h = self._layout(found, _duplex(found, path), path)
        return self._result("light", layout, _offsets(h, found, layout.back), _paper_code(found)[1])

    def _scans(self, greys: list[np.ndarray], paths: list[Path]) -> Measurement:
        plain = [self._detector.find(g) for g in greys]
        fronts = [_paper_code(f)[1] for f in plain]
        fi = 0 if fronts[0] >= fronts[1] else 1
        bi = 1 - fi
        _no_sheet(plain[fi], paths[fi])
        back_grey = np.ascontiguousarray(greys[bi][:, ::-1])  # the back, seen as from the front
        back_found = self._detector.find(back_grey)
        layout, h_front = self._layout(plain[fi], _duplex(back_found, paths[bi], scan=True), paths[fi])
        back_ids = tuple(m.id for m in layout.back)
        seen = sum(i in back_found for i in back_ids)
        if seen < MIN_BACK_SCAN:
            raise PnpError(f"this scan of the back shows {seen} of its {len(back_ids)} markers (at least "
                           f"{MIN_BACK_SCAN} needed).", file=paths[bi],
                           hint="scan the whole back of the sheet, or hold the sheet to a light and give one photo")
        h_back, residual = _fit(back_found, layout.by_id(), back_ids)
        if residual > MAX_RESIDUAL:
            raise PnpError(f"the back's markers are {residual:.1f} mm from where they are on this sheet.",
                           file=paths[bi], hint="scan the back of the same sheet, flat on the glass")
        sheet = layout.sheet
        w, hh = sheet.width, sheet.height
        corners = np.array([(0, 0), (w, 0), (w, hh), (0, hh)], np.float32)
        sides = []
        for grey, h, found, side, path in ((greys[fi], h_front, plain[fi], layout.front, paths[fi]),
                                           (back_grey, h_back, back_found, layout.back, paths[bi])):
            paper = paper_corners(grey, h, sheet, path)  # the paper's corners in the marks' mm
            to_paper = cv2.getPerspectiveTransform(paper.astype(np.float32), corners).astype(np.float64)
            sides.append(_offsets(to_paper @ h, found, side))
        return self._result("scans", layout, sides[1] - sides[0].mean(axis=0), fronts[fi])

    def _result(self, mode: str, layout: SheetMarks, d: np.ndarray, n_front: int) -> Measurement:
        spread = float(np.max(np.linalg.norm(d - d.mean(axis=0), axis=1)))
        # the mean of the markers that agree with the median (one marker over the other side's print,
        # a speck of dust on it, does not pull the offset); all of them when they disagree widely
        close = np.linalg.norm(d - np.median(d, axis=0), axis=1) <= AGREE
        mean = d[close].mean(axis=0) if 2 * close.sum() >= len(d) else d.mean(axis=0)
        offset = (float(mean[0]), float(mean[1]))
        mx, my = layout.mirror_vector(*offset)
        return Measurement(mode, layout.sheet.name, layout.duplex, offset, (_clean(-mx), _clean(-my)), spread, n_front, len(d))


def _clean(v: float) -> float:
    """``v`` rounded to 0.01 mm, never -0.0."""
    return round(v, 2) + 0.0


def report(m: Measurement) -> list[str]:
    """The lines ``pnp calibrate --measure`` prints for ``m``."""
    dx, dy = m.offset
    how = "one picture against a light" if m.mode == "light" else "scans of the front and the back"
    lines = [f"measured from {how} ({m.paper}, {m.duplex}-edge sheet, {m.front_marks} front and {m.back_marks} back markers): "
             f"seen from the front, the back prints {abs(dx):.2f} mm {'right' if dx >= 0 else 'left'} and "
             f"{abs(dy):.2f} mm {'down' if dy >= 0 else 'up'} of the front",
             f"--back-offset {m.back_offset[0]:g},{m.back_offset[1]:g}  (pnp build --duplex {m.duplex} "
             f"--back-offset {m.back_offset[0]:g},{m.back_offset[1]:g}: added to every back's place on the back page)"]
    if m.spread > SPREAD_NOTE:
        lines.append(f"note: the back's markers disagree by up to {m.spread:.1f} mm: the printer also turns or "
                     "scales the back; the offset is their mean")
    return lines
