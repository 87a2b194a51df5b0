"""Fitted text drawn (pnp.text): each line as ``ir.Text`` runs and ``ir.Image`` icons, aligned in its
box, with an underline where asked. Lengths in mm, sizes in points."""
from __future__ import annotations

from ..core.fonts import DEFAULT_FACE, styled_face, text_width_mm
from ..core.ir import Image, Line as Rule, Text
from ..core.shaping import needs_shaping
from ..core.units import MM_PER_PT
from ..core.shaping import has_rtl
from .fitting import Fitted, plain_lines
from .lines import Line, icon_size, needs_runs
from .markup import Span

def draw_line(line: Line, x: float, baseline: float, size_pt: float, fill: str) -> list:
    """The shapes of one line whose start is at ``x`` and baseline at ``baseline`` (mm): a Text
    (anchor start, the span's face, bold as Text.bold; spaces at its ends left out, the glyphs where
    they were; its ``width`` the advance of what it draws, mm) per text run and an Image per icon,
    its bottom on the baseline."""
    out: list = []
    for dx, span in line.pieces:
        if span.icon is not None:
            adv, w, h = icon_size(span, size_pt)
            out.append(Image(x + dx + (adv - w) / 2, baseline - h, w, h, span.icon.src, "contain", root=span.icon.root))
        elif span.text.strip() and needs_shaping(span.text):  # shaped as a whole run, spaces and all
            out.append(Text(x + dx, baseline, span.text, size_pt=size_pt, fill=fill, bold=span.bold, font=span.font,
                            width=text_width_mm(span.text, size_pt, span.drawn)))
        elif span.text.strip():  # leading spaces become an offset: no viewer can collapse them
            text = span.text.lstrip(" ")
            skip = text_width_mm(span.text[:len(span.text) - len(text)], size_pt, span.drawn) if len(text) < len(
                span.text) else 0.0
            text = text.rstrip(" ")
            if len(line.pieces) == 1 and text is span.text:  # the line's own width: one run, no space trimmed
                wide = line.width
            else:
                wide = text_width_mm(text, size_pt, span.drawn)
            out.append(Text(x + dx + skip, baseline, text, size_pt=size_pt, fill=fill, bold=span.bold,
                            font=span.font, width=wide))
    return out


def whole(line: Line) -> Span | None:
    """The one span of ``line`` when it can be drawn as one Text of its whole text, spaces and all, at
    any anchor (a Latin run: no icon, not shaped, not right to left); else None (pnp.text.draw_line
    draws it). The line's ``width`` is that Text's width."""
    if len(line.pieces) != 1 or line.rtl:
        return None
    span = line.pieces[0][1]
    if span.icon is not None or not (span.text.isascii() or not (needs_shaping(span.text) or has_rtl(span.text))):
        return None
    return span


UNDERLINE_DROP = 0.12    # an underline: this fraction of the size below the baseline
UNDERLINE_WIDTH = 0.06   # and this fraction of the size thick (pnp.render.base underlines a Text alike)


def underline(line: Line, x: float, baseline: float, size_pt: float, fill: str) -> Rule:
    """The rule under a whole line whose start is at ``x`` and baseline at ``baseline`` (mm): from its
    start to its end (every run, icons and the spaces between), where pnp.render.base puts a Text's."""
    size = size_pt * MM_PER_PT
    y = baseline + size * UNDERLINE_DROP
    return Rule(x, y, x + line.width, y, stroke=fill, stroke_width=size * UNDERLINE_WIDTH)


def draw(fitted: Fitted, left: float, top: float, w: float, align: str, fill: str, underlined: bool = False) -> list:
    """Every line of ``fitted`` in a box ``w`` mm wide whose left edge is ``left`` and top ``top``
    (mm), each line aligned "left", "center" or "right" in it, or "start" / "end": left / right for
    a left-to-right paragraph, right / left for a right-to-left one; ``underlined``: each line with
    its :func:`underline`, drawn before its text."""
    out: list = []
    for line, base in zip(fitted.lines, fitted.baselines):
        side = {"start": "right" if line.rtl else "left", "end": "left" if line.rtl else "right"}.get(align, align)
        shift = {"left": 0.0, "center": (w - line.width) / 2, "right": w - line.width}[side]
        if underlined and line.pieces:
            out.append(underline(line, left + shift, top + base, fitted.size_pt, fill))
        out += draw_line(line, left + shift, top + base, fitted.size_pt, fill)
    return out




def text_shapes(x: float, y: float, text: str, size_pt: float, fill: str = "#000000", bold: bool = False,
                width: float | None = None) -> list:
    """One line of plain ``text`` with its baseline at ``y`` mm: a single Text at ``x`` when Noto Sans
    sets it whole (:func:`needs_runs` False), else its runs (:func:`plain_lines`, :func:`draw_line`),
    starting at ``x``, or, for a right-to-left line in a box ``width`` mm wide from ``x``, ending at
    its right edge."""
    drawn = styled_face(DEFAULT_FACE, bold)
    if not needs_runs(text, drawn):
        return [Text(x, y, text, size_pt=size_pt, fill=fill, bold=bold, width=text_width_mm(text, size_pt, drawn))]
    line = plain_lines(text, size_pt, None, bold)[0]
    return draw_line(line, x + (width - line.width if line.rtl and width is not None else 0.0), y, size_pt, fill)
