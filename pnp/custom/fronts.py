"""A data-driven component's fronts held as what draws them, not as drawn shapes.

A deck of 100,000 word cards drawn and held costs about 0.45 KiB a card (a tuple and two
pnp.core.ir.Text); held as its row and its template it costs two list entries, and each front is
drawn again when it is asked for (the build's imposition asks once per placed part). Its fingerprint
for the manifest comes from the same two things (pnp.custom.draw.Face.fingerprint), never from
walking the drawn shapes.
"""
from __future__ import annotations

from collections.abc import Sequence

from .draw import Face
from .table import Row


class TemplateFronts(Sequence):
    """The fronts of one Component (pnp.core.ir.Component.fronts): front ``i`` is
    ``faces[i].draw(rows[i])``, a Drawing in mm. Built by ``add``; read by ``len`` and indexing (a
    slice gives a list), as every reader of Component.fronts does. ``digest(i)`` is front ``i``'s
    fingerprint (Face.fingerprint: 32 bytes of sha256). Every front must have been drawn once
    before (pnp.custom.parts.build_components draws each while planning, so a text that does not
    fit is refused then), so drawing one here raises nothing new."""

    def __init__(self) -> None:
        self._faces: list[Face] = []
        self._rows: list[Row | None] = []

    def add(self, face: Face, row: Row | None, copies: int) -> None:
        """Append ``copies`` fronts drawn by ``face`` from ``row``."""
        self._faces.extend([face] * copies)
        self._rows.extend([row] * copies)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [face.draw(row) for face, row in zip(self._faces[index], self._rows[index])]
        return self._faces[index].draw(self._rows[index])

    def digest(self, index: int) -> bytes:
        """Front ``index``'s fingerprint: its template's digest and its row's values it reads
        (pnp.custom.draw.Face.fingerprint), 32 bytes."""
        return self._faces[index].fingerprint(self._rows[index])
