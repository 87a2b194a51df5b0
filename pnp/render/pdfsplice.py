"""A kit's PDF in `pnp watch`: only the pages whose content changed are drawn again.

The previous build's finished PDF (its bytes, never the file on disk, which is untrusted) and the
content key of each of its pages are kept in the watch process (pnp.core.memo, kind ``pdf kit``,
keyed by the document: its file stem and the writer's options). A page's key is pnp.render.pagememo's
(the page's full description, the bytes of its fonts and pictures) with the document's key. On the
next build each page whose key the kept PDF holds is not drawn: its page object is taken from the
kept PDF; the others are drawn by pnp.render.pdf into a PDF of their own, and pikepdf (MPL-2.0,
public API) assembles the new document from the kept document's catalog and information (the same
options, so the same), its reused pages with the fonts, forms and pictures they reference, and the
newly drawn pages with theirs, in the new order; objects no page uses any more are left out when it
is saved (pnp.render.pdfpost's save options: streams copied as they are, a content-derived ID).

Each page of the result is drawn by exactly the operators a fresh build draws it with, so it looks
the same and holds the same text (tests/pipeline/test_watch_splice.py renders both and compares
pixels, and reads the text back); the file's bytes differ from a fresh build's (the font subsets are
split differently). A page drawing SVG art has no key and is always drawn. A build with a press
profile (CMYK, PDF/X) draws the whole document.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from ..core.ir import Page
from ..core.memo import active, digest
from ..core.safepath import write_bytes
from .pagememo import FontStamps, page_key
from .pdf import PdfWriter
from .pdfpost import save_options

KIND = "pdf kit"


@dataclass(frozen=True)
class KeptPdf:
    """A finished PDF's ``data`` and the content key of each of its pages (None: never reused)."""
    data: bytes
    keys: tuple[str | None, ...]


class SplicingPdfWriter:
    """PdfWriter's ``add``/``close`` for the file ``root/name``, reusing the pages of the PDF kept by
    the memo in use under the same document key (see the module docstring); ``kwargs`` are
    PdfWriter's (metadata and duplex; no press profile). ``drawn`` counts the pages drawn, ``reused``
    those taken from the kept PDF."""

    def __init__(self, root: Path, name: str, **kwargs) -> None:
        if kwargs.get("press") is not None:
            raise ValueError("a PDF with a press profile is drawn whole")
        self.root, self.name = root, name
        self.doc = digest("pdf document", name, repr(sorted(kwargs.items())))
        memo = active()
        self.kept: KeptPdf | None = memo.find(KIND, self.doc) if memo is not None else None
        self.free: dict[str, list[int]] = defaultdict(list)  # key -> kept pages not yet reused
        for index, key in enumerate(self.kept.keys if self.kept else ()):
            if key is not None:
                self.free[key].append(index)
        self.buffer = BytesIO()
        self.fresh = PdfWriter(self.buffer, **kwargs)
        self.fonts = FontStamps()
        self.order: list[tuple[bool, int]] = []  # per page: (True, kept index) or (False, drawn index)
        self.keys: list[str | None] = []
        self.drawn = self.reused = 0

    def add(self, page: Page) -> None:
        """Take one page: reused from the kept PDF when its key is there (each kept page once), else drawn."""
        key = page_key(page, self.fonts, self.doc)
        self.keys.append(key)
        spare = self.free.get(key) if key is not None else None
        if spare:
            self.order.append((True, spare.pop(0)))
            self.reused += 1
            return
        self.fresh.add(page)
        self.order.append((False, self.drawn))
        self.drawn += 1

    def close(self) -> None:
        """Write the file (through pnp.core.safepath) and keep it in the memo for the next build."""
        if self.drawn or not self.order:
            self.fresh.close()
        self.fresh = None
        if self.reused:
            data = self._splice(self.buffer.getvalue() if self.drawn else None)
        else:  # nothing reused: the document as a plain build writes it
            data = self.buffer.getvalue()
        self.buffer = None
        write_bytes(self.root, self.name, data)
        memo = active()
        if memo is not None:
            memo.count("pdf page", made=self.drawn, reused=self.reused)
            memo.keep(KIND, self.doc, KeptPdf(data, tuple(self.keys)), len(data) + 64 * len(self.keys))

    def _splice(self, drawn: bytes | None) -> bytes:
        """The kept document with its pages replaced by ``order``'s: kept pages and newly ``drawn`` ones."""
        import pikepdf  # pikepdf: imported when first needed, never at start-up
        with pikepdf.open(BytesIO(self.kept.data)) as base:
            new = pikepdf.open(BytesIO(drawn)) if drawn is not None else None
            try:
                old = list(base.pages)
                del base.pages[:]
                for from_kept, index in self.order:
                    base.pages.append(old[index] if from_kept else new.pages[index])
                out = BytesIO()
                base.save(out, **save_options())
            finally:
                if new is not None:
                    new.close()
        return out.getvalue()
