"""Where the cards of a showcase picture go (pnp.render.showcase): a fan, a grid or one card, as a
Scene in millimetres, scaled to the picture's width in pixels. Pure geometry: nothing is drawn here.

A card's shadow is offset SHADOW_DX, SHADOW_DY and blurred SHADOW_BLUR (a Gaussian's standard
deviation), all as fractions of the card's shorter side, at SHADOW_OPACITY; every scene keeps a
margin round its cards wide enough that the shadow fades out inside the picture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import SpecError
from ..layout.limits import MAX_RASTER_PIXELS

SHADOW_DX, SHADOW_DY, SHADOW_BLUR, SHADOW_OPACITY = 0.012, 0.03, 0.022, 0.42
_FADE = 3.2  # standard deviations past which the blurred shadow is under half a level of alpha
GRID_GAP = 0.14  # between grid cells, a fraction of the shorter side (the shadow fits in it)
GRID_ASPECT = 0.75  # a grid's height / width aimed at (landscape, as a web page shows a picture)
FAN_STEP, FAN_SPREAD, FAN_RADIUS = 9.0, 56.0, 1.5
"""A fan's cards turn FAN_STEP degrees apart, at most FAN_SPREAD degrees from first to last, about a
point FAN_RADIUS card heights below each card's centre."""


@dataclass(frozen=True)
class Spot:
    """One card in a scene: its centre ``cx``, ``cy`` (mm, y down) and ``angle`` (degrees clockwise)."""
    cx: float
    cy: float
    angle: float = 0.0


@dataclass(frozen=True)
class Scene:
    """Cards of ``size`` (w, h mm) at ``spots``, in a picture of ``width`` x ``height`` mm (the
    cards' extent plus the shadow margin; spots are in its frame)."""
    size: tuple[float, float]
    spots: tuple[Spot, ...]
    width: float
    height: float

    def pixels(self, width_px: int) -> tuple[int, int, float]:
        """(width, height, px per mm) of the picture ``width_px`` pixels wide."""
        scale = width_px / self.width
        return width_px, max(1, math.ceil(self.height * scale - 1e-9)), scale


def margin(w: float, h: float) -> float:
    """The margin (mm) round a card of ``w`` x ``h`` mm that holds its shadow."""
    d = min(w, h)
    return d * (max(SHADOW_DX, SHADOW_DY) + _FADE * SHADOW_BLUR)


def _corners(w: float, h: float, spot: Spot) -> list[tuple[float, float]]:
    a = math.radians(spot.angle)
    c, s = math.cos(a), math.sin(a)
    return [(spot.cx + x * c - y * s, spot.cy + x * s + y * c)
            for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]


def _framed(w: float, h: float, spots: list[Spot]) -> Scene:
    """The scene of ``spots`` moved so that their extent sits ``margin`` inside the picture."""
    pts = [p for spot in spots for p in _corners(w, h, spot)]
    m = margin(w, h)
    x0, y0 = min(x for x, _ in pts) - m, min(y for _, y in pts) - m
    x1, y1 = max(x for x, _ in pts) + m, max(y for _, y in pts) + m
    return Scene((w, h), tuple(Spot(s.cx - x0, s.cy - y0, s.angle) for s in spots), x1 - x0, y1 - y0)


def card_scene(w: float, h: float) -> Scene:
    """One card of ``w`` x ``h`` mm, upright."""
    return _framed(w, h, [Spot(0.0, 0.0)])


def fan_scene(w: float, h: float, count: int) -> Scene:
    """``count`` cards (at least 1) in a hand fan: turned about a point below them, first card left."""
    step = FAN_STEP if count < 2 else min(FAN_STEP, FAN_SPREAD / (count - 1))
    radius = FAN_RADIUS * h
    spots = []
    for i in range(count):
        angle = (i - (count - 1) / 2) * step
        a = math.radians(angle)
        spots.append(Spot(radius * math.sin(a), -radius * math.cos(a), angle))
    return _framed(w, h, spots)


def grid_columns(w: float, h: float, count: int) -> int:
    """Columns of a grid of ``count`` cards: the picture near GRID_ASPECT and its last row full (the
    log of the aspect's ratio to GRID_ASPECT plus the share of empty cells, least wins)."""
    gap = GRID_GAP * min(w, h)

    def cost(cols: int) -> float:
        rows = math.ceil(count / cols)
        aspect = (rows * (h + gap)) / (cols * (w + gap))
        return abs(math.log(aspect / GRID_ASPECT)) + (rows * cols - count) / max(1, count)

    return min(range(1, max(1, count) + 1), key=cost)


def grid_scene(w: float, h: float, count: int, cols: int | None = None) -> Scene:
    """``count`` cards in rows of ``cols`` (default grid_columns), left to right, top to bottom."""
    cols = cols or grid_columns(w, h, count)
    gap = GRID_GAP * min(w, h)
    spots = [Spot((i % cols) * (w + gap) + w / 2, (i // cols) * (h + gap) + h / 2) for i in range(max(1, count))]
    # the full width of ``cols`` cells even when the last row is short (every sheet of a deck the same)
    spots_frame = spots + [Spot((cols - 1) * (w + gap) + w / 2, h / 2)]
    framed = _framed(w, h, spots_frame)
    return Scene(framed.size, framed.spots[:len(spots)], framed.width, framed.height)


def check_pixels(name: str, w: float, h: float, width_px: int, fan: int, faces: int, grid_faces: int) -> None:
    """Refuse a component whose fan of ``fan`` cards, card picture or grid (up to ``grid_faces`` a
    picture, of ``faces``) would exceed MAX_RASTER_PIXELS at ``width_px`` pixels wide (a tall part:
    a bookmark).

    Raises:
        SpecError: naming the component, the picture, its pixels and the widest width that fits.
    """
    scenes = [("card", card_scene(w, h)), ("fan", fan_scene(w, h, max(1, fan)))]
    cols = grid_columns(w, h, min(grid_faces, max(1, faces)))
    scenes.append(("grid", grid_scene(w, h, min(grid_faces, max(1, faces)), cols)))
    for what, scene in scenes:
        pw, ph, _ = scene.pixels(width_px)
        if pw * ph > MAX_RASTER_PIXELS:
            fits = int(width_px * math.sqrt(MAX_RASTER_PIXELS / (pw * ph)))
            raise SpecError(f"{name}: its showcase {what} picture would be {pw:,} x {ph:,} px ({pw * ph / 1e6:.0f} "
                            f"megapixels, limit {MAX_RASTER_PIXELS / 1e6:.0f}).", field="--showcase-width",
                            hint=f"use at most --showcase-width {fits}")
