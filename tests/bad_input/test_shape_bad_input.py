"""Bad shapes in a data-driven game, through the CLI: a box that holds no regular hexagon, a polygon
that crosses itself, leaves its box or has no points, a d6 that is not a cube or lacks faces. Each:
exit 2, one message naming the file, line and field and how to fix it, no traceback, nothing written."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import assert_refused
from pnp.cli import app

runner = CliRunner()
RULES = ("# Deck\nA test deck.\n\n## Components\n- cards\n\n## Setup\nNone.\n\n## A turn\nRead.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
SPEC = "title: Deck\ncomponents:\n  - name: piece\n    front: front.yaml\n{extra}"
FRONT = 'layers:\n  - {type: rect, fill: "#ffffff", bleed: true}\n  - {type: text, text: "{word}", x: 8, y: 8, w: 8, h: 6}\n'
CSV = "word\nA\nB\nC\n"

CASES = {
    # name: (component fields, (file, line, field, words in the message))
    "hex box not regular": ("    shape: hex\n    size: [40, 40]\n    data: deck.csv\n",
                            ("deck.yaml", "line 3", "components.0", ["hex's box", "[40, 46.19]", "[46.19, 40]"])),
    "polygon crossing": ("    shape: polygon\n    size: [30, 30]\n    points: [[0, 0], [30, 30], [30, 0], [0, 30]]\n"
                         "    data: deck.csv\n", ("deck.yaml", "line 3", "components.0", ["crosses itself",
                                                                                        "point 1 to 2"])),
    "polygon point outside": ("    shape: polygon\n    size: [30, 30]\n    points: [[0, 0], [31, 0], [0, 30]]\n"
                              "    data: deck.csv\n", ("deck.yaml", "line 3", "components.0",
                                                      ["point 2 [31, 0] lies outside", "30 x 30 mm"])),
    "polygon without points": ("    shape: polygon\n    size: [30, 30]\n    data: deck.csv\n",
                               ("deck.yaml", "line 3", "components.0", ["needs points:"])),
    "polygon with two points": ("    shape: polygon\n    size: [30, 30]\n    points: [[0, 0], [30, 30]]\n"
                                "    data: deck.csv\n", ("deck.yaml", "line 7", "components.0.points",
                                                        ["3 to 200 points"])),
    "points on a hex": ("    shape: hex\n    size: [40, 46]\n    points: [[0, 0], [1, 0], [0, 1]]\n    data: deck.csv\n",
                        ("deck.yaml", "line 3", "components.0", ["outline of shape: polygon"])),
    "d6 not a cube": ("    shape: d6\n    size: [20, 30]\n    data: deck.csv\n",
                      ("deck.yaml", "line 3", "components.0", ["one length", "size: 20mm"])),
    "d6 rows not six": ("    shape: d6\n    size: 20\n    data: deck.csv\n",
                        ("deck.csv", None, "components.0.faces", ["6 faces", "has 3 rows"])),
    "d6 faces naming a missing column": ("    shape: d6\n    size: 20\n    data: deck.csv\n"
                                         "    faces: [a, b, c, d, e, f]\n",
                                         ("deck.csv", None, None, ["no column 'a'"])),
    "d6 with a back": ("    shape: d6\n    size: 20\n    data: deck.csv\n    back: front.yaml\n",
                       ("deck.yaml", "line 3", "components.0", ["a d6 has no back"])),
    "faces on a card": ("    size: poker\n    data: deck.csv\n    faces: [a, b, c, d, e, f]\n",
                        ("deck.yaml", "line 3", "components.0", ["shape: d6"])),
}


def _game(folder, extra: str):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deck.yaml").write_text(SPEC.format(extra=extra), encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "deck.csv").write_text(CSV, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    return folder / "deck.yaml"


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    """An output folder holding a good kit of the same name, to prove a refused build changes nothing."""
    root = tmp_path_factory.mktemp("good")
    out = root / "out"
    spec = _game(root / "deck", "    shape: hex\n    size: [40, 46]\n    data: deck.csv\n")
    r = runner.invoke(app, ["build", str(spec), "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_shape(existing, tmp_path, case):
    extra, (fname, line, field, needles) = CASES[case]
    spec = _game(tmp_path / "deck", extra)
    assert_refused(spec, existing, fname, line, field, needles, case, file_marks=(", ", ":"))
