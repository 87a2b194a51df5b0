"""Nooks' spec: the hex board, the square variant and the stones as specs/nooks.yaml gives them
(lengths in mm)."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from ...spec import Colour, Length, SpecBase


class SquareVariant(BaseModel):
    """The 11x11 square variant board (orthogonal walls only)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    include: bool = True
    size: int = Field(11, ge=4, le=26)
    setup: list[str] = ["b6", "j6"]


class Stones(BaseModel):
    """Round stone counters: diameter in mm, how many of each kind, and their colours."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    diameter: Length = 14.0
    neutral: int = Field(168, ge=0)
    red: int = Field(30, ge=0)
    gold: int = Field(30, ge=0)
    neutral_colour: Colour = "#d2b48c"
    red_colour: Colour = "#c62828"
    gold_colour: Colour = "#f5c400"
    mark_colour: Colour = "#2b2118"


class NooksSpec(SpecBase):
    """specs/nooks.yaml. Lengths in mm (or "19mm", "0.75in")."""
    side: int = Field(8, ge=2, le=13)
    cell_size: Length = 19.0
    setup: list[str] = ["b8", "n8"]
    board_colour: Colour = "#f4ecd8"
    setup_colour: Colour = "#dcc9a3"
    line_colour: Colour = "#4a3b2a"
    square: SquareVariant = SquareVariant()
    stones: Stones = Stones()

    @field_validator("stones")
    @classmethod
    def _stones_fit_a_cell(cls, stones: Stones, info: ValidationInfo) -> Stones:
        cell = info.data.get("cell_size")
        if cell is not None and stones.diameter > cell:
            raise ValueError(f"stones.diameter {stones.diameter:g} mm is larger than a cell ({cell:g} mm across the "
                             "flats); a stone must sit inside the cell it marks (Nooks rules: Stones). "
                             "Make the stones smaller or the cells larger")
        return stones
