"""PDF backend (reportlab). The only module that converts millimetres to points.

The page's coordinate system is set to millimetres with y pointing down, so the IR is drawn as is.
Every page's TrimBox and BleedBox are its MediaBox: an imposed sheet is what the printer prints,
and its crop marks show where to cut (a TrimBox round the parts makes print filters such as CUPS's
pdftopdf scale or centre that box instead of the sheet: cards 133 % large, the scale bar off the
paper). The per-part trims stay in ``Page.placements``. The document sets the viewer
preference /PrintScaling /None and, for duplex kits, /Duplex. Output is deterministic
(reportlab's invariant mode: no timestamps, fixed document ID; SOURCE_DATE_EPOCH sets the date).

The whole document is one reportlab canvas. reportlab keeps every page until the file is saved, so
each page's content stream is deflated as soon as the page is finished (``_compress_last_page``):
a deck of 100,000 cards keeps only compressed pages in memory, and no join is needed.

Reuse: a ``Group`` with a ``key`` (pnp.core.ir) is drawn once per document as a Form
XObject (reportlab's ``beginForm``/``endForm``) and placed with ``doForm`` wherever the key appears
again: crop-mark sets, the scale bar, repeated card faces and backs, a deck's template furniture.
"""
from __future__ import annotations

import math
import zlib
from functools import lru_cache

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream
from reportlab.pdfgen import canvas as rl_canvas

from .. import __version__
from ..core.fonts import DEFAULT_FACE, FONT_NAME, ttfont
from ..core.ir import Circle, Group, Image, Line, Page, Polygon, Rect, Text
from ..core.units import mm_to_pt
from ..inputs.images import picture_bytes, svg_drawing
from .base import Renderer, place_image, place_text

FORM_FAR = 10_000.0  # mm: a form's bounding box reaches this far each way (no page reaches past it)


@lru_cache(maxsize=256)
def _colour_ops(hex_colour: str) -> tuple[str, str]:
    """The fill and stroke operators of a colour, as reportlab's setFillColor / setStrokeColor write
    an RGB colour ("r g b rg", "r g b RG")."""
    c = HexColor(hex_colour)
    rgb = fp_str(c.red, c.green, c.blue)
    return f"{rgb} rg", f"{rgb} RG"




def _turn_ops(x: float, y: float, degrees: float) -> str:
    """The operator reportlab writes for ``translate(x, y)`` then ``rotate(degrees)`` right after a
    ``q`` (it merges the two into one ``cm``, from the translation as written): built here without
    the canvas's state stack, for the rotated texts of a deck."""
    c, s = math.cos(degrees * math.pi / 180), math.sin(degrees * math.pi / 180)
    return f"q\n{fp_str(c, s, -s, c, float(fp_str(x)), float(fp_str(y)))} cm"


DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def _quarter_arcs() -> tuple:
    """reportlab's pdfgeom.bezierArc for a whole ellipse (start 0, extent 360), split as it splits
    it: four 90-degree arcs, each (cos, sin) of its start and end angle, with its kappa."""
    half = 90.0 * math.pi / 360.0
    kappa = abs(4.0 / 3.0 * (1.0 - math.cos(half)) / math.sin(half))
    arcs = []
    for i in range(4):
        t0, t1 = (i * 90.0) * math.pi / 180.0, ((i + 1) * 90.0) * math.pi / 180.0
        arcs.append((math.cos(t0), math.sin(t0), math.cos(t1), math.sin(t1)))
    return kappa, tuple(arcs)


_KAPPA, _ARCS = _quarter_arcs()


def circle_ops(cx: float, cy: float, r: float) -> list[str]:
    """The path operators (``n``, ``m`` and four ``c``) reportlab's ``canvas.circle(cx, cy, r)`` writes,
    byte for byte: the same arithmetic in the same order as its ellipse and bezierArc, without
    their per-call trigonometry and calls (a NetMatch board draws 448 circles; tests/render/test_reuse.py
    compares the strings with reportlab's own)."""
    x1, y1 = cx - r, cy - r                      # canvas.circle
    x2, y2 = x1 + ((cx + r) - x1), y1 + ((cy + r) - y1)  # canvas.ellipse -> PDFPathObject.ellipse
    x1, y1, x2, y2 = min(x1, x2), max(y1, y2), max(x1, x2), min(y1, y2)  # bezierArc
    x_cen, y_cen, rx, ry = (x1 + x2) / 2.0, (y1 + y2) / 2.0, (x2 - x1) / 2.0, (y2 - y1) / 2.0
    k = _KAPPA
    c0, s0 = _ARCS[0][0], _ARCS[0][1]
    ops = ["n", f"{fp_str(x_cen + rx * c0, y_cen - ry * s0)} m"]  # a path object starts with "n"
    for c0, s0, c1, s1 in _ARCS:
        ops.append(f"{fp_str(x_cen + rx * (c0 - k * s0), y_cen - ry * (s0 + k * c0), x_cen + rx * (c1 + k * s1), y_cen - ry * (s1 - k * c1), x_cen + rx * c1, y_cen - ry * s1)} c")
    return ops


def _box(box, page_h_mm: float):
    x, y, w, h = box
    return (mm_to_pt(x), mm_to_pt(page_h_mm - y - h), mm_to_pt(x + w), mm_to_pt(page_h_mm - y))


class PdfWriter(Renderer):
    """Write Pages to one PDF file, page by page (only each finished page's compressed content stream
    and the document's forms are kept until close()).

    Args:
        path: file to write (created on close()), or a binary file object.
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
        self.canvas = self._new_canvas(path)
        self.pages = 0
        self._state = [None, None, None, 0]  # fill, stroke, line width, text render mode
        self._stack: list[list] = []
        self.forms: dict[str, str] = {}  # Group.key -> name of its Form XObject in this document
        self.font = pdfmetrics.getFont(FONT_NAME)
        self._runs: dict = {}  # text (or (text, face)) -> [(subset font name, escaped bytes)]

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

    def add(self, page: Page) -> None:
        """Draw one page."""
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
        """Finish and write the file."""
        self.canvas.save()

    # -- shapes ---------------------------------------------------------------------------------
    # The graphics state is tracked here (and saved/restored with the canvas), so colours and line
    # widths are written only when they change: most shapes then cost one operator.
    # colours and widths go through addLiteral as the operators reportlab's setters write (cached
    # per colour): a deck's texts change colour at every text
    def _fill(self, colour: str) -> None:
        if self._state[0] != colour:
            self.canvas.addLiteral(_colour_ops(colour)[0])
            self._state[0] = colour

    def _stroke(self, colour: str, width: float) -> None:
        if self._state[1] != colour:
            self.canvas.addLiteral(_colour_ops(colour)[1])
            self._state[1] = colour
        if self._state[2] != width:
            self.canvas.addLiteral(f"{fp_str(width)} w")
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
        if fill or stroke:  # what canvas.circle writes (circle_ops), then its paint operator
            c = self.canvas
            c._code.extend(circle_ops(s.cx, s.cy, s.r))
            c._code.append(rl_canvas.PATH_OPS[stroke, fill, c._fillMode])

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
        if s.key is not None:
            self._place_form(s)
            return
        if not (s.dx or s.dy or s.rotate or s.clip) and (s.sx, s.sy) == (1, 1):
            self.draw_all(s.children)
            return
        self._open(s)
        self.draw_all(s.children)
        self._close()

    def _open(self, s: Group) -> None:
        """Save the state and set up a group's frame: its transform and clip. A frame that only moves
        and clips (every placed part) is written as the operators canvas.saveState, translate and
        clipPath write (``q``, ``1 0 0 1 dx dy cm``, ``n x y w h re W* n``), without the canvas's
        state stack; close with ``_close``."""
        c = self.canvas
        if s.rotate or (s.sx, s.sy) != (1, 1):
            c.saveState()
            self._stack.append(list(self._state) + [True])
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
            return
        ops = ["q"]
        if s.dx or s.dy:
            ops.append(f"{fp_str(1, 0, 0, 1, s.dx, s.dy)} cm")
        if s.clip:
            ops.append(f"n {fp_str(*s.clip)} re W* n")
        c.addLiteral("\n".join(ops))
        self._stack.append(list(self._state) + [False])

    def _close(self) -> None:
        """Restore the state saved by ``_open``."""
        *self._state, by_canvas = self._stack.pop()
        if by_canvas:
            self.canvas.restoreState()
        else:
            self.canvas.addLiteral("Q")

    def _place_form(self, s: Group) -> None:
        """Draw a keyed group: its content as a Form XObject (made at the key's first use) placed
        with the group's own transform and clip. ``Do`` saves and restores the graphics state around
        the form, so the tracked state (``_state``) is the same after it as before."""
        name = self.forms.get(s.key)
        if name is None:
            name = self._make_form(s)
        framed = bool(s.dx or s.dy or s.rotate or s.clip) or (s.sx, s.sy) != (1, 1)
        if framed:
            self._open(s)
        self.canvas.doForm(name)
        if framed:
            self._close()

    def _make_form(self, s: Group) -> str:
        """Record ``s``'s children, in the group's own mm coordinates, as a new Form XObject with a
        bounding box FORM_FAR mm each way (the group's clip is set where the form is placed, as for
        any group). The form sets every colour, width and text render mode it uses, because it
        inherits whatever state the page has where it is placed."""
        c = self.canvas
        name = self.forms[s.key] = f"pnp{len(self.forms)}"  # named first: a keyed group inside makes its own
        outer, self._state = self._state, [None, None, None, None]
        c.beginForm(name, -FORM_FAR, -FORM_FAR, FORM_FAR, FORM_FAR)
        self.draw_all(s.children)
        c.endForm()
        self._state = outer
        return name

    def _shown(self, text: str, size: float, face: str = DEFAULT_FACE) -> str:
        """The font and show operators of ``text`` at ``size`` (mm) in the registered face ``face``:
        per run of one font subset, "/F1+n SIZE Tf (bytes) Tj", as reportlab's PDFTextObject writes
        them for a TrueType font (the way reportlab's ttfonts documents for dynamic fonts); each face
        has its own subsets. Runs are kept per text and face (a word is drawn twice on a card; footers
        repeat) in a table emptied at 8,192 entries."""
        key = text if face == DEFAULT_FACE else (text, face)
        runs = self._runs.get(key)
        if runs is None:
            font, doc = (self.font if face == DEFAULT_FACE else ttfont(face)), self.canvas._doc
            runs = [(font.getSubsetInternalName(subset, doc), escapePDF(chunk))
                    for subset, chunk in font.splitString(text, doc)]
            if len(self._runs) >= 8192:
                self._runs.clear()
            self._runs[key] = runs
        size_s = fp_str(size)
        return " ".join(f"{name} {size_s} Tf ({chunk}) Tj" for name, chunk in runs)

    def image(self, s: Image) -> None:
        """A picture becomes a Form XObject once per document (a raster: its image at 1 x 1; SVG art:
        svglib's drawing, as vectors), made from the checked bytes and placed with doForm wherever it
        is used."""
        facts, (x, y, w, h) = place_image(s)
        c = self.canvas
        c.saveState()
        self._stack.append(list(self._state) + [True])  # closed by _close (canvas state)
        clip = c.beginPath()
        clip.rect(s.x, s.y, s.w, s.h)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(x, y + h)
        c.scale(1, -1)  # images are upright in PDF space; the page's y points down
        if facts.raster:  # a Form XObject of the image at 1 x 1, once per document, scaled to the box
            name = f"img{facts.sha256[:24]}"
            if not c.hasForm(name):
                from io import BytesIO

                from reportlab.lib.utils import ImageReader
                c.beginForm(name, 0, 0, 1, 1)
                c.drawImage(ImageReader(BytesIO(picture_bytes(facts))), 0, 0, 1, 1, mask="auto")
                c.endForm()
            c.scale(w, h)
            c.doForm(name)
        else:
            drawing = svg_drawing(facts)
            name = f"svg{facts.sha256[:24]}"
            if not c.hasForm(name):
                from reportlab.graphics import renderPDF
                c.beginForm(name, 0, 0, drawing.width, drawing.height)
                renderPDF.draw(drawing, c, 0, 0)
                c.endForm()
            c.scale(w / drawing.width, h / drawing.height)
            c.doForm(name)
        self._close()

    def text(self, t: Text) -> None:
        p = place_text(t)
        c = self.canvas
        rotated = bool(t.rotate)
        if rotated:  # q, the turned frame, ... Q: as canvas.saveState, translate, rotate and restoreState write them
            c.addLiteral(_turn_ops(t.x, t.y, t.rotate))
            outer = list(self._state)
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
        mode = 2 if p.bold_stroke else 0
        tr = ""
        if self._state[3] != mode:  # the render mode outlives the text object: written when ours changes
            tr = f" {mode} Tr"
            self._state[3] = mode
        # the text object as pre-built operators: the same BT ... ET reportlab's text object
        # writes, with the glyphs subset and encoded by reportlab (TTFont.splitString); the matrix
        # undoes the page's y flip for glyphs
        c.addLiteral(f"BT {fp_str(1, 0, 0, -1, ox + p.dx, oy + p.dy)} Tm{tr} {self._shown(t.text, p.size, t.font)} ET")
        if rotated:
            c.addLiteral("Q")
            self._state = outer

