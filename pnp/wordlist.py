"""Reading a NetMatch word list: UTF-8 (a byte-order mark and CRLF line ends are fine), one word per
line, blank lines and lines starting with # ignored. Every word has exactly four letters (Unicode
letters, counted after NFC normalisation, not bytes), no duplicates ignoring case, and every glyph
must be in the embedded font.
"""
from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .errors import WordListError
from .fonts import missing_glyphs

WORD_LENGTH = 4
MAX_WORDS = 200_000
MAX_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class WordList:
    """Words in file order, with the 1-based line number of each."""
    path: Path
    words: tuple[str, ...]
    lines: tuple[int, ...]


def read_words(path: Path, length: int = WORD_LENGTH) -> WordList:
    """Read and check a word list. The checked list is cached by path and content hash, so the validator
    and the card drawing of one build read it once.

    Raises:
        WordListError: missing or unreadable file, not UTF-8, a word that is not ``length`` letters,
            a non-letter, a duplicate (ignoring case), a glyph missing from the font, no words at
            all, or more than MAX_WORDS words. The message names the file and line.
    """
    path = Path(path)
    if not path.is_file():
        raise WordListError("word list does not exist." if not path.exists() else "word list is not a file.",
                            file=path, field="--words", hint="give the path of a UTF-8 text file, one word per line")
    if path.stat().st_size > MAX_BYTES:
        raise WordListError(f"word list is larger than {MAX_BYTES // (1024 * 1024)} MB.", file=path,
                            hint=f"pnp builds decks of at most {MAX_WORDS:,} words")
    raw = path.read_bytes()
    key = (str(path), length, hashlib.blake2b(raw, digest_size=16).digest())
    if key not in _CACHE:
        _CACHE.clear()  # keep one list: the validator and the card drawing of a build share it
        _CACHE[key] = _check(path, raw, length)
    return _CACHE[key]


_CACHE: dict = {}


def _check(path: Path, raw: bytes, length: int) -> WordList:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise WordListError(f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded "
                            "(the file may be Latin-1 or Windows-1252).", file=path, line=line,
                            hint="save the list as UTF-8") from None
    words, lines, seen = [], [], {}
    for number, line in enumerate(text.splitlines(), start=1):
        word = unicodedata.normalize("NFC", line.strip())
        if not word or word.startswith("#"):
            continue
        bad = [ch for ch in word if not ch.isalpha()]
        if bad:
            raise WordListError(f"{word!r} contains {bad[0]!r}, which is not a letter.", file=path, line=number,
                                hint="use letters only, one word per line")
        if len(word) != length:
            raise WordListError(f"{word!r} has {len(word)} letters; every word needs exactly {length}.",
                                file=path, line=number, hint=f"replace it with a {length}-letter word")
        key = word.casefold()
        if key in seen:
            raise WordListError(f"{word!r} repeats the word on line {seen[key]} (ignoring case).", file=path,
                                line=number, hint="remove one of them")
        missing = missing_glyphs(word)
        if missing:
            raise WordListError(f"{word!r} uses {missing[0]!r} (U+{ord(missing[0]):04X}), which the embedded font "
                                "Noto Sans cannot draw.", file=path, line=number,
                                hint="use Latin, Greek or Cyrillic letters")
        seen[key] = number
        words.append(word)
        lines.append(number)
        if len(words) > MAX_WORDS:
            raise WordListError(f"more than {MAX_WORDS:,} words.", file=path, line=number,
                                hint=f"split the list: pnp builds decks of at most {MAX_WORDS:,} words")
    if not words:
        raise WordListError("word list has no words (only blank lines or # comments).", file=path,
                            hint="add one four-letter word per line")
    return WordList(path, tuple(words), tuple(lines))


def anagram_groups(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Groups of two or more words that are anagrams of each other (ignoring case)."""
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault("".join(sorted(w.casefold())), []).append(w)
    return [tuple(g) for g in groups.values() if len(g) > 1]
