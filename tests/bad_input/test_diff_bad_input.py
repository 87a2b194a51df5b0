"""Bad input to `pnp diff` and `--reprint`: duplicate or empty keys when ``key:`` is declared, and
an earlier manifest that is missing, foreign, malformed, too large or a link. Each: one clear
message naming the file and field, exit 2, no traceback, nothing written."""
from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from conftest import snapshot
from pnp.cli import app
from pnp.pipeline import diff as diffmod

runner = CliRunner()

FRONT = 'layers:\n  - {type: text, text: "{id} {name}", x: 4mm, y: 6mm, w: 55mm, h: 8mm, size: 10}\n'
SPEC = """title: Keyed deck
components:
  - name: card
    size: poker
    data: cards.csv
    key: KEY
    front: front.yaml
"""


def deck(folder, csv, key="id"):
    from pnp.inputs.resources import specs_dir
    folder.mkdir(exist_ok=True)
    (folder / "deck.yaml").write_text(SPEC.replace("KEY", key))
    (folder / "front.yaml").write_text(FRONT)
    (folder / "rules.md").write_text((specs_dir() / "questions" / "rules.md").read_text(encoding="utf-8"))
    (folder / "cards.csv").write_text(csv)
    return folder / "deck.yaml"


def run(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


GOOD = "id,name\na,Ann\nb,Bob\nc,Cy\n"


@pytest.fixture()
def built(tmp_path):
    spec = deck(tmp_path / "deck", GOOD)
    out = tmp_path / "out"
    assert run("build", spec, "--out", out, "-f", "pdf").exit_code == 0
    return spec, out


@pytest.mark.parametrize("command", ["build", "diff"])
def test_duplicate_keys_name_both_rows(built, command):
    spec, out = built
    (spec.parent / "cards.csv").write_text("id,name\na,Ann\nb,Bob\na,Al\n")
    before = snapshot(out)
    r = run(command, spec, "--out", out)
    assert r.exit_code == 2, r.output
    assert "cards.csv" in r.output and "row 4" in r.output and "row 2" in r.output and "'a'" in r.output
    assert "field key" in r.output
    assert snapshot(out) == before


def test_empty_key_cell(built):
    spec, out = built
    (spec.parent / "cards.csv").write_text("id,name\na,Ann\n,Bob\n")
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 2 and "row 3" in r.output and "key is empty" in r.output


def test_key_names_a_missing_column(tmp_path):
    spec = deck(tmp_path / "deck", GOOD, key="serial")
    r = run("build", spec, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "serial" in r.output and "field key" in r.output
    assert not (tmp_path / "out" / "deck").exists()


def test_key_without_data(tmp_path):
    spec = deck(tmp_path / "deck", GOOD)
    spec.write_text(SPEC.replace("    data: cards.csv\n", "").replace("KEY", "id"))
    r = run("diff", spec, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "key:" in r.output and "line" in r.output


def test_no_kit_yet(tmp_path):
    spec = deck(tmp_path / "deck", GOOD)
    r = run("diff", spec, "--out", tmp_path / "out")
    assert r.exit_code == 2 and "no kit" in r.output and "pnp build" in r.output


def test_kit_on_another_paper_only(built):
    spec, out = built
    r = run("diff", spec, "--out", out, "--paper", "letter")
    assert r.exit_code == 2 and "manifest-letter.json" in r.output.replace("\n", "")


def _manifest(out):
    return out / "deck" / "manifest-a4.json"


def _rewrite(out, change):
    path = _manifest(out)
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


CASES = {
    "not json": (lambda p: p.write_text("{not json"), "is not JSON", None),
    "a list": (lambda p: p.write_text("[1, 2]"), "not a JSON object", None),
    "another game": (lambda p: _rewrite(p.parent.parent, lambda d: d.update(game="nooks")), "'nooks'", "game"),
    "parts not a list": (lambda p: _rewrite(p.parent.parent, lambda d: d.update(parts={"a": 1})), "is not a list",
                         "parts"),
    "bad fingerprint": (lambda p: _rewrite(p.parent.parent, lambda d: d["parts"][1].update(fingerprint="x" * 64)),
                        "sha256", "parts[1].fingerprint"),
    "bad count": (lambda p: _rewrite(p.parent.parent, lambda d: d["parts"][0].update(count="3")), "count",
                  "parts[0].count"),
    "repeated key": (lambda p: _rewrite(p.parent.parent, lambda d: d["parts"].append(d["parts"][0])), "repeats",
                     "parts[3].key"),
    "no parts": (lambda p: _rewrite(p.parent.parent, lambda d: d.pop("parts")), "did not record its parts", "parts"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_foreign_or_malformed_manifest(built, case):
    spec, out = built
    spoil, needle, field = CASES[case]
    spoil(_manifest(out))
    r = run("diff", spec, "--out", out)
    text = r.output.replace("\n", " ")
    assert r.exit_code == 2, r.output
    assert needle in text and "manifest-a4.json" in text
    if field:
        assert f"field: {field}" in text or field in text


def test_manifest_too_large(built, monkeypatch):
    spec, out = built
    monkeypatch.setattr(diffmod, "MAX_MANIFEST_BYTES", 100)
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 2 and "larger than" in r.output


def test_manifest_replaced_by_a_link_is_not_followed(built, tmp_path):
    spec, out = built
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(_manifest(out).read_text())
    os.unlink(_manifest(out))
    os.symlink(elsewhere, _manifest(out))
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 2 and "manifest-a4.json" in r.output.replace("\n", "")


def test_a_build_replaces_a_malformed_manifest(built):
    spec, out = built
    _manifest(out).write_text("{not json")
    r = run("build", spec, "--out", out, "-f", "pdf", "--reprint")
    assert r.exit_code == 0 and "no reprint was written" in r.output.replace("\n", " ")
    assert run("diff", spec, "--out", out).exit_code == 0


def test_from_a_generation_not_held(built):
    spec, out = built
    r = run("diff", spec, "--out", out, "--from", "7")
    assert r.exit_code == 2 and "no generation 7" in r.output and "holds 1" in r.output
    assert run("diff", spec, "--out", out, "--from", "0").exit_code == 2


def test_a_failed_rules_check_exits_2_not_1(built):
    spec, out = built
    spec.write_text(spec.read_text() + "checks:\n  - {check: count, component: card, equals: 4}\n")
    r = run("diff", spec, "--out", out)
    assert r.exit_code == 2 and "fails 1 rules check" in r.output
