"""Every kit opens with a cover that credits its designer and carries the rules (read back from the PDF)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pypdf
import pytest
from typer.testing import CliRunner

from pnp import __version__
from pnp.cli import app
from pnp.engine import registry
from pnp.pipeline.plan import load_target
from pnp.inputs.rulestext import RULE_SECTIONS, parse_rules
from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir

from conftest import mm, open_pdf, pdf_of, snapshot

GAMES = sorted(registry())
runner = CliRunner()


def _cover_pages(result):
    with open_pdf(pdf_of(result)) as pdf:
        pages = [p for p in pdf.pages if "cover" in (p.extract_text() or "").splitlines()[-1]]
        out = []
        for p in pages:  # text read column by column, so the two rules columns do not merge into one line
            w, h = float(p.width), float(p.height)
            halves = [p.crop((0, 0, w / 2, h)).extract_text(), p.crop((w / 2, 0, w, h)).extract_text()]
            out.append((p.extract_text() + "\n" + "\n".join(halves), p.chars, w, h))
        return out


@pytest.mark.parametrize("game", GAMES)
def test_cover_credits_the_designer_and_holds_every_rules_section(built, game):
    spec = load_target(game).spec
    pages = _cover_pages(built(game))
    assert 1 <= len(pages) <= 2
    text = "\n".join(t for t, *_ in pages)
    assert spec.designer and f"designed by {spec.designer}" in text
    flat = " ".join(text.split())  # the rules-source note names the designer after the game, no possessive
    assert f"of the rules of {parse_rules(builtin_folder(game) / 'rules.md').title} by {spec.designer};" in flat
    assert f"{spec.designer}'s" not in flat
    assert "Bill of materials" in text and "Print and cut" in text and "Rules quick reference" in text
    lines = text.splitlines()
    for heading in RULE_SECTIONS:
        assert heading in lines, f"{game}: section {heading!r} not on the cover"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_rules_line_is_wider_than_its_column(built, game, paper):
    """Lines are measured from the drawn glyphs: the right column runs from its first glyph to the
    printable edge (the sheet's margin), the left column is as wide, and no line ends past its column."""
    from pnp.layout.paper import FOOTER_BAND, load_sheet
    margin = load_sheet(paper).margin
    for text, chars, width, height in _cover_pages(built(game, paper)):
        # the rules body: 8 pt text and 9.5 pt headings (the guide above is 7.5 pt, the source note 6.5 pt)
        heading = [c["top"] for c in chars if abs(c["size"] - 12.0) < 0.01]  # "Rules quick reference" (page 1 only)
        top = min(heading, default=0.0) - 5 / 0.352778  # the right column starts level with the heading
        foot = height - (margin + FOOTER_BAND) / 0.352778  # the footer band (scale bar, page line) is not rules text
        body = sorted((c for c in chars if 7.9 <= c["size"] <= 9.6 and top < c["top"] < foot),
                      key=lambda c: (round(c["top"], 1), c["x0"]))
        segments = []  # runs of glyphs on one baseline with no gap wider than 3 mm: one column's line
        for c in body:
            last = segments[-1] if segments else None
            if last and round(last[-1]["top"], 1) == round(c["top"], 1) and c["x0"] - last[-1]["x1"] < 3 / 0.352778:
                last.append(c)
            else:
                segments.append([c])
        right_starts = [seg[0]["x0"] for seg in segments if seg[0]["x0"] > width / 2]
        if not right_starts:
            continue
        right_x0 = min(right_starts)
        left_x0 = min(seg[0]["x0"] for seg in segments)
        page_right = width - margin / 0.352778      # the printable area ends at the margin
        column = page_right - right_x0              # the right column runs to it; both columns are as wide
        assert right_x0 - (left_x0 + column) >= 3 / 0.352778  # a visible gap between the columns
        for seg in segments:
            right = seg[0]["x0"] > width / 2
            end = seg[-1]["x1"]
            limit = page_right if right else left_x0 + column
            assert end <= limit + 0.01, f"{game} {paper}: line ending at {mm(end):.1f} mm runs past {mm(limit):.1f} mm"


@pytest.mark.parametrize("game", GAMES)
def test_pdf_metadata_names_game_designer_and_pnp(built, game):
    spec = load_target(game).spec
    meta = pypdf.PdfReader(pdf_of(built(game))).metadata
    assert meta.title == f"{spec.title} \u2014 print-and-play kit"
    assert meta.author == spec.designer
    assert meta.subject == parse_rules(builtin_folder(game) / "rules.md").description
    assert meta.creator == f"pnp {__version__}"
    assert spec.title in meta["/Keywords"]


@pytest.mark.parametrize("game", GAMES)
def test_every_svg_page_has_title_and_desc(built, game):
    spec = load_target(game).spec
    svgs = [p for p in built(game).files if p.suffix == ".svg"]
    assert svgs
    for path in svgs:
        root = ET.parse(path).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        assert root.find(f"{ns}title").text == f"{spec.title} \u2014 print-and-play kit"
        assert spec.designer in root.find(f"{ns}desc").text


def test_guide_speaks_of_round_parts_and_pieces_only_where_the_kit_has_them(built):
    nonads = _cover_pages(built("nonads"))[0][0]
    nooks = _cover_pages(built("nooks"))[0][0]
    assert "Round parts" not in nonads and "pieces" not in nonads
    assert "Round parts" in nooks and "comes in 2 pieces" in nooks
    a3 = _cover_pages(built("nooks", "a3"))[0][0]
    assert "comes in" not in a3  # both boards print whole on A3


def _rules_copy(tmp_path, game="nonaga", extra=""):
    spec = tmp_path / f"{game}.yaml"
    spec.write_text((builtin_spec(game)).read_text(encoding="utf-8"), encoding="utf-8")
    rules = tmp_path / "rules.md"
    rules.write_text((builtin_folder(game) / "rules.md").read_text(encoding="utf-8") + extra, encoding="utf-8")
    return spec, rules


def test_edited_rules_text_is_printed(tmp_path):
    spec, rules = _rules_copy(tmp_path, extra="- House rule: the youngest player starts.\n")
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "--out", str(out), "--format", "pdf"])
    assert r.exit_code == 0, r.output
    with open_pdf(out / "nonaga" / "nonaga-a4.pdf") as pdf:
        assert "House rule: the youngest player starts." in pdf.pages[0].extract_text()


def test_rules_too_long_for_two_pages_is_bad_input(tmp_path):
    filler = "".join(f"- Extra point {i}: " + "a long sentence about nothing in particular " * 6 + "\n"
                     for i in range(120))
    spec, rules = _rules_copy(tmp_path, extra=filler)
    out = tmp_path / "out"
    (out / "nonaga").mkdir(parents=True)
    (out / "nonaga" / "keep.txt").write_text("earlier kit")
    before = snapshot(out)
    r = runner.invoke(app, ["build", str(spec), "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert "does not fit two cover pages" in r.output and "rules" in r.output and "Traceback" not in r.output
    assert snapshot(out) == before


def test_rules_missing_a_section_names_the_line(tmp_path):
    spec, rules = _rules_copy(tmp_path)
    rules.write_text(rules.read_text(encoding="utf-8").replace("## Setup", "## Set-up"), encoding="utf-8")
    r = runner.invoke(app, ["validate", str(spec)])
    r = runner.invoke(app, ["build", str(spec), "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "missing: Setup" in r.output and "line " in r.output, r.output


def test_set_rules_replaces_the_rules_file(tmp_path):
    _, rules = _rules_copy(tmp_path, "nonads", extra="- Printed from a replacement file.\n")
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", "nonads", "--set", f"rules={rules}", "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    with open_pdf(out / "nonads" / "nonads-a4.pdf") as pdf:
        assert "Printed from a replacement file." in pdf.pages[0].extract_text()
