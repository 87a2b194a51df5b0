"""Lines of rich text (pnp.text): spans measured with the font registry (HarfBuzz's advances for
shaped runs), words kept whole (an icon with the word it touches, or after a space the word before
it), lines broken greedily on spaces, each in visual order (UAX #9) with its direction. Lengths in
mm, sizes in points."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.fonts import DEFAULT_FACE, cap_height, missing_glyphs, text_width_mm
from ..core.shaping import has_rtl, levels, needs_shaping, paragraph_rtl, script_runs, visual_order
from ..core.units import MM_PER_PT
from ..core.values import value
from .markup import EPS, ICON_GAP, Paragraph, Span

def icon_size(span: Span, size_pt: float) -> tuple[float, float, float]:
    """(advance, picture width, picture height) in mm of an icon span at ``size_pt``: the picture is
    the cap height of the span's face tall, and the advance adds ICON_GAP em each side."""
    size = size_pt * MM_PER_PT
    h = cap_height(span.font) * size
    w = h * span.icon.aspect
    return w + 2 * ICON_GAP * size, w, h


def width(span: Span, size_pt: float) -> float:
    """Advance width of a span at ``size_pt``, mm: a shaped text as the sum of its script runs
    (pnp.core.shaping.script_runs), each shaped alone, as :func:`_line` sets them."""
    if span.icon is not None:
        return icon_size(span, size_pt)[0]
    if needs_shaping(span.text):
        return sum(text_width_mm(run, size_pt, span.drawn) for run in script_runs(span.text))
    return text_width_mm(span.text, size_pt, span.drawn)


@value
class Line:
    """One set line: ``pieces`` as (x from the line's start in mm, Span), left to right as they are
    seen, and its ``width`` in mm; ``rtl``: the line's paragraph runs right to left (aligned to the
    right unless the layer says otherwise)."""
    pieces: tuple[tuple[float, Span], ...]
    width: float
    rtl: bool = False


@value
class Fitted:
    """Text set in its box: ``size_pt``, the ``lines`` (pnp.text.lines.Line: a plain text's each one
    run), their ``baselines`` (mm from the box top) and the block's ``height`` (mm: ascent of the first
    line to descent of the last, or with fit_box's ``cap`` cap height of the first to the last baseline)."""
    size_pt: float
    lines: tuple[Line, ...]
    baselines: tuple[float, ...]
    height: float


def _merge(spans: list[Span]) -> list[Span]:
    """Neighbouring text spans of one style joined (fewer Text shapes, the same glyph positions)."""
    out: list[Span] = []
    for s in spans:
        last = out[-1] if out else None
        if (last is not None and s.icon is None and last.icon is None
                and (s.bold, s.italic, s.face) == (last.bold, last.italic, last.face)):
            out[-1] = Span(last.text + s.text, s.bold, s.italic, None, last.offset, s.face)
        else:
            out.append(s)
    return out


def _line(spans: list[Span], size_pt: float, rtl: bool = False) -> Line:
    """The spans of one line (in logical order) placed left to right; with a right-to-left character
    or an ``rtl`` paragraph, cut into runs of one embedding level and reordered (pnp.core.shaping)."""
    merged = _merge(spans)
    if rtl or any(s.text and has_rtl(s.text) for s in merged):
        merged = _visual(merged, rtl)
    merged = _by_script(merged)
    pieces, x = [], 0.0
    for s in merged:
        pieces.append((x, s))
        x += width(s, size_pt)
    return Line(tuple(pieces), x, rtl)


def _by_script(spans: list[Span]) -> list[Span]:
    """``spans`` with each shaped text cut into its runs of one script (pnp.core.shaping.script_runs):
    one Text per run, so each is shaped, drawn and measured in its own script."""
    out: list[Span] = []
    for s in spans:
        runs = script_runs(s.text) if s.icon is None and needs_shaping(s.text) else [s.text]
        if len(runs) == 1:
            out.append(s)
            continue
        at = 0
        for run in runs:
            out.append(Span(run, s.bold, s.italic, None, s.offset + at, s.face))
            at += len(run)
    return out


def _visual(spans: list[Span], rtl: bool) -> list[Span]:
    """``spans`` (one line, logical order) cut where the embedding level changes and put in visual
    order, left to right (UAX #9 L2). An icon is an object replacement character (a neutral): it
    takes the direction of the words round it."""
    text = "".join(s.text if s.icon is None else "\ufffc" for s in spans)
    lv = levels(text, rtl)
    runs: list[tuple[int, Span]] = []
    pos = 0
    for s in spans:
        if s.icon is not None:
            runs.append((lv[pos], s))
            pos += 1
            continue
        start = 0
        for i in range(1, len(s.text) + 1):
            if i == len(s.text) or lv[pos + i] != lv[pos + start]:
                runs.append((lv[pos + start], Span(s.text[start:i], s.bold, s.italic, None, s.offset + start, s.face)))
                start = i
        pos += len(s.text)
    return [runs[i][1] for i in visual_order([level for level, _ in runs])]


def _words(para: Paragraph) -> list[tuple[list[Span], Span | None]]:
    """The paragraph as words (runs of spans with no space; an icon belongs to the word it touches,
    and an icon after a space to the word before it, the space kept inside the word), each with the
    space that comes before it (a Span " " in the style of the first space), None for the first word.
    Runs of spaces count as one, and spaces at either end are dropped."""
    words: list[tuple[list[Span], Span | None]] = []
    current: list[Span] = []
    gap: Span | None = None
    pending: Span | None = None
    for s in para:
        if s.icon is not None:
            if not current and words:
                current, gap = words.pop()
                current = current + [pending] if pending is not None else current
            current.append(s)
            pending = None
            continue
        for part in re.split(r"( +)", s.text):
            if not part:
                continue
            if part.startswith(" "):
                if current:
                    words.append((current, gap))
                    current, gap = [], None
                if pending is None:
                    pending = Span(" ", s.bold, s.italic, None, s.offset, s.face)
            else:
                if not current:
                    gap = pending if words else None
                current.append(Span(part, s.bold, s.italic, None, s.offset, s.face))
                pending = None
    if current:
        words.append((current, gap))
    return words


def break_lines(para: Paragraph, size_pt: float, width_mm: float) -> list[Line]:
    """A paragraph broken into lines at most ``width_mm`` wide where it can be (greedy, on spaces);
    a word wider than the line stays whole on a line of its own (the caller checks widths).

    Words are chosen by the sum of their widths, then each line is measured as it is set (its runs
    merged, reordered and cut by script, :func:`_line`); should the set line be wider than
    ``width_mm`` (a kerned or shaped run measuring more than its words apart), its last words move to
    the next line until it fits, so a line of more than one word is never wider than ``width_mm``."""
    lines: list[Line] = []
    rtl = is_rtl(para)
    words = _words(para)
    i = 0
    while i < len(words):
        j, used = i, 0.0  # words[i:j] on this line, by the sum of their widths
        while j < len(words):
            spans, gap = words[j]
            step = sum(width(s, size_pt) for s in spans) + (width(gap, size_pt) if gap is not None and j > i else 0.0)
            if j > i and used + step > width_mm + EPS:
                break
            used += step
            j += 1
        while True:
            line = _line(_joined(words[i:j]), size_pt, rtl)
            if line.width <= width_mm + EPS or j == i + 1:
                break
            j -= 1
        lines.append(line)
        i = j
    if not lines:
        lines.append(_line([], size_pt, rtl))
    return lines


def _joined(words: list[tuple[list[Span], Span | None]]) -> list[Span]:
    """The spans of consecutive ``words`` (as :func:`_words` gives them) with the spaces between them."""
    out: list[Span] = []
    for k, (spans, gap) in enumerate(words):
        if k and gap is not None:
            out.append(gap)
        out += spans
    return out


def is_rtl(para: Paragraph) -> bool:
    """The paragraph runs right to left: its first strong character is right-to-left (UAX #9 P2)."""
    return any(s.text and has_rtl(s.text) for s in para) and paragraph_rtl("".join(s.text for s in para))



def needs_runs(text: str, font: str = DEFAULT_FACE) -> bool:
    """True when ``text`` cannot be set as one Text in ``font``: it is shaped or runs right to left
    (pnp.core.shaping.needs_shaping: measured with HarfBuzz's advances, reordered by the bidi
    algorithm) or holds a character ``font`` lacks (set in a script's fallback face, :func:`fallback`).
    Latin, Greek and Cyrillic text its face draws is False: it is set as before."""
    return needs_shaping(text) or bool(missing_glyphs(text, font))
