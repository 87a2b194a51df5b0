"""Text fitted to a box (pnp.text): the lines stacked by the face's ascent and descent (a fallback
face's only as far as its glyphs draw), shrunk in quarter-point steps until they fit, or set as large
as the box allows (pnp.text.steps). Rich text and plain text alike: a plain text is paragraphs of one
run (pnp.text.markup.plain), and when every paragraph is one Latin run of one style these functions
take the shortcut of pnp.text.latin themselves, which gives the same ``Fitted``. Lengths in mm, sizes
in points."""
from __future__ import annotations

from ..core.fonts import DEFAULT_FACE, face, ink, is_fallback
from . import latin
from .lines import Fitted, Line, _line, _words, break_lines, is_rtl, width
from .markup import EPS, Paragraph, fallback, plain
from .steps import block, could_fit, fit_box_size, scan

def _metrics(paras: tuple[Paragraph, ...]) -> tuple[float, float]:
    """How far a line of ``paras`` reaches above and below its baseline (fractions of the em): the
    ascent and descent of the faces the text is set in (Noto Sans when every span is in a script's
    fallback face), and of a fallback face (Noto Sans Arabic's line box is 2.11 em) only as far as
    its glyphs draw (pnp.core.fonts.ink), so a title in another script fits the box a Latin one does."""
    own = {s.drawn for p in paras for s in p if not is_fallback(s.font)} or {DEFAULT_FACE}
    asc, desc = max(face(f).ascent for f in own), max(face(f).descent for f in own)
    for p in paras:
        for s in p:
            if s.icon is None and s.text.strip() and is_fallback(s.font):
                top, bottom = ink(s.text, s.drawn)
                asc, desc = max(asc, top), max(desc, bottom)
    return asc, desc


def _word_widths(paras: tuple[Paragraph, ...], wrap: bool) -> list[list[float]]:
    """could_fit()'s ``words`` for rich text: per paragraph each word's width at 1 pt (icons included)."""
    out = []
    for para in paras:
        widths = [sum(width(s, 1.0) for s in spans) for spans, _gap in _words(para)]
        out.append(widths if wrap else [sum(widths)])
    return out


def set_lines(paras: tuple[Paragraph, ...], size_pt: float, width_mm: float | None) -> list[Line]:
    """Each paragraph broken into lines at most ``width_mm`` wide at ``size_pt`` (None: one line per
    paragraph, never broken), each in visual order with its direction (``Line.rtl``): a paragraph of
    one Latin run by the shortcut (pnp.text.latin.lines), any other by pnp.text.lines.break_lines.
    A word wider than the line stays whole on a line of its own (the caller checks widths)."""
    out: list[Line] = []
    for para in paras:
        run = latin.one_run((para,))
        if run is not None:
            out += latin.lines(run, size_pt, width_mm)
        elif width_mm is None:
            out.append(_line(list(para), size_pt, is_rtl(para)))
        else:
            out += break_lines(para, size_pt, width_mm)
    return out


def plain_lines(text: str, size_pt: float, width_mm: float | None, bold: bool = False) -> list[Line]:
    """Plain ``text`` (no markup; one paragraph per line break) in Noto Sans, bold or not, its
    characters Noto Sans lacks in their script's fallback face (pnp.text.markup.fallback), broken into
    lines at most ``width_mm`` wide (:func:`set_lines`; ``None``: one line per paragraph, never
    broken), each in visual order with its direction (``Line.rtl``)."""
    return set_lines(fallback(plain(text, bold)), size_pt, width_mm)


def lay_out(paras: tuple[Paragraph, ...], size_pt: float, w: float, h: float, wrap: bool,
            spacing: float) -> Fitted | None:
    """The paragraphs set at ``size_pt`` in a ``w`` x ``h`` mm box (broken into lines when ``wrap``;
    ``spacing`` is the line height as a multiple of the size), or None when they do not fit."""
    run = latin.one_run(paras)
    if run is not None:
        return latin.made(paras, run, latin.lay_out(paras, run, size_pt, w, h, wrap, spacing))
    return _lay_out(paras, size_pt, w, h, wrap, spacing)


def _lay_out(paras: tuple[Paragraph, ...], size_pt: float, w: float, h: float, wrap: bool,
             spacing: float) -> Fitted | None:
    """lay_out() by the general path: every paragraph's spans measured and broken (pnp.text.lines)."""
    lines: list[Line] = []
    for para in paras:
        lines += break_lines(para, size_pt, w) if wrap else [_line(list(para), size_pt, is_rtl(para))]
    if any(line.width > w + EPS for line in lines):
        return None
    got = block(len(lines), size_pt, *_metrics(paras), spacing, h)
    return None if got is None else Fitted(size_pt, tuple(lines), *got)


def fit(paras: tuple[Paragraph, ...], size_pt: float, min_pt: float, w: float, h: float, wrap: bool,
        spacing: float) -> Fitted | None:
    """The largest size from ``size_pt`` down to ``min_pt`` in quarter-point steps at which the text
    fits (pnp.text.steps.scan); None when it does not fit even at ``min_pt``.

    Raises:
        TooManySizes: shrinking a wrapped text laid it out at MAX_SCAN_STEPS sizes and none fitted."""
    run = latin.one_run(paras)
    if run is not None:
        return latin.fit(paras, run, size_pt, min_pt, w, h, wrap, spacing)
    got = _lay_out(paras, size_pt, w, h, wrap, spacing)
    if got is not None or min_pt >= size_pt:
        return got
    possible = could_fit(_word_widths(paras, wrap), *_metrics(paras), spacing, w, h)
    return scan(lambda size: _lay_out(paras, size, w, h, wrap, spacing), size_pt, min_pt, possible)


def fit_box(paras: tuple[Paragraph, ...], max_pt: float, min_pt: float, w: float, h: float, spacing: float,
            cap: float | None = None) -> Fitted | None:
    """Text, one line per paragraph (never wrapped), as large as a ``w`` x ``h`` mm box allows
    (pnp.text.steps.fit_box_size; advances measured as drawn: HarfBuzz's for shaped runs, scaled from
    10 pt), measured from the first line's ascent to the last line's descent of its tallest face, or,
    given ``cap`` (a cap height, fraction of the em), from the first line's cap height to the last
    baseline (descenders may hang below the box). None when it does not fit at ``min_pt`` (a size
    within 1e-6 pt of it is set at ``min_pt``)."""
    run = latin.one_run(paras)
    if run is not None:
        return latin.fit_box(paras, run, max_pt, min_pt, w, h, spacing, cap)
    asc, desc = (cap, 0.0) if cap is not None else _metrics(paras)
    widths = [sum(width(s, 10.0) for s in p) for p in paras]
    got = fit_box_size(widths, max_pt, min_pt, w, h, spacing, asc, desc)
    if got is None:
        return None
    size, baselines, height = got
    return Fitted(size, tuple(_line(list(p), size, is_rtl(p)) for p in paras), baselines, height)
