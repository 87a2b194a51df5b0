"""Plain line breaking: a text cut into lines no wider than a column, exactly as reportlab's simpleSplit.

The typesetter's greedy breaker for a plain text in one face (pnp.text.latin, the cover, the
tiling legend, a box's panels): each word measured once per size and face, a text wrapped again at
the same size and width not wrapped again. Its tables are the font book's (pnp.core.fontbook: one
per build), so nothing it keeps outlives the build.
"""
from __future__ import annotations

from ..core.fontbook import TABLE_ENTRIES, current, kept
from ..core.fonts import DEFAULT_FACE, face
from ..core.units import mm_to_pt

WORD_SIZES = 16
"""(size, face) pairs the word-width table keeps, each at most TABLE_ENTRIES words; then it starts over."""


def wrap(text: str, size_pt: float, width_mm: float, font: str = DEFAULT_FACE) -> list[str]:
    """Break ``text`` into lines no wider than ``width_mm`` at ``size_pt`` in the face ``font``
    (reportlab's simpleSplit, which measures with the font's real advance widths). A single word
    wider than the line stays whole on its own line (the caller checks widths).

    The lines are exactly simpleSplit's (its greedy rule, its sums in the same order, reportlab's
    own widths), but each word is measured once per size and face (kept for the last 16 sizes and
    faces, 8,192 words each), and a text wrapped again at the same size and width is not wrapped
    again (8,192 texts kept): each table starts over when full.

    Raises:
        KeyError: no face is called ``font`` (pnp.core.fonts.face).
    """
    book = current()
    key = (text, size_pt, width_mm, font)
    got = book.wrapped.get(key)
    if got is None:
        got = kept(book.wrapped, key, tuple(_simple_split(book.word_pt, text, size_pt, mm_to_pt(width_mm), font)))
    return list(got)


def _simple_split(word_pt: dict, text: str, size_pt: float, max_pt: float, font: str) -> list[str]:
    """reportlab.lib.utils.simpleSplit(text, font, size_pt, max_pt), word widths (points) memoised in
    ``word_pt``: (size, face) -> word -> width."""
    lines = text.split("\n")
    if not max_pt:
        return lines
    string_width = face(font).ttfont.stringWidth
    widths = word_pt.get((size_pt, font))  # word -> its width in points, at this size in this face
    if widths is None:
        widths = kept(word_pt, (size_pt, font), {}, WORD_SIZES)
    elif len(widths) >= TABLE_ENTRIES:
        widths.clear()
    known = widths.get
    out: list[str] = []
    ws = known(" ")
    if ws is None:
        ws = widths[" "] = string_width(" ", size_pt)
    for line in lines:   # reportlab's _simpleSplit, the same float operations in the same order
        words: list[str] = []
        w = -ws
        for t in line.split():
            lt = known(t)
            if lt is None:
                lt = widths[t] = string_width(t, size_pt)
            if w + ws + lt <= max_pt or not words:
                words.append(t)
                w = w + ws + lt
            else:
                out.append(" ".join(words))
                words = [t]
                w = lt
        if words:
            out.append(" ".join(words))
    return out
