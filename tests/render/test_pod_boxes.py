"""Per-card PDFs (--format pod): each page's TrimBox is the card's trim, its BleedBox the trim grown by
the service's bleed, and its MediaBox holds the BleedBox, for every service and with --pdfx.

Read back with pypdf; the card's trim comes from the kit's manifest (trim_mm), the bleed from each
service's published template (1/8 in for The Game Crafter and DriveThruCards, 36 px at 300 dpi for
MakePlayingCards and PrinterStudio: docs/print.md), and a custom service's from its own option.
"""
from __future__ import annotations

import json
import re

import pypdf
import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.units import MM_PER_PT

runner = CliRunner()
PUBLISHED_BLEED_MM = {"tgc": 25.4 / 8, "drivethru": 25.4 / 8, "mpc": 36 / 300 * 25.4, "printerstudio": 36 / 300 * 25.4,
                      "custom:300,2mm,2mm": 2.0, "custom:600,0mm,3mm": 0.0}
TOL = 0.01  # mm: reportlab writes boxes to 1/10,000 pt


def _box(box) -> tuple[float, float, float, float]:
    return tuple(float(v) * MM_PER_PT for v in (box.left, box.bottom, box.right, box.top))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _check_kit(out, game: str, bleed: float, paper: str = "a4") -> int:
    """Check every page of every per-card PDF of ``game``'s kit on ``paper``; the number of pages checked."""
    manifest = json.loads((out / game / f"manifest-{paper}.json").read_text(encoding="utf-8"))
    trims = {_slug(c["name"]): c["trim_mm"] for c in manifest["components"]}
    pdfs = sorted((out / game / "pod").rglob("*.pdf"))
    assert pdfs
    checked = 0
    for pdf in pdfs:
        comp = next(slug for slug in sorted(trims, key=len, reverse=True) if pdf.stem.endswith("-" + slug))
        w, h = trims[comp]
        for number, page in enumerate(pypdf.PdfReader(pdf).pages, 1):
            media, trim, bleed_box = _box(page.mediabox), _box(page.trimbox), _box(page.bleedbox)
            where = f"{pdf.name} page {number}"
            assert trim[2] - trim[0] == pytest.approx(w, abs=TOL), where
            assert trim[3] - trim[1] == pytest.approx(h, abs=TOL), where
            grown = (trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed)
            assert bleed_box == pytest.approx(grown, abs=TOL), where
            assert (media[0] <= bleed_box[0] + TOL and media[1] <= bleed_box[1] + TOL
                    and media[2] >= bleed_box[2] - TOL and media[3] >= bleed_box[3] - TOL), where
            checked += 1
    return checked


@pytest.mark.parametrize("service", sorted(PUBLISHED_BLEED_MM))
def test_every_card_page_has_the_cards_trim_and_bleed(tmp_path, service):
    r = runner.invoke(app, ["build", "playing-cards", "-f", "pod", "--service", service, "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "playing-cards" / "manifest-a4.json").read_text(encoding="utf-8"))
    card = next(c for c in manifest["components"] if c["name"] == "card")
    assert _check_kit(tmp_path, "playing-cards", PUBLISHED_BLEED_MM[service]) >= card["count"]


def test_pdfx_card_pages_keep_the_cards_boxes(tmp_path):
    """The PDF/X pass (pikepdf) keeps each page's boxes: NetMatch's word cards and round letter tokens."""
    r = runner.invoke(app, ["build", "netmatch", "-f", "pod", "--service", "tgc", "--pdfx", "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    assert _check_kit(tmp_path, "netmatch", PUBLISHED_BLEED_MM["tgc"], "a4-pdfx") > 0  # the print shop's own kit
