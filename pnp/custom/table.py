"""The data of a data-driven component: rows of a table from .csv, .tsv, .xlsx or .ods.

Built on pnp.inputs.listfile and pnp.inputs.workbookguard: the same size limits, the same workbook-bomb
guard before python-calamine opens a workbook, the same CSV dialects (UTF-8 with or without a
byte-order mark) and the same locations in messages ("sheet Cards, row 5,
column B").

This is the one reader of a component's table: `pnp new`, `pnp build` and `pnp validate` read a
table alike. The delimiter of a .csv is detected (pnp.inputs.delimiters: comma, semicolon, tab,
pipe) unless ``delimiter`` names it; the header row is taken only when it is unambiguous
(pnp.custom.header), else the candidates are listed with how to declare it. Rows below it are data;
empty rows are skipped; a filled cell right of the header's last column, two columns with one name
and a header without data rows are refused by row. Cell values become text: a whole number is
written without ".0", a true/false value as TRUE/FALSE, a date as YYYY-MM-DD, so the same data as
CSV, TSV, XLSX or ODS gives the same cards.

Limits: MAX_ROWS data rows (refused at the first row over, before any card is drawn) and the list
reader's MAX_BYTES / MAX_CELLS.
"""
from __future__ import annotations

import csv
import datetime
import io
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..core.errors import PnpError
from ..core.values import record
from ..inputs.safefile import NotRegular, kind_of, read_regular
from ..inputs.listfile import MAX_BYTES, MAX_CELLS, UNPACKED_PER_BYTE, _calamine_errors, describe
from ..inputs.delimiters import DELIMITERS, detect
from ..inputs.cellvalues import ERROR_VALUES
from ..inputs.textcheck import bad_character
from ..inputs.workbookguard import KIND_NAMES, WorkbookGuard, column_letter, size_text
from .header import SEARCH, Ambiguous, choose, width

SUFFIXES = (".csv", ".tsv", ".xlsx", ".ods")
MAX_ROWS = 10_000
MAX_SHEETS = 50  # sheets of a workbook searched for the header (more: the spec names the sheet)
HEAD_ROWS = 200  # rows read from each sheet while searching several (the chosen sheet is then read whole)
MAX_SEARCH_CELLS = 2 * MAX_CELLS  # cells (bounding boxes) of the sheets searched, all together
HEADER_SEARCH = SEARCH


class DataError(PnpError):
    """A data file (spreadsheet) that cannot be read, or a cell that cannot be used."""


@dataclass(frozen=True, eq=False)
class Declare:
    """How a user declares what pnp cannot tell, as the hints word it: spec fields or options."""
    header_row: str
    sheet_field: str
    delimiter_field: str

    def header(self, number: int) -> str:
        return f"{self.header_row} {number}"

    def sheet(self, name: str | None) -> str:
        return f"{self.sheet_field} {name}"

    def delimiter(self, char: str) -> str:
        return f"{self.delimiter_field} {char!r}" + (" (a tab)" if char == "\t" else "")


SPEC = Declare("header_row:", "sheet:", "delimiter:")
OPTIONS = Declare("--header-row", "--sheet", "--delimiter")


def key(name: str) -> str:
    """A column name as compared: case-folded, outer spaces removed."""
    return name.strip().casefold()


@record
class Row:
    """One data row: its ``number`` in its sheet (1-based) and its cells by column key (never changed
    once made: a generator's row dict may be shared, pnp.custom.generated)."""
    number: int
    values: dict[str, str]


@dataclass(eq=False)
class Table:
    """A table read from ``path``: ``sheet`` (workbooks), the ``header_row`` number, ``headers`` as
    written, ``position`` of each column key (a letter in workbooks, a 1-based number in .csv/.tsv)."""
    path: Path
    sheet: str | None
    header_row: int
    headers: list[str]
    position: dict[str, str | int]
    rows: list[Row] = field(default_factory=list)
    others: list[str] = field(default_factory=list)  # the other sheets holding data (workbooks)
    title: str | None = None  # a one-cell title row above the header, when there is one
    delimiter: str | None = None  # the cell separator of a .csv/.tsv, as detected or declared

    def where(self, row: int, column: str | None = None) -> str:
        """'sheet Cards, row 5, column B (rank)' for a row and column key."""
        if column is None:
            return describe(self.sheet, row, None) if self.sheet else f"row {row}"
        name = next((h for h in self.headers if key(h) == column), column)
        return f"{describe(self.sheet, row, self.position.get(column))} ({name})"

    def error(self, row: int | None, column: str | None, message: str, hint: str | None = None,
              field: str | None = None) -> DataError:
        """A DataError naming this file, the row (as its line) and the cell."""
        where = self.where(row, column) + ": " if row is not None else ""
        return DataError(where + message, file=self.path, line=row, field=field, hint=hint)


def text_of(value) -> str:
    """A cell as text, the same whichever format held it."""
    if type(value) is str:  # a CSV's every cell: what the last line below gives it
        return value.strip()
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ") if (value.hour, value.minute, value.second) != (0, 0, 0) \
            else value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value).strip()


def read_table(path: Path, needed: dict[str, str] | set[str], sheet: str | None = None, header_row: int | None = None,
               max_rows: int = MAX_ROWS, field: str = "data", delimiter: str | None = None,
               first_sheet: bool = False, how: Declare | None = None, columns: tuple[str, ...] | None = None,
               headerless: bool = False) -> Table:
    """The rows of the table in ``path`` whose header holds every column key in ``needed`` (a set, or
    a mapping of each key to where it is used, named in the error when a column is missing).

    ``delimiter`` (one of pnp.inputs.delimiters.DELIMITERS) overrides the one detected in a .csv or
    .tsv; ``first_sheet`` takes the first sheet holding data when ``needed`` is empty and several do
    (``pnp new``; the others are in Table.others); ``how`` words the hints (spec fields or options).
    ``columns`` names the columns of a table with no header row (every row is data; Table.header_row
    is 0); ``headerless`` lets pnp.custom.header decide that the first row is data (``pnp new``: the
    columns are then named A, B, C ... as a spreadsheet names them).

    Raises:
        DataError: missing, unreadable or oversized file; unknown suffix or sheet; a delimiter that
            cannot be told; no header row with the needed columns (naming the closest row and what
            it lacks); a header that is not unambiguous (listing the candidate rows); two columns
            with one name; a filled cell right of the header's last column; no data rows; more than
            ``max_rows`` rows.
    """
    how = how or SPEC
    uses = needed if isinstance(needed, dict) else {}
    needed = set(needed)
    raw = _read_bytes(path, field)
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        if sheet is not None:
            raise DataError(f"a {suffix} file has no sheets, but the spec names the sheet {sheet!r}.", file=path,
                            field=field, hint="remove sheet: from the component, or name a workbook (.xlsx, .ods)")
        delimiter, rows = _delimited(path, raw, suffix, delimiter, field, how)
        sheets, whole = [(None, rows)], None
    else:
        sheets, whole = _workbook(path, raw, suffix[1:], sheet, field, header_row)
    if columns is not None:
        name = sheet if sheet is not None else sheets[0][0]
        rows = whole(name) if whole else dict(sheets)[name]
        return _headerless(path, name, list(columns), rows, max_rows, field, needed, getattr(sheets, "flagged", {}))
    choice = choose(sheets, needed, header_row, first_sheet, lambda c: key(text_of(c)), headerless)
    if isinstance(choice, Ambiguous):
        raise _ambiguous(path, sheets, choice, field, how)
    if choice is not None:
        rows = whole(choice.sheet) if whole else dict(sheets)[choice.sheet]
        if choice.number == 0:
            names = [column_letter(j) for j in range(max((width(r) for r in rows), default=0))]
            table = _headerless(path, choice.sheet, names, rows, max_rows, field, needed,
                                getattr(sheets, "flagged", {}))
        else:
            table = _table(path, choice.sheet, choice.number, rows[choice.number - 1], rows, max_rows, field,
                           needed, getattr(sheets, "flagged", {}))
        table.title = text_of(rows[choice.title - 1][0]) if choice.title else None
        table.others = [n for n, r in sheets if n != choice.sheet and any(width(x) for x in r)]
        table.delimiter = delimiter if choice.sheet is None else None
        return table
    if not needed or not any(any(width(r) for r in rows[:HEADER_SEARCH]) for _, rows in sheets):
        where = f"row {header_row}" if header_row else f"the first {HEADER_SEARCH} rows"
        raise DataError(f"no header row: {where} of {'every sheet' if len(sheets) > 1 else 'the file'} "
                        "are empty.", file=path, field=field, hint="put a row of column names above the data")
    have, name, number, cells = max(((len(needed & {key(text_of(c)) for c in cells if text_of(c)}), name, n, cells)
                                     for name, rows in sheets
                                     for n, cells in (enumerate(rows[:HEADER_SEARCH], start=1) if not header_row
                                                      else [(header_row, rows[header_row - 1])]
                                                      if header_row <= len(rows) else [])),
                                    key=lambda t: t[0], default=(0, None, 1, []))
    found = [text_of(c) for c in cells if text_of(c)]
    missing = sorted(needed - {key(c) for c in found})
    used = "; ".join(f"{m!r} is used in {uses[m]}" for m in missing if m in uses)
    raise DataError(f"{_row(name, number)}: no column {', '.join(repr(m) for m in missing)}; the closest "
                    f"header row has {', '.join(found) or 'nothing'}" + (f" ({used})." if used else "."), file=path,
                    line=number, field=field,
                    hint="add the column to the sheet, or change the template's placeholders and the spec to the "
                         "columns it has")


def _headerless(path: Path, sheet: str | None, names: list[str], rows: list, max_rows: int, field: str,
                needed: set[str], flagged: dict) -> Table:
    """The Table of ``rows`` with no header row, its columns named ``names`` in order.

    Raises:
        DataError: a column the spec needs is not among ``names``; as _table.
    """
    missing = sorted(needed - {key(n) for n in names})
    if missing:
        raise DataError(f"the spec's columns: has no column {', '.join(repr(m) for m in missing)} (it names "
                        f"{', '.join(names)}).", file=path, field=field,
                        hint="name the column in columns:, or change the template's placeholders")
    return _table(path, sheet, 0, names, rows, max_rows, field, needed, flagged)


def _table(path: Path, sheet: str | None, number: int, header: list, rows: list, max_rows: int,
           field: str, needed: set[str] = frozenset(), flagged: dict | None = None) -> Table:
    """The Table below the header row ``number``; every cell of the columns in ``needed`` (all
    columns when empty) must be printable (see _unprintable; ``flagged``: the workbook's cells with
    no usable value, by (sheet, row, 0-based column))."""
    headers = [text_of(c) for c in header]
    position: dict[str, str | int] = {}
    cols: list[tuple[int, str]] = []
    for j, h in enumerate(headers):
        if not h:
            continue
        k = key(h)
        if k in position:
            first = next(i for i, k0 in cols if k0 == k)
            raise DataError(f"{_row(sheet, number)}: two columns are headed {h!r} (columns {_column(sheet, first)} and "
                            f"{_column(sheet, j)}), so a template's {{{h}}} could mean either.", file=path,
                            line=number, field=field, hint="rename or delete one of them")
        position[k] = _column(sheet, j)
        cols.append((j, k))
    last = cols[-1][0] if cols else -1
    table = Table(path, sheet, number, [h for h in headers if h], position)
    checked = [(j, k) for j, k in cols if not needed or k in needed]  # the columns whose cells are checked
    for r, cells in enumerate(rows[number:], start=number + 1):
        extra = next((j for j in range(last + 1, len(cells)) if text_of(cells[j])), None)
        if extra is not None:
            raise table.error(r, None, f"column {_column(sheet, extra)} holds {_shorten(text_of(cells[extra]))!r}, "
                              f"right of the header's last column ({_column(sheet, last)}, {headers[last]!r}).",
                              "give the column a name in the header row, or delete the stray cell", field=field)
        values = {k: text_of(cells[j]) if j < len(cells) else "" for j, k in cols}
        if not any(values.values()):
            continue
        for j, k in checked:
            why = _unprintable(values[k], flagged.get((sheet, r, j)) if flagged else None)
            if why is not None:
                raise table.error(r, k, why[0], why[1], field=field)
        if len(table.rows) >= max_rows:
            raise table.error(r, None, f"more than {max_rows:,} data rows.",
                              f"pnp reads at most {max_rows:,} rows per component; split the data", field=field)
        table.rows.append(Row(r, values))
    if not table.rows:
        raise table.error(number, None, "the header row has no data rows below it, so there is nothing to print.",
                          "add one row per card below the header", field=field)
    return table


def check_cells(table: Table, columns: list[str], field: str = "data") -> None:
    """Every cell of the ``columns`` (keys; those the table lacks are skipped) printable, as the
    columns a template reads are when the table is read (a translation column the kit prints).

    Raises:
        DataError: naming the row and column, as read_table does.
    """
    have = [c for c in columns if c in table.position]
    for row in table.rows:
        for c in have:
            why = _unprintable(row.values.get(c, ""), None)
            if why is not None:
                raise table.error(row.number, c, why[0], why[1], field=field)


def _unprintable(value: str, flagged: str | None) -> tuple[str, str] | None:
    """(message, hint) when a cell cannot be printed, as word lists refuse it: a formula with no saved
    value or an error value (``flagged`` by the workbook guard, which sees what python-calamine reads
    as empty), an error value exported as text (#DIV/0!), or a control, format (bidi) or separator
    character (pnp.inputs.textcheck.bad_character; line breaks and tabs inside a cell are text)."""
    if flagged is not None:
        return (f"the cell holds {flagged}, which pnp cannot print.",
                "open the workbook in a spreadsheet program, let it calculate, save it, and build again; "
                "or type the value")
    if value.strip() in ERROR_VALUES:
        return (f"the cell holds the spreadsheet error {value.strip()!r}, not a value to print.",
                "fix the formula in the spreadsheet and save or export the data again")
    if value.isascii() and value.isprintable():  # U+0020 to U+007E: nothing to refuse (bad_character's own test)
        return None
    bad = bad_character(value.replace("\r", " ").replace("\n", " ").replace("\t", " "))
    if bad is not None:
        i, _, why = bad
        return (f"character {i + 1} of the cell is {why}, which pnp does not print.",
                "delete it (such characters often come with text pasted from elsewhere)")
    return None


def _column(sheet: str | None, index: int) -> str | int:
    """Column ``index`` (0-based) as messages name it: a letter in workbooks, a number in .csv/.tsv."""
    return column_letter(index) if sheet is not None else index + 1


def _ambiguous(path: Path, sheets: list, choice: Ambiguous, field: str, how: Declare) -> DataError:
    rows = dict(sheets)
    listed = "; ".join(f"{_row(s, n)} ({_shorten(', '.join(text_of(c) for c in rows[s][n - 1] if text_of(c)))})"
                       for s, n in choice.candidates[:6])
    s, n = choice.candidates[-1] if not choice.sheets_only else choice.candidates[0]
    declare = how.sheet(s) if choice.sheets_only else how.header(n) + (f" and {how.sheet(s)}" if s else "")
    return DataError(f"pnp cannot tell which row is the header: {choice.why}. Candidates: {listed}.", file=path,
                     line=choice.candidates[0][1], field=field,
                     hint=f"say which, e.g. {declare}" + ("" if choice.sheets_only else
                                                          "; or put a row of column names right above the data")
                     + ("; or, if every row is a card, --no-header" if how is OPTIONS and not choice.sheets_only
                        else ""))


def _shorten(text: str, most: int = 40) -> str:
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def _row(sheet: str | None, number: int) -> str:
    return describe(sheet, number, None) if sheet is not None else f"row {number}"


def _read_bytes(path: Path, field: str) -> bytes:
    """The bytes of the data file ``path``, read only when it is a regular file (pnp.inputs.safefile: a FIFO is
    never opened, so nothing waits) of at most MAX_BYTES.

    Raises:
        DataError: missing, not a regular file (saying what it is), not a table's suffix, too large, unreadable.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise DataError(f"data file cannot be read ({exc.strerror or exc}).", file=path, field=field,
                        hint="check the path and its permissions") from None
    if st is None:
        raise DataError("data file does not exist.", file=path, field=field,
                        hint="give the path of a .csv, .tsv, .xlsx or .ods file, relative to the spec")
    if not stat.S_ISREG(st.st_mode):
        raise DataError(f"data file is not a regular file: it is {kind_of(st.st_mode)}.", file=path, field=field,
                        hint="give the path of a .csv, .tsv, .xlsx or .ods file saved on disk")
    if path.suffix.lower() not in SUFFIXES:
        raise DataError(f"data file has the suffix {path.suffix!r}, which pnp does not read as a table.", file=path,
                        field=field, hint="save it as .csv, .tsv, .xlsx or .ods")
    if st.st_size > MAX_BYTES:
        raise DataError(f"data file is larger than {size_text(MAX_BYTES)}.", file=path, field=field,
                        hint="delete unused columns, or split the data")
    try:
        raw = read_regular(path, MAX_BYTES)
    except NotRegular as exc:  # replaced since the check
        raise DataError(f"data file is not a regular file: {exc}.", file=path, field=field,
                        hint="give the path of a file saved on disk") from None
    except OSError as exc:
        raise DataError(f"data file cannot be read ({exc.strerror or exc}).", file=path, field=field,
                        hint="check its permissions") from None
    if len(raw) > MAX_BYTES:
        raise DataError(f"data file is larger than {size_text(MAX_BYTES)}.", file=path, field=field)
    return raw


def _delimited(path: Path, raw: bytes, suffix: str, delimiter: str | None, field: str,
               how: Declare) -> tuple[str, list[list[str]]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(f"row {line}: not UTF-8 (byte 0x{raw[exc.start]:02x}; the file may be Latin-1 or "
                        "Windows-1252).", file=path, line=line, field=field,
                        hint="save or export it as CSV UTF-8") from None
    if delimiter is None:
        found = detect(text, "\t" if suffix == ".tsv" else ",") if suffix == ".csv" else None
        delimiter = found.delimiter if found else "\t"
        if delimiter is None:
            names = " or ".join(DELIMITERS[d] for d in found.tied)
            raise DataError(f"the cells may be separated by {names}: the rows split alike at each.", file=path,
                            field=field, hint=f"say which: {how.delimiter(found.tied[0])}")
    rows: list[list[str]] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        for cells in reader:
            rows.append(cells)
            if len(rows) > MAX_ROWS + HEADER_SEARCH + 1:
                break  # _table reports the first row over the limit
    except csv.Error as exc:
        raise DataError(f"row {len(rows) + 1}: cannot be read as {'TSV' if delimiter == chr(9) else 'CSV'} ({exc}).",
                        file=path, line=len(rows) + 1, field=field,
                        hint="export it again, or check its quotes") from None
    return delimiter, rows


def _workbook(path: Path, raw: bytes, suffix: str, sheet: str | None, field: str,
              header_row: int | None = None) -> tuple[list[tuple[str, list]], Callable[[str], list] | None]:
    """The sheets to search for the header, as (name, rows) in a _Sheets (with the guard's flagged cells),
    and a function reading one sheet whole
    (None when the rows given are whole already). One sheet (named, or the only visible one) is read
    whole; of several, at most MAX_SHEETS are searched, one at a time, each for its first HEAD_ROWS
    rows (python-calamine still builds the sheet's cells, so the guard's counts of the cells of the
    sheets searched must stay under MAX_SEARCH_CELLS, checked before each sheet is opened).

    Raises:
        DataError: as WorkbookGuard, an unknown sheet, too many sheets or cells to search.
    """
    def fail(message: str, row: int | None = None, hint: str | None = None, where: str | None = None):
        return DataError(f"{where}: {message}" if where else message, file=path, line=row, field=field, hint=hint)

    fail.fail = fail  # _calamine_errors calls reader.fail
    guard = WorkbookGuard(raw, fail)
    kind = guard.kind(suffix, MAX_BYTES * UNPACKED_PER_BYTE)
    what = KIND_NAMES[kind]
    if kind == "ods":
        guard.check_ods_extent(MAX_CELLS, what)
    import python_calamine  # the workbook reader: imported when first needed, never at start-up
    with _calamine_errors(fail, what):
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(raw))
        sheets = [m for m in book.sheets_metadata if m.typ == python_calamine.SheetTypeEnum.WorkSheet]
        names = [m.name for m in sheets]
        visible = [m.name for m in sheets if m.visible == python_calamine.SheetVisibleEnum.Visible]
    if sheet is not None and sheet not in names:
        raise fail(f"the {what} has no sheet {sheet!r}; its sheets are {', '.join(names)}.",
                   hint="name one of its sheets")
    search = [sheet] if sheet else visible  # hidden sheets only when named
    if len(search) > MAX_SHEETS:
        raise fail(f"the {what} has {len(search):,} sheets; pnp searches at most {MAX_SHEETS} of them for the "
                   "header row.", hint="name the sheet that holds the list (sheet: in the spec, --sheet for pnp "
                                       "new), or save the list as its own workbook or .csv")

    def read(name: str, nrows: int | None = None) -> list:
        with _calamine_errors(fail, what):
            got = book.get_sheet_by_name(name)
            return got.to_python(skip_empty_area=False) if nrows is None else \
                got.to_python(skip_empty_area=False, nrows=nrows)

    if len(search) == 1:
        if kind == "xlsx":
            guard.check_xlsx_extent(search[0], MAX_CELLS, what)
        return _Sheets([(search[0], read(search[0]))], guard.flagged), None
    out, cells = [], 0
    for name in search:  # one at a time: each sheet's cells are dropped before the next is opened
        if kind == "xlsx":
            cells += guard.check_xlsx_extent(name, MAX_CELLS, what)
            if cells > MAX_SEARCH_CELLS:
                raise fail(f"the sheets up to {_shorten(name)!r} span {cells:,} cells; pnp searches at most "
                           f"{MAX_SEARCH_CELLS:,} cells of a workbook's sheets for the header row.",
                           hint="name the sheet that holds the list (sheet: in the spec, --sheet for pnp new), "
                                "or delete the cells far from the lists")
        out.append((name, read(name, max(HEAD_ROWS, header_row or 0))))
    return _Sheets(out, guard.flagged), read


class _Sheets(list):
    """A workbook's (name, rows) sheets, and the guard's ``flagged`` cells (formula without a saved
    value, error values) that python-calamine reads as empty."""

    def __init__(self, sheets: list, flagged: dict) -> None:
        super().__init__(sheets)
        self.flagged = flagged
