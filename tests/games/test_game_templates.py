"""The built-in games' simple parts are drawn by their spec folders' templates from the rows their
generators compute (Nonads' tiles and back, Nonaga's discs and pawns, Nooks' stones, NetMatch's word
cards, card back, pawns, letter tokens and token back, Numeria's number tiles): a colour changed in
a copy of the folder's template is the colour printed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf as fitz
import pytest

from pnp.core.errors import SpecError
from pnp.pipeline.plan import context, load_target

SPECS = Path(__file__).resolve().parents[2] / "specs"


def _fills(pdf: Path) -> set[tuple[float, float, float]]:
    """The fill and stroke colours of every path drawn on the PDF's pages (RGB 0..1, rounded)."""
    with fitz.open(pdf) as doc:
        return {tuple(round(c, 3) for c in d[k]) for page in doc for d in page.get_drawings()
                for k in ("fill", "color") if d.get(k) is not None}


def _build(folder: Path, out: Path, *args: str) -> Path:
    from typer.testing import CliRunner
    from pnp.cli import app
    game = folder.name
    result = CliRunner().invoke(app, ["-q", "build", str(folder / f"{game}.yaml"), "--out", str(out), "--format", "pdf",
                                      *args])
    assert result.exit_code == 0, result.output
    return next(out.glob(f"{game}/*.pdf"))


GREEN = (round(0x12 / 255, 3), round(0xab / 255, 3), round(0x34 / 255, 3))


@pytest.mark.parametrize("game, template, old", [
    ("nooks", "stone.yaml", 'stroke: "#ffffff"'),    # the red stones' ring
    ("nonaga", "pawn.yaml", 'fill: "#ffffff"'),      # the red pawns' star
    ("nonaga", "disc.yaml", 'stroke: "{ring}"'),     # the discs' decorative ring
    ("nonads", "back.yaml", 'stroke: "#ffffff"'),     # the backs' frame
    ("numeria", "tile.yaml", 'stroke: "#b9ad93"'),    # the tiles' inner frame
    ("netmatch", "card.yaml", 'fill: "#ffffff"'),     # the word cards' field
    ("netmatch", "card-back.yaml", 'stroke: "#8fa9c9"'),  # the card back's spokes
    ("netmatch", "pawn.yaml", 'fill: "#ffffff"'),     # the pawns' symbols
    ("netmatch", "token.yaml", 'fill: "#ffffff"'),    # the letter tokens' symbols
    ("netmatch", "token-back.yaml", 'stroke: "#000000"'),  # the token back's letter box
])
def test_the_folder_s_template_draws_the_parts(tmp_path, game, template, old):
    folder = tmp_path / game
    shutil.copytree(SPECS / game, folder)
    duplex = ("--duplex", "long") if "back" in template else ()  # backs are printed with duplex
    before = _fills(_build(folder, tmp_path / "a", *duplex))
    path = folder / template
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, old.split(":")[0] + ': "#12ab34"'), encoding="utf-8")
    after = _fills(_build(folder, tmp_path / "b", *duplex))
    assert GREEN not in before and GREEN in after


def test_the_template_draws_the_tiles(tmp_path):
    folder = tmp_path / "nonads"
    shutil.copytree(SPECS / "nonads", folder)
    before = _fills(_build(folder, tmp_path / "a"))
    template = folder / "tile-3.yaml"
    text = template.read_text(encoding="utf-8")
    assert 'fill: "{border}", bleed: true' in text  # the cell borders, which run on into the bleed as the cells do
    template.write_text(text.replace('fill: "{border}"', 'fill: "#12ab34"'), encoding="utf-8")
    after = _fills(_build(folder, tmp_path / "b"))
    assert GREEN not in before and GREEN in after


def test_the_rows_give_each_cell_its_colour():
    loaded = load_target("nonads")
    (tile,) = loaded.game.components(loaded.spec, context(loaded))
    blacks = [sum(1 for s in front if getattr(s, "fill", None) == loaded.spec.black_colour) for front in tile.fronts]
    assert blacks and set(blacks) == {loaded.spec.black}


def test_a_template_border_width_other_than_the_spec_is_refused(tmp_path):
    folder = tmp_path / "nonads"
    shutil.copytree(SPECS / "nonads", folder)
    spec = folder / "nonads.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("cell_border: 0.25mm", "cell_border: 0.5mm"))
    loaded = load_target(str(spec))
    with pytest.raises(SpecError, match="cell_border"):
        loaded.game.components(loaded.spec, context(loaded))


def test_the_stone_rows_give_each_kind_its_colour():
    loaded = load_target("nooks")
    st = loaded.spec.stones
    stones = {c.name: c for c in loaded.game.components(loaded.spec, context(loaded)) if "stone" in c.name}
    first = [front[0].fill for c in stones.values() for front in dict.fromkeys(c.fronts)]
    assert first == [st.neutral_colour, st.red_colour, st.gold_colour]


def test_a_generator_component_naming_a_table_it_does_not_compute_is_refused(tmp_path):
    folder = tmp_path / "nooks"
    shutil.copytree(SPECS / "nooks", folder)
    spec = folder / "nooks.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("data: generator:stones", "data: generator:pebbles"))
    loaded = load_target(str(spec))
    with pytest.raises(SpecError, match="generator:stones") as err:
        loaded.game.components(loaded.spec, context(loaded))
    assert err.value.field == "components.0.data" and err.value.line == spec.read_text().splitlines().index(
        "    data: generator:pebbles") + 1


def test_a_template_column_the_generator_does_not_compute_is_refused(tmp_path):
    folder = tmp_path / "nonaga"
    shutil.copytree(SPECS / "nonaga", folder)
    disc = folder / "disc.yaml"
    disc.write_text(disc.read_text(encoding="utf-8").replace('"{ring}"', '"{rim}"'), encoding="utf-8")
    loaded = load_target(str(folder / "nonaga.yaml"))
    with pytest.raises(SpecError, match="'rim'.*generator:discs.*colour, ring") as err:
        loaded.game.components(loaded.spec, context(loaded))
    assert err.value.field == "components.0.data"


def test_a_generator_spec_s_component_takes_only_its_templates(tmp_path):
    folder = tmp_path / "nooks"
    shutil.copytree(SPECS / "nooks", folder)
    spec = folder / "nooks.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("    front: stone.yaml", "    front: stone.yaml\n"
                                                             "    copies: 3"), encoding="utf-8")
    with pytest.raises(SpecError, match="copies") as err:
        load_target(str(spec))
    assert err.value.line == spec.read_text(encoding="utf-8").splitlines().index("    copies: 3") + 1


def test_the_rows_give_each_word_card_its_word():
    loaded = load_target("netmatch")
    cards = loaded.game.components(loaded.spec, context(loaded))[0]
    from pnp.games.netmatch import word_list
    words = word_list(loaded.spec, context(loaded)).words
    texts = [[s.text for s in front if getattr(s, "text", None) is not None]
             + [c.text for s in front for c in getattr(s, "children", ()) if getattr(c, "text", None) is not None]
             for front in cards.fronts]
    assert words and [t.count(w) for t, w in zip(texts, words)] == [2] * len(words)  # the word and its turned copy


def test_the_rows_give_each_pawn_its_colour_and_letter():
    loaded = load_target("netmatch")
    pawn = loaded.game.components(loaded.spec, context(loaded))[2]
    got = [(front[0].fill, next(s.text for s in front if getattr(s, "text", None))) for front in pawn.fronts]
    want = [(c.hex, c.letter) for c in loaded.spec.colours for _ in loaded.spec.network.symbols]
    assert got == want


def test_a_word_size_other_than_the_template_s_is_refused(tmp_path):
    folder = tmp_path / "netmatch"
    shutil.copytree(SPECS / "netmatch", folder)
    spec = folder / "netmatch.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "word_size_pt: 40 " in text
    spec.write_text(text.replace("word_size_pt: 40 ", "word_size_pt: 30 "), encoding="utf-8")
    loaded = load_target(str(spec))
    with pytest.raises(SpecError, match="word_size_pt.*card.yaml"):
        loaded.game.components(loaded.spec, context(loaded))
