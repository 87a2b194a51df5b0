"""``pnp calibrate --measure``: the duplex offset read off a photo or two scans of the printed sheet.

Two kinds of picture:

* **light** (one picture): the sheet held against a light (a window, a light box), both sides'
  marks seen at once, the back's through the paper. The front's eight markers (known mm positions,
  pnp.calibration.targets) give the homography from the picture to the front's mm, which corrects
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

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..core.errors import PnpError
from ..layout.options import MAX_BACK_OFFSET
from ..layout.paper import Sheet
from .edges import paper_corners
from .pictures import load_grey
from .targets import BACK_BASE, DICTIONARY, FRONT_IDS, Mark, SheetMarks

MIN_FRONT = 4          # front markers needed to fix the perspective
MIN_BACK_SCAN = 4      # back markers needed in a scan of the back
MAX_RESIDUAL = 1.0     # mm: the front's markers must fit the sheet's layout this well
SPREAD_NOTE = 0.5      # mm: back markers that disagree more than this: the back is turned or scaled too


@dataclass(frozen=True)
class Measurement:
    """What --measure found.

    Attributes:
        mode: "light" (one picture against a light) or "scans" (front and back scans).
        duplex: the flip edge the sheet was printed for ("long" or "short", read off its back markers).
        offset: (dx, dy) mm, the back's marks relative to the front's, seen from the front.
        back_offset: (dx, dy) mm, the --back-offset that moves the backs onto the fronts.
        spread: mm, the largest distance of one back marker's offset from the mean.
        front_marks, back_marks: how many markers of each side were used.
    """
    mode: str
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


def _front_homography(found: dict[int, np.ndarray], marks: dict[int, Mark], what: Path, sheet: Sheet,
                      ids) -> np.ndarray:
    """The homography from picture pixels to the sheet's mm (seen from the front) fitted to the
    markers ``ids`` found.

    Raises:
        PnpError: fewer than MIN_FRONT of them, or they do not sit where the sheet puts them.
    """
    seen = [i for i in ids if i in found]
    if len(seen) < MIN_FRONT:
        raise PnpError(f"no pnp calibration sheet found: {len(seen)} of its {len(ids)} markers seen "
                       f"(at least {MIN_FRONT} needed).", file=what,
                       hint="photograph or scan the whole sheet printed by `pnp calibrate`, in focus and evenly lit")
    src = np.concatenate([found[i] for i in seen])
    dst = np.concatenate([marks[i].corners() for i in seen])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise PnpError("no pnp calibration sheet found: its markers do not form a sheet.", file=what,
                       hint="photograph the whole sheet, flat")
    residual = float(np.max(np.linalg.norm(_apply(h, src) - dst, axis=1)))
    if residual > MAX_RESIDUAL:
        raise PnpError(f"the sheet's markers are {residual:.1f} mm from where a {sheet.name} sheet has them.",
                       file=what, hint=f"give --paper as the sheet was printed (this one was read as {sheet.name}), "
                                       "and photograph the sheet flat")
    return h


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(N, 2) points mapped through the 3x3 homography ``h``."""
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2), h).reshape(-1, 2)


def _duplex(found: dict[int, np.ndarray], what: Path, scan: bool = False) -> str:
    """The flip edge the sheet was printed for, from the back markers seen (the edge with more).

    Raises:
        PnpError: no back marker seen (through the paper, or in a scan of the back when ``scan``)."""
    counts = {d: sum(1 for i in range(base, base + 6) if i in found) for d, base in BACK_BASE.items()}
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
    """Finds the sheet's markers in pictures of one ``sheet`` (the paper it was printed on)."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self._detector = _Detector()

    def _look(self, grey: np.ndarray) -> tuple[np.ndarray, dict[int, np.ndarray]]:
        """The picture and its markers, read mirrored when that shows more front markers (a photo
        taken from the back; a scan of the back)."""
        plain = self._detector.find(grey)
        if sum(i in plain for i in FRONT_IDS) >= MIN_FRONT:
            return grey, plain
        flipped = np.ascontiguousarray(grey[:, ::-1])
        mirrored = self._detector.find(flipped)
        return (flipped, mirrored) if len(mirrored) > len(plain) else (grey, plain)

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
        if sum(i in found for i in FRONT_IDS) < MIN_FRONT:
            _front_homography(found, {}, path, self.sheet, FRONT_IDS)  # raises: no sheet
        layout = SheetMarks(self.sheet, _duplex(found, path))
        h = _front_homography(found, layout.by_id(), path, self.sheet, FRONT_IDS)
        return self._result("light", layout, _offsets(h, found, layout.back), sum(i in found for i in FRONT_IDS))

    def _scans(self, greys: list[np.ndarray], paths: list[Path]) -> Measurement:
        plain = [self._detector.find(g) for g in greys]
        fronts = [sum(i in f for i in FRONT_IDS) for f in plain]
        fi = 0 if fronts[0] >= fronts[1] else 1
        bi = 1 - fi
        if fronts[fi] < MIN_FRONT:
            _front_homography(plain[fi], {}, paths[fi], self.sheet, FRONT_IDS)  # raises: no sheet
        back_grey = np.ascontiguousarray(greys[bi][:, ::-1])  # the back, seen as from the front
        back_found = self._detector.find(back_grey)
        duplex = _duplex(back_found, paths[bi], scan=True)
        layout = SheetMarks(self.sheet, duplex)
        marks = layout.by_id()
        back_ids = tuple(m.id for m in layout.back)
        if sum(i in back_found for i in back_ids) < MIN_BACK_SCAN:
            raise PnpError(f"a scan of the back shows {sum(i in back_found for i in back_ids)} of its "
                           f"{len(back_ids)} markers (at least {MIN_BACK_SCAN} needed).", file=paths[bi],
                           hint="scan the whole back of the sheet, or hold the sheet to a light and give one photo")
        h_front = _front_homography(plain[fi], marks, paths[fi], self.sheet, FRONT_IDS)
        h_back = _front_homography(back_found, marks, paths[bi], self.sheet, back_ids)
        sides = []
        for grey, h, found, side, path in ((greys[fi], h_front, plain[fi], layout.front, paths[fi]),
                                           (back_grey, h_back, back_found, layout.back, paths[bi])):
            paper = paper_corners(grey, h, self.sheet, path)  # the paper's corners in the marks' mm
            w, hh = self.sheet.width, self.sheet.height
            to_paper = cv2.getPerspectiveTransform(paper.astype(np.float32),
                                                   np.array([(0, 0), (w, 0), (w, hh), (0, hh)], np.float32))
            sides.append(_offsets(to_paper.astype(np.float64) @ h, found, side))
        front_d = sides[0].mean(axis=0)
        return self._result("scans", layout, sides[1] - front_d, fronts[fi])

    def _result(self, mode: str, layout: SheetMarks, d: np.ndarray, n_front: int) -> Measurement:
        mean = d.mean(axis=0)
        spread = float(np.max(np.linalg.norm(d - mean, axis=1)))
        offset = (float(mean[0]), float(mean[1]))
        mx, my = layout.mirror_vector(*offset)
        return Measurement(mode, layout.duplex, offset, (_clean(-mx), _clean(-my)), spread, n_front, len(d))


def _clean(v: float) -> float:
    """``v`` rounded to 0.01 mm, never -0.0."""
    return round(v, 2) + 0.0


def report(m: Measurement) -> list[str]:
    """The lines ``pnp calibrate --measure`` prints for ``m``."""
    dx, dy = m.offset
    how = "one picture against a light" if m.mode == "light" else "scans of the front and the back"
    lines = [f"measured from {how} ({m.duplex}-edge sheet, {m.front_marks} front and {m.back_marks} back markers): "
             f"seen from the front, the back prints {abs(dx):.2f} mm {'right' if dx >= 0 else 'left'} and "
             f"{abs(dy):.2f} mm {'down' if dy >= 0 else 'up'} of the front",
             f"--back-offset {m.back_offset[0]:g},{m.back_offset[1]:g}  (pnp build --duplex {m.duplex} "
             f"--back-offset {m.back_offset[0]:g},{m.back_offset[1]:g}: added to every back's place on the back page)"]
    if m.spread > SPREAD_NOTE:
        lines.append(f"note: the back's markers disagree by up to {m.spread:.1f} mm: the printer also turns or "
                     "scales the back; the offset is their mean")
    return lines
