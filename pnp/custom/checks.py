"""The rules checks a data-driven spec declares (``checks:``), run by `pnp validate` and `pnp build`,
a warning for text boxes outside the safe area, and the print quality of pictures (pnp.custom.imagecheck).

Each check counts parts (a row counts as many times as its copies) or looks at cells, and its
Finding names what it checked with its numbers; the rule cited is the spec's own line ("the
designer's checks: cards.yaml, line 30"), because the designer wrote the requirement there.
"""
from __future__ import annotations

from collections import Counter

from ..core.findings import Finding, verdict
from ..core.safearea import SAFE_MM, insets, past_safe_line
from ..engine import KitContext
from ..engine.declared import count_finding, rule_of
from .imagecheck import absent, quality
from .languages import source, translated
from .parts import Ready, ready
from .shaped import safe_frame
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
        rule = rule_of(ctx.spec_path, lines, i)
        r = parts[chk.component]
        out.append(_CHECKS[chk.check](chk, r, rule))
    for r in parts.values():
        found = safe_area(r)
        if found is not None:
            out.append(found)
        out += quality(r.spec.name, r.pictures)
        out += absent(r.spec.name, r.absent, fail=ctx.full)  # validate fails a kit with placeholders, build warns
    return out


def safe_area(r: Ready) -> Finding | None:
    """A warning unless every text box of the component's templates lies SAFE_MM inside its trim
    (for a round part, inside the circle SAFE_MM in from the cut; for a hex or polygon, inside its
    outline; for a d6 or standee, inside its face; pnp.core.safearea); None when it prints no text."""
    w, h, outline = safe_frame(r.spec)
    boxes = {(layer.place.label, layer.box) for face in r.faces.values() for layer in face.layers
             if layer.text is not None}
    if not boxes:
        return None
    close = []
    for label, (x, y, bw, bh) in sorted(boxes):
        edges = insets((x, y, x + bw, y + bh), w, h, r.spec.shape == "circle", outline)
        if past_safe_line(edges, SAFE_MM) is not None:
            close.append(f"{label} {max(min(edges.values()), 0):.1f} mm")
    what = (f"{r.spec.name}: {len(boxes)} text boxes, all at least {SAFE_MM:g} mm inside the trim (the safe area)"
            if not close else f"{r.spec.name}: text boxes closer than {SAFE_MM:g} mm to the trim, where a slightly "
            f"off cut can take letters off: {_list(close)}")
    return verdict(not close, what, "docs/print.md: the safe area keeps text about 3 mm inside the trim", warn=True)


def _count(chk, r: Ready, rule: str) -> Finding:
    return count_finding(chk.component, r.parts, chk.equals, rule)


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
    fonts: dict[str, dict] = {}  # column -> the layers printing it, by font (None: Noto Sans)
    for face in r.faces.values():
        for layer in face.layers:
            if layer.text is not None:
                for c in layer.text.columns:
                    fonts.setdefault(c, {}).setdefault(layer.font and layer.font.name, layer)
    rows = [(row, translated(row.values, r.language)) for row in r.rows if row is not None]
    # per column, not per cell: the characters a column prints, checked once in each of its fonts;
    # only a column some font lacks a character of is read again cell by cell, for the rows to name
    lacking = {c: [layer for layer in by.values()
                   if layer.missing_glyphs("".join(sorted({ch for _, v in rows for ch in v.get(c, "")})))[0]]
               for c, by in fonts.items()}
    bad, cells = [], sum(bool(v.get(c, "")) for _, v in rows for c in fonts)
    for row, values in rows:
        for c in sorted(fonts):
            value = values.get(c, "")
            for layer in lacking[c]:
                miss, font = layer.missing_glyphs(value)
                if miss:
                    bad.append(f"{miss[0]!r} (U+{ord(miss[0]):04X}) in row {row.number}, column "
                               f"{source(row.values, c, r.language)}, not in {font}")
                    break
    names = sorted({f for by in fonts.values() for f in by}, key=lambda f: f or "")
    where = ", ".join("Noto Sans" if f is None else f for f in names) or "Noto Sans"
    what = f"{chk.component}: every glyph of {cells} printed cells is in its font ({where})"
    return verdict(not bad, what + (f"; missing: {_list(bad)}" if bad else ""), rule)


_CHECKS = {"count": _count, "per_value": _per_value, "unique": _unique, "allowed": _allowed,
           "required": _required, "glyphs": _glyphs}
