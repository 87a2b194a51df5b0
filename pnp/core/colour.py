"""Colours as pnp's drawing model holds them, "#rrggbb" strings: reading one a user wrote, and mixing two."""
from __future__ import annotations

import re
from functools import lru_cache

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
WHITE = "#ffffff"


@lru_cache(maxsize=1)
def _named() -> dict[str, str]:
    from reportlab.lib.colors import getAllNamedColors  # reportlab (40 ms): only for a colour given by name
    return {name.lower(): c.hexval().replace("0x", "#").lower() for name, c in getAllNamedColors().items()}


def colour_of(value: str) -> str | None:
    """'#RRGGBB', a CSS colour name ('red', 'darkgreen') or 'none'/'' as '#rrggbb' or None.

    Raises:
        ValueError: anything else (the caller names where it came from).
    """
    v = value.strip()
    if v == "" or v.lower() == "none":
        return None
    if _HEX.fullmatch(v):
        return v.lower()
    got = _named().get(v.lower())
    if got is None:
        raise ValueError(f"{value!r} is not a colour; write #rrggbb (e.g. #d55e00), a colour name such as red, or none")
    return got


def mix(a: str, b: str, amount: float) -> str:
    """Colour ``a`` ("#rrggbb") moved ``amount`` (0..1) of the way to ``b``, channel by channel, each
    rounded to the nearest level: amount 0 gives ``a``, 1 gives ``b``."""
    pa, pb = ([int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in (a, b))
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(pa, pb))


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white: amount 0 keeps it, 1 gives white."""
    return mix(colour, WHITE, amount)
