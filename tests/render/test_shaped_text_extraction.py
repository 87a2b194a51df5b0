"""Shaped text can be copied and searched: the Arabic and Hindi questions kits, their text read back
by three extractors, hold every word of every translated question (from questions.csv, in logical
order) and no private-use character (U+E000-U+F8FF, what reportlab gives the glyphs HarfBuzz picks
that have no character of their own).

* pdfminer (pdfplumber's engine) reads the content stream in order; it has no ActualText support of
  its own, so :class:`_ActualText` does what PDF 32000-1 14.9.4 says a reader does: the glyphs inside a
  span with /ActualText are replaced by that text. Everything outside spans is read through the
  fonts' ToUnicode maps, as pdfminer reads it. A right-to-left word is stored left to right, as
  seen (as every PDF stores it); pdfminer has no bidi step, so :func:`_logical` does a reader's:
  the word's characters reversed.
* pypdfium2 (PDFium, Chromium's reader) and poppler's pdftotext honour ActualText themselves.
"""
from __future__ import annotations

import csv
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
import pypdfium2 as pdfium
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.psparser import PSLiteral
from pdfminer.utils import decode_text
from typer.testing import CliRunner

from pnp.cli import app
from pnp.inputs.resources import builtin_spec

runner = CliRunner()
PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


class _ActualText(PDFPageAggregator):
    """pdfminer's characters of a page (each glyph with its box), marked content honoured: the first glyph inside a span with /ActualText reads as that text, the span's
    other glyphs as nothing; every other glyph by its font's ToUnicode map, as pdfminer reads it."""

    def __init__(self, rsrcmgr):
        super().__init__(rsrcmgr, laparams=None)
        self.spans: list[list] = []  # per open marked-content sequence: [its ActualText or None]

    def begin_tag(self, tag: PSLiteral, props=None) -> None:
        text = props.get("ActualText") if isinstance(props, dict) else None
        self.spans.append([None if text is None else decode_text(text)])

    def end_tag(self) -> None:
        if self.spans:
            self.spans.pop()

    def render_char(self, *args, **kwargs) -> float:
        adv = super().render_char(*args, **kwargs)
        span = next((s for s in reversed(self.spans) if s[0] is not None), None)
        if span is not None:
            char = self.cur_item._objs[-1]
            char._text, span[0] = span[0], ""
        return adv


def _pdfminer_text(pdf: Path) -> str:
    """The text of ``pdf`` as pdfminer reads its glyphs (ActualText honoured), in content order: a
    new line where the baseline moves by more than half the font size, a space where a glyph starts
    more than a fifth of the font size after the previous one ends (pdfminer's own line grouping
    cuts a line at two zero-width marks in a row, as Devanagari's ्र and े are)."""
    rsrc = PDFResourceManager()
    device = _ActualText(rsrc)
    interpreter = PDFPageInterpreter(rsrc, device)
    out: list[str] = []
    with pdf.open("rb") as fh:
        for page in PDFPage.get_pages(fh):
            interpreter.process_page(page)
            last = None
            for char in device.get_result():
                if not isinstance(char, LTChar):
                    continue
                if last is not None and abs(char.y0 - last.y0) > char.size / 2:
                    out.append("\n")
                elif last is not None and char.x0 - last.x1 > char.size / 5:
                    out.append(" ")
                out.append(char.get_text())
                last = char
            out.append("\n")
    return "".join(out)


def _pdfium_text(pdf: Path) -> str:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def _words(text: str) -> set[str]:
    """The words of ``text``: split at white space and hyphens, without the punctuation at either end
    or format characters (pdftotext marks right-to-left lines with U+202B ... U+202C)."""
    text = "".join(" " if unicodedata.category(ch) == "Cf" else ch for ch in text)
    out = set()
    for token in re.split(r"[\s\-]+", text):
        token = token.strip("".join(ch for ch in set(token) if unicodedata.category(ch)[0] in "PS"))
        if token:
            out.add(token)
    return out


def _logical(word: str) -> str:
    """A right-to-left word stored as seen (left to right) in logical order, its characters
    reversed; any other word as it is."""
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in word):
        return word[::-1]
    return word


def _questions(code: str) -> list[str]:
    """The translated questions of language ``code`` in questions.csv, their markup (bold, icons) removed."""
    with (builtin_spec("questions").parent / "questions.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    cells = [r[f"question@{code}"] for r in rows if r[f"question@{code}"]]
    cells += [r[f"{col}@{code}"] for r in rows for col in ("category", "language") if r[f"{col}@{code}"]]
    return [re.sub(r":[a-z0-9_-]+:|\*", " ", c) for c in cells]


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    out = tmp_path_factory.mktemp("shaped")
    got = {}
    for code in ("ar", "hi"):
        result = runner.invoke(app, ["build", str(builtin_spec("questions")), "-o", str(out), "-f", "pdf",
                                     "--lang", code])
        assert result.exit_code == 0, result.output
        got[code] = out / f"questions-{code}" / f"questions-{code}-a4.pdf"
    return got


@pytest.mark.parametrize("code", ["ar", "hi"])
def test_pdfminer_reads_every_word_and_no_private_use_character(kits, code):
    text = _pdfminer_text(kits[code])
    assert not PRIVATE_USE.findall(text), f"{len(PRIVATE_USE.findall(text))} private-use characters"
    found = _words(" ".join(_logical(token) for token in text.split()))
    wanted = set().union(*(_words(q) for q in _questions(code)))
    assert len(wanted) > 20 and not wanted - found, sorted(wanted - found)[:10]


@pytest.mark.parametrize("code", ["ar", "hi"])
def test_pdfium_reads_no_private_use_character(kits, code):
    text = _pdfium_text(kits[code])
    assert not PRIVATE_USE.findall(text), f"{len(PRIVATE_USE.findall(text))} private-use characters"
    if code == "hi":  # PDFium reorders right-to-left lines by its own rules; Devanagari reads as written
        wanted = set().union(*(_words(q) for q in _questions(code)))
        found = "".join(text.split())
        missing = [w for w in wanted if w not in found]
        assert not missing, missing[:10]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext is not installed")
@pytest.mark.parametrize("code", ["ar", "hi"])
def test_pdftotext_reads_every_word_in_logical_order(kits, code):
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(kits[code]), "-"], capture_output=True,
                          check=True).stdout.decode("utf-8")
    assert not PRIVATE_USE.findall(text)
    found = _words(text)
    wanted = set().union(*(_words(q) for q in _questions(code)))
    assert not wanted - found, sorted(wanted - found)[:10]
