"""Nooks' spec: the hex board, the square variant and the stones as specs/nooks/nooks.yaml gives them
(lengths in mm).

Limits, checked when the spec is read: the hex board's columns are lettered a..y, so side <= 13
(25 columns); the square board's a..z, so size <= 26. The largest boards have 469 (hex side 13) and
676 (square 26) cells, so no game needs more than about 700 wall stones or 340 scoring stones of a
colour: 2,000 and 1,000 are generous, and keep a typo such as 100000000 from being imposed at all.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

from pydantic import ValidationInfo, field_validator

from ...engine.declared import GeneratorSpec
from ...inputs.specfields import Colour, Count, Flag, Items, Length, SpecModel

MAX_SETUP = 50  # setup stones: the seed places 2


class SquareVariant(SpecModel):
    """The 11x11 square variant board (orthogonal walls only)."""
    include: Flag = True
    size: Count(4, 26, "the square board's columns are lettered a..z; the variant is 11x11") = 11
    setup: Items(list[str], 0, MAX_SETUP, f"list at most {MAX_SETUP} setup cells; the variant has 2") = ["b6", "j6"]


class Stones(SpecModel):
    """Round stone counters: diameter in mm, how many of each kind, and their colours."""
    diameter: Length = 14.0
    neutral: Count(0, 2000, "the seed's game has 168 wall stones; the largest board needs about 700") = 168
    red: Count(0, 1000, "the seed's game has 30 red stones; the largest board needs about 340") = 30
    gold: Count(0, 1000, "the seed's game has 30 gold stones; the largest board needs about 340") = 30
    neutral_colour: Colour = "#d2b48c"
    red_colour: Colour = "#c62828"
    gold_colour: Colour = "#f5c400"
    mark_colour: Colour = "#2b2118"


class NooksSpec(GeneratorSpec):
    """specs/nooks/nooks.yaml. Lengths in mm (or "19mm", "0.75in")."""
    side: Count(2, 13, "the hex board's columns are lettered a..y, so a side of at most 13; the seed's is 8") = 8
    cell_size: Length = 19.0
    setup: Items(list[str], 0, MAX_SETUP, f"list at most {MAX_SETUP} setup cells; the seed has 2") = ["b8", "n8"]
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
