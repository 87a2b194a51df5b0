"""One kit for both papers: a kit built with ``--paper a4-letter`` (210 x 279.4 mm: A4's width,
Letter's height) is printed on A4 and on Letter through CUPS's own filter chain (cupsfilter with the
PPD of Debian's printer-driver-cups-pdf, so pdftopdf applies the media) and the output PDF is
measured. (An A4 kit on Letter paper loses its footer off the foot of the paper at actual size: the
5 mm margin of a home printer leaves no room for the 17.6 mm the papers differ by; that is what the
a4-letter sheet is for.)

CUPS fits a page to the paper by its TrimBox (cups-filters' pdftopdf). A TrimBox round the block
of parts made an A4 kit on Letter print its 10 mm tile cells at 13.3 mm and moved the scale bar off
the paper; with the TrimBox the whole sheet (pnp/render/pdf.py):

* at "Actual size" (print-scaling=none, what the footer asks for) the sheet is centred on the paper,
  unscaled: the scale bar is 50.0 mm, every part keeps its size, nothing printed falls off;
* at the printer's default (print-scaling=auto) CUPS scales the sheet to fill the paper: at most by
  the ratio of the two papers (2.8 % for A4 on Letter, 6.3 % for Letter on A4), never the block of
  parts alone, so parts and scale bar keep their proportion and the bar shows the error on paper.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest

from conftest import PT, pdf_of

CUPSFILTER = shutil.which("cupsfilter") or (Path("/usr/sbin/cupsfilter") if Path("/usr/sbin/cupsfilter").exists()
                                            else None)
PPD = Path("/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd")   # Debian's printer-driver-cups-pdf
MEDIA = {"Letter": (215.9, 279.4), "A4": (210.0, 297.0)}
SHEET = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a4-letter": (210.0, 279.4)}
CASES = [("a4-letter", "Letter"), ("a4-letter", "A4")]
BLACK = (0.0, 0.0, 0.0)

pytestmark = pytest.mark.skipif(
    CUPSFILTER is None,
    reason="cupsfilter is not installed (Debian: apt-get install cups-filters printer-driver-cups-pdf; .ci/run "
           "installs them), so a kit cannot be printed through CUPS's filter chain here")


def print_through_cups(pdf: Path, media: str, scaling: str) -> pymupdf.Document:
    """``pdf`` as CUPS prints it on ``media`` paper with print-scaling ``scaling``: the PDF that
    CUPS's pdftopdf filter hands to the printer."""
    assert PPD.exists(), f"{PPD} is missing: apt-get install printer-driver-cups-pdf (without a PPD no media applies)"
    run = subprocess.run([str(CUPSFILTER), "-p", str(PPD), "-i", "application/pdf", "-m", "application/vnd.cups-pdf",
                          "-o", f"media={media}", "-o", f"print-scaling={scaling}", str(pdf)],
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr.decode(errors="replace")[-2000:]
    assert b"pdftopdf" in run.stderr, "CUPS did not run its pdftopdf filter"
    return pymupdf.open(stream=run.stdout, filetype="pdf")


def scale_bar(page) -> tuple[float, float, float, float]:
    """The footer's scale bar as drawn on ``page``: (x0, y, x1, tick half-height) in mm. It is the one
    horizontal line with a vertical tick crossing each end."""
    hor, ver = [], []
    for d in page.get_drawings():
        for item in d["items"]:
            if item[0] != "l":
                continue
            a, b = item[1], item[2]
            if abs(a.y - b.y) < 0.01 and abs(a.x - b.x) > 1:
                hor.append((min(a.x, b.x) * PT, a.y * PT, max(a.x, b.x) * PT))
            elif abs(a.x - b.x) < 0.01 and abs(a.y - b.y) > 0.1:
                ver.append((a.x * PT, min(a.y, b.y) * PT, max(a.y, b.y) * PT))

    def tick(x, y):
        return next((y - y0 for vx, y0, y1 in ver if abs(vx - x) < 0.05 and y0 < y < y1 and abs(y0 + y1 - 2 * y) < 0.05),
                    None)
    bars = [(x0, y, x1, tick(x0, y)) for x0, y, x1 in hor if tick(x0, y) and tick(x1, y)]
    assert len(bars) == 1, f"expected one scale bar, found {bars}"
    return bars[0]


def black_cells(page) -> list[float]:
    """Widths in mm of the filled black squares wider than 5 mm (Nonads' tile cells)."""
    return [d["rect"].width * PT for d in page.get_drawings()
            if d.get("fill") == BLACK and d["rect"].width * PT > 5 and abs(d["rect"].width - d["rect"].height) < 0.01]


def ink(page) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (x0, y0, x1, y1) in mm of everything drawn or written on ``page``."""
    boxes = [d["rect"] for d in page.get_drawings()]
    text = page.get_text("dict", flags=pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_MEDIABOX_CLIP)  # text off the paper too
    boxes += [pymupdf.Rect(s["bbox"]) for b in text["blocks"] for line in b.get("lines", ())
              for s in line["spans"] if s["text"].strip()]
    return [(r.x0 * PT, r.y0 * PT, r.x1 * PT, r.y1 * PT) for r in boxes]


@pytest.mark.parametrize("paper, media", CASES)
def test_actual_size_on_the_other_paper_keeps_every_length(built, paper, media):
    """Printed at Actual size on the other paper, the cover and the tile page measure true: the scale
    bar 50.0 mm, each tile cell as wide as in the kit, and nothing printed falls off the paper."""
    kit = pdf_of(built("nonads", paper))
    with pymupdf.open(kit) as original, print_through_cups(kit, media, "none") as printed:
        assert len(printed) == len(original)
        w, h = MEDIA[media]
        for number, (before, after) in enumerate(zip(original, printed), start=1):
            assert (after.rect.width * PT, after.rect.height * PT) == pytest.approx((w, h), abs=0.2)
            x0, y, x1, _ = scale_bar(after)
            assert x1 - x0 == pytest.approx(50.0, abs=0.3), f"page {number}: scale bar {x1 - x0:.2f} mm"
            on_paper = after.get_text()  # what lands on the paper (text outside it is not printed)
            assert "must measure 50 mm" in on_paper and f"page {number} of {len(original)}" in on_paper, \
                f"page {number}: the footer is off the paper"
            cells_before, cells_after = black_cells(before), black_cells(after)
            assert len(cells_after) == len(cells_before)
            for a, b in zip(sorted(cells_before), sorted(cells_after)):
                assert b == pytest.approx(a, abs=0.1), f"page {number}: a {a:.2f} mm cell printed {b:.2f} mm"
            for bx0, by0, bx1, by1 in ink(after):
                assert -0.1 <= bx0 and bx1 <= w + 0.1 and -0.1 <= by0 and by1 <= h + 0.1, \
                    f"page {number}: something printed at ({bx0:.1f}, {by0:.1f})-({bx1:.1f}, {by1:.1f}) mm is off the paper"
        assert black_cells(original[1]), "the tile page has no cells to measure"


@pytest.mark.parametrize("paper, media", CASES)
def test_printer_default_scales_the_sheet_not_the_parts(built, paper, media):
    """At the printer's default (print-scaling=auto) CUPS may fit the sheet to the other paper, but
    only the sheet: the scale is at most the ratio of the papers, the parts keep their proportion to
    the scale bar, and the bar stays on the paper to show the error."""
    kit = pdf_of(built("nonads", paper))
    sw, sh = SHEET[paper]
    w, h = MEDIA[media]
    most = max(w / sw, h / sh)  # fill: the larger of the two ratios
    with pymupdf.open(kit) as original, print_through_cups(kit, media, "auto") as printed:
        for number, (before, after) in enumerate(zip(original, printed), start=1):
            x0, y, x1, tick = scale_bar(after)
            scale = (x1 - x0) / 50.0
            assert 1 / most - 0.003 <= scale <= most + 0.003, f"page {number}: printed at {scale:.1%}"
            assert 0 <= x0 and x1 <= w and 0 <= y - tick and y + tick <= h, f"page {number}: scale bar off the paper"
            for a, b in zip(sorted(black_cells(before)), sorted(black_cells(after))):
                assert b == pytest.approx(a * scale, abs=0.05), f"page {number}: parts scaled unlike the sheet"
