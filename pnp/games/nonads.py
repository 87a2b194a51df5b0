"""Nonads (Cameron Browne, 2011): 34 tiles, every 3x3 grid with 4 black cells up to rotation.

The tiles are computed, never typed in: all C(9,4) = 126 patterns reduced to canonical forms under
the rotation group C4 (smallest bitmask, bit index 3*row + col), cross-checked by Burnside's lemma.
Rules source: docs/games/nonads.md and seed 000 ("There are 34 unique ways to colour four cells
in a 3x3 grid, not counting rotations").
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

from itertools import combinations
from math import comb
from typing import Literal

from pydantic import ValidationInfo, field_validator

from ..geometry.symmetry import (
    VECTOR_THRESHOLD, apply, burnside_count, burnside_terms, canonical, enumerate_classes, group_permutations,
    symmetry_order)
from ..core.errors import SpecError
from ..core.findings import Finding, verdict
from ..core.ir import WHITE, Component
from ..engine.declared import GeneratorSpec
from ..inputs.specfields import Colour, Count, FieldError, Flag, Length
from ..engine import Game, KitContext

RULE = "Nonads rules (seed 000)"


# Limits, checked when the spec is read. The seed's game is 3x3 with 4 black cells (126 patterns); a
# 6x6 tile already has 36 cells. The enumerator and the validator walk all C(grid², black) patterns in
# pure Python: the largest allowed for grid <= 6 is C(16, 8) = 12,870, and `pnp validate` or `pnp build`
# of it takes under 2 s on a loaded 2-core machine. Above VECTOR_THRESHOLD patterns the enumerator would
# scan all 2^(grid²) masks instead: 10 s for 5x5, hours for 6x6 (grid 7, black 24 ran for minutes).
MAX_GRID = 6
MAX_PATTERNS = min(50_000, VECTOR_THRESHOLD)


class NonadsSpec(GeneratorSpec):
    """specs/nonads/nonads.yaml. Lengths in mm (or "30mm", "1.2in", "18pt")."""
    tile_size: Length = 30.0
    grid: Count(2, MAX_GRID, f"tiles are 2x2 to {MAX_GRID}x{MAX_GRID} cells; the seed's game is 3x3") = 3
    black: Count(0, MAX_GRID * MAX_GRID, "black cells per tile: the seed's game has 4") = 4
    group: Literal["C4", "D4"] = "C4"
    cell_border: Length = 0.25
    """The cell borders' width, mm: drawn by the tile templates (tile-<grid>.yaml), which say 0.25 mm."""
    border_colour: Colour = "#808080"
    black_colour: Colour = "#000000"
    backs: Flag = True
    back_colour: Colour = "#2f4f6f"

    @field_validator("black")
    @classmethod
    def _patterns_are_few_enough(cls, black: int, info: ValidationInfo) -> int:
        n = info.data.get("grid")
        if n is None:
            return black
        if black > n * n:
            raise FieldError(f"{black} black cells do not fit a {n}x{n} tile ({n * n} cells)",
                             f"use at most {n * n} black cells, or a larger grid")
        if comb(n * n, black) > MAX_PATTERNS:
            raise FieldError(f"a {n}x{n} tile with {black} black cells has C({n * n}, {black}) = "
                             f"{comb(n * n, black):,} patterns; pnp sorts at most {MAX_PATTERNS:,} into tiles",
                             "use fewer (or more) black cells or a smaller grid; the seed's game is 3x3 with 4")
        return black


def tile_masks(spec: NonadsSpec) -> list[int]:
    """The kit's tiles as canonical bitmasks in ascending order (the print order)."""
    return enumerate_classes(spec.grid, spec.black, spec.group)


TEMPLATE_BORDER = 0.25  # mm: the cell borders of specs/nonads/tile-<grid>.yaml


def tile_rows(spec: NonadsSpec, ctx: KitContext) -> list[dict[str, str]]:
    """The table ``generator:tiles``: one row per tile in print order, ``c1``..``cN`` the colour of
    each cell row by row (black_colour where the mask has a bit, else white), ``border`` the cell
    borders' colour, ``grid`` the cells per side, ``back_colour`` the backs' field (the spec's templates
    tile-<grid>.yaml draw them, back.yaml their back) and ``pattern`` the tile's key across builds
    (`pnp diff`): its cells row by row, ``#`` black, ``.`` white, rows joined by ``/``."""
    if abs(spec.cell_border - TEMPLATE_BORDER) > 1e-9:
        raise SpecError(f"cell_border is {spec.cell_border:g} mm; the tiles are drawn by the templates "
                        f"tile-<grid>.yaml, whose borders are {TEMPLATE_BORDER:g} mm.", file=ctx.spec_path,
                        field="cell_border", hint="remove cell_border, and edit the templates' 0.25mm for other borders")
    cells = spec.grid * spec.grid
    def pattern(mask: int) -> str:
        cells_of = "".join("#" if mask >> i & 1 else "." for i in range(cells))
        return "/".join(cells_of[r:r + spec.grid] for r in range(0, cells, spec.grid))
    return [{"grid": str(spec.grid), "border": spec.border_colour, "back_colour": spec.back_colour,
             "pattern": pattern(mask),
             **{f"c{i + 1}": spec.black_colour if mask >> i & 1 else WHITE for i in range(cells)}}
            for mask in tile_masks(spec)]


def components(spec: NonadsSpec, ctx: KitContext) -> list[Component]:
    """[tile]: one Component with a front per canonical pattern, size tile_size x tile_size mm, drawn
    by the spec folder's component ``tile`` (its templates, from the rows of tile_rows()); its back
    is the component's ``back:`` template (none with ``backs: false``)."""
    parts = ctx.parts("tile", (spec.tile_size, spec.tile_size))
    fronts = [f for c in parts for f in c.fronts]
    return [Component("tile", spec.tile_size, spec.tile_size, fronts,
                      back=parts[0].back if spec.backs and parts else None,
                      sources=tuple(s for c in parts for s in c.sources),  # keyed by pattern (tile_rows)
                      note=f"{spec.grid}x{spec.grid} cells, {spec.black} black; every pattern once "
                      f"({'turns' if spec.group == 'C4' else 'turns and mirror images'} count as the same)")]


def variant(spec: NonadsSpec) -> list[str]:
    """How the spec's game differs from the seed's (3x3 tiles, 4 black cells, rotations only); [] for the seed's."""
    out = []
    if spec.grid != 3:
        out.append(f"{spec.grid}x{spec.grid} cells per tile (the seed's game has 3x3)")
    if spec.black != 4:
        out.append(f"{spec.black} black cell{'s' if spec.black != 1 else ''} per tile (the seed's game has 4)")
    if spec.group != "C4":
        out.append("mirror images count as the same tile (D4; the seed's game counts rotations only, C4)")
    return out


def check(spec: NonadsSpec, ctx: KitContext) -> list[Finding]:
    """The checks of docs/games/nonads.md, on the tiles the kit prints. A variant (grid, black or group
    other than the seed's) is reported as a warning, and every finding cites the variant, not the seed."""
    n, k, group = spec.grid, spec.black, spec.group
    tiles = tile_masks(spec)
    cells = n * n
    changes = variant(spec)
    rule = f"Nonads variant ({n}x{n}, {k} black, {group})" if changes else RULE
    out = []
    if changes:
        out.append(verdict(False, f"variant: {'; '.join(changes)}; the seed's rules and its count of 34 tiles do "
                           "not apply, so the checks below are of the variant", RULE, warn=True))
    well_formed = all(bin(m).count("1") == k and m < (1 << cells) for m in tiles)
    out.append(verdict(well_formed, f"{len(tiles)} tiles, each {n}x{n} with exactly {k} black cells", f"{rule}: Tiles"))
    if changes:
        out.append(verdict(len(tiles) == burnside_count(n, k, group), f"tile count {len(tiles)} = the number of "
                           f"{group} classes of {k}-black {n}x{n} patterns (the seed's game has 34)",
                           f"{rule}: tile count"))
    else:
        out.append(verdict(len(tiles) == 34, f"tile count {len(tiles)} = 34", f"{RULE}: \"34 unique ways\""))
    orbits = [frozenset(apply(m, p) for p in group_permutations(n, group)) for m in tiles]
    distinct = all(a.isdisjoint(b) for a, b in combinations(orbits, 2))
    out.append(verdict(distinct, f"no two tiles are {group} images of each other",
                       f"{rule}: \"not counting rotations\""))
    cover = {}
    for idx, orb in enumerate(orbits):
        for m in orb:
            cover.setdefault(m, []).append(idx)
    patterns = [sum(1 << c for c in cs) for cs in combinations(range(cells), k)]
    complete = all(len(cover.get(m, [])) == 1 for m in patterns)
    out.append(verdict(complete, f"all {len(patterns)} {k}-cell patterns are a {group} image of exactly one tile",
                       f"{rule}: the set is complete"))
    terms = burnside_terms(n, k, group)
    b = sum(terms) // len(terms)
    out.append(verdict(b == len(tiles), f"Burnside's lemma: ({' + '.join(map(str, terms))}) / {len(terms)} = {b} "
                       f"= {len(tiles)} tiles", "Burnside's lemma (independent count)"))
    if ctx.full:  # a self-check of the enumerator, independent of this spec: `pnp validate` only
        cases = [(nn, kk, g) for nn in range(1, 5) for kk in range(nn * nn + 1) for g in ("C4", "D4")]
        bad = [c for c in cases if len(enumerate_classes(*c)) != burnside_count(*c)]
        out.append(verdict(not bad, "general enumerator agrees with Burnside for every n <= 4, every k, C4 and D4"
                           + (f" (disagrees at {bad[:3]})" if bad else f" ({len(cases)} cases)"), "Burnside's lemma"))
    full = (1 << cells) - 1
    complements = sorted(canonical(full ^ m, n, group) for m in tiles)
    dual = enumerate_classes(n, cells - k, group)
    out.append(verdict(complements == dual, f"complementing maps the {len(tiles)} {k}-black classes one-to-one onto "
                       f"the {len(dual)} {cells - k}-black classes", f"{rule}: \"two for the price of one\""))
    order = len(group_permutations(n, group))
    sym = [symmetry_order(m, n, group) for m in tiles]
    centre = sum(1 for m in tiles if n % 2 and m >> (cells // 2) & 1)
    summary = ", ".join(f"{sym.count(s)} with symmetry order {s}" for s in sorted(set(sym), reverse=True))
    out.append(verdict(all(order % s == 0 for s in sym), f"symmetry: {summary}; centre black in {centre}",
                       "orbit-stabiliser theorem"))
    return out


GAME = Game("nonads", "Nonads", NonadsSpec, components, check, __doc__.strip().splitlines()[0],
            rows={"tiles": tile_rows})
