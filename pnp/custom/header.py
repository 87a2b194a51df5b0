"""Which row of which sheet is a table's header: taken only when no other row could be.

Rows are lists of cells as the readers give them (text from .csv/.tsv; text, numbers, dates or
None from workbooks). ``choose`` answers with a Choice, or an Ambiguous naming every candidate row,
or None when no row can be the header; table.py words the messages.

The rules, in order:

1. ``header_row`` declared: that row, in the one sheet that has it (with the needed columns).
2. Needed columns named (a spec's placeholders and checks): the rows among the first SEARCH of a
   sheet that hold every one of them; exactly one must, over every sheet searched.
3. Nothing named (``pnp new``, a spec without placeholders): in the first sheet holding a table
   of two or more columns (``first_sheet``: else the first holding one; without it, the only one), its first non-empty row, unless it holds a number (then
   it is data, not names) or it is narrower than most rows below it. A one-cell row (a title)
   above a row of names as wide as every row below is skipped, and the title named in the Choice;
   any other narrower first row is ambiguous with the first row as wide as the data.
4. With ``headerless`` (``pnp new``), a first row shaped like the rows below it is data, not names
   (``first_row_is_data``: the rule of Python's ``csv.Sniffer.has_header``, on cells): the Choice
   has ``number`` 0 and every row is data.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

SEARCH = 20  # rows searched for the header at the top of each sheet
_NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?")


def filled(cell) -> bool:
    """True for a cell holding something (not None, not blank text)."""
    return cell is not None and (not isinstance(cell, str) or bool(cell.strip()))


def width(cells: list) -> int:
    """The 1-based index of the last filled cell (0 for an empty row)."""
    return max((j + 1 for j, c in enumerate(cells) if filled(c)), default=0)


def is_number(cell) -> bool:
    """A number cell, or text that reads as a number ("3", "1,5", "-2.0e3")."""
    if isinstance(cell, bool):
        return False
    if isinstance(cell, (int, float)):
        return True
    return isinstance(cell, str) and bool(_NUMBER.fullmatch(cell.strip()))


@dataclass(frozen=True)
class Choice:
    """The header: ``sheet`` (None for .csv/.tsv) and its 1-based row ``number``."""
    sheet: str | None
    number: int  # 0: no header row, every row is data (rule 4)
    title: int | None = None  # the row of a one-cell title above the header, when there is one


@dataclass(frozen=True, eq=False)
class Ambiguous:
    """No single header: ``candidates`` as (sheet, row number), and ``why`` in a few words."""
    candidates: list[tuple[str | None, int]]
    why: str
    sheets_only: bool = field(default=False)


def choose(sheets: list[tuple[str | None, list[list]]], needed: set[str], header_row: int | None,
           first_sheet: bool, key_of, headerless: bool = False) -> Choice | Ambiguous | None:
    """The header row of ``sheets`` (name, rows) for the column keys ``needed`` (``key_of`` turns a
    cell into its key); with ``headerless``, a sheet whose first row is data gives Choice(sheet, 0).
    None when no row qualifies (an empty file, or no row with the needed columns: the caller names
    the closest)."""
    def keys(cells: list) -> set[str]:
        return {key_of(c) for c in cells if filled(c)}

    if header_row is not None:
        found = [Choice(name, header_row) for name, rows in sheets if header_row <= len(rows)
                 and keys(rows[header_row - 1]) and needed <= keys(rows[header_row - 1])]
        if len(found) > 1:
            return Ambiguous([(c.sheet, c.number) for c in found], f"row {header_row} of several sheets could be "
                             "the header", sheets_only=True)
        return found[0] if found else None
    if needed:
        found = [Choice(name, n) for name, rows in sheets
                 for n, cells in enumerate(rows[:SEARCH], start=1) if needed <= keys(cells)]
        if len(found) > 1:
            why = ("several rows hold every column the templates use"
                   if len({c.sheet for c in found}) == 1 else "several sheets hold every column the templates use")
            return Ambiguous([(c.sheet, c.number) for c in found], why,
                             sheets_only=all(c.number == found[0].number for c in found)
                             and len({c.sheet for c in found}) == len(found))
        return found[0] if found else None
    tables = [(name, _plain(name, rows, headerless)) for name, rows in sheets]
    tables = [(name, c) for name, c in tables if c is not None]
    if len(tables) > 1 and not first_sheet:
        return Ambiguous([(name, c.number if isinstance(c, Choice) else c.candidates[0][1]) for name, c in tables],
                         "several sheets hold a table", sheets_only=True)
    wide = [(name, c) for name, c in tables if isinstance(c, Choice) and width(dict(sheets)[name][c.number - 1]) > 1]
    return (wide or tables)[0][1] if tables else None


def _plain(name: str | None, rows: list[list], headerless: bool = False) -> Choice | Ambiguous | None:
    """Rules 3 and 4 for one sheet; None when it holds no row below a first row (no table)."""
    first = _first(rows)
    below = [width(r) for r in rows[first:] if width(r)]
    if first > SEARCH or not below:
        return None
    head = rows[first - 1]
    if headerless and first == 1 and first_row_is_data(rows):
        return Choice(name, 0)
    usual = Counter(below).most_common(1)[0][0]
    if any(is_number(c) for c in head):
        return Ambiguous([(name, first)], f"row {first} holds a number, so it looks like data, not column names")
    if width(head) >= usual:
        return Choice(name, first)
    wide = next((n for n, r in enumerate(rows[first:SEARCH], start=first + 1) if width(r) >= usual), None)
    if wide is not None and not any(is_number(c) for c in rows[wide - 1] if filled(c)) \
            and all(width(r) <= width(rows[wide - 1]) for r in rows[wide:]) and width(head) == 1:
        return Choice(name, wide, title=first)  # a one-cell title above a header as wide as every row below
    return Ambiguous([(name, first)] + ([(name, wide)] if wide else []),
                     f"row {first} has {width(head)} cells, but most rows below it have {usual}")


def _first(rows: list[list]) -> int:
    """The 1-based number of the first non-empty row (len(rows) + 1 when there is none)."""
    return next((n for n, r in enumerate(rows, start=1) if width(r)), len(rows) + 1)


SNIFF_ROWS = 20  # rows below the first compared with it (csv.Sniffer.has_header looks at 20 too)
LENGTH_VOTE_ROWS = 5  # cells of one length that vote (fewer: only codes of 1 or 2 characters, such as W/S)


def first_row_is_data(rows: list[list]) -> bool:
    """True when the first row of ``rows`` is shaped like the rows below it, so it is data rather than
    column names: csv.Sniffer.has_header's vote, on cells. Each column whose cells below (up to
    SNIFF_ROWS filled rows) are all numbers, or all text of one length (LENGTH_VOTE_ROWS cells or more,
    or codes of one or two characters), votes for data when the first
    row's cell is alike and for a header when it is not; a first-row cell that recurs below it in its
    column votes for data (names are not values). Data wins only on more votes for it."""
    head = rows[0]
    below = [r for r in rows[1:] if width(r)][:SNIFF_ROWS]
    if not below or not width(head):
        return False
    votes = 0
    for j in range(width(head)):
        cell = head[j] if j < len(head) else None
        column = [r[j] for r in below if j < len(r) and filled(r[j])]
        if not column or not filled(cell):
            continue
        if all(is_number(c) for c in column):
            votes += -1 if is_number(cell) else 1
        elif not any(is_number(c) for c in column) and len({len(str(c).strip()) for c in column}) == 1 and \
                (len(column) >= LENGTH_VOTE_ROWS or len(str(column[0]).strip()) <= 2):
            votes += -1 if len(str(cell).strip()) == len(str(column[0]).strip()) else 1
        if str(cell).strip().casefold() in {str(c).strip().casefold() for c in column}:
            votes -= 1
    return votes < 0
