"""plan() checks every target before execute() writes any (pnp.pipeline.plan, docs/architecture.md).

Two reported bugs: a multi-target build whose second target's rules text holds a character the
font lacks, or is too long for two cover pages, switched the first target's kit in and then failed
(and the glyph error named "field text", not the rules file and line). Both must now exit 2 before
anything is written, with the first kit byte-identical.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.pipeline.plan import Request, load_paper, plan
from pnp.cli import app
from pnp.core.errors import SpecError
from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir
from conftest import snapshot

runner = CliRunner()


def _nooks_with_rules(folder: Path, rules_text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rules.md").write_text(rules_text, encoding="utf-8")
    spec = folder / "my-nooks.yaml"
    spec.write_text((builtin_spec("nooks")).read_text(encoding="utf-8"), encoding="utf-8")
    return spec


def _rules() -> str:
    return (builtin_folder("nooks") / "rules.md").read_text(encoding="utf-8")


def _build_first(out: Path) -> dict:
    r = runner.invoke(app, ["build", "nonads", "-o", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    return snapshot(out)


def _link_target(out: Path) -> str:
    return str((out / "nonads").resolve())


@pytest.mark.parametrize("case", ["glyph", "too-long"])
def test_a_bad_second_target_leaves_the_first_kit_untouched(tmp_path, case):
    text = _rules()
    if case == "glyph":
        lines = text.splitlines()
        lines[6] = lines[6] + " \u65e5"  # a CJK ideograph: in no font of pnp
        bad_line = 7
        text = "\n".join(lines) + "\n"
    else:
        filler = "- " + " ".join(["Every stone placed this turn must be a wall stone or a scoring stone."] * 6)
        text = text.rstrip("\n") + "\n" + "\n".join([filler] * 60) + "\n"
    spec = _nooks_with_rules(tmp_path / "game", text)
    out = tmp_path / "out"
    before = _build_first(out)
    link = _link_target(out)
    r = runner.invoke(app, ["build", "nonads", str(spec), "-o", str(out), "-f", "pdf"])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert "Traceback" not in flat
    assert "rules.md" in flat, flat
    if case == "glyph":
        assert f"line {bad_line}" in flat and "field rules" in flat and "U+65E5" in flat, flat
    assert snapshot(out) == before, "the Nonads kit changed although the build was refused"
    assert _link_target(out) == link, "OUT/nonads was switched to another generation"


def test_validate_refuses_what_build_refuses(tmp_path):
    """validate is plan() alone: a rules text too long for the cover fails validate as it fails build."""
    filler = "- " + " ".join(["Every stone placed this turn must be a wall stone or a scoring stone."] * 6)
    spec = _nooks_with_rules(tmp_path, _rules().rstrip("\n") + "\n" + "\n".join([filler] * 60) + "\n")
    for command in (["validate", str(spec)], ["build", str(spec), "-o", str(tmp_path / "out")]):
        r = runner.invoke(app, command)
        assert r.exit_code == 2, (command, r.output)
        assert "rules.md" in r.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def test_two_specs_of_one_game_in_one_build_are_refused_naming_both(tmp_path):
    spec = tmp_path / "my-nonads.yaml"
    spec.write_text((builtin_spec("nonads")).read_text(encoding="utf-8"), encoding="utf-8")
    r = runner.invoke(app, ["build", "nonads", str(spec), "-o", str(tmp_path / "out")])
    flat = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert "'nonads'" in flat and "my-nonads.yaml" in flat, flat
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("duplex", [None, "none"])
def test_back_offset_without_duplex_is_refused(tmp_path, duplex):
    args = ["build", "nonads", "-o", str(tmp_path / "out"), "--back-offset", "1.5,-0.5"]
    if duplex:
        args += ["--duplex", duplex]
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "--back-offset" in r.output and "--duplex long" in r.output
    assert not (tmp_path / "out").exists()


def test_plan_lists_every_file_the_kit_reads(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("TREE\nBIRD\nFISH\n", encoding="utf-8")
    request = Request(load_paper("letter"), overrides={"words": words})
    [tp] = plan(["netmatch"], request).targets
    inputs = {p.name for p in tp.inputs}
    assert {"netmatch.yaml", "rules.md", "letter.yaml", "w.txt"} <= inputs, inputs
    assert len(tp.inputs) == len(set(tp.inputs))


def test_plan_reads_the_word_list_once(tmp_path, monkeypatch):
    """The validator and the drawing share one read of the list (KitContext.once)."""
    import pnp.games.netmatch.words as words_module
    calls = []
    real = words_module.read_words

    def counting(*args, **kw):
        calls.append(args)
        return real(*args, **kw)
    monkeypatch.setattr(words_module, "read_words", counting)
    words = tmp_path / "w.txt"
    words.write_text("TREE\nBIRD\nFISH\n", encoding="utf-8")
    [tp] = plan(["netmatch"], Request(load_paper("a4"), overrides={"words": words})).targets
    assert tp.components and len(calls) == 1


def test_paper_is_loaded_once_into_a_typed_value(tmp_path):
    """A sheet whose name cannot be a file name is refused when the paper is loaded, naming the file."""
    sheet = tmp_path / "odd.yaml"
    sheet.write_text("name: ../odd\nwidth: 210mm\nheight: 297mm\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_paper(str(sheet))
    assert "odd.yaml" in str(info.value) and "name" in str(info.value)
