"""The rules checks a data-driven spec declares (``checks:``), run by `pnp validate` and `pnp build`.

Each check counts parts (a row counts as many times as its copies) or looks at cells, and its
Finding names what it checked with its numbers; the rule cited is the spec's own line ("the
designer's checks: cards.yaml, line 30"), because the designer wrote the requirement there.
"""
from __future__ import annotations

from collections import Counter

from ..core.findings import Finding, verdict
from ..core.fonts import missing_glyphs
from ..games import KitContext
from .parts import Ready, ready, template_columns
from .spec import CustomSpec
from .table import key

SHOWN = 5  # offending values named in a finding


def _list(values) -> str:
    values = list(values)
    more = f" and {len(values) - SHOWN} more" if len(values) > SHOWN else ""
    return ", ".join(repr(v) for v in values[:SHOWN]) + more


def run_checks(spec: CustomSpec, ctx: KitContext, lines: dict) -> list[Finding]:
    """One Finding per declared check, in spec order (a FAIL when the data breaks it).

    Raises:
        SpecError, DataError: as parts.ready (the data or a template cannot be read).
    """
    parts = {r.spec.name: r for r in ready(spec, ctx, lines)}
    out = []
    for i, chk in enumerate(spec.checks):
        rule = f"the designer's checks: {ctx.spec_path.name}, line {lines.get(('checks', i), '?')}"
        r = parts[chk.component]
        out.append(_CHECKS[chk.check](chk, r, rule))
    return out


def _count(chk, r: Ready, rule: str) -> Finding:
    total = sum(r.copies)
    return verdict(total == chk.equals, f"{chk.component}: {total} parts (the spec asks for {chk.equals})", rule)


def _cells(r: Ready, column: str):
    col = key(column)
    for row, n in zip(r.rows, r.copies):
        yield (row.values.get(col, "") if row else ""), n, row


def _per_value(chk, r: Ready, rule: str) -> Finding:
    counts: Counter = Counter()
    for value, n, _ in _cells(r, chk.column):
        counts[value] += n
    wanted = list(chk.values) if chk.values else [v for v in counts if v]
    wrong = {v: counts.get(v, 0) for v in wanted if counts.get(v, 0) != chk.equals}
    shown = ", ".join(f"{v} {counts.get(v, 0)}" for v in wanted[:12])
    what = f"{chk.component}: {chk.equals} parts for each {chk.column} ({shown})"
    if wrong:
        what += f"; not {chk.equals}: {_list(f'{v}={n}' for v, n in wrong.items())}"
    return verdict(not wrong and bool(wanted), what, rule)


def _unique(chk, r: Ready, rule: str) -> Finding:
    cols = [key(c) for c in chk.columns]
    seen: dict[tuple, int] = {}
    dupes = []
    for row in r.rows:
        if row is None:
            continue
        value = tuple(row.values.get(c, "") for c in cols)
        if value in seen:
            dupes.append(f"{'+'.join(value)} (rows {seen[value]} and {row.number})")
        else:
            seen[value] = row.number
    names = "+".join(chk.columns)
    what = f"{chk.component}: {len(seen)} rows, {names} unique" + (f"; repeated: {_list(dupes)}" if dupes else "")
    return verdict(not dupes, what, rule)


def _allowed(chk, r: Ready, rule: str) -> Finding:
    allowed = set(chk.values)
    bad = [f"{v} (row {row.number})" for v, _, row in _cells(r, chk.column) if v and v not in allowed]
    what = f"{chk.component}: every {chk.column} is one of {', '.join(chk.values)}"
    return verdict(not bad, what + (f"; {len(bad)} not: {_list(bad)}" if bad else ""), rule)


def _required(chk, r: Ready, rule: str) -> Finding:
    empty = [f"{c} in row {row.number}" for c in chk.columns for v, _, row in _cells(r, c) if row and not v.strip()]
    what = f"{chk.component}: {', '.join(chk.columns)} filled in all {len(r.rows)} rows"
    return verdict(not empty, what + (f"; {len(empty)} empty: {_list(empty)}" if empty else ""), rule)


def _glyphs(chk, r: Ready, rule: str) -> Finding:
    cols = set()
    for face in r.faces.values():
        cols |= set(template_columns([b.place for b in face.layers]))
    bad, cells = [], 0
    for row in r.rows:
        if row is None:
            continue
        for c in sorted(cols):
            value = row.values.get(c, "")
            cells += bool(value)
            miss = missing_glyphs(value)
            if miss:
                bad.append(f"{miss[0]!r} (U+{ord(miss[0]):04X}) in row {row.number}, column {c}")
    what = f"{chk.component}: every glyph of {cells} printed cells is in Noto Sans"
    return verdict(not bad, what + (f"; missing: {_list(bad)}" if bad else ""), rule)


_CHECKS = {"count": _count, "per_value": _per_value, "unique": _unique, "allowed": _allowed,
           "required": _required, "glyphs": _glyphs}
