"""Right-to-left and shaped text in pnp.core: the bidi levels and the visual order of runs (UAX #9),
the fallback faces per script, line breaking that never cuts a cluster, lines aligned to the right
in a right-to-left paragraph, and a character no face draws still refused."""
from __future__ import annotations

import unicodedata

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp import text as richtext
from pnp.core import fonts
from pnp.core.shaping import levels, needs_shaping, paragraph_rtl, visual_order

from test_custom_templates import _kit

runner = CliRunner()


def test_numbers_and_latin_words_inside_arabic_keep_their_order():
    text = "في عام 2024 لعبنا Catan"
    lv = levels(text, paragraph_rtl(text))
    assert paragraph_rtl(text) and lv[text.index("2")] == 2 and lv[text.index("C")] == 2
    assert all(lv[i] == 1 for i, ch in enumerate(text) if unicodedata.bidirectional(ch) == "AL")
    # runs: [AR, 2024, AR, Catan] in logical order -> seen left to right: Catan, AR, 2024, AR
    assert visual_order([1, 2, 1, 2]) == [3, 2, 1, 0]
    assert visual_order([0, 1, 1, 0]) == [0, 2, 1, 3]
    assert visual_order([0, 0]) == [0, 1]


def test_only_complex_scripts_are_shaped():
    assert not needs_shaping("Hello, Ωμέγα, Привет, café")
    assert needs_shaping("שלום") and needs_shaping("नमस्ते") and needs_shaping("مرحبا")


def _paras(text: str):
    return richtext.fallback(richtext.plain(text))


def test_fallback_faces_per_script_and_words_kept_whole():
    (para,) = _paras("Play مرحبا 12 now")
    faces = [(s.text, s.face) for s in para]
    assert faces == [("Play ", ""), ("مرحبا 12 ", "NotoSansArabic"), ("now", "")]
    # Noto Sans itself draws Devanagari; a face that lacks it (Noto Sans Hebrew) falls back
    hebrew = ((richtext.Span("नमस्ते दुनिया", face="NotoSansHebrew"),),)
    assert [s.face for s in richtext.fallback(hebrew)[0]] == ["NotoSansDevanagari"]
    assert richtext.missing(_paras("ok ทดสอบ")) is not None  # Thai: no fallback face, refused as before


def test_arabic_lines_break_at_spaces_only_and_align_right():
    text = " ".join(["مرحبا", "بالعالم", "الكبير", "اليوم"] * 3)
    paras = _paras(text)
    fitted = richtext.lay_out(paras, 12, 30.0, 200.0, True, 1.2)
    assert len(fitted.lines) > 1 and all(line.rtl for line in fitted.lines)
    words = set(text.split())
    for line in fitted.lines:
        drawn = "".join(s.text for _, s in line.pieces).split()
        assert set(drawn) <= words  # whole words only: no cluster cut
        assert line.width <= 30.0 + 1e-6
    shapes = richtext.draw(fitted, 0.0, 0.0, 30.0, "start", "#000000")
    for line, t in zip(fitted.lines, shapes):  # each line ends at the box's right edge
        assert t.x + fonts.text_width_mm(t.text, 12, t.font) == pytest.approx(30.0, abs=1e-6)


def test_devanagari_conjuncts_shape_to_fewer_glyphs_than_characters():
    glyphs = fonts.shaped("क्षत्रिय", "NotoSansDevanagari")
    assert 0 < len(glyphs) < len("क्षत्रिय")
    assert fonts.text_width_mm("क्षत्रिय", 10, "NotoSansDevanagari") == pytest.approx(
        sum(g.advance for g in glyphs) * 10 / 1000 * 25.4 / 72)


def test_a_script_without_a_font_is_bad_input_naming_row_column_and_character(tmp_path):
    spec = """title: Thai
components:
  - {name: card, size: poker, data: cards.csv, front: front.yaml}
"""
    folder = _kit(tmp_path / "thai", spec, {
        "front.yaml": "layers:\n  - {type: text, text: '{word}', x: 5, y: 5, w: 50, h: 20, size: 12}\n",
        "cards.csv": "word\nمرحبا\nทดสอบ\n"})
    (folder / "ok.csv").write_text("word\nمرحبا\nשלום\nHello\n", encoding="utf-8")
    fine = runner.invoke(app, ["build", str(folder), "-o", str(tmp_path / "fine"), "-f", "pdf", "--set", "data=" +
                               str(folder / "ok.csv")])
    assert fine.exit_code == 0, fine.output
    assert "text: set in Noto Sans, Noto Sans Arabic, Noto Sans Hebrew." in fine.output
    r = runner.invoke(app, ["build", str(folder), "-o", str(tmp_path / "out"), "-f", "pdf"])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "row 3, column 1 (word)" in flat and "U+0E17" in flat, flat
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))
