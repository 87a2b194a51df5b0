"""The print contract (tests/render/test_print_contract.py) on the shipped data-driven examples: viewer
preferences, TrimBox and paper size, footer and 50 mm scale bar on every page, crop marks that never
touch a part, SVG geometry in mm, BleedBox 3 mm past the trim with --bleed 3."""
from __future__ import annotations

import pytest

import test_print_contract as contract
from conftest import REPO

EXAMPLES = [str(REPO / "specs" / name) for name in ("playing-cards", "questions")]


@pytest.fixture(autouse=True)
def no_boards(monkeypatch):
    """The contract looks boards up by registered game name; the examples have none."""
    monkeypatch.setattr(contract, "board_names", lambda game: frozenset())


@pytest.mark.parametrize("paper", sorted(contract.PAPERS))
@pytest.mark.parametrize("game", EXAMPLES)
def test_print_contract(built, game, paper):
    contract.test_viewer_prefs_trimbox_and_paper_size(built, game, paper)
    contract.test_footer_and_scale_bar_on_every_page(built, game, paper)
    contract.test_crop_marks_never_touch_a_component(built, game, paper)
    contract.test_svgs_parse_with_mm_geometry(built, game, paper)


@pytest.mark.parametrize("game", EXAMPLES)
def test_bleed(built, game):
    contract.test_bleed_extends_every_part_page_by_the_bleed(built, game)
