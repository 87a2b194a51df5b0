"""Nesting hexagonal parts: offset rows (pointy-top) or columns (flat-top) that share edges, or lie a
gap apart along every edge, instead of a grid of their bounding boxes. Lengths in mm, y down.

Pointy-top hexes of box w x h nest in rows w + g apart, every other row shifted half a pitch, the
rows 3h/4 + d apart, where d keeps the slanted edges of neighbouring rows g apart (g / cos t less
the run of the half-pitch shift along the edge normal, t the slanted edge's angle from horizontal);
flat-top hexes the same turned a quarter. With g = 0 neighbours share every edge.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.outline import Outline, hex_in_box

EPS = 1e-9


@dataclass(frozen=True)
class Lattice:
    """Where parts of one kind go in a block: cell (c, r) at (c * pitch_x + shift_x * (r odd),
    r * pitch_y + shift_y * (c odd)) from the block's top-left."""
    pitch_x: float
    pitch_y: float
    shift_x: float = 0.0
    shift_y: float = 0.0

    def size(self, w: float, h: float, cols: int, rows: int) -> tuple[float, float]:
        """The block's trim box of ``cols`` x ``rows`` parts of box ``w`` x ``h``."""
        return ((cols - 1) * self.pitch_x + w + (self.shift_x if rows > 1 else 0.0),
                (rows - 1) * self.pitch_y + h + (self.shift_y if cols > 1 else 0.0))

    def fit(self, w: float, h: float, width: float, height: float) -> tuple[int, int]:
        """The most (cols, rows) whose block fits ``width`` x ``height`` (either may be 0)."""
        cols = int((width - w + EPS) // self.pitch_x) + 1 if width + EPS >= w else 0
        rows = int((height - h + EPS) // self.pitch_y) + 1 if height + EPS >= h else 0
        if rows > 1 and self.shift_x and self.size(w, h, cols, rows)[0] > width + EPS:
            cols -= 1
        if cols > 1 and self.shift_y and self.size(w, h, cols, rows)[1] > height + EPS:
            rows -= 1
        return (max(0, cols), max(0, rows))


def grid(w: float, h: float, gap: float) -> Lattice:
    """The plain grid: boxes ``gap`` apart."""
    return Lattice(w + gap, h + gap)


def hex_lattice(w: float, h: float, gap: float) -> Lattice:
    """The nesting of hexes inscribed in a ``w`` x ``h`` box (pnp.core.outline.hex_in_box), their
    edges ``gap`` apart."""
    pointy = h > w
    across, along = (w, h) if pointy else (h, w)  # flat-to-flat, corner-to-corner
    t = math.atan2(along / 4, across / 2)
    shift = (gap - gap / 2 * math.sin(t)) / math.cos(t)
    if pointy:
        return Lattice(w + gap, 3 * h / 4 + shift, shift_x=(w + gap) / 2)
    return Lattice(3 * w / 4 + shift, h + gap, shift_y=(h + gap) / 2)


def is_hex(outline: Outline, w: float, h: float) -> bool:
    """Whether ``outline`` is the hexagon inscribed in its ``w`` x ``h`` box."""
    ref = hex_in_box(w, h)
    return len(outline) == 6 and all(abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 for a, b in zip(outline, ref))
