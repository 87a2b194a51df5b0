"""Numeria (Lloyd Krassner, 2011): 8x8 board, 36 number tiles and a computed trope reference card.

A trope is 4 tiles in a connected straight line whose numbers strictly increase or decrease. Each
trope type (tropes.py) is a definition (a predicate on the ascending numbers); the card's instances and
the validator's counts are enumerated from those definitions over every 4-subset of 1..36, never
typed in. Rules source: docs/games/numeria.md and seed 002 (lines 24-32 list the types).
"""
from __future__ import annotations

from ...engine import Game
from .checks import check, check_examples, disjoint
from .drawing import components, draw_board, draw_card, tile_rows
from .spec import CardSpec, NumeriaSpec
from .tropes import BY_KEY, TROPES, TropeType, instances, parse_examples, steps, union

__all__ = ["BY_KEY", "GAME", "TROPES", "CardSpec", "NumeriaSpec", "TropeType", "check",
           "check_examples", "components", "disjoint", "draw_board", "draw_card", "instances",
           "parse_examples", "steps", "tile_rows", "union"]

GAME = Game("numeria", "Numeria", NumeriaSpec, components, check, __doc__.strip().splitlines()[0],
            rows={"tiles": tile_rows})
