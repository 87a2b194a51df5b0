"""PDF backend (reportlab). The only module that converts millimetres to points.

The page's coordinate system is set to millimetres with y pointing down, so the IR is drawn as is.
Every page's TrimBox and BleedBox are its MediaBox: an imposed sheet is what the printer prints,
and its crop marks show where to cut (a TrimBox round the parts makes print filters such as CUPS's
pdftopdf scale or centre that box instead of the sheet: cards 133 % large, the scale bar off the
paper). The per-part trims stay in ``Page.placements``. The document sets the viewer
preference /PrintScaling /None and, for duplex kits, /Duplex. Output is deterministic
(reportlab's invariant mode: no timestamps, fixed document ID; SOURCE_DATE_EPOCH sets the date).

reportlab keeps every page in memory until the file is saved. So that memory stays flat for decks
of any size, a long document is written in chunks of CHUNK_PAGES pages, each a complete PDF, which
close() joins into the target with pikepdf (qpdf copies page by page and writes deterministically).
"""
from __future__ import annotations

import os
import zlib
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream
from reportlab.pdfgen import canvas as rl_canvas

from .. import __version__
from ..core.fonts import FONT_NAME, ttfont
from ..core.ir import Circle, Group, Image, Line, Page, Polygon, Rect, Text
from ..core.units import mm_to_pt
from ..inputs.images import svg_drawing
from .base import Renderer, place_image, place_text

CHUNK_PAGES = 2000


@lru_cache(maxsize=256)
def _colour(hex_colour: str):
    return HexColor(hex_colour)


DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def _box(box, page_h_mm: float):
    x, y, w, h = box
    return (mm_to_pt(x), mm_to_pt(page_h_mm - y - h), mm_to_pt(x + w), mm_to_pt(page_h_mm - y))


class PdfWriter(Renderer):
    """Write Pages to one PDF file, page by page (a stream: nothing is kept after a page is drawn).

    Args:
        path: file to write (created on close()), or a binary file object (never chunked).
        title, author, subject, keywords: document metadata.
        duplex: "none", "long" or "short"; sets the /Duplex viewer preference.
        part_boxes: write each page's own ``trim_box`` / ``bleed_box`` as its TrimBox / BleedBox: for
            files of one part per page (print-on-demand cards), never for imposed sheets.
    """

    def __init__(self, path, title: str = "", duplex: str = "none", author: str = "", subject: str = "",
                 keywords: str = "", part_boxes: bool = False) -> None:
        ttfont()
        self.path, self.title, self.duplex, self.part_boxes = path, title, duplex, part_boxes
        self.author, self.subject, self.keywords = author, subject, keywords
        self.chunks: list[Path] = []
        self.canvas = self._new_canvas(path)
        self.pages = 0
        self._state = [None, None, None, 0]  # fill, stroke, line width, text render mode
        self._stack: list[list] = []

    def _new_canvas(self, target):
        c = rl_canvas.Canvas(target if hasattr(target, "write") else str(target), invariant=1, pageCompression=1,
                             initialFontName=FONT_NAME)
        c.setTitle(self.title)
        if self.author:
            c.setAuthor(self.author)
        if self.subject:
            c.setSubject(self.subject)
        if self.keywords:
            c.setKeywords(self.keywords)
        c.setCreator(f"pnp {__version__}")
        c.setProducer(f"pnp {__version__} (reportlab)")
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
        sheet = (0, 0, page.width, page.height)
        if self.part_boxes:  # one part per page: its trim and bleed
            c.setTrimBox(_box(page.trim_box or sheet, page.height))
            c.setBleedBox(_box(page.bleed_box or sheet, page.height))
        else:  # an imposed sheet: the sheet, never the block of parts (see the module docstring)
            c.setTrimBox(_box(sheet, page.height))
            c.setBleedBox(_box(sheet, page.height))
        c.saveState()
        c.translate(0, mm_to_pt(page.height))
        c.scale(mm_to_pt(1), -mm_to_pt(1))
        c.setLineCap(0)
        self._state = [None, None, None, 0]
        self.draw_all(page.items)
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

    # -- shapes (one method per IR shape; see base.Renderer) ------------------------------------
    def rect(self, s: Rect) -> None:
        fill, stroke = self._paint(s.fill, s.stroke, s.stroke_width)
        if (fill or stroke) and s.r > 0:
            self.canvas.roundRect(s.x, s.y, s.w, s.h, s.r, stroke=stroke, fill=fill)
        elif fill or stroke:
            self.canvas.rect(s.x, s.y, s.w, s.h, stroke=stroke, fill=fill)

    def circle(self, s: Circle) -> None:
        fill, stroke = self._paint(s.fill, s.stroke, s.stroke_width)
        if fill or stroke:
            self.canvas.circle(s.cx, s.cy, s.r, stroke=stroke, fill=fill)

    def polygon(self, s: Polygon) -> None:
        c = self.canvas
        fill, stroke = self._paint(s.fill, s.stroke, s.stroke_width)
        path = c.beginPath()
        path.moveTo(*s.points[0])
        for pt in s.points[1:]:
            path.lineTo(*pt)
        path.close()
        c.drawPath(path, stroke=stroke, fill=fill)

    def line(self, s: Line) -> None:
        c = self.canvas
        self._paint(None, s.stroke, s.stroke_width)
        if s.dash:
            c.setDash(list(s.dash), 0)
        c.line(s.x1, s.y1, s.x2, s.y2)
        if s.dash:
            c.setDash([], 0)

    def group(self, s: Group) -> None:
        if not (s.dx or s.dy or s.rotate or s.clip) and (s.sx, s.sy) == (1, 1):
            self.draw_all(s.children)
            return
        c = self.canvas
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
        self.draw_all(s.children)
        self._restore()

    def image(self, s: Image) -> None:
        """A raster is drawn with drawImage (reportlab keeps one image XObject per document for the
        same bytes); an SVG becomes a Form XObject once per document (svglib's drawing, as vectors)
        and is placed with doForm wherever it is used."""
        facts, (x, y, w, h) = place_image(s)
        c = self.canvas
        self._save()
        clip = c.beginPath()
        clip.rect(s.x, s.y, s.w, s.h)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(x, y + h)
        c.scale(1, -1)  # images are upright in PDF space; the page's y points down
        if facts.raster:
            c.drawImage(str(facts.path), 0, 0, w, h, mask="auto")
        else:
            drawing = svg_drawing(facts.path, facts.sha256)
            name = f"svg{facts.sha256[:24]}"
            if not c.hasForm(name):
                from reportlab.graphics import renderPDF
                c.beginForm(name, 0, 0, drawing.width, drawing.height)
                renderPDF.draw(drawing, c, 0, 0)
                c.endForm()
            c.scale(w / drawing.width, h / drawing.height)
            c.doForm(name)
        self._restore()

    def text(self, t: Text) -> None:
        p = place_text(t)
        c = self.canvas
        rotated = bool(t.rotate)
        if rotated:
            self._save()
            c.translate(t.x, t.y)
            c.rotate(t.rotate)
            ox, oy = 0.0, 0.0
        else:
            ox, oy = t.x, t.y
        self._fill(t.fill)
        if p.underline:
            x1, x2, uy, thick = p.underline
            self._stroke(t.fill, thick)
            c.line(ox + x1, oy + uy, ox + x2, oy + uy)
        if p.bold_stroke:  # Noto Sans ships as one variable font: bold is fill + a thin stroke (render mode 2)
            self._stroke(t.fill, p.bold_stroke)
        obj = c.beginText()
        obj.setTextTransform(1, 0, 0, -1, ox + p.dx, oy + p.dy)  # undo the page's y flip for glyphs
        obj.setFont(FONT_NAME, p.size)
        mode = 2 if p.bold_stroke else 0
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
    """Concatenate chunk PDFs into ``target`` with pikepdf (qpdf; MPL-2.0), keeping the first chunk's
    catalog (viewer preferences), document info and date; written deterministically."""
    import pikepdf
    tmp = target.with_name(f".{target.name}.joined")
    with pikepdf.open(chunks[0]) as out:
        sources = [pikepdf.open(chunk) for chunk in chunks[1:]]
        try:
            for src in sources:
                out.pages.extend(src.pages)
            out.save(tmp, deterministic_id=True, compress_streams=True,
                     object_stream_mode=pikepdf.ObjectStreamMode.preserve)
        finally:
            for src in sources:
                src.close()
    os.replace(tmp, target)
