"""Lengths: parse "30mm", "1.2in", "18pt" (a bare number means millimetres) and convert mm <-> pt.

Every length inside pnp is a float in millimetres. Points (1/72 in) appear only in render/pdf.py.
"""
from __future__ import annotations

import math
import re

MM_PER_IN = 25.4
MM_PER_PT = 25.4 / 72.0
MM_PER_CM = 10.0

_UNITS = {"mm": 1.0, "cm": MM_PER_CM, "m": 1000.0, "km": 1_000_000.0, "in": MM_PER_IN, "pt": MM_PER_PT}
_LENGTH_RE = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([a-z]*)\s*$")


def _show(value: object) -> str:
    """repr() of a value for a message: cut to 40 characters; a huge int is described, not printed."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # e.g. a container holding an int longer than Python will print
        return f"a {type(value).__name__} too large to print"
    return text if len(text) <= 40 else text[:37] + "..."


def parse_length(value: object) -> float:
    """Parse a length and return millimetres.

    Accepts an int/float (mm) or a string such as "30mm", "3 cm", "1.2in", "18pt", "30".

    Raises:
        ValueError: the value is not a number with a known unit (mm, cm, in, pt), or is not finite
            (nan, inf, or too large for a float such as 1e1000 or a 1000-digit int). Nothing else.
    """
    expected = "expected a length such as 30mm, 1.2in or 18pt"
    if isinstance(value, bool):
        raise ValueError(f"{expected}, got {value!r}")
    try:
        if isinstance(value, (int, float)):
            number, unit = float(value), "mm"
        elif isinstance(value, str):
            match = _LENGTH_RE.match(value.lower())
            if not match:
                raise ValueError(f"{expected}, got {_show(value)}")
            number, unit = float(match.group(1)), match.group(2) or "mm"
            if unit not in _UNITS:
                raise ValueError(f"unknown unit {_show(unit)} in {_show(value)}; use mm, cm, m, in or pt")
        else:
            raise ValueError(f"{expected}, got {_show(value)}")
    except OverflowError:  # float() of an int beyond about 1.8e308
        raise ValueError(f"{_show(value)} is too large for a length") from None
    mm = number * _UNITS[unit]
    if not math.isfinite(mm):
        raise ValueError(f"length {_show(value)} is not finite")
    return mm


def mm_to_pt(mm: float) -> float:
    """Millimetres to PostScript points (1 pt = 1/72 in)."""
    return mm / MM_PER_PT


def pt_to_mm(pt: float) -> float:
    """PostScript points to millimetres."""
    return pt * MM_PER_PT


def fmt_mm(mm: float) -> str:
    """Format a length for people: '44 mm', '63.5 mm'."""
    text = f"{mm:.2f}".rstrip("0").rstrip(".")
    return f"{text} mm"
