"""NetMatch's spec: cards, network, colours, pawns and tokens as specs/netmatch.yaml gives them
(lengths in mm, network coordinates in mm from its centre, y down)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator, ValidationInfo, field_validator

from ...spec import Colour, Length, SpecBase


class CardSpec(BaseModel):
    """Word-card trim size (mini-Euro 44 x 68 mm by default)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: Length = 44.0
    height: Length = 68.0


Symbol = Literal["circle", "square", "triangle", "diamond"]
SYMBOLS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ColourSpec(_Part):
    """A player colour: its ``letter`` (printed on pawns, tokens and sides), ``name`` and ``hex``."""
    letter: str
    name: str
    hex: Colour


class NodeSpec(_Part):
    """An explicit network node; x, y in mm from the network centre (y down)."""
    id: str
    kind: Literal["start", "inner", "corner", "hub"]
    x: float
    y: float
    side: int | None = None
    symbol: Symbol | None = None


class NetworkSpec(_Part):
    """The board network: ``generator: dodecagon`` with its parameters, or ``generator: null`` with
    explicit ``nodes`` and ``edges``. ``symbols`` is the clockwise order on every side either way."""
    generator: Literal["dodecagon"] | None = "dodecagon"
    sides: int = 12
    symbols: tuple[Symbol, ...] = SYMBOLS
    inner_per_side: int = 2
    corner_ring: bool = True
    hub: bool = True
    spacing: Length = 15.8
    nodes: tuple[NodeSpec, ...] | None = None
    edges: tuple[tuple[str, str], ...] | None = None

    @model_validator(mode="after")
    def _one_source(self):
        if self.generator is None and (self.nodes is None or self.edges is None):
            raise ValueError("without a generator the network needs both nodes: and edges:")
        if self.generator is not None and (self.nodes is not None or self.edges is not None):
            raise ValueError("give either generator: dodecagon or explicit nodes:/edges: (with generator: null)")
        return self


class PawnSpec(_Part):
    """Round pawns: ``diameter`` in mm, ``copies`` of each colour and symbol."""
    diameter: Length = 12.0
    copies: int = 4


class NetMatchSpec(SpecBase):
    """specs/netmatch.yaml."""
    words: str = "netmatch-words.txt"
    expected_words: int | None = 75
    card: CardSpec = CardSpec()
    back_colour: Colour = "#1f3a5f"
    word_size_pt: float = 40.0
    network: NetworkSpec = NetworkSpec()
    colours: tuple[ColourSpec, ...] = (ColourSpec(letter="A", name="vermillion", hex="#d55e00"),
                                       ColourSpec(letter="B", name="sky blue", hex="#56b4e9"),
                                       ColourSpec(letter="C", name="yellow", hex="#f0e442"),
                                       ColourSpec(letter="D", name="blue", hex="#0072b2"))
    side_colours: tuple[str, ...] = ("A", "B", "C", "D")
    full_board_3p: tuple[str, ...] = ("A", "B", "C")
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

