"""A print shop's PDF (--pdfx) says what it is in its name and on its cover, and never replaces the home PDF.

Both kits are built into one --out, in both orders; each PDF is read back with pikepdf (its PDF/X
identification) and pymupdf (the cover's text), and the home PDF's bytes are compared before and
after the print shop's build.
"""
from __future__ import annotations

import hashlib
import json

import pikepdf
import pymupdf
from typer.testing import CliRunner

from pnp.cli import app
from pnp.layout.cover import PRINT_SHOP_LINE

runner = CliRunner()


def _build(out, *args):
    r = runner.invoke(app, ["build", "nonads", "-f", "pdf", "--out", str(out), "-q", *args])
    assert r.exit_code == 0, r.output


def _pdfx_version(path) -> str | None:
    with pikepdf.open(path) as pdf:
        value = pdf.docinfo.get("/GTS_PDFXVersion")
        return str(value) if value is not None else None


def _cover_text(path) -> str:
    with pymupdf.open(path) as doc:
        return " ".join(doc[0].get_text().split())


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_print_shop_pdf_has_its_own_name_and_cover_and_the_home_pdf_stays(tmp_path):
    out = tmp_path / "out"
    _build(out)
    kit = out / "nonads"
    home = kit / "nonads-a4.pdf"
    home_sha = _sha(home)
    _build(out, "--pdfx")
    shop = kit / "nonads-a4-pdfx.pdf"
    assert home.is_file() and shop.is_file()
    assert _sha(home) == home_sha, "the print shop's build left the home PDF as it was"
    assert _pdfx_version(shop) == "PDF/X-4" and _pdfx_version(home) is None
    assert PRINT_SHOP_LINE in _cover_text(shop)
    assert "print shop" not in _cover_text(home)
    for paper, pdf in (("a4", home), ("a4-pdfx", shop)):  # two kits, each with its own manifest
        manifest = json.loads((kit / f"manifest-{paper}.json").read_text(encoding="utf-8"))
        assert manifest["paper"] == paper
        assert [f["path"] for f in manifest["files"]] == [pdf.name]
        assert [f["sha256"] for f in manifest["files"]] == [_sha(pdf)]


def test_a_home_build_after_the_print_shops_leaves_the_print_shop_pdf(tmp_path):
    out = tmp_path / "out"
    _build(out, "--pdfx")
    shop = out / "nonads" / "nonads-a4-pdfx.pdf"
    shop_sha = _sha(shop)
    _build(out)
    assert _sha(shop) == shop_sha and (out / "nonads" / "nonads-a4.pdf").is_file()


def test_a_german_print_shop_cover_says_it_in_german(tmp_path):
    """The line comes from the kit's catalogue: the German kit of a deck prints its German words."""
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "deck.yaml").write_text("title: Zug\nlanguages: [de]\ncomponents:\n"
                                      "  - {name: Karte, size: poker, copies: 2, front: front.yaml}\n", encoding="utf-8")
    (folder / "front.yaml").write_text("layers:\n  - {type: rect, fill: '#ddeeff'}\n", encoding="utf-8")
    (folder / "rules.md").write_text("# Zug\nEin Stapel.\n\n## Components\n- Karten\n\n## Setup\nMischen.\n\n"
                                     "## A turn\nZiehen.\n\n## End and winner\nEnde.\n\n## Fine points\nKeine.\n",
                                     encoding="utf-8")
    r = runner.invoke(app, ["build", str(folder), "-f", "pdf", "--pdfx", "--out", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 0, r.output
    text = _cover_text(tmp_path / "out" / "deck" / "deck-a4-pdfx.pdf")
    assert "Druckerei" in text and PRINT_SHOP_LINE not in text
