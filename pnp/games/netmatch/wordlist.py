"""Reading a NetMatch word list from a .txt, .csv, .tsv, .xlsx or .ods file (see pnp.inputs.listfile).

A .txt list is UTF-8 (a byte-order mark and CRLF line ends are fine), one word per line, blank lines
and lines starting with # ignored. A spreadsheet gives its words in the column headed ``word`` (any
case), or in its first column if no row heads one; other columns and empty cells are ignored. Every
word has exactly four letters (Unicode letters, counted after NFC normalisation, not bytes), no
duplicates ignoring case, and every glyph must be in the embedded font. Modifier letters (Unicode
category Lm: ʰ, ˢ, ʼ, ˈ) are not letters of a word and are refused like digits. A letter whose NFKC form
differs (the ligature U+FB01 "fi", a fullwidth or mathematical letter, a superscript) is refused: it
counts as one letter but prints as another, or as two.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import WordListError
from ...core.fonts import missing_glyphs
from ...inputs.listfile import describe, read_list

WORD_LENGTH = 4
MAX_WORDS = 200_000
MAX_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class WordList:
    """Words in file order, with the 1-based line (.txt) or row (spreadsheets) of each; ``sheet`` and
    ``column`` say where in a spreadsheet the words were (None for a .txt; ``column`` is a letter for
    .xlsx/.ods and a 1-based number for .csv/.tsv)."""
    path: Path
    words: tuple[str, ...]
    lines: tuple[int, ...]
    sheet: str | None = None
    column: str | int | None = None

    def where(self, index: int) -> str:
        """Where words[index] is: 'line 12', 'row 12, column 1' or 'sheet Words, row 12, column B'."""
        return describe(self.sheet, self.lines[index], self.column)


def read_words(path: Path, length: int = WORD_LENGTH) -> WordList:
    """Read and check a word list (each call reads the file; the caller keeps the result).

    Raises:
        WordListError: missing or unreadable file, unknown suffix, not UTF-8, not a valid
            spreadsheet, a cell that is a number or date, a word that is not ``length`` letters, a
            non-letter or modifier letter, a duplicate (ignoring case), a glyph missing from the font, no words at all,
            or more than MAX_WORDS words. The message names the file and line, or for a spreadsheet
            the sheet, row and column.
    """
    path = Path(path)
    entries = read_list(path, "word", max_rows=MAX_WORDS, max_bytes=MAX_BYTES, error=WordListError,
                        field="--words", label="word list", item="word")
    text = path.suffix.lower() == ".txt"
    per = "line" if text else "cell"
    words, lines, seen = [], [], {}

    def fail(message: str, hint: str) -> WordListError:
        return WordListError(message if text else f"{entry.where}: {message}", file=path, line=entry.row, hint=hint)

    for entry in entries:
        word = unicodedata.normalize("NFC", entry.value)
        number = entry.row
        if not (word.isascii() and word.isalpha()):  # ASCII letters: no compatibility or modifier letters
            _check_letters(word, fail, per)
        if len(word) != length:
            raise fail(f"{word!r} has {len(word)} letters; every word needs exactly {length}.",
                       f"replace it with a {length}-letter word")
        key = word.casefold()
        if key in seen:
            first = f"line {seen[key]}" if text else f"row {seen[key]}"
            raise fail(f"{word!r} repeats the word on {first} (ignoring case).", "remove one of them")
        missing = missing_glyphs(word)
        if missing:
            raise fail(f"{word!r} uses {missing[0]!r} (U+{ord(missing[0]):04X}), which the embedded font "
                       "Noto Sans cannot draw.", "use Latin, Greek or Cyrillic letters")
        seen[key] = number
        words.append(word)
        lines.append(number)
    if not words:
        if text:
            raise WordListError("word list has no words (only blank lines or # comments).", file=path,
                                hint="add one four-letter word per line")
        raise WordListError("word list has no words (no non-empty cell in the column headed 'word', or in the "
                            "first column).", file=path,
                            hint=f"put one {length}-letter word per row, in a column headed 'word' or the first column")
    first = entries[0]
    return WordList(path, tuple(words), tuple(lines), first.sheet, first.column)


def _check_letters(word: str, fail, per: str) -> None:
    """Refuse a word holding a character that is not a letter, a compatibility form or a modifier
    letter (``fail(message, hint)`` makes the error; ``per`` is "line" or "cell")."""
    bad = [ch for ch in word if not ch.isalpha()]
    if bad:
        raise fail(f"{word!r} contains {bad[0]!r}, which is not a letter.", f"use letters only, one word per {per}")
    compat = next((ch for ch in word if unicodedata.normalize("NFKC", ch) != ch), None)
    if compat is not None:
        raise fail(_compatibility(word, compat), f"type {unicodedata.normalize('NFKC', compat)!r} as plain letters")
    modifier = next((ch for ch in word if unicodedata.category(ch) == "Lm"), None)
    if modifier is not None:
        raise fail(f"{word!r} contains {modifier!r} ({_describe(modifier)}), a modifier letter: it marks how a "
                   "sound is said and is not a letter of a word.", f"use letters only, one word per {per}")


def _describe(ch: str) -> str:
    """'U+02B0 MODIFIER LETTER SMALL H'."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')}"


def _compatibility(word: str, ch: str) -> str:
    """Why ``ch`` (whose NFKC form differs) is refused: one character that prints as other letters."""
    plain = unicodedata.normalize("NFKC", ch)
    where = f"{word!r} contains {ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')})"
    if len(plain) > 1:
        return f"{where}, one character that prints as the {len(plain)} letters {plain!r}, so the word has more " \
               "letters than it counts."
    return f"{where}, a compatibility form of {plain!r} that fonts draw differently; word lists take plain letters."


def anagram_groups(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Groups of two or more words that are anagrams of each other (ignoring case)."""
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault("".join(sorted(w.casefold())), []).append(w)
    return [tuple(g) for g in groups.values() if len(g) > 1]
