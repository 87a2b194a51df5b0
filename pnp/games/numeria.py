"""Numeria (Lloyd Krassner, 2011): 8x8 board, 36 number tiles and a computed trope reference card.

A trope is 4 tiles in a connected straight line whose numbers strictly increase or decrease. Each
trope type below is a definition (a predicate on the ascending numbers); the card's instances and
the validator's counts are enumerated from those definitions over every 4-subset of 1..36, never
typed in. Rules source: docs/games/numeria.md and seed 002 (lines 24-32 list the types).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Callable

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from ..findings import Finding, verdict
from ..fonts import CAP_HEIGHT, missing_glyphs, text_width_mm
from ..geometry import squaregrid
from ..ir import WHITE, Circle, Component, Line, Rect, Text
from ..spec import Length, SpecBase
from ..units import MM_PER_PT as PT_MM, fmt_mm
from . import Game, KitContext

RULE = "Numeria rules (seed 002)"
DOC = "docs/games/numeria.md"
SAFE = 3.0            # mm: text stays this far inside a trim
LIGHT, DARK = "#f4efe4", "#d9cdb4"
SETUP_TINT, SETUP_DARK, CORNER_TINT, INK = "#fff7d6", "#f3e3a6", "#cfe3f3", "#1d3557"
TILE_FILL = "#fffdf5"


class CardSpec(BaseModel):
    """Trope reference card trim size in mm."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: Length = 165.0
    height: Length = 220.0


class NumeriaSpec(SpecBase):
    """specs/numeria.yaml. Lengths in mm (or "20mm", "1in", "18pt"); cells are labels like "b2"."""
    files: int = 8
    ranks: int = 8
    square: Length = 20.0
    label_band: Length = 8.0
    setup_area: tuple[str, str] = ("b2", "g7")
    centre: tuple[str, ...] = ("d4", "e4", "d5", "e5")
    corners: tuple[str, ...] = ("a1", "h1", "a8", "h8")
    tiles: int = 36
    tile_margin: Length = 2.0

    @field_validator("tile_margin")
    @classmethod
    def _tile_fits_a_square(cls, margin: float, info: ValidationInfo) -> float:
        square = info.data.get("square")
        if square is not None and square - 2 * margin < 5:
            raise ValueError(f"tile_margin {margin:g} mm leaves a tile of {square - 2 * margin:g} mm in a {square:g} mm "
                             "square; a tile must sit inside its square with room for its number. Use a smaller margin")
        return margin
    trope_length: int = 4
    min_card_pt: float = 7.0
    card: CardSpec = CardSpec()
    examples: dict[str, tuple[int, str]] = {}


# -- trope definitions ------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def primes(limit: int) -> list[int]:
    """Primes <= limit, ascending."""
    return [n for n in range(2, limit + 1) if all(n % p for p in range(2, int(n ** 0.5) + 1))]


def _window_of(sequence: list[int], t: tuple[int, ...]) -> bool:
    """True when ``t`` is a run of consecutive members of the ascending ``sequence``."""
    i = _index(tuple(sequence)).get(t[0])
    return i is not None and tuple(sequence[i:i + len(t)]) == t


@lru_cache(maxsize=64)
def _index(sequence: tuple[int, ...]) -> dict[int, int]:
    return {x: i for i, x in enumerate(sequence)}


def steps(t: tuple[int, ...]) -> tuple[int, ...]:
    """Differences between neighbours: (2, 3, 5, 8) -> (1, 2, 3)."""
    return tuple(b - a for a, b in zip(t, t[1:]))


def _arith(d: tuple[int, ...]) -> int:
    """The common step of an arithmetic run with steps ``d``, else 0."""
    return d[0] if d.count(d[0]) == len(d) else 0


def _power(t) -> bool:
    b = t[1] // t[0]
    if b < 2 or any(y != x * b for x, y in zip(t, t[1:])):
        return False
    k = t[0]
    while k % b == 0:
        k //= b
    return k == 1


@dataclass(frozen=True)
class TropeType:
    """One trope type: ``key`` (spec name), card ``name``, human ``definition`` and the predicate
    ``test(t, d, n)`` on an ascending tuple ``t`` of tile numbers from 1..n with steps ``d``
    (see steps()); ``sequence(n)`` is set for
    types that are runs of consecutive members of a sequence (used to explain a failed example)."""
    key: str
    name: str
    definition: str
    test: Callable[[tuple[int, ...], tuple[int, ...], int], bool]
    sequence: Callable[[int], list[int]] | None = None
    member: str = ""


@lru_cache(maxsize=64)
def _fib(n: int) -> list[int]:
    out = [1, 2]
    while out[-1] + out[-2] <= n:
        out.append(out[-1] + out[-2])
    return [x for x in out if x <= n]


def _seq_type(key, name, definition, seq, member) -> TropeType:
    return TropeType(key, name, definition, lambda t, d, n: _window_of(seq(n), t), seq, member)


TROPES: tuple[TropeType, ...] = (
    TropeType("consecutive", "Consecutive", "a, a+1, a+2, a+3", lambda t, d, n: _arith(d) == 1),
    TropeType("multiples", "Multiples", "a, a+d, a+2d, a+3d; step d > 1 divides a",
              lambda t, d, n: _arith(d) >= 2 and t[0] % d[0] == 0),
    TropeType("irregular", "Irregular repeating", "a, a+d, a+2d, a+3d; step d > 1 does not divide a",
              lambda t, d, n: _arith(d) >= 2 and t[0] % d[0] != 0),
    TropeType("plus123", "Plus 1 Plus 2 Plus 3", "a, a+1, a+3, a+6", lambda t, d, n: d == (1, 2, 3)),
    _seq_type("prime", "Prime", "consecutive primes", primes, "prime"),
    TropeType("power", "Power", "b^k, b^(k+1), b^(k+2), b^(k+3); b > 1, k = 0, 1, 2, \u2026", lambda t, d, n: _power(t)),
    _seq_type("squares", "Squares", "consecutive squares n\u00b2, (n+1)\u00b2, \u2026",
              lru_cache(maxsize=64)(lambda n: [i * i for i in range(1, n + 1) if i * i <= n]), "a square"),
    _seq_type("triangular", "Triangular", "consecutive triangular numbers n(n+1)/2",
              lru_cache(maxsize=64)(lambda n: [i * (i + 1) // 2 for i in range(1, n + 1) if i * (i + 1) // 2 <= n]),
              "triangular"),
    _seq_type("fibonacci", "Fibonacci", "consecutive Fibonacci numbers 1, 2, 3, 5, 8, \u2026", _fib, "a Fibonacci number"),
)
BY_KEY = {t.key: t for t in TROPES}


@lru_cache(maxsize=8)
def instances(n: int, length: int = 4) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Every ascending ``length``-subset of 1..n that satisfies each type's definition, by type key.

    Brute force over all C(n, length) subsets, so the lists follow from the definitions alone.
    """
    out: dict[str, list] = {t.key: [] for t in TROPES}
    for combo in combinations(range(1, n + 1), length):
        d = steps(combo)
        for t in TROPES:
            if t.test(combo, d, n):
                out[t.key].append(combo)
    return {k: tuple(v) for k, v in out.items()}


def union(found: dict[str, tuple]) -> set[tuple[int, ...]]:
    """Distinct sets over all types."""
    return {t for v in found.values() for t in v}


def fmt_set(t) -> str:
    """(1, 2, 3, 5) -> "1, 2, 3, 5"."""
    return ", ".join(map(str, t))


def factor(n: int) -> str:
    """33 -> "3 \u00d7 11"; 1 -> "1"."""
    out, d, m = [], 2, n
    while d * d <= m:
        while m % d == 0:
            out.append(d)
            m //= d
        d += 1
    if m > 1:
        out.append(m)
    return " \u00d7 ".join(map(str, out)) or str(n)


# -- rules examples -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Example:
    """One example from a rules line: the raw ``text``, the parsed numbers, and a typo note when the
    text needed repair to read as numbers."""
    text: str
    numbers: tuple[int, ...]
    typo: str = ""


def parse_examples(line: str) -> list[Example]:
    """Split the part of a seed line after "Example:" on " or " and read each as comma-separated
    integers. A field like "2 5" (digits split by a stray space) is read as 25 and noted as a typo.

    Raises:
        ValueError: the line has no "Example:" or a field is not a number even after repair.
    """
    if "Example:" not in line:
        raise ValueError(f"no 'Example:' in {line!r}")
    out = []
    for chunk in re.split(r"\s+or\s+", line.split("Example:", 1)[1].strip()):
        chunk = chunk.strip().rstrip(",").strip()
        nums, notes = [], []
        for field in chunk.split(","):
            f = field.strip()
            if re.fullmatch(r"\d+", f):
                nums.append(int(f))
            elif re.fullmatch(r"\d+(\s+\d+)+", f):
                nums.append(int(re.sub(r"\s+", "", f)))
                notes.append(f"\"{f}\" read as {nums[-1]}")
            else:
                raise ValueError(f"{f!r} in {chunk!r} is not a number")
        out.append(Example(chunk, tuple(nums), "; ".join(notes)))
    return out


def explain(kind: TropeType, t: tuple[int, ...], n: int) -> str:
    """Why ``t`` fails ``kind``'s definition, in words (empty when it does not fail)."""
    if kind.test(t, steps(t), n):
        return ""
    if kind.sequence is None:
        return f"does not fit {kind.definition}"
    seq = kind.sequence(max(n, max(t)) * 2)
    bad = [x for x in t if x not in seq]
    if bad:
        why = "; ".join(f"{x}{' = ' + factor(x) if factor(x) != str(x) else ''} is not {kind.member}" for x in bad)
    else:
        why = f"not consecutive {kind.member} numbers"
    nxt = [x for x in seq if x > max(x for x in t if x in seq)] if any(x in seq for x in t) else []
    if bad and bad[-1] == t[-1] and nxt and nxt[0] > n:
        why += f"; the next after {t[-2]} is {nxt[0]}, beyond {n}"
    return why


def check_examples(spec: NumeriaSpec) -> list[Finding]:
    """Each rules example against its type's definition: PASS, or a WARNING naming the erratum."""
    n, out = spec.tiles, []
    for key, (line_no, line) in spec.examples.items():
        kind = BY_KEY.get(key)
        where = f"seed 002 line {line_no}: \"{line}\""
        if kind is None:
            out.append(verdict(False, f"example key {key!r} names no trope type ({', '.join(BY_KEY)})", where))
            continue
        try:
            examples = parse_examples(line)
        except ValueError as exc:
            out.append(verdict(False, f"{kind.name} examples unreadable: {exc}", where))
            continue
        good = []
        for ex in examples:
            t = tuple(sorted(ex.numbers))
            problems = []
            if ex.typo:
                problems.append(f"typo: {ex.typo}, {len(ex.numbers)} numbers {fmt_set(ex.numbers)}")
            if len(t) != spec.trope_length or len(set(t)) != len(t) or not all(1 <= x <= n for x in t):
                problems.append(f"not {spec.trope_length} distinct tiles in 1..{n}")
            elif not kind.test(t, steps(t), n):
                others = [k.name for k in TROPES if k.test(t, steps(t), n)]
                problems.append(f"not a {kind.name} run: {explain(kind, t, n)}")
                problems.append(f"it is a {' and '.join(others)} trope, so only the label is wrong" if others
                                else "it is not a trope of any type")
                best = instances(n, spec.trope_length)[kind.key]
                if best and kind.sequence is not None:
                    problems.append(f"the highest {kind.name} run in 1..{n} is {fmt_set(best[-1])}")
            if problems:
                out.append(verdict(False, f"erratum in {kind.name} example \"{ex.text}\": " + "; ".join(problems),
                                   where, warn=True))
            else:
                good.append(ex.text)
        if good:
            out.append(verdict(True, f"{kind.name} example{'s' if len(good) > 1 else ''} "
                               f"{' / '.join(good)} fit{'' if len(good) > 1 else 's'} {kind.definition}", where))
    return out


# -- board geometry -----------------------------------------------------------------------------------

def cell_of(spec: NumeriaSpec, label: str) -> tuple[int, int]:
    """Parse a cell label on this board (ValueError when off the board)."""
    return squaregrid.parse_label(label, spec.files, spec.ranks)


def setup_cells(spec: NumeriaSpec) -> list[tuple[int, int]]:
    """The cells of the setup rectangle between the spec's two corner labels."""
    (c0, r0), (c1, r1) = (cell_of(spec, x) for x in spec.setup_area)
    return [(c, r) for r in range(min(r0, r1), max(r0, r1) + 1) for c in range(min(c0, c1), max(c0, c1) + 1)]


def board_size(spec: NumeriaSpec) -> tuple[float, float]:
    """Board trim (width, height) in mm: the squares plus a label band on each edge."""
    return (spec.files * spec.square + 2 * spec.label_band, spec.ranks * spec.square + 2 * spec.label_band)


def tile_size(spec: NumeriaSpec) -> float:
    """Tile side in mm: a square less the margin on both sides."""
    return spec.square - 2 * spec.tile_margin


def draw_board(spec: NumeriaSpec):
    """The board: checkered squares with small cell labels, the setup area tinted and outlined,
    the four corners tinted and ringed, files a.. and ranks 1.. on every edge (the far edges turned
    to face the opponent). Rank 1 is at the bottom."""
    s, band = spec.square, spec.label_band
    w, h = board_size(spec)
    setup = set(setup_cells(spec))
    corners = {cell_of(spec, x) for x in spec.corners}
    shapes: list = [Rect(0, 0, w, h, fill=WHITE, stroke=None, bleed=True)]

    def xy(c, r):
        return band + c * s, band + (spec.ranks - 1 - r) * s

    for c, r in squaregrid.cells(spec.files, spec.ranks):
        x, y = xy(c, r)
        dark = (c + r) % 2 == 0
        fill = (CORNER_TINT if (c, r) in corners else (SETUP_DARK if dark else SETUP_TINT) if (c, r) in setup
                else DARK if dark else LIGHT)
        shapes.append(Rect(x, y, s, s, fill=fill, stroke="#8a7f6a", stroke_width=0.2))
        if (c, r) in corners:
            shapes.append(Circle(x + s / 2, y + s / 2, s * 0.36, fill=None, stroke=INK, stroke_width=0.8))
        shapes.append(Text(x + 0.8, y + s - 0.8, squaregrid.label(c, r), size_pt=5, fill="#6b6355"))
    xs = [c for c, _ in setup]
    ys = [r for _, r in setup]
    x0, y0 = xy(min(xs), max(ys))
    shapes.append(Rect(x0, y0, (max(xs) - min(xs) + 1) * s, (max(ys) - min(ys) + 1) * s, fill=None, stroke=INK,
                       stroke_width=1.2))
    shapes.append(Rect(band, band, spec.files * s, spec.ranks * s, fill=None, stroke=INK, stroke_width=0.6))
    size = min(12.0, band / PT_MM * 0.8)
    for c in range(spec.files):
        x = band + (c + 0.5) * s
        letter = chr(ord("a") + c)
        shapes.append(Text(x, h - band / 2, letter, size_pt=size, anchor="middle", valign="middle", fill=INK))
        shapes.append(Text(x, band / 2, letter, size_pt=size, anchor="middle", valign="middle", fill=INK, rotate=180))
    for r in range(spec.ranks):
        y = band + (spec.ranks - 1 - r + 0.5) * s
        shapes.append(Text(band / 2, y, str(r + 1), size_pt=size, anchor="middle", valign="middle", fill=INK))
        shapes.append(Text(w - band / 2, y, str(r + 1), size_pt=size, anchor="middle", valign="middle", fill=INK,
                           rotate=180))
    return tuple(shapes)


def ambiguous(n: int, numbers: range) -> bool:
    """True when ``n`` turned 180 degrees reads as another number in ``numbers`` (6 <-> 9)."""
    turn = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}
    text = str(n)
    if any(ch not in turn for ch in text):
        return False
    rotated = "".join(turn[ch] for ch in reversed(text))
    return rotated[0] != "0" and int(rotated) != n and int(rotated) in numbers


def draw_tile(n: int, spec: NumeriaSpec):
    """A tile front: the number large in the centre and small copies facing each of the four edges,
    so it reads from every side; numbers that read as another tile upside down (6, 9) are
    underlined everywhere."""
    t = tile_size(spec)
    under = ambiguous(n, range(1, spec.tiles + 1))
    big = min(t * 0.42 / (CAP_HEIGHT * PT_MM), (t - 8.0) / max(text_width_mm(str(n), 1.0), 1e-6))
    small = min(6.5, t * 5.5 / 16.0)  # 5.5 pt on a 16 mm tile
    shapes: list = [Rect(0, 0, t, t, fill=TILE_FILL, stroke=None, bleed=True),
                    Rect(0.4, 0.4, t - 0.8, t - 0.8, fill=None, stroke="#b9ad93", stroke_width=0.3),
                    Text(t / 2, t / 2, str(n), size_pt=big, anchor="middle", valign="middle", bold=True, fill=INK,
                         underline=under)]
    edge = 1.0 + small * PT_MM * CAP_HEIGHT / 2 + 0.4
    for rot, (x, y) in ((0, (t / 2, t - edge)), (90, (edge, t / 2)), (180, (t / 2, edge)), (270, (t - edge, t / 2))):
        shapes.append(Text(x, y, str(n), size_pt=small, anchor="middle", valign="middle", rotate=rot, fill=INK,
                           underline=under))
    return tuple(shapes)


# -- trope card ----------------------------------------------------------------------------------------

def card_lines(spec: NumeriaSpec, size: float) -> list[tuple[str, list[str]]]:
    """The card's content as (heading, [instance texts]) per type."""
    found = instances(spec.tiles, spec.trope_length)
    return [(f"{t.name} \u2014 {t.definition} \u2014 {len(found[t.key])}", [fmt_set(x) for x in found[t.key]])
            for t in TROPES]


def _card_layout(spec: NumeriaSpec, size: float):
    """Place the card's text at ``size`` pt; returns (shapes, bottom y in mm) in card coordinates."""
    w = spec.card.width
    lh = size * PT_MM * 1.35
    inner = w - 2 * SAFE - 2
    x0 = SAFE + 1
    found = instances(spec.tiles, spec.trope_length)
    every = union(found)
    shared = sorted(x for x in every if sum(x in v for v in found.values()) > 1)
    y = SAFE + 1 + (size + 4) * PT_MM
    shapes: list = [Text(w / 2, y, "Numeria \u2014 tropes", size_pt=size + 4, anchor="middle", bold=True, fill=INK)]
    intro = (f"{spec.trope_length} tiles in a connected straight line (orthogonal or diagonal), strictly increasing "
             f"or decreasing. Ascending forms within 1\u2013{spec.tiles}:")
    y += lh * 1.3
    shapes.append(Text(w / 2, y, intro, size_pt=size * 0.9, anchor="middle"))
    for heading, items in card_lines(spec, size):
        y += lh * 1.45
        shapes.append(Text(x0, y, heading, size_pt=size, bold=True, fill=INK))
        shapes.append(Line(x0, y + lh * 0.3, x0 + inner, y + lh * 0.3, stroke="#b9ad93", stroke_width=0.2))
        cell = max(text_width_mm(i, size) for i in items) + 3.0
        per = max(1, int((inner + 3.0) // cell))
        for i, item in enumerate(items):
            if i % per == 0:
                y += lh
            shapes.append(Text(x0 + (i % per) * cell, y, item, size_pt=size))
    y += lh * 1.6
    also = "; ".join(f"{fmt_set(x)} is " + " and ".join(t.name for t in TROPES if x in found[t.key]) for x in shared)
    shapes.append(Text(x0, y, f"{len(every)} distinct sets in all" + (f" ({also})." if also else "."), size_pt=size,
                       bold=True))
    return shapes, y + SAFE


def card_size_pt(spec: NumeriaSpec) -> float | None:
    """The largest text size (10 pt down to min_card_pt in 0.5 pt steps) at which the card fits its
    trim, or None when even the smallest does not fit."""
    size = 10.0
    while size >= spec.min_card_pt - 1e-9:
        shapes, bottom = _card_layout(spec, size)
        wide = max(s.x + text_width_mm(s.text, s.size_pt) / (2 if s.anchor == "middle" else 1)
                   for s in shapes if isinstance(s, Text))
        if bottom <= spec.card.height and wide <= spec.card.width - SAFE:
            return size
        size -= 0.5
    return None


def draw_card(spec: NumeriaSpec):
    """The trope reference card, laid out at card_size_pt (or min_card_pt if nothing fits)."""
    w, h = spec.card.width, spec.card.height
    shapes, _ = _card_layout(spec, card_size_pt(spec) or spec.min_card_pt)
    return (Rect(0, 0, w, h, fill=WHITE, stroke=None, bleed=True),
            Rect(SAFE / 2, SAFE / 2, w - SAFE, h - SAFE, fill=None, stroke=INK, stroke_width=0.4), *shapes)


def components(spec: NumeriaSpec, ctx: KitContext) -> list[Component]:
    """[board, tile, trope card]: the board (files x ranks squares of ``square`` mm plus label bands),
    the numbered tiles (square - 2 x tile_margin mm), and the reference card (card.width x card.height)."""
    w, h = board_size(spec)
    t = tile_size(spec)
    return [Component("board", w, h, [draw_board(spec)], board=True,
                      note=f"{spec.files}x{spec.ranks} squares of {fmt_mm(spec.square)}; setup area and corners marked"),
            Component("tile", t, t, [draw_tile(n, spec) for n in range(1, spec.tiles + 1)],
                      note=f"numbered 1-{spec.tiles}, readable from every side"),
            Component("trope card", spec.card.width, spec.card.height, [draw_card(spec)],
                      note="every trope type with all its instances")]


# -- validator -------------------------------------------------------------------------------------------

def disjoint(sets: list[tuple[int, ...]], k: int) -> list[tuple[int, ...]] | None:
    """``k`` pairwise disjoint sets from ``sets`` (depth-first search), or None."""
    def go(start, chosen, used):
        if len(chosen) == k:
            return chosen
        for i in range(start, len(sets)):
            if used.isdisjoint(sets[i]):
                got = go(i + 1, chosen + [sets[i]], used | set(sets[i]))
                if got:
                    return got
        return None
    return go(0, [], set())


def check(spec: NumeriaSpec, ctx: KitContext) -> list[Finding]:
    """The checks of docs/games/numeria.md, on the numbers and board the kit prints."""
    n, k = spec.tiles, spec.trope_length
    out: list[Finding] = []
    numbers = list(range(1, n + 1))
    out.append(verdict(n == 36 and sorted(set(numbers)) == list(range(1, 37)),
                       f"{n} tiles numbered {numbers[0]}..{numbers[-1]}, each once", f"{RULE}: \"36 tiles numbered from 1 to 36\""))
    try:
        setup = setup_cells(spec)
        centre = [cell_of(spec, x) for x in spec.centre]
        corners = [cell_of(spec, x) for x in spec.corners]
    except ValueError as exc:
        return out + [verdict(False, f"board cells: {exc}", f"{DOC}: Setup")]
    a, b = spec.setup_area
    out.append(verdict(len(setup) == n, f"setup area {a}-{b} has {len(setup)} squares for {n} tiles",
                       f"{RULE}: \"placed, face-up on the middle 36 spaces\""))
    cs, rs = {c for c, _ in setup}, {r for _, r in setup}
    mid = sorted(setup) == sorted((c, r) for c in range(1, spec.files - 1) for r in range(1, spec.ranks - 1))
    inner = {(c, r) for c in sorted(cs)[len(cs) // 2 - 1:len(cs) // 2 + 1] for r in sorted(rs)[len(rs) // 2 - 1:len(rs) // 2 + 1]}
    board_corners = {(0, 0), (spec.files - 1, 0), (0, spec.ranks - 1), (spec.files - 1, spec.ranks - 1)}
    out.append(verdict(mid, f"setup area {a}-{b} is the middle {len(cs)}x{len(rs)} of the {spec.files}x{spec.ranks} board",
                       f"{RULE}: \"the middle 36 spaces\""))
    out.append(verdict(set(centre) == inner and set(corners) == board_corners and len(centre) == len(corners) == 4,
                       f"the {len(centre)} central tiles {', '.join(spec.centre)} move to the {len(corners)} corners "
                       f"{', '.join(spec.corners)}", f"{RULE}: \"the central 4 tiles ... on the four corners\""))
    orth = len(list(squaregrid.lines(k, spec.files, spec.ranks, squaregrid.ORTHOGONAL)))
    diag = len(list(squaregrid.lines(k, spec.files, spec.ranks, squaregrid.DIAGONAL)))
    out.append(verdict(orth + diag > 0, f"{orth + diag} straight lines of {k} squares on the board "
                       f"({orth} orthogonal, {diag} diagonal)", f"{RULE}: \"orthogonal or diagonal\""))
    found = instances(n, k)
    counts = ", ".join(f"{t.name} {len(found[t.key])}" for t in TROPES)
    out.append(verdict(all(found.values()), f"every trope type has instances in 1..{n}: {counts}", f"{DOC}: Tropes"))
    every = sorted(union(found))
    total = sum(len(v) for v in found.values())
    out.append(verdict(len(every) == 252 if (n, k) == (36, 4) else bool(every),
                       f"{len(every)} distinct sets in the union ({total} instances, {total - len(every)} counted twice)",
                       f"{DOC}: \"252 distinct sets\""))
    out.extend(check_examples(spec))
    three = disjoint(every, 3)
    out.append(verdict(three is not None, "3 disjoint tropes exist" + (f", e.g. {' / '.join(map(fmt_set, three))}"
                       if three else ""), f"{RULE}: \"The first player to collect 3 Tropes wins\""))
    size = card_size_pt(spec)
    out.append(verdict(size is not None, f"trope card {fmt_mm(spec.card.width)} x {fmt_mm(spec.card.height)} holds "
                       f"all {total} instances at {size or spec.min_card_pt:g} pt (minimum {spec.min_card_pt:g} pt)",
                       f"{DOC}: trope reference card"))
    text = "".join(s.text for s in draw_card(spec) if isinstance(s, Text))
    lacking = missing_glyphs(text)
    out.append(verdict(not lacking, "every glyph of the trope card is in the embedded font"
                       + (f"; missing: {' '.join(lacking)}" if lacking else ""), "docs/print.md: embed every font"))
    t = tile_size(spec)
    out.append(verdict(t > 0, f"tiles {fmt_mm(t)} square sit in {fmt_mm(spec.square)} squares with "
                       f"{fmt_mm(spec.tile_margin)} margin", f"{DOC}: Components"))
    return out


GAME = Game("numeria", "Numeria", NumeriaSpec, components, check, __doc__.strip().splitlines()[0])
