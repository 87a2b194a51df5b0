"""The net of a six-sided die (d6): six square faces in a Latin cross with glue tabs, its cut outline
and its fold lines. Lengths in mm, y down, from the net's top-left corner.

The cross is a strip of four faces (1, 2, 6, 5) with face 3 above face 2 and face 4 below it, so
opposite faces sum to seven and 1, 2 and 3 run anticlockwise around their shared corner seen from
outside, as on Western dice. The seven seams that close the cube each have one tab, on faces 1, 6
and 5; faces 3 and 4 close the cube last, onto tabs.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.outline import Outline

# face number -> (column, row) of its cell in the cross
CELLS: dict[int, tuple[int, int]] = {1: (0, 1), 2: (1, 1), 6: (2, 1), 5: (3, 1), 3: (1, 0), 4: (1, 2)}
TAB_SIDES: tuple[tuple[int, str], ...] = ((1, "top"), (6, "top"), (5, "top"), (5, "right"), (5, "bottom"),
                                          (6, "bottom"), (1, "bottom"))
"""(face, side) of every glue tab: one per seam of the cross that is open until the cube is glued."""
TAB_FRACTION = 0.25  # a tab is at most this fraction of the edge deep (its 45 degree ends then leave half the edge)
TAB_MAX = 7.0        # mm: deep enough to glue, no deeper


@dataclass(frozen=True, eq=False)
class D6Net:
    """The cross of a die with ``edge`` mm faces and tabs ``tab`` mm deep (trapezoids with 45 degree
    ends). The net is ``width`` x ``height`` mm: 4 edges + a tab across, 3 edges down."""
    edge: float

    @property
    def tab(self) -> float:
        return min(TAB_MAX, self.edge * TAB_FRACTION)

    @property
    def width(self) -> float:
        return 4 * self.edge + self.tab

    @property
    def height(self) -> float:
        return 3 * self.edge

    def face_origin(self, face: int) -> tuple[float, float]:
        """Top-left corner of ``face`` (1..6) in the net, mm."""
        c, r = CELLS[face]
        return (c * self.edge, r * self.edge)

    def _side(self, face: int, side: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """The side of a face as an edge running clockwise round that face (page view, y down)."""
        x, y = self.face_origin(face)
        e = self.edge
        return {"top": ((x, y), (x + e, y)), "right": ((x + e, y), (x + e, y + e)),
                "bottom": ((x + e, y + e), (x, y + e)), "left": ((x, y + e), (x, y))}[side]

    def tab_points(self, face: int, side: str) -> Outline:
        """The tab on that side of a face: its base (on the fold) and its outer edge, clockwise."""
        (ax, ay), (bx, by) = self._side(face, side)
        e, t = self.edge, self.tab
        ux, uy = (bx - ax) / e, (by - ay) / e
        nx, ny = uy, -ux  # outward, for a side running clockwise round its face
        return ((ax, ay), (ax + t * (nx + ux), ay + t * (ny + uy)), (bx + t * (nx - ux), by + t * (ny - uy)), (bx, by))

    @property
    def outline(self) -> Outline:
        """The cut outline, clockwise from face 3's top-left corner: the cross with every tab."""
        walk = ((3, "top"), (3, "right"), (6, "top"), (5, "top"), (5, "right"), (5, "bottom"), (6, "bottom"),
                (4, "right"), (4, "bottom"), (4, "left"), (1, "bottom"), (1, "left"), (1, "top"), (3, "left"))
        out: list[tuple[float, float]] = []
        for face, side in walk:
            if (face, side) in TAB_SIDES:
                out += self.tab_points(face, side)[:3]
            else:
                out.append(self._side(face, side)[0])
        return tuple(out)

    @property
    def folds(self) -> tuple[tuple[float, float, float, float], ...]:
        """Every fold line (x1, y1, x2, y2): the five edges between faces, then each tab's base."""
        e = self.edge
        between = ((e, e, e, 2 * e), (2 * e, e, 2 * e, 2 * e), (3 * e, e, 3 * e, 2 * e),  # 1|2, 2|6, 6|5
                   (e, e, 2 * e, e), (e, 2 * e, 2 * e, 2 * e))                          # 3/2, 2/4
        tabs = tuple((a[0], a[1], b[0], b[1]) for a, b in (self._side(f, s) for f, s in TAB_SIDES))
        return between + tabs
