"""Shaped text in a PDF (pnp.render.pdf): a run HarfBuzz shapes (Arabic, Devanagari, ...) drawn with
reportlab's ``shapeStr`` and text objects, with marked-content spans whose /ActualText gives readers
the characters behind the shaped glyphs (PDF 32000-1, 14.9.4)."""
from __future__ import annotations

from reportlab.pdfbase.ttfonts import shapeStr

from ..core.fonts import shaped
from ..core.shaping import clusters


def draw_shaped(c, text: str, p, x: float, y: float) -> None:
    """On the reportlab canvas ``c`` (pnp.render.pdf.PdfWriter's, mm with y down), a shaped run:
    ``text`` placed at ``p`` (a pnp.render.base.TextPlacement), its pen starting at x, y (mm,
    baseline y), drawn with reportlab's ``shapeStr`` and text objects, left to right.

    The glyphs HarfBuzz chose (contextual forms, conjuncts, ligatures, marks) have no character
    of their own (reportlab maps them to private-use code points or presentation forms), so the
    glyphs of a cluster (pnp.core.shaping.clusters) whose glyphs are not its characters are a
    marked-content span whose /ActualText (PDF 32000-1, 14.9.4) is the cluster's characters, as
    Chromium writes shaped text: a reader copies and searches the words themselves. A
    right-to-left run is stored left to right as it is seen, as every PDF stores such text, and a
    reader (PDFium, poppler) puts it in logical order; there each word is one span (marked when
    one of its clusters is) whose ActualText is the word as seen, its characters reversed, since
    readers that join a word's clusters by their boxes read the gaps the marks leave as spaces.
    Other clusters whose glyphs are their characters are drawn together unmarked.
    """
    shown = shapeStr(text, p.font, p.size)
    glyphs = shaped(text, p.font)
    parts = clusters(glyphs, text) if len(glyphs) == len(shown) else [(0, len(shown), text, 0.0)]
    rtl = len(parts) > 1 and glyphs[parts[0][0]].cluster > glyphs[parts[-1][0]].cluster
    pieces: list[list] = []  # [first glyph, end glyph, characters, pen, marked]
    for start, end, chars, pen in parts:
        marked = str(shown[start:end]) != chars
        last = pieces[-1] if pieces else None
        if last and ((not marked and not last[4]) or
                     (rtl and not chars.isspace() and not last[2].isspace())):
            last[1], last[2], last[4] = end, (chars + last[2]) if rtl else (last[2] + chars), last[4] or marked
        else:
            pieces.append([start, end, chars, pen, marked])
    em = p.size / 1000.0
    for start, end, chars, pen, marked in pieces:
        run = c.beginText()
        run.setTextTransform(1, 0, 0, -1, x + pen * em, y)
        run.setFont(p.font, p.size)
        run.textOut(shown[start:end])
        if marked:  # a right-to-left word as it is seen: its characters reversed
            c.addLiteral(f"/Span <</ActualText {actual_text(chars[::-1] if rtl else chars)}>> BDC")
        c.drawText(run)
        if marked:
            c.addLiteral("EMC")


def actual_text(text: str) -> str:
    """``text`` as a PDF text string for a marked-content span's /ActualText: UTF-16BE with its byte
    order mark, written as a hexadecimal string (so no character needs escaping)."""
    return "<FEFF" + text.encode("utf-16-be").hex().upper() + ">"
