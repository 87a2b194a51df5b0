"""`pnp validate --preflight` through the CLI: every shipped kit passes its own preflight (exit 0,
warnings allowed), each finding placed; a planted defect in a designer's kit exits 1 and names the
component, card, page and place in --json."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.inputs.resources import shipped_specs

PREFLIGHT_RULES = ("Preflight", "WCAG", "ISO 15930", "docs/templates.md, Images", "colorspacious", "card template")


def _validate(*args):
    result = CliRunner().invoke(app, ["validate", *args, "--preflight", "--json"])
    return result.exit_code, (json.loads(result.stdout) if result.stdout.strip().startswith("{") else None), result


@pytest.mark.slow
@pytest.mark.parametrize("game", shipped_specs())
def test_every_shipped_kit_passes_its_own_preflight(game):
    code, report, result = _validate(game)
    assert code == 0, result.output
    findings = report["games"][0]["findings"]
    preflight = [f for f in findings if any(r in f["rule"] for r in PREFLIGHT_RULES)]
    assert len(preflight) >= 10  # every check reported, passed or not
    for f in preflight:
        assert f["status"] != "fail", f
        if f["status"] == "warning" and not f["check"].startswith("and "):
            assert f["where"]["page"] >= 1, f


def test_a_planted_4pt_text_fails_the_cli_and_is_placed(tmp_path):
    folder = tmp_path / "deck"
    assert CliRunner().invoke(app, ["new", str(folder)]).exit_code == 0
    front = folder / "front.yaml"
    front.write_text(front.read_text(encoding="utf-8") + "- {type: text, text: fine print, x: 10, y: 80, w: 40, h: 3, "
                     "size: 4, colour: '#000000'}\n", encoding="utf-8")
    code, report, result = _validate(str(folder / "deck.yaml"))
    assert code == 1, result.output
    small = [f for f in report["games"][0]["findings"] if f["status"] == "fail" and "'fine print'" in f["check"]]
    assert small, report
    where = small[0]["where"]
    assert where["component"] == "card" and where["card"].startswith("card 1") and where["page"] == 2
    assert 10 <= where["x_mm"] <= 200 and 80 <= where["y_mm"] <= 290


def test_preflight_of_a_cmyk_kit_checks_the_cmyk_pdf():
    """`validate --preflight --colour cmyk` checks the PDF a `build --colour cmyk` writes: its colour-space
    check reports a CMYK kit (no RGB left), where the default preflight reports an RGB kit."""
    def colour_check(*extra):
        code, report, result = _validate("nonads", *extra)
        assert code == 0, result.output
        checks = [f["check"] for f in report["games"][0]["findings"] if "ISO 15930" in f["rule"]]
        return " ".join(checks)
    assert "every colour and picture is CMYK" in colour_check("--colour", "cmyk")
    assert "an RGB kit" in colour_check() and "an RGB kit" not in colour_check("--colour", "cmyk")


def test_preflight_refuses_contradicting_colour_options():
    code, _, result = _validate("nonads", "--colour", "rgb", "--pdfx")
    assert code == 2 and "--colour rgb" in result.output and "Traceback" not in result.output
