"""The shortcut for plain text in one face (pnp.text): a text with no markup, no shaped script and no
character its face lacks is one run, so its lines are strings measured with the face's advances
(Noto Sans unless a layer chooses a font), broken on word boundaries and shrunk to fit with the same
steps and bounds as rich text (pnp.text.fitting). Template text layers, the games' words, numbers
and reference cards take it; anything else is set as rich text.

A text fits a box w x h mm at a size when every line is at most w mm wide (advance widths from the
font) and the lines, from the top of the first line's tallest glyph (the font's ascent) to the
bottom of the last line's descender, are at most h mm tall. ``\\n`` in a text starts a new line.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.fonts import DEFAULT_FACE, cap_height, face, text_width_mm
from .wrapping import wrap
from ..core.units import MM_PER_PT
from .fitting import block, could_fit, fit_box_size, scan
from .markup import EPS, STEP_PT


def _metrics(font: str = DEFAULT_FACE) -> tuple[float, float]:
    f = face(font)
    return f.ascent, f.descent


@dataclass(frozen=True)
class PlainFitted:
    """A plain text set in its box: ``size_pt``, the ``lines`` (strings), their ``baselines`` (mm from the
    box top) and the block's ``height`` (mm)."""
    size_pt: float
    lines: tuple[str, ...]
    baselines: tuple[float, ...]
    height: float


def lay_out_plain(text: str, size_pt: float, w: float, h: float, wrap_lines: bool, spacing: float,
            font: str = DEFAULT_FACE) -> PlainFitted | None:
    """The text set at ``size_pt`` in the face ``font`` in a ``w`` x ``h`` mm box, or None when it
    does not fit."""
    if wrap_lines:
        lines: list[str] = []
        for para in text.split("\n"):
            lines += (wrap(para, size_pt, w, font) or [""]) if para.strip() else [para]
    else:
        lines = text.split("\n")
    limit = w + EPS
    for line in lines:
        if text_width_mm(line, size_pt, font) > limit:
            return None
    got = block(len(lines), size_pt, *_metrics(font), spacing, h)
    return None if got is None else PlainFitted(size_pt, tuple(lines), *got)


def fit_plain_box(text: str, max_pt: float, min_pt: float, w: float, h: float, spacing: float,
             font: str = DEFAULT_FACE, caps: bool = False) -> PlainFitted | None:
    """The text's lines (split at ``\\n``, never wrapped) set as large as a ``w`` x ``h`` mm box
    allows, at any size (not a step) up to ``max_pt``: the widest line exactly ``w`` wide
    (pnp.text.fitting.fit_box_size) unless the block's height stops it first. The block is measured from the
    first line's ascent to the last line's descent, or with ``caps`` from the first line's cap
    height to the last line's baseline (descenders may hang below the box). None when the box
    allows less than ``min_pt`` (a size within 1e-6 pt of it is set at ``min_pt``).

    The baselines of the result are mm from the box top (first: ascent, or with ``caps`` the cap
    height, below it); ``height`` is the block's height by the same measure."""
    lines = text.split("\n")
    f = face(font)
    top, bottom = (cap_height(font), 0.0) if caps else (f.ascent, f.descent)
    widths = [text_width_mm(text if len(lines) == 1 else line, 10.0, font) for line in lines]
    got = fit_box_size(widths, max_pt, min_pt, w, h, spacing, top, bottom)
    return None if got is None else PlainFitted(got[0], tuple(lines), *got[1:])


def largest_fitting(lay_out_at, size_pt: float, min_pt: float, step: float = STEP_PT):
    """The first non-None ``lay_out_at(size)`` for sizes from ``size_pt`` down to ``min_pt`` in steps of
    ``step`` points (pnp.text.fitting.scan): a layout of the caller's own (a reference card) shrunk to
    the largest size that fits; None when nothing does."""
    return scan(lay_out_at, size_pt, min_pt, step=step)


def fit_plain(text: str, size_pt: float, min_pt: float, w: float, h: float, wrap_lines: bool,
        spacing: float, font: str = DEFAULT_FACE) -> PlainFitted | None:
    """The largest size from ``size_pt`` down to ``min_pt`` (quarter-point steps) at which the text
    fits, set there; None when it does not fit even at ``min_pt``."""
    got = lay_out_plain(text, size_pt, w, h, wrap_lines, spacing, font)
    if got is not None or min_pt >= size_pt:
        return got
    if not wrap_lines:  # the lines are fixed: width and height grow in proportion to the size
        return _direct(text, size_pt, min_pt, w, h, spacing, font)
    # Wrapped text is not monotonic in the size, so the steps are tried from the top down (fitting.scan):
    # the first that fits is the largest. A bisection would miss it (found by tests/custom/test_custom_textfit.py's
    # property test); only the sizes could_fit rules out (a word wider than the box, too few lines'
    # room) are skipped.
    words = [[text_width_mm(word, 1.0, font) for word in para.split()] for para in text.split("\n")]
    possible = could_fit(words, *_metrics(font), spacing, w, h)
    return scan(lambda size: lay_out_plain(text, size, w, h, wrap_lines, spacing, font), size_pt, min_pt, possible)


def _largest(per_pt: float, size_pt: float, w: float, h: float, tall: float) -> float:
    """The largest size (pt, any, at most ``size_pt``) at which lines ``per_pt`` mm wide at 1 pt fit
    ``w`` mm and a block ``tall`` mm tall at 1 pt fits ``h`` mm."""
    return min(size_pt, w / per_pt if per_pt > 0 else size_pt, h / tall)


def _direct(text: str, size_pt: float, min_pt: float, w: float, h: float, spacing: float,
            font: str = DEFAULT_FACE) -> PlainFitted | None:
    """fit() for lines that do not wrap: the largest quarter-point step at which both the widest line
    and the block's height fit, computed, then set (None when it does not fit at ``min_pt``)."""
    asc, desc = _metrics(font)
    lines = text.split("\n")
    tall = (asc + desc + (len(lines) - 1) * spacing) * MM_PER_PT
    best = None
    if len(lines) == 1 and size_pt > 0:
        # fit() measured the line at size_pt: its width there over size_pt is its width at 1 pt to
        # within a few units of the last digit, which moves ``best`` by far less than 1e-6 of a step.
        # Only a ``best`` that close to where the step taken changes is worked out from the width at 1 pt.
        best = _largest(text_width_mm(text, size_pt, font) / size_pt, size_pt, w, h, tall)
        k = (best - min_pt + EPS) / STEP_PT
        if abs(k - round(k)) < 1e-6 or abs(best - (min_pt - EPS)) < 1e-6:
            best = None
    if best is None:
        best = _largest(max(text_width_mm(line, 1.0, font) for line in lines), size_pt, w, h, tall)
    if best < min_pt - EPS:
        return None
    size = min_pt + int((best - min_pt + EPS) / STEP_PT) * STEP_PT
    for trial in (size, size - STEP_PT):  # rounding at the last digit may need one step down
        if trial >= min_pt - EPS:
            got = lay_out_plain(text, trial, w, h, False, spacing, font)
            if got is not None:
                return got
    return None

