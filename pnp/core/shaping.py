"""Complex scripts: text shaped with HarfBuzz and put in visual order with the Unicode bidi algorithm.

Latin, Greek and Cyrillic text is set character by character with the font's advance widths, as
pnp always has; only a text holding a character of a script that needs shaping (:func:`needs_shaping`:
Hebrew, Arabic and the other right-to-left scripts, Devanagari and the other Indic and South-East
Asian scripts) goes through here, so every other text is drawn exactly as before.

* :func:`shape` runs HarfBuzz (uharfbuzz, Apache-2.0) on a run of one face with the features
  reportlab's own shaping uses (``kern``, ``liga``, ``dlig``; reportlab.pdfbase.ttfonts.shapeFragWord),
  the direction and script guessed from the text as reportlab does, so the widths measured here are
  the advances the PDF backend draws with reportlab's ``shapeStr``. Glyphs come in visual order
  (left to right) with advances and offsets in 1/1000 em.
* :func:`script_runs` cuts a text into runs of one script, each shaped on its own (HarfBuzz guesses
  one script per run it shapes, so a Devanagari word inside a Latin line must be a run of its own).
* :func:`levels` gives the embedding level of each character of a line (the Unicode Bidirectional
  Algorithm, UAX #9, rules P2-P3 and W1-I2, through python-bidi's ``bidi.algorithm``, LGPL-3.0), and
  :func:`visual_order` reorders runs by level (rule L2), so numbers and Latin words inside Arabic or
  Hebrew keep their left-to-right order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable
from unicodedata import bidirectional

from .fontbook import current, kept

FEATURES = {"kern": True, "liga": True, "dlig": True}
"""HarfBuzz features, as reportlab.pdfbase.ttfonts.shapeFragWord passes them (the PDF's shaping)."""

_COMPLEX = re.compile("[\u0590-\u08ff\u0900-\u0dff\u0e00-\u0fff\u1000-\u109f\u1780-\u18af\ua8e0-\ua8ff"
                      "\ufb1d-\ufdff\ufe70-\ufefe]")
"""Characters of scripts that need shaping or run right to left: Hebrew to Arabic Extended-A
(U+0590-08FF), Devanagari to Sinhala (U+0900-0DFF), Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian,
Devanagari Extended, and the Hebrew and Arabic presentation forms."""
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]")
"""Characters of the right-to-left blocks (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic)."""


def needs_shaping(text: str) -> bool:
    """True when ``text`` holds a character of a script that is shaped (see the module docstring)."""
    return not text.isascii() and _COMPLEX.search(text) is not None


def has_rtl(text: str) -> bool:
    """True when ``text`` holds a character of a right-to-left script."""
    return not text.isascii() and _RTL.search(text) is not None


@dataclass(frozen=True, eq=False)
class Glyph:
    """One shaped glyph: its glyph id ``gid`` in the face, the ``cluster`` (index of the first
    character of the text it comes from), ``advance`` and the offsets ``dx``, ``dy`` (y up) from the
    pen position, all in 1/1000 em."""
    gid: int
    cluster: int
    advance: float
    dx: float
    dy: float


TABLE_ENTRIES = 8192  # shaped runs kept in the font book; the table starts over when full


def _hb_font(face_name: str, data: Callable[[], bytes]):
    """(HarfBuzz font, units per em) of the face ``face_name``, made once per font book (a face's
    name is one file's in a book: pnp.core.fontbook)."""
    fonts = current().hb_fonts
    got = fonts.get(face_name)
    if got is None:
        import uharfbuzz as hb  # HarfBuzz: imported when first needed, never at start-up
        face = hb.Face(hb.Blob(data()))
        got = fonts[face_name] = (hb.Font(face), face.upem)
    return got


def shape(text: str, face_name: str, data: Callable[[], bytes]) -> tuple[Glyph, ...]:
    """``text`` (one run: one face, one direction) shaped by HarfBuzz in the face ``face_name``
    (a registered face's name, whose font file's bytes ``data()`` gives; read once per face): its
    glyphs in visual order, left to right (see the module docstring). pnp.core.fonts.shaped calls it
    with the face's bytes. Kept in the font book in use (pnp.core.fontbook)."""
    table = current().shaped
    key = (text, face_name)
    got = table.get(key)
    if got is None:
        import uharfbuzz as hb  # HarfBuzz: imported when first needed, never at start-up
        font, upem = _hb_font(face_name, data)
        buf = hb.Buffer()
        buf.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
        buf.add_str(text)
        buf.guess_segment_properties()
        hb.shape(font, buf, FEATURES)
        k = 1000.0 / upem
        got = tuple(Glyph(info.codepoint, info.cluster, pos.x_advance * k, pos.x_offset * k, pos.y_offset * k)
                    for info, pos in zip(buf.glyph_infos, buf.glyph_positions))
        kept(table, key, got, TABLE_ENTRIES)
    return got



def clusters(glyphs: tuple[Glyph, ...], text: str) -> list[tuple[int, int, str, float]]:
    """The clusters of ``glyphs`` (``text`` shaped by :func:`shape`), in visual order: for each, its
    glyphs ``glyphs[start:end]``, the characters of ``text`` they draw (in logical order) and the pen
    position where its first glyph starts, in 1/1000 em from the run's start. A cluster is the
    glyphs HarfBuzz gives one cluster value (a conjunct, a ligature, a letter and its marks); its
    characters run from that value to the next larger one of the run (or the end of ``text``)."""
    starts = sorted({g.cluster for g in glyphs})
    ends = dict(zip(starts, starts[1:] + [len(text)]))
    out: list[tuple[int, int, str, float]] = []
    pen = 0.0
    i = 0
    while i < len(glyphs):
        j, at = i, pen
        while j < len(glyphs) and glyphs[j].cluster == glyphs[i].cluster:
            pen += glyphs[j].advance
            j += 1
        c = glyphs[i].cluster
        out.append((i, j, text[c:ends[c]], at))
        i = j
    return out


def units_per_em(face_name: str, data: Callable[[], bytes]) -> int:
    """The units per em of the face ``face_name`` (whose font file's bytes ``data()`` gives)."""
    return _hb_font(face_name, data)[1]


def ink_extent(glyphs: tuple[Glyph, ...], face_name: str, data: Callable[[], bytes]) -> tuple[float, float]:
    """How far the ink of ``glyphs`` (a run shaped by :func:`shape` in the face ``face_name``, whose
    font file's bytes ``data()`` gives) reaches above and below the baseline, fractions of the em
    (below positive): each glyph's outline box (HarfBuzz's extents) at its offset; (0, 0) for none."""
    font, upem = _hb_font(face_name, data)
    top = bottom = 0.0
    for g in glyphs:
        ext = font.get_glyph_extents(g.gid)
        if ext is None or ext.height == 0:
            continue
        lift = g.dy / 1000.0
        top = max(top, lift + ext.y_bearing / upem)
        bottom = max(bottom, -(lift + (ext.y_bearing + ext.height) / upem))
    return top, bottom


def draw_glyph(gid: int, face_name: str, data: Callable[[], bytes], pen) -> None:
    """Draw glyph ``gid`` of the face ``face_name`` (whose font file's bytes ``data()`` gives, read once
    per face) into the fontTools-style ``pen`` (moveTo, lineTo, qCurveTo, curveTo, closePath), in font
    units, y up, at the font's default instance: HarfBuzz's own outline (uharfbuzz
    ``Font.draw_glyph_with_pen``) of the font object that shapes the text."""
    _hb_font(face_name, data)[0].draw_glyph_with_pen(gid, pen)

def _script_of(ch: str) -> int | None:
    """A key of the script ``ch`` is set in, for :func:`script_runs`: -1 for a letter of a script set
    character by character (Latin, Greek, Cyrillic...), the 128-character block of a shaped script
    (Devanagari Extended counted with Devanagari, the presentation forms with Hebrew and Arabic),
    None for a character of no script of its own (spaces, digits, punctuation, symbols)."""
    if _COMPLEX.match(ch):
        cp = ord(ch)
        if 0xA8E0 <= cp <= 0xA8FF:
            return 0x0900 >> 7
        if 0xFB1D <= cp <= 0xFB4F:
            return 0x0590 >> 7
        if cp >= 0xFB50:
            return 0x0600 >> 7
        return cp >> 7
    return -1 if ch.isalpha() else None


def script_runs(text: str) -> list[str]:
    """``text`` cut into runs of one script (the pieces, in order, join to ``text``): HarfBuzz and
    reportlab's ``shapeStr`` guess one script per text they shape, so a Devanagari word inside a
    Latin sentence, shaped with it, would be set without its conjuncts and measured wrong. A
    character of no script (space, digit, punctuation) belongs to the run before it, or at the start
    of the text to the run after it. A text with no shaped character is one run."""
    if not needs_shaping(text):
        return [text] if text else []
    runs: list[str] = []
    current, key = "", None
    for ch in text:
        k = _script_of(ch)
        if k is not None and key is not None and k != key:
            runs.append(current)
            current = ""
        if k is not None:
            key = k
        current += ch
    runs.append(current)
    return runs


def paragraph_rtl(text: str) -> bool:
    """The paragraph's direction by its first strong character (UAX #9 P2-P3): True for R or AL."""
    for ch in text:
        kind = bidirectional(ch)
        if kind == "L":
            return False
        if kind in ("R", "AL"):
            return True
    return False


def levels(text: str, rtl: bool) -> list[int]:
    """The resolved embedding level of each character of one line of ``text`` in a paragraph of
    direction ``rtl`` (UAX #9 W1-I2; python-bidi's implementation): even left to right, odd right to left."""
    from bidi import algorithm as uba  # python-bidi: imported when first needed, never at start-up
    storage = uba.get_empty_storage()
    storage["base_level"] = 1 if rtl else 0
    storage["base_dir"] = "R" if rtl else "L"
    uba.get_embedding_levels(text, storage)
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    return [c["level"] for c in storage["chars"]]


def visual_order(runs_levels: list[int]) -> list[int]:
    """The indices of runs at ``runs_levels`` in visual order, left to right (UAX #9 L2: from the
    highest level down to the lowest odd level, every sequence of runs at that level or above is reversed)."""
    order = list(range(len(runs_levels)))
    if not runs_levels:
        return order
    top = max(runs_levels)
    lowest_odd = min((lv for lv in runs_levels if lv % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if runs_levels[order[i]] >= level:
                j = i
                while j < len(order) and runs_levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order
