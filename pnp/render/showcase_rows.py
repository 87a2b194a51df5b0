"""Which cards a showcase shows (``--showcase ROWS``, ``--showcase-width PX``; pnp.render.showcase):
the options parsed and checked, a component's distinct parts by row and key, and the ones ROWS picks.
Reads components' ``sources`` and ``titles`` only; draws nothing.

ROWS is a comma-separated list whose items are each a row number (``7``: the data row as the
spreadsheet numbers it, the header being row 1; a part of a game without a data file by its number,
1 for the first), a range of them (``2-6``) or a part's key (its ``key:`` column's cell, as the
manifest and ``pnp diff`` name it); the cards are fanned in the order written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..core.errors import SpecError
from ..core.ir import Component

DEFAULT_WIDTH = 1600
"""The pictures' width in pixels when --showcase-width is not given."""

WIDTH_RANGE = (200, 4000)
"""Smallest and largest ``--showcase-width`` in pixels: a thumbnail to a 4K hero image."""
FAN_DEFAULT = 5
MAX_FAN = 12
"""Most cards one fan holds: past that each shows only a sliver."""
GRID_FACES = 100
"""Faces on one grid picture; a deck with more gets several (each face on one of them, once)."""
_RANGE = re.compile(r"(\d+)\s*-\s*(\d+)\Z")
_NUMBER = re.compile(r"\d+\Z")
_HINT = "write e.g. --showcase 2-6,9 (row numbers or ranges) or --showcase KEY,KEY (parts' keys)"


@dataclass(frozen=True)
class ShowcaseOptions:
    """``--showcase`` and ``--showcase-width``, checked: ``rows``, the items of ROWS as written (a
    row number, a ``(first, last)`` range of them, or a key string; None: the default fan), and
    ``width``, the pictures' width in pixels."""
    rows: tuple[int | tuple[int, int] | str, ...] | None = None
    width: int = DEFAULT_WIDTH
    text: str = ""


def parse_showcase(rows: str | None, width: int | None) -> ShowcaseOptions:
    """``--showcase ROWS`` and ``--showcase-width PX`` as ShowcaseOptions (see the module docstring).

    Raises:
        SpecError: an empty item, a row 0, a range that is not FIRST-LAST with FIRST <= LAST (``0-``,
            ``6-2``), or a width outside WIDTH_RANGE (field --showcase or --showcase-width).
    """
    low, high = WIDTH_RANGE
    if width is not None and not low <= width <= high:
        raise SpecError(f"--showcase-width {width} is outside {low}..{high} pixels.", field="--showcase-width",
                        hint=f"use e.g. --showcase-width {DEFAULT_WIDTH} (the default), or 680 for a "
                             "crowdfunding page's column")
    if rows is None:
        return ShowcaseOptions(None, DEFAULT_WIDTH if width is None else width)
    items: list[int | tuple[int, int] | str] = []
    shown = rows[:60]
    for raw in rows.split(","):
        item = raw.strip()
        if not item:
            raise SpecError(f"--showcase {shown!r} has an empty item.", field="--showcase", hint=_HINT)
        m = _RANGE.match(item)
        if _NUMBER.match(item) or m or (item[:1].isdigit() and "-" in item) or item.endswith("-"):
            if m:
                first, last = int(m.group(1)), int(m.group(2))
            elif _NUMBER.match(item):
                first = last = int(item)
            else:
                raise SpecError(f"--showcase {shown!r}: {item[:30]!r} is not a row number or a range FIRST-LAST.",
                                field="--showcase", hint=_HINT)
            if first < 1:
                raise SpecError(f"--showcase {shown!r}: rows are numbered from 1, not {first}.", field="--showcase",
                                hint=_HINT)
            if first > last:
                raise SpecError(f"--showcase {shown!r}: the range {item!r} runs backwards.", field="--showcase",
                                hint=f"write {last}-{first}")
            items.append(first if first == last else (first, last))
        else:
            items.append(item)
    return ShowcaseOptions(tuple(items), DEFAULT_WIDTH if width is None else width, rows)


def check_requested(given: bool, formats: Sequence[str]) -> None:
    """Refuse ``--showcase`` or ``--showcase-width`` (``given``: either was) without ``--format showcase``.

    Raises:
        SpecError: naming the option.
    """
    if given and "showcase" not in formats:
        raise SpecError("--showcase and --showcase-width choose the pictures of --format showcase, which is not "
                        "asked for.", field="--format", hint="add --format showcase")


@dataclass(frozen=True)
class Card:
    """One distinct part of a component: ``index`` of its first front in ``Component.fronts``, its
    data ``row`` (or its number in the component), ``key`` and ``title`` ("" if none)."""
    index: int
    row: int
    key: str
    title: str


def cards_of(comp: Component) -> list[Card]:
    """The parts of ``comp``, a row's copies once, in kit order (reads ``sources`` and ``titles``;
    draws nothing)."""
    n = len(comp.fronts)
    out: list[Card] = []
    if len(comp.sources) == n and n:
        last = None
        for i, src in enumerate(comp.sources):
            if src is last or src == last:
                continue
            last = src
            title = comp.titles[i] if i < len(comp.titles) else ""
            out.append(Card(i, src.row if src.row is not None else len(out) + 1, src.key, title))
        return out
    for i in range(n):
        title = comp.titles[i] if i < len(comp.titles) else ""
        out.append(Card(i, i + 1, title or str(i + 1), title))
    return out


def why_not(comp: Component) -> str | None:
    """Why ``comp`` has no showcase pictures (None when it has): a board, or a net that is folded."""
    if comp.board:
        return "a board, not a card"
    if comp.folds:
        return "a net folded into a box, die or standee"
    return None


def _matches(item, card: Card) -> bool:
    if isinstance(item, str):
        return card.key == item
    if isinstance(item, tuple):
        return item[0] <= card.row <= item[1]
    return card.row == item


def chosen(comp: Component, options: ShowcaseOptions) -> list[Card] | None:
    """The cards of ``comp`` that ``options.rows`` picks, in the order written (each once); None when
    no rows were given (the fan then shows the first FAN_DEFAULT distinct faces)."""
    if options.rows is None:
        return None
    cards = cards_of(comp)
    out: dict[int, Card] = {}
    for item in options.rows:
        for card in cards:
            if _matches(item, card):
                out.setdefault(card.index, card)
    return list(out.values())


def _describe(comp: Component, cards: list[Card]) -> str:
    rows = sorted({c.row for c in cards})
    span = f"rows {rows[0]}-{rows[-1]}" if len(rows) > 1 else f"row {rows[0]}" if rows else "no rows"
    return f"{comp.name!r} has {span}"


def check_rows(components: Sequence[Component], options: ShowcaseOptions) -> None:
    """Refuse ROWS items that pick no part of any of ``components`` and a fan of more than MAX_FAN.

    Raises:
        SpecError: naming the item, the rows each component has, and the limit (field --showcase).
    """
    if options.rows is None:
        return
    per = [(comp, cards_of(comp)) for comp in components]
    for item in options.rows:
        if not any(_matches(item, card) for _, cards in per for card in cards):
            keys = [card.key for _, cards in per for card in cards[:3]][:3]
            what = (f"no part has the key {item[:40]!r} (keys are e.g. {', '.join(repr(k[:30]) for k in keys)})"
                    if isinstance(item, str) else
                    f"row {item} does not exist" if isinstance(item, int) else
                    f"no row from {item[0]} to {item[1]} exists")
            header = " (row 1 is the header)" if any(c.sources for c, _ in per) else ""
            raise SpecError(f"--showcase {options.text[:60]!r}: {what}; {'; '.join(_describe(c, k) for c, k in per)}"
                            f"{header}.", field="--showcase", hint=_HINT)
    for comp in components:
        picked = chosen(comp, options) or []
        if len(picked) > MAX_FAN:
            raise SpecError(f"--showcase {options.text[:60]!r} picks {len(picked)} parts of {comp.name!r}; a fan "
                            f"holds at most {MAX_FAN}.", field="--showcase",
                            hint="pick fewer rows (the grid shows every face anyway)")


def slug(name: str) -> str:
    """A component's name as a file-name part: lower case letters, digits, ``_`` and ``-``."""
    return re.sub(r"[^a-z0-9_]+", "-", name.lower()).strip("-") or "part"
