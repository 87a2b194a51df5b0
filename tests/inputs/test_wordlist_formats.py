"""NetMatch word lists from .txt, .csv, .tsv, .xlsx and .ods (pnp.inputs.listfile + pnp.games.netmatch.wordlist).

Every fixture is written at test time: .csv/.tsv with the csv module, .xlsx with openpyxl (test-only),
.ods by writing the OpenDocument zip and XML here.
"""
from __future__ import annotations

import hashlib
import csv
import datetime
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pnp.games.netmatch import wordlist
from pnp.cli import app
from pnp.core.errors import PnpError, SpecError, WordListError
from pnp.inputs.listfile import Entry, column_letter, read_list
from pnp.games.netmatch.wordlist import read_words

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "specs" / "netmatch" / "netmatch-words.txt"
FORMATS = ["txt", "csv", "tsv", "xlsx", "ods"]


@pytest.fixture(scope="module")
def seed_words() -> tuple[str, ...]:
    words = read_words(SEED).words
    assert len(words) == 75
    return words


# --- writers -----------------------------------------------------------------------------------------

def write_csv(path: Path, rows: list[list], delimiter: str = ",", bom: bool = True, quote_all: bool = True) -> Path:
    """As Excel's 'CSV UTF-8' export: a byte-order mark, CRLF, quoted cells."""
    with path.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator="\r\n",
                   quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL).writerows(
            [["" if v is None else v for v in row] for row in rows])
    return path


def write_xlsx(path: Path, sheets: dict[str, list[list]], origin: str = "A1") -> Path:
    """Each sheet's rows placed from ``origin`` (e.g. 'B3'); None leaves a cell empty."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    col0 = ord(origin[0]) - 64
    row0 = int(origin[1:])
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for i, row in enumerate(rows):
            for j, value in enumerate(row):
                if value is not None:
                    ws.cell(row=row0 + i, column=col0 + j, value=value)
    wb.save(path)
    return path


_ODS_MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>"""
_ODS_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" \
xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">\
<office:body><office:spreadsheet>"""
_ODS_TAIL = "</office:spreadsheet></office:body></office:document-content>"
# what LibreOffice writes after the last used row: empty rows and cells repeated to the sheet's edge
_ODS_EDGE = ('<table:table-row table:number-rows-repeated="1048000">'
             '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>')


def _ods_cell(v) -> str:
    if v is None:
        return "<table:table-cell/>"
    if isinstance(v, bool):
        return f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(v).lower()}"/>'
    if isinstance(v, (int, float)):
        return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
    if isinstance(v, datetime.date):
        return (f'<table:table-cell office:value-type="date" office:date-value="{v.isoformat()}">'
                f'<text:p>{v.isoformat()}</text:p></table:table-cell>')
    return f'<table:table-cell office:value-type="string"><text:p>{escape(v)}</text:p></table:table-cell>'


def ods_table(name: str, rows: list[list], extra: str = _ODS_EDGE) -> str:
    body = "".join("<table:table-row>" + "".join(_ods_cell(v) for v in row)
                   + '<table:table-cell table:number-columns-repeated="1000"/></table:table-row>' for row in rows)
    return f"<table:table table:name={quoteattr(name)}>{body}{extra}</table:table>"


def write_ods(path: Path, sheets: dict[str, list[list]] | None = None, tables: str | None = None) -> Path:
    """A minimal OpenDocument spreadsheet: mimetype (stored, first), manifest, content.xml."""
    tables = tables if tables is not None else "".join(ods_table(n, rows) for n, rows in sheets.items())
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", _ODS_MANIFEST, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", _ODS_HEAD + tables + _ODS_TAIL, compress_type=zipfile.ZIP_DEFLATED)
    return path


def write_list(tmp: Path, fmt: str, words: list[str], name: str = "w") -> tuple[Path, int, str | int | None]:
    """The words in one format, laid out as a user would: returns (path, row of words[0], column).

    txt: a comment line first; csv: a `Word,Notes` header, quoted cells with commas, quotes and line breaks
    in the notes; tsv: no header (first column); xlsx/ods: sheet Words (with a second sheet after it),
    a blank first row, header `Word` in column B, notes in column C."""
    notes = [f'note {i}, with "quotes"' + ("\nand a second line" if i % 7 == 0 else "") for i in range(len(words))]
    if fmt == "txt":
        path = tmp / f"{name}.txt"
        path.write_text("# a comment\n" + "\n".join(words) + "\n", encoding="utf-8")
        return path, 2, None
    if fmt == "csv":
        return write_csv(tmp / f"{name}.csv", [["Word", "Notes"]] + [[w, n] for w, n in zip(words, notes)]), 2, 1
    if fmt == "tsv":
        return write_csv(tmp / f"{name}.tsv", [[w, f"note {i}"] for i, w in enumerate(words)], "\t",
                         bom=False, quote_all=False), 1, 1
    rows = [[None, None], ["Word", "Notes"]] + [[w, n] for w, n in zip(words, notes)]
    sheets = {"Words": rows, "Other": [["ZZZZ"], ["not", "read"]]}
    if fmt == "xlsx":
        return write_xlsx(tmp / f"{name}.xlsx", sheets, origin="B1"), 3, "B"
    return write_ods(tmp / f"{name}.ods", {k: [[None] + r for r in v] for k, v in sheets.items()}), 3, "B"


def where(fmt: str, row: int, column) -> str:
    if fmt == "txt":
        return f"line {row}"
    return ("sheet Words, " if fmt in ("xlsx", "ods") else "") + f"row {row}, column {column}"


# --- the same words in every format -------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_gives_the_seed_words(tmp_path, seed_words, fmt):
    path, first_row, column = write_list(tmp_path, fmt, list(seed_words))
    wl = read_words(path)
    assert wl.words == seed_words
    assert wl.lines[0] == first_row and wl.lines[-1] == first_row + len(seed_words) - 1
    assert wl.column == column
    assert wl.sheet == ("Words" if fmt in ("xlsx", "ods") else None)
    assert wl.where(0) == where(fmt, first_row, column)


def test_txt_keeps_its_line_numbers(seed_words):
    wl = read_words(SEED)
    lines = SEED.read_text(encoding="utf-8").splitlines()
    assert [lines[n - 1] for n in wl.lines] == list(seed_words)
    assert wl.sheet is None and wl.column is None and wl.where(0) == f"line {wl.lines[0]}"


@pytest.mark.parametrize("fmt", FORMATS)
def test_read_list_locations(tmp_path, fmt):
    path, row, column = write_list(tmp_path, fmt, ["TEST", "WITH", "HILL"])
    entries = read_list(path)
    sheet = "Words" if fmt in ("xlsx", "ods") else None
    assert entries == [Entry(w, sheet, row + i, column) for i, w in enumerate(["TEST", "WITH", "HILL"])]


def test_the_seed_list_works_through_the_cli_as_a_workbook(tmp_path, seed_words):
    path, _, _ = write_list(tmp_path, "xlsx", list(seed_words))
    r = CliRunner().invoke(app, ["validate", "netmatch", "--words", str(path)])
    assert r.exit_code == 0, r.output
    assert "75 word cards" in r.output


# --- which column --------------------------------------------------------------------------------------

@pytest.mark.parametrize("header", ["word", "WORD", "Word", "  wOrD  "])
def test_header_in_any_case_picks_its_column(tmp_path, header):
    path = write_csv(tmp_path / "h.csv", [["Notes", header, "More"], ["n1", "TEST", "x"], ["", "", "only notes"],
                                          ["n3", "WITH", ""]])
    assert [(e.value, e.row, e.column) for e in read_list(path)] == [("TEST", 2, 2), ("WITH", 4, 2)]
    xlsx = write_xlsx(tmp_path / "h.xlsx", {"S": [["Notes", header], ["n1", "TEST"], ["n2", "WITH"]]}, origin="C4")
    assert [(e.value, e.row, e.column) for e in read_list(xlsx)] == [("TEST", 5, "D"), ("WITH", 6, "D")]
    ods = write_ods(tmp_path / "h.ods", {"S": [[None], [None, "Notes", header], [None, "n1", "TEST"]]})
    assert [(e.value, e.row, e.column) for e in read_list(ods)] == [("TEST", 3, "C")]


@pytest.mark.parametrize("fmt", ["csv", "tsv", "xlsx", "ods"])
def test_without_a_header_the_first_column_is_read(tmp_path, fmt):
    rows = [["TEST", "Notes"], ["WITH", "n2"], [None, "n3"], ["HILL", None]]
    if fmt in ("csv", "tsv"):
        path = write_csv(tmp_path / f"n.{fmt}", rows, "\t" if fmt == "tsv" else ",")
    elif fmt == "xlsx":
        path = write_xlsx(tmp_path / "n.xlsx", {"S": rows}, origin="B2")  # the first column holding data is B
    else:
        path = write_ods(tmp_path / "n.ods", {"S": rows})
    words = read_words(path)
    assert words.words == ("TEST", "WITH", "HILL")
    if fmt == "xlsx":
        assert words.lines == (2, 3, 5) and words.column == "B"


def test_a_word_header_in_a_txt_list_is_a_word(tmp_path):
    p = tmp_path / "w.txt"
    p.write_text("Word\nTEST\n", encoding="utf-8")
    assert read_words(p).words == ("Word", "TEST")


def test_semicolon_csv_with_a_header(tmp_path):
    p = tmp_path / "semi.csv"
    p.write_bytes("\ufeffWord;Notes\r\nTEST;a, b\r\n\"WITH\";\"c; d\"\r\n".encode("utf-8"))
    assert [(e.value, e.row, e.column) for e in read_list(p)] == [("TEST", 2, 1), ("WITH", 3, 1)]


def test_other_sheet_by_name(tmp_path):
    path = write_xlsx(tmp_path / "s.xlsx", {"First": [["TEST"]], "Second": [["word"], ["WITH"]]})
    assert [e.value for e in read_list(path)] == ["TEST"]
    assert [(e.value, e.sheet, e.row) for e in read_list(path, sheet="Second")] == [("WITH", "Second", 2)]
    with pytest.raises(WordListError, match="no sheet 'Third'; its sheets are First, Second"):
        read_list(path, sheet="Third")


def test_hidden_first_sheet_is_passed_over(tmp_path):
    wb = openpyxl.Workbook()
    wb.active.title = "Hidden"
    wb.active["A1"] = "ZZZZ"
    wb.active.sheet_state = "hidden"
    wb.create_sheet("Shown")["A1"] = "TEST"
    wb.save(tmp_path / "h.xlsx")
    assert [(e.value, e.sheet) for e in read_list(tmp_path / "h.xlsx")] == [("TEST", "Shown")]


def test_two_word_headers_are_an_error(tmp_path):
    p = write_csv(tmp_path / "two.csv", [["word", "Word"], ["TEST", "WITH"]])
    with pytest.raises(WordListError, match="two columns are headed 'word'") as e:
        read_list(p)
    assert e.value.line == 1


# --- bad words name sheet, row and column --------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_word_names_its_place(tmp_path, fmt):
    words = ["TEST", "WITH", "HILL", "AB1D", "BIRD"]
    path, row, column = write_list(tmp_path, fmt, words)
    with pytest.raises(WordListError) as e:
        read_words(path)
    err = e.value
    assert err.line == row + 3 and err.file == str(path) and err.hint
    text = str(err)
    assert "'AB1D' contains '1', which is not a letter." in text
    if fmt == "txt":  # unchanged from before spreadsheets
        assert text.startswith(f"{path}, line {row + 3}: 'AB1D'")
    else:
        assert f"{where(fmt, row + 3, column)}: 'AB1D'" in text
        assert "one word per cell" in text


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", ["short", "duplicate", "glyph"])
def test_other_word_rules_name_their_place(tmp_path, fmt, case):
    bad, needle = {"short": ("CAT", "has 3 letters"), "duplicate": ("with", "repeats the word on"),
                   "glyph": ("日本語字", "cannot draw")}[case]
    path, row, column = write_list(tmp_path, fmt, ["TEST", "WITH", bad])
    with pytest.raises(WordListError) as e:
        read_words(path)
    assert needle in str(e.value) and e.value.line == row + 2
    if fmt != "txt":
        assert where(fmt, row + 2, column) in str(e.value)
    if case == "duplicate":
        assert f"on {'line' if fmt == 'txt' else 'row'} {row + 1} (ignoring case)" in str(e.value)


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
@pytest.mark.parametrize("value, shown", [(1234, "the number 1234"), (12.5, "the number 12.5"),
                                          (True, "the true/false value TRUE"),
                                          (datetime.date(2024, 5, 17), "the date 2024-05-17")])
def test_non_text_cells_are_errors_naming_the_cell(tmp_path, fmt, value, shown):
    rows = [["Word"], ["TEST"], [value]]
    if fmt == "xlsx":
        path = write_xlsx(tmp_path / "n.xlsx", {"Words": rows}, origin="C1")
        col = "C"
    else:
        path = write_ods(tmp_path / "n.ods", {"Words": rows})
        col = "A"
    with pytest.raises(WordListError) as e:
        read_words(path)
    assert e.value.line == 3
    assert f"sheet Words, row 3, column {col}: the cell holds {shown}, not text." in str(e.value)


def test_numbers_in_other_columns_are_ignored(tmp_path):
    path = write_xlsx(tmp_path / "n.xlsx", {"S": [["Count", "Word"], [1, "TEST"], [datetime.date(2020, 1, 1), "WITH"]]})
    assert read_words(path).words == ("TEST", "WITH")


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
def test_empty_spreadsheet_has_no_words(tmp_path, fmt):
    if fmt == "csv":
        path = write_csv(tmp_path / "e.csv", [["Word", "Notes"], ["", "x"]])
    elif fmt == "xlsx":
        path = write_xlsx(tmp_path / "e.xlsx", {"S": []})
    else:
        path = write_ods(tmp_path / "e.ods", {"S": [["Word"]]})
    with pytest.raises(WordListError, match="has no words"):
        read_words(path)


# --- encodings ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_windows_1252_is_not_guessed(tmp_path, fmt):
    sep = "\t" if fmt == "tsv" else ","
    p = tmp_path / f"w.{fmt}"
    p.write_bytes(f"Word{sep}Notes\r\nTEST{sep}ok\r\nCAFÉ{sep}x\r\n".encode("cp1252"))
    with pytest.raises(WordListError) as e:
        read_words(p)
    assert e.value.line == 3 and "not UTF-8: byte 0xc9" in str(e.value) and "row 3, column 1" in str(e.value)


def test_bad_byte_in_another_column_is_still_an_error(tmp_path):
    p = tmp_path / "w.csv"
    p.write_bytes("Word,Notes\nTEST,caf\xe9\n".encode("latin-1"))
    with pytest.raises(WordListError, match="row 2, column 2: not UTF-8"):
        read_words(p)


def test_csv_with_a_broken_quote(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text('Word\nTEST\n"WI"TH\n', encoding="utf-8")
    with pytest.raises(WordListError, match="row 3: the file cannot be read as CSV") as e:
        read_words(p)
    assert e.value.line == 3


def test_csv_accepts_lf_and_no_bom(tmp_path):
    p = write_csv(tmp_path / "lf.csv", [["TEST"], ["ΛΟΓΟ"], ["café"]], bom=False, quote_all=False)
    p.write_bytes(p.read_bytes().replace(b"\r\n", b"\n"))
    assert read_words(p).words == ("TEST", "ΛΟΓΟ", "café")


# --- files that are not what they claim -----------------------------------------------------------------

@pytest.mark.parametrize("suffix, what", [(".xlsx", "Excel workbook"), (".ods", "OpenDocument spreadsheet")])
def test_text_renamed_to_a_workbook(tmp_path, suffix, what):
    p = tmp_path / f"words{suffix}"
    p.write_text("TEST\nWITH\n", encoding="utf-8")
    with pytest.raises(WordListError) as e:
        read_words(p)
    assert f"not a valid {what} ({suffix})" in str(e.value) and "not a readable zip archive" in str(e.value)
    assert e.value.hint and "Traceback" not in str(e.value)


def test_zip_without_a_spreadsheet(tmp_path):
    p = tmp_path / "z.xlsx"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(WordListError, match="holds no spreadsheet"):
        read_words(p)


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_truncated_workbook(tmp_path, fmt):
    path, _, _ = write_list(tmp_path, fmt, ["TEST", "WITH"])
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(WordListError, match="not a valid"):
        read_words(path)


def test_ods_named_xlsx_is_read_as_what_it_is(tmp_path):
    path, _, _ = write_list(tmp_path, "ods", ["TEST", "WITH"])
    renamed = path.rename(tmp_path / "really-ods.xlsx")
    assert read_words(renamed).words == ("TEST", "WITH")


@pytest.mark.parametrize("name", ["words.xls", "words.docx", "words", "words.json"])
def test_unknown_suffix_lists_the_accepted_ones(tmp_path, name):
    p = tmp_path / name
    p.write_text("TEST\n", encoding="utf-8")
    with pytest.raises(WordListError) as e:
        read_words(p)
    assert ("which pnp does not read" if "." in name else "has no suffix") in str(e.value)
    assert ".txt, .csv, .tsv, .xlsx or .ods" in e.value.hint


def test_suffix_case_does_not_matter(tmp_path):
    p = write_csv(tmp_path / "UPPER.CSV", [["TEST"]])
    assert read_words(p).words == ("TEST",)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(WordListError, match="word list does not exist") as e:
        read_words(tmp_path / "nope.xlsx")
    assert e.value.field == "--words"
    with pytest.raises(WordListError, match="word list is not a file"):
        read_words(tmp_path)


def test_error_class_is_chosen_by_the_caller(tmp_path):
    p = tmp_path / "x.xlsx"
    p.write_text("not a workbook", encoding="utf-8")
    with pytest.raises(SpecError):
        read_list(p, error=SpecError)


# --- limits -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
def test_row_limit(tmp_path, fmt, monkeypatch):
    path, row, column = write_list(tmp_path, fmt, ["TEST", "WITH", "HILL", "BIRD", "CORN"])
    assert len(read_list(path, max_rows=5)) == 5
    with pytest.raises(WordListError, match="more than 4 values") as e:
        read_list(path, max_rows=4)
    assert e.value.line == row + 4
    if fmt != "txt":
        assert where(fmt, row + 4, column) in str(e.value)
    monkeypatch.setattr(wordlist, "MAX_WORDS", 3)
    with pytest.raises(WordListError, match="more than 3 words"):
        read_words(path)


@pytest.mark.parametrize("fmt", FORMATS)
def test_byte_limit_is_checked_before_parsing(tmp_path, fmt, monkeypatch):
    path, _, _ = write_list(tmp_path, fmt, ["TEST", "WITH"])
    size = path.stat().st_size
    assert read_list(path, max_bytes=size)
    with pytest.raises(WordListError, match=f"larger than {size - 1:,} bytes"):
        read_list(path, max_bytes=size - 1)
    monkeypatch.setattr(wordlist, "MAX_BYTES", 1024 * 1024)
    path.write_bytes(path.read_bytes() + b"\0" * (1024 * 1024))  # junk after the content: never parsed
    with pytest.raises(WordListError, match="word list is larger than 1 MB"):
        read_words(path)


def _xlsx_with_a_far_cell(path: Path, ref: str) -> Path:
    wb = openpyxl.Workbook()
    wb.active["A1"] = "TEST"
    wb.active[ref] = "x"
    wb.save(path)
    return path


def test_a_far_away_cell_is_refused_before_calamine_allocates_the_sheet(tmp_path):
    # python-calamine allocates rows x columns cells: without the check this 5 KB file aborts the process
    p = _xlsx_with_a_far_cell(tmp_path / "far.xlsx", "XFD1048576")
    assert p.stat().st_size < 10_000
    with pytest.raises(WordListError) as e:
        read_words(p)
    assert "spans 1,048,576 rows x 16,384 columns (up to cell XFD1048576)" in str(e.value) and e.value.hint


def test_cell_limit_is_a_parameter(tmp_path):
    p = _xlsx_with_a_far_cell(tmp_path / "f.xlsx", "J100")
    assert [e.value for e in read_list(p)] == ["TEST"]
    with pytest.raises(WordListError, match="spans 100 rows x 10 columns"):
        read_list(p, max_cells=999)


def test_repeated_ods_cells_are_counted_before_calamine_expands_them(tmp_path):
    bomb = ('<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
            'table:number-columns-repeated="16000" office:value-type="string"><text:p>x</text:p>'
            '</table:table-cell></table:table-row>')
    p = write_ods(tmp_path / "bomb.ods", tables=ods_table("Words", [["TEST"]]) + ods_table("Junk", [], extra=bomb))
    assert p.stat().st_size < 2_000
    with pytest.raises(WordListError, match="sheet Junk spans 1,000,000 rows x 16,000 columns"):
        read_words(p)


def test_ods_edge_rows_do_not_count(tmp_path):
    # LibreOffice's trailing empty rows and columns (to row 1,048,000 and column 1,024) hold nothing
    p = write_ods(tmp_path / "edge.ods", {"Words": [["TEST"], ["WITH"]]})
    assert read_list(p, max_cells=2) and len(read_list(p, max_cells=2)) == 2


def test_unpacked_size_limit(tmp_path):
    p = tmp_path / "big.xlsx"
    write_xlsx(p, {"S": [["TEST"]]})
    with zipfile.ZipFile(p, "a") as z:
        z.writestr("xl/padding.bin", b"\0" * 2_000_000, compress_type=zipfile.ZIP_DEFLATED)
    assert p.stat().st_size < 20_000
    with pytest.raises(WordListError, match="unpacks to more than 150,000 bytes"):
        read_list(p, max_bytes=15_000)


# --- never a traceback ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def workbook_bytes(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wb")
    return {fmt: write_list(tmp, fmt, ["TEST", "WITH", "HILL"])[0].read_bytes() for fmt in ("xlsx", "ods")}


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fmt=st.sampled_from(["xlsx", "ods"]), data=st.data())
def test_damaged_workbooks_raise_only_pnp_errors(tmp_path, workbook_bytes, fmt, data):
    raw = bytearray(workbook_bytes[fmt])
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    p = tmp_path / f"d.{fmt}"
    p.write_bytes(bytes(raw))
    try:
        entries = read_list(p)
    except PnpError:
        return
    assert all(isinstance(e.value, str) and e.value for e in entries)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300), fmt=st.sampled_from(["txt", "csv", "tsv", "xlsx", "ods"]))
def test_any_bytes_raise_only_pnp_errors(tmp_path, raw, fmt):
    p = tmp_path / f"r.{fmt}"
    p.write_bytes(raw)
    try:
        wl = read_words(p)
    except PnpError:
        return
    assert all(len(w) == 4 and w.isalpha() for w in wl.words)


def test_column_letters():
    assert [column_letter(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702, 16383)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA", "XFD"]


def test_every_format_builds_the_same_cards_as_the_txt_list(tmp_path, seed_words):
    """The PDF built from each spreadsheet export is byte for byte the PDF built from the .txt list."""
    from pnp.pipeline.execute import build_kit
    digests = {}
    for fmt in FORMATS:
        path, _, _ = write_list(tmp_path, fmt, list(seed_words), name=f"deck-{fmt}")
        result = build_kit("netmatch", out=tmp_path / f"out-{fmt}", formats=("pdf",), overrides={"words": path})
        pdf = next(p for p in result.files if p.suffix == ".pdf")
        digests[fmt] = hashlib.sha256(pdf.read_bytes()).hexdigest()
    assert len(set(digests.values())) == 1, digests
