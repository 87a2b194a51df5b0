"""pnp/games/_template.py is a working game: its parts go through impose and the PDF writer, and a
copy of the file registers as a sixth game that `pnp build` and `pnp validate` take end to end."""
import ast
import shutil
import sys
from itertools import combinations_with_replacement
from pathlib import Path

import pypdf
import pytest

import pnp.games
from conftest import PT, open_pdf
from pnp.core.errors import SpecError, ValidationFailed
from pnp.core.findings import FAIL, PASS
from pnp.engine import KitContext, registry
from pnp.games import _template
from pnp.pipeline.execute import build_kit
from pnp.pipeline.plan import Request, load_paper, plan
from pnp.layout.impose import ImposeOptions, impose
from pnp.layout.paper import load_sheet
from pnp.render.pdf import PdfWriter

TEMPLATE = Path(_template.__file__)
RULES = """# Dominoes
Match numbers end to end; first to play out their hand wins the round.

## Components
- 28 tiles, every pair of the numbers 0 to 6 once.

## Setup
Shuffle the tiles face down; each player draws 7.

## A turn
- Play a tile whose number matches an open end of the line, or draw.

## End and winner
The first player with no tiles left wins the round.

## Fine points
- A double is placed crosswise.
"""


def _pips(top: int) -> int:
    """Pips on a double-``top`` set, counted independently: a face showing k has k pips."""
    return sum(a + b for a, b in combinations_with_replacement(range(top + 1), 2))


def _pip_circles(page, diameter: float) -> int:
    """Filled circles of ``diameter`` mm on a pdfplumber page."""
    return sum(1 for c in page.curves if c.get("fill") and abs((c["x1"] - c["x0"]) * PT - diameter) < 0.05
               and abs((c["bottom"] - c["top"]) * PT - diameter) < 0.05)


def test_the_registry_skips_the_template():
    assert _template.GAME.name not in registry()
    assert all(not name.startswith("_") for name in registry())


def test_template_imports_neither_layout_nor_render():
    tree = ast.parse(TEMPLATE.read_text(encoding="utf-8"))
    modules = [("." * n.level) + (n.module or "") for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    for forbidden in ("layout", "render", "kit", "cli"):
        assert not [m for m in modules if m.lstrip(".").split(".")[0] == forbidden
                    or m.startswith(f"pnp.{forbidden}")], forbidden


def test_template_parts_go_through_impose_and_the_pdf_writer(tmp_path):
    game = _template.GAME
    spec = game.spec_model(game=game.name, top=3, half="20mm", pip=3.5)
    ctx = KitContext(tmp_path / "dominoes.yaml")
    findings = game.check(spec, ctx)
    assert findings and all(f.status == PASS and f.rule for f in findings)
    components = game.components(spec, ctx)
    assert [c.name for c in components] == ["domino"]
    assert components[0].count == 10 and (components[0].width, components[0].height) == (20.0, 40.0)
    imposed = impose(game.title, components, load_sheet("a4"), ImposeOptions())
    total, plan, pages = imposed.total, imposed.plan, imposed.pages
    writer = PdfWriter(tmp_path / "dominoes.pdf", title=game.title)
    for page in pages:
        writer.add(page)
    writer.close()
    reader = pypdf.PdfReader(tmp_path / "dominoes.pdf")
    assert len(reader.pages) == total == max(max(numbers) for numbers in plan)
    for i, page in enumerate(reader.pages, start=1):
        assert f"page {i} of {total}" in page.extract_text()
    with open_pdf(tmp_path / "dominoes.pdf") as pdf:
        assert sum(_pip_circles(p, 3.5) for p in pdf.pages) == _pips(3)


def test_template_check_fails_a_short_palette(tmp_path):
    palette = tmp_path / "palette.txt"
    palette.write_text("#d55e00\n\n#0072b2\n", encoding="utf-8")
    spec = _template.DominoesSpec(game="dominoes", top=2, palette="palette.txt")
    findings = _template.check(spec, KitContext(tmp_path / "dominoes.yaml"))
    assert [f.status for f in findings if "palette" in f.check] == [FAIL]
    palette.write_text("#d55e00\nnot a colour\n", encoding="utf-8")
    with pytest.raises(SpecError) as err:
        _template.check(spec, KitContext(tmp_path / "other.yaml"))
    assert err.value.line == 2


@pytest.fixture
def sixth_game(tmp_path, monkeypatch):
    """The template copied to <tmp>/games/dominoes.py, a folder added to pnp.games' search path:
    exactly what an author does by copying it to pnp/games/dominoes.py."""
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(TEMPLATE, folder / "dominoes.py")
    monkeypatch.setattr(pnp.games, "__path__", [*pnp.games.__path__, str(folder)])
    yield tmp_path
    sys.modules.pop("pnp.games.dominoes", None)
    if hasattr(pnp.games, "dominoes"):
        delattr(pnp.games, "dominoes")


def test_a_copy_of_the_template_is_a_sixth_game(sixth_game):
    assert "dominoes" in registry() and len(registry()) == len(set(registry()))
    (sixth_game / "palette.txt").write_text("\n".join(["#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442",
                                                       "#0072b2", "#d55e00"]) + "\n", encoding="utf-8")
    (sixth_game / "rules.md").write_text(RULES, encoding="utf-8")
    spec = sixth_game / "dominoes.yaml"
    spec.write_text("game: dominoes\ntitle: Dominoes\npalette: palette.txt\n", encoding="utf-8")
    [checked] = plan([str(spec)], Request(load_paper("a4"), full=True)).targets
    loaded, findings = checked.loaded, checked.findings
    assert loaded.game.name == "dominoes"
    assert findings and not [f for f in findings if f.status == FAIL]
    result = build_kit(str(spec), out=sixth_game / "out")
    assert result.game == "dominoes" and result.pages >= 2
    [domino] = result.manifest["components"]
    assert domino["name"] == "domino" and domino["count"] == 28 and domino["trim_mm"] == [24.0, 48.0]
    with open_pdf(next(p for p in result.files if p.suffix == ".pdf")) as pdf:
        assert sum(_pip_circles(p, 4.0) for p in pdf.pages) == _pips(6)
    short = sixth_game / "short.txt"
    short.write_text("#000000\n", encoding="utf-8")
    with pytest.raises(ValidationFailed, match="palette"):
        build_kit(str(spec), out=sixth_game / "out2", overrides={"palette": short})
