"""Numeria's tropes: each type is a definition (a predicate on the ascending numbers) and a generator
of its instances in 1..n (arithmetic runs, powers, windows of a sequence), and the rules' examples
are parsed and explained against the definition. No findings here: pnp/games/numeria/checks.py
turns these into verdicts.

The generators are checked against the definitions: ``instances_brute`` filters every subset of
1..n through each predicate (C(36, 4) = 58,905 subsets for the standard game, 0.16 s, most of a
cold start-up), and tests/games/test_numeria_instances.py asserts both give the same lists.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterable


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


@dataclass(frozen=True, eq=False)
class TropeType:
    """One trope type: ``key`` (spec name), card ``name``, human ``definition`` and the predicate
    ``test(t, d, n)`` on an ascending tuple ``t`` of tile numbers from 1..n with steps ``d``
    (see steps()); ``sequence(n)`` is set for
    types that are runs of consecutive members of a sequence (used to explain a failed example).
    ``generate(n, length)`` yields exactly the ascending ``length``-tuples from 1..n that pass
    ``test`` (without it, instances() filters every subset)."""
    key: str
    name: str
    definition: str
    test: Callable[[tuple[int, ...], tuple[int, ...], int], bool]
    sequence: Callable[[int], list[int]] | None = None
    member: str = ""
    generate: Callable[[int, int], Iterable[tuple[int, ...]]] | None = None


@lru_cache(maxsize=64)
def _fib(n: int) -> list[int]:
    out = [1, 2]
    while out[-1] + out[-2] <= n:
        out.append(out[-1] + out[-2])
    return [x for x in out if x <= n]


def _windows(seq: Callable[[int], list[int]]):
    def generate(n: int, length: int):
        s = seq(n)
        return (tuple(s[i:i + length]) for i in range(len(s) - length + 1))
    return generate


def _seq_type(key, name, definition, seq, member) -> TropeType:
    return TropeType(key, name, definition, lambda t, d, n: _window_of(seq(n), t), seq, member, _windows(seq))


def _runs(n: int, length: int, keep: Callable[[int, int], bool]):
    """Arithmetic runs a, a+d, ... in 1..n (length >= 2) whose start a and step d pass ``keep``."""
    for d in range(1, n):
        for a in range(1, n - (length - 1) * d + 1):
            if keep(a, d):
                yield tuple(a + i * d for i in range(length))


def _plus123(n: int, length: int):
    if length == 4:  # steps (1, 2, 3): only a 4-tuple has them
        yield from ((a, a + 1, a + 3, a + 6) for a in range(1, n - 5))


def _powers(n: int, length: int):
    """b^k, ..., b^(k+length-1) <= n for b >= 2, k >= 0."""
    for b in range(2, n + 1):
        first = 1
        while first * b ** (length - 1) <= n:
            yield tuple(first * b ** i for i in range(length))
            first *= b


TROPES: tuple[TropeType, ...] = (
    TropeType("consecutive", "Consecutive", "a, a+1, a+2, a+3", lambda t, d, n: _arith(d) == 1,
              generate=lambda n, length: _runs(n, length, lambda a, d: d == 1)),
    TropeType("multiples", "Multiples", "a, a+d, a+2d, a+3d; step d > 1 divides a",
              lambda t, d, n: _arith(d) >= 2 and t[0] % d[0] == 0,
              generate=lambda n, length: _runs(n, length, lambda a, d: d >= 2 and a % d == 0)),
    TropeType("irregular", "Irregular repeating", "a, a+d, a+2d, a+3d; step d > 1 does not divide a",
              lambda t, d, n: _arith(d) >= 2 and t[0] % d[0] != 0,
              generate=lambda n, length: _runs(n, length, lambda a, d: d >= 2 and a % d != 0)),
    TropeType("plus123", "Plus 1 Plus 2 Plus 3", "a, a+1, a+3, a+6", lambda t, d, n: d == (1, 2, 3),
              generate=_plus123),
    _seq_type("prime", "Prime", "consecutive primes", primes, "prime"),
    TropeType("power", "Power", "b^k, b^(k+1), b^(k+2), b^(k+3); b > 1, k = 0, 1, 2, \u2026", lambda t, d, n: _power(t),
              generate=_powers),
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
    """Every ascending ``length``-subset of 1..n that satisfies each type's definition, by type key,
    in ascending (lexicographic) order: each type's generator, checked against its definition (a
    type without one, or a length under 2, falls back to filtering every subset)."""
    if length < 2:
        return instances_brute(n, length)
    out: dict[str, tuple[tuple[int, ...], ...]] = {}
    for t in TROPES:
        if t.generate is None:
            out[t.key] = instances_brute(n, length, (t,))[t.key]
            continue
        found = sorted({combo for combo in t.generate(n, length)
                        if combo and 1 <= combo[0] and combo[-1] <= n and t.test(combo, steps(combo), n)})
        out[t.key] = tuple(found)
    return out


def instances_brute(n: int, length: int = 4, types: tuple[TropeType, ...] = TROPES
                    ) -> dict[str, tuple[tuple[int, ...], ...]]:
    """The same lists by brute force over all C(n, length) subsets, so they follow from the
    definitions alone (what the generators are tested against)."""
    out: dict[str, list] = {t.key: [] for t in types}
    for combo in combinations(range(1, n + 1), length):
        d = steps(combo)
        for t in types:
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

@dataclass(frozen=True, eq=False)
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
