"""pnp's typesetter: one model from a cell's text to drawn runs, for every caller (templates, covers,
booklets, labels, preflight).

paragraph -> runs -> lines -> a fitted box:

- ``markup``: a text parsed into paragraphs of styled spans and inline icons (``parse``; ``plain``
  for a text with no markup: one run a paragraph), each span's face chosen (``fallback``: a
  script's fallback face for characters the face lacks);
- ``lines``: spans measured and broken into lines (``break_lines``), each in visual order;
- ``fitting``: lines stacked in a box and shrunk to fit (``fit``, ``lay_out``, ``fit_box``), by one
  set of steps and bounds (``scan``, ``could_fit``);
- ``drawing``: a fitted box as ``ir.Text`` runs and ``ir.Image`` icons (``draw``, ``text_shapes``);
- ``plainfit``: the shortcut for a plain text in one face (no markup, no shaped script, no missing
  glyph): its lines are strings, fitted with the same steps (``fit_plain``, ``fit_plain_box``).

Lengths are mm, font sizes points, positions relative to the text box's top-left corner.
"""
from __future__ import annotations

from .drawing import UNDERLINE_DROP, UNDERLINE_WIDTH, draw, draw_line, text_shapes, underline
from .fitting import (MAX_SCAN_STEPS, TYPICAL_SCAN_LAYOUTS, Fitted, TooManySizes, block, could_fit, fit, fit_box,
                      fit_box_size, lay_out, scan, scan_layouts)
from .lines import Line, break_lines, icon_size, is_rtl, needs_runs, plain_lines, width
from .markup import (EPS, ICON_GAP, ICON_NAME, STEP_PT, Icon, IconLookup, MarkupError, Paragraph, Span, faces_used,
                     fallback, has_markup, missing, parse, plain, unbolded)
from .plainfit import PlainFitted, fit_plain, fit_plain_box, largest_fitting, lay_out_plain

__all__ = ["EPS", "ICON_GAP", "ICON_NAME", "MAX_SCAN_STEPS", "STEP_PT", "TYPICAL_SCAN_LAYOUTS", "UNDERLINE_DROP",
           "UNDERLINE_WIDTH", "Fitted", "Icon", "IconLookup", "Line", "MarkupError", "Paragraph", "PlainFitted", "Span",
           "TooManySizes", "block", "break_lines", "could_fit", "draw", "draw_line", "faces_used", "fallback", "fit",
           "fit_box", "fit_box_size", "fit_plain", "fit_plain_box", "has_markup", "icon_size", "is_rtl", "largest_fitting",
           "lay_out", "lay_out_plain", "missing", "needs_runs", "parse", "plain", "plain_lines", "scan", "scan_layouts",
           "text_shapes", "underline", "unbolded", "width"]
