"""Sheet templates (templates/sheets/<paper>.yaml): paper size, margin, gutter and crop-mark style."""
from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..core.errors import SpecError
from ..inputs.resources import sheets_dir
from ..inputs.safefile import kind_of
from ..inputs.specfields import Length, OptionalLength, SpecModel, load_yaml, validate_model


FOOTER_BAND = 13.0  # mm reserved at the bottom of the printable area for footer + scale bar


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
    margin: OptionalLength = 10.0
    gutter: OptionalLength = 3.0
    crop_marks: CropMarkStyle = CropMarkStyle()

    @property
    def printable(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the area inside the margin."""
        m = self.margin
        return (m, m, self.width - 2 * m, self.height - 2 * m)

    @property
    def content_area(self) -> tuple[float, float, float, float]:
        """(x, y, w, h): the printable area less the footer band (FOOTER_BAND mm at the bottom)."""
        x, y, w, h = self.printable
        return (x, y, w, h - FOOTER_BAND)

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
    path = sheet_path(paper)
    stat = path.stat()
    return _load_sheet_file(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load_sheet_file(path: Path, mtime_ns: int, size: int) -> Sheet:
    data, lines = load_yaml(path)
    sheet = validate_model(Sheet, data, path, lines)
    if path.resolve().parent != sheets_dir().resolve() and sheet.name.lower() in available_papers():
        raise SpecError(f"the sheet is named {sheet.name!r}, like the built-in paper; its kit would replace the real "
                        f"{sheet.name.upper()} kit.", file=path, line=lines.get(("name",)), field="name",
                        hint=f"give your sheet a name of its own, e.g. {sheet.name.lower()}-custom")
    if sheet.width <= 2 * sheet.margin + 40 or sheet.height <= 2 * sheet.margin + 40:
        raise SpecError("the margins leave no printable area.", file=path, field="margin",
                        hint="use a smaller margin")
    return sheet
