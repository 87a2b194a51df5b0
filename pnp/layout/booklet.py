"""The rules as a saddle-stitched booklet: pages half the size of the paper, imposed 2-up.

Each booklet page is half the sheet, cut across its long side: A5 (148.5 x 210 mm) on A4,
half-Letter (5.5 x 8.5 in) on Letter, A4 on A3, Letter on Tabloid, and on any other sheet half of it
(BOOK_SIZES names them). The pages are: a cover (title, credit, description and how to print, fold
and staple the booklet), what the kit holds and how to make it (the kit cover's bill of materials and
print-and-cut steps), then the rules (pnp.inputs.rulestext, set with the cover's rules typography,
pnp.layout.cover.block_lines) and the rules-source note; the count is padded with blank pages to a
multiple of 4, and every page carries its number at its foot.

Imposition for saddle stitching (the sheets stacked, folded once and stapled on the fold): with N
pages, sheet k (1-based) carries on its front N - 2k + 2 (left) and 2k - 1 (right), on its back 2k
(left) and N - 2k + 1 (right): for 8 pages, sheet 1 is 8 | 1 and 2 | 7, sheet 2 is 6 | 3 and 4 | 5.
Each side is a landscape page (the sheet turned), printed two-sided flipping on the short edge
(DUPLEX): turning the sheet over about its short side puts page 2 behind page 1.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Sequence

from ..core.errors import LayoutError
from ..core.ir import Component, Group, Line, Page, Text
from ..core.units import MM_PER_PT, fmt_mm
from ..core.words import Words
from ..inputs.rulestext import Block
from ..text import plain_lines
from .cover import (BULLET_INDENT, GREY, LEADING, PAPER_TEXT, RULE_LINE, CoverInfo, KitCover, block_lines,
                    line_shapes, wrapped)
from .options import ImposeOptions
from .packing import paper_of
from .paper import Sheet

BOOK_SIZES = {"a4": "A5", "letter": "half-Letter", "a3": "A4", "tabloid": "Letter"}
"""The booklet page size each shipped paper makes (half the sheet)."""
DUPLEX = "short"           # the flip of a landscape booklet sheet: over its short edge
MARGIN, INNER, TOP, FOOT = 12.0, 12.0, 14.0, 18.0   # mm: outer, at the fold, top, bottom (the number sits in it)
NUMBER_FROM_FOOT = 9.0     # mm from the page's foot to the page number's baseline
BODY_PT, HEAD_PT, TITLE_PT, SOURCE_PT = 9.5, 11.0, 22.0, 7.5


def saddle_order(pages: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Per sheet, ((front left, front right), (back left, back right)) page numbers of a saddle-stitched
    booklet of ``pages`` pages (a multiple of 4), outermost sheet first."""
    if pages <= 0 or pages % 4:
        raise ValueError(f"a saddle-stitched booklet has a multiple of 4 pages, not {pages}")
    return [((pages - 2 * k + 2, 2 * k - 1), (2 * k, pages - 2 * k + 1)) for k in range(1, pages // 4 + 1)]


@dataclass(frozen=True, eq=False)
class _Line:
    """One line to set: the shapes of block_lines() at a baseline, or a break (``text`` None)."""
    text: object
    size: float
    bold: bool
    indent: float
    bullet: bool
    gap: float = 0.0
    keep: int = 0  # lines after this one that must share its page (a heading with its first lines)


class RulesBooklet:
    """The rules booklet of a kit on ``sheet`` (see the module docstring): ``count`` pages of
    ``page_w`` x ``page_h`` mm, ``sheets()`` the imposed sides in print order.

    Raises:
        LayoutError: on construction, a word of the rules text wider than a booklet page's column (the
            rules file and line). pnp's own text (instructions, contents, the rules-source note) is never
            refused: a word of it too wide for the column is cut (:func:`breakable`).
    """

    def __init__(self, info: CoverInfo, cover: KitCover, components: Sequence[Component], sheet: Sheet,
                 opts: ImposeOptions) -> None:
        self.info, self.sheet = info, sheet
        _ = info.words
        self.long, self.short = max(sheet.width, sheet.height), min(sheet.width, sheet.height)
        self.page_w, self.page_h = self.long / 2, self.short
        self.size_name = (_(BOOK_SIZES[sheet.name]) if sheet.name in BOOK_SIZES
                          else _("half {paper}").format(paper=sheet.name.upper()))
        self.text_w = self.page_w - MARGIN - INNER
        kit = [Block("heading", _("What the kit holds"), 0)]
        kit += [Block("bullet", f"{c.count} x {c.name}: {_size(c, _)}, {_(PAPER_TEXT[paper_of(c, opts)])}"
                      + (f"; {c.note}" if c.note else ""), 0) for c in components]
        kit += [Block("heading", _("Print and cut the parts"), 0)]
        kit += [Block("bullet", step, 0) for step in cover.guide()]
        body = self._lines(kit, markup=False, own=True) + [_Line(None, 0, False, 0, False)]
        body += self._lines([Block("heading", _("Rules"), 0)], markup=False, own=True)
        body += self._lines(info.rules.printed(), markup=True)
        if info.rules_source:
            body += self._lines([Block("para", info.rules_source, 0)], markup=False, size=SOURCE_PT, own=True)
        self.body = self._paginate(body)
        self.count = -(-(1 + len(self.body)) // 4) * 4

    # -- text ---------------------------------------------------------------------------------------
    def _lines(self, blocks: Sequence[Block], markup: bool, size: float = BODY_PT, own: bool = False) -> list[_Line]:
        """The lines of ``blocks`` set in the column at ``size`` pt (headings at HEAD_PT). ``own``: the
        text is pnp's (its instructions, the kit's contents, the rules-source note): a word wider than
        the column, such as a long name it quotes, is cut where it reaches the column's edge
        (:func:`breakable`), never refused; else (the rules text) such a word is a LayoutError that
        names the rules file and line."""
        out: list[_Line] = []
        for block in blocks:
            if own:
                indent = BULLET_INDENT if block.kind == "bullet" else 0.0
                heading = block.kind == "heading"
                block = Block(block.kind, breakable(block.text, HEAD_PT if heading else size, heading,
                                                    self.text_w - indent), block.line)
            lines = block_lines(block, self.info.rules.icons if markup else None, self.text_w, size, HEAD_PT, markup)
            gap = 3.0 if block.kind == "heading" else 1.2
            for i, (text, pt, bold, indent, bullet) in enumerate(lines):
                wide = line_shapes(text, pt, bold, indent, bullet, 0.0, 0.0)[1]
                if wide > self.text_w - indent + 1e-6 and own:  # pnp's text: never the user's file to blame
                    raise LayoutError(f"pnp's own text in the rules booklet is set {fmt_mm(wide)} wide in a "
                                      f"{fmt_mm(self.text_w - indent)} column of a {self.size_name} page.",
                                      field="--rules", hint="build with --rules cover, and report this to pnp")
                if wide > self.text_w - indent + 1e-6:
                    raise LayoutError(f"a word of the rules is wider than a {self.size_name} booklet page "
                                      f"({fmt_mm(self.text_w)}).", file=self.info.rules.path, line=block.line or None,
                                      field="rules", hint="break the long word")
                out.append(_Line(text, pt, bold, indent, bullet, gap if i == 0 else 0.0,
                                 3 if block.kind == "heading" and i == len(lines) - 1 else 0))
        return out

    def _paginate(self, lines: list[_Line]) -> list[list[tuple[_Line, float]]]:
        """The body's lines on pages 2, 3, ...: (line, baseline y mm) per page; a break starts a page."""
        top, bottom = TOP, self.page_h - FOOT
        pages: list[list[tuple[_Line, float]]] = [[]]
        y = top
        for i, line in enumerate(lines):
            if line.text is None:
                if pages[-1]:
                    pages.append([])
                y = top
                continue
            step = line.gap + line.size * MM_PER_PT * LEADING
            need = step + sum(n.size * MM_PER_PT * LEADING for n in lines[i + 1:i + 1 + line.keep] if n.text)
            if y + need > bottom and pages[-1]:
                pages.append([])
                y = top
                step -= line.gap
            y += step
            pages[-1].append((line, y))
        return pages

    # -- pages ----------------------------------------------------------------------------------------
    def _cover(self) -> list:
        """Page 1: the title, credit and description, then how to print, fold and staple."""
        info, x, w = self.info, MARGIN, self.text_w
        items: list = []
        y = 30.0
        for part in wrapped(breakable(info.title, TITLE_PT, True, w), TITLE_PT, w, bold=True):
            items += line_shapes(part, TITLE_PT, True, 0.0, False, x, y, w)[0]
            y += TITLE_PT * MM_PER_PT * 1.15
        for text, pt, colour in ((info.credit, 11.0, "#000000"), (info.rules.description, 9.5, GREY)):
            for part in wrapped(breakable(text, pt, False, w), pt, w) if text else []:
                y += pt * MM_PER_PT * LEADING
                items += line_shapes(part, pt, False, 0.0, False, x, y, w, colour)[0]
        y += 8.0
        items.append(Line(x, y, x + w, y, stroke=RULE_LINE, stroke_width=0.3))
        y += 3.0
        for line in self._lines([Block("heading", info.words("How to print and bind this booklet"), 0)]
                                + [Block("bullet", step, 0) for step in self.steps()], markup=False, size=8.5,
                                own=True):
            y += line.gap + line.size * MM_PER_PT * LEADING
            items += line_shapes(line.text, line.size, line.bold, line.indent, line.bullet, x, y)[0]
        return items

    def steps(self) -> list[str]:
        """How to print, fold and staple the booklet, in a player's words."""
        s, _ = self.sheet, self.info.words
        sheets = self.count // 4
        rest = (" two-sided on {paper} paper ({size}), flipping on the short edge, at 100 % (Actual size). The pages "
                "are already in booklet order: do not choose \u201cbooklet\u201d in the print dialog.")
        return [_("Print the sheet" + rest if sheets == 1 else "Print all {sheets} sheets" + rest).format(
                    sheets=sheets, paper=s.name.upper(), size=f"{fmt_mm(s.width)} x {fmt_mm(s.height)}"),
                _("Check the first sheet: page 2 must be behind page 1. If it is upside down, print again flipping "
                  "on the long edge."),
                _("Stack the sheets in print order, the first one outside, and fold the stack in half across its "
                  "long side: {count} pages of {name} ({size}).").format(
                    count=self.count, name=self.size_name, size=f"{fmt_mm(self.page_w)} x {fmt_mm(self.page_h)}"),
                _("Staple twice through the fold from the outside, a quarter of the height from each end (a "
                  "long-reach stapler; or open an ordinary stapler over cork and bend the legs flat by hand)."),
                _("Pages left blank at the end are for notes.")]

    def page_items(self, number: int) -> list:
        """The shapes of booklet page ``number`` (1-based) in its own frame (mm, y down), its number
        at the foot included."""
        if number == 1:
            items = self._cover()
        else:
            lines = self.body[number - 2] if number - 2 < len(self.body) else []
            items = []
            for line, y in lines:
                items += line_shapes(line.text, line.size, line.bold, line.indent, line.bullet, MARGIN, y, self.text_w)[0]
        items.append(Text(self.page_w / 2, self.page_h - NUMBER_FROM_FOOT, str(number), size_pt=9.0,
                          anchor="middle", fill=GREY))
        return items

    def sheets(self) -> list[Page]:
        """Every side to print, in order: sheet 1 front, sheet 1 back, sheet 2 front, ..."""
        out = []
        for k, sides in enumerate(saddle_order(self.count), start=1):
            for side, (left, right) in zip(("front", "back"), sides):
                half = self.page_w
                items = (Group(tuple(self.page_items(left)), clip=(0, 0, half, self.page_h)),
                         Group(tuple(self.page_items(right)), dx=half, clip=(0, 0, half, self.page_h)))
                out.append(Page(self.long, self.short, items, f"booklet sheet {k} {side}: pages {left} and {right}",
                                side=side))
        return out


def breakable(text: str, size_pt: float, bold: bool, width: float) -> str:
    """``text`` with each word wider than ``width`` mm at ``size_pt`` (bold or not) cut into pieces
    that fit, a space between them (so the lines wrapped from it fit the column); a piece never ends
    before a combining mark or after a virama or joiner, so no cluster is split. Words that fit, and
    spaces, are kept as they are."""
    def w(piece: str) -> float:
        return plain_lines(piece, size_pt, None, bold)[0].width if piece else 0.0
    out = []
    for word in text.split(" "):
        while word and w(word) > width:
            cut = 1
            for k in range(2, len(word)):
                if w(word[:k]) > width:
                    break
                if _cuttable(word, k):
                    cut = k
            out.append(word[:cut])
            word = word[cut:]
        out.append(word)
    return " ".join(out)


def _cuttable(word: str, k: int) -> bool:
    """A cut between ``word[k-1]`` and ``word[k]`` splits no cluster: the next character is no mark,
    and the one before is no virama or joiner."""
    return (not unicodedata.category(word[k]).startswith("M") and word[k] not in "\u200c\u200d"
            and word[k - 1] not in "\u200c\u200d" and unicodedata.combining(word[k - 1]) != 9)


def _size(c: Component, _: Words) -> str:
    return (_("diameter {size}").format(size=fmt_mm(c.width)) if c.shape == "circle"
            else f"{fmt_mm(c.width)} x {fmt_mm(c.height)}")

