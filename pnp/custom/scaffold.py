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

import yaml

from ..core.errors import SpecError
from ..games import registry
from .table import SUFFIXES, read_table

MAX_FIELDS = 12  # columns printed on a scaffolded card; more would be too small to read
CARD = (63.5, 88.9)  # poker size, 2.5 x 3.5 in
MARGIN = 5.0

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


def _front(columns: list[str]) -> dict:
    """One labelled field per column: the column name small and grey, the value below it."""
    w, h = CARD
    n = max(1, len(columns))
    step = (h - 2 * MARGIN) / n
    label = min(3.2, step * 0.35)
    layers: list[dict] = [{"type": "rect", "fill": "#ffffff", "bleed": True},
                          {"type": "rect", "x": 3, "y": 3, "w": w - 6, "h": h - 6, "radius": 2, "stroke": "#bbbbbb",
                           "stroke_width": 0.3}]
    for i, col in enumerate(columns):
        y = round(MARGIN + i * step, 3)
        layers.append({"type": "text", "text": _escape(col), "x": MARGIN, "y": y, "w": w - 2 * MARGIN,
                       "h": round(label, 3), "size": round(min(7.0, label / 0.48), 2), "min_size": 3, "fit": "shrink",
                       "colour": "#777777"})
        layers.append({"type": "text", "text": "{" + col + "}", "x": MARGIN, "y": round(y + label, 3),
                       "w": w - 2 * MARGIN, "h": round(step - label - 0.5, 3), "size": 12, "min_size": 3,
                       "fit": "shrink", "wrap": True, "bold": i == 0})
    return {"layers": layers}


def _back(title: str) -> dict:
    return {"include": ["shared/card-back.yaml"],
            "layers": [{"type": "text", "text": _escape(title), "x": "10%", "y": "89%", "w": "80%", "h": "5%",
                        "size": 10, "min_size": 5, "fit": "shrink", "align": "center", "valign": "middle",
                        "bold": True, "colour": "#ffffff"}]}


def _dump(data: dict, head: str) -> str:
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


def scaffold(folder: Path, data: Path | None = None) -> list[Path]:
    """Make the game folder ``folder`` (which must not exist, or be empty); return the files written.

    Raises:
        SpecError: the folder exists and is not empty, or its name cannot name a kit.
        DataError: the spreadsheet cannot be read (nothing is written).
    """
    folder = Path(folder)
    if folder.is_symlink() or (folder.exists() and (not folder.is_dir() or any(folder.iterdir()))):
        raise SpecError("the folder already exists and is not empty.", file=folder, field="DIR",
                        hint="name a new folder; pnp new never writes into an existing game")
    name = re.sub(r"[^a-z0-9_-]+", "-", folder.resolve().name.lower()).strip("-_")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,40}", name or "") or name in registry():
        raise SpecError(f"the folder name {folder.name!r} cannot name a kit"
                        f"{' (it is a built-in game)' if name in registry() else ''}.", file=folder, field="DIR",
                        hint="use lower-case letters, digits, - and _, e.g. pnp new my-game")
    title = name.replace("-", " ").replace("_", " ").capitalize()
    if data is not None:
        if Path(data).suffix.lower() not in SUFFIXES:
            raise SpecError(f"--data {Path(data).name!r} is not a .csv, .tsv, .xlsx or .ods file.", file=data,
                            field="--data", hint="save the spreadsheet in one of those formats")
        table = read_table(Path(data), set(), field="--data")
        copies = next((h for h in table.headers if h.strip().lower() == "copies"), None)
        usable = [h for h in table.headers if "{" not in h and "}" not in h and h != copies]
        columns, left = usable[:MAX_FIELDS], [h for h in table.headers if h not in usable[:MAX_FIELDS]]
        data_name, sheet = f"data{Path(data).suffix.lower()}", table.sheet
    else:
        columns, left, data_name, sheet = ["name", "text"], [], "cards.csv", None
    component: dict = {"name": "card", "size": "poker", "shape": "rounded", "radius": "3mm", "data": data_name}
    if sheet is not None:
        component["sheet"] = sheet
    if data is None:
        component["copies"] = "{copies}"
    elif copies is not None:  # a column named copies says how many of each card, as in the sample
        component["copies"] = "{" + copies + "}"
    component.update({"front": "front.yaml", "back": "back.yaml"})
    checks = [{"check": "glyphs", "component": "card"}]  # more: count, per_value, unique, allowed, required
    spec = {"title": title, "designer": "", "rules": "rules.md", "components": [component], "checks": checks}
    head = (f"# {title}: a data-driven pnp game (docs/templates.md defines every field).\n"
            f"# Build it with `pnp build {folder.name}`; edit the data, the templates and rebuild.\n")
    files = {f"{folder.name}.yaml": _dump(spec, head), "rules.md": RULES.format(title=title, data=data_name),
             "front.yaml": _dump(_front(columns), f"# The card front: {len(columns)} columns of {data_name}, each a "
                                 "labelled field (mm on a 63.5 x 88.9 mm card).\n"
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
        if folder.exists():
            folder.rmdir()
        os.rename(stage, folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return [folder / f for f in sorted([*files, data_name])]
