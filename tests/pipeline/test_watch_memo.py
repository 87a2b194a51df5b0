"""What `pnp watch` keeps between rounds (pnp.core.memo): after each kind of edit the kit is a fresh
build of the edited deck (every SVG page byte for byte; the PDF page for page: the same pixels and
text, see same_pdf_pages; the manifest but for the PDF's hash), and what was made again is exactly
what the edit changed (counted by the memo: SVG and PDF pages made again = the pages whose SVG file
differs between fresh builds before and after the edit; decoded pictures made again = the pictures
whose bytes changed)."""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
from PIL import Image as PILImage

from pnp.core.memo import Memo
from pnp.layout.options import ImposeOptions
from pnp.pipeline.execute import execute_target
from pnp.pipeline.plan import Request, load_paper, plan
from pnp.render.formats import WriterSettings
from test_custom_fonts import make_font

CARDS = 12
SPEC = """title: Memo deck
designer: pnp tests
fonts: {Title: fonts/title.ttf}
components:
  - name: picture card
    size: poker
    data: deck.csv
    front: front.yaml
    back: back.yaml
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: image, src: "art/{pic}", x: 4mm, y: 12mm, w: 55mm, h: 55mm, fit: cover, min_dpi: 1}
  - {type: text, text: "{name}", x: 4mm, y: 3mm, w: 55mm, h: 8mm, size: 16, font: Title, align: center}
"""
BACK = """layers:
  - {type: rect, fill: "#224466", bleed: true}
"""
RULES = "# Memo deck\nA deck.\n\n## Components\n- Cards.\n\n## Setup\nNone.\n\n## A turn\nNone.\n\n" \
        "## End and winner\nNone.\n\n## Fine points\n- None.\n"


def _picture(path: Path, shade: int) -> None:
    PILImage.new("RGB", (40, 40), (shade, 255 - shade, (shade * 7) % 256)).save(path)


def _deck(folder: Path) -> Path:
    (folder / "art").mkdir(parents=True)
    (folder / "fonts").mkdir()
    make_font(folder / "fonts" / "title.ttf", family="Memo One")
    for name, text in (("memo-deck.yaml", SPEC), ("front.yaml", FRONT), ("back.yaml", BACK), ("rules.md", RULES)):
        (folder / name).write_text(text, encoding="utf-8")
    with (folder / "deck.csv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "pic"])
        for i in range(CARDS):
            out.writerow([f"CARD {i + 1}", f"p{i}.png"])
            _picture(folder / "art" / f"p{i}.png", i * 20)
    return folder / "memo-deck.yaml"


def _build(spec: Path, out: Path, memo: Memo | None = None, opts: ImposeOptions = ImposeOptions()) -> dict[str, bytes]:
    """Build the deck (PDF + SVG) into ``out`` (with ``memo`` in use, or none); every file's bytes by path
    (the kit's ``history/`` of earlier manifests left out: it differs by how many builds went before)."""
    request = Request(load_paper("a4"), ("pdf", "svg"), opts, {}, WriterSettings())
    with memo.in_use() if memo is not None else nullcontext():
        result = execute_target(plan([str(spec)], request).targets[0], request, out)
    kit = out / result.game
    return {p.relative_to(kit).as_posix(): p.read_bytes() for p in kit.rglob("*")
            if p.is_file() and p.relative_to(kit).parts[0] != "history"}


def _touch(path: Path) -> None:
    """A new modification time, so no cache keyed by it could serve the old content either."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def same_pdf_pages(got: bytes, want: bytes, dpi: float = 100) -> None:
    """Assert the two PDFs have the same pages: each pair rendered by PDFium at ``dpi`` pixel for pixel
    equal, the same words at the same places (pdfplumber) and the same page boxes."""
    a, b = pdfium.PdfDocument(got), pdfium.PdfDocument(want)
    try:
        assert len(a) == len(b) and len(a) > 0
        for i in range(len(a)):
            pa, pb = a[i], b[i]
            assert pa.get_size() == pb.get_size() and pa.get_trimbox() == pb.get_trimbox()
            assert pa.get_bleedbox() == pb.get_bleedbox() and pa.get_mediabox() == pb.get_mediabox()
            ia = np.asarray(pa.render(scale=dpi / 72).to_pil())
            ib = np.asarray(pb.render(scale=dpi / 72).to_pil())
            assert ia.shape == ib.shape and np.array_equal(ia, ib), f"page {i + 1} looks different"
    finally:
        a.close()
        b.close()
    words = []
    for data in (got, want):
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            words.append([[(w["text"], round(w["x0"], 2), round(w["top"], 2)) for w in page.extract_words()]
                          for page in pdf.pages])
    assert words[0] == words[1] and any(words[0])


def _without_pdf_hashes(manifest: bytes) -> dict:
    data = json.loads(manifest)
    data["files"] = [f if not f["path"].endswith(".pdf") else {"path": f["path"]} for f in data["files"]]
    return data


def same_kit(got: dict[str, bytes], want: dict[str, bytes]) -> None:
    """Assert the kit ``got`` (files by path) is ``want``: the PDF's pages the same (same_pdf_pages), the
    manifest the same but for the PDF's size and hash, every other file byte for byte."""
    assert sorted(got) == sorted(want)
    for path in want:
        if path.endswith(".pdf"):
            same_pdf_pages(got[path], want[path])
        elif path.startswith("manifest-"):
            assert _without_pdf_hashes(got[path]) == _without_pdf_hashes(want[path])
        else:
            assert got[path] == want[path], path


def _svg_pages(files: dict[str, bytes]) -> set[str]:
    return {p for p in files if p.startswith("svg/")}


def _check_edit(tmp_path: Path, edit, opts_after: ImposeOptions = ImposeOptions()) -> tuple[Memo, dict, int]:
    """Watch-style builds before and after ``edit(deck folder)``; returns the memo's counts of what the
    second build made, and the number of SVG pages a fresh build changes. Asserts the kit after the edit
    is a fresh build's, file for file."""
    spec = _deck(tmp_path / "deck")
    memo = Memo()
    fresh_before = _build(spec, tmp_path / "fresh-before")
    assert _build(spec, tmp_path / "watch", memo) == fresh_before
    made = dict(memo.made)
    edit(spec.parent)
    watched = _build(spec, tmp_path / "watch", memo, opts_after)
    fresh_after = _build(spec, tmp_path / "fresh-after", opts=opts_after)
    same_kit(watched, fresh_after)
    changed = sum(fresh_before.get(p) != fresh_after[p] for p in _svg_pages(fresh_after))
    again = {k: memo.made[k] - made.get(k, 0) for k in memo.made}
    assert memo.used <= memo.budget
    return memo, again, changed


def test_a_one_cell_edit_redraws_only_the_pages_that_hold_the_card(tmp_path):
    def edit(folder: Path) -> None:
        data = folder / "deck.csv"
        data.write_text(data.read_text(encoding="utf-8").replace("CARD 5,", "CARD FIVE,"), encoding="utf-8")
    memo, again, changed = _check_edit(tmp_path, edit)
    pages = sum(1 for _ in (tmp_path / "watch").rglob("*.svg"))
    assert 1 <= changed < pages
    assert again.get("svg page", 0) == changed and again.get("pdf page", 0) == changed
    assert memo.reused["pdf page"] == pages - changed
    assert again.get("pdf picture", 0) == 0 and again.get("picture facts", 0) == 0


def test_changed_picture_bytes_are_decoded_again_and_its_page_redrawn(tmp_path):
    def edit(folder: Path) -> None:
        path = folder / "art" / "p3.png"
        _picture(path, 201)  # same size and name, other pixels
        _touch(path)
    _, again, changed = _check_edit(tmp_path, edit)
    assert changed >= 1
    assert again.get("pdf picture", 0) == 1 and again.get("picture facts", 0) == 1
    assert again.get("svg page", 0) == changed and again.get("pdf page", 0) == changed


def test_a_template_edit_redraws_every_page_it_draws_but_no_picture(tmp_path):
    def edit(folder: Path) -> None:
        front = folder / "front.yaml"
        front.write_text(front.read_text(encoding="utf-8").replace("#ffffff", "#fff8e0"), encoding="utf-8")
    _, again, changed = _check_edit(tmp_path, edit)
    assert changed >= 2 and again.get("svg page", 0) == changed
    assert again.get("pdf picture", 0) == 0


def test_a_new_font_file_redraws_the_pages_that_set_text_in_it(tmp_path):
    def edit(folder: Path) -> None:
        path = folder / "fonts" / "title.ttf"
        make_font(path, family="Memo Two")
        _touch(path)
    _, again, changed = _check_edit(tmp_path, edit)
    assert changed >= 2 and again.get("svg page", 0) == changed
    assert again.get("pdf picture", 0) == 0


def test_an_option_change_redraws_the_pages(tmp_path):
    _, again, changed = _check_edit(tmp_path, lambda _folder: None, ImposeOptions(bleed=3.0))
    assert changed >= 2 and again.get("svg page", 0) == changed


def test_a_small_budget_is_respected_and_the_kit_is_still_right(tmp_path):
    spec = _deck(tmp_path / "deck")
    memo = Memo(budget=40_000)  # a few pages' worth: most is made again each round
    fresh = _build(spec, tmp_path / "fresh")
    for _ in range(2):
        same_kit(_build(spec, tmp_path / "watch", memo), fresh)
        assert 0 < memo.used <= memo.budget
