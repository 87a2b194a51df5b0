"""What a table's columns are for, as `pnp new` reads them: how many of each card, and pictures.

A column headed by one of QUANTITY_HEADERS (any case, outer spaces ignored) holds each row's
number of copies (but a ``number`` or ``num`` column running 1, 2, 3 ... numbers the cards); a
column whose every filled cell names a picture file (PICTURE_SUFFIXES) is
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


AMBIGUOUS_HEADERS = ("number", "num")  # also a card's printed number: a column running 1, 2, 3 ... is that


def not_a_count(cell: str, most: int) -> str:
    """Why ``cell`` is no copies count, in words: 'is empty', or "'1.5' is not a whole number from 0 to 1000"."""
    return "is empty" if not cell.strip() else f"{cell.strip()!r} is not a whole number from 0 to {most}"


def quantity_column(headers: list[str], cells: dict[str, list[str]]) -> tuple[str | None, str | None]:
    """(the first header, as written, that names a quantity; the first header passed over because it
    is named ``number`` or ``num`` but runs 1, 2, 3 ... down the rows (``cells`` by header), a card
    number rather than a count)."""
    passed = None
    for h in headers:
        name = h.strip().casefold()
        if name not in QUANTITY_HEADERS:
            continue
        values = [v.strip() for v in cells[h]]
        if name in AMBIGUOUS_HEADERS and len(values) > 1 and values == [str(i) for i in range(1, len(values) + 1)]:
            passed = passed or h
            continue
        return h, passed
    return None, passed


def is_picture(value: str) -> bool:
    """True for a cell that names a picture file: 'ninja-mask.svg', 'art/Pirate.PNG'."""
    return PurePosixPath(value.strip().replace("\\", "/")).suffix.lower() in PICTURE_SUFFIXES


def picture_columns(headers: list[str], cells: dict[str, list[str]]) -> list[str]:
    """The headers whose column's filled cells (``cells`` by header) all name picture files (at least one)."""
    return [h for h in headers if any(v.strip() for v in cells[h])
            and all(is_picture(v) for v in cells[h] if v.strip())]
