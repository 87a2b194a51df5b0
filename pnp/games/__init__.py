"""Game plug-ins. Each module pnp/games/<game>.py defines ``GAME = Game(...)``; the registry finds
them, so adding a game means one module and one spec (copy pnp/games/_template.py)."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import SpecError
from ..findings import Finding
from ..ir import Component
from ..spec import SpecBase


@dataclass(frozen=True)
class KitContext:
    """Inputs beside the spec: the spec's own path (relative files resolve against its folder), an
    optional word list that overrides the spec's (``--words``), and ``full``: True for `pnp validate`,
    which also runs the slow analyses that cannot fail a kit (self-checks of the enumerator,
    searches behind warnings); `pnp build` sets it False and runs only the checks that decide
    whether the kit may be printed."""
    spec_path: Path
    words: Path | None = None
    full: bool = True


@dataclass(frozen=True)
class Game:
    """A registered game: its spec model, its components and its rules checks.

    ``components(spec, ctx)`` returns the kit's Components in print order; ``check(spec, ctx)``
    returns Findings. ``summary`` is the first docstring line of the module, shown by `pnp list`.
    """
    name: str
    title: str
    spec_model: type[SpecBase]
    components: Callable[[SpecBase, KitContext], list[Component]]
    check: Callable[[SpecBase, KitContext], list[Finding]]
    summary: str = ""


def registry() -> dict[str, Game]:
    """All games, by name, in alphabetical order."""
    games = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.name] = game
    return games


def get_game(name: str) -> Game:
    """The game called ``name``.

    Raises:
        SpecError: no such game (the message lists the known games).
    """
    games = registry()
    if name not in games:
        raise SpecError(f"unknown game {name!r}.", field="game", hint=f"use one of: {', '.join(games)}")
    return games[name]
