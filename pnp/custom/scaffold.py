"""`pnp new DIR [--data FILE]`: a game folder that builds as it is.

It holds ``<DIR>.yaml`` (the spec), ``rules.md``, ``front.yaml`` and ``back.yaml`` (templates), and
either a copy of the given spreadsheet (one card per row) or a small sample ``cards.csv``. What each
column is for is read from its header and its cells (pnp.custom.roles) and the front is laid out
from that, sized from the data (pnp.custom.autolayout: every text at 6 pt or more, on the smallest
of CARD_SIZES it fits). A table with no header row has its columns named by role (``columns:`` in
the spec); the other sheets of a workbook that share the first one's header become components of
their own. The folder is made in a staging folder beside DIR, built there once in memory (every
card drawn, as `pnp build` draws it) and renamed into place, so a failure leaves nothing behind.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

from ..core.errors import PnpError, SpecError
from ..engine import game_names
from ..core.plaintext import plain
from ..inputs.delimiters import DELIMITERS
from ..inputs.gamefolder import Refused, inside
from ..inputs.images import MAX_IMAGE_BYTES
from ..inputs.workbookguard import column_letter
from .autolayout import front_layout
from .columns import not_a_count, whole_count
from .roles import Column, Roles, infer
from .spec import MAX_COPIES
from .table import OPTIONS, SUFFIXES, DataError, Table, key, read_table

CARD_SIZES = (("poker", (63.5, 88.9)), ("tarot", (70.0, 120.0)), ("A6", (105.0, 148.0)), ("A5", (148.0, 210.0)))
"""The card sizes tried in turn, smallest first: the first whose front fits every cell at 6 pt."""
NO_HEADER_COLUMNS = 200  # columns named when --no-header says the table has no header row
GENERIC_STEMS = frozenset({"cards", "card", "data", "deck", "sheet", "sheet1", "export", "list", "table", "book1",
                           "untitled", "items", "karten", "cartas", "kartyak", "karty"})
ROLE_NAMES = {"copies": "copies", "key": "id", "title": "name", "body": "text", "field": "value", "picture": "picture",
              "url": "picture_url", "colour": "colour", "category": "kind", "flag": "flag", "empty": "empty", "skipped": "skipped"}
"""Names given to the columns of a table with no header row, by role (a number added when taken)."""
CHANGE = {"copies": "copies: in the spec", "key": "key: in the spec", "title": "title: in the spec",
          "picture": "the image layer in front.yaml", "url": "the image layer in front.yaml",
          "colour": "the band's fill in front.yaml", "category": "the when: layers in front.yaml",
          "flag": "the chip's when: in front.yaml", "body": "front.yaml", "field": "front.yaml", "empty": "",
          "skipped": ""}

SAMPLE = ("name,text,copies\n"
          "Scout,Look at the top two cards of the deck and put them back in any order.,3\n"
          "Trader,Swap one card from your hand with one card of another player's hand.,2\n"
          "Builder,Place one tile next to a tile you already own.,4\n"
          "Sage,Draw two cards then discard one of them.,2\n")

def rules_md(title: str, description: str, components: str) -> str:
    """The rules.md `pnp new` writes: the title, a description of the deck, its components; the four
    sections of play are left for the designer (nothing is printed that they did not write)."""
    return RULES.format(title=title, description=description, components=components)


RULES = """# {title}
{description}

## Components
- {components}

## Setup

## A turn

## End and winner

## Fine points
"""


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _back(title: str) -> dict:
    return {"include": ["shared/card-back.yaml"],
            "layers": [{"type": "text", "text": _escape(title), "x": "10%", "y": "89%", "w": "80%", "h": "5%",
                        "size": 10, "min_size": 5, "fit": "shrink", "align": "center", "valign": "middle",
                        "bold": True, "colour": "#ffffff", "markup": False}]}


def _dump(data: dict, head: str) -> str:
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


@dataclass
class Made:
    """What `pnp new` made: the ``files`` written and ``notes`` for the designer (what pnp read how)."""
    files: list[Path]
    notes: list[str] = field(default_factory=list)


@dataclass(eq=False)
class _Deck:
    """The tables read (one per component) and what their columns are for."""
    tables: list[Table]
    headers: list[str]
    cells: dict[str, list[str]]
    roles: Roles
    renamed: list[str] | None = None  # the columns: of a table with no header row


def _kit_name(folder: Path) -> str:
    name = re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-_")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,40}", name or "") or name in game_names():
        raise SpecError(f"the folder name {folder.name!r} cannot name a kit"
                        f"{' (it is a built-in game)' if name in game_names() else ''}.", file=folder, field="DIR",
                        hint="use lower-case letters, digits, - and _, e.g. pnp new my-game")
    return name


def _title(given: str | None, table: Table | None, data: Path | None, name: str) -> str:
    """--title, else the sheet's title row, else the data file's name (unless it says nothing, such
    as cards.csv), else the folder's name."""
    for candidate in (given, table.title if table is not None else None):
        if candidate and candidate.strip():
            return " ".join(candidate.split())[:80]
    if data is not None:
        stem = re.sub(r"[_\s]+", " ", data.stem).strip()
        if stem and stem.casefold().replace(" ", "") not in GENERIC_STEMS and re.search(r"[^\W\d]", stem):
            return stem[:1].upper() + stem[1:80]
    return name.replace("-", " ").replace("_", " ").capitalize()


def _read(data: Path, sheet: str | None, header_row: int | None, delimiter: str | None, no_header: bool,
          notes: list[str]) -> _Deck:
    """The data file's tables: the chosen sheet, and the other sheets with the same columns."""
    how = dict(field="--data", delimiter=delimiter, first_sheet=True, how=OPTIONS)
    columns = tuple(column_letter(j) for j in range(NO_HEADER_COLUMNS)) if no_header else None
    table = read_table(data, set(), sheet, header_row, columns=columns, headerless=header_row is None, **how)
    tables = [table]
    if sheet is None:
        for other in table.others:
            try:
                more = read_table(data, set(), other, None, headerless=True, columns=columns, **how)
            except PnpError as exc:
                notes.append(f"sheet {other} is not used: {exc.message}")
                continue
            if [key(h) for h in more.headers] == [key(h) for h in table.headers] and \
                    (more.header_row == 0) == (table.header_row == 0):
                tables.append(more)
            else:
                notes.append(f"sheet {other} is not used: its columns differ from sheet {table.sheet}'s (to print it, "
                             f"pnp new another folder with --sheet {other!r})")
    if table.delimiter not in (None, "\t" if data.suffix.lower() == ".tsv" else ",") and delimiter is None:
        notes.append(f"the cells are separated by {DELIMITERS[table.delimiter]}s (delimiter: in the spec)")
    headers = list(table.headers)
    cells = {h: [r.values[key(h)] for t in tables for r in t.rows] for h in headers}
    if no_header or table.header_row == 0:
        used = [h for h in headers if any(v.strip() for v in cells[h])]
        last = headers.index(used[-1]) + 1 if used else 1
        headers = headers[:last]
        cells = {h: cells[h] for h in headers}
    roles = infer(headers, cells)
    for c in roles.columns:
        if c.bad_count:  # the designer meant copies: name the cell that is not a count
            for t in tables:
                _count(t, c.header)
    deck = _Deck(tables, headers, cells, roles)
    if table.sheet is not None and (table.others or len(tables) > 1):
        notes.append(f"read sheet {table.sheet}" + (f" and the sheets with its columns, {', '.join(t.sheet for t in tables[1:])}"
                                                   if len(tables) > 1 else ""))
    if table.header_row == 0:
        deck.renamed = _names_by_role(roles)
        notes.append(f"{'--no-header: ' if no_header else ''}the first row is data, not column names (it is shaped "
                     "like the rows below it), so pnp named the columns by what they hold: "
                     + ", ".join(f"{column_letter(i)} {n}" for i, n in enumerate(deck.renamed))
                     + " (columns: in the spec; rename them there and in front.yaml)")
        rename = dict(zip(headers, deck.renamed))
        deck.cells = {rename[h]: v for h, v in cells.items()}
        deck.headers = deck.renamed
        deck.roles = Roles([Column(rename[c.header], c.role, c.why, c.values, c.markup) for c in roles.columns])
    return deck


def _names_by_role(roles: Roles) -> list[str]:
    names: list[str] = []
    for c in roles.columns:
        base = ROLE_NAMES[c.role]
        n = sum(1 for x in roles.columns[:len(names)] if x.role == c.role)
        names.append(base if n == 0 and base not in names else f"{base}{n + 1}")
    return names


def _role_notes(deck: _Deck, data_name: str) -> list[str]:
    """One note per column: its role, why, and what changes it."""
    notes = []
    for i, c in enumerate(deck.roles.columns):
        where = f"column {c.header!r}"
        if c.role in ("empty", "skipped"):
            notes.append(f"{where}: not printed ({c.why})")
            continue
        change = CHANGE[c.role]
        if c.role == "copies":
            notes.append(f"copies: column {c.header!r} says how many of each card ({c.why.split('(')[-1]} "
                         "(change it: copies: in the spec)")
            continue
        notes.append(f"{where}: {c.role}, {c.why}" + (f" (change it: {change})" if change else "")
                     + ("; its cells are printed as typed (one has a * or \\ that is not markup)" if not c.markup
                        else ""))
    if deck.roles.one("key") is None:
        notes.append(f"no column of {data_name} holds a short code of each card's own, so `pnp diff` matches cards "
                     "across builds by their content; to name them, add an id column and write key: ID in the spec")
    return notes


def _components(deck: _Deck, data_name: str, size: str | tuple, copies: Column | None) -> list[dict]:
    out = []
    for t in deck.tables:
        comp: dict = {"name": _component_name(t.sheet, len(deck.tables), [c["name"] for c in out])}
        comp.update({"size": size if isinstance(size, str) else [f"{size[0]:g}mm", f"{size[1]:g}mm"],
                     "shape": "rounded", "radius": "3mm", "data": data_name})
        if t.sheet is not None:
            comp["sheet"] = t.sheet
        if t.header_row not in (0, 1):
            comp["header_row"] = t.header_row
        if deck.renamed is not None:
            comp["columns"] = deck.renamed
        if t.delimiter not in (None, "\t" if data_name.endswith(".tsv") else ","):
            comp["delimiter"] = DELIMITERS[t.delimiter]
        if copies is not None:
            comp["copies"] = "{" + copies.header + "}"
        key_col, title_col = deck.roles.one("key"), deck.roles.one("title")
        if key_col is not None:
            comp["key"] = key_col.header
        if title_col is not None:
            comp["title"] = title_col.header
        comp.update({"front": "front.yaml", "back": "back.yaml"})
        out.append(comp)
    return out


def _component_name(sheet: str | None, count: int, taken: list[str]) -> str:
    if count == 1 or not sheet:
        return "card" if "card" not in taken else f"card {len(taken) + 1}"
    name = re.sub(r"[^\w .-]+", " ", sheet, flags=re.ASCII).strip(" ._-")[:41] or "sheet"
    if not name[0].isalnum():
        name = "s " + name[:39]
    return name if name not in taken else f"{name[:36]} {len(taken) + 1}"


def _count(table: Table, column: str) -> int:
    """The cards a copies column asks for (every cell a whole number: else the build's own error)."""
    total = 0
    for row in table.rows:
        n = whole_count(row.values.get(key(column), ""), MAX_COPIES)
        if n is None:
            cell = row.values.get(key(column), "")
            raise table.error(row.number, key(column), f"the cell {not_a_count(cell, MAX_COPIES)}, but the column "
                              f"{column!r} is read as the number of copies of each card.",
                              "write how many of each card to print; or, if the column is not a quantity, rename "
                              "its header", field="--data")
        total += n
    return total


def scaffold(folder: Path, data: Path | None = None, sheet: str | None = None, header_row: int | None = None,
             delimiter: str | None = None, title: str | None = None, no_header: bool = False,
             verify: Callable[[Path], None] | None = None) -> Made:
    """Make the game folder ``folder`` (which must not exist, or be empty) from the table ``data``
    (its ``sheet``, ``header_row`` and ``delimiter`` when pnp cannot tell them; ``no_header``: the
    first row is data) or a sample; ``title`` names the game (default: the sheet's title row, the
    data file's name or the folder's). ``verify`` draws every card of a spec file as `pnp build` would
    (pnp.pipeline.plan.draw_all), raising what the build would.

    Raises:
        SpecError: the folder exists and is not empty, or its name cannot name a kit.
        DataError: the spreadsheet cannot be read, its header or delimiter cannot be told, a
            quantity cell is not a whole number, or a cell's text cannot fit even the largest card
            of CARD_SIZES at 6 pt (nothing is written).
    """
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and (not folder.is_dir() or any(folder.iterdir()))):
        raise SpecError("the folder already exists and is not empty.", file=folder, field="DIR",
                        hint="name a new folder; pnp new never writes into an existing game")
    name = _kit_name(folder)
    notes: list[str] = []
    parent = folder.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{name}-new-", dir=parent))
    try:
        if data is not None:
            data = Path(data)
            if data.suffix.lower() not in SUFFIXES:
                raise SpecError(f"--data {data.name!r} is not a .csv, .tsv, .xlsx or .ods file.", file=data,
                                field="--data", hint="save the spreadsheet in one of those formats")
            data_name = f"data{data.suffix.lower()}"
            deck = _read(data, sheet, header_row, delimiter, no_header, notes)
        else:
            data_name = "cards.csv"
            (stage / data_name).write_text(SAMPLE, encoding="utf-8")
            deck = _read(stage / data_name, None, None, None, False, notes)
            notes = []
        made_title = _title(title, deck.tables[0], data, name)
        pictures: dict[str, Path] = {}
        if data is not None:
            notes += _role_notes(deck, data_name)
            if len(deck.tables) > 1:
                notes.append(f"sheets {', '.join(t.sheet for t in deck.tables)} share one header: one component "
                             "each, drawn with the same front.yaml")
            pictures = _pictures(data.parent, deck, notes)
            shutil.copyfile(data, stage / data_name, follow_symlinks=True)
        for rel, source in pictures.items():
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, stage / rel)
        files = _design(folder, stage, deck, data, data_name, made_title, notes, verify)
        if folder.exists():
            folder.rmdir()
        os.rename(stage, folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return Made([folder / f for f in sorted([*files, data_name])] + [folder / p for p in sorted(pictures)], notes)


def _design(folder: Path, stage: Path, deck: _Deck, data: Path | None, data_name: str, title: str,
            notes: list[str], verify: Callable[[Path], None] | None) -> dict[str, str]:
    """The folder's text files by name, written into ``stage``: the front for the first size of
    CARD_SIZES it fits, as measured and as ``verify`` (drawing every card of the staged spec) finds.

    Raises:
        DataError: no size fits (naming the longest cell), or what ``verify`` raises.
    """
    roles = deck.roles
    copies = roles.one("copies")
    cards = sum(_count(t, copies.header if deck.renamed is None else _original(deck, t, copies.header)) for t in deck.tables) \
        if copies is not None else sum(len(t.rows) for t in deck.tables)
    where = data_name + (f" ({', '.join(t.sheet for t in deck.tables)})" if deck.tables[0].sheet else "")
    rules = rules_md(title, description=f"A deck of {cards:,} cards, one design per row of {where}.",
                         components=f"{cards:,} cards" + (f", {len(deck.tables)} decks" if len(deck.tables) > 1
                                                            else ""))
    head = (f"# {title}: a data-driven pnp game (docs/templates.md defines every field).\n"
            f"# Build it with `pnp build {folder.name}`; edit the data, the templates and rebuild.\n")
    shown = [c.header for c in roles.columns if c.role not in ("empty", "skipped", "copies")]
    for i, (label, size) in enumerate(CARD_SIZES):
        front = front_layout(roles, deck.cells, size)
        if front is None:
            continue
        comps = _components(deck, data_name, label if label in ("poker", "tarot") else size, copies)
        spec = {"title": title, "designer": "", "rules": "rules.md", "components": comps,
                "checks": [{"check": "glyphs", "component": c["name"]} for c in comps]}
        files = {f"{folder.name}.yaml": _dump(spec, head), "rules.md": rules,
                 "front.yaml": _dump(front, f"# The card front ({size[0]:g} x {size[1]:g} mm): {len(shown)} columns of "
                                     f"{data_name} laid out by what they hold (mm from the top left corner).\n"),
                 "back.yaml": _dump(_back(title), "# The card back: pnp's shared back with the game's title.\n")}
        for fname, text in files.items():
            (stage / fname).write_text(text, encoding="utf-8")
        if verify is not None:
            try:
                verify(stage / f"{folder.name}.yaml")
            except DataError as exc:
                if "does not fit" in exc.message and i + 1 < len(CARD_SIZES):
                    continue
                if data is not None and exc.file and Path(exc.file).name == data_name:
                    exc.file = str(data)
                raise
        if i:
            notes.append(f"the cards are {label} size ({size[0]:g} x {size[1]:g} mm): the texts do not fit a "
                         f"smaller card at 6 pt (size: in the spec)")
        return files
    raise _too_long(deck, data)


def _original(deck: _Deck, table: Table, header: str) -> str:
    """The letter a renamed column had when the table was read."""
    return table.headers[deck.renamed.index(header)]


def _too_long(deck: _Deck, data: Path | None) -> DataError:
    t = deck.tables[0]
    longest, at = 0, (None, None)
    for h in deck.headers:
        for tab in deck.tables:
            for r in tab.rows:
                v = r.values.get(key(h if deck.renamed is None else _original(deck, tab, h)), "")
                if len(v) > longest:
                    longest, at = len(v), (r.number, h)
    return DataError(f"row {at[0]}, column {at[1]!r}: the text ({longest:,} characters) cannot fit even an A5 card "
                     "at 6 pt beside the other columns.", file=data or t.path, line=at[0], field="--data",
                     hint="shorten the longest cells or split them over two columns")


def _listed(names: list[str]) -> str:
    return ", ".join(plain(n, 60, False) for n in names[:6]) + (" ..." if len(names) > 6 else "")


def _pictures(where: Path, deck: _Deck, notes: list[str]) -> dict[str, Path]:
    """The picture files the picture columns name, found in the data's folder ``where`` (by relative
    path inside the new folder) by the rule of every read (pnp.inputs.gamefolder.inside: inside ``where``,
    no link leading out, a regular file of at most MAX_IMAGE_BYTES); a note for each column: the pictures
    copied, those missing and those refused (outside the folder, not a file, too large), never copied."""
    found: dict[str, Path] = {}
    for col in deck.roles.of("picture"):
        names = sorted({v.strip().replace("\\", "/") for v in deck.cells[col.header]} - {""})
        missing, refused = [], []
        for rel in names:
            try:
                source = inside(rel, where, what="picture", limit=MAX_IMAGE_BYTES, must_exist=False)
            except Refused:
                refused.append(rel)
                continue
            if source.is_file():
                found[rel] = source
            else:
                missing.append(rel)
        copied = len(names) - len(missing) - len(refused)
        notes.append(f"column {col.header!r} names pictures: "
                     + (f"{copied} copied into the game folder; " if copied else "")
                     + (f"{len(refused)} not copied (outside the data's folder through a link or .., not a file, or "
                        f"over {MAX_IMAGE_BYTES // 2 ** 20} MiB): {_listed(refused)}; " if refused else "")
                     + (f"{len(missing)} missing, drawn as labelled placeholders until you add them "
                        f"(pnp validate fails until then): {_listed(missing)}" if missing else
                        "drawn as labelled placeholders until you put them in the folder (pnp validate fails until "
                        "then)" if refused else
                        "all there"))
    for col in deck.roles.of("url"):
        notes.append(f"column {col.header!r} holds web addresses: pnp never downloads during a build, so each is "
                     "drawn as a labelled placeholder; download the pictures into the folder and write their file "
                     "names in the column")
    return found
