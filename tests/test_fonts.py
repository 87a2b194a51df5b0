"""The font registry (pnp.core.fonts): the built-in faces, register_face, and per-face metrics."""
from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from pnp.core import fonts
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
               for line in fonts.wrap(text, 10, width, "NotoSans-Italic"))
    lacking = [chr(c) for c in fonts.face("NotoSans").cmap - fonts.face("NotoSans-Italic").cmap if c > 32]
    assert lacking, "the italic face should lack a few of the regular's characters"
    assert fonts.missing_glyphs("a" + lacking[0], "NotoSans-Italic") == [lacking[0]]
    assert fonts.missing_glyphs("a" + lacking[0]) == []


def test_register_face(tmp_path):
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
