"""Dominoes (template): a double-six set of 28 tiles, drawn and checked; copy this file to start a game.

This module is a working sixth game kept out of the registry: pnp.engine.registry() skips modules
whose name starts with "_". To add a game (a game in a package of its own registers its GAME in the
entry-point group ``pnp.generators`` instead of copying it into pnp/games):

1. Copy this file to pnp/games/<game>.py (or, once it grows past ~350 lines, to a package
   pnp/games/<game>/ split by concern: spec.py, a rules/maths module, drawing.py, checks.py and an
   __init__.py holding GAME; add the package to `packages` in pyproject.toml).
2. Rename the spec class, RULE, and the name and title in GAME at the bottom.
3. Make the spec folder specs/<game>/: <game>.yaml (`game: <game>`, naming this generator, plus any
   fields that differ from the defaults), rules.md, the rules
   quick reference the cover prints (`# Title`, a one-line description, then the sections
   Components, Setup, A turn, End and winner, Fine points; see pnp/layout/cover.py), and any data
   the game reads; the rules facts your findings cite go in docs/games/<game>.md.
4. `pnp list` shows the first line of this docstring; `pnp validate <game>` prints check(); `pnp
   build <game>` refuses to write a kit while any check FAILs. tests/render/test_print_contract.py runs the
   print contract (footer, scale bar, crop marks, TrimBox, SVG in mm, bleed) on every registered
   game, so the new game is covered on arrival.

The contract, which every game module keeps:

- Units are millimetres, y pointing down, origin at the top-left corner of a part's trim; only font
  sizes are in points (Text.size_pt). Spec lengths use the Length type, so YAML may say "24mm",
  "1in" or "18pt" and the code always sees mm.
- components(spec, ctx) returns the kit's Components in print order. Each front is a Drawing (a
  tuple of pnp.core.ir shapes) in the part's own coordinates, 0..width by 0..height; a shape that
  reaches the trim says bleed=True so imposition can extend it when the kit is built with bleed.
- check(spec, ctx) returns Findings made with verdict(ok, what was checked with its numbers, the
  rule source). Every finding cites where its requirement comes from (a rules line, a docs page);
  warn=True turns a failure into a WARNING that does not stop a build. Slow analyses that cannot
  fail a kit run only when ctx.full is True (`pnp validate`, not `pnp build`).
- A game never imports pnp.layout, pnp.render, pnp.pipeline.plan or pnp.cli: it describes parts and checks
  rules; whether a part fits the paper, and how it lands there, is layout's business.
- Extra input files (a word list, a palette) are spec fields holding a path, declared by name in
  Game.inputs; resolve them with ctx.input_path(name, spec_value), which honours
  `--set name=FILE`, and read them through ctx.once() so check() and components() share one read.
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from pathlib import Path

from pydantic import ValidationInfo, field_validator

from ..core.errors import SpecError
from ..core.findings import Finding, verdict
from ..core.ir import WHITE, Circle, Component, Line, Rect, Text
from ..engine.declared import GeneratorSpec
from ..inputs.specfields import Colour, Count, Length
from ..core.units import fmt_mm
from ..engine import Game, KitContext

# The rule source every finding cites. In a real game: the rules document and its line or section,
# e.g. "Nooks rules (seed 001)" or "docs/games/<game>.md: Components".
RULE = "Dominoes rules (standard double-n set)"

# Pip positions on a 3 x 3 grid (column, row) for each number 0..9: the usual domino faces.
CORNERS = ((0, 0), (2, 0), (0, 2), (2, 2))
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (), 1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)), 4: CORNERS,
    5: CORNERS + ((1, 1),), 6: CORNERS + ((0, 1), (2, 1)), 7: CORNERS + ((0, 1), (2, 1), (1, 1)),
    8: CORNERS + ((0, 1), (2, 1), (1, 0), (1, 2)), 9: tuple((c, r) for r in range(3) for c in range(3)),
}


# -- spec: the pydantic model of specs/<game>/<game>.yaml -----------------------------------------
# GeneratorSpec (SpecBase and the declared `checks:`) brings `game` and `title` and forbids unknown
# keys, so a typo in the YAML is an error with its line number. Give every field a default (the built-in spec then only says what differs) and
# bound every number by what a printable kit can need, before any work starts: Count(lo, hi) for
# whole numbers, BoundedFloat(lo, hi) for plain numbers, Length for sizes, Flag for true/false (a
# plain bool would take "yes"); nested models derive from SpecModel, which refuses nan and inf.
# A validator that raises ValueError becomes a SpecError naming the field, so say how to fix it.

class DominoesSpec(GeneratorSpec):
    """specs/dominoes/dominoes.yaml. Lengths in mm (or "24mm", "1in", "18pt")."""
    top: Count(0, 9) = 6              # the highest number: 6 makes a double-six set
    half: Length = 24.0               # a tile is two squares of this side, one above the other
    pip: Length = 4.0                 # pip diameter
    tile_colour: Colour = "#fbf8f0"
    ink: Colour = "#1b1b1b"
    back_colour: Colour = "#2f4f6f"
    palette: str = ""                 # optional input file: one #rrggbb per number 0..top

    @field_validator("pip")
    @classmethod
    def _pips_fit_a_half(cls, pip: float, info: ValidationInfo) -> float:
        half = info.data.get("half")
        if half is not None and 4 * pip >= half:
            raise ValueError(f"pip {pip:g} mm: pips {half / 4:g} mm apart (a quarter of the {half:g} mm half tile) "
                             "would touch. Make the pips smaller or the tile larger")
        return pip


# -- rules: the parts the kit prints, computed (never typed in) -------------------------------------

def tiles(spec: DominoesSpec) -> list[tuple[int, int]]:
    """Every tile as (a, b) with a <= b, in print order: 0-0, 0-1, ..., top-top."""
    return list(combinations_with_replacement(range(spec.top + 1), 2))


# -- an extra input file, declared in GAME.inputs ---------------------------------------------------

def palette(spec: DominoesSpec, ctx: KitContext) -> tuple[str, ...]:
    """The pip colours by number from the palette file, or () when the spec names none and no
    `--set palette=FILE` was given. Read once per build (check and components share it)."""
    if not spec.palette and not ctx.overridden("palette"):
        return ()
    path = ctx.input_path("palette", spec.palette)
    return ctx.once(("palette", path), lambda: read_palette(path))


def read_palette(path: Path) -> tuple[str, ...]:
    """One #rrggbb colour per non-blank line.

    Raises:
        SpecError: the file cannot be read, or a line is not a colour (the error names file and line).
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"cannot read the palette: {exc}.", file=path, field="palette",
                        hint="give a UTF-8 text file with one #rrggbb colour per line") from None
    out = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if len(text) != 7 or text[0] != "#" or any(ch not in "0123456789abcdefABCDEF" for ch in text[1:]):
            raise SpecError(f"{text!r} is not a colour.", file=path, line=number, field="palette",
                            hint="write one colour per line as #rrggbb, e.g. #d55e00")
        out.append(text.lower())
    return tuple(out)


# -- drawing: IR shapes in mm, y down, in each part's own coordinates --------------------------------

def draw_tile(tile: tuple[int, int], spec: DominoesSpec, colours: tuple[str, ...]):
    """A tile front: ``tile[0]`` pips in the top half, ``tile[1]`` in the bottom, a line between."""
    s = spec.half
    shapes: list = [Rect(0, 0, s, 2 * s, fill=spec.tile_colour, stroke=None, bleed=True),  # reaches the trim
                    Line(s * 0.15, s, s * 0.85, s, stroke=spec.ink, stroke_width=0.5)]
    step = s / 4  # pips sit on a 3 x 3 grid with a quarter of the side between centres
    for half, number in enumerate(tile):
        fill = colours[number] if number < len(colours) else spec.ink
        for col, row in PIPS[number]:
            shapes.append(Circle((col + 1) * step, half * s + (row + 1) * step, spec.pip / 2, fill=fill, stroke=None))
    return tuple(shapes)


def draw_back(spec: DominoesSpec):
    """The common back: a full-bleed field with the name, so tiles are drawn blind."""
    s = spec.half
    return (Rect(0, 0, s, 2 * s, fill=spec.back_colour, stroke=None, bleed=True),
            Text(s / 2, s, "DOMINOES", size_pt=max(4.0, s * 0.25), anchor="middle", valign="middle",
                 fill=WHITE, rotate=90))


def components(spec: DominoesSpec, ctx: KitContext) -> list[Component]:
    """[domino]: one front per tile (half x 2 half mm) and a common back. A board would add
    Component(..., board=True), which layout tiles over several pages when it is larger than one."""
    colours = palette(spec, ctx)
    fronts = [draw_tile(t, spec, colours) for t in tiles(spec)]
    return [Component("domino", spec.half, 2 * spec.half, fronts, back=draw_back(spec),
                      note=f"double-{spec.top} set, every pair of 0-{spec.top} once")]


# -- checks: what the rules require, on the parts the kit prints ---------------------------------------

def check(spec: DominoesSpec, ctx: KitContext) -> list[Finding]:
    """The set is complete, the pips are readable, the palette (if any) covers every number."""
    n = spec.top
    printed = tiles(spec)
    want = (n + 1) * (n + 2) // 2  # independent count: pairs with repetition from n + 1 numbers
    out = [verdict(len(printed) == want and len(set(printed)) == len(printed),
                   f"{len(printed)} tiles = (n+1)(n+2)/2 = {want} for n = {n}, no tile twice",
                   f"{RULE}: every pair of numbers once")]
    gap = spec.half / 4 - spec.pip  # pip centres are a quarter of the half apart (draw_tile)
    out.append(verdict(gap >= 1.0, f"pips {fmt_mm(spec.pip)} across, {fmt_mm(gap)} apart on a {fmt_mm(spec.half)} "
                       "half (at least 1 mm)", f"{RULE}: pips readable at a glance", warn=True))
    if spec.palette or ctx.overridden("palette"):
        colours = palette(spec, ctx)
        out.append(verdict(len(colours) >= n + 1, f"palette has {len(colours)} colours for the numbers 0..{n}",
                           f"{RULE}: each number keeps its pip colour"))
    return out


GAME = Game("dominoes", "Dominoes", DominoesSpec, components, check, __doc__.strip().splitlines()[0],
            inputs={"palette": "pip colours: one #rrggbb per number"})
