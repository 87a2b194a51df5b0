"""The engine's protocol: every kit is a spec read by one engine, and what must be computed is a
named generator the spec calls.

``Game`` is a generator (spec model, components, checks, declared inputs), ``KitContext`` what it
sees beside its spec (pnp.engine.game); the registry finds generators by name: pnp's own plug-ins
(pnp.games) and third parties' (entry-point group ``pnp.generators``; pnp.engine.plugins). A
data-driven game (pnp.custom) is a Game too.

pnp.engine imports pnp.core and pnp.inputs only.
"""
from __future__ import annotations

from .game import Game, KitContext, PaperRoom
from .plugins import GROUP, game_names, get_game, registry, third_party_names

__all__ = ["GROUP", "Game", "KitContext", "PaperRoom", "game_names", "get_game", "registry", "third_party_names"]
