"""Print-then-cut machines (``--cutter silhouette|cricut``): registration marks and cuttable area.

A print-then-cut machine reads marks printed on the sheet with an optical sensor and lines its cut
file up with them. Silhouette Studio's marks ("Type 1", every CAMEO and Portrait except the
CAMEO 5 Alpha): a filled 5 mm square at the top-left corner and an L at the top-right and the
bottom-left, the L's corner and the square's outer corner each ``inset`` mm from both paper edges,
arms ``length`` mm long and ``thickness`` mm thick (centred on the inset line). The figures and
their sources are in docs/print.md ("Print-then-cut").

Parts must stay clear of the marks: the sheet's margin becomes at least ``inset + length +
CLEARANCE`` (``cutter_sheet``), so nothing but the marks lies in the corners the sensor reads, and
every part lies inside the area the marks enclose (the machine cuts only there). The same marks go
on every printed page and, in their own layer, into the cutter SVG.

Cricut Design Space prints its own sensor marks around the image it is given (``Cricut``): pnp
prints none, and instead keeps every sheet's parts inside Design Space's Print Then Cut area, so a
sheet's parts become one Print Then Cut image (pnp.render.cricut).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import SpecError
from ..core.ir import BLACK, Rect, Shape, Text
from ..core.words import Words, english
from .paper import FOOTER_BAND, Sheet

CLEARANCE = 1.5  # mm between a mark and the nearest part


@dataclass(frozen=True, eq=False)
class Cutter:
    """A print-then-cut machine's registration marks, mm: ``inset`` from the paper edges, arm
    ``length`` and ``thickness`` of the L marks, ``square`` side of the top-left square."""
    name: str
    title: str
    inset: float
    length: float
    thickness: float
    square: float

    @property
    def margin(self) -> float:
        """The sheet margin that keeps every part clear of the marks."""
        return self.inset + max(self.length, self.square) + CLEARANCE

    output_format = None
    """The output format the machine adds to a build (None: it cuts the printed sheets)."""

    def marks(self, width: float, height: float, _: Words = english) -> tuple[Shape, ...]:
        """The registration marks of a ``width`` x ``height`` mm page (registration_marks)."""
        return registration_marks(width, height, self, _)

    def settings_text(self, _: Words = english) -> str:
        """What to set in the machine's software so it looks for these marks (in pnp's words ``_``)."""
        return _("{software}: registration marks Type 1, length {length} mm, thickness {thickness} mm, inset "
                 "{inset} mm").format(software=self.title, length=f"{self.length:g}",
                                      thickness=f"{self.thickness:g}", inset=f"{self.inset:g}")


@dataclass(frozen=True, eq=False)
class Cricut:
    """Cricut Design Space's Print Then Cut: it prints its own sensor marks around an uploaded image of
    at most ``width`` x ``height`` mm (6.75 x 9.25 in, the size every machine and paper takes; see
    docs/print.md), so pnp prints no marks and keeps each sheet's parts within that area, less
    ``slack`` mm a side for the image's pixel grid."""
    name: str = "cricut"
    title: str = "Cricut Design Space"
    width: float = 6.75 * 25.4   # 171.45 mm
    height: float = 9.25 * 25.4  # 234.95 mm
    slack: float = 0.5

    output_format = "cricut"
    """Design Space takes Print Then Cut images, not the printed sheets: --format cricut."""

    def marks(self, width: float, height: float, _: Words = english) -> tuple[Shape, ...]:
        """None: Design Space prints its own sensor marks round the image."""
        return ()

    def fits(self, w: float, h: float) -> bool:
        """True when a w x h mm part fits the area (either way up) with the slack."""
        aw, ah = self.width - 2 * self.slack, self.height - 2 * self.slack
        return (w <= aw and h <= ah) or (h <= aw and w <= ah)

    def margin(self, sheet: Sheet) -> float:
        """The smallest sheet margin whose content area (pnp.layout.paper) fits inside the area."""
        return max((sheet.width - self.width) / 2 + self.slack,
                   (sheet.height - FOOTER_BAND - self.height) / 2 + self.slack)


CRICUT = Cricut()
CUTTERS = {
    "silhouette": Cutter("silhouette", "Silhouette Studio", inset=10.0, length=5.0, thickness=1.0, square=5.0),
    "cricut": CRICUT,
}


def parse_cutter(value: str) -> Cutter | Cricut:
    """``--cutter``: a name in CUTTERS (silhouette, cricut).

    Raises:
        SpecError: an unknown cutter, naming the option and the known ones.
    """
    name = value.strip().lower()
    if name in CUTTERS:
        return CUTTERS[name]
    raise SpecError(f"unknown cutter {value[:40]!r}.", field="--cutter", hint=f"use {', '.join(CUTTERS)}")


def check_cutter_formats(cutter: Cutter | Cricut, formats, takes_cutter) -> None:
    """Refuse ``--cutter`` with a format that has no printed sheet for it (``takes_cutter(fmt)``
    false: a Tabletop Simulator save, print-service files).

    Raises:
        SpecError: naming --cutter, the formats and what to do.
    """
    refused = [f for f in formats if not takes_cutter(f)]
    if refused:
        raise SpecError(f"--cutter {cutter.name} cuts printed sheets (formats pdf, svg, cut-svg, preview), but "
                        f"--format {', '.join(refused)} makes none.", field="--cutter",
                        hint=f"build --format {', '.join(refused)} in its own command without --cutter")


def cutter_sheet(sheet: Sheet, cutter: Cutter | Cricut) -> Sheet:
    """``sheet`` with a margin that keeps parts clear of ``cutter``'s marks (Cricut: inside its Print
    Then Cut area), named ``<paper>-<cutter>`` (so its kit does not replace the plain kit of that paper).

    Raises:
        SpecError: the paper is too small to leave room inside the marks.
    """
    margin = max(sheet.margin, cutter.margin(sheet) if isinstance(cutter, Cricut) else cutter.margin)
    if sheet.width <= 2 * margin + 40 or sheet.height <= 2 * margin + 40:
        raise SpecError(f"{sheet.name} leaves no room inside {cutter.title}'s registration marks.", field="--cutter",
                        hint="use a larger paper")
    # a cutter cuts each part's outline on its own: parts a gutter apart, never butted
    return sheet.model_copy(update={"margin": margin, "name": f"{sheet.name}-{cutter.name}", "butt": False})


def registration_marks(width: float, height: float, cutter: Cutter, _: Words = english) -> tuple[Shape, ...]:
    """The marks on a ``width`` x ``height`` mm page as filled rectangles (page mm, y down): the
    top-left square, the top-right L and the bottom-left L, plus one line saying what to set."""
    i, ln, t, sq = cutter.inset, cutter.length, cutter.thickness, cutter.square
    h = t / 2

    def bar(x0, y0, x1, y1) -> Rect:
        return Rect(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0), fill=BLACK, stroke=None)

    right, bottom = width - i, height - i
    return (
        Rect(i, i, sq, sq, fill=BLACK, stroke=None),
        bar(right + h, i - h, right - ln, i + h), bar(right - h, i - h, right + h, i + ln),      # top-right L
        bar(i - h, bottom - h, i + ln, bottom + h), bar(i - h, bottom + h, i + h, bottom - ln),  # bottom-left L
        Text(width / 2, i + sq / 2, cutter.settings_text(_), size_pt=6.0, anchor="middle", valign="middle",
             fill="#333333"),
    )
