"""Nonsense inputs refused, and refused by what caused them.

INPUT_CASES are run through the CLI by tests/bad_input/test_bad_input_matrix.py (and listed in
docs/bad-input-matrix.md): each writes its files into a temporary folder, runs one command, and must
exit 2 with one message naming the file, the line (as an editor counts it) and the field, with no
traceback and nothing written. The tests below check the pieces behind them: the rules-text subset,
editor line counting, files that are not regular (never opened, never waited on), the cover's
one-line texts measured in the PDF, sheet fields against the paper, workbook formula and error
cells, and the page and time budget.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from pnp.core.errors import LayoutError, PnpError, SpecError, WordListError
from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir

RULES = (builtin_folder("nonads") / "rules.md").read_text(encoding="utf-8")
RULE_LINES = RULES.split("\n")


def rules_with(line: int, text: str) -> bytes:
    """The Nonads rules with line ``line`` (1-based) replaced by ``text`` (which may hold several lines)."""
    lines = list(RULE_LINES)
    lines[line - 1] = text
    return "\n".join(lines).encode("utf-8")


def rules_after_break(breaker: str) -> bytes:
    """A break character Python splits lines at but editors do not, inside line 5, then bold on line 10:
    the error must say line 10 (what an editor shows), not 11."""
    lines = list(RULE_LINES)
    lines[4] = lines[4][:10] + breaker + lines[4][10:]
    lines[9] = "Shuffle __all__ tiles."
    return "\n".join(lines).encode("utf-8")


def words_txt(*words: str, sep: str = "\n") -> bytes:
    return (sep.join(words) + sep).encode("utf-8")


def xlsx(cells: dict[str, str], patch: dict[str, str] | None = None) -> bytes:
    """A one-sheet workbook ("Words") with ``cells``; ``patch`` replaces XML in the sheet part (to write
    a cell as Excel saves an error, which openpyxl cannot)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Words"
    for ref, value in cells.items():
        ws[ref] = value
    buf = io.BytesIO()
    wb.save(buf)
    if not patch:
        return buf.getvalue()
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            data = src.read(name)
            if name == "xl/worksheets/sheet1.xml":
                text = data.decode("utf-8")
                for old, new in patch.items():
                    assert old in text, (old, text)
                    text = text.replace(old, new)
                data = text.encode("utf-8")
            dst.writestr(name, data)
    return out.getvalue()


def ods(cells: list[str]) -> bytes:
    """A one-column .ods ("Words"): each item is a table-cell element's XML, one per row."""
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"')
    rows = "".join(f"<table:table-row>{c}</table:table-row>" for c in cells)
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns} office:version="1.2">'
               f'<office:body><office:spreadsheet><table:table table:name="Words">{rows}</table:table>'
               "</office:spreadsheet></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _text_cell(value: str) -> str:
    return f'<table:table-cell office:value-type="string"><text:p>{value}</text:p></table:table-cell>'


def sheet_yaml(extra: str) -> bytes:
    return f"name: custom\nwidth: 210mm\nheight: 297mm\n{extra}".encode("utf-8")


NONADS = builtin_spec("nonads").read_text(encoding="utf-8")


def spec_with(field: str, value: str) -> bytes:
    """The Nonads spec with ``field:`` set to ``value`` (kept on the field's line)."""
    lines = NONADS.split("\n")
    i = next(i for i, l in enumerate(lines) if l.startswith(f"{field}:"))
    lines[i] = f"{field}: {value}"
    return "\n".join(lines).encode("utf-8")


def spec_line(field: str) -> int:
    return next(i for i, l in enumerate(NONADS.split("\n"), start=1) if l.startswith(f"{field}:"))


RULES_ARGS = ["build", "nonads", "--set", "rules={tmp}/r.md"]
WORDS_ARGS = ["build", "netmatch", "--words"]
W = ["TEST", "WORD", "GAME", "CARD"]

# (name, {file name: bytes}, argv ({tmp} is the folder), needle, (file named, line or None, field or None))
GAME_SPEC = (b"title: G\nrules: r.md\ncomponents:\n  - {name: card, size: poker, data: cards.csv, front: front.yaml}\n")
GAME_RULES = (b"# G\nA test game.\n\n## Components\n- Cards.\n\n## Setup\nDeal.\n\n## A turn\nPlay.\n\n"
              b"## End and winner\nMost cards wins.\n\n## Fine points\n- None.\n")
GAME_FRONT = b"layers:\n  - {type: text, text: '{name} {text}', x: 5, y: 5, w: 50, h: 20, size: 10}\n"

INPUT_CASES = [
    # rules text: Markdown outside the subset, with its line
    ("rules-nested-list", {"r.md": rules_with(5, RULE_LINES[4] + "\n  - a nested point")}, RULES_ARGS,
     "an indented line", ("r.md", 6, "rules")),
    ("rules-nested-300-deep", {"r.md": rules_with(5, "\n".join(" " * i + "- x" for i in range(300)))}, RULES_ARGS,
     "an indented line", ("r.md", 6, "rules")),
    ("rules-quote-1000-deep", {"r.md": rules_with(10, ">" * 1000 + " quoted")}, RULES_ARGS, "a block quote",
     ("r.md", 10, "rules")),
    ("rules-bold-left-open", {"r.md": rules_with(10, "Shuffle **all tiles face down.")}, RULES_ARGS,
     "column 9: the ** there starts bold text that is never closed", ("r.md", 10, "rules")),
    ("rules-underscore-bold", {"r.md": rules_with(10, "Shuffle __all__ tiles.")}, RULES_ARGS, "bold",
     ("r.md", 10, "rules")),
    ("rules-italic-left-open", {"r.md": rules_with(10, "Shuffle *all tiles.")}, RULES_ARGS,
     "italic text that is never closed", ("r.md", 10, "rules")),
    ("rules-underscore-emphasis", {"r.md": rules_with(10, "Shuffle _all_ tiles.")}, RULES_ARGS, "emphasis",
     ("r.md", 10, "rules")),
    ("rules-link", {"r.md": rules_with(10, "See [the rules](https://example.org).")}, RULES_ARGS, "a link",
     ("r.md", 10, "rules")),
    ("rules-image", {"r.md": rules_with(10, "![tile](tile.png)")}, RULES_ARGS, "a link or image",
     ("r.md", 10, "rules")),
    ("rules-autolink", {"r.md": rules_with(10, "See <https://example.org>.")}, RULES_ARGS, "autolink",
     ("r.md", 10, "rules")),
    ("rules-inline-code", {"r.md": rules_with(10, "Run `pnp build` first.")}, RULES_ARGS, "inline code",
     ("r.md", 10, "rules")),
    ("rules-html", {"r.md": rules_with(10, "Shuffle <b>all</b> tiles.")}, RULES_ARGS, "HTML",
     ("r.md", 10, "rules")),
    ("rules-html-comment", {"r.md": rules_with(10, "<!-- draft -->")}, RULES_ARGS, "HTML", ("r.md", 10, "rules")),
    ("rules-entity", {"r.md": rules_with(10, "Tiles &amp; stones.")}, RULES_ARGS, "HTML entity",
     ("r.md", 10, "rules")),
    ("rules-table", {"r.md": rules_with(10, "| tiles | 34 |")}, RULES_ARGS, "a table", ("r.md", 10, "rules")),
    ("rules-h3", {"r.md": rules_with(10, "### Scoring")}, RULES_ARGS, "a heading other than", ("r.md", 10, "rules")),
    ("rules-numbered-list", {"r.md": rules_with(10, "1. Shuffle.")}, RULES_ARGS, "a numbered list",
     ("r.md", 10, "rules")),
    ("rules-star-bullet", {"r.md": rules_with(10, "* Shuffle.")}, RULES_ARGS, "`*` or `+`", ("r.md", 10, "rules")),
    ("rules-horizontal-rule", {"r.md": rules_with(10, "***")}, RULES_ARGS, "horizontal rule", ("r.md", 10, "rules")),
    ("rules-code-fence", {"r.md": rules_with(10, "~~~")}, RULES_ARGS, "code fence", ("r.md", 10, "rules")),
    ("rules-escape", {"r.md": rules_with(10, "Shuffle \\_all\\_ tiles.")}, RULES_ARGS, "backslash escape",
     ("r.md", 10, "rules")),
    ("rules-bold-in-description", {"r.md": rules_with(2, "A **fast** tile-laying race.")}, RULES_ARGS, "bold",
     ("r.md", 2, "rules")),
    ("rules-link-in-title", {"r.md": rules_with(1, "# [Nonads](https://example.org)")}, RULES_ARGS, "a link",
     ("r.md", 1, "rules")),
    # rules text: characters
    ("rules-rlo-in-description", {"r.md": rules_with(2, "A race \u202efor 2-4 players.")}, RULES_ARGS,
     "U+202E RIGHT-TO-LEFT OVERRIDE", ("r.md", 2, "rules")),
    ("rules-isolate-in-body", {"r.md": rules_with(10, "Shuffle \u2067all\u2069 tiles.")}, RULES_ARGS,
     "U+2067 RIGHT-TO-LEFT ISOLATE", ("r.md", 10, "rules")),
    ("rules-zero-width-space", {"r.md": rules_with(10, "Shuf\u200bfle.")}, RULES_ARGS, "U+200B ZERO WIDTH SPACE",
     ("r.md", 10, "rules")),
    ("rules-u2028-keeps-lines", {"r.md": rules_after_break("\u2028")}, RULES_ARGS, "U+2028 LINE SEPARATOR",
     ("r.md", 5, "rules")),
    ("rules-u0085-keeps-lines", {"r.md": rules_after_break("\x85")}, RULES_ARGS, "U+0085", ("r.md", 5, "rules")),
    ("rules-form-feed", {"r.md": rules_after_break("\x0c")}, RULES_ARGS, "U+000C", ("r.md", 5, "rules")),
    ("rules-cr-line-ends", {"r.md": rules_with(10, "Shuffle __all__ tiles.").replace(b"\n", b"\r")}, RULES_ARGS,
     "bold", ("r.md", 10, "rules")),
    ("rules-glyph", {"r.md": rules_with(10, "Shuffle \u65e5 tiles.")}, RULES_ARGS, "cannot draw",
     ("r.md", 10, "rules")),
    ("rules-utf16", {"r.md": RULES.encode("utf-16")}, RULES_ARGS, "UTF-16", ("r.md", 1, None)),
    # rules text: bounds
    ("rules-description-10kb", {"r.md": rules_with(2, "Race" * 2500)}, RULES_ARGS,
     "the description is 10,000 characters long", ("r.md", 2, "rules")),
    ("rules-description-too-wide", {"r.md": rules_with(2, "A tile-laying race " * 8)}, RULES_ARGS,
     "too long for one line of the cover", ("r.md", 2, "rules")),
    ("rules-title-3000", {"r.md": rules_with(1, "# " + "N" * 3000)}, RULES_ARGS,
     "the title is 3,000 characters long", ("r.md", 1, "rules")),
    ("rules-title-too-wide", {"r.md": rules_with(1, "# " + "W" * 40)}, RULES_ARGS,
     "too long for one line of the cover", ("r.md", 1, "rules")),
    # spec title and designer
    ("spec-title-900kb", {"s.yaml": spec_with("title", '"' + "T" * 900_000 + '"')}, ["build", "{tmp}/s.yaml"],
     "the title is 900,000 characters long", ("s.yaml", spec_line("title"), "title")),
    ("spec-title-3000", {"s.yaml": spec_with("title", "Nonads" * 500)}, ["build", "{tmp}/s.yaml"],
     "3,000 characters long", ("s.yaml", spec_line("title"), "title")),
    ("spec-title-too-wide", {"s.yaml": spec_with("title", "W" * 40)}, ["build", "{tmp}/s.yaml"],
     "too long for one line of the cover", ("s.yaml", spec_line("title"), "title")),
    ("spec-title-glyph", {"s.yaml": spec_with("title", "\u65e5\u672c")}, ["build", "{tmp}/s.yaml"],
     "cannot draw", ("s.yaml", spec_line("title"), "title")),
    ("spec-title-rlo", {"s.yaml": spec_with("title", '"Non\\u202eads"')}, ["build", "{tmp}/s.yaml"],
     "RIGHT-TO-LEFT OVERRIDE", ("s.yaml", spec_line("title"), "title")),
    ("spec-designer-long", {"s.yaml": spec_with("designer", "Cameron Browne and friends " * 40)},
     ["build", "{tmp}/s.yaml"], "the designer is", ("s.yaml", spec_line("designer"), "designer")),
    ("spec-designer-glyph", {"s.yaml": spec_with("designer", "\u6771\u4eac")}, ["build", "{tmp}/s.yaml"],
     "cannot draw", ("s.yaml", spec_line("designer"), "designer")),
    ("spec-designer-line-separator", {"s.yaml": spec_with("designer", '"Cameron\\u2028Browne"')},
     ["build", "{tmp}/s.yaml"], "U+2028 LINE SEPARATOR", ("s.yaml", spec_line("designer"), "designer")),
    ("spec-designer-two-lines", {"s.yaml": spec_with("designer", "|\n  Cameron\n  Browne")},
     ["build", "{tmp}/s.yaml"], "U+000A", ("s.yaml", spec_line("designer"), "designer")),
    ("spec-utf16", {"s.yaml": NONADS.encode("utf-16")}, ["build", "{tmp}/s.yaml"], "UTF-16", ("s.yaml", 1, None)),
    # parts larger than the paper: the spec field that sizes them, and the largest that fits
    ("spec-tile-250mm-on-a4", {"s.yaml": spec_with("tile_size", "250mm")}, ["build", "{tmp}/s.yaml"],
     "the largest that fits is a square tile of at most 198 mm", ("s.yaml", spec_line("tile_size"), "tile_size")),
    ("spec-nonaga-disc-250mm", {"s.yaml": b"game: nonaga\ndisc: 250mm\n"}, ["build", "{tmp}/s.yaml"],
     "the largest that fits is a round disc", ("s.yaml", 2, "disc")),
    ("spec-numeria-square-220mm", {"s.yaml": b"game: numeria\nsquare: 220mm\n"}, ["build", "{tmp}/s.yaml"],
     "the tile (216 mm x 216 mm) does not fit", ("s.yaml", 2, "square")),
    # sheet fields bounded by the paper
    ("sheet-crop-offset-1500mm", {"p.yaml": sheet_yaml("crop_marks:\n  offset: 1500mm\n")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "leaving nothing of the 200 x 274 mm printable area",
     ("p.yaml", 5, "crop_marks.offset")),
    ("sheet-crop-length-1500mm", {"p.yaml": sheet_yaml("crop_marks:\n  length: 1500mm\n")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "parts need at least 25 mm", ("p.yaml", 5, "crop_marks.length")),
    ("sheet-gutter-1999mm", {"p.yaml": sheet_yaml("gutter: 1999mm\n")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "use a gutter of at most 94 mm", ("p.yaml", 4, "gutter")),
    ("sheet-margin-100mm", {"p.yaml": sheet_yaml("margin: 100mm\n")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "leaves 10 x 84 mm inside it", ("p.yaml", 4, "margin")),
    ("sheet-margin-86mm", {"p.yaml": sheet_yaml("margin: 86mm\n")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "use a margin of at most 85 mm", ("p.yaml", 4, "margin")),
    ("sheet-mark-width-5mm", {"p.yaml": sheet_yaml("crop_marks:\n  width: 5mm\n")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "at most 1 mm", ("p.yaml", 5, "crop_marks.width")),
    ("sheet-2m-by-50mm", {"p.yaml": b"name: strip\nwidth: 2000mm\nheight: 50mm\n"},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "too small to print on", ("p.yaml", 3, "height")),
    ("sheet-cr-line-ends", {"p.yaml": b"name: x\rwidth: 210mm\rheight: 297mm\rgutter: 1999mm\r"},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "a gutter of 1999 mm", ("p.yaml", 4, "gutter")),
    ("spec-cr-line-ends", {"s.yaml": b"game: nonads\rtitle: Nonads\rtile_size: 250mm\r"},
     ["build", "{tmp}/s.yaml"], "does not fit the printable area of a4", ("s.yaml", 3, "tile_size")),
    ("sheet-utf16", {"p.yaml": sheet_yaml("").decode().encode("utf-16")},
     ["build", "nonads", "--paper", "{tmp}/p.yaml"], "UTF-16", ("p.yaml", 1, None)),
    # word lists
    ("words-utf16-bom", {"w.txt": "\n".join(W).encode("utf-16")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "word list is UTF-16 (little-endian)", ("w.txt", 1, None)),
    ("words-utf16-csv", {"w.csv": "word\n" .encode("utf-16-be") + "\n".join(W).encode("utf-16-be")},
     WORDS_ARGS + ["{tmp}/w.csv"], "UTF-16 (big-endian, no byte-order mark)", ("w.csv", 1, None)),
    ("words-u2028-keeps-lines", {"w.txt": words_txt("TEST", "WO\u2028RD", "GAME")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "U+2028 LINE SEPARATOR", ("w.txt", 2, None)),
    ("words-u0085-after", {"w.txt": words_txt("TE\x85ST", "WORD", "GAME")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "U+0085", ("w.txt", 1, None)),
    ("words-u2029-then-digit", {"w.txt": words_txt("# note\u2029more", "WORD", "GAM3")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "'GAM3' contains '3'", ("w.txt", 3, None)),
    ("words-cr-line-ends", {"w.txt": words_txt("TEST", "WORD", "GAM3", sep="\r")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "'GAM3' contains '3'", ("w.txt", 3, None)),
    ("words-latin1-cr-line-ends", {"w.txt": b"TEST\rWORD\rCAF\xc9\r"}, WORDS_ARGS + ["{tmp}/w.txt"],
     "not UTF-8: byte 0xc9", ("w.txt", 3, None)),
    ("words-modifier-h", {"w.txt": words_txt("TEST", "K\u02b0AT")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "U+02B0 MODIFIER LETTER SMALL H", ("w.txt", 2, None)),
    ("words-modifier-s", {"w.txt": words_txt("TEST", "CAT\u02e2")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "U+02E2 MODIFIER LETTER SMALL S", ("w.txt", 2, None)),
    ("words-modifier-apostrophe", {"w.txt": words_txt("TEST", "KA\u02bcT")}, WORDS_ARGS + ["{tmp}/w.txt"],
     "U+02BC MODIFIER LETTER APOSTROPHE", ("w.txt", 2, None)),
    ("words-xlsx-formula-no-value", {"w.xlsx": xlsx({"A1": "word", "A2": "TEST", "A3": '=CONCAT("WO","RD")'})},
     WORDS_ARGS + ["{tmp}/w.xlsx"], "sheet Words, row 3, column A: the cell holds a formula with no saved value",
     ("w.xlsx", 3, None)),
    ("words-xlsx-div0", {"w.xlsx": xlsx({"A1": "word", "A2": "TEST", "A3": "=1/0"},
                                        {'<c r="A3"><f>1/0</f><v></v></c>':
                                         '<c r="A3" t="e"><f>1/0</f><v>#DIV/0!</v></c>'})},
     WORDS_ARGS + ["{tmp}/w.xlsx"], "row 3, column A: the cell holds the error value #DIV/0!", ("w.xlsx", 3, None)),
    ("words-xlsx-na", {"w.xlsx": xlsx({"A1": "word", "A2": "TEST", "A3": "X"},
                                      {'<c r="A3" t="inlineStr"><is><t>X</t></is></c>':
                                       '<c r="A3" t="e"><v>#N/A</v></c>'})},
     WORDS_ARGS + ["{tmp}/w.xlsx"], "the error value #N/A", ("w.xlsx", 3, None)),
    ("words-ods-formula-no-value", {"w.ods": ods([_text_cell("word"), _text_cell("TEST"),
                                                  '<table:table-cell table:formula="of:=[.A2]"/>'])},
     WORDS_ARGS + ["{tmp}/w.ods"], "row 3, column A: the cell holds a formula with no saved value",
     ("w.ods", 3, None)),
    ("words-ods-error", {"w.ods": ods([_text_cell("word"), _text_cell("TEST"),
                                       '<table:table-cell table:formula="of:=1/0" office:value-type="string" '
                                       'office:string-value="" calcext:value-type="error">'
                                       "<text:p>#DIV/0!</text:p></table:table-cell>"])},
     WORDS_ARGS + ["{tmp}/w.ods"], "the error value #DIV/0!", ("w.ods", 3, None)),
    ("words-csv-ref-error", {"w.csv": b"word\r\nTEST\r\n#REF!\r\n"}, WORDS_ARGS + ["{tmp}/w.csv"],
     "the spreadsheet error value #REF!", ("w.csv", 3, None)),
    # a data-driven game's cells that cannot print: refused with row and column, as word lists are
    *[(f"data-cell-{name}", {"g.yaml": GAME_SPEC, "front.yaml": GAME_FRONT, "r.md": GAME_RULES,
                             "cards.csv": b"name,text\nAlpha,a card\nBeta," + cell + b"\n"},
       ["build", "{tmp}/g.yaml"], needle, ("cards.csv", 3, "components.0.data"))
      for name, cell, needle in [
          ("nul", b'"a\x00b"', "U+0000, a control character"),
          ("bidi-override", "\"a \u202e b\"".encode(), "U+202E RIGHT-TO-LEFT OVERRIDE"),
          ("div0", b"#DIV/0!", "the spreadsheet error '#DIV/0!'"),
      ]],
]


def test_cases_have_unique_names():
    names = [c[0] for c in INPUT_CASES]
    assert len(names) == len(set(names))


# -- the rules-text subset --------------------------------------------------------------------------

def _parse(tmp_path: Path, data: bytes):
    from pnp.inputs.rulestext import parse_rules
    p = tmp_path / "r.md"
    p.write_bytes(data)
    return parse_rules(p)


@pytest.mark.parametrize("game", ["netmatch", "nonads", "nonaga", "nooks", "numeria"])
def test_built_in_rules_are_in_the_subset(game):
    from pnp.inputs.rulestext import RULE_SECTIONS, parse_rules
    rules = parse_rules(builtin_folder(game) / "rules.md")
    assert tuple(b.text for b in rules.blocks if b.kind == "heading") == RULE_SECTIONS


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_rules_line_numbers_are_an_editors_for_every_line_ending(tmp_path, ending):
    data = rules_with(12, "Targets _and_ hand tiles.").decode().replace("\n", ending).encode()
    with pytest.raises(SpecError) as err:
        _parse(tmp_path, data)
    assert err.value.line == 12 and "emphasis" in err.value.message


def test_rules_column_is_reported(tmp_path):
    with pytest.raises(SpecError) as err:
        _parse(tmp_path, rules_with(10, "Shuffle all [tiles](x)."))
    assert err.value.line == 10 and "column 13" in err.value.message


def test_plain_punctuation_is_not_mistaken_for_markup(tmp_path):
    body = "Count 3 * 4 cells; a < b and c > d; snake_case stays; 2-4 players (a list [of sorts])."
    rules = _parse(tmp_path, rules_with(10, body))
    assert any(b.text == body for b in rules.blocks)


@pytest.mark.parametrize("ch", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
                                "\u2069", "\u200b", "\u200d", "\u00ad", "\ufeff", "\x1b", "\x0b", "\x1c", "\u2029",
                                "\ue000"])
def test_every_invisible_or_control_character_is_refused_with_line_and_column(tmp_path, ch):
    with pytest.raises(SpecError) as err:
        _parse(tmp_path, rules_with(7, "- Plain" + ch + " backs."))
    assert err.value.line == 7 and "column 8" in err.value.message and f"U+{ord(ch):04X}" in err.value.message


def test_longest_accepted_title_prints_inside_the_cover(tmp_path):
    """The cover's title line is measured when the spec is read: a title just under the limit is
    accepted and, read back from the PDF, its drawn line ends inside the content area."""
    import pdfplumber
    from pnp.pipeline.execute import build_kit
    from pnp.inputs.textcheck import COVER_TITLE_PT, REFERENCE_WIDTH_MM, line_width_mm, title_line
    title = "Nonads"
    while line_width_mm(title_line(title + "W"), COVER_TITLE_PT, True) <= REFERENCE_WIDTH_MM:
        title += "W"
    spec = tmp_path / "s.yaml"
    spec.write_bytes(spec_with("title", title))
    result = build_kit(str(spec), out=tmp_path / "out", formats=("pdf",))
    pdf = next(p for p in result.files if p.suffix == ".pdf")
    with pdfplumber.open(str(pdf)) as doc:
        page = doc.pages[0]
        big = [c for c in page.chars if c["size"] > 15]
        right_mm = max(c["x1"] for c in big) * 25.4 / 72
        assert "".join(c["text"] for c in big).startswith(title)
        assert right_mm <= 200.0 + 0.5, right_mm  # A4: 10 mm margin each side
    spec.write_bytes(spec_with("title", title + "W"))
    with pytest.raises(SpecError, match="too long for one line"):
        build_kit(str(spec), out=tmp_path / "out2", formats=("pdf",))
    assert not (tmp_path / "out2" / "nonads").exists()


def test_a_narrow_custom_sheet_measures_the_title_again(tmp_path):
    from pnp.pipeline.execute import build_kit
    spec = tmp_path / "s.yaml"
    spec.write_bytes(spec_with("title", "Nonads the Tile-Laying Race"))
    sheet = tmp_path / "narrow.yaml"
    sheet.write_bytes(b"name: narrow\nwidth: 150mm\nheight: 297mm\n")
    with pytest.raises(LayoutError) as err:
        build_kit(str(spec), paper=str(sheet), out=tmp_path / "out", formats=("pdf",))
    assert err.value.field == "title" and "140 mm wide" in err.value.message


# -- files that are not regular ------------------------------------------------------------------

@pytest.mark.parametrize("role", ["spec", "sheet", "rules", "words"])
def test_a_fifo_is_refused_without_waiting(tmp_path, role):
    """A FIFO nobody writes to would block open() or read() forever: it is refused at once."""
    fifo = tmp_path / ("x.txt" if role == "words" else "x.md" if role == "rules" else "x.yaml")
    os.mkfifo(fifo)
    argv = {"spec": ["build", str(fifo)], "sheet": ["build", "nonads", "--paper", str(fifo)],
            "rules": ["build", "nonads", "--set", f"rules={fifo}"],
            "words": ["build", "netmatch", "--words", str(fifo)]}[role]
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "pnp", *argv, "--out", str(out)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2, r.stderr
    assert "not a regular file: a FIFO" in r.stderr and fifo.name in r.stderr and "Traceback" not in r.stderr
    assert not out.exists() or not any(out.iterdir())


def test_read_regular_refuses_a_fifo_swapped_in(tmp_path):
    from pnp.inputs.safefile import NotRegular, read_regular
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(NotRegular, match="FIFO"):
        read_regular(fifo, 100)
    (tmp_path / "d").mkdir()
    with pytest.raises(NotRegular, match="folder"):
        read_regular(tmp_path / "d", 100)


@pytest.mark.parametrize("data, name", [
    ("TEST\n".encode("utf-16"), "UTF-16 (little-endian)"),
    ("TEST\n".encode("utf-16-be"), "UTF-16 (big-endian, no byte-order mark)"),
    ("TEST\n".encode("utf-16-le"), "UTF-16 (little-endian, no byte-order mark)"),
    ("TEST\n".encode("utf-32"), "UTF-32 (little-endian)"),
    (b"\xfe\xff\x00T", "UTF-16 (big-endian)"),
    ("TEST\n".encode("utf-8"), None),
    ("CAFÉ\n".encode("latin-1"), None),
])
def test_wrong_encoding_is_named(data, name):
    from pnp.inputs.safefile import wrong_encoding
    assert wrong_encoding(data) == name


# -- word lists --------------------------------------------------------------------------------

def test_editor_lines_keep_python_only_breaks_inside_a_line():
    from pnp.inputs.textcheck import editor_lines
    text = "a\u2028b\x85c\x0bd\rE\r\nF\nG\u2029"
    assert editor_lines(text) == ["a\u2028b\x85c\x0bd", "E", "F", "G\u2029"]
    assert len(text.splitlines()) > len(editor_lines(text))  # what Python would have counted


def test_a_formula_with_a_saved_value_is_read(tmp_path):
    """A formula cell that a spreadsheet program calculated and saved is its value, not an error."""
    from pnp.games.netmatch.wordlist import read_words
    data = xlsx({"A1": "word", "A2": "TEST", "A3": '=CONCAT("WO","RD")'},
                {'<c r="A3"><f>CONCAT("WO","RD")</f><v></v></c>': '<c r="A3" t="str"><f>CONCAT("WO","RD")</f>'
                                                                   '<v>WORD</v></c>'})
    p = tmp_path / "w.xlsx"
    p.write_bytes(data)
    assert read_words(p).words == ("TEST", "WORD")


def test_an_error_cell_in_an_ignored_column_is_not_blamed(tmp_path):
    from pnp.games.netmatch.wordlist import read_words
    data = xlsx({"A1": "note", "B1": "word", "A2": "=1/0", "B2": "TEST", "B3": "WORD"})
    p = tmp_path / "w.xlsx"
    p.write_bytes(data)
    assert read_words(p).words == ("TEST", "WORD")


@pytest.mark.parametrize("letter", ["\u02b0", "\u02e2", "\u02bc", "\u02c8", "\u1d43", "\u3005"])
def test_modifier_letters_are_not_letters_of_a_word(tmp_path, letter):
    from pnp.games.netmatch.wordlist import read_words
    p = tmp_path / "w.txt"
    p.write_text(f"TEST\nAB{letter}D\n", encoding="utf-8")
    with pytest.raises(WordListError) as err:
        read_words(p)
    assert err.value.line == 2 and f"U+{ord(letter):04X}" in err.value.message


# -- sheets bounded by the paper ------------------------------------------------------------------

@pytest.mark.parametrize("extra, inside, field", [
    ("margin: 86mm\n", "margin: 85mm\n", "margin"),
    ("gutter: 95mm\n", "gutter: 94mm\n", "gutter"),
    ("crop_marks:\n  offset: 82mm\n  length: 6mm\n", "crop_marks:\n  offset: 81mm\n  length: 6mm\n",
     "crop_marks.offset"),
    ("crop_marks:\n  offset: 2mm\n  length: 86mm\n", "crop_marks:\n  offset: 2mm\n  length: 85mm\n",
     "crop_marks.length"),
])
def test_sheet_fields_just_past_the_bound_are_refused_and_just_inside_accepted(tmp_path, extra, inside, field):
    """A4 (5 mm margin: 200 x 274 mm above the footer) at the bounds: margin 85 mm, gutter 94 mm and a
    crop-mark reserve of 87 mm are accepted, one
    millimetre more is not, and what they leave for parts (the board area) is at least MIN_ROOM each way."""
    import re
    from pnp.layout.paper import MIN_ROOM, load_sheet
    p = tmp_path / "p.yaml"
    p.write_bytes(sheet_yaml(extra))
    with pytest.raises(SpecError) as err:
        load_sheet(str(p))
    assert err.value.field == field and err.value.line is not None
    assert not re.search(r"-\d", err.value.message), err.value.message  # never a negative area
    p.write_bytes(sheet_yaml(inside))
    sheet = load_sheet(str(p))
    _, _, w, h = sheet.board_area
    assert min(w, h) >= MIN_ROOM - 1e-9
    assert sheet.gutter <= min(w, h) / 2


# -- page and time budget ------------------------------------------------------------------------

def _deck(n: int):
    from pnp.core.ir import Component, Rect
    return [Component("word card", 44, 68, [(Rect(0, 0, 44, 68),)] * n)]


def test_budget_says_pages_and_time_and_grows_with_the_deck():
    from pnp.layout.limits import estimate
    from pnp.layout.paper import load_sheet
    a4 = load_sheet("a4")
    from pnp.render.formats import WriterSettings, formats
    both, settings = formats().writers(("pdf", "svg")), WriterSettings()
    small = estimate(_deck(1000), a4, formats=both, settings=settings)
    big = estimate(_deck(150_000), a4, formats=both, settings=settings)
    # A4 leaves 198 x 267 mm for parts (crop marks run into the 5 mm margin: 210 - 2 x 6 marks;
    # 297 - 5 - 13 footer - 12); 44 x 68 mm cards butted: 4 across, 3 down
    across, down = 198 // 44, 267 // 68
    assert big.pages >= -(-150_000 // (across * down))
    assert big.seconds > small.seconds * 50 and big.describe().startswith(f"{big.pages:,} pages, about ")
    assert "min" in big.describe()


def test_a_build_that_cannot_finish_in_time_is_refused_before_work():
    from pnp.layout.limits import MAX_SECONDS, check_budget
    from pnp.layout.paper import load_sheet
    comps = _deck(150_000)
    from pnp.render.formats import WriterSettings, formats
    pdf, tts = formats().writers(("pdf",)), formats().writers(("tts",))
    assert check_budget(comps, load_sheet("a4"), formats=pdf, settings=WriterSettings()).seconds < MAX_SECONDS
    with pytest.raises(LayoutError) as err:
        check_budget(comps, load_sheet("a4"), formats=tts, settings=WriterSettings(), file="deck.yaml")
    assert "limit is 10 min" in err.value.message and err.value.file == "deck.yaml"


@pytest.mark.parametrize("seconds, text", [(0.2, "1 s"), (42, "42 s"), (200, "3 min 20 s"), (1500, "25 min"),
                                           (3900, "1 h 5 min")])
def test_duration_reads_like_an_estimate(seconds, text):
    from pnp.layout.limits import duration
    assert duration(seconds) == text


def test_errors_are_pnp_errors():
    assert issubclass(WordListError, PnpError) and issubclass(LayoutError, PnpError)
