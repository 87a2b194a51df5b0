"""The registry of named generators: what a spec's ``game:`` may name.

A generator is a ``Game`` (pnp.engine.game): the Python a kit needs for what must be computed.
pnp's own are the modules and packages of ``pnp.games`` (each defines ``GAME``; names starting
with ``_`` are helpers), found by name (the engine does not import that package's modules); third parties register theirs in the entry-point group ``pnp.generators``
(``name = "package.module:GAME"`` in their pyproject.toml). A spec names a generator; it never
names a file of code, so a spec someone sends you cannot run code of its own.

``game_names()`` lists pnp's own without importing any; ``get_game()`` imports only the one asked
for, so a build of one kit imports only its own generator. Entry points are read only for a name
pnp does not have, and for ``registry()``.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from ..core.errors import SpecError
from .game import Game

PLUGINS = "pnp.games"        # the package of pnp's own generators
GROUP = "pnp.generators"     # the entry-point group of third parties' generators


def game_names() -> list[str]:
    """The names of pnp's own generators (the modules and packages of pnp.games not starting with
    _), in alphabetical order, without importing them."""
    package = importlib.import_module(PLUGINS)  # its __init__ only names the package
    return list(_names_in(tuple(package.__path__)))


@lru_cache(maxsize=8)
def _names_in(path: tuple[str, ...]) -> tuple[str, ...]:
    """The generator names in the folders ``path`` (a package's search path), listed once per path."""
    return tuple(sorted(info.name for info in pkgutil.iter_modules(list(path)) if not info.name.startswith("_")))


@lru_cache(maxsize=1)
def _entry_points() -> dict:
    """Third parties' generators by name (the entry points of GROUP), not loaded."""
    from importlib.metadata import entry_points  # read only for a name pnp lacks (see above)
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def third_party_names() -> list[str]:
    """The names registered in the entry-point group GROUP that pnp's own do not shadow."""
    own = set(game_names())
    return sorted(n for n in _entry_points() if n not in own)


def _own(name: str) -> Game | None:
    """The ``GAME`` the module pnp.games.<name> defines, None if it defines none (it is imported)."""
    game = getattr(importlib.import_module(f"{PLUGINS}.{name}"), "GAME", None)
    return game if isinstance(game, Game) else None


def _third_party(name: str, file=None, line: int | None = None, field: str = "game") -> Game:
    """The Game of entry point ``name`` (``file``, ``line``, ``field``: where a spec named it).

    Raises:
        SpecError: it cannot be loaded, or what it names is not a Game (names the entry point).
    """
    ep = _entry_points()[name]
    try:
        game = ep.load()
    except Exception as exc:  # a broken plug-in is reported, not a traceback
        raise SpecError(f"the generator {name!r} ({ep.value}, entry point group {GROUP}) cannot be loaded: "
                        f"{type(exc).__name__}: {exc}.", file=file, line=line, field=field,
                        hint="reinstall the package that provides it, or name another generator") from None
    if not isinstance(game, Game) or game.name != name:
        raise SpecError(f"the entry point {name!r} ({ep.value}, group {GROUP}) is not a pnp Game named {name!r}.",
                        file=file, line=line, field=field,
                        hint="the entry point must name a pnp.engine.Game with the same name")
    return game


def registry() -> dict[str, Game]:
    """Every generator, by name: pnp's own in alphabetical order, then third parties' that load (a
    broken one is left out here; get_game() names its fault)."""
    games = {}
    for name in game_names():
        game = _own(name)
        if game is not None:
            games[game.name] = game
    for name in third_party_names():
        try:
            games[name] = _third_party(name)
        except SpecError:
            continue
    return games


def get_game(name: str, *, file=None, line: int | None = None, field: str = "game") -> Game:
    """The generator called ``name`` (only its own module is imported).

    Raises:
        SpecError: no such generator (``file``, ``line``, ``field`` say where the name was written;
            the message lists the known names), or a third party's cannot be loaded.
    """
    if name in game_names():
        game = _own(name)
        if game is not None and game.name == name:
            return game
    elif name in _entry_points():
        return _third_party(name, file, line, field)
    games = registry()
    if name not in games:
        raise SpecError(f"unknown generator {name!r}.", file=file, line=line, field=field,
                        hint=f"use one of: {', '.join(games)}")
    return games[name]
