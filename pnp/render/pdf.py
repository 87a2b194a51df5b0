"""PDF backend (reportlab). The only module that converts millimetres to points.

The page's coordinate system is set to millimetres with y pointing down, so the IR is drawn as is.
Every page gets a TrimBox (and a BleedBox when there is bleed); the document sets the viewer
preference /PrintScaling /None and, for duplex kits, /Duplex. Output is deterministic
(reportlab's invariant mode: no timestamps, fixed document ID; SOURCE_DATE_EPOCH sets the date).

reportlab keeps every page in memory until the file is saved. So that memory stays flat for decks
of any size, a long document is written in chunks of CHUNK_PAGES pages, each a complete PDF, which
close() joins into the target with PyMuPDF (MuPDF copies page by page and writes deterministically).
"""
from __future__ import annotations

import os
import zlib
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream
from reportlab.pdfgen import canvas as rl_canvas

from ..errors import LayoutError
from ..fonts import CAP_HEIGHT, FONT_NAME, missing_glyphs, text_width_mm, ttfont
from ..ir import Circle, Group, Line, Page, Polygon, Rect, Text
from ..units import mm_to_pt

CHUNK_PAGES = 2000


@lru_cache(maxsize=256)
def _colour(hex_colour: str):
    return HexColor(hex_colour)


@lru_cache(maxsize=8192)
def _missing(text: str) -> list[str]:
    return missing_glyphs(text)


DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
PT_TO_MM_FONT = 25.4 / 72.0


def _box(box, page_h_mm: float):
    x, y, w, h = box
    return (mm_to_pt(x), mm_to_pt(page_h_mm - y - h), mm_to_pt(x + w), mm_to_pt(page_h_mm - y))


class PdfWriter:
    """Write Pages to one PDF file, page by page (a stream: nothing is kept after a page is drawn).

    Args:
        path: file to write (created on close()), or a binary file object (never chunked).
        title: document title metadata.
        duplex: "none", "long" or "short"; sets the /Duplex viewer preference.
    """

    def __init__(self, path, title: str = "", duplex: str = "none") -> None:
        ttfont()
        self.path, self.title, self.duplex = path, title, duplex
        self.chunks: list[Path] = []
        self.canvas = self._new_canvas(path)
        self.pages = 0
        self._state = [None, None, None, 0]  # fill, stroke, line width, text render mode
        self._stack: list[list] = []

    def _new_canvas(self, target):
        c = rl_canvas.Canvas(target if hasattr(target, "write") else str(target), invariant=1, pageCompression=1,
                             initialFontName=FONT_NAME)
        c.setTitle(self.title)
        c.setCreator("pnp")
        c.setProducer("pnp (reportlab)")
        c.setViewerPreference("PrintScaling", "None")
        if self.duplex in DUPLEX_PREF:
            c.setViewerPreference("Duplex", DUPLEX_PREF[self.duplex])
        return c

    def _chunk_path(self, i: int) -> Path:
        p = Path(self.path)
        return p.with_name(f".{p.name}.chunk{i:04d}")

    def _next_chunk(self) -> None:
        """Save the pages so far as a chunk and start a new one."""
        if not self.chunks:
            self.canvas.save()
            first = self._chunk_path(0)
            os.replace(self.path, first)
            self.chunks.append(first)
        else:
            self.canvas.save()
        nxt = self._chunk_path(len(self.chunks))
        self.chunks.append(nxt)
        self.canvas = self._new_canvas(nxt)

    def add(self, page: Page) -> None:
        """Draw one page."""
        if self.pages and self.pages % CHUNK_PAGES == 0 and not hasattr(self.path, "write"):
            self._next_chunk()
        c = self.canvas
        c.setPageSize((mm_to_pt(page.width), mm_to_pt(page.height)))
        c.setTrimBox(_box(page.trim_box or (0, 0, page.width, page.height), page.height))
        c.setBleedBox(_box(page.bleed_box, page.height) if page.bleed_box else None)
        c.saveState()
        c.translate(0, mm_to_pt(page.height))
        c.scale(mm_to_pt(1), -mm_to_pt(1))
        c.setLineCap(0)
        self._state = [None, None, None, 0]
        for shape in page.items:
            self._draw(shape)
        c.restoreState()
        c.showPage()
        self._compress_last_page()
        self.pages += 1

    def _compress_last_page(self) -> None:
        """Deflate the finished page's content stream now rather than when the file is saved, so a
        deck of any size keeps only compressed pages in memory (reportlab holds every page until save)."""
        page = self.canvas._doc.Pages.pages[-1]
        stream = getattr(page, "stream", None)
        if stream and not page.Contents:
            data = stream.encode("utf8") if isinstance(stream, str) else stream
            page.Contents = PDFStream(PDFDictionary({"Filter": PDFArray([PDFName("FlateDecode")])}),
                                      zlib.compress(data, 6))
            page.stream = None

    def close(self) -> None:
        """Finish and write the file (joining the chunks, if any)."""
        self.canvas.save()
        if self.chunks:
            try:
                _join(self.chunks, Path(self.path), self.title, self.duplex)
            finally:
                for chunk in self.chunks:
                    chunk.unlink(missing_ok=True)

    # -- shapes ---------------------------------------------------------------------------------
    # The graphics state is tracked here (and saved/restored with the canvas), so colours and line
    # widths are written only when they change: most shapes then cost one operator.
    def _save(self) -> None:
        self.canvas.saveState()
        self._stack.append(list(self._state))

    def _restore(self) -> None:
        self.canvas.restoreState()
        self._state = self._stack.pop()

    def _fill(self, colour: str) -> None:
        if self._state[0] != colour:
            self.canvas.setFillColor(_colour(colour))
            self._state[0] = colour

    def _stroke(self, colour: str, width: float) -> None:
        if self._state[1] != colour:
            self.canvas.setStrokeColor(_colour(colour))
            self._state[1] = colour
        if self._state[2] != width:
            self.canvas.setLineWidth(width)
            self._state[2] = width

    def _paint(self, fill, stroke, width) -> tuple[int, int]:
        if fill:
            self._fill(fill)
        if stroke and width > 0:
            self._stroke(stroke, width)
        return (1 if fill else 0), (1 if stroke and width > 0 else 0)

    def _draw(self, s) -> None:
        c = self.canvas
        if isinstance(s, Rect):
            fill, stroke = self._paint(s.fill, s.stroke, s.stroke_width)
            if fill or stroke:
                c.rect(s.x, s.y, s.w, s.h, stroke=stroke, fill=fill)
        elif isinstance(s, Circle):
            fill, stroke = self._paint(s.fill, s.stroke, s.stroke_width)
            if fill or stroke:
                c.circle(s.cx, s.cy, s.r, stroke=stroke, fill=fill)
        elif isinstance(s, Polygon):
            fill, stroke = self._paint(s.fill, s.stroke, s.stroke_width)
            path = c.beginPath()
            path.moveTo(*s.points[0])
            for pt in s.points[1:]:
                path.lineTo(*pt)
            path.close()
            c.drawPath(path, stroke=stroke, fill=fill)
        elif isinstance(s, Line):
            self._paint(None, s.stroke, s.stroke_width)
            if s.dash:
                c.setDash(list(s.dash), 0)
            c.line(s.x1, s.y1, s.x2, s.y2)
            if s.dash:
                c.setDash([], 0)
        elif isinstance(s, Text):
            self._text(s)
        elif isinstance(s, Group):
            if not (s.dx or s.dy or s.rotate or s.clip) and (s.sx, s.sy) == (1, 1):
                for child in s.children:
                    self._draw(child)
                return
            self._save()
            if s.dx or s.dy:
                c.translate(s.dx, s.dy)
            if s.rotate:
                c.rotate(s.rotate)
            if (s.sx, s.sy) != (1, 1):
                c.scale(s.sx, s.sy)
            if s.clip:
                path = c.beginPath()
                path.rect(*s.clip)
                c.clipPath(path, stroke=0, fill=0)
            for child in s.children:
                self._draw(child)
            self._restore()
        else:  # pragma: no cover - the IR is closed
            raise TypeError(f"unknown shape {type(s).__name__}")

    def _text(self, t: Text) -> None:
        missing = _missing(t.text)
        if missing:
            raise LayoutError(f"the text {t.text!r} uses {missing[0]!r} (U+{ord(missing[0]):04X}), which the "
                              "embedded font Noto Sans cannot draw.", field="text",
                              hint="use Latin, Greek or Cyrillic letters")
        c = self.canvas
        size = t.size_pt * PT_TO_MM_FONT
        width = text_width_mm(t.text, t.size_pt)
        x0 = {"start": 0.0, "middle": -width / 2, "end": -width}[t.anchor]
        shift = CAP_HEIGHT * size / 2 if t.valign == "middle" else 0.0
        rotated = bool(t.rotate)
        if rotated:
            self._save()
            c.translate(t.x, t.y)
            c.rotate(t.rotate)
            ox, oy = 0.0, 0.0
        else:
            ox, oy = t.x, t.y
        self._fill(t.fill)
        if t.underline:
            self._stroke(t.fill, size * 0.06)
            c.line(ox + x0, oy + shift + size * 0.12, ox + x0 + width, oy + shift + size * 0.12)
        if t.bold:  # Noto Sans ships as one variable font: bold is fill + a thin stroke (render mode 2)
            self._stroke(t.fill, size * 0.035)
        obj = c.beginText()
        obj.setTextTransform(1, 0, 0, -1, ox + x0, oy + shift)  # undo the page's y flip for glyphs
        obj.setFont(FONT_NAME, size)
        mode = 2 if t.bold else 0
        if self._state[3] != mode:
            # the render mode outlives the text object; reportlab only writes it when it differs from
            # the canvas's initial mode, so force it out whenever ours changes
            obj._textRenderMode = -1
            obj.setTextRenderMode(mode)
            self._state[3] = mode
        obj.textOut(t.text)
        c.drawText(obj)
        if rotated:
            self._restore()


def _join(chunks: list[Path], target: Path, title: str, duplex: str) -> None:
    """Concatenate chunk PDFs into ``target`` with PyMuPDF, keeping viewer preferences and the date."""
    import pymupdf
    out = pymupdf.open()
    date = ""
    for chunk in chunks:
        with pymupdf.open(chunk) as src:
            date = date or src.metadata.get("creationDate", "")
            out.insert_pdf(src)
    prefs = "/PrintScaling/None" + (f"/Duplex/{DUPLEX_PREF[duplex]}" if duplex in DUPLEX_PREF else "")
    out.xref_set_key(out.pdf_catalog(), "ViewerPreferences", f"<<{prefs}>>")
    out.set_metadata({"title": title, "creator": "pnp", "producer": "pnp (reportlab, PyMuPDF)",
                      "creationDate": date, "modDate": date})
    tmp = target.with_name(f".{target.name}.joined")
    out.save(tmp, garbage=1, deflate=True, no_new_id=True)
    out.close()
    os.replace(tmp, target)
