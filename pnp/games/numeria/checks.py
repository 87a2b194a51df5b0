"""Numeria's validator: the checks of docs/games/numeria.md on the numbers, board and card the kit
prints, and the rules' examples against their trope definitions."""
from __future__ import annotations

from ...core.findings import Finding, verdict
from ...core.fonts import missing_glyphs
from ...geometry import squaregrid
from ...core.ir import Text
from ...core.units import fmt_mm
from ...engine import KitContext
from .drawing import card_size_pt, cell_of, draw_card, setup_cells, tile_size
from .spec import NumeriaSpec
from .tropes import BY_KEY, TROPES, explain, fmt_set, instances, parse_examples, steps, union

RULE = "Numeria rules (seed 002)"
DOC = "docs/games/numeria.md"


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


def variant(spec: NumeriaSpec) -> list[str]:
    """How the spec's game differs from the seed's (36 tiles on an 8x8 board); [] for the seed's."""
    out = []
    if spec.tiles != 36:
        out.append(f"{spec.tiles} tiles (the seed's game has 36)")
    if (spec.files, spec.ranks) != (8, 8):
        out.append(f"a {spec.files}x{spec.ranks} board (the seed's is 8x8)")
    return out


def check(spec: NumeriaSpec, ctx: KitContext) -> list[Finding]:
    """The checks of docs/games/numeria.md, on the numbers and board the kit prints. A variant (tiles or
    board size other than the seed's) is reported as a warning, and the counts it changes cite it."""
    n, k = spec.tiles, spec.trope_length
    out: list[Finding] = []
    changes = variant(spec)
    numbers = list(range(1, n + 1))
    rule = RULE
    if changes:
        rule = f"Numeria variant ({n} tiles, {spec.files}x{spec.ranks} board)"
        out.append(verdict(False, f"variant: {'; '.join(changes)}; the seed's rules and counts (36 tiles, 252 "
                           "distinct sets) do not apply, so the checks below are of the variant", RULE, warn=True))
        out.append(verdict(sorted(set(numbers)) == list(range(1, n + 1)),
                           f"{n} tiles numbered {numbers[0]}..{numbers[-1]}, each once", f"{rule}: tiles"))
    else:
        out.append(verdict(n == 36 and sorted(set(numbers)) == list(range(1, 37)), f"{n} tiles numbered "
                           f"{numbers[0]}..{numbers[-1]}, each once", f"{RULE}: \"36 tiles numbered from 1 to 36\""))
    try:
        setup = setup_cells(spec)
        centre = [cell_of(spec, x) for x in spec.centre]
        corners = [cell_of(spec, x) for x in spec.corners]
    except ValueError as exc:
        return out + [verdict(False, f"board cells: {exc}", f"{DOC}: Setup")]
    a, b = spec.setup_area
    out.append(verdict(len(setup) == n, f"setup area {a}-{b} has {len(setup)} squares for {n} tiles",
                       f"{RULE}: \"placed, face-up on the middle 36 spaces\"" if rule == RULE else
                       f"{rule}: the tiles start on the middle {n} squares"))
    cs, rs = {c for c, _ in setup}, {r for _, r in setup}
    mid = sorted(setup) == sorted((c, r) for c in range(1, spec.files - 1) for r in range(1, spec.ranks - 1))
    inner = {(c, r) for c in sorted(cs)[len(cs) // 2 - 1:len(cs) // 2 + 1] for r in sorted(rs)[len(rs) // 2 - 1:len(rs) // 2 + 1]}
    board_corners = {(0, 0), (spec.files - 1, 0), (0, spec.ranks - 1), (spec.files - 1, spec.ranks - 1)}
    out.append(verdict(mid, f"setup area {a}-{b} is the middle {len(cs)}x{len(rs)} of the {spec.files}x{spec.ranks} board",
                       f"{RULE}: \"the middle 36 spaces\"" if rule == RULE else f"{rule}: the middle of the board"))
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
                       f"{DOC}: \"252 distinct sets\"" if n == 36 else f"{DOC}: distinct sets (the seed's 36 tiles have 252)"))
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

