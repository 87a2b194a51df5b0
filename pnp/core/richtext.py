"""Rich text: a small markup parsed into styled runs and inline icons, measured with the font
registry, broken into lines, shrunk to fit a box, and drawn as ``ir.Text`` runs and ``ir.Image`` icons.

The markup (docs/templates.md, "Rich text" and "Inline icons"; the rules cover takes the same bold
and italic, docs/rules-text.md):

* ``**bold**`` and ``*italic*``; they combine (``***both***``) and nest (``**a *b* c**``). Each
  ``**`` or ``*`` switches its style on or off: it opens when a non-space follows it and closes
  when a non-space precedes it (as in Markdown), so ``3 * 4`` keeps its asterisk; one left open at
  the end of the text is an error.
* a line break: a newline in the text (a cell with several lines) or the two characters ``\\n``
  (easier to type in a spreadsheet cell).
* ``:name:`` an inline icon (name: letters, digits, ``-`` and ``_``, at most 40), when the caller
  gives an icon lookup; without one it is plain text.
* ``\\*``, ``\\:`` and ``\\\\`` print ``*``, ``:`` and ``\\``; any other backslash prints as typed.

Bold is set in a bold face (``Text.bold``; pnp.core.fonts.styled_face: Noto Sans Bold, or Bold
Italic, static instances pnp ships) and measured with that face's advances. Italic is the face
``NotoSans-Italic`` of pnp.core.fonts. An icon is as tall as the cap height of the text around it,
sits on the baseline, keeps its picture's proportions, has ICON_GAP em of room on each side and
flows with the words when lines wrap (an icon is part of the word it touches, or after a space of
the word before it).

Every length is in mm, font sizes in points, positions relative to the text box's top-left corner.
"""
from __future__ import annotations

import math

import re
from dataclasses import dataclass
from typing import Callable

from .fonts import (DEFAULT_FACE, ITALIC_FACE, cap_height, face, fallback_for, ink, is_fallback, missing_glyphs,
                    styled_face, text_width_mm)
from .ir import Image, Line as Rule, Text
from .shaping import has_rtl, levels, needs_shaping, paragraph_rtl, script_runs, visual_order
from .units import MM_PER_PT

STEP_PT = 0.25   # shrink in steps of a quarter point
ICON_GAP = 0.06  # em of room each side of an inline icon
EPS = 1e-6
ICON_NAME = re.compile(r":([A-Za-z0-9_-]{1,40}):")
MARKUP = re.compile(r"[*\\]")
"""Text without these characters (and, with icons, without ``:name:``) has no markup."""


@dataclass(frozen=True, eq=False)
class Icon:
    """An inline picture: its ``name`` (as written, ``:name:``), ``src`` (absolute path of a checked
    PNG or SVG file), ``aspect`` (width / height of the picture) and ``root`` (the game folder SVG
    art's references stay inside, pnp.inputs.gamefolder; None: it may reference no file)."""
    name: str
    src: str
    aspect: float
    root: str | None = None


@dataclass(frozen=True)
class Span:
    """A run of one style: ``text`` (no line breaks) or an ``icon`` (then text is ""), ``bold`` and
    ``italic``; ``offset`` is where it starts in the source text (0-based, for messages)."""
    text: str
    bold: bool = False
    italic: bool = False
    icon: Icon | None = None
    offset: int = 0
    face: str = ""
    """A registered face to set the span in instead (a layer's own font); "" for Noto Sans."""

    @property
    def font(self) -> str:
        """The face the span is set in."""
        return self.face or (ITALIC_FACE if self.italic else DEFAULT_FACE)

    @property
    def drawn(self) -> str:
        """The face the span's glyphs are drawn and measured in: :attr:`font`, or its bold face."""
        return styled_face(self.font, self.bold)


class MarkupError(ValueError):
    """Bad markup: ``message`` and the 0-based ``offset`` of the character it is about; ``icon``: the
    icon lookup refused the ``:name:`` there (unknown, or a file that may not be used)."""

    def __init__(self, message: str, offset: int, icon: bool = False) -> None:
        super().__init__(message)
        self.message, self.offset, self.icon = message, offset, icon


Paragraph = tuple[Span, ...]
IconLookup = Callable[[str], Icon]
"""name -> Icon; raises KeyError (its message names what there is) for an unknown icon."""


def has_markup(text: str, icons: bool = False) -> bool:
    """True when ``text`` holds markup characters (``*``, ``\\``) or, with ``icons``, an ``:icon:``."""
    return bool(MARKUP.search(text) or (icons and ICON_NAME.search(text)))


_PLAIN = r"\\[*:\\n]|\*\*|\*|\r\n|[\r\n]"
_TOKENS = {False: re.compile(_PLAIN), True: re.compile(_PLAIN + "|" + ICON_NAME.pattern)}


def parse(text: str, icon: IconLookup | None = None, bold: bool = False) -> tuple[Paragraph, ...]:
    """``text`` as paragraphs (one per line break) of Spans; ``bold`` is the style the text starts
    in (a layer's ``bold: true``: ``**`` then switches bold off).

    Raises:
        MarkupError: a ``**`` or ``*`` never closed (at the opening mark), an unknown icon (the
            lookup's message).
    """
    paras: list[Paragraph] = []
    spans: list[Span] = []
    buf: list[str] = []
    start = 0
    is_bold, is_italic = bold, False
    opened: dict[str, int] = {}

    def flush(at: int) -> None:
        nonlocal buf, start
        if buf:
            spans.append(Span("".join(buf), is_bold, is_italic, None, start))
        buf, start = [], at

    pos = 0
    for m in _TOKENS[icon is not None].finditer(text):
        if m.start() > pos:
            if not buf:
                start = pos
            buf.append(text[pos:m.start()])
        tok = m.group(0)
        pos = m.end()
        if tok.startswith("\\") and tok != "\\n":
            if not buf:
                start = m.start()
            buf.append(tok[1])
        elif tok in ("\\n", "\n", "\r", "\r\n"):
            flush(pos)
            paras.append(tuple(spans))
            spans = []
        elif tok in ("**", "*"):
            before = text[m.start() - 1] if m.start() else " "
            after = text[m.end()] if m.end() < len(text) else " "
            if (before.isspace() if tok in opened else after.isspace()):  # "3 * 4": an asterisk
                if not buf:
                    start = m.start()
                buf.append(tok)
                continue
            flush(pos)
            if tok in opened:
                del opened[tok]
            else:
                opened[tok] = m.start()
            if tok == "**":
                is_bold = not is_bold
            else:
                is_italic = not is_italic
        else:
            flush(pos)
            try:
                found = icon(m.group(1))
            except KeyError as exc:
                raise MarkupError(str(exc.args[0]) if exc.args else f"no icon {m.group(1)!r}", m.start(),
                                  icon=True) from None
            spans.append(Span("", is_bold, is_italic, found, m.start()))
    if pos < len(text):
        if not buf:
            start = pos
        buf.append(text[pos:])
    flush(len(text))
    paras.append(tuple(spans))
    if opened:
        mark, at = min(opened.items(), key=lambda kv: kv[1])
        what = "bold" if mark == "**" else "italic"
        raise MarkupError(f"the {mark} there starts {what} text that is never closed", at)
    return tuple(paras)


def plain(text: str, bold: bool = False) -> tuple[Paragraph, ...]:
    """``text`` without markup as paragraphs (one per line break) of one Span each, ``bold`` or not."""
    paras, offset = [], 0
    for line in re.split(r"\r\n|[\r\n]", text):
        paras.append((Span(line, bold, False, None, offset),) if line else ())
        offset += len(line) + 1
    return tuple(paras)


def fallback(paras: tuple[Paragraph, ...]) -> tuple[Paragraph, ...]:
    """``paras`` with every character a span's face lacks set in the first fallback face that draws
    it (pnp.core.fonts.FALLBACKS: Noto Sans Arabic, Hebrew, Devanagari); spaces, digits and marks
    between such characters stay in that face, so a word and its marks are shaped as one run. A
    fallback span keeps its bold (drawn in the fallback's bold face where pnp ships one,
    pnp.core.fonts.bold_of) and is set upright (no fallback face has an italic). The
    spans of a text its faces draw whole are returned as they are; a character no face draws stays
    in its span's face (``missing`` then names it)."""
    out = []
    for para in paras:
        if all(s.icon is not None or not missing_glyphs(s.text, s.drawn) for s in para):
            out.append(para)
            continue
        spans: list[Span] = []
        for s in para:
            if s.icon is not None or not missing_glyphs(s.text, s.drawn):
                spans.append(s)
                continue
            own = s.drawn
            cmap = face(own).cmap
            pieces: list[list] = []  # [face, start, end]
            for i, ch in enumerate(s.text):
                last = pieces[-1][0] if pieces else None
                if ord(ch) in cmap and not (last not in (None, own) and not ch.isalpha()
                                            and ord(ch) in face(last).cmap):
                    chosen = own
                else:
                    chosen = fallback_for(ch) if ord(ch) not in cmap else last
                    chosen = chosen or own
                if pieces and pieces[-1][0] == chosen:
                    pieces[-1][2] = i + 1
                else:
                    pieces.append([chosen, i, i + 1])
            for chosen, a, b in pieces:
                text = s.text[a:b]
                if chosen == own:
                    spans.append(Span(text, s.bold, s.italic, None, s.offset + a, s.face))
                else:  # a fallback face has no italic: set upright; bold in its bold face (fonts.styled_face)
                    spans.append(Span(text, s.bold, False, None, s.offset + a, chosen))
        out.append(tuple(spans))
    return tuple(out)


def faces_used(paras: tuple[Paragraph, ...]) -> set[str]:
    """The faces the spans of ``paras`` are drawn in."""
    return {s.drawn for para in paras for s in para if s.icon is None and s.text}


def unbolded(paras: tuple[Paragraph, ...]) -> set[str]:
    """The script fallback faces (pnp.core.fonts.FALLBACKS) that bold spans of ``paras`` are set
    regular in because pnp has no bold of them (Noto Sans Hebrew)."""
    return {s.font for para in paras for s in para
            if s.bold and s.icon is None and s.text.strip() and is_fallback(s.font) and s.drawn == s.font}


def missing(paras: tuple[Paragraph, ...]) -> tuple[Span, str] | None:
    """The first span with a character its face cannot draw, and that character; None when all draw."""
    for para in paras:
        for span in para:
            if span.text:
                lacking = missing_glyphs(span.text, span.drawn)
                if lacking:
                    return span, lacking[0]
    return None


# --- measuring and breaking lines ---------------------------------------------------------------

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


@dataclass(frozen=True)
class Line:
    """One set line: ``pieces`` as (x from the line's start in mm, Span), left to right as they are
    seen, and its ``width`` in mm; ``rtl``: the line's paragraph runs right to left (aligned to the
    right unless the layer says otherwise)."""
    pieces: tuple[tuple[float, Span], ...]
    width: float
    rtl: bool = False


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


# --- fitting a box ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fitted:
    """Rich text set in its box: ``size_pt``, the ``lines``, their ``baselines`` (mm from the box
    top) and the block's ``height`` (mm: ascent of the first line to descent of the last)."""
    size_pt: float
    lines: tuple[Line, ...]
    baselines: tuple[float, ...]
    height: float


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


def block(count: int, size_pt: float, asc: float, desc: float, spacing: float,
          h: float) -> tuple[tuple[float, ...], float] | None:
    """``count`` lines at ``size_pt`` stacked ``spacing`` x the size apart: their baselines (mm from
    the top: the first one ascent ``asc`` below it) and the block's height (ascent of the first line
    to descent ``desc`` of the last; both fractions of the em), or None when taller than ``h`` mm."""
    size = size_pt * MM_PER_PT
    lead = spacing * size
    height = (asc + desc) * size + (count - 1) * lead
    if height > h + EPS:
        return None
    return tuple(asc * size + i * lead for i in range(count)), height


MAX_SCAN_STEPS = 64  # sizes laid out below the largest one could_fit allows: 16 pt in quarter points


class TooManySizes(Exception):
    """scan() laid out MAX_SCAN_STEPS sizes from ``from_pt`` down to ``last_pt`` and none fitted."""

    def __init__(self, from_pt: float, last_pt: float) -> None:
        super().__init__(f"no fit from {from_pt:g} pt down to {last_pt:g} pt")
        self.from_pt, self.last_pt = from_pt, last_pt


TYPICAL_SCAN_LAYOUTS = 3.25  # measured: 1,500-character texts shrinking from 400 pt fit after this many more


def scan_layouts(size_pt: float, min_pt: float) -> float:
    """How many layouts scan() typically makes for a text that shrinks from ``size_pt`` to ``min_pt``
    (the caller's first try at ``size_pt`` not counted): a bisection of could_fit's bound is
    arithmetic only, then TYPICAL_SCAN_LAYOUTS, never more than the steps there are; at most
    MAX_SCAN_STEPS in any case."""
    return min(TYPICAL_SCAN_LAYOUTS, int((size_pt - min_pt + EPS) / STEP_PT) + 1) if min_pt < size_pt else 0


def scan(lay_out_at: Callable[[float], object | None], size_pt: float, min_pt: float,
         possible: Callable[[float], bool] | None = None, step: float = STEP_PT):
    """The first non-None ``lay_out_at(size)`` for sizes below ``size_pt`` (which the caller tried)
    down to ``min_pt`` in ``step`` (a quarter point unless given) steps above ``min_pt``: the
    largest size that fits. Wrapped text
    is not monotonic in the size (a smaller size can wrap into more lines and stop fitting while a
    larger one fits), so no bisection of the layout itself. ``possible(size)`` (see :func:`could_fit`),
    a necessary condition that holds below some size and fails above it, is bisected first: the
    steps above the largest size it allows cannot fit and are skipped, so the answer is the same and
    the steps tried are a bisection plus the few between that bound and the size that fits. None when
    nothing fits.

    Raises:
        TooManySizes: with ``possible``, MAX_SCAN_STEPS sizes below its bound were laid out and none
            fits (more would be unbounded work on a long text: the caller names the text and asks for
            a smaller start size). Without it every step is tried.
    """
    top = int((size_pt - min_pt + EPS) / step)
    if possible is not None:
        lo, hi = -1, top  # possible() holds at lo (or lo is -1), the answer is at most hi
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if possible(min_pt + mid * step):
                lo = mid
            else:
                hi = mid - 1
        top = lo
    for tried, k in enumerate(range(top, -1, -1)):
        if tried == MAX_SCAN_STEPS and possible is not None:
            raise TooManySizes(min_pt + top * step, min_pt + (k + 1) * step)
        got = lay_out_at(min_pt + k * step)
        if got is not None:
            return got
    return None


SLACK = 1e-6  # relative: widths measured at 1 pt and scaled may differ from those measured at the size in the last digits


def could_fit(words: list[list[float]], asc: float, desc: float, spacing: float, w: float,
              h: float) -> Callable[[float], bool]:
    """A necessary condition for a text to fit a ``w`` x ``h`` mm box, as a function of the size in
    points: ``words`` holds per paragraph the advance width (mm at 1 pt) of each word without its
    spaces (a line set without wrapping: one entry, the sum). At a size where the widest word is wider
    than the box, or the fewest lines the words could take (per paragraph, their total width over
    the box width, rounded up, at least one) are taller than the box (:func:`block`), nothing fits;
    both grow with the size, so the condition holds up to some size and fails above it."""
    widest = max((x for para in words for x in para), default=0.0) * (1 - SLACK)
    totals = [sum(para) * (1 - SLACK) for para in words]

    def possible(size_pt: float) -> bool:
        if widest * size_pt > w + EPS:
            return False
        count = sum(max(1, math.ceil(t * size_pt / (w + EPS) - SLACK)) for t in totals)
        size = size_pt * MM_PER_PT
        return (asc + desc) * size + (count - 1) * spacing * size <= h + EPS + 1e-9
    return possible


def _word_widths(paras: tuple[Paragraph, ...], wrap: bool) -> list[list[float]]:
    """could_fit()'s ``words`` for rich text: per paragraph each word's width at 1 pt (icons included)."""
    out = []
    for para in paras:
        widths = [sum(width(s, 1.0) for s in spans) for spans, _gap in _words(para)]
        out.append(widths if wrap else [sum(widths)])
    return out


def lay_out(paras: tuple[Paragraph, ...], size_pt: float, w: float, h: float, wrap: bool,
            spacing: float) -> Fitted | None:
    """The paragraphs set at ``size_pt`` in a ``w`` x ``h`` mm box (broken into lines when ``wrap``;
    ``spacing`` is the line height as a multiple of the size), or None when they do not fit."""
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
    fits (:func:`scan`); None when it does not fit even at ``min_pt``."""
    got = lay_out(paras, size_pt, w, h, wrap, spacing)
    if got is not None or min_pt >= size_pt:
        return got
    possible = could_fit(_word_widths(paras, wrap), *_metrics(paras), spacing, w, h)
    return scan(lambda size: lay_out(paras, size, w, h, wrap, spacing), size_pt, min_pt, possible)


# --- drawing ------------------------------------------------------------------------------------

def draw_line(line: Line, x: float, baseline: float, size_pt: float, fill: str) -> list:
    """The shapes of one line whose start is at ``x`` and baseline at ``baseline`` (mm): a Text
    (anchor start, the span's face, bold as Text.bold; spaces at its ends left out, the glyphs where
    they were) per text run and an Image per icon, its bottom on the baseline."""
    out: list = []
    for dx, span in line.pieces:
        if span.icon is not None:
            adv, w, h = icon_size(span, size_pt)
            out.append(Image(x + dx + (adv - w) / 2, baseline - h, w, h, span.icon.src, "contain", root=span.icon.root))
        elif span.text.strip() and needs_shaping(span.text):  # shaped as a whole run, spaces and all
            out.append(Text(x + dx, baseline, span.text, size_pt=size_pt, fill=fill, bold=span.bold, font=span.font))
        elif span.text.strip():  # leading spaces become an offset: no viewer can collapse them
            text = span.text.lstrip(" ")
            skip = text_width_mm(span.text[:len(span.text) - len(text)], size_pt, span.drawn)
            out.append(Text(x + dx + skip, baseline, text.rstrip(" "), size_pt=size_pt, fill=fill, bold=span.bold,
                            font=span.font))
    return out


UNDERLINE_DROP = 0.12    # an underline: this fraction of the size below the baseline
UNDERLINE_WIDTH = 0.06   # and this fraction of the size thick (pnp.render.base underlines a Text alike)


def underline(line: Line, x: float, baseline: float, size_pt: float, fill: str) -> Rule:
    """The rule under a whole line whose start is at ``x`` and baseline at ``baseline`` (mm): from its
    start to its end (every run, icons and the spaces between), where pnp.render.base puts a Text's."""
    size = size_pt * MM_PER_PT
    y = baseline + size * UNDERLINE_DROP
    return Rule(x, y, x + line.width, y, stroke=fill, stroke_width=size * UNDERLINE_WIDTH)


def draw(fitted: Fitted, left: float, top: float, w: float, align: str, fill: str, underlined: bool = False) -> list:
    """Every line of ``fitted`` in a box ``w`` mm wide whose left edge is ``left`` and top ``top``
    (mm), each line aligned "left", "center" or "right" in it, or "start" / "end": left / right for
    a left-to-right paragraph, right / left for a right-to-left one; ``underlined``: each line with
    its :func:`underline`, drawn before its text."""
    out: list = []
    for line, base in zip(fitted.lines, fitted.baselines):
        side = {"start": "right" if line.rtl else "left", "end": "left" if line.rtl else "right"}.get(align, align)
        shift = {"left": 0.0, "center": (w - line.width) / 2, "right": w - line.width}[side]
        if underlined and line.pieces:
            out.append(underline(line, left + shift, top + base, fitted.size_pt, fill))
        out += draw_line(line, left + shift, top + base, fitted.size_pt, fill)
    return out


# --- plain text in any script -------------------------------------------------------------------

def needs_runs(text: str, font: str = DEFAULT_FACE) -> bool:
    """True when ``text`` cannot be set as one Text in ``font``: it is shaped or runs right to left
    (pnp.core.shaping.needs_shaping: measured with HarfBuzz's advances, reordered by the bidi
    algorithm) or holds a character ``font`` lacks (set in a script's fallback face, :func:`fallback`).
    Latin, Greek and Cyrillic text its face draws is False: it is set as before."""
    return needs_shaping(text) or bool(missing_glyphs(text, font))


def plain_lines(text: str, size_pt: float, width_mm: float | None, bold: bool = False) -> list[Line]:
    """Plain ``text`` (no markup; one paragraph per line break) in Noto Sans, bold or not, its
    characters Noto Sans lacks in their script's fallback face (:func:`fallback`), broken into lines
    at most ``width_mm`` wide (:func:`break_lines`; ``None``: one line per paragraph, never broken),
    each in visual order with its direction (``Line.rtl``)."""
    paras = fallback(plain(text, bold))
    if width_mm is None:
        return [_line(list(p), size_pt, is_rtl(p)) for p in paras]
    return [line for p in paras for line in break_lines(p, size_pt, width_mm)]


def text_shapes(x: float, y: float, text: str, size_pt: float, fill: str = "#000000", bold: bool = False,
                width: float | None = None) -> list:
    """One line of plain ``text`` with its baseline at ``y`` mm: a single Text at ``x`` when Noto Sans
    sets it whole (:func:`needs_runs` False), else its runs (:func:`plain_lines`, :func:`draw_line`),
    starting at ``x``, or, for a right-to-left line in a box ``width`` mm wide from ``x``, ending at
    its right edge."""
    if not needs_runs(text, styled_face(DEFAULT_FACE, bold)):
        return [Text(x, y, text, size_pt=size_pt, fill=fill, bold=bold)]
    line = plain_lines(text, size_pt, None, bold)[0]
    return draw_line(line, x + (width - line.width if line.rtl and width is not None else 0.0), y, size_pt, fill)


def fit_box_size(widths_10pt: list[float], max_pt: float, min_pt: float, w: float, h: float, spacing: float,
                 top: float, bottom: float) -> tuple[float, tuple[float, ...], float] | None:
    """The size (points, any value up to ``max_pt``) at which lines of the given advance widths (mm at
    10 pt, never wrapped) are as large as a ``w`` x ``h`` mm box allows: the widest exactly ``w`` wide
    unless the block's height (``top`` of the first line, a fraction of the em above its baseline, to
    ``bottom`` below the last, ``spacing`` x the size apart) stops it first; with the lines' baselines
    (mm from the box top) and the block's height. None when the box allows less than ``min_pt`` (a
    size within 1e-6 pt of it is set at ``min_pt``)."""
    widest = max(widths_10pt, default=0.0)
    size = min(max_pt, 10.0 * w / widest) if widest > 0 else max_pt
    tall = (top + bottom + (len(widths_10pt) - 1) * spacing) * MM_PER_PT
    size = min(size, h / tall)
    if size < min_pt - 1e-6:
        return None
    size = max(size, min_pt)
    em = size * MM_PER_PT
    n = len(widths_10pt)
    return size, tuple(top * em + i * spacing * em for i in range(n)), (top + bottom + (n - 1) * spacing) * em


def fit_box(paras: tuple[Paragraph, ...], max_pt: float, min_pt: float, w: float, h: float, spacing: float,
            cap: float | None = None) -> Fitted | None:
    """Rich text, one line per paragraph (never wrapped), as large as a ``w`` x ``h`` mm box allows
    (:func:`fit_box_size`; advances measured as drawn: HarfBuzz's for shaped runs, scaled from 10 pt),
    measured from the first line's ascent to the last line's descent of its tallest face, or, given
    ``cap`` (a cap height, fraction of the em), from the first line's cap height to the last
    baseline. None when it does not fit at ``min_pt``."""
    asc, desc = (cap, 0.0) if cap is not None else _metrics(paras)
    widths = [sum(width(s, 10.0) for s in p) for p in paras]
    got = fit_box_size(widths, max_pt, min_pt, w, h, spacing, asc, desc)
    if got is None:
        return None
    size, baselines, height = got
    return Fitted(size, tuple(_line(list(p), size, is_rtl(p)) for p in paras), baselines, height)
