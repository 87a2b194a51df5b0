"""Numeria's spec: the board, tiles and trope card as specs/numeria/numeria.yaml gives them (lengths in mm).

Limits, checked when the spec is read: files are lettered a..z (at most 26); tiles are numbered
16..64: below 16 the Squares type (1, 4, 9, 16) has no instance for the card, and the checks and the
card enumerate all C(tiles, 4) subsets (635,376 for 64: 4.4 s with the brute-force enumerator). A
trope is 4 tiles: the trope types are defined on runs of 4 (Plus 1 Plus 2 Plus 3 has exactly four
terms), so trope_length is 4.
The card's text shrinks from 10 pt to min_card_pt in 0.5 pt steps, so min_card_pt is 4..10 pt.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

from typing import Literal

from pydantic import ValidationInfo, field_validator

from ...engine.declared import GeneratorSpec
from ...inputs.specfields import BoundedFloat, Count, FieldError, Items, Length, SpecModel

MAX_TILES = 64
MIN_TILES = 16
TROPE_LENGTH = 4


class CardSpec(SpecModel):
    """Trope reference card trim size in mm."""
    width: Length = 165.0
    height: Length = 220.0


class NumeriaSpec(GeneratorSpec):
    """specs/numeria/numeria.yaml. Lengths in mm (or "20mm", "1in", "18pt"); cells are labels like "b2"."""
    files: Count(2, 26, "board columns are lettered a..z; the seed's board is 8x8") = 8
    ranks: Count(2, 26, "at most 26 rows; the seed's board is 8x8") = 8
    square: Length = 20.0
    label_band: Length = 8.0
    setup_area: tuple[str, str] = ("b2", "g7")
    centre: Items(tuple[str, ...], 0, 676, "list the board's central cells; the seed has 4") = ("d4", "e4", "d5", "e5")
    corners: Items(tuple[str, ...], 0, 676, "list the board's corner cells; the seed has 4") = ("a1", "h1", "a8", "h8")
    tiles: Count(MIN_TILES, MAX_TILES, f"tiles are numbered 1..tiles with {MIN_TILES} <= tiles <= {MAX_TILES}; "
                 "the seed's game has 36") = 36
    tile_margin: Length = 2.0

    @field_validator("tile_margin")
    @classmethod
    def _tile_fits_a_square(cls, margin: float, info: ValidationInfo) -> float:
        square = info.data.get("square")
        if square is not None and square - 2 * margin < 5:
            raise ValueError(f"tile_margin {margin:g} mm leaves a tile of {square - 2 * margin:g} mm in a {square:g} mm "
                             "square; a tile must sit inside its square with room for its number. Use a smaller margin")
        return margin
    trope_length: Literal[4] = TROPE_LENGTH
    min_card_pt: BoundedFloat(4, 10, "the card's text shrinks from 10 pt down to this; 4 pt is the smallest "
                              "that prints legibly") = 7.0
    card: CardSpec = CardSpec()
    examples: Items(dict[str, tuple[Count(1, 100_000), str]], 0, 100, "one line of examples per trope type") = {}

    @field_validator("trope_length", mode="before")
    @classmethod
    def _four_tiles(cls, value: object) -> int:
        if value != TROPE_LENGTH or isinstance(value, bool):
            raise FieldError(f"must be {TROPE_LENGTH}: a trope is {TROPE_LENGTH} tiles in a line, and the trope types "
                             f"are defined on runs of {TROPE_LENGTH} (Plus 1 Plus 2 Plus 3 has exactly four terms)",
                             f"remove trope_length or set it to {TROPE_LENGTH}")
        return TROPE_LENGTH
