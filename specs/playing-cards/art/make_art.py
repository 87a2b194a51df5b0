"""Draw the jokers' picture, joker.png, with Pillow (run from anywhere:
``python specs/playing-cards/art/make_art.py``; it writes joker.png beside itself).

A jester's cap of three horns with a bell on each, over a band of diamonds, in a ring.
The card's front.yaml prints it in a 36 x 36 mm box, so PIXELS = 600 gives 423 dpi (above the
300 dpi that `pnp validate` asks for). Drawn four times larger and scaled down for smooth edges,
then reduced to a 32-colour palette so the file stays small.
"""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
PIXELS = 600
SS = 4                                   # supersampling factor
CRIMSON, NAVY, GOLD, INK, PAPER = (220, 20, 60), (31, 58, 95), (232, 176, 40), (20, 20, 20), (255, 255, 255)


def _point(cx: float, cy: float, r: float, angle: float) -> tuple[float, float]:
    return cx + r * math.cos(math.radians(angle)), cy + r * math.sin(math.radians(angle))


def _curve(a, c, b, steps: int = 24) -> list[tuple[float, float]]:
    """Points along the quadratic Bezier curve from ``a`` to ``b`` with control point ``c``."""
    return [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
             (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]) for t in (i / steps for i in range(steps + 1))]


def draw(n: int) -> Image.Image:
    """The picture, ``n`` x ``n`` pixels (white background)."""
    im = Image.new("RGB", (n, n), PAPER)
    d = ImageDraw.Draw(im)
    u = n / 100.0                        # one unit: 1 % of the picture
    d.ellipse((3 * u, 3 * u, 97 * u, 97 * u), outline=INK, width=round(1.6 * u))
    band_y, band_l, band_r = 66 * u, 24 * u, 76 * u
    # the cap: three horns from the band, each bounded by two quadratic curves meeting at its tip
    horns = (((22, 66), (14, 44), (8, 34), (30, 36), (42, 66)),      # left horn, hanging out
             ((38, 66), (42, 34), (50, 14), (58, 34), (62, 66)),     # middle horn, upright
             ((58, 66), (70, 36), (92, 34), (86, 44), (78, 66)))     # right horn, hanging out
    for colour, (a, c1, tip, c2, b) in zip((CRIMSON, NAVY, CRIMSON), horns):
        outline = _curve(a, c1, tip) + _curve(tip, c2, b)[1:]
        d.polygon([(x * u, y * u) for x, y in outline], fill=colour, outline=INK, width=round(0.9 * u))
    for x, y in ((8, 34), (50, 14), (92, 34)):                       # a bell at each tip
        r = 5.5 * u
        d.ellipse((x * u - r, y * u - r, x * u + r, y * u + r), fill=GOLD, outline=INK, width=round(0.9 * u))
    # the band, with a row of diamonds
    d.rounded_rectangle((band_l - 3 * u, band_y, band_r + 3 * u, band_y + 12 * u), radius=3 * u, fill=GOLD,
                        outline=INK, width=round(0.9 * u))
    for i in range(5):
        cx, cy, h = band_l + (i + 0.5) * (band_r - band_l) / 5, band_y + 6 * u, 4 * u
        d.polygon([(cx, cy - h), (cx + h * 0.7, cy), (cx, cy + h), (cx - h * 0.7, cy)], fill=CRIMSON if i % 2 else NAVY)
    # a small star under the band
    star = [_point(50 * u, 87 * u, (5 if k % 2 == 0 else 2.2) * u, -90 + 36 * k) for k in range(10)]
    d.polygon(star, fill=NAVY)
    return im


def main() -> None:
    big = draw(PIXELS * SS)
    small = big.resize((PIXELS, PIXELS), Image.LANCZOS)
    small.quantize(colors=32, method=Image.Quantize.MEDIANCUT).save(HERE / "joker.png", optimize=True)


if __name__ == "__main__":
    main()
