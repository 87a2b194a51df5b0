"""The generator registry (pnp.engine.plugins): a spec names a generator, pnp's own or a third party's
registered in the entry-point group ``pnp.generators``; an unknown or broken one is bad input."""
from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.pipeline.plan import load_target
from pnp.cli import app
from pnp.core.errors import SpecError
from pnp.engine import GROUP, game_names, get_game, registry
from pnp.engine import plugins as reg
from pnp.games import _template
from pnp.inputs.resources import builtin_spec, shipped_specs

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def entry_points(monkeypatch):
    """Stand-in for the installed distributions' entry points of GROUP: name -> "module:attr".
    Through the private plugins._entry_points: the public way, a package installed into the test's
    interpreter, would change the environment every later test runs in."""
    table: dict[str, str] = {}
    monkeypatch.setattr(reg, "_entry_points", lambda: {n: EntryPoint(n, v, GROUP) for n, v in table.items()})
    return table


def _spec(tmp_path: Path, game: str) -> Path:
    spec = tmp_path / f"{game}.yaml"
    spec.write_text(f"# a kit\ngame: {game}\ntitle: Dominoes\n", encoding="utf-8")
    return spec


def test_every_game_is_a_spec_folder_naming_its_generator():
    for name in game_names():
        loaded = load_target(name)
        assert loaded.path == builtin_spec(name) and loaded.path.parent.name == name
        assert loaded.game.name == loaded.spec.game == name
        assert (loaded.path.parent / "rules.md").is_file()
    assert set(game_names()) < set(shipped_specs())
    assert not (REPO / "specs" / "rules").exists() and not list((REPO / "specs").glob("*.yaml"))


def test_a_third_party_generator_from_the_entry_point_group(tmp_path, entry_points):
    entry_points["dominoes"] = "pnp.games._template:GAME"
    assert "dominoes" not in game_names()  # not one of pnp's own: found through the entry point only
    assert get_game("dominoes") is _template.GAME and registry()["dominoes"] is _template.GAME
    loaded = load_target(str(_spec(tmp_path, "dominoes")))
    assert loaded.game is _template.GAME and isinstance(loaded.spec, _template.DominoesSpec)


def test_a_broken_third_party_generator_is_named_not_a_traceback(tmp_path, entry_points):
    entry_points["dominoes"] = "pnp.games._no_such_module:GAME"
    entry_points["notagame"] = "pnp.games._template:RULE"
    assert "dominoes" not in registry() and "notagame" not in registry()  # left out of the listing
    with pytest.raises(SpecError, match="cannot be loaded: ModuleNotFoundError") as err:
        load_target(str(_spec(tmp_path, "dominoes")))
    assert "pnp.games._no_such_module:GAME" in str(err.value) and err.value.line == 2
    with pytest.raises(SpecError, match="is not a pnp Game named 'notagame'"):
        get_game("notagame")


def test_a_spec_naming_an_unknown_generator_is_refused_with_file_line_field_and_names(tmp_path, entry_points):
    entry_points["dominoes"] = "pnp.games._template:GAME"
    spec = _spec(tmp_path, "chess")
    r = runner.invoke(app, ["validate", str(spec)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2 and "Traceback" not in flat
    assert f"{spec.name}, line 2, field game" in flat and "(got 'chess')" in flat
    assert all(name in flat for name in [*game_names(), "dominoes"])


def test_a_spec_names_a_generator_never_a_file_of_code(tmp_path):
    code = tmp_path / "evil.py"
    code.write_text("raise SystemExit('ran')\n", encoding="utf-8")
    for value in (str(code), "evil.py", "evil:GAME", "pnp.games._template:GAME", "../evil"):
        spec = tmp_path / "kit.yaml"
        spec.write_text(f"game: {value!r}\ntitle: x\n", encoding="utf-8")
        with pytest.raises(SpecError, match="must name one of"):
            load_target(str(spec))


def test_pnp_s_own_generators_never_read_the_installed_entry_points(monkeypatch):
    """Reading every installed package's entry points costs about 0.1 s: a kit of pnp's own skips it.
    (plugins._entry_points is replaced by a refusal: no public call says whether they were read.)"""
    def refuse():
        raise AssertionError("entry points read for one of pnp's own generators")
    monkeypatch.setattr(reg, "_entry_points", refuse)
    for name in game_names():
        assert load_target(name).game.name == name
    with pytest.raises(AssertionError, match="entry points read"):
        get_game("dominoes")  # the planted refusal is reachable: a name pnp lacks does read them


def test_a_generator_kit_takes_the_designer_s_count_checks(tmp_path):
    """The checks a designer declares (docs/templates.md) work on a generator's parts too: counted from
    the components the generator made, cited by the spec's own line; a failing one refuses the build."""
    text = builtin_spec("nonads").read_text(encoding="utf-8")
    import shutil
    shutil.copytree(builtin_spec("nonads").parent, tmp_path / "nonads")  # with the tiles' templates
    spec = tmp_path / "nonads" / "nonads.yaml"
    spec.write_text(text + "checks:\n  - {check: count, component: tile, equals: 34}\n"
                    "  - {check: count, component: tile, equals: 35}\n", encoding="utf-8")
    last = len(spec.read_text(encoding="utf-8").splitlines())
    r = runner.invoke(app, ["validate", str(spec), "--json"])
    import json
    findings = json.loads(r.output)["games"][0]["findings"]
    declared = [f for f in findings if "designer's checks" in f["rule"]]
    assert [(f["status"], f["check"]) for f in declared] == [
        ("pass", "tile: 34 parts (the spec asks for 34)"), ("fail", "tile: 34 parts (the spec asks for 35)")]
    assert declared[1]["rule"].endswith(f"nonads.yaml, line {last}")
    r = runner.invoke(app, ["build", str(spec), "-o", str(tmp_path / "out")])
    assert r.exit_code == 1 and "the spec asks for 35" in r.output and not (tmp_path / "out" / "nonads").exists()
    spec.write_text(text + "checks:\n  - {check: count, component: tiles, equals: 34}\n", encoding="utf-8")
    r = runner.invoke(app, ["validate", str(spec)])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2 and f"line {last - 1}, field checks.0.component" in flat and "components are tile" in flat
