"""The cover of a reprint (`pnp build --reprint`): which parts to take out of the deck and which to put in.

A reprint holds only the parts that are new or changed since the kit it replaces. Its cover lists,
per component, the keys to **take out** (parts removed from the game, and the old copies of the
changed ones) and the keys to **put in** (new parts and the replacements), each with the page it is
printed on, then the usual footer and scale check. Long lists continue on further cover pages.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core.fonts import missing_glyphs
from ..core.plaintext import plain
from ..core.ir import Component, Line, Page, Text
from ..core.units import MM_PER_PT
from ..core.words import Words, english
from . import marks
from .options import ImposeOptions
from .paper import Sheet

LIST_PT, HEAD_PT, TITLE_PT = 8.0, 11.0, 16.0
LEAD = 1.3 * LIST_PT * MM_PER_PT  # mm between list lines
_JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner
MAX_KEY = 70  # characters of a key shown (a longer one ends with an ellipsis)


@dataclass(frozen=True, eq=False)
class Entry:
    """One listed part: its component ``group``, ``key``, what it is (``why``: "new",
    "replacement", "removed", "replaced") and its ``title``, listed instead of the key when set."""
    group: str
    key: str
    why: str
    title: str = ""


def _short(key: str) -> str:
    """A key, title or component name as listed: at most MAX_KEY characters, each the font lacks shown as U+XXXX."""
    key = key if len(key) <= MAX_KEY else key[:MAX_KEY - 1] + "\u2026"
    # read from a manifest (untrusted): control, format and line-break characters shown escaped, on one line;
    # the joiners that shape Devanagari and Arabic kept
    key = "".join(c if c in _JOINERS else plain(c, newlines=False) for c in key)
    lacking = set(missing_glyphs(key))
    return "".join(f"U+{ord(c):04X}" if c in lacking else c for c in key) if lacking else key


class ReprintCover:
    """Cover pages listing ``take_out`` and ``put_in`` (Entry lists) for a reprint of ``title``,
    replacing the kit's generation ``old_gen`` by ``new_gen``. ``pages_of`` ((group, key) -> page
    numbers in the reprint), set once the parts are packed, adds each part's pages to its line. Its
    words are pnp's in the kit's language, ``words`` (pnp.core.words)."""

    def __init__(self, title: str, take_out: Sequence[Entry], put_in: Sequence[Entry], sheet: Sheet,
                 old_gen: int, new_gen: int, words: Words = english) -> None:
        self.words = words
        self.title, self.take_out, self.put_in = title, list(take_out), list(put_in)
        self.old_gen, self.new_gen = old_gen, new_gen
        self.pages_of: dict[tuple[str, str], tuple[int, ...]] = {}
        _, _, _, h = sheet.content_area
        self._per_page = max(1, int((h - 30.0) // LEAD))
        self.count = max(1, -(-(len(self._lines())) // self._per_page))

    def _lines(self) -> list[tuple[str, bool]]:
        """(text, is_heading) lines of the lists, each part put in with its pages (pages_of)."""
        _ = self.words
        lines: list[tuple[str, bool]] = [(_("Take out of the deck ({count})").format(count=len(self.take_out)), True)]
        lines += [(f"{_short(e.group)}: {_short(e.title or e.key)} ({_(e.why)})", False)
                  for e in self.take_out] or [(_("nothing"), False)]
        lines.append(("", False))
        lines.append((_("Put in ({count})").format(count=len(self.put_in)), True))
        for e in self.put_in:
            pages = self.pages_of.get((e.group, e.key))
            where = _(", page {pages}").format(pages=marks.page_ranges(pages)) if pages else ""
            lines.append((f"{_short(e.group)}: {_short(e.title or e.key)} ({_(e.why)}{where})", False))
        return lines

    def pages(self, components: Sequence[Component], plan, sheet: Sheet, opts: ImposeOptions, total: int) -> list[Page]:
        x, y, w, _h = sheet.content_area
        _ = self.words
        lines = self._lines()
        out = []
        for i in range(self.count):
            heading = _("{title} \u2014 reprint").format(title=self.title)
            replaces = _("Replaces the parts of kit generation {old} that changed in generation {new}. Print at "
                         "100 % / Actual size.").format(old=self.old_gen, new=self.new_gen)
            items: list = [Text(x, y + 8, heading, size_pt=TITLE_PT, bold=True),
                           Text(x, y + 15, replaces, size_pt=9),
                           Line(x, y + 18, x + w, y + 18, stroke_width=0.2)]
            row_y = y + 25
            for text, head in lines[i * self._per_page:(i + 1) * self._per_page]:
                if text:
                    items.append(Text(x, row_y, text, size_pt=HEAD_PT if head else LIST_PT, bold=head))
                row_y += LEAD
            footer = marks.footer_text(self.title, _("reprint: take out, put in"), i + 1, total, _)
            out.append(Page(sheet.width, sheet.height, tuple(items) + marks.footer(sheet, footer, _), _("reprint")))
        return out
