"""Reading "a list of values from a file", for any game input that is a list (NetMatch's words, ...).

Accepted files, by suffix (any case):

* ``.txt``: UTF-8 (a byte-order mark and CRLF line ends are fine), one value per line; blank lines and
  lines starting with ``#`` are skipped. Locations are line numbers.
* ``.csv`` and ``.tsv``: as Excel, LibreOffice and Google Sheets export them (UTF-8 with or without a
  byte-order mark, CRLF, quoted cells, cells holding line breaks). A ``.csv`` whose header row is
  separated by ``;`` (Excel in many European locales) is read with ``;``. Windows-1252 is not
  guessed: a byte that is not UTF-8 is an error naming its row.
* ``.xlsx`` and ``.ods``: read with python-calamine, first visible sheet unless ``sheet`` names
  another. A number, date, time or true/false value in the column read is an error naming the cell,
  and so is a formula cell with no saved value (a file written by a program that does not calculate,
  which python-calamine reads as empty) or an error value (#DIV/0!, #N/A, #REF!, #VALUE!, #NAME?,
  #NUM!, #NULL!, ...; in .csv too).
* Every format: a value holding a control, format or separator character (U+2028, U+0085, a bidi
  override, ...) is refused; .txt lines are counted as an editor counts them (\n, \r\n, \r).

The values come from the column whose header is ``column`` (any case, surrounding spaces ignored) in
the first non-empty row; with no such header, that row is data and the values come from its first
non-empty column. Other columns are ignored, and so are empty cells (``#`` is a comment in .txt only).

Limits: the file's size is checked before it is parsed (``max_bytes``); a workbook must also unpack
to at most UNPACKED_PER_BYTE times that and its sheet must span at most ``max_cells`` cells (both
checked before python-calamine sees the file, which would otherwise allocate every cell of the
sheet's bounding box, so a 5 KB file with one cell at XFD1048576 could exhaust memory: see
pnp.inputs.workbookguard); the number of values is checked while reading (``max_rows``).

Every problem raises ``error`` (pnp.core.errors.WordListError unless another PnpError subclass is given)
naming the file, ``line`` = the row, and the sheet, row and column in the message.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ..core.errors import PnpError, WordListError
from ..core.values import value
from .safefile import NotRegular, read_regular, wrong_encoding
from .cellvalues import ERROR_VALUES, is_empty as _is_empty, kind_of as _kind_of
from .textcheck import bad_character, editor_lines, line_of_byte
from .workbookguard import KIND_NAMES, WorkbookGuard, column_letter, size_text

SUFFIXES = (".txt", ".csv", ".tsv", ".xlsx", ".ods")
MAX_ROWS = 200_000
MAX_BYTES = 16 * 1024 * 1024
MAX_CELLS = 2_000_000
UNPACKED_PER_BYTE = 10

__all__ = ["MAX_BYTES", "MAX_CELLS", "MAX_ROWS", "SUFFIXES", "UNPACKED_PER_BYTE", "Entry", "column_letter",
           "describe", "read_list"]


@value
class Entry:
    """One value and where it was: ``sheet`` (workbooks only), 1-based ``row`` (the line of a .txt),
    ``column`` (a letter in workbooks, a 1-based number in .csv/.tsv, None in .txt)."""
    value: str
    sheet: str | None
    row: int
    column: str | int | None

    @property
    def where(self) -> str:
        """'sheet Words, row 12, column B', 'row 12, column 2' or 'line 12'."""
        return describe(self.sheet, self.row, self.column)


def describe(sheet: str | None, row: int, column: str | int | None) -> str:
    """The human name of a location: 'sheet Words, row 12, column B', 'row 12, column 2' or 'line 12'."""
    if column is None and sheet is None:
        return f"line {row}"
    parts = [f"sheet {sheet}"] if sheet is not None else []
    parts.append(f"row {row}")
    if column is not None:
        parts.append(f"column {column}")
    return ", ".join(parts)



def read_list(path: str | Path, column: str = "word", *, sheet: str | None = None, max_rows: int = MAX_ROWS,
              max_bytes: int = MAX_BYTES, max_cells: int = MAX_CELLS, error: type[PnpError] = WordListError,
              field: str | None = None, label: str = "list", item: str = "value") -> list[Entry]:
    """The non-empty values of one column of a .txt, .csv, .tsv, .xlsx or .ods file, in file order.

    Args:
        path: the file; its suffix chooses the format.
        column: the header that marks the column to read (compared ignoring case and outer spaces).
        sheet: the sheet of a workbook to read (default: the first visible one).
        max_rows: most values read; one more is an error naming its row.
        max_bytes: largest file accepted (checked before parsing).
        max_cells: largest bounding box (rows x columns) of a workbook sheet accepted.
        error: the PnpError subclass raised.
        field: the option or spec field that named the file, given with errors about the file itself.
        label, item: words used in messages: "word list does not exist", "more than 5 words".

    Returns:
        The values (stripped, never empty) with their locations. An empty list if there are none.

    Raises:
        ``error``: missing or unreadable file, unknown suffix, too large, not UTF-8 (text formats),
            not a valid workbook, unknown sheet, a non-text cell in the column, more than
            ``max_rows`` values.
    """
    path = Path(path)
    accepted = ", ".join(SUFFIXES[:-1]) + " or " + SUFFIXES[-1]
    suffix = path.suffix.lower()
    try:
        exists = path.exists()
    except (OSError, ValueError):
        exists = False
    if not exists:
        raise error(f"{label} does not exist.", file=path, field=field, hint=f"give the path of a {accepted} file")
    if suffix not in SUFFIXES and path.is_file():
        raise error(f"{label} has the suffix {path.suffix!r}, which pnp does not read." if path.suffix else
                    f"{label} has no suffix, so pnp cannot tell its format.", file=path,
                    field=field, hint=f"save it as one of {accepted} (a plain text list is .txt, one {item} per line)")
    try:
        raw = read_regular(path, max_bytes)
    except NotRegular as exc:
        what = "is not a file" if exc.kind == "a folder" else f"is not a regular file: {exc.kind}"
        raise error(f"{label} {what}.", file=path, field=field, hint=f"give the path of a {accepted} file") from None
    except OSError as exc:
        raise error(f"{label} cannot be read ({exc.strerror or exc}).", file=path, field=field,
                    hint="check the file's permissions") from None
    if suffix not in SUFFIXES:
        raise error(f"{label} has the suffix {path.suffix!r}, which pnp does not read." if path.suffix else
                    f"{label} has no suffix, so pnp cannot tell its format.", file=path,
                    field=field, hint=f"save it as one of {accepted} (a plain text list is .txt, one {item} per line)")
    if len(raw) > max_bytes:
        raise _too_big(path, label, item, max_bytes, max_rows, error)
    encoding = wrong_encoding(raw) if suffix in (".txt", ".csv", ".tsv") else None
    if encoding is not None:
        raise error(f"{label} is {encoding}, not UTF-8.", file=path, line=1,
                    hint="save or export the list as UTF-8 (\"CSV UTF-8\" or \"Unicode (UTF-8)\" in a spreadsheet)")
    reader = _Reader(path, raw, column, max_rows, error, item)
    if suffix == ".txt":
        return reader.text_lines()
    if suffix in (".csv", ".tsv"):
        return reader.delimited("\t" if suffix == ".tsv" else ",")
    return reader.workbook(suffix[1:], sheet, max_bytes * UNPACKED_PER_BYTE, max_cells)


def _too_big(path: Path, label: str, item: str, max_bytes: int, max_rows: int, error: type[PnpError]) -> PnpError:
    return error(f"{label} is larger than {size_text(max_bytes)}.", file=path,
                 hint=f"pnp reads at most {max_rows:,} {item}s; split the list or delete other columns")




class _Reader:
    def __init__(self, path: Path, raw: bytes, column: str, max_rows: int, error: type[PnpError], item: str):
        self.path, self.raw, self.error, self.item = path, raw, error, item
        self.header = column.strip().casefold()
        self.max_rows = max_rows
        self.out: list[Entry] = []

    def fail(self, message: str, row: int | None = None, hint: str | None = None, where: str | None = None):
        text = f"{where}: {message}" if where else message
        return self.error(text, file=self.path, line=row, hint=hint)

    def add(self, value: str, sheet: str | None, row: int, column: str | int | None) -> None:
        self.out.append(Entry(value, sheet, row, column))
        if len(self.out) > self.max_rows:
            raise self.fail(f"more than {self.max_rows:,} {self.item}s.", row,
                            f"split the list: pnp reads at most {self.max_rows:,} {self.item}s",
                            None if column is None and sheet is None else describe(sheet, row, column))

    # .txt -------------------------------------------------------------------------------------------
    def text_lines(self) -> list[Entry]:
        try:
            text = self.raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = line_of_byte(self.raw, exc.start)
            raise self.fail(f"not UTF-8: byte 0x{self.raw[exc.start]:02x} cannot be decoded (the file may be "
                            "Latin-1 or Windows-1252).", line, "save the list as UTF-8") from None
        for number, line in enumerate(editor_lines(text), start=1):
            value = line.strip()
            if value and not value.startswith("#"):
                self.check_characters(value, number, None, None)
                self.add(value, None, number, None)
        return self.out

    def check_characters(self, value: str, row: int, sheet: str | None, column: str | int | None) -> None:
        """Refuse a spreadsheet error value (ERROR_VALUES) or a value holding a control, format or separator
        character (tabs included), naming it and its place in the line (for .txt) or its cell."""
        if value in ERROR_VALUES:
            raise self.fail(f"the cell holds the spreadsheet error value {value}, not a {self.item}.", row,
                            "fix the formula that gave the error in the spreadsheet, or type the value as text",
                            describe(sheet, row, column))
        bad = bad_character(value, allow_tab=False)
        if bad is not None:
            index, _, why = bad
            cell = sheet is not None or column is not None
            raise self.fail(f"{value[:40]!r} contains {why}, at character {index + 1}.", row,
                            f"delete it: one {self.item} per line, plain text only",
                            describe(sheet, row, column) if cell else None)

    # .csv / .tsv ------------------------------------------------------------------------------------
    def delimited(self, delimiter: str) -> list[Entry]:
        text = self.raw.decode("utf-8-sig", errors="surrogateescape")  # bad bytes are reported by row below
        if delimiter == ",":
            delimiter = self._sniff_semicolon(text)
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
        col = None  # 0-based index of the column read, once known
        row = 0
        try:
            for row, cells in enumerate(reader, start=1):
                for j, cell in enumerate(cells):
                    bad = _SURROGATE.search(cell)
                    if bad:
                        byte = ord(bad.group()) - 0xDC00
                        raise self.fail(f"not UTF-8: byte 0x{byte:02x} cannot be decoded (the file may be Latin-1 "
                                        "or Windows-1252).", row, "save or export the list as CSV UTF-8",
                                        describe(None, row, j + 1))
                if col is None:
                    if not any(c.strip() for c in cells):
                        continue
                    col, is_header = self._pick_column(cells, None, row, lambda j: j + 1)
                    if is_header:
                        continue
                value = cells[col].strip() if col < len(cells) else ""
                if value:
                    self.check_characters(value, row, None, col + 1)
                    self.add(value, None, row, col + 1)
        except csv.Error as exc:
            raise self.fail(f"the file cannot be read as {'TSV' if delimiter == chr(9) else 'CSV'} ({exc}).",
                            row + 1, "export it again from the spreadsheet, or check its quotes",
                            f"row {row + 1}") from None
        return self.out

    def _sniff_semicolon(self, text: str) -> str:
        """';' if the first non-empty line, split at ';', has the header (Excel's CSV in many locales)."""
        for line in io.StringIO(text, newline=None):
            if line.strip():
                if "," not in line and ";" in line:
                    cells = next(csv.reader([line], delimiter=";"), [])
                    if any(c.strip().casefold() == self.header for c in cells):
                        return ";"
                break
        return ","

    def _pick_column(self, cells: list, sheet: str | None, row: int, name) -> tuple[int, bool]:
        """(0-based column, whether ``cells`` is the header row) from the first non-empty row."""
        hits = [j for j, c in enumerate(cells) if isinstance(c, str) and c.strip().casefold() == self.header]
        if len(hits) > 1:
            raise self.fail(f"two columns are headed {self.header!r} (columns {name(hits[0])} and "
                            f"{name(hits[1])}).", row, "rename or delete one of them", describe(sheet, row, None))
        if hits:
            return hits[0], True
        return next(j for j, c in enumerate(cells) if not _is_empty(c)), False

    # .xlsx / .ods -----------------------------------------------------------------------------------
    def workbook(self, suffix: str, sheet: str | None, max_unpacked: int, max_cells: int) -> list[Entry]:
        guard = WorkbookGuard(self.raw, self.fail)
        kind = guard.kind(suffix, max_unpacked)
        what = KIND_NAMES[kind]
        if kind == "ods":  # python-calamine reads every sheet of an .ods when it opens it
            guard.check_ods_extent(max_cells, what)
        try:
            import python_calamine  # the workbook reader: imported when first needed, never at start-up
        except ImportError:  # pragma: no cover - a broken install
            raise self.fail("reading .xlsx and .ods needs the python-calamine package, which is not installed.",
                            hint="pip install python-calamine, or save the list as .csv or .txt") from None
        with _calamine_errors(self, what):
            book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(self.raw))
            names = list(book.sheet_names)
            if sheet is None:
                visible = [m.name for m in book.sheets_metadata
                           if m.visible == python_calamine.SheetVisibleEnum.Visible
                           and m.typ == python_calamine.SheetTypeEnum.WorkSheet]
                name = visible[0] if visible else (names[0] if names else None)
            else:
                name = sheet
        if not names:
            raise self.fail(f"the {what} has no sheets.", hint="save a workbook with the list on a sheet")
        if name not in names:
            raise self.fail(f"the {what} has no sheet {name!r}; its sheets are {', '.join(names)}.",
                            hint="name one of its sheets")
        if kind == "xlsx":  # python-calamine reads one sheet of an .xlsx at a time
            guard.check_xlsx_extent(name, max_cells, what)
        with _calamine_errors(self, what):
            rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        col = None
        for r, cells in enumerate(rows, start=1):
            if col is None:
                if all(_is_empty(c) for c in cells):
                    continue
                col, is_header = self._pick_column(cells, name, r, column_letter)
                if is_header:
                    continue
            value = cells[col] if col < len(cells) else ""
            if (name, r, col) in guard.flagged:
                raise self._unsaved(guard, name, r, col)
            if not isinstance(value, str):
                raise self.fail(f"the cell holds {_kind_of(value)}, not text.", r,
                                f"type the {self.item} as text (format the column as Text)",
                                describe(name, r, column_letter(col)))
            value = value.strip()
            if value:
                self.check_characters(value, r, name, column_letter(col))
                self.add(value, name, r, column_letter(col))
        # python-calamine drops trailing rows whose only cell is a formula with no value: look past them
        later = sorted(r for s, r, c in guard.flagged if s == name and c == col and r > len(rows))
        if col is not None and later:
            raise self._unsaved(guard, name, later[0], col)
        return self.out

    def _unsaved(self, guard: WorkbookGuard, sheet: str, row: int, col: int) -> PnpError:
        return self.fail(f"the cell holds {guard.flagged[(sheet, row, col)]}, not a {self.item}.", row,
                         "open the file in the spreadsheet program, let it calculate, and save it again; or "
                         f"type the {self.item} as text", describe(sheet, row, column_letter(col)))



class _calamine_errors:
    """Turn anything python-calamine raises on a broken workbook into the reader's error."""

    def __init__(self, reader: _Reader, what: str):
        self.reader, self.what = reader, what

    def __enter__(self):
        return self

    def __exit__(self, typ, exc, tb):
        if exc is None or isinstance(exc, PnpError):
            return False
        if isinstance(exc, Exception) or type(exc).__name__ == "PanicException":  # pyo3 panics are BaseException
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise self.reader.fail(f"not a valid {self.what}: {detail}.",
                                   hint=f"open it in a spreadsheet program and save it again as {self.what}") from None
        return False


_SURROGATE = re.compile("[\udc80-\udcff]")
