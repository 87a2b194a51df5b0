"""The font registry (pnp.core.fonts): the built-in faces, register_face, and per-face metrics; wrapping
(pnp.text.wrapping)."""
from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from pnp.core import fonts
from pnp.core.fontbook import FontBook
from pnp.text.wrapping import wrap
from pnp.core.units import MM_PER_PT


def test_builtin_faces_are_the_noto_sans_files():
    regular, italic = fonts.face("NotoSans"), fonts.face("NotoSans-Italic")
    assert regular.path == fonts.font_path() and regular.style == "normal" and italic.style == "italic"
    for f in (regular, italic):  # the file's own metrics, read with fontTools (not reportlab)
        tt = TTFont(str(f.path))
        upm = tt["head"].unitsPerEm
        assert f.cap_height == pytest.approx(tt["OS/2"].sCapHeight / upm, abs=1e-3)
        hmtx, cmap = tt["hmtx"], tt.getBestCmap()
        assert fonts.text_width_mm("Wave", 10, f.name) == pytest.approx(
            sum(hmtx[cmap[ord(c)]][0] for c in "Wave") / upm * 10 * MM_PER_PT, abs=1e-6)
        assert f.cmap == frozenset(cmap) - {c for c in cmap if c > 0x10FFFF}
    assert italic.ttfont.face.name != regular.ttfont.face.name
    assert fonts.cap_height() == fonts.CAP_HEIGHT


def test_wrap_and_missing_glyphs_take_the_face():
    text = "ffffff iiiiii " * 4
    width = fonts.text_width_mm("ffffff iiiiii", 10, "NotoSans-Italic") + 0.1
    assert all(fonts.text_width_mm(line, 10, "NotoSans-Italic") <= width
               for line in wrap(text, 10, width, "NotoSans-Italic"))
    lacking = [chr(c) for c in fonts.face("NotoSans").cmap - fonts.face("NotoSans-Italic").cmap if c > 32]
    assert lacking, "the italic face should lack a few of the regular's characters"
    assert fonts.missing_glyphs("a" + lacking[0], "NotoSans-Italic") == [lacking[0]]
    assert fonts.missing_glyphs("a" + lacking[0]) == []


def test_register_face(tmp_path):
    with FontBook().in_use():
        _register_face(tmp_path)
    with pytest.raises(KeyError, match="no font called 'SlantTest'"):  # gone with its book
        fonts.face("SlantTest")


def _register_face(tmp_path):
    italic = fonts.face("NotoSans-Italic").path
    got = fonts.register_face("SlantTest", italic, family="Slant", style="italic")
    assert fonts.face("SlantTest") is got and "SlantTest" in fonts.face_names()
    assert fonts.register_face("SlantTest", italic) is got  # the same file again: the same face
    assert fonts.text_width_mm("abc", 12, "SlantTest") == fonts.text_width_mm("abc", 12, "NotoSans-Italic")
    with pytest.raises(ValueError, match="already used"):
        fonts.register_face("SlantTest", fonts.font_path())
    with pytest.raises(ValueError, match="already used"):
        fonts.register_face("NotoSans", italic)
    with pytest.raises(ValueError, match="does not exist"):
        fonts.register_face("Ghost", tmp_path / "ghost.ttf")
    with pytest.raises(ValueError, match="letters, digits"):
        fonts.register_face("bad name", italic)
    with pytest.raises(ValueError, match="font family"):
        fonts.register_face("Quoted", italic, family="x'; } svg { display: none")
    with pytest.raises(KeyError, match="no font called 'Ghost'"):
        fonts.face("Ghost")


def _random_text(rng) -> str:
    """Words of letters, digits, punctuation, accents, Greek and Cyrillic, with runs of spaces,
    tabs, no-break spaces and newlines between them (what str.split treats as spaces is kept)."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMWiIl0123456789.,;:!?()-\u2013\u2019\u00e9\u00fc\u03b1\u03b2\u0436\u044f"
    words = ["".join(rng.choice(alphabet) for _ in range(rng.choice([1, 2, 3, 5, 8, 14, 30])))
             for _ in range(rng.randint(0, 40))]
    text = ""
    for word in words:
        text += word + rng.choice([" ", " ", " ", "  ", "\n", "\t", "\u00a0", " \n "])
    return text.strip(" ") if rng.random() < 0.5 else text


def test_wrap_gives_reportlab_simple_split_lines_for_random_texts():
    """wrap memoises word widths and whole results; its lines must still be simpleSplit's, line for
    line, for both faces, many sizes and widths (including a width of 0: no wrapping)."""
    import random

    from reportlab.lib.utils import simpleSplit

    from pnp.core.units import mm_to_pt
    rng = random.Random(24)
    multi = 0
    for trial in range(1500):
        text = _random_text(rng)
        size = rng.choice([6.0, 7.5, 8, 9.5, 11.0, rng.uniform(4, 30)])
        width = rng.choice([0.0, 5.0, 40.0, 87.5, rng.uniform(1, 200)])
        font = rng.choice(["NotoSans", "NotoSans-Italic"])
        fonts.face(font).ttfont   # registered with reportlab, as wrap does
        expected = simpleSplit(text, font, size, mm_to_pt(width))
        for _ in range(2):        # the second call comes from the memo
            got = wrap(text, size, width, font)
            assert got == expected, (trial, text, size, width, font)
        got.append("not in the memo")   # a caller changing its list changes no later answer
        assert wrap(text, size, width, font) == expected
        multi += len(expected) > 1
    assert multi > 500


def test_text_width_equals_reportlab_string_width_for_random_strings():
    import random

    from reportlab.pdfbase.pdfmetrics import stringWidth
    rng = random.Random(7)
    for _ in range(2000):
        text = _random_text(rng)[:rng.randint(0, 60)]
        size = rng.choice([6.0, 8, rng.uniform(4, 30)])
        font = rng.choice(["NotoSans", "NotoSans-Italic"])
        fonts.face(font).ttfont
        for _ in range(2):
            assert fonts.text_width_mm(text, size, font) == stringWidth(text, font, size) * MM_PER_PT
