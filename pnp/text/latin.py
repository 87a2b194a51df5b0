"""The Latin shortcut inside pnp.text's fitting: a text whose every paragraph is one run (at most one
text span, no icon) of one style, in a face that is no script's fallback, and neither shaped nor
right to left, is laid out as strings (each line one run: reportlab's simpleSplit breaks it,
pnp.text.wrapping.wrap) while sizes are tried, and only the size that fits is made into ``Line``s. The
result is the ``Fitted`` the general path (pnp.text.fitting) gives for the same paragraphs: the same
size, lines (one Span each, at the paragraph's offset), widths, baselines and height.

A text fits a box w x h mm at a size when every line is at most w mm wide (advance widths from the
font) and the lines, from the top of the first line's tallest glyph (the face's ascent) to the
bottom of the last line's descender, are at most h mm tall. Lengths in mm, sizes in points.
"""
from __future__ import annotations

from ..core.fonts import face, is_fallback, text_width_mm
from .wrapping import wrap
from ..core.shaping import has_rtl, needs_shaping
from ..core.units import MM_PER_PT
from .steps import block, could_fit, fit_box_size, scan
from .lines import Fitted, Line
from .markup import EPS, STEP_PT, Paragraph, Span

_NO_LINE = Line((), 0.0)

# (size_pt, the lines as strings, their widths in mm, baselines, height): a layout before it is made into Lines
Laid = tuple[float, list[str], list[float], tuple[float, ...], float]


def one_run(paras: tuple[Paragraph, ...]) -> Span | None:
    """The first span of ``paras`` when the shortcut sets them: every paragraph empty or one text span,
    all of one style (bold, italic, face), in a face that is no script's fallback, and no span shaped
    or right to left; else None (and None for paragraphs with no span at all)."""
    if len(paras) == 1 and len(paras[0]) == 1:  # one line, one span: the usual cell
        s = paras[0][0]
        if s.icon is None and (s.text.isascii() or not (needs_shaping(s.text) or has_rtl(s.text))) and (
                not s.face or not is_fallback(s.face)):
            return s
        return None
    first = None
    for para in paras:
        if not para:
            continue
        if len(para) > 1:
            return None
        s = para[0]
        if s.icon is not None or not (s.text.isascii() or not (needs_shaping(s.text) or has_rtl(s.text))):
            return None
        if first is None:
            if is_fallback(s.font):
                return None
            first = s
        elif s.bold != first.bold or s.italic != first.italic or s.face != first.face:
            return None
    return first


def texts(paras: tuple[Paragraph, ...]) -> list[str]:
    """Each paragraph's text ("" for an empty one)."""
    return [para[0].text if para else "" for para in paras]


def lay_out(paras: tuple[Paragraph, ...], run: Span, size_pt: float, w: float, h: float, wrapped: bool,
            spacing: float) -> tuple[Laid, list[int]] | None:
    """The paragraphs (one run each, :func:`one_run`) set at ``size_pt`` in a ``w`` x ``h`` mm box, as
    strings with the paragraph each line comes from; None when they do not fit."""
    font = run.drawn
    owners: list[int] = []
    if wrapped:
        strings: list[str] = []
        for k, text in enumerate(texts(paras)):
            got = (wrap(text, size_pt, w, font) or [""]) if text.strip() else [""]
            strings += got
            owners += [k] * len(got)
    else:
        strings = texts(paras)
        owners = list(range(len(strings)))
    limit = w + EPS
    widths = []
    for line in strings:
        got = text_width_mm(line, size_pt, font)
        if got > limit:
            return None
        widths.append(got)
    f = face(font)
    placed = block(len(strings), size_pt, f.ascent, f.descent, spacing, h)
    return None if placed is None else ((size_pt, strings, widths, *placed), owners)


def made(paras: tuple[Paragraph, ...], run: Span, got: tuple[Laid, list[int]] | None):
    """``got`` (a :func:`lay_out`) as a Fitted, or None. A line that is its
    paragraph's whole text is set with that paragraph's own Span (one Span made per paragraph, not
    per size tried or per line)."""
    if got is None:
        return None
    (size_pt, strings, widths, baselines, height), owners = got
    bold, italic, own = run.bold, run.italic, run.face
    lines = []
    for text, wide, k in zip(strings, widths, owners):
        if not text:
            lines.append(_NO_LINE)
            continue
        span = paras[k][0]
        if span.text != text:  # a wrapped paragraph's line: its text, at the paragraph's offset
            span = Span(text, bold, italic, None, span.offset, own)
        lines.append(Line(((0.0, span),), wide))
    return Fitted(size_pt, tuple(lines), baselines, height)


def fit(paras: tuple[Paragraph, ...], run: Span, size_pt: float, min_pt: float, w: float, h: float, wrapped: bool,
        spacing: float):
    """The largest size from ``size_pt`` down to ``min_pt`` (quarter-point steps) at which the text
    fits, set there (as :func:`made` gives it); None when it does not fit even at ``min_pt``.

    Raises:
        TooManySizes: as pnp.text.fitting.scan."""
    got = lay_out(paras, run, size_pt, w, h, wrapped, spacing)
    if got is not None or min_pt >= size_pt:
        return made(paras, run, got)
    if not wrapped:  # the lines are fixed: width and height grow in proportion to the size
        return made(paras, run, _direct(paras, run, size_pt, min_pt, w, h, spacing))
    # Wrapped text is not monotonic in the size, so the steps are tried from the top down (fitting.scan):
    # the first that fits is the largest. A bisection would miss it (found by tests/custom/test_custom_textfit.py's
    # property test); only the sizes could_fit rules out (a word wider than the box, too few lines'
    # room) are skipped.
    font = run.drawn
    f = face(font)
    words = [[text_width_mm(word, 1.0, font) for word in text.split()] for text in texts(paras)]
    possible = could_fit(words, f.ascent, f.descent, spacing, w, h)
    return made(paras, run, scan(lambda size: lay_out(paras, run, size, w, h, True, spacing), size_pt, min_pt,
                                 possible))


def fit_box(paras: tuple[Paragraph, ...], run: Span, max_pt: float, min_pt: float, w: float, h: float,
            spacing: float, cap: float | None):
    """One line per paragraph as large as the box allows (pnp.text.steps.fit_box_size), as
    :func:`made` gives it; ``cap``: measured from the first line's cap height (fraction of the em) to
    the last baseline. None when the box allows less than ``min_pt``."""
    font = run.drawn
    if cap is None:
        f = face(font)
        top, bottom = f.ascent, f.descent
    else:
        top, bottom = cap, 0.0
    if len(paras) == 1 and paras[0]:  # one line, the paragraph's own Span: the usual cell
        span = paras[0][0]
        wide = text_width_mm(span.text, 10.0, font)
        got = fit_box_size([wide], max_pt, min_pt, w, h, spacing, top, bottom)
        if got is None:
            return None
        size = got[0]  # an advance width is proportional to the size: measured once, at 10 pt
        return Fitted(size, (Line(((0.0, span),), wide * size / 10.0),), got[1], got[2])
    strings = texts(paras)
    got = fit_box_size([text_width_mm(text, 10.0, font) for text in strings], max_pt, min_pt, w, h, spacing,
                       top, bottom)
    if got is None:
        return None
    size = got[0]
    laid = (size, strings, [text_width_mm(text, size, font) for text in strings], *got[1:])
    return made(paras, run, (laid, list(range(len(strings)))))


def lines(run: Span, size_pt: float, width_mm: float | None) -> list[Line]:
    """The one-run paragraph ``run`` (:func:`one_run`) broken into lines at most ``width_mm`` wide
    (simpleSplit's greedy rule; None: one line, never broken), as pnp.text.lines.break_lines sets it;
    a word wider than the line stays whole on a line of its own (the caller checks widths)."""
    font, text = run.drawn, run.text
    if width_mm is None:
        return [Line(((0.0, run),), text_width_mm(text, size_pt, font))]
    if not text.strip():
        return [_NO_LINE]
    bold, italic, own, at = run.bold, run.italic, run.face, run.offset
    return [Line(((0.0, Span(line, bold, italic, None, at, own)),), text_width_mm(line, size_pt, font))
            for line in wrap(text, size_pt, width_mm, font)]


def _largest(per_pt: float, size_pt: float, w: float, h: float, tall: float) -> float:
    """The largest size (pt, any, at most ``size_pt``) at which lines ``per_pt`` mm wide at 1 pt fit
    ``w`` mm and a block ``tall`` mm tall at 1 pt fits ``h`` mm."""
    return min(size_pt, w / per_pt if per_pt > 0 else size_pt, h / tall)


def _direct(paras: tuple[Paragraph, ...], run: Span, size_pt: float, min_pt: float, w: float, h: float,
            spacing: float) -> tuple[Laid, list[int]] | None:
    """fit() for lines that do not wrap: the largest quarter-point step at which both the widest line
    and the block's height fit, computed, then set (None when it does not fit at ``min_pt``)."""
    font = run.drawn
    f = face(font)
    strings = texts(paras)
    tall = (f.ascent + f.descent + (len(strings) - 1) * spacing) * MM_PER_PT
    best = None
    if len(strings) == 1 and size_pt > 0:
        # fit() measured the line at size_pt: its width there over size_pt is its width at 1 pt to
        # within a few units of the last digit, which moves ``best`` by far less than 1e-6 of a step.
        # Only a ``best`` that close to where the step taken changes is worked out from the width at 1 pt.
        best = _largest(text_width_mm(strings[0], size_pt, font) / size_pt, size_pt, w, h, tall)
        k = (best - min_pt + EPS) / STEP_PT
        if abs(k - round(k)) < 1e-6 or abs(best - (min_pt - EPS)) < 1e-6:
            best = None
    if best is None:
        best = _largest(max(text_width_mm(line, 1.0, font) for line in strings), size_pt, w, h, tall)
    if best < min_pt - EPS:
        return None
    size = min_pt + int((best - min_pt + EPS) / STEP_PT) * STEP_PT
    for trial in (size, size - STEP_PT):  # rounding at the last digit may need one step down
        if trial >= min_pt - EPS:
            got = lay_out(paras, run, trial, w, h, False, spacing)
            if got is not None:
                return got
    return None
