"""PDF backend (reportlab). The only module that converts millimetres to points.

The page's coordinate system is set to millimetres with y pointing down, so the IR is drawn as is.
Every page's TrimBox and BleedBox are its MediaBox: an imposed sheet is what the printer prints,
and its crop marks show where to cut (a TrimBox round the parts makes print filters such as CUPS's
pdftopdf scale or centre that box instead of the sheet: cards 133 % large, the scale bar off the
paper). The per-part trims stay in ``Page.placements``. The document sets the viewer
preference /PrintScaling /None and, for duplex kits, /Duplex. Output is deterministic
(reportlab's invariant mode: no timestamps; SOURCE_DATE_EPOCH sets the date; the document ID is
derived from the content by pnp.render.pdfpost).

The whole document is one reportlab canvas. reportlab keeps every page until the file is saved, so
each page's content stream is deflated as soon as the page is finished
(pnp.render.reportlab_adapter.compress_last_page): a deck of 100,000 cards keeps only compressed
pages in memory, and no join is needed. A text is one ``BT ... ET`` written through the canvas's
``addLiteral``, its glyphs subset and encoded by reportlab (pnp.render.reportlab_adapter.GlyphRuns);
everything else is drawn through the canvas's public API. A text in a script that is shaped
(pnp.core.shaping: Arabic, Hebrew, Devanagari...) is drawn with reportlab's own shaping instead:
``shapeStr`` (HarfBuzz, through uharfbuzz) and text objects (``beginText``/``textOut``/``drawText``),
which place each glyph where HarfBuzz put it; a cluster whose glyphs have no character of their own
is a marked-content span with its /ActualText (``addLiteral``), so the text copies and searches.

Reuse: a ``Group`` with a ``key`` (pnp.core.ir) is drawn once per document as a Form
XObject (reportlab's ``beginForm``/``endForm``) and placed with ``doForm`` wherever the key appears
again: crop-mark sets, the scale bar, repeated card faces and backs, a deck's template furniture.

Fonts: every font is embedded, forms and SVG art included: the canvas's initial font is pnp's own
(``initialFontName``), an SVG drawing starts in it (its public ``initialFontName``), and a text in SVG
art set in one of PDF's standard 14 fonts (never embedded) is set in pnp's face instead.

Colour: with a press profile (``press``, pnp.colour) every colour the canvas sets is converted to
DeviceCMYK by reportlab's public ``enforceColorSpace`` hook (pnp.colour.convert: neutrals K only),
the text runs pnp writes itself carry no colour operator, and each raster picture is converted
once to a DeviceCMYK image (its alpha kept as a soft mask). The saved file then goes through
pnp.render.pdfpost (content-derived subset tags, always; PDF/X-4 with ``pdfx``).
"""
from __future__ import annotations

import copy
import math
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas as rl_canvas

from .. import __version__
from ..core.fonts import BOLD_FACE, DEFAULT_FACE, FONT_NAME, ttfont
from ..core.ir import Circle, Group, Image, Line, Page, Polygon, Rect, Text
from ..core.memo import memoised
from ..core.shaping import needs_shaping
from ..core.units import mm_to_pt
from ..inputs.images import picture_bytes, svg_drawing
from .base import Renderer, place_image, place_text
from .pdfpost import finish_pdf
from .pdfshaped import draw_shaped
from .reportlab_adapter import GlyphRuns, compress_last_page

FORM_FAR = 10_000.0  # mm: a form's bounding box reaches this far each way (no page reaches past it)


DUPLEX_PREF = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


@lru_cache(maxsize=256)
def _rgb(hex_colour: str) -> tuple[float, float, float]:
    """The red, green and blue of ``#rrggbb``, 0 to 1, as reportlab reads it (kept: a deck's texts
    change colour at every text). Set with setFillColorRGB: a colour object carries an alpha, which
    marks the PDF as version 1.4 (transparency) even when it is opaque."""
    c = HexColor(hex_colour)
    return c.red, c.green, c.blue


def _embedded_face(standard: str) -> str:
    """pnp's face (registered with reportlab) for a standard 14 font name: bold for a bold one, else
    the regular face."""
    name = BOLD_FACE if "Bold" in standard else DEFAULT_FACE
    ttfont(name)
    return name


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
        press: a pnp.colour.press.Press: every colour and picture in DeviceCMYK through its profile
            (None: sRGB colours as given, DeviceRGB).
        pdfx: make the file PDF/X-4 with ``press`` as its output intent (pnp.render.pdfpost).
    """

    def __init__(self, path, title: str = "", duplex: str = "none", author: str = "", subject: str = "",
                 keywords: str = "", part_boxes: bool = False, press=None, pdfx: bool = False) -> None:
        ttfont()
        if pdfx and press is None:
            raise ValueError("pdfx needs a press profile")
        self.path, self.title, self.duplex, self.part_boxes = path, title, duplex, part_boxes
        self.author, self.subject, self.keywords = author, subject, keywords
        self.press, self.pdfx = press, pdfx
        self.masks: dict = {}  # picture form name -> alpha (mode "L") of a picture drawn in CMYK
        # reportlab saves to ``path`` (pnp.render.pdfpost then replaces it), or, for a file object, to
        # memory (the pass writes the file object)
        self.buffer = BytesIO() if hasattr(path, "write") else None
        self.canvas = self._new_canvas(str(path) if self.buffer is None else self.buffer)
        self.pages = 0
        self._state = [None, None, None]  # fill, stroke, line width
        self._stack: list[list] = []
        self.forms: dict[str, str] = {}  # Group.key -> name of its Form XObject in this document
        self.font = pdfmetrics.getFont(FONT_NAME)
        self._runs: dict = {}  # text (or (text, face)) -> [(subset font name, escaped bytes)]
        self._glyphs = GlyphRuns(self.canvas)  # each character's code in this document, once assigned

    def _new_canvas(self, target):
        enforce = None
        if self.press is not None:
            from ..colour.convert import colour_enforcer  # the ICC machinery: only a CMYK build
            enforce = colour_enforcer(self.press)
        c = rl_canvas.Canvas(target, invariant=1, pageCompression=1, initialFontName=FONT_NAME,
                             enforceColorSpace=enforce)
        c.setTitle(self.title)
        c.setAuthor(self.author)  # never reportlab's default, "anonymous": no designer named, no author
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
        self._state = [None, None, None]
        self.draw_all(page.items)
        c.restoreState()
        c.showPage()
        compress_last_page(c)
        self.pages += 1

    def close(self) -> None:
        """Finish and write the file (through pnp.render.pdfpost)."""
        self.canvas.save()
        # reportlab's document (every page, font and form) is no longer needed: let it go before the
        # pass holds the file's objects (a 100,000-card deck: tens of MiB)
        self.canvas = self._glyphs = None
        self._runs.clear()
        if self.buffer is None:
            finish_pdf(Path(self.path), press=self.press, pdfx=self.pdfx, masks=self.masks)
        else:
            data, self.buffer = self.buffer.getvalue(), None
            finish_pdf(data, self.path, press=self.press, pdfx=self.pdfx, masks=self.masks)

    # -- shapes ---------------------------------------------------------------------------------
    # The graphics state is tracked here (and saved/restored with the canvas), so colours and line
    # widths are written only when they change: most shapes then cost one operator.
    def _fill(self, colour: str) -> None:
        if self._state[0] != colour:
            self.canvas.setFillColorRGB(*_rgb(colour))
            self._state[0] = colour

    def _stroke(self, colour: str, width: float) -> None:
        if self._state[1] != colour:
            self.canvas.setStrokeColorRGB(*_rgb(colour))
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
        c.drawPath(path, stroke=stroke, fill=fill, fillMode=rl_canvas.FILL_NON_ZERO)  # as SVG fills it

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
        if not (s.dx or s.dy or s.rotate or s.clip or s.clip_path) and (s.sx, s.sy) == (1, 1):
            self.draw_all(s.children)
            return
        self._open(s)
        self.draw_all(s.children)
        self._close()

    def _open(self, s: Group) -> None:
        """Save the state and set up a group's frame: its transform and clip; close with ``_close``."""
        c = self.canvas
        c.saveState()
        self._stack.append(list(self._state))
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
        if s.clip_path:
            path = c.beginPath()
            path.moveTo(*s.clip_path[0])
            for point in s.clip_path[1:]:
                path.lineTo(*point)
            path.close()
            # the nonzero rule, as SVG's clip-rule: a grown outline whose moved sides cross over a narrow
            # notch (a standee's slot, pnp.core.outline.grow) still clips the crossing in; even-odd cuts it out
            c.clipPath(path, stroke=0, fill=0, fillMode=rl_canvas.FILL_NON_ZERO)

    def _close(self) -> None:
        """Restore the state saved by ``_open``."""
        self._state = self._stack.pop()
        self.canvas.restoreState()

    def _place_form(self, s: Group) -> None:
        """Draw a keyed group: its content as a Form XObject (made at the key's first use) placed
        with the group's own transform and clip. ``Do`` saves and restores the graphics state around
        the form, so the tracked state (``_state``) is the same after it as before."""
        name = self.forms.get(s.key)
        if name is None:
            name = self._make_form(s)
        framed = bool(s.dx or s.dy or s.rotate or s.clip or s.clip_path) or (s.sx, s.sy) != (1, 1)
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
        outer, self._state = self._state, [None, None, None]
        c.beginForm(name, -FORM_FAR, -FORM_FAR, FORM_FAR, FORM_FAR)
        self.draw_all(s.children)
        c.endForm()
        self._state = outer
        return name

    def _shown(self, text: str, size: float, face: str = DEFAULT_FACE) -> str:
        """The font and show operators of ``text`` at ``size`` (mm) in the registered face ``face``:
        per run of one font subset, "/F1+n SIZE Tf (bytes) Tj", as reportlab's text object writes
        them for a TrueType font; each face has its own subsets. Runs are kept per text and face (a
        word is drawn twice on a card; footers repeat) in a table emptied at 8,192 entries."""
        key = text if face == DEFAULT_FACE else (text, face)
        runs = self._runs.get(key)
        if runs is None:
            runs = self._glyphs(self.font if face == DEFAULT_FACE else ttfont(face), text)
            if len(self._runs) >= 8192:
                self._runs.clear()
            self._runs[key] = runs
        size_s = fp_str(size)
        if len(runs) == 1:  # the usual text: one subset's run
            name, chunk = runs[0]
            return f"{name} {size_s} Tf ({chunk}) Tj"
        return " ".join(f"{name} {size_s} Tf ({chunk}) Tj" for name, chunk in runs)

    def image(self, s: Image) -> None:
        """A picture becomes a Form XObject once per document (a raster: its image at 1 x 1; SVG art:
        svglib's drawing, as vectors), made from the checked bytes and placed with doForm wherever it
        is used."""
        facts, (x, y, w, h) = place_image(s)
        c = self.canvas
        c.saveState()
        self._stack.append(list(self._state))  # closed by _close
        clip = c.beginPath()
        clip.rect(s.x, s.y, s.w, s.h)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(x, y + h)
        c.scale(1, -1)  # images are upright in PDF space; the page's y points down
        if facts.raster:  # a Form XObject of the image at 1 x 1, once per document, scaled to the box
            name = f"img{facts.sha256[:24]}"
            if not c.hasForm(name):
                from reportlab.lib.utils import ImageReader
                c.beginForm(name, 0, 0, 1, 1)
                c.drawImage(self._reader(name, facts, ImageReader), 0, 0, 1, 1, mask="auto")
                c.endForm()
            c.scale(w, h)
            c.doForm(name)
        else:
            drawing = svg_drawing(facts)
            name = f"svg{facts.sha256[:24]}"
            if not c.hasForm(name):
                from reportlab.graphics import renderPDF  # reportlab's graphics: only a PDF with SVG art
                drawing = self._svg_art(drawing)
                c.beginForm(name, 0, 0, drawing.width, drawing.height)
                renderPDF.draw(drawing, c, 0, 0)
                c.endForm()
            c.scale(w / drawing.width, h / drawing.height)
            c.doForm(name)
        self._close()

    def _reader(self, name: str, facts, reader):
        """reportlab's ImageReader of the checked raster ``facts``; in `pnp watch` (pnp.core.memo, sRGB
        only) one per picture content, kept decoded between builds (it keeps its pixels once read)."""
        if self.press is not None:
            return reader(self._picture(name, picture_bytes(facts)))
        w, h = facts.size
        return memoised("pdf picture", facts.sha256, lambda: reader(BytesIO(picture_bytes(facts))),
                        lambda _r: int(w * h * 8) + 4096, share=0.9)

    def _picture(self, name: str, data: bytes):
        """The picture to draw for the checked bytes ``data``: as they are (sRGB), or with a press
        profile a CMYK PIL image whose alpha is kept in ``masks[name]`` for the soft mask."""
        if self.press is None:
            return BytesIO(data)
        from PIL import Image  # Pillow: imported when first needed, never at start-up

        from ..colour.convert import cmyk_picture  # the ICC machinery: only a CMYK build
        with Image.open(BytesIO(data)) as im:
            im.load()
            image, alpha = cmyk_picture(self.press, im)
        if alpha is not None and alpha.getextrema() != (255, 255):
            self.masks[name] = alpha
        return image

    def _svg_art(self, drawing):
        """``drawing`` (svglib's) ready to draw: it starts in pnp's font, and text in a standard 14
        font (never embedded) is set in pnp's regular or bold face; with a press profile, its raster
        pictures are converted to CMYK (on a copy: the drawing is shared)."""
        # reportlab's graphics: only a PDF with SVG art
        from reportlab.graphics.shapes import Group as RlGroup, Image as RlImage, String

        if self.press is not None:  # Drawing.copy() shares the children
            drawing = copy.deepcopy(drawing)
        drawing.initialFontName = FONT_NAME
        standard = set(pdfmetrics.standardFonts)

        def visit(node):
            for child in getattr(node, "contents", ()):
                if isinstance(child, RlGroup):
                    visit(child)
                elif isinstance(child, String) and child.fontName in standard:
                    child.fontName = _embedded_face(child.fontName)
                elif isinstance(child, RlImage) and self.press is not None:
                    child.path = self._svg_picture(child.path)
        visit(drawing)
        return drawing

    def _svg_picture(self, source):
        """A raster picture inside SVG art (a file name or PIL image, as svglib gives it) in CMYK,
        composited onto white where it is transparent (reportlab draws no soft mask for it)."""
        from PIL import Image  # Pillow: imported when first needed, never at start-up

        from ..colour.convert import cmyk_picture  # the ICC machinery: only a CMYK build
        im = source if isinstance(source, Image.Image) else Image.open(source)
        image, alpha = cmyk_picture(self.press, im)
        if alpha is not None:
            image = Image.composite(image, Image.new("CMYK", image.size, 0), alpha)
        return image

    def text(self, t: Text) -> None:
        p = place_text(t)
        shaped = needs_shaping(t.text)
        if t.rotate and not shaped:
            self._turned_text(t, p)
            return
        c = self.canvas
        rotated = bool(t.rotate)
        if rotated:
            c.saveState()
            c.translate(t.x, t.y)
            c.rotate(t.rotate)
            outer = list(self._state)
            ox, oy = 0.0, 0.0
        else:
            ox, oy = t.x, t.y
        self._fill(t.fill)
        if p.underline:
            x1, x2, uy, thick = p.underline
            self._stroke(t.fill, thick)
            c.line(ox + x1, oy + uy, ox + x2, oy + uy)
        # the text object reportlab's beginText/textOut would write (the matrix undoes the page's y
        # flip for glyphs), with the glyph runs from reportlab (pnp.render.reportlab_adapter); bold
        # text is set in the bold face (p.font), filled like any text (render mode 0, never changed)
        if shaped:  # reportlab's own shaping (HarfBuzz) and text object: glyphs placed as shaped
            draw_shaped(c, t.text, p, ox + p.dx, oy + p.dy)
        else:
            c.addLiteral(f"BT {fp_str(1, 0, 0, -1, ox + p.dx, oy + p.dy)} Tm {self._shown(t.text, p.size, p.font)} ET")
        if rotated:
            c.restoreState()
            self._state = outer

    def _turned_text(self, t: Text, p) -> None:
        """A turned text that needs no shaping, with its turn in the text matrix itself: the matrix of
        translate(x, y), rotate(t.rotate) and the glyphs' y flip multiplied out, so no graphics state is
        saved or transformed (the same marks as a turned frame; an underline's ends turned alike)."""
        c = self.canvas
        cos, sin = _turn(t.rotate)
        self._fill(t.fill)
        if p.underline:
            x1, x2, uy, thick = p.underline
            self._stroke(t.fill, thick)
            c.line(t.x + cos * x1 - sin * uy, t.y + sin * x1 + cos * uy,
                   t.x + cos * x2 - sin * uy, t.y + sin * x2 + cos * uy)
        e, f = t.x + cos * p.dx - sin * p.dy, t.y + sin * p.dx + cos * p.dy
        c.addLiteral(f"BT {fp_str(cos, sin, sin, -cos, e, f)} Tm {self._shown(t.text, p.size, p.font)} ET")


@lru_cache(maxsize=64)
def _turn(degrees: float) -> tuple[float, float]:
    """The cosine and sine of a clockwise turn of ``degrees`` on the page (y down), as reportlab's
    ``rotate`` takes them; exact for quarter turns."""
    quarter = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}.get(degrees % 360.0)
    if quarter is not None:
        return quarter
    return math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
