"""A title in a script's fallback face fits the box its Latin neighbour fits: a one-word Arabic name
at 20 pt in a 14 mm box builds (Noto Sans Arabic's line box, 2.11 em, is not the line's height), and
the ink drawn (the page rendered at 600 dpi) stays inside the box; a fixed-size text that does not fit
is refused without "even at" a size nobody allowed."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from typer.testing import CliRunner

from conftest import filled_rects, open_pdf
from pnp.cli import app

runner = CliRunner()
RULES = ("# Kit\nA test kit.\n\n## Components\n- parts\n\n## Setup\nNone.\n\n## A turn\nPlay.\n\n"
         "## End and winner\nNobody.\n\n## Fine points\n- None.\n")
BOX = "#ffe0c0"
DPI = 600


def _kit(root: Path, names: list[str], box_h: str = "14mm", extra: str = "") -> Path:
    deck = root / "title"
    deck.mkdir(parents=True)
    (deck / "title.yaml").write_text("title: Titles\nrules: rules.md\ncomponents:\n  - name: card\n    size: poker\n"
                                     "    data: cards.csv\n    front: front.yaml\n", encoding="utf-8")
    (deck / "front.yaml").write_text(
        "layers:\n  - {type: rect, fill: \"#ffffff\", bleed: true}\n"
        f"  - {{type: rect, x: 5mm, y: 10mm, w: 53.5mm, h: {box_h}, fill: \"{BOX}\"}}\n"
        f"  - {{type: text, text: \"{{name}}\", x: 5mm, y: 10mm, w: 53.5mm, h: {box_h}, size: 20, align: center, "
        f"valign: middle{extra}}}\n", encoding="utf-8")
    (deck / "cards.csv").write_text("name\n" + "\n".join(names) + "\n", encoding="utf-8")
    (deck / "rules.md").write_text(RULES, encoding="utf-8")
    return deck


def _ink_in_boxes(pdf: Path) -> list[tuple[tuple[float, float, float, float], tuple[float, float, float, float]]]:
    """Per title box on the cards' page: (the box, mm from the page's top left), (the box holding
    every dark pixel drawn within 3 mm of it (the card's trim is 5 mm away), mm), from the page rendered at DPI."""
    with open_pdf(pdf) as doc:
        page = doc.pages[1]
        colour = tuple(round(int(BOX[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))
        boxes = filled_rects(page, colour)
    rendered = pdfium.PdfDocument(str(pdf))
    grey = np.asarray(rendered[1].render(scale=DPI / 72).to_pil().convert("L"))
    rendered.close()
    px = 25.4 / DPI
    out = []
    for x, y, w, h in boxes:
        r0, r1 = int((y - 3) / px), int((y + h + 3) / px)
        c0, c1 = int((x - 3) / px), int((x + w + 3) / px)
        rows, cols = np.nonzero(grey[r0:r1, c0:c1] < 96)
        assert rows.size, "no glyph drawn near the box"
        ink = ((c0 + cols.min()) * px, (r0 + rows.min()) * px, (c0 + cols.max() + 1) * px, (r0 + rows.max() + 1) * px)
        out.append(((x, y, x + w, y + h), ink))
    return out


def test_a_one_word_arabic_title_at_20_pt_fits_a_14_mm_box_and_its_ink_stays_inside(tmp_path):
    deck = _kit(tmp_path, ["سيف", "Hammer", "إبراهيم"])
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(deck), "-o", str(out), "-f", "pdf"])
    assert result.exit_code == 0, result.output
    measured = _ink_in_boxes(out / "title" / "title-a4.pdf")
    assert len(measured) == 3
    for (bx0, by0, bx1, by1), (ix0, iy0, ix1, iy1) in measured:
        assert ix1 - ix0 > 5 and iy1 - iy0 > 3  # a word at 20 pt was drawn
        assert bx0 <= ix0 and ix1 <= bx1 and by0 <= iy0 and iy1 <= by1, ((bx0, by0, bx1, by1), (ix0, iy0, ix1, iy1))


def test_a_fixed_size_text_that_does_not_fit_is_not_refused_even_at_its_own_size(tmp_path):
    deck = _kit(tmp_path, ["سيف"], box_h="5mm")
    result = runner.invoke(app, ["build", str(deck), "-o", str(tmp_path / "out"), "-f", "pdf"])
    flat = " ".join(result.output.split())
    assert result.exit_code == 2 and "does not fit its 53.5 x 5 mm box at 20 pt" in flat, flat
    assert "even at" not in flat and "fit: shrink" in flat


def test_a_shrinking_text_says_even_at_its_smallest_size(tmp_path):
    deck = _kit(tmp_path, ["سيف"], box_h="1mm", extra=", fit: shrink, min_size: 8")
    result = runner.invoke(app, ["build", str(deck), "-o", str(tmp_path / "out"), "-f", "pdf"])
    flat = " ".join(result.output.split())
    assert result.exit_code == 2 and "even at 8 pt" in flat, flat
