"""A spec whose parameters change the game is reported as a variant: one WARNING naming what differs
from the seed's game, and the checks it changes cite the variant, never the seed's figures ("34
unique ways", "36 tiles"). The seed's own specs report no variant."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.findings import FAIL, WARN
from pnp.engine import KitContext, registry
from pnp.pipeline.plan import load_target

runner = CliRunner()


def _findings(game: str, **changes):
    loaded = load_target(game)
    data = loaded.spec.model_dump()
    for key, value in changes.items():
        if "__" in key:
            outer, inner = key.split("__")
            data[outer] = {**data[outer], inner: value}
        else:
            data[key] = value
    spec = registry()[game].spec_model.model_validate(data)
    return registry()[game].check(spec, KitContext(loaded.path, full=False))


def _variant(findings):
    return [f for f in findings if f.check.startswith("variant:")]


@pytest.mark.parametrize("game", sorted(registry()))
def test_the_seed_specs_are_not_variants(game):
    assert _variant(_findings(game)) == []


def test_nonads_with_three_black_cells_is_a_variant():
    findings = _findings("nonads", black=3)
    (warning,) = _variant(findings)
    assert warning.status == WARN and "variant: 3 black cells per tile (the seed's game has 4)" in warning.check
    assert not any("34 unique ways" in f.rule for f in findings)
    count = next(f for f in findings if f.check.startswith("tile count"))
    assert count.rule.startswith("Nonads variant (3x3, 3 black, C4)") and "22" in count.check
    assert all(f.rule.startswith(("Nonads variant", "Burnside", "orbit")) for f in findings if f is not warning)
    assert not [f for f in findings if f.status == FAIL]


@pytest.mark.parametrize("changes,needle", [({"grid": 4, "black": 8}, "4x4 cells per tile (the seed's game has 3x3)"),
                                            ({"group": "D4"}, "mirror images count as the same tile (D4")])
def test_other_nonads_variants(changes, needle):
    (warning,) = _variant(_findings("nonads", **changes))
    assert needle in warning.check


def test_validate_prints_the_variant_and_exits_0(tmp_path):
    spec = tmp_path / "three.yaml"
    spec.write_text("game: nonads\nblack: 3\n", encoding="utf-8")
    r = runner.invoke(app, ["validate", str(spec)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 0, r.output
    assert "WARNING variant: 3 black cells per tile (the seed's game has 4)" in flat
    assert "34 unique ways" not in flat and "Nonads variant (3x3, 3 black, C4): tile count" in flat


def test_numeria_with_other_tiles_is_a_variant():
    findings = _findings("numeria", tiles=35)
    (warning,) = _variant(findings)
    assert "35 tiles (the seed's game has 36)" in warning.check
    assert not any("36 tiles numbered from 1 to 36" in f.rule or "middle 36" in f.rule for f in findings)
    assert any(f.status == FAIL and "36 squares for 35 tiles" in f.check for f in findings)  # the setup area


def test_numeria_on_another_board_is_a_variant():
    (warning,) = _variant(_findings("numeria", files=10, ranks=10))
    assert "a 10x10 board (the seed's is 8x8)" in warning.check


def test_nooks_on_another_board_is_a_variant():
    (warning,) = _variant(_findings("nooks", side=6, setup=["b6", "j6"], square__size=9,
                                    square__setup=["b5", "h5"]))
    assert "hex board of side 6, 91 cells" in warning.check and "9x9 square board" in warning.check


def test_netmatch_network_variants():
    (warning,) = _variant(_findings("netmatch", network={"sides": 9}, side_colours=["A", "B", "C"]))
    assert "a 9-sided network of" in warning.check


def test_an_explicit_copy_of_the_default_network_is_not_a_variant():
    from pnp.games.netmatch import network_of
    loaded = load_target("netmatch")
    net = network_of(loaded.spec)
    nodes = [{"id": n.id, "kind": n.kind, "x": n.x, "y": n.y, "side": n.side, "symbol": n.symbol} for n in net.nodes]
    assert _variant(_findings("netmatch", network={"generator": None, "nodes": nodes,
                                                   "edges": [list(e) for e in net.edges]})) == []
