"""Plain text is rich text with one run (pnp.text): the Latin shortcut pnp.text takes inside fit,
fit_box, lay_out and set_lines gives the Fitted the general path gives for the same text set as
rich text (each paragraph cut into two runs of one style, which the general path measures apart and
joins again): the same sizes, line texts, widths, baselines and heights over many boxes. And every
Text a template draws carries its width (ir.Text.width), equal to the font's measure of it."""
from __future__ import annotations

import random

import pytest

from pnp import text as typeset
from pnp.core.fonts import styled_face, text_width_mm
from pnp.core.ir import Group, Text
from pnp.pipeline.plan import context, load_target
from pnp.text import Span
from test_custom_templates import CARD_SPEC, _kit

WORDS = ["a", "word", "Ζωή", "длинное", "WWWW", "iiii", "of", "table-top", "x", "Fjord", "quick", "brown"]


def _text(rnd: random.Random) -> str:
    """A few paragraphs of random words, now and then a blank or spaces-only line, or spaces at the ends."""
    paras = []
    for _ in range(rnd.choice([1, 1, 2, 3])):
        kind = rnd.random()
        if kind < 0.08:
            paras.append("")
        elif kind < 0.12:
            paras.append("   ")
        else:
            words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 12)))
            paras.append((" " if rnd.random() < 0.1 else "") + words + ("  " if rnd.random() < 0.1 else ""))
    if not any(p.strip() for p in paras):
        paras.append(rnd.choice(WORDS))
    return "\n".join(paras)


def _as_runs(paras, rnd: random.Random):
    """``paras`` (one run each) with every paragraph of two or more characters cut into two runs of its
    style at a random place: the same text, which no shortcut takes."""
    out = []
    for para in paras:
        if para and len(para[0].text) > 1:
            s = para[0]
            k = rnd.randint(1, len(s.text) - 1)
            para = (Span(s.text[:k], s.bold, s.italic, None, s.offset, s.face),
                    Span(s.text[k:], s.bold, s.italic, None, s.offset + k, s.face))
        out.append(para)
    return tuple(out)


def _seen(fitted):
    """What a Fitted sets: its size, and per line its runs' (x, text, bold, italic, face), width and direction."""
    if fitted is None:
        return None
    return (fitted.size_pt, [([(x, s.text, s.bold, s.italic, s.face) for x, s in line.pieces], line.width, line.rtl)
                             for line in fitted.lines], fitted.baselines, fitted.height)


def _close(a, b, tol: float) -> bool:
    """``a`` and ``b`` (as _seen gives them) equal, numbers to ``tol`` relative (0: exactly)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b if tol == 0 else abs(a - b) <= tol * max(1.0, abs(a), abs(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b))
    return a == b


def test_a_plain_text_fits_as_the_same_text_in_runs():
    rnd = random.Random(47)
    set_sizes, none = 0, 0
    for case in range(600):
        text, bold = _text(rnd), rnd.random() < 0.3
        plain = typeset.plain(text, bold)
        runs = _as_runs(plain, rnd)
        w, h = rnd.uniform(8, 90), rnd.uniform(4, 60)
        size, least, spacing = rnd.choice([8.0, 12.0, 24.0, 40.0]), rnd.choice([2.0, 4.0, 6.0]), rnd.choice([1.0, 1.2])
        wrap = rnd.random() < 0.6
        for name, got, want, tol in [
                ("lay_out", typeset.lay_out(plain, size, w, h, wrap, spacing),
                 typeset.lay_out(runs, size, w, h, wrap, spacing), 0.0),
                ("fit", typeset.fit(plain, size, least, w, h, wrap, spacing),
                 typeset.fit(runs, size, least, w, h, wrap, spacing), 0.0),
                # fit_box measures a line as the sum of its runs at 10 pt: the size may differ in the last digits
                ("fit_box", typeset.fit_box(plain, size, least, w, h, spacing),
                 typeset.fit_box(runs, size, least, w, h, spacing), 1e-12),
                ("fit_box cap", typeset.fit_box(plain, size, least, w, h, spacing, 0.714),
                 typeset.fit_box(runs, size, least, w, h, spacing, 0.714), 1e-12)]:
            assert _close(_seen(got), _seen(want), tol), (case, name, text, w, h, size, wrap)
            set_sizes += got is not None
            none += got is None
        for width in (None, w):
            assert _close(_seen(typeset.Fitted(size, tuple(typeset.set_lines(plain, size, width)), (), 0.0)),
                          _seen(typeset.Fitted(size, tuple(typeset.set_lines(runs, size, width)), (), 0.0)), 0.0)
    assert set_sizes > 1000 and none > 100  # both outcomes were compared, many times


def test_the_shortcut_is_taken_only_for_one_latin_run_of_one_style():
    """Text the shortcut may not set (a second style, an icon's neighbour, a shaped or right-to-left
    script) is set in runs: its lines keep their runs."""
    got = typeset.fit(typeset.parse("plain **bold** end"), 12, 4, 80, 20, True, 1.2)
    assert [s.bold for _, s in got.lines[0].pieces] == [False, True, False]
    mixed = typeset.fit(typeset.plain("one") + typeset.plain("two", bold=True), 12, 4, 80, 20, True, 1.2)
    assert [[s.bold for _, s in line.pieces] for line in mixed.lines] == [[False], [True]]
    arabic = typeset.fit(typeset.fallback(typeset.plain("hello مرحبا")), 12, 4, 80, 20, False, 1.2)
    assert len(arabic.lines[0].pieces) == 2 and typeset.whole(arabic.lines[0]) is None


def _texts(shapes):
    for s in shapes:
        if isinstance(s, Group):
            yield from _texts(s.children)
        elif isinstance(s, Text):
            yield s


def _template_texts(target: str, names: set[str] | None = None) -> list[Text]:
    loaded = load_target(target)
    comps = loaded.game.components(loaded.spec, context(loaded))
    return [t for c in comps if names is None or c.name in names
            for d in [*c.fronts, *([c.back] if c.back is not None else [])] for t in _texts(d)]


# A template of every kind of text layer: shrunk and wrapped, as large as the box, centred on its
# capitals, turned, underlined, with bold and italic runs, in Arabic (shaped, right to left)
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: text, text: "{label}", x: 3, y: 3, w: 44, h: 14, size: 30, min_size: 4, fit: shrink, wrap: true, align: right}
  - {type: text, text: "{label}", x: 3, y: 18, w: 44, h: 10, size: 40, min_size: 2, fit: box, align: center,
     valign: cap-middle, bold: true}
  - {type: text, text: "{label}", x: 3, y: 30, w: 10, h: 36, size: 11, min_size: 2, fit: box, rotate: 90,
     valign: cap-middle, align: center}
  - {type: text, text: "{label}", x: 15, y: 30, w: 32, h: 16, size: 12, min_size: 3, fit: shrink, wrap: true, rotate: 180,
     align: end, valign: bottom, underline: true}
  - {type: text, text: "{label}", x: 15, y: 48, w: 32, h: 18, size: 10, min_size: 3, fit: shrink, wrap: true, align: start,
     valign: middle}
"""
CSV = ('label\n"Hello there, big world"\n"**Bold** and *italic* words in runs"\n"مرحبا بالعالم"\n'
       '"two\\nlines"\n"left  and   spaced"\n')


@pytest.fixture(scope="module")
def every_layer(tmp_path_factory):
    return _kit(tmp_path_factory.mktemp("widths") / "kit", CARD_SPEC.replace('    back: "{back}.yaml"\n', ""),
                {"front.yaml": FRONT, "cards.csv": CSV})


@pytest.mark.parametrize("target, names", [
    ("netmatch", {"word card", "pawn", "letter token"}), ("nonads", {"tile"}), ("numeria", {"tile"}),
    ("shapes", None), ("playing-cards", {"card"}), ("questions", None), ("kit", None)])
def test_every_text_a_template_draws_has_its_width(target, names, every_layer):
    texts = _template_texts(str(every_layer) if target == "kit" else target, names)
    assert texts
    for t in texts:
        assert t.width is not None, t
        assert abs(t.width - text_width_mm(t.text, t.size_pt, styled_face(t.font, t.bold))) <= 1e-9, t
    if target == "kit":  # all the layer kinds were drawn: turned, centred on capitals, shaped, in runs
        assert {t.rotate for t in texts} >= {90.0} and any(t.valign == "middle" for t in texts)
        assert any(t.bold for t in texts) and any(t.font == "NotoSans-Italic" for t in texts)
        assert any("مرحبا" in t.text for t in texts)
