"""Numeria's spec: the board, tiles and trope card as specs/numeria.yaml gives them (lengths in mm)."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from ...spec import Length, SpecBase


class CardSpec(BaseModel):
    """Trope reference card trim size in mm."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: Length = 165.0
    height: Length = 220.0


class NumeriaSpec(SpecBase):
    """specs/numeria.yaml. Lengths in mm (or "20mm", "1in", "18pt"); cells are labels like "b2"."""
    files: int = 8
    ranks: int = 8
    square: Length = 20.0
    label_band: Length = 8.0
    setup_area: tuple[str, str] = ("b2", "g7")
    centre: tuple[str, ...] = ("d4", "e4", "d5", "e5")
    corners: tuple[str, ...] = ("a1", "h1", "a8", "h8")
    tiles: int = 36
    tile_margin: Length = 2.0

    @field_validator("tile_margin")
    @classmethod
    def _tile_fits_a_square(cls, margin: float, info: ValidationInfo) -> float:
        square = info.data.get("square")
        if square is not None and square - 2 * margin < 5:
            raise ValueError(f"tile_margin {margin:g} mm leaves a tile of {square - 2 * margin:g} mm in a {square:g} mm "
                             "square; a tile must sit inside its square with room for its number. Use a smaller margin")
        return margin
    trope_length: int = 4
    min_card_pt: float = 7.0
    card: CardSpec = CardSpec()
    examples: dict[str, tuple[int, str]] = {}
