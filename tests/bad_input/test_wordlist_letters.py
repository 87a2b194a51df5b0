"""Word lists take plain letters: a character whose NFKC form differs from its NFC form (a ligature
such as U+FB01 "fi", a fullwidth, mathematical or superscript letter, a long s) counts as one letter
but prints as another or as two, so it is refused with its line, the character and what it reads as."""
from __future__ import annotations

import unicodedata

import pytest

from pnp.core.errors import WordListError
from pnp.games.netmatch.wordlist import read_words


def _refused(tmp_path, text: str, name: str = "w.txt") -> WordListError:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(WordListError) as e:
        read_words(p)
    return e.value


@pytest.mark.parametrize("word,char,plain", [
    ("\ufb01led", "\ufb01", "fi"),          # LATIN SMALL LIGATURE FI: 4 characters, prints 5 letters
    ("\ufb02ag", "\ufb02", "fl"),           # ... FL: 3 characters, would otherwise fail as too short
    ("\u0133sje", "\u0133", "ij"),          # LATIN SMALL LIGATURE IJ
    ("\u01c6ep", "\u01c6", "d\u017e"),      # LATIN SMALL LETTER DZ WITH CARON
    ("\u0149ame", "\u0149", "\u02bcn"),     # N PRECEDED BY APOSTROPHE
])
def test_ligatures_are_refused_naming_line_and_character(tmp_path, word, char, plain):
    e = _refused(tmp_path, f"TEST\n# comment\n{word}\n")
    text = str(e)
    assert e.line == 3 and f"U+{ord(char):04X}" in text and unicodedata.name(char) in text
    assert f"the {len(plain)} letters {plain!r}" in text and f"type {plain!r} as plain letters" in text


@pytest.mark.parametrize("word,char", [("\uff21BCD", "\uff21"), ("\U0001d400BCD", "\U0001d400"),
                                       ("c\u00aaSA", "\u00aa"), ("\u017fang", "\u017f"), ("ABC\u1d43", "\u1d43")])
def test_compatibility_letters_are_refused(tmp_path, word, char):
    e = _refused(tmp_path, f"TEST\n{word}\n")
    assert e.line == 2 and f"U+{ord(char):04X}" in str(e) and "compatibility form" in str(e)


def test_a_spreadsheet_cell_names_row_and_column(tmp_path):
    e = _refused(tmp_path, "id,word\n1,TEST\n2,\ufb01led\n", "w.csv")
    assert e.line == 3 and "row 3, column 2" in str(e) and "LIGATURE FI" in str(e)


def test_plain_letters_of_every_script_still_pass(tmp_path):
    words = ["CAF\u00c9", "Stra", "\u03bb\u03cc\u03b3\u03bf", "\u0441\u043b\u043e\u0432",
             "Ma\u00dfe", "\u0131\u015f\u0131k"]
    p = tmp_path / "w.txt"
    p.write_text("\n".join(words) + "\ne\u0301t\u00e9s\n", encoding="utf-8")  # decomposed é composes (NFC)
    got = read_words(p).words
    assert got[:-1] == tuple(words) and got[-1] == "\u00e9t\u00e9s"
