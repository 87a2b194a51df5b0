"""The round-trip writer (pnp.edit.yamledit): an edit changes the edited layer's lines only; comments,
key order, quoting and the wrapping of every other line are kept byte for byte."""
from __future__ import annotations

import yaml

from pnp.edit.yamledit import DELETE, LayerText, mm_value

FLOW = """# The card front (63.5 x 88.9 mm): made by pnp new.
layers:
- {type: rect, fill: '#ffffff', bleed: true}
# the title, big
- {type: text, text: '{name}', x: 4.0, y: 4.0, w: 55.5, h: 7.03, size: 14.0, min_size: 6.0, fit: shrink, wrap: true,
  bold: true}
- {type: text, text: '{text}', x: 4.0, y: 12.23, w: 55.5, h: 71.67, size: 10.0, min_size: 6.0, fit: shrink, wrap: true}  # body
- {type: rect, x: 2.5, y: 2.5, w: 58.5, h: 83.9, radius: 2, stroke: '#bbbbbb', stroke_width: 0.25}
# the end
"""

BLOCK = """# a block-style template
include: [shared/card-back.yaml]   # pnp's back
layers:
  # the background
  - type: rect   # whole card
    fill: '#ffffff'
    bleed: true
  # the title
  - type: text
    text: "{name}"
    x: 4   # left margin
    y: 10%
    size: 14
proof: {x: 1, y: 1, w: 10, h: 3}  # where --proof stamps
"""


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _others_kept(before: str, after: str, changed: range) -> None:
    """Every line of ``before`` outside the ``changed`` line numbers is in ``after``, in order."""
    kept = [ln for i, ln in enumerate(_lines(before)) if i not in changed]
    got = _lines(after)
    pos = 0
    for ln in kept:
        pos = got.index(ln, pos) + 1


def test_setting_fields_rewrites_only_that_layer():
    after = LayerText(FLOW).set_fields(1, {"x": 14.0, "size": 12, "colour": "#ff0000"})
    data = yaml.safe_load(after)
    assert data["layers"][1]["x"] == 14.0 and data["layers"][1]["size"] == 12
    assert list(data["layers"][1])[-1] == "colour"  # a new key goes after the others; the order kept
    assert list(data["layers"][1])[:4] == ["type", "text", "x", "y"]
    _others_kept(FLOW, after, range(4, 6))
    assert data["layers"][0] == yaml.safe_load(FLOW)["layers"][0]
    assert "# the title, big" in after and "# body" in after and "# the end" in after


def test_a_block_layer_keeps_its_comments_and_quoting():
    after = LayerText(BLOCK).set_fields(1, {"x": 6.5, "y": DELETE})
    assert "    x: 6.5  # left margin\n" in after or "    x: 6.5   # left margin\n" in after
    assert "y: 10%" not in after
    assert '    text: "{name}"\n' in after  # its quotes as written
    _others_kept(BLOCK, after, range(8, 13))
    assert yaml.safe_load(after)["proof"] == {"x": 1, "y": 1, "w": 10, "h": 3}


def test_insert_delete_and_move_keep_the_other_lines():
    text = LayerText(FLOW)
    added = text.insert(4, {"type": "rect", "x": 17, "y": 37, "w": 30, "h": 15, "fill": "#90caf9"})
    assert "- {type: rect, x: 17, y: 37, w: 30, h: 15, fill: '#90caf9'}" in added
    assert yaml.safe_load(added)["layers"][4]["w"] == 30
    _others_kept(FLOW, added, range(0))
    gone = LayerText(FLOW).delete(0)
    assert [ly["type"] for ly in yaml.safe_load(gone)["layers"]] == ["text", "text", "rect"]
    _others_kept(FLOW, gone, range(2, 3))
    moved = LayerText(FLOW).move(3, 0)
    assert [ly.get("radius") for ly in yaml.safe_load(moved)["layers"]] == [2, None, None, None]
    assert sorted(_lines(moved)) == sorted(_lines(FLOW))  # the same lines, one layer's elsewhere


def test_a_layout_the_splice_does_not_follow_is_written_whole_with_its_comments():
    text = "# one line of layers\nlayers: [{type: rect, x: 1}, {type: rect, x: 2}]  # two\n"
    after = LayerText(text).set_fields(1, {"x": 5})
    assert yaml.safe_load(after)["layers"][1]["x"] == 5
    assert "# one line of layers" in after


def test_lengths_are_written_as_they_were():
    assert mm_value(12.5, "50%", 50.0) == "25%"
    assert mm_value(14.0, "4mm", 0) == "14mm"
    assert mm_value(14.0, 4.0, 0) == 14.0 and mm_value(14.0, 4, 0) == 14 and mm_value(14.25, 4, 0) == 14.25
