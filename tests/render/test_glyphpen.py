"""pnp.render.glyphpen writes, for every glyph HarfBuzz draws, the text fontTools' SVGPathPen writes
behind a TransformPen (the pens glyph_path used before), and its number format is round-then-format."""
import random

import pytest
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen

from pnp.core import fonts
from pnp.core.fontbook import FontBook
from pnp.core.shaping import draw_glyph, units_per_em
from pnp.render.glyphpen import GlyphPathPen, num


def _old_num(v: float) -> str:
    r = round(v, 3)
    if r == 0:
        return "0"
    return f"{r:.3f}".rstrip("0").rstrip(".")


def test_num_is_round_then_format():
    rng = random.Random(31)
    values = [0.0, -0.0, 0.0004, -0.0004, 0.0005, -0.0005, 0.0015, 2.5, -2.5, 1000.0, 0.1 + 0.2, 123.4565]
    values += [rng.uniform(-2000, 2000) for _ in range(20000)]
    values += [round(rng.uniform(-50, 50), 4) + 0.0005 for _ in range(5000)]  # near the rounding ties
    for v in values:
        assert num(v) == _old_num(v), v


def _faces():
    fonts.fallback_faces()
    names = [fonts.DEFAULT_FACE, fonts.ITALIC_FACE, fonts.BOLD_FACE, *fonts.fallback_faces()]
    return [n for n in names if fonts.face(n)]


@pytest.mark.parametrize("face", _faces())
def test_every_glyph_as_fonttools_pens_write_it(face):
    from fontTools.ttLib import TTFont
    data = fonts.face(face).font_bytes
    k = 1000.0 / units_per_em(face, data)
    count = len(TTFont(fonts.face(face).path, lazy=True).getGlyphOrder())
    inked = 0
    for gid in range(count):
        ours = GlyphPathPen(k)
        draw_glyph(gid, face, data, ours)
        theirs = SVGPathPen(None, ntos=_old_num)
        draw_glyph(gid, face, data, TransformPen(theirs, (k, 0, 0, -k, 0, 0)))
        assert not ours.unsupported
        assert ours.commands() == theirs.getCommands(), (face, gid)
        inked += bool(theirs.getCommands())
    assert inked > count // 2  # the comparison saw outlines, not empty strings


def test_a_segment_it_does_not_write_is_flagged():
    pen = GlyphPathPen(1.0)
    pen.moveTo((0, 0))
    pen.qCurveTo((1, 1), (2, 0), (3, 0))
    assert pen.unsupported


def test_a_glyph_the_pen_cannot_write_is_drawn_through_fonttools(monkeypatch):
    """glyph_path falls back to fontTools' pens when the pen flags a call: the same path data (the
    flagging pen here writes no curve at all, so its own text would differ)."""
    from pnp.render import glyphpen, svgfont
    face = fonts.DEFAULT_FACE
    gid = fonts.face(face).ttfont.face.charToGlyph[ord("S")]
    with FontBook().in_use():  # a book of its own: nothing drawn before is kept
        fast = svgfont.glyph_path(face, gid)

    def flagged(self, *points):
        self.unsupported = True
    monkeypatch.setattr(glyphpen.GlyphPathPen, "qCurveTo", flagged)
    with FontBook().in_use():
        assert svgfont.glyph_path(face, gid) == fast and "Q" in fast
