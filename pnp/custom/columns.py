"""What a table's columns are for, as `pnp new` reads them: how many of each card, and pictures.

A column headed by one of QUANTITY_HEADERS (any case, outer spaces ignored) holds each row's
number of copies; a column whose every filled cell names a picture file (PICTURE_SUFFIXES) is
drawn as an image. ``whole_count`` is the one rule for a copies cell, in `pnp new` and the build.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

QUANTITY_HEADERS = ("copies", "count", "qty", "quantity", "number", "num", "num_cards", "amount", "@count")
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
_WHOLE = re.compile(r"\d+")


def whole_count(cell: str, most: int) -> int | None:
    """The whole number 0..``most`` a copies cell holds ("3", " 3 "), else None ("1.5", "-1", "", "three")."""
    text = cell.strip()
    if not _WHOLE.fullmatch(text):
        return None
    n = int(text)
    return n if n <= most else None


def quantity_column(headers: list[str]) -> str | None:
    """The first header (as written) that names a quantity, or None."""
    return next((h for h in headers if h.strip().casefold() in QUANTITY_HEADERS), None)


def is_picture(value: str) -> bool:
    """True for a cell that names a picture file: 'ninja-mask.svg', 'art/Pirate.PNG'."""
    return PurePosixPath(value.strip().replace("\\", "/")).suffix.lower() in PICTURE_SUFFIXES


def picture_columns(headers: list[str], cells: dict[str, list[str]]) -> list[str]:
    """The headers whose column's filled cells (``cells`` by header) all name picture files (at least one)."""
    return [h for h in headers if any(v.strip() for v in cells[h])
            and all(is_picture(v) for v in cells[h] if v.strip())]
