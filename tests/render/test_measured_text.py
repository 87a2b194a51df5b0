"""A Text that carries its width (pnp.core.ir.Text.width, set by the typesetter that fitted it) is
placed by the backends from that width: the same placement as measuring it again, and no second
measure (pnp.render.base.place_text)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pnp.core.fonts import BOLD_FACE, DEFAULT_FACE, text_width_mm
from pnp.core.ir import Text
from pnp.render.base import place_text

TEXTS = [Text(10, 20, "Word", size_pt=12, anchor=anchor, valign=valign, bold=bold, underline=underline)
         for anchor in ("start", "middle", "end") for valign in ("baseline", "middle")
         for bold in (False, True) for underline in (False, True)]


@pytest.mark.parametrize("t", TEXTS, ids=lambda t: f"{t.anchor}-{t.valign}-{'b' if t.bold else 'r'}-{'u' if t.underline else 'n'}")
def test_a_measured_text_is_placed_as_measuring_it_would(t):
    width = text_width_mm(t.text, t.size_pt, BOLD_FACE if t.bold else DEFAULT_FACE)
    assert place_text(replace(t, width=width)) == place_text(t)


def test_the_width_a_text_carries_is_the_one_it_is_placed_by():
    """The backends take the maker's measure: a Text told it is 40 mm wide is centred on 20 mm."""
    t = Text(0, 0, "Word", size_pt=12, anchor="middle", underline=True, width=40.0)
    got = place_text(t)
    assert got.width == 40.0 and got.dx == -20.0
    assert got.underline[:2] == (-20.0, 20.0)
