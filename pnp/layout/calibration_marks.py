"""The calibration sheet's machine-readable marks: where each goes, in mm, shared by the sheet that
prints them (pnp.layout.calibration_sheet) and the measurer that finds them (pnp.calibration.measure).

The marks are ArUco markers (OpenCV's 4x4 dictionary: 4 x 4 bits inside a one-cell black border,
6 x 6 cells of MARK / 6 mm). Two rows of SLOTS markers, one at the top and one at the bottom of the
area both sides can print on, alternate front and back: the front's markers in the even slots (the
four corners among them: they fix the photo's perspective), the back's in the odd slots. A back
marker is drawn on the back page mirrored for the flip edge, bits and place, so that held against a
light and seen from the front it reads as an ordinary marker exactly between its front neighbours.
The markers' numbers say what the sheet was printed for: the front's the paper (PAPER_CODES: eight
numbers for each built-in paper, and eight for a sheet of one's own), the back's the flip edge
(BACK_BASE). A photo cannot tell A4 from Letter by the markers' places alone (a homography takes
one layout onto the other), so the numbers tell it.

Every position here is *as seen from the front*: (x, y) mm from the sheet's top-left corner, y down.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .paper import Sheet

DICTIONARY = cv2.aruco.DICT_4X4_100
CELLS = 6            # cells across a marker, border included
MARK = 12.0          # mm across a marker (2 mm cells)
QUIET = 2.0          # mm of white kept around every marker
SLOTS = 7            # markers per row: front, back, front, ... front
FRONT_MARKS, BACK_MARKS = 8, 6
PAPER_CODES = {"a4": 0, "letter": 1, "a3": 2, "tabloid": 3, "a4-letter": 4}
OWN = 5                                # the code of a sheet of one's own (a sheet YAML file)
FRONT_IDS = tuple(range(FRONT_MARKS * (OWN + 1)))  # 0..47: code * 8 + k
BACK_BASE = {"long": 50, "short": 60}  # the back markers' first number for each flip edge
BACK_IDS = tuple(i for base in BACK_BASE.values() for i in range(base, base + BACK_MARKS))


def paper_code(sheet: Sheet) -> int:
    """The code of ``sheet`` in its front markers' numbers (PAPER_CODES by name, else OWN)."""
    return PAPER_CODES.get(sheet.name, OWN)


def paper_name(code: int) -> str | None:
    """The built-in paper of ``code``; None for OWN."""
    return next((name for name, c in PAPER_CODES.items() if c == code), None)


@dataclass(frozen=True)
class Mark:
    """One marker: its ArUco ``id``, the ``side`` it is printed on ("front" or "back") and its
    top-left corner (``x``, ``y``) in mm as seen from the front; ``size`` mm square."""
    id: int
    side: str
    x: float
    y: float
    size: float = MARK

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.size / 2, self.y + self.size / 2)

    def corners(self) -> np.ndarray:
        """(4, 2) float array, mm: the marker's corners in ArUco's order (its top-left, top-right,
        bottom-right, bottom-left as read), seen from the front."""
        x, y, s = self.x, self.y, self.size
        return np.array([(x, y), (x + s, y), (x + s, y + s), (x, y + s)], dtype=np.float64)


def common_area(sheet: Sheet, duplex: str) -> tuple[float, float, float, float]:
    """(x, y, w, h) mm, seen from the front: the part of the front's content area whose mirror on
    the back (for the ``duplex`` flip edge, "long" or "short") is inside the back's content area too,
    so nothing printed there meets the other side's footer."""
    x, y, w, h = sheet.content_area
    if duplex == "long":
        left, right = max(x, sheet.width - (x + w)), min(x + w, sheet.width - x)
        return (left, y, right - left, h)
    top, bottom = max(y, sheet.height - (y + h)), min(y + h, sheet.height - y)
    return (x, top, w, bottom - top)


class SheetMarks:
    """The markers of the calibration sheet for one ``sheet`` and flip edge ``duplex``.

    Attributes:
        front, back: tuples of Mark (8 front, 6 back), positions seen from the front.
        area: the common area (x, y, w, h) mm the sheet is laid out in (common_area).
    """

    def __init__(self, sheet: Sheet, duplex: str) -> None:
        if duplex not in BACK_BASE:
            raise ValueError(f"duplex {duplex!r} has no calibration marks")
        self.sheet, self.duplex = sheet, duplex
        self.area = common_area(sheet, duplex)
        x, y, w, h = self.area
        pitch = (w - MARK) / (SLOTS - 1)
        front, back = [], []
        first = paper_code(sheet) * FRONT_MARKS
        for row, top in enumerate((y, y + h - MARK)):
            for k in range(SLOTS):
                if k % 2 == 0:
                    front.append(Mark(first + row * 4 + k // 2, "front", x + k * pitch, top))
                else:
                    back.append(Mark(BACK_BASE[duplex] + row * 3 + k // 2, "back", x + k * pitch, top))
        self.front, self.back = tuple(front), tuple(back)

    def by_id(self) -> dict[int, Mark]:
        """Every marker by its ArUco number."""
        return {m.id: m for m in self.front + self.back}

    def mirror(self, x: float, y: float) -> tuple[float, float]:
        """A point seen from the front as placed on the back page (and back again: its own inverse)."""
        return (self.sheet.width - x, y) if self.duplex == "long" else (x, self.sheet.height - y)

    def mirror_vector(self, dx: float, dy: float) -> tuple[float, float]:
        """A displacement seen from the front as a displacement on the back page (its own inverse)."""
        return (-dx, dy) if self.duplex == "long" else (dx, -dy)

    def cells(self, mark: Mark) -> np.ndarray:
        """(CELLS, CELLS) bool array, True where the marker is black, as it is drawn on its own page
        (row 0 at the top of that page): a back marker comes mirrored for the flip edge."""
        bits = _bits(mark.id)
        if mark.side == "back":
            bits = bits[:, ::-1] if self.duplex == "long" else bits[::-1, :]
        return bits

    def page_box(self, mark: Mark) -> tuple[float, float]:
        """The top-left corner (x, y) mm of ``mark`` on the page it is printed on."""
        if mark.side == "front":
            return (mark.x, mark.y)
        if self.duplex == "long":
            return (self.sheet.width - mark.x - mark.size, mark.y)
        return (mark.x, self.sheet.height - mark.y - mark.size)


def _bits(marker_id: int) -> np.ndarray:
    """(CELLS, CELLS) bool array of the ArUco marker ``marker_id``, True where black."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, CELLS, borderBits=1)
    return image < 128
