"""Draw the four suit icons of the playing-card example as SVG files (run from anywhere:
``python specs/playing-cards/icons/make_icons.py``; it writes spades.svg, hearts.svg, diamonds.svg
and clubs.svg beside itself).

Each icon is simple geometry in a 100 x 100 box (y down), written with svgwrite:
  * heart: two circular lobes joined by the lines tangent to them from the point at the bottom;
  * spade: the heart turned upside down, on a stem with curved sides;
  * club: three circles and a fill circle between them, on the same stem;
  * diamond: four slightly hollow sides (quadratic curves) between the four points.
The icons are pnp's own drawings (no font, no clip art). The cards' front.yaml draws them with
image layers (corner index and centre pip); text layers can use them inline as :hearts: etc.
"""
from __future__ import annotations

import math
from pathlib import Path

import svgwrite

HERE = Path(__file__).resolve().parent
RED, BLACK = "#dc143c", "#000000"  # crimson and black, the colours of cards.csv
SIZE = "10mm"                      # the icons' nominal size; layers scale them to their boxes


def _tangent(p: tuple[float, float], c: tuple[float, float], r: float, side: int) -> tuple[float, float]:
    """The point where a line from ``p`` touches the circle (``c``, ``r``); ``side`` -1 or +1 picks
    which of the two tangents (left or right of the line from p to c, seen from p)."""
    dx, dy = c[0] - p[0], c[1] - p[1]
    d = math.hypot(dx, dy)
    along = math.sqrt(d * d - r * r)          # distance from p to the tangent point
    base = math.atan2(dy, dx)
    turn = math.asin(r / d) * side
    return round(p[0] + along * math.cos(base + turn), 2), round(p[1] + along * math.sin(base + turn), 2)


def _lobes(drawing: svgwrite.Drawing, point: tuple[float, float], lobe_y: float, r: float, gap: float, fill: str):
    """A heart-like outline: two lobes of radius ``r`` centred ``gap`` either side of x = 50 at
    ``lobe_y``, and the point ``point``; upside down when the point is above the lobes."""
    left, right = (50 - gap, lobe_y), (50 + gap, lobe_y)
    down = point[1] > lobe_y
    t1 = _tangent(point, left, r, -1 if down else 1)     # the outer tangents
    t2 = _tangent(point, right, r, 1 if down else -1)
    cusp = (50, round(lobe_y + (-1 if down else 1) * math.sqrt(r * r - gap * gap), 2))
    sweep = "+" if down else "-"
    path = drawing.path(d=("M", *point), fill=fill)
    path.push("L", *t1)
    path.push_arc(cusp, 0, r, large_arc=True, angle_dir=sweep, absolute=True)
    path.push_arc(t2, 0, r, large_arc=True, angle_dir=sweep, absolute=True)
    path.push("Z")
    return path


def _stem(drawing: svgwrite.Drawing, top: float, fill: str):
    """A stem from (50, top) down to a foot 28 wide at y = 96, its sides curved inwards."""
    path = drawing.path(d=("M", 50, top), fill=fill)
    path.push("Q", 49, 86, 36, 96)
    path.push("L", 64, 96)
    path.push("Q", 51, 86, 50, top)
    path.push("Z")
    return path


def heart(d: svgwrite.Drawing) -> None:
    d.add(_lobes(d, (50, 94), 32, 25, 22, RED))


def spade(d: svgwrite.Drawing) -> None:
    d.add(_lobes(d, (50, 4), 58, 23, 20, BLACK))
    d.add(_stem(d, 62, BLACK))


def club(d: svgwrite.Drawing) -> None:
    for cx, cy in ((50, 26), (28, 58), (72, 58)):
        d.add(d.circle(center=(cx, cy), r=20, fill=BLACK))
    d.add(d.circle(center=(50, 50), r=12, fill=BLACK))
    d.add(_stem(d, 56, BLACK))


def diamond(d: svgwrite.Drawing) -> None:
    path = d.path(d=("M", 50, 3), fill=RED)
    for q in ((60, 30, 85, 50), (60, 70, 50, 97), (40, 70, 15, 50), (40, 30, 50, 3)):
        path.push("Q", *q)
    path.push("Z")
    d.add(path)


ICONS = {"spades": spade, "hearts": heart, "diamonds": diamond, "clubs": club}


def main() -> None:
    for name, draw in ICONS.items():
        drawing = svgwrite.Drawing(str(HERE / f"{name}.svg"), size=(SIZE, SIZE), viewBox="0 0 100 100", debug=False)
        draw(drawing)
        drawing.save(pretty=True)


if __name__ == "__main__":
    main()
