"""Text as paragraphs of styled runs (pnp.text): the small markup parsed into spans and inline icons,
and the faces each span is set in.

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

Every length is in mm, font sizes in points.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..core.fonts import (DEFAULT_FACE, ITALIC_FACE, SYMBOL_FACES, face, fallback_for, is_fallback, missing_glyphs,
                          styled_face)
from ..core.values import value

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


@value
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


def plain(text: str, bold: bool = False, face: str = "") -> tuple[Paragraph, ...]:
    """``text`` without markup as paragraphs (one per line break) of one Span each (none for an empty
    line), ``bold`` or not, in the registered ``face`` ("" for Noto Sans: Span.face)."""
    if "\n" not in text and "\r" not in text:  # one line: the usual cell
        return ((Span(text, bold, False, None, 0, face),),) if text else ((),)
    paras, offset = [], 0
    for line in (text.split("\n") if "\r" not in text else re.split(r"\r\n|[\r\n]", text)):
        paras.append((Span(line, bold, False, None, offset, face),) if line else ())
        offset += len(line) + 1
    return tuple(paras)


def fallback(paras: tuple[Paragraph, ...]) -> tuple[Paragraph, ...]:
    """``paras`` with every character a span's face lacks set in the first fallback face that draws
    it (pnp.core.fonts.FALLBACKS: Noto Sans Arabic, Hebrew, Devanagari, Math, Symbols); spaces, digits and marks
    between such characters stay in a script's face, so a word and its marks are shaped as one run,
    and in the text's own face after a symbol (SYMBOL_FACES: "♥ 2" sets its "2" as the text's). A
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
                if ord(ch) in cmap and not (last not in (None, own) and last not in SYMBOL_FACES
                                            and not ch.isalpha() and ord(ch) in face(last).cmap):
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
