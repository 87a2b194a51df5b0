"""Rules booklets of every shipped kit in every language on every shipped paper, read back from their
PDFs: the build exits 0 and every character printed on a booklet page lies inside that page's text
column (its outer and inner margins), measured in mm from the characters' boxes. The Hindi questions
kit is built once more as a traditional game, so that pnp's own rules-source note quotes its
Devanagari title (the note the print review found wrapped 1.7 mm past an A5 column)."""
from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from conftest import PT, REPO, open_pdf
from pnp.cli import app
from pnp.layout.booklet import INNER, MARGIN, breakable
from pnp.layout.paper import available_papers, load_sheet

runner = CliRunner()
TOL = 0.05  # mm: a character's box may touch the column's edge


def _outside(pdf) -> tuple[int, list[str]]:
    """(characters read, those outside their page's column: 'side s, page half h: c at x0..x1 mm')."""
    bad, seen = [], 0
    with open_pdf(pdf) as doc:
        for s, page in enumerate(doc.pages, start=1):
            half = page.width * PT / 2
            for c in page.chars:
                if not c["text"].strip():
                    continue
                seen += 1
                x0, x1 = c["x0"] * PT, c["x1"] * PT
                origin = 0.0 if (x0 + x1) / 2 < half else half
                if x0 < origin + MARGIN - TOL or x1 > origin + half - INNER + TOL:
                    bad.append(f"side {s}, {'right' if origin else 'left'} page: {c['text']!r} at "
                               f"{x0 - origin:.2f}..{x1 - origin:.2f} mm of {half:.2f}")
    return seen, bad


def _booklets(out, paper):
    return sorted(out.glob(f"*/*-rules-booklet-{paper}.pdf"))


@pytest.mark.parametrize("paper", available_papers())
def test_every_booklet_line_inside_its_column(tmp_path, paper):
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", "-o", str(out), "-p", paper, "-f", "pdf", "--rules", "booklet", "-q"])
    assert r.exit_code == 0, r.output
    kits = {p.parent.name for p in _booklets(out, paper)}
    # one booklet per kit the build wrote: every game and every language of every spec
    assert kits == {p.name for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")}
    assert {"questions", "questions-ar", "questions-hi", "netmatch", "playing-cards"} <= kits
    sheet = load_sheet(paper)
    for pdf in _booklets(out, paper):
        with open_pdf(pdf) as doc:  # each side: two booklet pages, each half the sheet's long side
            assert doc.pages[0].width * PT == pytest.approx(max(sheet.width, sheet.height), abs=0.1)
        seen, bad = _outside(pdf)
        assert seen > 500, pdf.name
        assert not bad, f"{pdf.name}: {len(bad)} characters outside the column, e.g. {bad[:3]}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pnp_own_note_quoting_a_devanagari_title_fits(tmp_path, paper):
    folder = tmp_path / "questions"
    shutil.copytree(REPO / "specs" / "questions", folder)
    spec = folder / "questions.yaml"
    spec.write_text(spec.read_text().replace("designer: the pnp developers",
                                             "designer: the pnp developers\ntraditional: true"))
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", str(spec), "-o", str(out), "-p", paper, "-f", "pdf", "--rules", "booklet",
                            "--lang", "hi", "-q"])
    assert r.exit_code == 0, r.output
    pdf = out / "questions-hi" / f"questions-hi-rules-booklet-{paper}.pdf"
    with open_pdf(pdf) as doc:
        text = " ".join(page.extract_text() for page in doc.pages)
    assert "traditional rules of" in text  # the note is printed
    seen, bad = _outside(pdf)
    assert seen > 500 and not bad, bad[:3]


def test_a_word_wider_than_the_column_is_cut_into_pieces_that_fit():
    from pnp.text import plain_lines
    word = "Zwischenablagenverwaltungswerkzeug" * 3
    pieces = breakable(f"a {word} b", 9.5, False, 60.0).split(" ")
    assert "".join(pieces[1:-1]) == word and len(pieces) > 3
    assert all(plain_lines(p, 9.5, None)[0].width <= 60.0 for p in pieces)
    hindi = "प्रश्नोत्तरीप्रतियोगिता" * 4  # cut between clusters: no piece starts with a mark or after a virama
    parts = breakable(hindi, 9.5, False, 20.0).split(" ")
    assert "".join(parts) == hindi and len(parts) > 1
    assert all(not p[0] in "\u094d\u093e\u093f\u0940\u0947\u094b\u0902" and p[-1] != "\u094d" for p in parts)
