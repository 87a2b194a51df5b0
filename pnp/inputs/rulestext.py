"""The rules quick reference a kit prints on its cover, read from a small Markdown file.

The format is a strict subset of Markdown, and the only one the cover takes (docs/rules-text.md):

* line 1: ``# Title`` (the game's name, one line of the cover's title: at most MAX_TITLE_CHARS
  characters and narrow enough for the title line on every built-in paper, see pnp.inputs.textcheck);
* line 2: a one-line description (at most MAX_DESCRIPTION_CHARS characters, one printed line);
* then the ``## Section`` headings Components, Setup, A turn, End and winner and Fine points, in that
  order (in a kit's language, SECTION_NAMES), each followed by paragraphs (lines joined until a blank line) and ``- `` bullets (one level),
  which may hold ``**bold**`` and ``*italic*`` (pnp.text; opened and closed on one line) and
  the escapes ``\\*``, ``\\:`` and ``\\\\``; with the game's icons folder (a data-driven game's
  ``icons:``), ``:name:`` inline icons as in templates.

Everything else is refused with its line, rather than printed as raw markup: other heading levels,
nested or indented lists and indented text (no nesting at all: MAX_NESTING is 1), ``*`` / ``+`` /
numbered lists, block quotes (``>``), ``__bold__``, ``_em_``, links and images (``[x](y)``, ``[x][y]``,
``<http://...>``), inline code and code fences (backticks, ``~~~``), HTML tags, comments and entities,
tables (``|``), horizontal rules and setext underlines, other backslash escapes, a ``**`` or ``*``
left open at the end of its line, and bold or italic in the title and description lines.
Control and format characters (bidi overrides U+202A..U+202E, isolates U+2066..U+2069, zero-width
characters, U+2028, U+2029, U+0085, ...) are refused with their line and column, and so is a
character neither the embedded font (the italic face for italic text) nor its script's Noto face
(Arabic, Hebrew, Devanagari: pnp.core.fonts.FALLBACKS) draws. Lines are counted as an editor counts them (``\\n``,
``\\r\\n``, ``\\r``). The file is at most MAX_RULES_BYTES and each line at most MAX_LINE_CHARS.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import SpecError
from .. import text as typeset
from ..core.fonts import face, unprintable
from .specfields import read_text
from .textcheck import (COVER_DESCRIPTION_PT, COVER_TITLE_PT, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS, bad_character,
                        char_name, editor_lines, text_problem, title_line)

RULE_SECTIONS = ("Components", "Setup", "A turn", "End and winner", "Fine points")
SECTION_NAMES = {
    "ar": ("المكونات", "التحضير", "الدور", "النهاية والفائز", "تفاصيل"),
    "hi": ("सामग्री", "तैयारी", "एक बारी", "अंत और विजेता", "बारीकियाँ"),
}
"""The five sections' names in the languages pnp knows them in (docs/rules-text.md), in
RULE_SECTIONS's order. A rules file in a kit's language (``rules.<code>.md``) may name its sections
in that language or in English; in a language missing here, its five ``## `` headings are taken, in
order, as the five sections, whatever they say."""
MAX_RULES_BYTES = 64 * 1024
MAX_LINE_CHARS = 2000  # a paragraph line; longer is a pasted blob, not a quick reference
MAX_NESTING = 1  # list levels the cover prints: bullets only, no nested lists or quotes

# (pattern, what it is) for Markdown the cover does not print, tried in order on each line after line 2
_MARKUP = [
    (re.compile(r"^\s*>"), "a block quote (`>`)"),
    (re.compile(r"^\s+\S"), "an indented line (a nested list, a continuation or a code block)"),
    (re.compile(r"^#{3,}\s|^#[^#]|^#$"), "a heading other than `## Section`"),
    (re.compile(r"^[*+]\s"), "a list written with `*` or `+`"),
    (re.compile(r"^\d{1,9}[.)]\s"), "a numbered list"),
    (re.compile(r"^(?:[-*_]\s*){3,}$"), "a horizontal rule"),
    (re.compile(r"^(?:=+|-+)\s*$"), "a heading underline"),
    (re.compile(r"^~~~|^```"), "a code fence"),
    (re.compile(r"`"), "inline code (backticks)"),
    (re.compile(r"__"), "bold written `__` (write `**bold**`)"),
    (re.compile(r"(?<![\w])_(?=[^\s_])[^_]*(?<=[^\s_])_(?!\w)"), "emphasis written `_` (write `*italic*`)"),
    (re.compile(r"!?\[[^\]]*\]\s*[(\[]"), "a link or image (`[text](url)`)"),
    (re.compile(r"<(?:https?|ftp|mailto):[^>\s]*>|<[^\s@>]+@[^\s@>]+>"), "an autolink (`<url>`)"),
    (re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--|<!\w|<\?"), "HTML"),
    (re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]{1,31});"), "an HTML entity"),
    (re.compile(r"^\s*\||\|.*\|"), "a table (`|`)"),
    (re.compile(r"\\[!-)+-/;-@\[\]-`{-~]"), "a backslash escape other than `\\*`, `\\:` and `\\\\`"),
]
# bold and italic, printed in the sections but not in the one-line title and description
_EMPHASIS = [
    (re.compile(r"\*\*"), "bold (`**`)"),
    (re.compile(r"(?<![\w*])\*(?=[^\s*])|(?<=[^\s*])\*(?![\w*])"), "emphasis (`*`)"),
    (re.compile(r"\\[*:\\]"), "a backslash escape"),
]


@dataclass(frozen=True, eq=False)
class Block:
    """One piece of the rules text: ``kind`` "heading", "para" or "bullet", its ``text`` and the
    1-based ``line`` of the source it starts on."""
    kind: str
    text: str
    line: int


@dataclass(frozen=True, eq=False)
class Rules:
    """A parsed rules file: title, one-line description, and blocks in order; ``icons`` looks up the
    ``:name:`` icons its sections draw (None: the game has no icons folder, ``:name:`` is text)."""
    path: Path
    title: str
    description: str
    blocks: tuple[Block, ...]
    icons: typeset.IconLookup | None = field(default=None, compare=False)

    def printed(self) -> tuple[Block, ...]:
        """The blocks as printed: a section left empty (as `pnp new` leaves the play sections for the
        designer) prints no heading."""
        b = self.blocks
        return tuple(x for i, x in enumerate(b) if x.kind != "heading" or (i + 1 < len(b) and b[i + 1].kind != "heading"))


def _error(path: Path, line: int, message: str, hint: str) -> SpecError:
    return SpecError(message, file=path, line=line, field="rules", hint=hint)


def _check_markup(path: Path, number: int, line: str, offset: int = 0, emphasis: bool = True) -> None:
    """Refuse the first Markdown on ``line`` that the cover does not print (``offset``: where ``line``
    starts in the file's line, for the column; ``emphasis``: bold and italic are printed there)."""
    patterns = _MARKUP if emphasis else _MARKUP + _EMPHASIS
    hits = [(found.start(), i, what) for i, (pattern, what) in enumerate(patterns) if (found := pattern.search(line))]
    if hits:
        start, _, what = min(hits)  # the first markup on the line; at one column, the first in _MARKUP
        raise _error(path, number, f"column {start + offset + 1}: the cover prints `## Section` headings, "
                     f"paragraphs and `- ` bullets only, not {what}: {line.strip()[:40]!r}.",
                     "write plain text: one level of `- ` bullets, **bold** and *italic* in the sections, no "
                     "links, code or HTML (docs/rules-text.md)")


def _check_line(path: Path, number: int, line: str, icons: typeset.IconLookup | None = None) -> None:
    """Refuse a line (after the title and description) that is too long, holds a character that
    must not be printed or that the font lacks, or Markdown the cover does not print."""
    if len(line) > MAX_LINE_CHARS:
        raise _error(path, number, f"the line is {len(line):,} characters long (limit {MAX_LINE_CHARS:,}).",
                     "break it into paragraphs: a quick reference is short")
    bad = bad_character(line)
    if bad is not None:
        index, _, why = bad
        raise _error(path, number, f"column {index + 1}: the text contains {why}.",
                     "delete it (it is invisible in most editors: retype the text around it)")
    missing = unprintable(line)
    if missing:
        ch = missing[0]
        raise _error(path, number, f"column {line.index(ch) + 1}: {ch!r} ({char_name(ch)}) is a character the "
                     "embedded fonts (Noto Sans, and Noto Sans Arabic, Hebrew, Devanagari, Math and Symbols) "
                     "cannot draw.",
                     "use the letters of a script pnp has a font for (Latin, Greek, Cyrillic, Arabic, Hebrew, "
                     "Devanagari) or a symbol of Noto Sans Math or Symbols")
    _check_markup(path, number, line)
    _check_emphasis(path, number, line, icons)


def _check_emphasis(path: Path, number: int, line: str, icons: typeset.IconLookup | None = None) -> None:
    """Refuse a ``**`` or ``*`` the line leaves open, and a character the italic face lacks in italic
    text (pnp.text parses the line as the cover will)."""
    if not typeset.has_markup(line, icons is not None):
        return
    try:
        paras = typeset.parse(line, icons)
    except typeset.MarkupError as exc:
        if exc.icon:
            raise _error(path, number, f"column {exc.offset + 1}: {exc.message}.",
                         "add the picture to the game's icons folder, or write \\: for a colon") from None
        raise _error(path, number, f"column {exc.offset + 1}: {exc.message} on this line.",
                     "close bold and italic on the line they start (write \\* for an asterisk)") from None
    lacking = typeset.missing(typeset.fallback(paras))
    if lacking:
        span, ch = lacking
        raise _error(path, number, f"column {line.find(ch, span.offset) + 1}: {ch!r} ({char_name(ch)}) is a character "
                     f"the embedded font {face(span.font).label} cannot draw.",
                     "set it upright, or use Latin, Greek or Cyrillic letters")


def parse_rules(path: Path, icons: typeset.IconLookup | None = None, language: str | None = None) -> Rules:
    """Read a rules file in the subset above: line 1 ``# Title``, line 2 a one-line description, then
    the ``## Section`` headings (Components, Setup, A turn, End and winner, Fine points, in that order;
    for a kit in ``language``, those names or the language's, :data:`SECTION_NAMES`),
    paragraphs (lines joined until a blank line) and ``- `` bullets. With ``icons`` (the game's icons
    folder, pnp.custom.icons), ``:name:`` in the sections is an inline icon, checked here; without,
    it is text. Text in any script pnp has a font for is taken (pnp.core.fonts.unprintable).

    Raises:
        SpecError: a missing, unreadable or non-regular file, not UTF-8, larger than 64 KiB, a missing
            title or description, a title or description too long for its line of the cover, a
            missing or misplaced section, a refused character, a glyph the font lacks, or Markdown
            outside the subset (names the file, line and, for characters and markup, the column).
    """
    try:
        lines = editor_lines(read_text(path, "rules file", limit=MAX_RULES_BYTES))
    except SpecError as exc:
        exc.field = exc.field or "rules"
        raise
    if not lines or not lines[0].startswith("# ") or not lines[0][2:].strip():
        raise SpecError("the first line must be the title, written `# Title`.", file=path, line=1, field="rules")
    title = lines[0][2:].strip(" ")
    problem = text_problem(title, "title", MAX_TITLE_CHARS, COVER_TITLE_PT, title_line(title), bold=True,
                           column=lines[0].index(title[:1]) + 1, scripts=True)
    if problem:
        raise _error(path, 1, problem + ".", "keep the title to the game's name, one line of plain text the font can "
                     "draw (docs/rules-text.md)")
    if len(lines) < 2 or not lines[1].strip() or lines[1].startswith("#"):
        raise SpecError("the second line must be a one-line description of the game.", file=path, line=2,
                        field="rules")
    description = lines[1].strip(" ")
    problem = text_problem(description, "description", MAX_DESCRIPTION_CHARS, COVER_DESCRIPTION_PT,
                           column=lines[1].index(description[:1]) + 1, scripts=True)
    if problem:
        raise _error(path, 2, problem + ".", "keep the description to one line of plain text the font can draw; the "
                     "rules go in the sections (docs/rules-text.md)")
    _check_markup(path, 1, title, lines[0].index(title[:1]), emphasis=False)
    _check_markup(path, 2, description, lines[1].index(description[:1]), emphasis=False)
    for number, line in enumerate(lines[2:], start=3):
        _check_line(path, number, line, icons)
    blocks: list[Block] = []
    para: list[str] = []
    para_line = 0

    def flush() -> None:
        nonlocal para
        if para:
            kind = "bullet" if para[0].startswith("- ") else "para"
            text = " ".join(p.strip() for p in para)
            blocks.append(Block(kind, text[2:].strip() if kind == "bullet" else text, para_line))
            para = []

    for number, raw in enumerate(lines[2:], start=3):
        line = raw.rstrip()
        if not line.strip():
            flush()
        elif line.startswith("## "):
            flush()
            blocks.append(Block("heading", line[3:].strip(), number))
        elif line.startswith("- "):
            flush()
            para, para_line = [line], number
        else:
            if not para:
                para_line = number
            para.append(line)
    flush()
    headings = tuple(b.text for b in blocks if b.kind == "heading")
    names = SECTION_NAMES.get(language or "", RULE_SECTIONS)
    if headings not in (RULE_SECTIONS, names) and not (language and language not in SECTION_NAMES
                                                       and language != "en" and len(headings) == len(RULE_SECTIONS)):
        missing = [h for h in names if h not in headings]
        where = next((b.line for b in blocks if b.kind == "heading" and b.text not in names), None)
        raise SpecError("the rules need the sections " + ", ".join(names) + " in that order"
                        + (f" (or {', '.join(RULE_SECTIONS)})" if names != RULE_SECTIONS else "")
                        + (f"; missing: {', '.join(missing)}" if missing else f"; found: {', '.join(headings)}")
                        + ".", file=path, line=where, field="rules", hint="start each with `## ` on its own line")
    return Rules(path, title, description, tuple(blocks), icons)
