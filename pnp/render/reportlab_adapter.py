"""The one place pnp reaches inside reportlab: what its public API does not offer.

``compress_last_page``: reportlab keeps every page of a canvas (its content stream as text) until
the document is saved, and deflates them only then. For a deck of 100,000 cards that is hundreds of
megabytes held for nothing, so pnp.render.pdf deflates each page's stream as soon as the page is
finished. This reads the canvas's document (``canvas._doc``: its page list and a page's ``stream``
and ``Contents``) and builds the compressed stream from reportlab's pdfdoc classes. Tested by
tests/test_reuse.py (pages compressed as they are finished; the PDF reads back) against the installed
reportlab; CI also runs the suite against the newest reportlab.
"""
from __future__ import annotations

import zlib

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream


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
