"""The labelled placeholder an image layer with ``missing: placeholder`` prints where its picture will go.

A picture not in the game folder yet (or a ``src`` that is a web address, which a build never
fetches) is drawn as pnp.core.ir shapes in the layer's box, so every output shows it the same way: a
light tint with a thin outline, a diagonal cross from corner to corner, and the file's name on a band
of the tint across the middle, set as large as fits between LABEL_MAX_PT and LABEL_MIN_PT. A name
that does not fit at LABEL_MIN_PT, or holds a character Noto Sans lacks or a script that needs
shaping, gets no label: drawing a placeholder never fails. Lengths in mm, sizes in points.
"""
from __future__ import annotations

from ..core.fonts import DEFAULT_FACE, missing_glyphs
from ..core.ir import Line, Rect, Shape, Text
from ..core.shaping import has_rtl, needs_shaping
from .. import text as typeset

TINT = "#e6edf5"        # the box's fill: a light blue-grey, plainly not art
INK = "#5b6b7c"         # outline, cross and label
OUTLINE_MM = 0.25       # the outline's width (0.7 pt: a thin line that still prints)
CROSS_MM = 0.18         # the cross's lines
LABEL_MAX_PT = 9.0      # a label is never set larger
LABEL_MIN_PT = 5.0      # nor smaller: below this a printed name is hard to read
PAD_MM = 1.0            # room between the label's band and the box's sides
LINE_SPACING = 1.2


def placeholder(x: float, y: float, w: float, h: float, label: str) -> tuple[Shape, ...]:
    """The placeholder for a ``w`` x ``h`` mm box with its top-left corner at (``x``, ``y``) mm:
    a tinted, outlined Rect, two Lines corner to corner and, when ``label`` can be set (``label_fit``),
    a tinted band with the label centred on the box. Raises nothing."""
    shapes: list[Shape] = [Rect(x, y, w, h, fill=TINT, stroke=INK, stroke_width=OUTLINE_MM),
                           Line(x, y, x + w, y + h, stroke=INK, stroke_width=CROSS_MM),
                           Line(x + w, y, x, y + h, stroke=INK, stroke_width=CROSS_MM)]
    got = label_fit(label, w - 2 * PAD_MM, h - 2 * PAD_MM)
    if got is not None:
        size, width, tall, baseline = got
        cx, top = x + w / 2, y + (h - tall) / 2
        band = min(width + PAD_MM, w - OUTLINE_MM)
        shapes.append(Rect(cx - band / 2, top, band, tall, fill=TINT, stroke=None))
        shapes.append(Text(cx, top + baseline, label, size_pt=size, anchor="middle", fill=INK, font=DEFAULT_FACE,
                           width=width))
    return tuple(shapes)


def label_fit(label: str, w: float, h: float) -> tuple[float, float, float, float] | None:
    """How ``label`` is set on one line in a ``w`` x ``h`` mm box: (size in points, width in mm, the
    line's height from ascent to descent in mm, its baseline in mm below the line's top); None when
    it is empty, does not fit at LABEL_MIN_PT, or Noto Sans cannot set it left to right unshaped."""
    if (not label or w <= 0 or h <= 0 or "\n" in label or needs_shaping(label) or has_rtl(label)
            or missing_glyphs(label)):
        return None
    got = typeset.fit_box(typeset.plain(label), LABEL_MAX_PT, LABEL_MIN_PT, w, h, LINE_SPACING)
    if got is None:
        return None
    return got.size_pt, got.lines[0].width, got.height, got.baselines[0]
