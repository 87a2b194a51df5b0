"""Fitting a plain text (pnp.text.fit of typeset.plain: the Latin shortcut inside pnp.text) against a
brute-force scan and the font's own metrics."""
from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pnp.core.fonts import text_width_mm
from pnp.core.units import MM_PER_PT
from pnp import text as typeset
from pnp.text import STEP_PT


def fit(text, size, min_pt, w, h, wrap, spacing, font="NotoSans"):
    return typeset.fit(typeset.plain(text, bold=font == "NotoSans-Bold"), size, min_pt, w, h, wrap, spacing)


def lay_out(text, size, w, h, wrap, spacing, font="NotoSans"):
    return typeset.lay_out(typeset.plain(text, bold=font == "NotoSans-Bold"), size, w, h, wrap, spacing)


def shown(line) -> str:
    """A set line's text (its runs joined)."""
    return "".join(span.text for _, span in line.pieces)

WORDS = st.lists(st.sampled_from(["a", "word", "Ζωή", "длинное", "WWWW", "iiii", "of", "table-top", "x"]),
                 min_size=1, max_size=30).map(" ".join)


def _scan(text, size, min_pt, w, h, wrap, spacing):
    """The top size, then every quarter-point step above ``min_pt`` that is below it, from the top
    down: the first that fits. (Until now the steps were counted with round(), which skipped the
    highest step when (size - min_pt) / step ended in exactly .5 and rounded down: hypothesis found
    size 16.625 over 4 pt, where 16.5 fits.)"""
    got = lay_out(text, size, w, h, wrap, spacing)
    if got is not None:
        return got
    for k in range(int((size - min_pt + 1e-9) / STEP_PT), -1, -1):
        got = lay_out(text, min_pt + k * STEP_PT, w, h, wrap, spacing)
        if got is not None:
            return got
    return None


@example("a", 16.625, 4.0, 10.0, 7.9375, False, 1.0)  # the highest step is 16.5 (see _scan)
@example("word длинное длинное длинное", 24.0, 8.0, 43.0, 29.0, False, 1.0)  # unwrapped, too wide at 8 pt: None
@example("a a a a длинное длинное длинное длинное длинное", 24.0, 7.5, 65.0, 28.0, False, 1.0)  # fits at no size
@settings(max_examples=150, deadline=None)
@given(WORDS, st.floats(8, 40), st.floats(4, 8), st.floats(10, 80), st.floats(5, 60), st.booleans(),
       st.sampled_from([1.0, 1.2, 1.5]))
def test_fit_is_the_largest_step_that_fits(text, size, min_pt, w, h, wrap, spacing):
    got = fit(text, size, min_pt, w, h, wrap, spacing)
    want = _scan(text, size, min_pt, w, h, wrap, spacing)
    assert (got is None) == (want is None)
    if got is not None:
        assert abs(got.size_pt - want.size_pt) < 1e-9
        for line in got.lines:  # measured with the font: every line inside the box
            assert text_width_mm(shown(line), got.size_pt) <= w + 1e-6
        assert got.height <= h + 1e-6
        assert " ".join(" ".join(shown(line) for line in got.lines).split()) == " ".join(text.split())  # nothing lost


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["a", "word", "Ζωή", "длинное", "WWWW", "iiii", "table-top"]), st.integers(0, 60),
       st.sampled_from([4.0, 5.0, 6.5]), st.sampled_from([1.0, 1.0 + 2 ** -52, 1.0 - 2 ** -52]), st.booleans())
def test_a_box_as_wide_as_the_line_at_a_step_gets_that_step(word, k, min_pt, scale, bold):
    """A line shrunk (fit: shrink, no wrap) into a box exactly as wide as it is at a quarter-point step
    (or a unit of the last digit wider or narrower): the size chosen is the brute-force scan's, where
    the box's width sits on the edge between two steps."""
    font = "NotoSans-Bold" if bold else "NotoSans"
    step_pt = min_pt + k * STEP_PT
    w = text_width_mm(word, step_pt, font) * scale
    got = fit(word, 40.0, min_pt, w, 30.0, False, 1.2, font)
    sizes = [40.0] + [min_pt + j * STEP_PT for j in range(int((40.0 - min_pt) / STEP_PT), -1, -1)]
    want = next((lay_out(word, s, w, 30.0, False, 1.2, font) for s in sizes
                 if lay_out(word, s, w, 30.0, False, 1.2, font) is not None), None)
    assert got == want
    assert got is not None and got.size_pt >= step_pt - STEP_PT


def test_block_height_is_ascent_to_descent():
    got = lay_out("Ág\nÁg", 10, 100, 100, False, 1.5)
    size = 10 * MM_PER_PT
    assert abs(got.height - (1.069 + 0.293 + 1.5) * size) < 1e-9
    assert abs(got.baselines[1] - got.baselines[0] - 1.5 * size) < 1e-9
