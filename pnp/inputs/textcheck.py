"""Text a user typed that pnp prints: lines counted as an editor counts them, characters that must not
be printed, and the one-line texts of the cover (title, designer credit, description) measured with
the font.

Line breaks are ``\\n``, ``\\r\\n`` and a lone ``\\r`` only. Python's ``str.splitlines()`` also breaks
at U+000B, U+000C, U+001C..U+001E, U+0085, U+2028 and U+2029, which editors show inside a line: split
with ``editor_lines`` and those characters stay in their line, where ``bad_character`` refuses them,
so every reported line number is the one an editor shows.

Refused characters (``bad_character``): control characters (Unicode category Cc, tab excepted),
format characters (Cf: the bidi embeddings and overrides U+202A..U+202E and isolates U+2066..U+2069,
zero-width characters, the soft hyphen, the byte-order mark inside a text), line and paragraph
separators (Zl, Zp), surrogates, private-use and unassigned code points.

The cover sets the game's title at COVER_TITLE_PT (bold) as "Title \u2014 print-and-play kit", the
credit at COVER_CREDIT_PT (credit_line: "designed by Designer (year)", or a traditional game said as such) and the description at
COVER_DESCRIPTION_PT, each on one line of the cover's content width (pnp.layout.cover). At input
time they are measured against REFERENCE_WIDTH_MM, the content width of the narrowest built-in paper
(A4: 210 mm less two 10 mm margins), so a spec or rules file accepted here fits every built-in paper;
pnp.layout.cover measures them again against a custom sheet.
"""
from __future__ import annotations

import io
import unicodedata

from .. import text as typeset
from ..core.fonts import BOLD_FACE, DEFAULT_FACE, missing_glyphs, text_width_mm, unprintable
from ..core.words import Words, english

COVER_TITLE_PT = 20.0
COVER_CREDIT_PT = 11.0
COVER_DESCRIPTION_PT = 9.0
REFERENCE_WIDTH_MM = 190.0
MAX_TITLE_CHARS = 80  # characters of a title, checked before measuring (a 900 KB title is refused at once)
MAX_DESIGNER_CHARS = 120
MAX_DESCRIPTION_CHARS = 200

_KINDS = {"Cc": "a control character", "Cf": "an invisible format character", "Zl": "a line separator",
          "Zp": "a paragraph separator", "Cs": "a lone surrogate", "Co": "a private-use character",
          "Cn": "an unassigned code point"}
_BIDI = {0x202A: "left-to-right embedding", 0x202B: "right-to-left embedding", 0x202C: "pop directional formatting",
         0x202D: "left-to-right override", 0x202E: "right-to-left override", 0x2066: "left-to-right isolate",
         0x2067: "right-to-left isolate", 0x2068: "first strong isolate", 0x2069: "pop directional isolate"}
_ODD_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def editor_lines(text: str) -> list[str]:
    """``text`` split at ``\\n``, ``\\r\\n`` and ``\\r`` (the breaks removed), as an editor numbers lines:
    line n of the file is item n - 1. A final line break does not start an empty line."""
    return [line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith(("\r", "\n")) else line
            for line in io.StringIO(text, newline="")]


def line_of_byte(raw: bytes, offset: int) -> int:
    """The 1-based line (as an editor counts: \\n, \\r\\n, \\r) holding byte ``offset`` of ``raw``."""
    head = raw[:offset]
    return head.count(b"\n") + head.replace(b"\r\n", b"").count(b"\r") + 1


def char_name(ch: str) -> str:
    """'U+202E RIGHT-TO-LEFT OVERRIDE' (or the code point alone for a character with no name)."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def bad_character(text: str, allow_tab: bool = True) -> tuple[int, str, str] | None:
    """The first character of ``text`` that must not be printed, as (0-based index, character, why),
    or None. ``why`` reads like "U+202E RIGHT-TO-LEFT OVERRIDE, a bidi control character that reorders
    the text after it"."""
    if text.isascii() and text.isprintable():  # U+0020 to U+007E: letters, digits, marks, the space
        return None
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)
        if kind not in _KINDS or (ch == "\t" and allow_tab):
            continue
        code = ord(ch)
        if code in _BIDI:
            why = f"a bidi control character ({_BIDI[code]}) that reorders the text around it"
        elif ch in "\n\r":
            why = "a line break"
        elif ch in _ODD_BREAKS:
            why = "a line break to Python but not to an editor"
        elif ch == "\t":
            why = "a tab"
        else:
            why = _KINDS.get(kind, "a character that cannot be printed")
        return i, ch, f"{char_name(ch)}, {why}"
    return None


def text_problem(text: str, what: str, max_chars: int, size_pt: float, printed: str | None = None,
                 bold: bool = False, width_mm: float = REFERENCE_WIDTH_MM, column: int | None = None,
                 scripts: bool = False) -> str | None:
    """Why a one-line cover text cannot be printed, or None: more than ``max_chars`` characters, a
    refused character (with its column), a glyph Noto Sans lacks (with ``scripts``, a text the cover
    sets in runs: a character neither Noto Sans nor its script's fallback face draws,
    pnp.core.fonts.unprintable), or ``printed`` (the line as the
    cover prints it, default ``text``) wider than ``width_mm`` at ``size_pt``. A refused character is
    placed by its column in the file's line when ``column`` (where ``text`` starts) is given, else by
    its place in ``text``."""
    if len(text) > max_chars:
        return f"the {what} is {len(text):,} characters long; it must fit one line of the cover (at most {max_chars})"
    bad = bad_character(text, allow_tab=False)
    if bad is not None:
        where = f"column {bad[0] + column}" if column is not None else f"character {bad[0] + 1} of the {what}"
        return f"the {what} contains {bad[2]} ({where})"
    missing = unprintable(text) if scripts else missing_glyphs(text)
    if missing:
        return (f"the {what} uses {missing[0]!r} ({char_name(missing[0])}), which " + (
            "the embedded fonts (Noto Sans, and Noto Sans Arabic, Hebrew, Devanagari, Math and Symbols) cannot draw"
            if scripts else
            "the embedded font Noto Sans cannot draw"))
    line = text if printed is None else printed
    width = line_width_mm(line, size_pt, bold)
    if width > width_mm + 1e-6:
        return (f"the {what} is too long for one line of the cover: {line!r} is {width:.0f} mm wide at {size_pt:g} pt, "
                f"the cover has {width_mm:.0f} mm"
                + (" (A4, the narrowest built-in paper)" if width_mm == REFERENCE_WIDTH_MM else ""))
    return None


def line_width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """Width in mm of one line of Noto Sans at ``size_pt``, in Noto Sans Bold when ``bold``; a text in a
    shaped or right-to-left script, or with characters set in a script's fallback face, measured as
    pnp.text sets it (its runs' advances, HarfBuzz's for shaped ones)."""
    font = BOLD_FACE if bold else DEFAULT_FACE
    if typeset.needs_runs(text, font):
        return typeset.plain_lines(text, size_pt, None, bold)[0].width
    return text_width_mm(text, size_pt, font)


def title_line(title: str, _: Words = english) -> str:
    """The cover's title line for ``title`` (in pnp's words ``_``, pnp.core.words)."""
    return _("{title} \u2014 print and play").format(title=title)


def credit_line(designer: str, year: int | None = None, traditional: bool = False, _: Words = english) -> str:
    """The cover's credit line: "designed by NAME (year)" for a named ``designer``; for a
    ``traditional`` game "a traditional game, in the public domain", or "a traditional game, arranged
    by NAME" when someone is named; "" when no one is named (the cover prints no credit then). In
    pnp's words ``_`` (pnp.core.words)."""
    if traditional:
        text = (_("a traditional game, arranged by {designer}").format(designer=designer) if designer
                else _("a traditional game, in the public domain"))
    elif designer:
        text = _("designed by {designer}").format(designer=designer)
    else:
        return ""
    return text + (f" ({year})" if year else "")
