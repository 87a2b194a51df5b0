"""The one place pnp reaches inside reportlab: what its public API does not offer.

``GlyphRuns``: a text object of reportlab's (``canvas.beginText``) costs more than the glyphs it
shows, and pnp draws a text per card face (twice per NetMatch card): with reportlab's text objects a
10,000-word NetMatch PDF takes about 1.25 times the CPU time it takes with these runs (measured side
by side, docs/performance.md).
So pnp.render.pdf writes each text's ``BT ... ET`` itself through the public ``canvas.addLiteral``,
with the glyphs subset and encoded by reportlab: ``TTFont.splitString`` and
``TTFont.getSubsetInternalName`` (reportlab's documented way for dynamic TrueType fonts) need the
canvas's document, ``canvas._doc``. tests/render/test_reuse.py checks the runs, read back from the
file, against what reportlab's own text object writes for the same texts.

``compress_last_page``: reportlab keeps every page of a canvas (its content stream as text) until
the document is saved, and deflates them only then. For a deck of 100,000 cards that is hundreds of
megabytes held for nothing, so pnp.render.pdf deflates each page's stream as soon as the page is
finished. This reads the canvas's document (``canvas._doc``: its page list and a page's ``stream``
and ``Contents``) and builds the compressed stream from reportlab's pdfdoc classes. Tested by
tests/render/test_reuse.py (the memory a writer holds for its finished pages; the PDF reads back)
against the installed reportlab; CI also runs the suite against the newest reportlab.
"""
from __future__ import annotations

import zlib

from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream


class GlyphRuns:
    """A text in a TrueType font (a registered reportlab TTFont) on one canvas's document, as runs of
    one font subset each: (the subset's font resource name, e.g. "/F1+0", the run's bytes escaped for a
    PDF string), registering the glyphs with the document's subsets as reportlab's text object does;
    the code reportlab gave each character is kept:
    a text whose characters all have a code in a font's first subset is encoded with one
    ``str.translate`` and reportlab's ``escapePDF``, without reportlab's per-character
    ``splitString`` loop (a 44-character line: about 10 us there); any other text goes through
    splitString, and the first subset's codes it shows are kept. reportlab never changes a code once
    it has assigned it in a document, and gives one byte per character, so both ways write the same
    bytes and leave the document's subsets as they are (tests/render/test_reuse.py); a result of
    splitString that is not one byte per character is not kept, and such texts always go through it.
    Per font (its reportlab ``fontName``): the characters known, the translation table (character ->
    its code, as a one-character str) and the first subset's resource name."""

    def __init__(self, canvas) -> None:
        self.canvas = canvas
        self._fonts: dict[str, tuple[set, dict, str]] = {}

    def __call__(self, font, text: str) -> list[tuple[str, str]]:
        """``text`` in the TrueType ``font`` as its runs of one subset each."""
        got = self._fonts.get(font.fontName)
        if got is not None and text and got[0].issuperset(text):
            return [(got[2], escapePDF(text.translate(got[1]).encode("latin-1")))]
        doc = self.canvas._doc
        split = font.splitString(text, doc)
        runs = [(font.getSubsetInternalName(subset, doc), escapePDF(chunk)) for subset, chunk in split]
        if sum(len(chunk) for _, chunk in split) == len(text):  # one byte per character: keep the codes
            at = 0
            for subset, chunk in split:
                if subset == 0:
                    if got is None:
                        got = self._fonts[font.fontName] = (set(), {}, font.getSubsetInternalName(0, doc))
                    known, table = got[0], got[1]
                    for ch, code in zip(text[at:at + len(chunk)], chunk):
                        known.add(ch)
                        table[ord(ch)] = chr(code)
                at += len(chunk)
        return runs


def compress_last_page(canvas) -> None:
    """Deflate the content stream of ``canvas``'s last finished page (call right after ``showPage``)
    in place; a page already compressed, or without a stream, is left as it is."""
    page = canvas._doc.Pages.pages[-1]
    stream = getattr(page, "stream", None)
    if stream and not page.Contents:
        data = stream.encode("utf8") if isinstance(stream, str) else stream
        page.Contents = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}),
                                  zlib.compress(data, 6))
        page.stream = None
