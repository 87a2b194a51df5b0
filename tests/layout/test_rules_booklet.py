"""The rules booklet (``--rules booklet``), read back from its PDF: every page number found at the foot
of each half of each side, in saddle-stitch order (stacked, folded and read through, the pages run
1..N; sheet 1 is N | 1 on its front and 2 | N-1 on its back), N a multiple of 4, page sizes in mm
(A5 on A4, half-Letter on Letter), the duplex flip the PDF asks for, the cover's binding steps, and
the file kept in the kit's store like every kit file (manifest, replaced whole)."""
from __future__ import annotations

import pikepdf
import pytest
from typer.testing import CliRunner

from conftest import PT, open_pdf, snapshot
from pnp.cli import app

runner = CliRunner()
SECTIONS = ("Components", "Setup", "A turn", "End and winner", "Fine points")
WORDS = ("each player draws a card from the stock and may play one matching card on the discard pile, "
         "or pass and keep the hand; ")


def _kit(folder, paragraphs: int = 3):
    folder.mkdir(parents=True)
    (folder / "face.yaml").write_text("layers:\n  - {type: rect, fill: '#ffffff', stroke: '#000000'}\n")
    body = "".join(f"## {h}\n" + "".join(f"{WORDS * 4}\n\n" for _ in range(paragraphs)) for h in SECTIONS)
    (folder / "rules.md").write_text("# Book\nA game to test booklets.\n\n" + body)
    (folder / f"{folder.name}.yaml").write_text(
        "title: Book\ncomponents:\n  - {name: card, size: poker, copies: 12, front: face.yaml}\n")
    return str(folder / f"{folder.name}.yaml")


def _numbers(pdf, half: float, height: float) -> list[tuple[int, int]]:
    """(left, right) page numbers at the foot of each side: the digits within 14 mm of its foot."""
    out = []
    with open_pdf(pdf) as doc:
        for page in doc.pages:
            assert page.width * PT == pytest.approx(2 * half, abs=0.1)
            assert page.height * PT == pytest.approx(height, abs=0.1)
            foot = [w for w in page.extract_words() if w["text"].isdigit() and (page.height - w["bottom"]) * PT < 14]
            left = [int(w["text"]) for w in foot if (w["x0"] + w["x1"]) / 2 * PT < half]
            right = [int(w["text"]) for w in foot if (w["x0"] + w["x1"]) / 2 * PT > half]
            assert len(left) == len(right) == 1, foot
            for w in foot:  # centred at the foot of its half
                mid = (w["x0"] + w["x1"]) / 2 * PT
                assert mid % half == pytest.approx(half / 2, abs=0.5)
            out.append((left[0], right[0]))
    return out


@pytest.mark.parametrize("paper, half, height", [("a4", 148.5, 210.0), ("letter", 139.7, 215.9)])
def test_booklet_pages_read_in_saddle_stitch_order(tmp_path, paper, half, height):
    spec = _kit(tmp_path / "book")
    out = tmp_path / "out"
    r = runner.invoke(app, ["build", spec, "-o", str(out), "-p", paper, "-f", "pdf", "--rules", "booklet"])
    assert r.exit_code == 0, r.output
    pdf = out / "book" / f"book-rules-booklet-{paper}.pdf"
    sides = _numbers(pdf, half, height)
    assert len(sides) % 2 == 0
    fronts, backs = sides[0::2], sides[1::2]
    n = 2 * len(sides)
    assert n % 4 == 0 and n >= 8  # the long rules fill more than one sheet
    assert sorted(p for side in sides for p in side) == list(range(1, n + 1))
    assert fronts[0] == (n, 1) and backs[0] == (2, n - 1)
    # stacked (sheet 1 outside), folded, read through: right of each front and left of each back going in,
    # the innermost back's right, then left of each front and right of each back coming out
    going_in = [p for f, b in zip(fronts, backs) for p in (f[1], b[0])]
    coming_out = [backs[-1][1]] + [p for f, b in zip(fronts[::-1], backs[-2::-1] + [None]) for p in
                                   ((f[0], b[1]) if b else (f[0],))]
    assert going_in + coming_out == list(range(1, n + 1))
    with pikepdf.open(pdf) as doc:
        assert str(doc.Root.ViewerPreferences.Duplex) == "/DuplexFlipShortEdge"
    pages = {}  # booklet page number -> its text, from the words on its half of the side
    with open_pdf(pdf) as doc:
        for page, (left, right) in zip(doc.pages, sides):
            words = page.extract_words()
            for number, inside in ((left, lambda x: x < half), (right, lambda x: x > half)):
                pages[number] = " ".join(w["text"] for w in words if inside((w["x0"] + w["x1"]) / 2 * PT))
    assert "flipping on the short edge" in pages[1] and "Staple" in pages[1] and "fold the stack" in pages[1]
    first = [min(p for p, t in pages.items() if h in t) for h in SECTIONS]  # each section heading's page
    assert first == sorted(first) and first[0] > 1
    result = (out / "book" / f"manifest-{paper}.json").read_text()
    assert f"book-rules-booklet-{paper}.pdf" in result


def test_a_rebuild_without_the_booklet_drops_it(tmp_path):
    spec = _kit(tmp_path / "book", paragraphs=1)
    out = tmp_path / "out"
    assert runner.invoke(app, ["build", spec, "-o", str(out), "-f", "pdf", "--rules", "booklet"]).exit_code == 0
    assert (out / "book" / "book-rules-booklet-a4.pdf").is_file()
    assert runner.invoke(app, ["build", spec, "-o", str(out), "-f", "pdf"]).exit_code == 0
    assert not (out / "book" / "book-rules-booklet-a4.pdf").exists()


def test_unknown_rules_mode_refused(tmp_path):
    spec = _kit(tmp_path / "book", paragraphs=1)
    out = tmp_path / "out"
    out.mkdir()
    before = snapshot(out)
    r = runner.invoke(app, ["build", spec, "-o", str(out), "--rules", "pamphlet"])
    assert r.exit_code == 2 and "--rules" in r.output and "booklet" in r.output and "Traceback" not in r.output
    assert snapshot(out) == before
