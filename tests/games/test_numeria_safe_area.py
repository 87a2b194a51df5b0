"""Numeria's tile numbers keep inside the print-shop safe area (3 mm inside the trim): `pnp validate
numeria --preflight` reports no safe-area warning, and on the printed pages (A4 and Letter) the ink of
every number, read from the pixels inside each tile's trim (the tile field found in the PDF), lies 3 mm
or more from the tile's trim; every tile still carries its large number and four small copies."""
from __future__ import annotations

import json

import numpy as np
import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from conftest import PT, filled_rects, open_pdf, pdf_of
from pnp.cli import app

runner = CliRunner()
TILE_FILL = "#fffdf5"   # the tile field of specs/numeria/tile.yaml
SAFE = 3.0              # mm: the safe area of docs/print.md
DPI = 600
FRAME = 0.8             # mm: the tile's frame line (0.4 mm in, 0.3 mm wide) lies within this of the trim


def test_preflight_finds_no_text_past_the_safe_area():
    r = runner.invoke(app, ["validate", "numeria", "--preflight", "--json"])
    assert r.exit_code == 0, r.output
    findings = json.loads(r.stdout)["games"][0]["findings"]
    safe = [f for f in findings if "3 mm inside the trim" in f["rule"]]  # the preflight's safe-area rule
    assert safe and all(f["status"] == "pass" for f in safe), [f["check"] for f in safe if f["status"] != "pass"][:3]


def _ink_mask(rgb: np.ndarray) -> np.ndarray:
    """The number's ink (#1d3557, a dark blue, and its anti-aliased edge on the cream field): darker
    than the field and bluer than red; the frame line (#b9ad93) is redder than blue."""
    r, g, b = (rgb[..., i].astype(int) for i in range(3))
    return (np.minimum(np.minimum(r, g), b) < 200) & (b > r + 10)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_number_prints_3_mm_inside_its_tile(built, paper):
    result = built("numeria", paper)
    pdf = pdf_of(result)
    pages = next(c["pages"] for c in result.manifest["components"] if c["name"] == "tile")
    fill = tuple(round(int(TILE_FILL[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))
    doc = pdfium.PdfDocument(str(pdf))
    nearest, tiles, small = [], 0, []
    with open_pdf(pdf) as plumb:
        for p in pages:
            page = plumb.pages[p - 1]
            img = np.asarray(doc[p - 1].render(scale=DPI / 72).to_pil().convert("RGB"))
            px = DPI / 25.4
            for x, y, w, h in filled_rects(page, fill):
                if not (15 < w < 17 and 15 < h < 17):
                    continue
                tiles += 1
                x0, y0, x1, y1 = (round(v * px) for v in (x, y, x + w, y + h))
                ink = _ink_mask(img[y0:y1, x0:x1])
                ys, xs = np.nonzero(ink)
                assert len(xs), (p, x, y)
                # distance of each inked pixel's centre to the nearest trim edge, mm
                d = np.minimum.reduce([(xs + 0.5) / px, (x1 - x0 - xs - 0.5) / px,
                                       (ys + 0.5) / px, (y1 - y0 - ys - 0.5) / px])
                assert d.min() > FRAME, "ink in the frame band: the mask took the frame line"
                nearest.append(d.min())
                chars = [c for c in page.chars if x < (c["x0"] + c["x1"]) / 2 * PT < x + w
                         and y < (c["top"] + c["bottom"]) / 2 * PT < y + h and c["text"].strip()]
                big = [c for c in chars if c["size"] > 8]
                small.append((len(big), len([c for c in chars if c["size"] <= 8]) / max(1, len(big))))
    assert tiles == 36
    assert all(n_big in (1, 2) and copies == 4 for n_big, copies in small), small[:5]
    assert min(nearest) >= SAFE - 1 / px, f"a number's ink {min(nearest):.2f} mm from its tile's trim"
