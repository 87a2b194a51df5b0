"""Any game from a spreadsheet and templates: a spec that declares its components (no Python).

A spec without ``game:`` (or with ``game: custom``) is a data-driven game: load() turns it into a
pnp.engine.Game, so imposition, the cover, every output format, the kit store, `pnp validate` and
`pnp watch` treat it like a built-in game. A folder is built through its spec ``DIR/<DIR>.yaml``.
The shipped examples are spec folders beside the five games' (pnp.inputs.resources.shipped_specs).
See docs/templates.md.

pnp.custom imports pnp.core, pnp.inputs and pnp.engine only (never pnp.games, layout, render, build
or cli).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from ..core.errors import SpecError
from ..engine import Game, KitContext, game_names
from ..inputs.specfields import validate_model
from .checks import run_checks
from .parts import build_components, text_fit_work
from .spec import CustomSpec

__all__ = ["CustomSpec", "is_custom", "load", "spec_in_folder"]

_SAFE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")


def is_custom(data: dict) -> bool:
    """True for a data-driven spec: no ``game:`` key, or ``game: custom``."""
    return data.get("game", "custom") == "custom"


def spec_in_folder(folder: Path) -> Path:
    """The spec of a game folder: ``DIR/<DIR name>.yaml``.

    Raises:
        SpecError: the folder has no such file (naming the .yaml files it has).
    """
    path = folder / f"{folder.resolve().name}.yaml"
    if os.path.lexists(path):  # a FIFO or a link too: the spec reader says what it is
        return path
    found = sorted(p.name for p in folder.glob("*.yaml"))[:10]
    raise SpecError(f"the folder has no spec {path.name}" + (f" (it has {', '.join(found)})." if found else "."),
                    file=folder, field="GAME", hint="name the spec file after its folder, or give the spec's path; "
                    "`pnp new DIR` makes a folder that builds")


def kit_name(spec: CustomSpec, path: Path, lines: dict) -> str:
    """The kit's folder name: ``name:``, else the spec file's name in lower case.

    Raises:
        SpecError: not usable as a folder name, or the name of a built-in game.
    """
    name = spec.name if spec.name is not None else re.sub(r"[^a-z0-9_-]+", "-", path.stem.lower()).strip("-_")
    if not _SAFE.match(name or ""):
        raise SpecError(f"the kit name {name!r} cannot be a folder name.", file=path, line=lines.get(("name",)),
                        field="name", hint="set name: to lower-case letters, digits, - and _ (at most 41)")
    if name in game_names():  # names only: a deck does not import every game
        raise SpecError(f"the kit name {name!r} is a built-in game's; building it would replace that kit.", file=path,
                        line=lines.get(("name",)), field="name", hint="set name: to another name")
    return name


def load(path: Path, data: dict, lines: dict) -> tuple[Game, CustomSpec]:
    """The Game and validated spec of the data-driven spec at ``path`` (``data``, ``lines`` from load_yaml).

    Data files and templates are read later, once per build, by the Game's check() and components().

    Raises:
        SpecError: unknown key, bad value or unusable name, naming the file, line and field.
    """
    for i, comp in enumerate(data.get("components") or ()):
        table = comp.get("data") if isinstance(comp, dict) else None
        if isinstance(table, str) and table.startswith("generator:"):
            raise SpecError(f"component {i + 1} draws {table}, a table a generator computes, but the spec has no "
                            "game: naming the generator.", file=path, line=lines.get(("components", i, "data")),
                            field="game", hint="add game: <generator> (pnp list shows them), or give data: a file")
    spec = validate_model(CustomSpec, data, path, lines)
    name = kit_name(spec, path, lines)
    with_data = [c.name for c in spec.components if c.data is not None]

    def components(s: CustomSpec, ctx: KitContext):
        return build_components(s, ctx, lines)

    def check(s: CustomSpec, ctx: KitContext):
        return run_checks(s, ctx, lines)

    def fit_work(s: CustomSpec, ctx: KitContext):
        return text_fit_work(s, ctx, lines)

    inputs = {"data": f"the spreadsheet of {with_data[0]!r} (.csv, .tsv, .xlsx or .ods)"} if with_data else {}
    title = spec.title or name
    return Game(name, title, CustomSpec, components, check, f"{title}: a data-driven game ({path.name})", inputs,
                fit_work=fit_work), spec
