"""PDF backend (reportlab). The only module that converts millimetres to points.

The page's coordinate system is set to millimetres with y pointing down, so the IR is drawn as is.
Every page gets a TrimBox (and a BleedBox when there is bleed); the document sets the viewer
preference /PrintScaling /None and, for duplex kits, /Duplex. Output is deterministic
(reportlab's invariant mode: no timestamps, fixed document ID).
"""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen import canvas as rl_canvas

from ..fonts import CAP_HEIGHT, FONT_NAME, text_width_mm, ttfont
from ..ir import Circle, Group, Line, Page, Polygon, Rect, Text
from ..units import mm_to_pt
from functools import lru_cache


@lru_cache(maxsize=256)
def _colour(hex_colour: str):
    return HexColor(hex_colour)

DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
PT_TO_MM_FONT = 25.4 / 72.0


def _box(box, page_h_mm: float):
    x, y, w, h = box
    return (mm_to_pt(x), mm_to_pt(page_h_mm - y - h), mm_to_pt(x + w), mm_to_pt(page_h_mm - y))


class PdfWriter:
    """Write Pages to one PDF file, page by page (a stream: nothing is kept after a page is drawn).

    Args:
        path: file to write (created on close()), or a binary file object.
        title: document title metadata.
        duplex: "none", "long" or "short"; sets the /Duplex viewer preference.
    """

    def __init__(self, path, title: str = "", duplex: str = "none") -> None:
        ttfont()
        self.canvas = rl_canvas.Canvas(path if hasattr(path, "write") else str(path), invariant=1, pageCompression=1, initialFontName=FONT_NAME)
        self.canvas.setTitle(title)
        self.canvas.setCreator("pnp")
        self.canvas.setProducer("pnp (reportlab)")
        self.canvas.setViewerPreference("PrintScaling", "None")
        if duplex in DUPLEX_PREF:
            self.canvas.setViewerPreference("Duplex", DUPLEX_PREF[duplex])
        self.pages = 0
        self._state = [None, None, None, 0]  # fill, stroke, line width, text render mode
        self._stack: list[list] = []

    def add(self, page: Page) -> None:
        """Draw one page."""
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
        self.pages += 1

    def close(self) -> None:
        """Finish and write the file."""
        self.canvas.save()

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
        mode = 2 if t.bold else 0
        if t.bold:
            self._stroke(t.fill, size * 0.035)
        obj = c.beginText()
        obj.setTextTransform(1, 0, 0, -1, ox + x0, oy + shift)  # undo the page's y flip for glyphs
        obj.setFont(FONT_NAME, size)
        if self._state[3] != mode:
            obj.setTextRenderMode(mode)
            self._state[3] = mode
        obj.textOut(t.text)
        c.drawText(obj)
        if rotated:
            self._restore()
