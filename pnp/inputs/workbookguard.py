"""Guarding a workbook (.xlsx, .ods) before python-calamine opens it: its kind, its unpacked size and
the extent of its sheets.

python-calamine allocates every cell of a sheet's bounding box, so a 5 KB file with one cell at
XFD1048576 could exhaust memory. WorkbookGuard reads the zip archive's directory and streams the sheet
XML through expat, counting the bounding box of the cells that hold a value, and refuses the file at
the first limit: unpacked size, or cells in the bounding box (for .ods, all sheets together, because
python-calamine reads every sheet of an .ods when it opens it). Used by pnp.inputs.listfile.
"""
from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from typing import Callable
from xml.parsers import expat

from ..core.errors import PnpError

# what zipfile raises on a damaged or unusual archive (unsupported version or compression, encryption, ...)
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error, RuntimeError,
               NotImplementedError, KeyError, ValueError, OverflowError)
_ODS_MIME = b"application/vnd.oasis.opendocument.spreadsheet"
MAX_FLAGGED = 200_000  # formula or error cells remembered per workbook (the list reader reads at most this many rows)
KIND_NAMES = {"xlsx": "Excel workbook (.xlsx)", "ods": "OpenDocument spreadsheet (.ods)"}


def column_letter(index: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def size_text(n: int) -> str:
    """'16 MB' for a whole number of MiB, else '1,234 bytes'."""
    mb = 1024 * 1024
    return f"{n // mb} MB" if n >= mb and n % mb == 0 else f"{n:,} bytes"


class WorkbookGuard:
    """The checks on one workbook's bytes. ``fail(message, hint=...)`` builds the error raised (the
    list reader's, so it names the file).

    Raises (every method): the error from ``fail``.
    """

    def __init__(self, raw: bytes, fail: Callable[..., PnpError]) -> None:
        self.raw, self.fail = raw, fail
        self.zip: zipfile.ZipFile | None = None
        self.flagged: dict[tuple[str, int, int], str] = {}
        """(sheet, 1-based row, 0-based column) -> why the cell has no usable value: "an error value
        (#DIV/0!)" or "a formula with no saved value (=A1&B1)"; filled by the extent checks, which
        see the XML (python-calamine reads both as an empty cell)."""

    def _flag(self, sheet: str, row: int, col: int, formula: str, value: str, error: bool) -> None:
        """Remember a formula cell without a saved value, or an error cell (at most MAX_FLAGGED)."""
        if error:
            why = f"the error value {value.strip()[:20] or '#ERROR'}" + (f" (from ={formula[:40]})" if formula else "")
        elif not value.strip():
            why = f"a formula with no saved value (={formula[:40]})"
        else:
            return
        if len(self.flagged) < MAX_FLAGGED:
            self.flagged.setdefault((sheet, row, col), why)

    def kind(self, suffix: str, max_unpacked: int) -> str:
        what = KIND_NAMES[suffix]
        other = "xlsx" if suffix == "ods" else "ods"
        hint = (f"save it from a spreadsheet program as {what}, or if it is a plain list rename it to .txt or .csv "
                "(a password-protected workbook must be saved without the password)")
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(self.raw))
            names = set(self.zip.namelist())
            unpacked = sum(i.file_size for i in self.zip.infolist())
        except _ZIP_ERRORS:
            raise self.fail(f"not a valid {what}: it is not a readable zip archive.", hint=hint) from None
        if unpacked > max_unpacked:
            raise self.fail(f"the {what} unpacks to more than {size_text(max_unpacked)}.",
                            hint="delete other sheets and columns, or save the list as .csv")
        kinds = []
        if "xl/workbook.xml" in names:
            kinds.append("xlsx")
        if {"content.xml", "mimetype"} <= names and self._member("mimetype", 200, what).strip() == _ODS_MIME:
            kinds.append("ods")
        if not kinds:
            raise self.fail(f"not a valid {what}: the zip archive holds no spreadsheet.", hint=hint)
        return suffix if suffix in kinds else other

    def _member(self, name: str, limit: int, what: str) -> bytes:
        try:
            with self.zip.open(name) as fh:
                return fh.read(limit)
        except _ZIP_ERRORS:
            raise self.fail(f"not a valid {what}: its part {name} cannot be unpacked.",
                            hint=f"save it again as {what}") from None

    def _parse(self, name: str, what: str, start, end=None, text=None) -> None:
        """Stream the zip part ``name`` through expat: start(name, attrs), end(name), text(data), names
        as 'namespace}local' (turn them into local names with _LOCAL[name])."""
        parser = expat.ParserCreate(namespace_separator="}")
        parser.StartElementHandler = start
        if end is not None:
            parser.EndElementHandler = end
        if text is not None:
            parser.CharacterDataHandler = text
        try:
            with self.zip.open(name) as fh:
                while True:
                    chunk = fh.read(1 << 20)
                    if not chunk:
                        break
                    parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except expat.ExpatError as exc:
            raise self.fail(f"not a valid {what}: {name} is not well-formed XML ({expat.ErrorString(exc.code)}, "
                            f"line {exc.lineno}).", hint=f"save it again as {what}") from None
        except _ZIP_ERRORS:
            raise self.fail(f"not a valid {what}: its part {name} cannot be unpacked.",
                            hint=f"save it again as {what}") from None

    def _extent_error(self, sheet: str, rows: int, cols: int, max_cells: int):
        return self.fail(f"sheet {sheet} spans {rows:,} rows x {cols:,} columns (up to cell "
                         f"{column_letter(cols - 1)}{rows}); pnp reads sheets of at most {max_cells:,} cells.",
                         hint="delete the cells far from the list (select the rows and columns after it and delete "
                              "them), or save just the list as .csv")

    def check_xlsx_extent(self, sheet: str, max_cells: int, what: str) -> int:
        """Bounding box of the cells with a value (<v>, <is> or <f>), as python-calamine will build it;
        returns its cells (rows x columns)."""
        total = 0
        for part in self._xlsx_sheet_parts(sheet, what):
            st = {"row": 0, "col": 0, "cell_row": 0, "rows": 0, "cols": 0, "in_cell": False, "error": False,
                  "text": False, "formula": None, "value": None, "into": None}

            def start(name, attrs, st=st):
                tag = _LOCAL[name]
                if tag in ("f", "v"):
                    st["into"] = tag
                    if st[{"f": "formula", "v": "value"}[tag]] is None:
                        st[{"f": "formula", "v": "value"}[tag]] = ""
                if tag == "row":
                    r = attrs.get("r", "")
                    st["row"] = int(r) if r.isdigit() else st["row"] + 1
                    st["col"] = 0
                elif tag == "c":
                    ref = _CELL_REF.fullmatch(attrs.get("r", ""))
                    st["col"] = _column_index(ref.group(1)) + 1 if ref else st["col"] + 1
                    st["cell_row"] = int(ref.group(2)) if ref else st["row"]
                    st["in_cell"] = True
                    st.update(error=attrs.get("t") == "e", text=attrs.get("t") == "str", formula=None, value=None,
                              into=None)
                elif tag in ("v", "is", "f") and st["in_cell"]:
                    st["in_cell"] = False  # counted once
                    rows, cols = max(st["rows"], st["cell_row"]), max(st["cols"], st["col"])
                    if rows * cols > max_cells:
                        raise self._extent_error(sheet, rows, cols, max_cells)
                    st["rows"], st["cols"] = rows, cols

            def end(name, st=st):
                tag = _LOCAL[name]
                if tag in ("f", "v"):
                    st["into"] = None
                elif tag == "c" and (st["error"] or st["formula"] is not None):
                    # an empty <v> is a saved empty text only in a cell typed t="str"
                    value = st["value"] if st["value"] or not st["text"] else "\0"
                    self._flag(sheet, st["cell_row"], st["col"] - 1, st["formula"] or "", value or "", st["error"])

            def text(data, st=st):
                into = st["into"]
                if into == "v" and len(st["value"]) < 100:
                    st["value"] += data
                elif into == "f" and len(st["formula"]) < 100:
                    st["formula"] += data

            self._parse(part, what, start, end, text)
            total += st["rows"] * st["cols"]
        return total

    def _xlsx_sheet_parts(self, sheet: str, what: str) -> list[str]:
        """The zip part of ``sheet`` (via xl/workbook.xml and its relationships), or every worksheet part."""
        found: dict[str, str] = {}
        targets: dict[str, str] = {}

        def sheets(name, attrs):
            rid = next((v for k, v in attrs.items() if _LOCAL[k] == "id"), None)
            if _LOCAL[name] == "sheet" and attrs.get("name") is not None and rid:
                found.setdefault(attrs["name"], rid)

        def rels(name, attrs):
            if _LOCAL[name] == "Relationship" and attrs.get("Id") and attrs.get("Target"):
                targets[attrs["Id"]] = attrs["Target"]

        self._parse("xl/workbook.xml", what, sheets)
        names = set(self.zip.namelist())
        if "xl/_rels/workbook.xml.rels" in names:
            self._parse("xl/_rels/workbook.xml.rels", what, rels)
        target = targets.get(found.get(sheet, ""), "")
        part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
        if target and part in names:
            return [part]
        return sorted(n for n in names if n.startswith("xl/worksheets/") and n.endswith(".xml"))

    def check_ods_extent(self, max_cells: int, what: str) -> None:
        """Bounding boxes of the non-empty cells of every sheet (repeats expanded, as python-calamine does),
        added up: python-calamine reads all sheets of an .ods when it opens it."""
        st = {"depth": 0, "sheet": "", "row": 0, "repeat": 1, "col": 0, "last": 0, "span": 0, "cell": False,
              "full": False, "rows": 0, "cols": 0, "total": 0, "text": "", "formula": None, "error": False,
              "saved": False}

        def count(value: str | None) -> int:
            return int(value) if value and value.isdigit() else 1

        def start(name, attrs):
            tag = _LOCAL[name]
            if tag == "table":
                st["depth"] += 1
                if st["depth"] == 1:
                    st.update(sheet=attrs.get(_TABLE + "name", "?"), row=0, rows=0, cols=0)
            elif st["depth"] != 1:
                if st["cell"]:
                    st["full"] = True  # anything inside a cell (even a nested table) makes it non-empty
            elif tag == "table-row":
                st.update(repeat=count(attrs.get(_TABLE + "number-rows-repeated")), col=0, last=0)
            elif tag in ("table-cell", "covered-table-cell"):
                st.update(cell=True, span=count(attrs.get(_TABLE + "number-columns-repeated")),
                          full=any(_LOCAL[k] == "value-type" for k in attrs), text="",
                          formula=attrs.get(_TABLE + "formula"),
                          error=any(_LOCAL[k] == "value-type" and v == "error" for k, v in attrs.items()),
                          saved=any(_LOCAL[k] == "value-type" for k in attrs))
                if st["formula"] is not None:
                    st["full"] = True  # python-calamine gives the cell a (possibly empty) value
            elif st["cell"]:
                st["full"] = True

        def end(name):
            tag = _LOCAL[name]
            if tag == "table":
                st["depth"] -= 1
                if st["depth"] == 0:
                    st["total"] += st["rows"] * st["cols"]
            elif st["depth"] != 1:
                return
            elif tag in ("table-cell", "covered-table-cell"):
                if st["error"] or (st["formula"] is not None and not st["saved"]):
                    formula = st["formula"] or ""
                    formula = formula.split(":", 1)[1] if formula.startswith(("of:", "oooc:", "msoxl:")) else formula
                    self._flag(st["sheet"], st["row"] + 1, st["col"], formula.lstrip("="), st["text"] or "",
                               st["error"])
                if st["full"]:
                    st["last"] = st["col"] + st["span"]
                st["col"] += st["span"]
                st["cell"] = False
            elif tag == "table-row":
                if st["last"]:
                    rows, cols = st["row"] + st["repeat"], max(st["cols"], st["last"])
                    if rows * cols + st["total"] > max_cells:
                        raise self._extent_error(st["sheet"], rows, cols, max_cells)
                    st["rows"], st["cols"] = rows, cols
                st["row"] += st["repeat"]

        def text(data):
            if st["cell"] and st["depth"] == 1 and len(st["text"]) < 100:
                st["text"] += data

        self._parse("content.xml", what, start, end, text)


class _LocalNames(dict):
    """'namespace}local' -> 'local', remembered."""

    def __missing__(self, name: str) -> str:
        local = self[name] = name.rpartition("}")[2]
        return local


_LOCAL = _LocalNames()
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_CELL_REF = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]+)")


def _column_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1

