"""A data-driven component's fronts held as what draws them, and its fingerprints made from that.

A deck of 100,000 word cards drawn and held costs about 0.45 KiB a card (a tuple and two
pnp.core.ir.Text); held as its row and its template it costs one list entry, and each front is
drawn again when it is asked for (the build's imposition asks once per placed part: about a tenth
of a NetMatch build's CPU time again). So a component of at most HELD_FRONTS fronts keeps them as
drawn, and a larger one draws them on demand. Either way its fingerprint for the manifest comes
from its row and template (pnp.custom.draw.Face.fingerprint), never from walking the drawn shapes.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..core.fontbook import current
from .draw import Face
from .table import Row

HELD_FRONTS = 20_000
"""The most fronts of one component kept as drawn (pnp.custom.parts.MAX_PARTS: every component read
from a data file); a generator's larger deck is drawn on demand."""


class TemplateFronts(Sequence):
    """The fronts of one Component (pnp.core.ir.Component.fronts): front ``i`` is
    ``faces[i].draw(rows[i])``, a Drawing in mm. Built by ``add``; read by ``len`` and indexing (a
    slice gives a list), as every reader of Component.fronts does. ``digest(i)`` is front ``i``'s
    fingerprint (Face.fingerprint: 32 bytes of sha256). With ``held`` the drawings given to ``add``
    are kept and returned; without, every front must have been drawn once before
    (pnp.custom.parts.build_components draws each while planning, so a text that does not fit is
    refused then), so drawing one here raises nothing new. A front drawn on demand is drawn in the
    font book the fronts were made in (the build's, pnp.core.fontbook: the faces its spec declared),
    whoever asks for it."""

    def __init__(self, held: bool) -> None:
        self._book = current()  # the build's font book: where the declared faces are
        self._face: Face | None = None  # the one face that draws every front so far
        self._faces: list[Face] | None = None  # each front's, once two faces draw them
        self._rows: list[Row | None] = []
        self._drawn: list[tuple] | None = [] if held else None

    def add(self, face: Face, row: Row | None, copies: int, drawing: tuple) -> None:
        """Append ``copies`` fronts drawn by ``face`` from ``row``: ``drawing``, kept when held."""
        if self._drawn is not None:
            self._drawn.extend([drawing] * copies)
        if self._faces is None and face is not self._face:
            if self._face is None:
                self._face = face
            else:
                self._faces = [self._face] * len(self._rows)
        if self._faces is not None:
            self._faces.extend([face] * copies)
        self._rows.extend([row] * copies)

    def _face_of(self, index: int) -> Face:
        return self._face if self._faces is None else self._faces[index]

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if self._drawn is not None:
            return self._drawn[index]
        if current() is self._book:
            return self._face_of(index).draw(self._rows[index])
        with self._book.in_use():
            return self._face_of(index).draw(self._rows[index])

    def digest(self, index: int) -> bytes:
        """Front ``index``'s fingerprint: its template's digest and its row's values it reads
        (pnp.custom.draw.Face.fingerprint), 32 bytes."""
        return self._face_of(index).fingerprint(self._rows[index])
