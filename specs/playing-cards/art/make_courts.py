"""Draw the court cards' figures as SVG files with svgwrite (run from anywhere:
``python specs/playing-cards/art/make_courts.py``; it writes king-, queen- and jack-red.svg and
-black.svg beside itself).

Each figure is a bust in simple geometric shapes, drawn twice as real court cards are: the upper half,
and the same half turned half a turn about the card's centre below a dividing line, so the card reads
the same either way up. The king wears a crown and a beard and holds a sceptre, the queen a tiara and
long hair and holds a flower, the jack a cap with a feather and holds a staff. The robes are in the
suit's colour (crimson or black, the colours of cards.csv), the regalia in gold, the faces left white.

The card's front.yaml prints a figure in its frame of 34.5 x 70.9 mm, so the drawing is 345 x 709
units (0.1 mm each, y down), each half 345 x 354.5.
"""
from __future__ import annotations

from pathlib import Path

import svgwrite

HERE = Path(__file__).resolve().parent
W, H = 345, 709                        # the frame, in 0.1 mm
HALF = H / 2                           # the dividing line
CX = W / 2                             # the figure's axis
COLOURS = {"red": "#dc143c", "black": "#000000"}
GOLD, PAPER = "#e8b028", "#ffffff"
LINE = 3.0                             # outline width, 0.3 mm


def _path(d: svgwrite.Drawing, commands: str, fill: str, ink: str, width: float = LINE):
    return d.path(d=commands, fill=fill, stroke=ink, stroke_width=width, stroke_linejoin="round")


def _robe(d, g, ink: str) -> None:
    """Square shoulders and a robe down to the dividing line, a gold collar with a V and buttons, and
    a gold hem along the line with a row of diamonds."""
    g.add(_path(d, f"M 34 {HALF} L 34 304 Q 38 266 118 256 L 227 256 Q 307 266 311 304 L 311 {HALF} Z", ink, ink))
    g.add(_path(d, f"M 112 257 L {CX} 322 L 233 257 L 210 254 L {CX} 298 L 135 254 Z", GOLD, ink))
    for y in (314, 328):
        g.add(d.circle(center=(CX, y), r=4, fill=GOLD, stroke=ink, stroke_width=1.5))
    g.add(d.polygon([(34, HALF - 18), (311, HALF - 18), (305, HALF - 9), (311, HALF), (34, HALF), (40, HALF - 9)],
                    fill=GOLD, stroke=ink, stroke_width=LINE))               # notched at both ends
    for i in range(9):
        x, y = 34 + (i + 0.5) * 277 / 9, HALF - 9
        g.add(d.polygon([(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)], fill=ink))


def _face(d, g, ink: str) -> None:
    """Neck, head and features: eyes, brows, nose and mouth."""
    g.add(d.rect(insert=(CX - 18, 215), size=(36, 46), fill=PAPER, stroke=ink, stroke_width=LINE))
    g.add(d.ellipse(center=(CX, 182), r=(44, 54), fill=PAPER, stroke=ink, stroke_width=LINE))
    for side in (-1, 1):
        g.add(d.ellipse(center=(CX + side * 17, 178), r=(5, 3.5), fill=ink))
        g.add(_path(d, f"M {CX + side * 8} 166 Q {CX + side * 17} 160 {CX + side * 27} 166", "none", ink, 2.5))
    g.add(_path(d, f"M {CX - 2} 180 L {CX - 7} 203 L {CX + 3} 205", "none", ink, 2.5))


def _mouth(d, g, ink: str) -> None:
    g.add(_path(d, f"M {CX - 11} 218 Q {CX} 225 {CX + 11} 218", "none", ink, 2.5))


def king(d, g, ink: str) -> None:
    g.add(d.line(start=(292, HALF), end=(292, 120), stroke=GOLD, stroke_width=10))    # the sceptre
    g.add(d.line(start=(292, HALF), end=(292, 120), stroke=ink, stroke_width=2))
    g.add(d.circle(center=(292, 108), r=16, fill=GOLD, stroke=ink, stroke_width=LINE))
    g.add(_path(d, "M 292 84 L 292 100 M 284 92 L 300 92", "none", ink, 3))
    _robe(d, g, ink)
    _face(d, g, ink)
    # the beard, round below the mouth, and a moustache
    g.add(_path(d, f"M {CX - 44} 188 Q {CX - 42} 262 {CX} 278 Q {CX + 42} 262 {CX + 44} 188 "
                   f"Q {CX + 30} 226 {CX} 228 Q {CX - 30} 226 {CX - 44} 188 Z", ink, ink))
    g.add(_path(d, f"M {CX - 20} 214 Q {CX - 10} 204 {CX} 211 Q {CX + 10} 204 {CX + 20} 214 "
                   f"Q {CX} 219 {CX - 20} 214 Z", ink, ink))
    # the crown: a band with three jewels and five points, a ball on each
    top, band = 78, 130
    points = [(CX - 50, band), (CX - 50, top + 8), (CX - 33, band - 22), (CX - 16, top), (CX, band - 24),
              (CX + 16, top), (CX + 33, band - 22), (CX + 50, top + 8), (CX + 50, band)]
    g.add(d.polygon(points, fill=GOLD, stroke=ink, stroke_width=LINE, stroke_linejoin="round"))
    g.add(d.rect(insert=(CX - 52, band - 4), size=(104, 18), rx=3, fill=GOLD, stroke=ink, stroke_width=LINE))
    for x, y in ((CX - 50, top + 8), (CX - 16, top), (CX + 16, top), (CX + 50, top + 8)):
        g.add(d.circle(center=(x, y), r=6, fill=GOLD, stroke=ink, stroke_width=2))
    for x in (CX - 30, CX, CX + 30):
        g.add(d.circle(center=(x, band + 5), r=4.5, fill=ink))


def queen(d, g, ink: str) -> None:
    # long hair behind the head, falling to the shoulders
    g.add(_path(d, f"M {CX - 50} 175 C {CX - 64} 120 {CX - 30} 112 {CX} 114 C {CX + 30} 112 {CX + 64} 120 "
                   f"{CX + 50} 175 C {CX + 62} 230 {CX + 70} 262 {CX + 44} 282 L {CX - 44} 282 "
                   f"C {CX - 70} 262 {CX - 62} 230 {CX - 50} 175 Z", ink, ink))
    # a flower on a stem, held at the left
    g.add(_path(d, f"M 62 {HALF} Q 58 230 66 150", "none", ink, 4))
    g.add(_path(d, "M 63 210 Q 40 196 34 206 Q 46 220 63 214 Z", ink, ink, 2))
    for dx, dy in ((0, -14), (13, -4), (8, 12), (-8, 12), (-13, -4)):
        g.add(d.circle(center=(66 + dx, 136 + dy), r=9, fill=PAPER, stroke=ink, stroke_width=2.5))
    g.add(d.circle(center=(66, 136), r=6, fill=GOLD, stroke=ink, stroke_width=2))
    _robe(d, g, ink)
    _face(d, g, ink)
    _mouth(d, g, ink)
    # the fringe over the brow, and the tiara: a gold arc with three points and a jewel
    g.add(_path(d, f"M {CX - 45} 168 Q {CX - 40} 130 {CX} 132 Q {CX + 40} 130 {CX + 45} 168 "
                   f"Q {CX + 30} 146 {CX} 150 Q {CX - 30} 146 {CX - 45} 168 Z", ink, ink))
    g.add(_path(d, f"M {CX - 40} 136 Q {CX} 118 {CX + 40} 136 L {CX + 28} 112 L {CX + 14} 124 L {CX} 94 "
                   f"L {CX - 14} 124 L {CX - 28} 112 Z", GOLD, ink))
    g.add(d.circle(center=(CX, 118), r=5, fill=ink))
    for x in (CX - 28, CX + 28):
        g.add(d.circle(center=(x, 110), r=4, fill=GOLD, stroke=ink, stroke_width=2))


def jack(d, g, ink: str) -> None:
    # a staff held at the left, with a gold head
    g.add(d.line(start=(58, HALF), end=(58, 140), stroke=ink, stroke_width=6))
    g.add(d.polygon([(58, 100), (72, 140), (58, 152), (44, 140)], fill=GOLD, stroke=ink, stroke_width=LINE))
    _robe(d, g, ink)
    _face(d, g, ink)
    _mouth(d, g, ink)
    # short curls at the sides, a thin moustache
    for side in (-1, 1):
        for y in (150, 172, 194):
            g.add(d.circle(center=(CX + side * 46, y), r=11, fill=ink))
    g.add(_path(d, f"M {CX - 15} 212 Q {CX} 205 {CX + 15} 212", "none", ink, 3))
    # the cap: a flat beret tipped to one side, a gold band, a feather sweeping up to the right
    g.add(_path(d, f"M {CX + 60} 100 C {CX + 110} 60 {CX + 120} 40 {CX + 104} 28 "
                   f"C {CX + 96} 60 {CX + 70} 82 {CX + 44} 118 Z", GOLD, ink))
    g.add(_path(d, f"M {CX + 50} 108 Q {CX + 92} 60 {CX + 104} 30", "none", ink, 2))
    g.add(d.ellipse(center=(CX + 8, 116), r=(66, 24), fill=ink, stroke=ink, stroke_width=LINE,
                    transform=f"rotate(-8 {CX + 8} 116)"))
    g.add(d.rect(insert=(CX - 46, 126), size=(92, 14), rx=4, fill=GOLD, stroke=ink, stroke_width=LINE))


FIGURES = {"king": king, "queen": queen, "jack": jack}


def figure(name: str, colour: str) -> svgwrite.Drawing:
    """The figure ``name`` (king, queen, jack) in ``colour`` (red, black): both halves and the line."""
    ink = COLOURS[colour]
    d = svgwrite.Drawing(str(HERE / f"{name}-{colour}.svg"), size=("34.5mm", "70.9mm"),
                         viewBox=f"0 0 {W} {H}", debug=False)
    for turn in (0, 180):                                        # the upper half, then the same turned
        g = d.g(transform=f"rotate({turn} {CX} {HALF})")
        FIGURES[name](d, g, ink)
        d.add(g)
    d.add(d.line(start=(0, HALF), end=(W, HALF), stroke=ink, stroke_width=LINE))
    return d


def main() -> None:
    for name in FIGURES:
        for colour in COLOURS:
            figure(name, colour).save(pretty=True)


if __name__ == "__main__":
    main()
