"""A standee: a figure printed front and back on one strip folded over at its head, standing in a
slotted base fin (a cross-lap joint). Lengths in mm, y down, from the strip's top-left corner.

The strip is, top to bottom: the back's stand, the back (printed turned 180 degrees, so that folded
behind the front over the fold line at the head it reads upright from behind), the front, the
front's stand. Folded, the two stands lie on each other and their slots (from the strip's ends,
half a stand deep) meet; the base fin, as wide as the figure and a stand tall, has a slot from its
top edge half its height deep: pushed into each other at right angles the two slots lock.

Slots are sized from the stock's ``thickness`` (one layer, mm) with PLAY: the strip's slots take the
fin, one layer (``thickness + PLAY``); the fin's slot takes the folded stands, two layers
(``2 x thickness + PLAY``). Too wide and the figure leans; too narrow and the card tears.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.outline import Outline

PLAY = 0.2          # mm: a slot's width beyond the layers of card it takes (a snug fit that does not tear)
STAND_FRACTION = 0.25  # a stand's height as a fraction of the figure's height
STAND_MIN = 10.0    # mm: the least stand that holds in its base


@dataclass(frozen=True, eq=False)
class StandeeNet:
    """The strip of a ``width`` x ``height`` mm figure cut from card ``thickness`` mm thick:
    ``stand`` mm below the front and above the back, slots sized from the thickness (module docstring)."""
    width: float
    height: float
    thickness: float

    @property
    def strip_slot(self) -> float:
        """Width of the slot at each end of the strip, mm: the base fin (one layer) plus PLAY."""
        return self.thickness + PLAY

    @property
    def base_slot(self) -> float:
        """Width of the base fin's slot, mm: the folded stands (two layers) plus PLAY."""
        return 2 * self.thickness + PLAY

    @property
    def stand(self) -> float:
        return max(STAND_MIN, self.height * STAND_FRACTION)

    @property
    def length(self) -> float:
        """The strip's height on the sheet, mm: two stands and two figures."""
        return 2 * self.stand + 2 * self.height

    @property
    def back_box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the back panel (drawn turned 180 degrees)."""
        return (0.0, self.stand, self.width, self.height)

    @property
    def front_box(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the front panel, upright."""
        return (0.0, self.stand + self.height, self.width, self.height)

    @property
    def fold(self) -> tuple[float, float, float, float]:
        """The fold line at the figure's head, between back and front."""
        y = self.stand + self.height
        return (0.0, y, self.width, y)

    @property
    def outline(self) -> Outline:
        """The strip with a slot ``strip_slot`` wide and half a stand deep in the middle of each end, clockwise."""
        w, L, d = self.width, self.length, self.stand / 2
        a, b = (w - self.strip_slot) / 2, (w + self.strip_slot) / 2
        return ((0.0, 0.0), (a, 0.0), (a, d), (b, d), (b, 0.0), (w, 0.0),
                (w, L), (b, L), (b, L - d), (a, L - d), (a, L), (0.0, L))

    @property
    def base_size(self) -> tuple[float, float]:
        """The base fin: as wide as the figure, a stand tall."""
        return (self.width, self.stand)

    @property
    def base_outline(self) -> Outline:
        """The fin with a slot ``base_slot`` wide and half its height deep from the middle of its top edge."""
        w, h = self.base_size
        a, b = (w - self.base_slot) / 2, (w + self.base_slot) / 2
        return ((0.0, 0.0), (a, 0.0), (a, h / 2), (b, h / 2), (b, 0.0), (w, 0.0), (w, h), (0.0, h))
