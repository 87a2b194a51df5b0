"""Sheet templates (templates/sheets/<paper>.yaml): paper size, margin, gutter, footer and crop-mark style.

The areas of a sheet (mm, page coordinates, y down):

* ``printable``: inside the ``margin``, what a home printer prints (about 5 mm from each edge). Every
  part's trim and bleed, every text and the footer stay inside it.
* ``content_area``: the printable area less the footer band, at the bottom (FOOTER_BAND) or turned
  along the left side (FOOTER_SIDE) when that holds more parts (pnp/layout/packing.py decides).
* ``part_area(bleed)``: where blocks of parts go with their crop marks around them: the content area
  grown into the margin by as much of the crop-mark reserve as the margin has room for, on every side
  that borders the margin (not the footer's). Crop marks are waste, so they may print into the margin
  (or be lost in the printer's unprintable edge); the trims stay inside the printable area.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

import math
import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..core.errors import SpecError
from ..inputs.resources import sheets_dir
from ..inputs.safefile import kind_of
from ..inputs.specfields import Length, OptionalLength, SpecModel, load_yaml, validate_model


FOOTER_BAND = 13.0  # mm reserved at the bottom of the printable area for footer + scale bar
FOOTER_SIDE = 6.0  # mm reserved along the left of the printable area when the footer is turned to the side
FOOTERS = ("auto", "bottom", "side")


class CropMarkStyle(SpecModel):
    """Crop marks: ``offset`` from the trim to the mark, mark ``length`` and line ``width`` (mm)."""
    offset: OptionalLength = 2.0
    length: Length = 4.0
    width: Length = 0.0882


class Sheet(BaseModel):
    """A paper sheet. All lengths in mm."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    width: Length
    height: Length
    margin: OptionalLength = 5.0
    gutter: OptionalLength = 3.0
    footer: Literal["auto", "bottom", "side"] = "auto"
    butt: bool = True  # parts of one kind share cut lines; false: a gutter between every two (cutting machines)
    crop_marks: CropMarkStyle = CropMarkStyle()

    def with_footer(self, footer: str) -> "Sheet":
        """This sheet with its footer at ``footer`` ("bottom" or "side")."""
        return self if self.footer == footer else self.model_copy(update={"footer": footer})

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the area inside the margin."""
        m = self.margin
        return (m, m, self.width - 2 * m, self.height - 2 * m)

    @property
    def content_area(self) -> tuple[float, float, float, float]:
        """(x, y, w, h): the printable area less the footer band: FOOTER_BAND mm at the bottom, or
        FOOTER_SIDE mm along the left when ``footer`` is "side" ("auto" is the bottom until packing
        chooses)."""
        x, y, w, h = self.printable
        if self.footer == "side":
            return (x + FOOTER_SIDE, y, w - FOOTER_SIDE, h)
        return (x, y, w, h - FOOTER_BAND)

    def part_area(self, bleed: float = 0.0) -> tuple[float, float, float, float]:
        """(x, y, w, h): where the footprints of part blocks (trims, bleed and crop-mark reserve) go: the
        content area grown into the margin by min(margin, crop-mark reserve) on the sides that border
        the margin, so trims and bleed stay inside the printable area and marks may run into the margin
        (not on a cutting machine's sheet, ``butt`` false, whose margin holds its registration marks)."""
        x, y, w, h = self.content_area
        _, reserve = self.mark_reserve(bleed)
        g = min(self.margin, reserve) if self.butt else 0.0  # a cutter's margin holds its registration marks
        left = 0.0 if self.footer == "side" else g
        bottom = g if self.footer == "side" else 0.0
        return (x - left, y - g, w + left + g, h + g + bottom)

    def mark_reserve(self, bleed: float) -> tuple[float, float]:
        """(offset, reserve) in mm: crop marks start ``offset`` outside the trim (past any bleed) and
        need ``reserve`` of room around the block of components."""
        offset = max(self.crop_marks.offset, bleed + 1.0 if bleed > 0 else 0.0)
        return offset, offset + self.crop_marks.length

    @property
    def board_area(self) -> tuple[float, float, float, float]:
        """(x, y, w, h): where a board window may go — the content area less room for crop marks."""
        x, y, w, h = self.content_area
        _, reserve = self.mark_reserve(0.0)
        return (x + reserve, y + reserve, w - 2 * reserve, h - 2 * reserve)


def part_gap(sheet: "Sheet", bleed: float) -> float:
    """The gap in mm between neighbouring parts of one block: none without bleed (butted: neighbours
    share a cut line, one cut for two edges), 2 x bleed with it (each part's bleed meets its
    neighbour's); on a sheet for a cutting machine (``butt`` false) at least the gutter, so that
    every part is a shape of its own."""
    return 2 * bleed if sheet.butt else max(sheet.gutter, 2 * bleed)


def available_papers() -> list[str]:
    """Names of the sheet templates shipped with pnp."""
    return sorted(p.stem for p in sheets_dir().glob("*.yaml"))


def sheet_path(paper: str) -> Path:
    """The template file for ``paper`` (a built-in name or a path to a YAML file).

    Raises:
        SpecError: unknown paper.
    """
    path = Path(paper)
    if paper.endswith((".yaml", ".yml")) or os.sep in paper:
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            raise SpecError(f"the sheet file is not a regular file: {kind_of(mode)}.", file=path, field="--paper",
                            hint="give the path of a sheet YAML file saved on disk, or a built-in paper name")
    if not (paper.endswith((".yaml", ".yml")) and path.is_file()):
        path = sheets_dir() / f"{paper.lower()}.yaml"
        if not path.is_file():
            raise SpecError(f"unknown paper {paper!r}.", field="--paper",
                            hint=f"use one of: {', '.join(available_papers())}, or a sheet YAML file")
    return path


def load_sheet(paper: str) -> Sheet:
    """Load the sheet template named ``paper`` (a4, letter, a3, tabloid) or a path to a YAML file;
    cached per file and modification time.

    Raises:
        SpecError: unknown paper, or an invalid template.
    """
    return open_sheet(paper)[0]


def open_sheet(paper: str) -> tuple[Sheet, Path]:
    """The sheet template named ``paper`` and the file it was read from (see load_sheet).

    Raises:
        SpecError: unknown paper, or an invalid template.
    """
    path = sheet_path(paper)
    stat = path.stat()
    return _load_sheet_file(path, stat.st_mtime_ns, stat.st_size), path


@lru_cache(maxsize=32)
def _load_sheet_file(path: Path, mtime_ns: int, size: int) -> Sheet:
    data, lines = load_yaml(path, "sheet file")
    sheet = validate_model(Sheet, data, path, lines)
    if path.resolve().parent != sheets_dir().resolve() and sheet.name.lower() in available_papers():
        raise SpecError(f"the sheet is named {sheet.name!r}, like the built-in paper; its kit would replace the real "
                        f"{sheet.name.upper()} kit.", file=path, line=lines.get(("name",)), field="name",
                        hint=f"give your sheet a name of its own, e.g. {sheet.name.lower()}-custom")
    check_room(sheet, path, lines)
    return sheet


def check_room(sheet: Sheet, path: Path, lines: dict[tuple, int]) -> None:
    """Refuse a margin, crop-mark offset or length, or gutter that leaves less than MIN_ROOM mm of
    usable area in either direction, naming the field, its line and what is left.

    The margin must leave MIN_PRINTABLE mm each way (above the FOOTER_BAND), and margin and crop-mark
    reserve (offset + length on each side) together MIN_ROOM mm each way for parts (the larger of
    margin and reserve is blamed); the mark line at
    most MAX_MARK_WIDTH wide; the gutter at most half the smaller side of what is left for parts (two
    parts and a gutter fit). Nothing negative is ever reported as an area left.

    Raises:
        SpecError: naming the sheet file, line and field.
    """
    def refuse(field: tuple, message: str, hint: str) -> SpecError:
        line = lines.get(field) or lines.get(field[:1])
        return SpecError(message, file=path, line=line, field=".".join(field), hint=hint)

    m = sheet.margin
    _, reserve = sheet.mark_reserve(0.0)
    pw, ph = sheet.width - 2 * m, sheet.height - 2 * m - FOOTER_BAND
    aw, ah = pw - 2 * reserve, ph - 2 * reserve
    small = min(sheet.width, sheet.height - FOOTER_BAND)
    if small < MIN_PRINTABLE:  # no margin would help: the paper is too small
        side = "width" if sheet.width <= sheet.height - FOOTER_BAND else "height"
        raise refuse((side,), f"{sheet.width:g} x {sheet.height:g} mm paper is too small to print on: even with no "
                     f"margin it leaves {_left(sheet.width, sheet.height - FOOTER_BAND)} above the {FOOTER_BAND:g} mm "
                     f"footer and {_left(sheet.width - 2 * reserve, sheet.height - FOOTER_BAND - 2 * reserve)} for "
                     f"parts inside {reserve:g} mm of crop marks; the printable area must be at least "
                     f"{MIN_PRINTABLE:g} mm and the parts' area {MIN_ROOM:g} mm each way.",
                     f"make the {side} at least {MIN_PRINTABLE + 2 * m + (FOOTER_BAND if side == 'height' else 0):g} "
                     "mm, or use a built-in paper")
    if min(pw, ph) < MIN_PRINTABLE or (min(aw, ah) < MIN_ROOM and m > reserve):
        most = min(_largest(sheet.width, sheet.height - FOOTER_BAND, MIN_PRINTABLE),
                   _largest(sheet.width - 2 * reserve, sheet.height - FOOTER_BAND - 2 * reserve, MIN_ROOM))
        raise refuse(("margin",), f"a margin of {m:g} mm leaves {_left(pw, ph)} inside it on {sheet.width:g} x "
                     f"{sheet.height:g} mm paper (after {FOOTER_BAND:g} mm for the footer), {_left(aw, ah)} for parts "
                     f"after {reserve:g} mm of crop marks on each side; the printable area must be at least "
                     f"{MIN_PRINTABLE:g} mm and the parts' area {MIN_ROOM:g} mm each way.",
                     f"use a margin of at most {most:g} mm")
    if min(aw, ah) < MIN_ROOM:
        which = ("crop_marks", "offset") if sheet.crop_marks.offset >= sheet.crop_marks.length else ("crop_marks", "length")
        raise refuse(which, f"crop marks {sheet.crop_marks.offset:g} mm from the trim and {sheet.crop_marks.length:g} mm "
                     f"long take {reserve:g} mm on each side of the parts, leaving {_left(aw, ah)} of the "
                     f"{pw:g} x {ph:g} mm printable area; parts need at least {MIN_ROOM:g} mm each way.",
                     f"keep crop_marks.offset + crop_marks.length at most {_largest(pw, ph, MIN_ROOM):g} mm "
                     "(the usual is 2 mm + 4 mm)")
    if sheet.crop_marks.width > MAX_MARK_WIDTH:
        raise refuse(("crop_marks", "width"), f"crop-mark lines {sheet.crop_marks.width:g} mm wide would cover the "
                     f"parts they mark (at most {MAX_MARK_WIDTH:g} mm).", "use a hairline: 0.25pt (about 0.09 mm)")
    if sheet.gutter > min(aw, ah) / 2:
        raise refuse(("gutter",), f"a gutter of {sheet.gutter:g} mm is wider than half of the {aw:g} x {ah:g} mm "
                     "left for parts, so no two parts could share a row or column.",
                     f"use a gutter of at most {min(aw, ah) / 2:g} mm (the usual is 3 mm)")


MIN_PRINTABLE = 40.0  # mm each way inside the margins (and above the footer)
MIN_ROOM = 25.0  # mm each way left for parts once the crop marks are reserved
MAX_MARK_WIDTH = 1.0  # mm: the thickest crop-mark line


def _left(w: float, h: float) -> str:
    """'12 x 30 mm', or 'nothing' when a side is not positive (never a negative area)."""
    return f"{w:g} x {h:g} mm" if w > 0 and h > 0 else "nothing"


def _largest(w: float, h: float, room: float) -> float:
    """The largest reserve on each of two sides of min(w, h) that leaves ``room``; never negative."""
    return max(0.0, math.floor((min(w, h) - room) / 2 * 10) / 10)
