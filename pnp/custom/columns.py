"""The rules for a cell that every reader of a table shares: a copies count (``whole_count``, in
`pnp new` and the build alike) and a picture file name (``is_picture``). What each column of a
designer's table is for is pnp.custom.roles'.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
_WHOLE = re.compile(r"\d+")


def whole_count(cell: str, most: int) -> int | None:
    """The whole number 0..``most`` a copies cell holds ("3", " 3 "), else None ("1.5", "-1", "", "three")."""
    text = cell.strip()
    if not _WHOLE.fullmatch(text):
        return None
    n = int(text)
    return n if n <= most else None


def not_a_count(cell: str, most: int) -> str:
    """Why ``cell`` is no copies count, in words: 'is empty', or "'1.5' is not a whole number from 0 to 1000"."""
    return "is empty" if not cell.strip() else f"{cell.strip()!r} is not a whole number from 0 to {most}"


def is_picture(value: str) -> bool:
    """True for a cell that names a picture file: 'ninja-mask.svg', 'art/Pirate.PNG'."""
    return PurePosixPath(value.strip().replace("\\", "/")).suffix.lower() in PICTURE_SUFFIXES
