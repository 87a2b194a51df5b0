"""NetMatch's spec: cards, network, colours, pawns and tokens as specs/netmatch/netmatch.yaml gives them
(lengths in mm, network coordinates in mm from its centre, y down).

Limits, checked when the spec is read. The seed's board has 12 sides, 85 nodes and 168 edges; 48
sides make a board about 1 m across (a 6 x 5 A4 poster), and 1,000 nodes / 4,000 edges keep every
graph check (all-pairs distances, symmetry search) to about a second. Node coordinates stay within
1 m of the centre (a 2 m board, pnp's largest length). At most 8 colours (the Okabe-Ito palette) and
100 pawn copies of each colour and symbol (3,200 pawns); the seed has 4 colours and 4 copies.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

from typing import Literal

from pydantic import ValidationInfo, field_validator, model_validator

from ...engine.declared import GeneratorSpec
from ...inputs.specfields import MAX_LENGTH_MM, BoundedFloat, Colour, Count, Flag, Items, Length, SpecModel
from .wordlist import MAX_WORDS

MAX_SIDES = 48
MAX_NODES = 1000
MAX_EDGES = 4000
MAX_COLOURS = 8
MAX_COORD = MAX_LENGTH_MM / 2


class CardSpec(SpecModel):
    """Word-card trim size (mini-Euro 44 x 68 mm by default)."""
    width: Length = 44.0
    height: Length = 68.0


Symbol = Literal["circle", "square", "triangle", "diamond"]
SYMBOLS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")


class ColourSpec(SpecModel):
    """A player colour: its ``letter`` (printed on pawns, tokens and sides), ``name`` and ``hex``."""
    letter: str
    name: str
    hex: Colour


class NodeSpec(SpecModel):
    """An explicit network node; x, y in mm from the network centre (y down)."""
    id: str
    kind: Literal["start", "inner", "corner", "hub"]
    x: BoundedFloat(-MAX_COORD, MAX_COORD, f"node positions are mm from the centre, within {MAX_COORD:g} mm")
    y: BoundedFloat(-MAX_COORD, MAX_COORD, f"node positions are mm from the centre, within {MAX_COORD:g} mm")
    side: Count(0, MAX_SIDES - 1, f"sides are numbered 0..{MAX_SIDES - 1}") | None = None
    symbol: Symbol | None = None


class NetworkSpec(SpecModel):
    """The board network: ``generator: dodecagon`` with its parameters, or ``generator: null`` with
    explicit ``nodes`` and ``edges``. ``symbols`` is the clockwise order on every side either way."""
    generator: Literal["dodecagon"] | None = "dodecagon"
    sides: Count(3, MAX_SIDES, f"the seed's board has 12 sides; {MAX_SIDES} make a board about 1 m across") = 12
    symbols: Items(tuple[Symbol, ...], 1, len(SYMBOLS), "list each symbol once, clockwise") = SYMBOLS
    inner_per_side: Count(1, len(SYMBOLS), "inner nodes per side must divide the number of symbols") = 2
    corner_ring: Flag = True
    hub: Flag = True
    spacing: Length = 15.8
    nodes: Items(tuple[NodeSpec, ...], 1, MAX_NODES, f"a network has 1 to {MAX_NODES} nodes; "
                 "the seed's has 85") | None = None
    edges: Items(tuple[tuple[str, str], ...], 0, MAX_EDGES, f"a network has at most {MAX_EDGES} edges; "
                 "the seed's has 168") | None = None

    @model_validator(mode="after")
    def _one_source(self):
        if self.generator is None and (self.nodes is None or self.edges is None):
            raise ValueError("without a generator the network needs both nodes: and edges:")
        if self.generator is not None and (self.nodes is not None or self.edges is not None):
            raise ValueError("give either generator: dodecagon or explicit nodes:/edges: (with generator: null)")
        return self


class PawnSpec(SpecModel):
    """Round pawns: ``diameter`` in mm, ``copies`` of each colour and symbol."""
    diameter: Length = 12.0
    copies: Count(1, 100, "copies of each colour and symbol: the seed's game has 4") = 4


class NetMatchSpec(GeneratorSpec):
    """specs/netmatch/netmatch.yaml."""
    words: str = "netmatch-words.txt"
    expected_words: Count(1, MAX_WORDS, "the seed's deck has 75 word cards") | None = 75
    card: CardSpec = CardSpec()
    back_colour: Colour = "#1f3a5f"
    word_size_pt: BoundedFloat(4, 200, "the largest word size in pt: the seed's cards use 40") = 40.0
    network: NetworkSpec = NetworkSpec()
    colours: Items(tuple[ColourSpec, ...], 1, MAX_COLOURS, "the seed's game has 4 colours; the Okabe-Ito "
                   "palette has 8") = (ColourSpec(letter="A", name="vermillion", hex="#d55e00"),
                                       ColourSpec(letter="B", name="sky blue", hex="#56b4e9"),
                                       ColourSpec(letter="C", name="yellow", hex="#f0e442"),
                                       ColourSpec(letter="D", name="blue", hex="#0072b2"))
    side_colours: Items(tuple[str, ...], 0, MAX_SIDES, "colour letters cycled over the sides") = ("A", "B", "C", "D")
    full_board_3p: Items(tuple[str, ...], 0, MAX_SIDES, "colour letters cycled over the sides") = ("A", "B", "C")
    pawn: PawnSpec = PawnSpec()

    @field_validator("pawn")
    @classmethod
    def _pawn_fits_a_node(cls, pawn: PawnSpec, info: ValidationInfo) -> PawnSpec:
        network = info.data.get("network")
        if network is not None and pawn.diameter + 2 > network.spacing:
            raise ValueError(f"pawn.diameter {pawn.diameter:g} mm needs a node circle of {pawn.diameter + 2:g} mm, "
                             f"wider than the {network.spacing:g} mm between neighbouring nodes. Make the pawns "
                             "smaller or network.spacing larger")
        return pawn

    token_size: Length = 18.0
    card_box_margin: Length = 3.0
