"""Value classes: the small records a build makes per part and per text (the drawing model's shapes,
a text's spans, lines and fitted boxes), declared once here.

A value class is a slotted dataclass compared and hashed by its fields, and never assigned once made:
nothing in pnp sets a field of one after its constructor (a changed copy is ``dataclasses.replace``).
It is not ``frozen=True``, which would enforce that: CPython's frozen dataclasses set every field in
``__init__`` through ``object.__setattr__``, and a six-field one costs about four times a plain one
to make (905 ns against 222 ns; 10,400 instructions against 2,300), a twelve-field Text 23,000
instructions; a 10,000-card deck makes several such records per card (docs/performance.md).
"""
from __future__ import annotations

from dataclasses import dataclass

value = dataclass(slots=True, unsafe_hash=True)
"""The decorator of a value class: ``@value`` on a class with annotated fields (defaults as in any
dataclass); its ``==`` and ``hash`` are its fields' (a field declared with ``compare=False`` takes
part in neither)."""

record = dataclass(slots=True, eq=False)
"""The decorator of a record compared by identity (``eq=False``): slotted and never assigned once
made, as a value class."""
