"""pnp's typesetter: one model from a cell's text to drawn runs, for every caller (templates, covers,
booklets, labels, preflight).

paragraph -> runs -> lines -> a fitted box:

- ``markup``: a text parsed into paragraphs of styled spans and inline icons (``parse``; ``plain``
  for a text with no markup: one run a paragraph), each span's face chosen (``fallback``: a
  script's fallback face for characters the face lacks);
- ``lines``: spans measured and broken into lines (``break_lines``), each in visual order;
- ``fitting``: lines stacked in a box and shrunk to fit (``fit``, ``lay_out``, ``fit_box``: one
  ``Fitted`` of ``Line``s, for plain and rich text alike), by one set of steps and bounds
  (``steps``: ``scan``, ``could_fit``, ``block``, ``fit_box_size``);
- ``latin``: inside ``fitting`` and ``set_lines``, the shortcut for paragraphs of one Latin run of
  one style (no icon, no shaped or right-to-left script): laid out as strings while sizes are tried,
  then made into the same ``Line``s; no caller chooses it;
- ``drawing``: a fitted box as ``ir.Text`` runs and ``ir.Image`` icons (``draw``, ``draw_line``,
  ``text_shapes``), each Text with its ``width`` (mm) as measured in fitting; ``whole`` tells a
  caller that draws its own anchored Text that a line is one run.

Lengths are mm, font sizes points, positions relative to the text box's top-left corner.
"""
from __future__ import annotations

from .fitting import Fitted, fit, fit_box, lay_out, plain_lines, set_lines
from .lines import Line, break_lines, icon_size, is_rtl, needs_runs, width
from .markup import (EPS, ICON_GAP, ICON_NAME, STEP_PT, Icon, IconLookup, MarkupError, Paragraph, Span, faces_used,
                     fallback, has_markup, missing, parse, plain, unbolded)
from .steps import (MAX_SCAN_STEPS, TYPICAL_SCAN_LAYOUTS, TooManySizes, block, could_fit, fit_box_size, scan,
                    scan_layouts)
from .drawing import UNDERLINE_DROP, UNDERLINE_WIDTH, draw, draw_line, text_shapes, underline, whole

__all__ = ["EPS", "ICON_GAP", "ICON_NAME", "MAX_SCAN_STEPS", "STEP_PT", "TYPICAL_SCAN_LAYOUTS", "UNDERLINE_DROP",
           "UNDERLINE_WIDTH", "Fitted", "Icon", "IconLookup", "Line", "MarkupError", "Paragraph", "Span",
           "TooManySizes", "block", "break_lines", "could_fit", "draw", "draw_line", "faces_used", "fallback", "fit",
           "fit_box", "fit_box_size", "has_markup", "icon_size", "is_rtl", "lay_out", "missing", "needs_runs", "parse",
           "plain", "plain_lines", "scan", "scan_layouts", "set_lines", "text_shapes", "underline", "unbolded", "whole",
           "width"]
