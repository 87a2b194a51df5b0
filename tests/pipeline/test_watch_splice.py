"""The PDF of `pnp watch` after an edit (pnp.render.pdfsplice): unchanged pages taken from the previous
build's PDF kept in memory, changed pages drawn and spliced in. Read back with pikepdf and compared
with a fresh build of the edited deck page by page (pixels and words, test_watch_memo.same_pdf_pages)."""
from __future__ import annotations

import csv
import hashlib
import io

import pikepdf

from pnp.core.memo import Memo
from test_watch_memo import CARDS, _build, _deck, _picture, same_kit


def _pages(pdf: bytes) -> list[bytes]:
    """Each page's content stream, decoded."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [page.Contents.read_bytes() for page in doc.pages]


def _images(pdf: bytes) -> list[str]:
    """sha256 of every image XObject's stream in the file (each stored object once)."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [hashlib.sha256(obj.read_raw_bytes()).hexdigest() for obj in doc.objects
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"]


def test_unchanged_pages_are_the_previous_builds_and_pictures_are_not_duplicated(tmp_path):
    spec = _deck(tmp_path / "deck")
    memo = Memo()
    first = _build(spec, tmp_path / "watch", memo)["memo-deck-a4.pdf"]
    data = spec.parent / "deck.csv"
    data.write_text(data.read_text(encoding="utf-8").replace("CARD 5,", "CARD FIVE,"), encoding="utf-8")
    kit = _build(spec, tmp_path / "watch", memo)
    same_kit(kit, _build(spec, tmp_path / "fresh"))
    before, after = _pages(first), _pages(kit["memo-deck-a4.pdf"])
    kept = [i for i, (a, b) in enumerate(zip(before, after)) if a == b]
    drawn = memo.made["pdf page"] - len(before)  # the first build drew every page
    assert 0 < len(kept) < len(after) and memo.reused["pdf page"] == len(kept) == len(after) - drawn
    pictures = _images(kit["memo-deck-a4.pdf"])
    assert len(pictures) == len(set(pictures)) == CARDS  # each picture once, the edited card's too


def test_new_rows_and_a_new_picture_add_pages_and_the_kit_is_still_a_fresh_build(tmp_path):
    """Every page's footer counts the pages, so a longer kit redraws them all: still the right kit."""
    spec = _deck(tmp_path / "deck")
    memo = Memo()
    first = _build(spec, tmp_path / "watch", memo)["memo-deck-a4.pdf"]
    folder = spec.parent
    with (folder / "deck.csv").open("a", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        for i in range(CARDS, CARDS + 11):  # about a sheet more of cards, one with a picture never seen
            out.writerow([f"CARD {i + 1}", "new.png" if i == CARDS + 3 else f"p{i % CARDS}.png"])
    _picture(folder / "art" / "new.png", 77)
    drawn = memo.made["pdf page"]
    kit = _build(spec, tmp_path / "watch", memo)
    fresh = _build(spec, tmp_path / "fresh")
    same_kit(kit, fresh)
    pages = len(_pages(kit["memo-deck-a4.pdf"]))
    assert pages > len(_pages(first))
    assert memo.made["pdf page"] - drawn + memo.reused["pdf page"] == pages  # each page drawn or reused, once


def test_an_edit_back_and_forth_reuses_every_page(tmp_path):
    spec = _deck(tmp_path / "deck")
    memo = Memo()
    _build(spec, tmp_path / "watch", memo)
    data = spec.parent / "deck.csv"
    original = data.read_text(encoding="utf-8")
    data.write_text(original.replace("CARD 2,", "CARD TWO,"), encoding="utf-8")
    _build(spec, tmp_path / "watch", memo)
    data.write_text(original, encoding="utf-8")
    drawn, reused = memo.made["pdf page"], memo.reused["pdf page"]
    kit = _build(spec, tmp_path / "watch", memo)
    same_kit(kit, _build(spec, tmp_path / "fresh"))
    pages = len(_pages(kit["memo-deck-a4.pdf"]))
    # the card's page is back as it was two builds ago: only the page the last build drew is drawn again
    assert memo.made["pdf page"] - drawn == 1 and memo.reused["pdf page"] - reused == pages - 1
