"""`pnp new DIR [--data FILE]`: a game folder that builds as it is.

It holds ``<DIR>.yaml`` (the spec), ``rules.md``, ``front.yaml`` and ``back.yaml`` (templates), and
either a copy of the given spreadsheet (one card per row; every column printed as a labelled field,
so the designer sees their data on cards at once) or a small sample ``cards.csv``. The data is read
(header row found, limits applied) before anything is written; the folder is made in a staging
folder beside DIR and renamed into place, so a failure leaves nothing behind.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from dataclasses import dataclass, field
from pathlib import PurePosixPath

import yaml

from ..core.errors import SpecError
from ..engine import game_names
from ..inputs.delimiters import DELIMITERS
from .columns import not_a_count, picture_columns, quantity_column, whole_count
from .spec import MAX_COPIES
from .table import OPTIONS, SUFFIXES, key, read_table

MAX_FIELDS = 12  # columns printed on a scaffolded card; more would be too small to read
CARD = (63.5, 88.9)  # poker size, 2.5 x 3.5 in
MARGIN = 5.0
PICTURE_UNITS = 3  # a picture is as tall as three labelled fields

SAMPLE = ("name,text,copies\n"
          "Scout,Look at the top two cards of the deck and put them back in any order.,3\n"
          "Trader,Swap one card from your hand with one card of another player's hand.,2\n"
          "Builder,Place one tile next to a tile you already own.,4\n"
          "Sage,Draw two cards then discard one of them.,2\n")

RULES = """# {title}
One line saying what the game is and who it is for.

## Components
- The cards of {title}, one per row of {data}.

## Setup
Say how the table is set up before the first turn.

## A turn
Say what a player does on a turn.

## End and winner
Say when the game ends and who wins.

## Fine points
- Edit this file (rules.md) and rebuild: the cover prints it.
"""


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _front(columns: list[str], pictures: list[str]) -> dict:
    """One labelled field per column (the column name small and grey, the value below it); a picture
    column is an image layer three fields tall."""
    w, h = CARD
    units = max(1, len(columns) + PICTURE_UNITS * len(pictures))
    step = (h - 2 * MARGIN) / units
    label = min(3.2, step * 0.35)
    layers: list[dict] = [{"type": "rect", "fill": "#ffffff", "bleed": True},
                          {"type": "rect", "x": 3, "y": 3, "w": w - 6, "h": h - 6, "radius": 2, "stroke": "#bbbbbb",
                           "stroke_width": 0.3}]
    y = MARGIN
    for i, col in enumerate(columns):
        if col in pictures:
            layers.append({"type": "image", "src": "{" + col + "}", "x": MARGIN, "y": round(y, 3),
                           "w": w - 2 * MARGIN, "h": round(PICTURE_UNITS * step - 0.5, 3)})
            y += PICTURE_UNITS * step
            continue
        layers.append({"type": "text", "text": _escape(col), "x": MARGIN, "y": round(y, 3), "w": w - 2 * MARGIN,
                       "h": round(label, 3), "size": round(min(7.0, label / 0.48), 2), "min_size": 3, "fit": "shrink",
                       "colour": "#666666"})  # 5.7:1 on white (WCAG 2.x SC 1.4.3 asks 4.5:1)
        layers.append({"type": "text", "text": "{" + col + "}", "x": MARGIN, "y": round(y + label, 3),
                       "w": w - 2 * MARGIN, "h": round(step - label - 0.5, 3), "size": 12, "min_size": 3,
                       "fit": "shrink", "wrap": True, "bold": i == 0})
        y += step
    return {"layers": layers}


def _back(title: str) -> dict:
    return {"include": ["shared/card-back.yaml"],
            "layers": [{"type": "text", "text": _escape(title), "x": "10%", "y": "89%", "w": "80%", "h": "5%",
                        "size": 10, "min_size": 5, "fit": "shrink", "align": "center", "valign": "middle",
                        "bold": True, "colour": "#ffffff"}]}


def _dump(data: dict, head: str) -> str:
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


@dataclass
class Made:
    """What `pnp new` made: the ``files`` written and ``notes`` for the designer (what pnp read how)."""
    files: list[Path]
    notes: list[str] = field(default_factory=list)


def scaffold(folder: Path, data: Path | None = None, sheet: str | None = None, header_row: int | None = None,
             delimiter: str | None = None) -> Made:
    """Make the game folder ``folder`` (which must not exist, or be empty) from the table ``data``
    (its ``sheet``, ``header_row`` and ``delimiter`` when pnp cannot tell them) or a sample.

    A quantity column (pnp.custom.columns) becomes the component's ``copies``; a column of picture
    file names an image layer, the pictures found beside the data copied into the folder.

    Raises:
        SpecError: the folder exists and is not empty, or its name cannot name a kit.
        DataError: the spreadsheet cannot be read, its header or delimiter cannot be told, or a
            quantity cell is not a whole number (nothing is written).
    """
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and (not folder.is_dir() or any(folder.iterdir()))):
        raise SpecError("the folder already exists and is not empty.", file=folder, field="DIR",
                        hint="name a new folder; pnp new never writes into an existing game")
    name = re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-_")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,40}", name or "") or name in game_names():
        raise SpecError(f"the folder name {folder.name!r} cannot name a kit"
                        f"{' (it is a built-in game)' if name in game_names() else ''}.", file=folder, field="DIR",
                        hint="use lower-case letters, digits, - and _, e.g. pnp new my-game")
    title = name.replace("-", " ").replace("_", " ").capitalize()
    notes: list[str] = []
    pictures: dict[str, Path | None] = {}
    component: dict = {"name": "card", "size": "poker", "shape": "rounded", "radius": "3mm"}
    if data is not None:
        data = Path(data)
        if data.suffix.lower() not in SUFFIXES:
            raise SpecError(f"--data {data.name!r} is not a .csv, .tsv, .xlsx or .ods file.", file=data,
                            field="--data", hint="save the spreadsheet in one of those formats")
        table = read_table(data, set(), sheet, header_row, field="--data", delimiter=delimiter, first_sheet=True,
                           how=OPTIONS)
        data_name = f"data{data.suffix.lower()}"
        component["data"] = data_name
        if table.sheet is not None:
            component["sheet"] = table.sheet
            if table.others:
                notes.append(f"read sheet {table.sheet}; the other sheets with data ({', '.join(table.others)}) are "
                             "not used: to print them, add a component with data: " + data_name + " and sheet: NAME "
                             "(docs/templates.md)")
        if header_row is not None or table.header_row != 1:
            component["header_row"] = table.header_row
        if table.delimiter not in (None, "\t" if data.suffix.lower() == ".tsv" else ","):
            component["delimiter"] = DELIMITERS[table.delimiter]
            if delimiter is None:
                notes.append(f"the cells are separated by {DELIMITERS[table.delimiter]}s (delimiter: in the spec)")
        cells = {h: [r.values[key(h)] for r in table.rows] for h in table.headers}
        copies, passed = quantity_column(table.headers, cells)
        if passed is not None:
            notes.append(f"column {passed!r} runs 1, 2, 3 ...: printed as a card number, not read as copies "
                         f"(to count copies with it, write copies: '{{{passed}}}' in the spec)")
        if copies is not None:
            counts = [_count(table, row, copies) for row in table.rows]
            component["copies"] = "{" + copies + "}"
            notes.append(f"copies: column {copies!r} says how many of each card ({sum(counts)} cards from "
                         f"{len(counts)} rows)")
        usable = [h for h in table.headers if "{" not in h and "}" not in h and h != copies]
        columns, left = usable[:MAX_FIELDS], [h for h in table.headers if h not in usable[:MAX_FIELDS]]
        shown = picture_columns(columns, cells)
        pictures = _pictures(data.parent, table, shown, notes)
    else:
        columns, left, data_name, shown = ["name", "text"], [], "cards.csv", []
        component.update({"data": data_name, "copies": "{copies}"})
    component.update({"front": "front.yaml", "back": "back.yaml"})
    checks = [{"check": "glyphs", "component": "card"}]  # more: count, per_value, unique, allowed, required
    spec = {"title": title, "designer": "", "rules": "rules.md", "components": [component], "checks": checks}
    head = (f"# {title}: a data-driven pnp game (docs/templates.md defines every field).\n"
            f"# Build it with `pnp build {folder.name}`; edit the data, the templates and rebuild.\n")
    files = {f"{folder.name}.yaml": _dump(spec, head), "rules.md": RULES.format(title=title, data=data_name),
             "front.yaml": _dump(_front(columns, shown), f"# The card front: {len(columns)} columns of {data_name}, "
                                 "each a labelled field or a picture (mm on a 63.5 x 88.9 mm card).\n"
                                 + (f"# Not printed (at most {MAX_FIELDS} fit, and names with braces cannot be "
                                    f"placeholders): {', '.join(left)}.\n" if left else "")),
             "back.yaml": _dump(_back(title), "# The card back: pnp's shared back with the game's title.\n")}
    parent = folder.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{name}-new-", dir=parent))
    try:
        for fname, text in files.items():
            (stage / fname).write_text(text, encoding="utf-8")
        if data is not None:
            shutil.copyfile(data, stage / data_name, follow_symlinks=True)
        else:
            (stage / data_name).write_text(SAMPLE, encoding="utf-8")
        for rel, source in pictures.items():
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, stage / rel)
        if folder.exists():
            folder.rmdir()
        os.rename(stage, folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return Made([folder / f for f in sorted([*files, data_name])] + [folder / p for p in sorted(pictures)], notes)


def _count(table, row, column: str) -> int:
    """A quantity cell as a whole number, or the build's own error for it (row and column named)."""
    n = whole_count(row.values[key(column)], MAX_COPIES)
    if n is None:
        raise table.error(row.number, key(column), f"the cell {not_a_count(row.values[key(column)], MAX_COPIES)}, but "
                          f"the column {column!r} is read as the number of copies of each card.",
                          "write how many of each card to print; or, if the column is not a quantity, rename its "
                          "header", field="--data")
    return n


def _pictures(where: Path, table, columns: list[str], notes: list[str]) -> dict[str, Path]:
    """The picture files the ``columns`` name, found in the data's folder ``where`` (by relative path
    inside the new folder); a note for each column: the pictures drawn, and those missing."""
    found: dict[str, Path] = {}
    for col in columns:
        names = sorted({r.values[key(col)].strip().replace("\\", "/") for r in table.rows} - {""})
        missing = []
        for rel in names:
            source = where / rel
            inside = not PurePosixPath(rel).is_absolute() and ".." not in PurePosixPath(rel).parts
            if inside and source.is_file() and not source.is_symlink():
                found[rel] = source
            else:
                missing.append(rel)
        notes.append(f"column {col!r} names pictures: drawn as an image on the front"
                     + (f"; missing beside {table.path.name} (put them in the game folder): "
                        f"{', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''}" if missing else
                        f"; {len(names)} copied into the game folder"))
    return found
