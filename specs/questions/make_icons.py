"""Draw the question deck's inline icons (icons/*.svg) with svgwrite: run
``python specs/questions/make_icons.py`` after changing a shape. Each icon is drawn on a 24 x 24
grid, in one dark colour so it reads as a glyph beside the text, and its page is cropped to the
drawing (an icon is scaled to the text's cap height: margins would only make it smaller; see
docs/templates.md, "Inline icons")."""
from __future__ import annotations

from pathlib import Path

import svgwrite

INK = "#222222"
HERE = Path(__file__).resolve().parent / "icons"


def hammer(path: Path) -> None:
    """A claw hammer, head up and to the left, handle down to the right."""
    dwg = svgwrite.Drawing(str(path), size=("7.77mm", "10mm"), viewBox="2.2 0.6 16 20.6", profile="tiny",
                           debug=False)  # the drawing's bounds, 0.5 units round
    body = dwg.g(fill=INK, transform="rotate(-30 12 12) translate(12 12) scale(0.8) translate(-12 -12)")
    body.add(dwg.rect((10.2, 7.5), (3.6, 16.5), rx=1.2))                     # handle
    body.add(dwg.polygon([(5, 2.5), (16.5, 2.5), (16.5, 8.5), (5, 8.5), (3, 6.5), (3, 4.5)]))  # head and face
    body.add(dwg.polygon([(16.5, 3), (21, 1.5), (19, 5.5), (21, 9), (16.5, 8)]))  # the claw
    dwg.add(body)
    dwg.save(pretty=True)


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    hammer(HERE / "hammer.svg")
