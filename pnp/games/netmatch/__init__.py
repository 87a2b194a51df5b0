"""NetMatch: the Game (Roberto Tron, 2018): board network, 64 pawns, 16 letter tokens, 75 word cards.

The word cards come from any word list; the board's network is data (a generator and its
parameters, or explicit nodes and edges) in specs/netmatch/netmatch.yaml, and the validator proves its
properties on the same network the board draws. Rules source: docs/games/netmatch.md and seed
003 ("64 feature pawns", "16 word tokens", "75 word cards", "1 game board (with 1 dodecagonal
network and 4 card boxes)").
"""
from __future__ import annotations

from ...engine import Game
from .checks import check, check_network, check_pieces, check_words
from .drawing import components, draw_board, piece_rows, symbol_shape, word_rows
from .network import colouring, network_of, reachability
from .spec import SYMBOLS, CardSpec, ColourSpec, NetMatchSpec, NetworkSpec, NodeSpec, PawnSpec
from .words import word_list, word_list_path

__all__ = ["GAME", "SYMBOLS", "CardSpec", "ColourSpec", "NetMatchSpec", "NetworkSpec", "NodeSpec", "PawnSpec",
           "check", "check_network", "check_pieces", "check_words", "colouring", "components", "draw_board",
           "network_of", "piece_rows", "reachability", "symbol_shape", "word_list", "word_list_path", "word_rows"]



def credits(spec: NetMatchSpec) -> tuple[str, ...]:
    """The board's network is pnp's own layout when the generator draws it (the figure of the rules
    is not published with them); a network listed in the spec is the user's."""
    return ("board layout: pnp",) if spec.network.generator else ()


GAME = Game("netmatch", "NetMatch", NetMatchSpec, components, check, __doc__.strip().splitlines()[0],
            inputs={"words": "word list: one four-letter word per card"}, credits=credits,
            rows={"words": word_rows, "pieces": piece_rows})
