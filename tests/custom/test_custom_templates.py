"""Template features, measured in the PDF: % coordinates, when:, named colours, rotated text boxes,
bleed past the trim, per-row back templates, components without data (coins, a board), --set data,
and `pnp watch` rebuilding when the data changes."""
from __future__ import annotations

import os
import subprocess
import sys
import threading

import pypdf
import pytest

from conftest import PT, build_kit, filled_rects, mm, open_pdf, pdf_of, sigint_default
from pnp.core.errors import PnpError
from pnp.layout.options import ImposeOptions
from test_watch import _until

RULES = ("# Kit\nA test kit.\n\n## Components\n- parts\n\n## Setup\nNone.\n\n## A turn\nPlay.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")


def _kit(folder, spec: str, files: dict[str, str]):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{folder.name}.yaml").write_text(spec, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


CARD_SPEC = """title: Kit
components:
  - name: card
    size: [50mm, 70mm]
    data: cards.csv
    front: front.yaml
    back: "{back}.yaml"
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: rect, x: 10%, y: 50%, w: 80%, h: 20%, fill: "{colour}", when: {column: kind, equals: [big, huge]}}
  - {type: text, text: "{label}", x: 5, y: 5, w: 40, h: 10, size: 12, align: right}
  - {type: text, text: "{label}", x: 40, y: 5, w: 8, h: 60, size: 12, rotate: 90, when: {column: kind, not: small}}
  - {type: text, text: "{{literal}}", x: 5, y: 60, w: 40, h: 8, size: 8}
"""
BACK_A = 'layers:\n  - {type: rect, fill: "#112233", bleed: true}\n'
BACK_B = 'layers:\n  - {type: rect, fill: "#445566", bleed: true}\n'
CSV = "label,kind,colour,back\nONE,big,red,a\nTWO,small,#00ff00,b\nTHREE,huge,navy,a\n"


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    root = tmp_path_factory.mktemp("t")
    folder = _kit(root / "kit", CARD_SPEC, {"front.yaml": FRONT, "a.yaml": BACK_A, "b.yaml": BACK_B, "cards.csv": CSV})
    return folder, build_kit(str(folder), out=root / "out", formats=("pdf",),
                             opts=ImposeOptions(bleed=3.0, duplex="long"))


def test_per_row_backs_become_runs_and_backs_are_printed(cards):
    _, result = cards
    comps = {c["name"]: c["count"] for c in result.manifest["components"]}
    assert comps == {"card (back 1 of 2)": 2, "card (back 2 of 2)": 1}
    with open_pdf(pdf_of(result)) as pdf:
        backs = [r for p in pdf.pages for colour in ((0x11 / 255, 0x22 / 255, 0x33 / 255),
                                                     (0x44 / 255, 0x55 / 255, 0x66 / 255))
                 for r in filled_rects(p, tuple(round(c, 3) for c in colour))]
    assert len(backs) == 3
    assert all(abs(w - 56) < 0.1 and abs(h - 76) < 0.1 for _, _, w, h in backs)  # 50 x 70 plus 3 mm bleed a side


def _front_page(pdf):
    """The sheet of card fronts (with duplex, the cover's blank back comes first)."""
    return next(p for p in pdf.pages if any(abs(r[2] - 56) < 0.1 for r in filled_rects(p, (1.0, 1.0, 1.0))))


def test_percent_when_and_named_colours(cards):
    _, result = cards
    with open_pdf(pdf_of(result)) as pdf:
        page = _front_page(pdf)
        white = [r for r in filled_rects(page, (1.0, 1.0, 1.0)) if abs(r[2] - 56) < 0.1 and abs(r[3] - 76) < 0.1]
        assert len(white) == 3  # the background to the trim, extended by the 3 mm bleed
        red = filled_rects(page, (1.0, 0.0, 0.0))
        navy = filled_rects(page, (0.0, 0.0, round(128 / 255, 3)))
        green = filled_rects(page, (0.0, 1.0, 0.0))
        assert len(red) == 1 and len(navy) == 1 and green == []  # 'small' is not big or huge
        x, y, w, h = red[0]
        assert abs(w - 40) < 0.05 and abs(h - 14) < 0.05  # 80 % of 50 mm, 20 % of 70 mm
        card = min(white, key=lambda r: abs(r[0] + 3 + 5 - x) + abs(r[1] + 3 + 35 - y))
        assert abs(x - (card[0] + 3 + 5)) < 0.05 and abs(y - (card[1] + 3 + 35)) < 0.05


def test_alignment_rotation_and_literal_braces(cards):
    _, result = cards
    with open_pdf(pdf_of(result)) as pdf:
        page = _front_page(pdf)
        text = page.extract_text()
        assert "{literal}" in text
        cards_ = sorted(r for r in filled_rects(page, (1.0, 1.0, 1.0)) if abs(r[2] - 56) < 0.1)
        with_turned = 0
        for x, y, _, _ in cards_:
            x, y = x + 3, y + 3  # the trim inside the bleed
            upright = [c for c in page.chars if c["upright"] and y + 5 - 0.05 <= mm(c["top"]) < y + 15
                       and x <= mm(c["x0"]) < x + 50]
            assert upright and abs(max(mm(c["x1"]) for c in upright) - (x + 45)) < 0.05  # align: right
            turned = [c for c in page.chars if not c["upright"] and x + 40 - 0.05 <= mm(c["x0"])
                      and mm(c["x1"]) <= x + 48.05 and x <= mm(c["x0"]) < x + 50]
            for c in turned:  # a quarter turn: the glyphs stay inside the 8 x 60 mm box
                assert y + 5 - 0.05 <= mm(c["top"]) and mm(c["bottom"]) <= y + 65.05
            with_turned += bool(turned)
        assert len(cards_) == 3 and with_turned == 2  # not on the 'small' card (when: not)


def test_coins_and_a_board_without_data(tmp_path):
    spec = """title: Kit
components:
  - {name: coin, size: 20mm, shape: circle, copies: 30, front: coin.yaml}
  - {name: board, size: [400mm, 300mm], board: true, front: board.yaml}
"""
    coin = 'layers:\n  - {type: circle, fill: "#d4a017", bleed: true}\n  - {type: text, text: "1", size: 20, align: center, valign: middle}\n'
    board = 'layers:\n  - {type: rect, stroke: "#000000", stroke_width: 1}\n  - {type: line, x1: 0, y1: 0, x2: 100%, y2: 100%}\n'
    folder = _kit(tmp_path / "kit", spec, {"coin.yaml": coin, "board.yaml": board})
    result = build_kit(str(folder), out=tmp_path / "out", formats=("pdf",))
    comps = {c["name"]: c for c in result.manifest["components"]}
    assert comps["coin"]["count"] == 30 and comps["coin"]["shape"] == "circle"
    assert comps["board"]["trim_mm"] == [400.0, 300.0] and len(comps["board"]["pages"]) >= 2  # tiled on A4
    with open_pdf(pdf_of(result)) as pdf:
        gold = [c for p in pdf.pages for c in p.curves if c.get("fill")
                and tuple(round(v, 3) for v in c.get("non_stroking_color") or ()) == (0.831, 0.627, 0.09)]
    assert len(gold) == 30 and all(abs((c["x1"] - c["x0"]) * PT - 20) < 0.05 for c in gold)


def test_placeholders_in_a_component_without_data_are_refused(tmp_path):
    spec = "title: Kit\ncomponents:\n  - {name: coin, size: 20mm, front: coin.yaml}\n"
    folder = _kit(tmp_path / "kit", spec, {"coin.yaml": 'layers:\n  - {type: text, text: "{value}"}\n'})
    with pytest.raises(PnpError, match="value") as err:
        build_kit(str(folder), out=tmp_path / "out")
    assert err.value.file.endswith("kit.yaml") or err.value.file.endswith("coin.yaml")
    assert not (tmp_path / "out" / "kit").exists()


def test_set_data_replaces_the_spreadsheet(cards, tmp_path):
    folder, _ = cards
    other = tmp_path / "other.csv"
    other.write_text("label,kind,colour,back\nFOUR,small,red,a\n", encoding="utf-8")
    result = build_kit(str(folder), out=tmp_path / "out", formats=("pdf",), overrides={"data": other})
    text = "".join(p.extract_text() for p in pypdf.PdfReader(pdf_of(result)).pages[1:])
    assert "FOUR" in text and "ONE" not in text
    assert other in result.inputs


def test_watch_rebuilds_when_the_data_changes(cards, tmp_path):
    folder, _ = cards
    csv = folder / "cards.csv"
    original = csv.read_text(encoding="utf-8")
    out = tmp_path / "out"
    pdf = out / "kit" / "kit-a4.pdf"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(folder), "-o", str(out), "-f", "pdf",
                             "--debounce", "100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()

    def until(pred, what):
        _until(pred, what, lines)
    try:
        until(lambda: any("watching" in ln for ln in lines), "the first build")
        csv.write_text(original.replace("THREE", "SEVEN"), encoding="utf-8")
        until(lambda: any("changed: cards.csv" in ln for ln in lines), "the rebuild")
        until(lambda: pdf.is_file() and "SEVEN" in "".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages),
              "the new word in the PDF")
    finally:
        csv.write_text(original, encoding="utf-8")
        proc.send_signal(2)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_text_near_the_trim_is_a_warning(cards):
    """The rotated label's box ends 2 mm from the right trim: validate warns (exit 0) and names it."""
    from typer.testing import CliRunner

    from pnp.cli import app
    folder, _ = cards
    r = CliRunner().invoke(app, ["validate", str(folder)])
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if "safe area" in ln or "closer than" in ln)
    assert line.split()[0] == "WARNING" and "front.yaml layer 4 (text) 2.0 mm" in line
    assert "layer 3" not in line  # the box 5 mm in is fine


TURNED_FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: text, text: "{label}", x: 2, y: 2, w: 30, h: 8, size: 12, valign: %(v)s, align: %(a)s}
  - {type: text, text: "{label}", x: 40, y: 15, w: 8, h: 30, size: 12, rotate: %(r)d, valign: %(v)s, align: %(a)s}
"""


def _extent(chars, x: float, y: float) -> tuple[float, float, float, float]:
    """left, right, top, bottom (mm, from the trim's corner at ``x``, ``y``) of pdfplumber's glyph boxes."""
    return (min(mm(c["x0"]) for c in chars) - x, max(mm(c["x1"]) for c in chars) - x,
            min(mm(c["top"]) for c in chars) - y, max(mm(c["bottom"]) for c in chars) - y)


@pytest.mark.parametrize("rotate", [90, 270])
@pytest.mark.parametrize("valign,align", [("top", "left"), ("bottom", "right"), ("middle", "center")])
def test_a_turned_line_sits_in_its_box_as_the_upright_one_does(tmp_path, rotate, valign, align):
    """Turning a text box a quarter turn turns its line with it: the gaps between the glyphs' boxes
    and the box's edges are those of the upright line in a box of the same size, each on the edge the turn takes it to (90 degrees:
    the box's top to the right, its left end to the top; 270: its top to the left, its left end to
    the bottom). Measured in the PDF: an upright copy of the layer and the turned one on one card."""
    folder = _kit(tmp_path / "kit", CARD_SPEC.replace('"{back}.yaml"', "a.yaml"),
                  {"front.yaml": TURNED_FRONT % {"r": rotate, "v": valign, "a": align}, "a.yaml": BACK_A,
                   "cards.csv": "label,kind,colour,back\nLEFT,big,red,a\n"})
    result = build_kit(str(folder), out=tmp_path / "out", formats=("pdf",), opts=ImposeOptions(bleed=3.0))
    with open_pdf(pdf_of(result)) as pdf:
        page = _front_page(pdf)
        [(x, y, _, _)] = [r for r in filled_rects(page, (1.0, 1.0, 1.0)) if abs(r[2] - 56) < 0.1]
        x, y = x + 3, y + 3  # the trim inside the bleed
        upright = [c for c in page.chars if c["upright"] and mm(c["top"]) - y < 12]
        turned = [c for c in page.chars if not c["upright"]]
        assert "".join(c["text"] for c in upright) == "LEFT" and len(turned) == 4, (upright, turned)
        ul, ur, ut, ub = _extent(upright, x, y)
        tl, tr, tt, tb = _extent(turned, x, y)
    gaps = {"top": ut - 2, "bottom": 10 - ub, "left": ul - 2, "right": 32 - ur}  # the upright box's
    if rotate == 90:  # top edge -> right, bottom -> left, left end -> top, right end -> bottom
        turned_gaps = {"top": 48 - tr, "bottom": tl - 40, "left": tt - 15, "right": 45 - tb}
    else:  # top edge -> left, bottom -> right, left end -> bottom, right end -> top
        turned_gaps = {"top": tl - 40, "bottom": 48 - tr, "left": 45 - tb, "right": tt - 15}
    for edge in gaps:
        assert abs(turned_gaps[edge] - gaps[edge]) < 0.02, (edge, gaps, turned_gaps)
