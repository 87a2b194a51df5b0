"""The benchmark's targets (docs/performance.md), before and after: `python -m bench.report BEFORE.json [...] AFTER.json` prints a
Markdown table (CPU-median ratios, min / median / max of pnp's CPU time, wall ratios beside them) from
runs of `python -m bench` (the same bench run against the tree before and after a change), oldest first."""
from __future__ import annotations

import json
import sys

from .run import fmt_stats

TARGETS = [
    # (name, how to read it from a result, target, goal beyond it); the floors of case c draw what repeats
    # once; issue 47's targets first
    ("1. NetMatch 10,000 words, PDF / matched reportlab floor", ("c", "10000", "pdf"), 1.5, 1.15),
    ("2. NetMatch 100,000 words, PDF / matched reportlab floor", ("c", "100000", "pdf"), 1.05, None),
    ("3. NetMatch 10,000 words, SVG / matched svgwrite floor", ("c", "10000", "svg"), 1.2, None),
    ("4. peak RSS, NetMatch 100,000 words, PDF+SVG (MiB)", ("rss", "100000"), 190, 160),
    ("5. cold `pnp build`, all kits / cold `import reportlab.pdfgen.canvas`", ("a",), 9, 7),
    ("5c. cold `pnp build` of the five games / the tree given with --against (case g)", ("g",), 1.05, None),
    ("5b. cold `pnp build`, all kits / cold import of its stack (reportlab, svgwrite, yaml, typer, pydantic)",
     ("a", "stack_"), 5, None),
    ("6. data-driven deck, 1,000 rows, PDF / NetMatch kit, 1,000 words", ("e", "pdf"), 1.5, None),
    ("7. a data-driven card's cost / a NetMatch card's, PDF", ("card", "pdf"), 1.3, None),
    ("7b. a data-driven card's cost / a NetMatch card's, PDF+SVG", ("card", "pdf,svg"), 1.3, None),
]


def _get(r: dict, how: tuple):
    """(value, pnp CPU stats or RSS stats, wall ratio) of one target in a run, or None."""
    try:
        if how[0] == "g":
            g = r["g_five_games"]
            return g["ratio"], g["pnp"]["cpu_seconds"], g.get("wall_ratio")
        if how[0] == "a":
            a, prefix = r["a_cold_build"], (how[1] if len(how) > 1 else "")
            return a[f"{prefix}ratio"], a["pnp"]["cpu_seconds"], a.get(f"{prefix}wall_ratio")
        if how[0] == "e":
            d = r["e_custom_deck"][how[1]]
            cpu = d["deck"]["cpu_seconds"]["median"] / d["netmatch"]["cpu_seconds"]["median"]
            wall = d["deck"]["seconds"]["median"] / d["netmatch"]["seconds"]["median"]
            return cpu, d["deck"]["cpu_seconds"], wall
        if how[0] == "card":
            d = r["e_custom_deck"][how[1]]
            return d["card_ratio"], d["deck"]["cpu_seconds"], None
        if how[0] == "rss":
            s = r["c_decks"][how[1]]["pdf+svg"]["peak_rss_mib"]
            return s["median"], s, None
        d = r["c_decks"][how[1]]
        return d[f"{how[2]}_ratio"], d[how[2]]["cpu_seconds"], d.get(f"{how[2]}_wall_ratio")
    except KeyError:
        return None


def report(*runs: dict, names: tuple[str, ...] = ("before", "after")) -> str:
    """One row per target: its value in each run (oldest first, headed by ``names``), then the last
    run's pnp min / median / max, wall ratio, goal and verdict."""
    rows = [f"| target | {' | '.join(names)} | pnp {names[-1]} (min / median / max) | wall ratio {names[-1]} | "
            "goal (stretch) | met |", "|---|" + "---|" * (len(runs) + 4)]
    for name, how, goal, stretch in TARGETS:
        got = [_get(r, how) for r in runs]
        a = got[-1]
        unit = " MiB" if how[0] == "rss" else "x"
        fmt = (lambda v: f"{v:.0f}{unit}") if how[0] == "rss" else (lambda v: f"{v:.2f}{unit}")
        met = "" if a is None else ("stretch" if stretch and a[0] <= stretch else "yes" if a[0] <= goal else "**no**")
        rows.append(f"| {name} | {' | '.join(fmt(g[0]) if g else 'n/a' for g in got)} | "
                    f"{fmt_stats(a[1], 'MiB' if how[0] == 'rss' else 's CPU') if a else ''} | "
                    f"{f'{a[2]:.2f}x' if a and a[2] else ''} | <= {goal}{unit.strip() and ' ' + unit.strip() if how[0] == 'rss' else 'x'} "
                    f"{f'({stretch})' if stretch else ''} | {met} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    """``python -m bench.report RUN.json RUN.json [RUN.json ...]``, oldest first; each column is
    headed by its file's name."""
    if len(argv) < 2:
        print(__doc__)
        return 2
    runs = [json.loads(open(p, encoding="utf-8").read()) for p in argv]
    print(report(*runs, names=tuple(p.rsplit("/", 1)[-1].removesuffix(".json") for p in argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
