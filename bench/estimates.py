"""The build estimate (pnp.layout.limits: the budget the CLI prints before a build) for a bench case,
beside what the case really took.

``estimate(argv, cwd)`` plans the same `pnp build ARGV` in a fresh process (untimed) and returns the
seconds pnp estimates for it: STARTUP_SECONDS (a process's start and imports) plus each kit's
``budget.seconds``; ``in_process=True`` leaves the start-up out (case b's warm in-process builds).
``python -m bench.estimates build ARGS...`` prints the same, with the features the model reads.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _plan(argv: list[str]) -> dict:
    """Plan `pnp build ARGV` as the CLI would (targets, --words, --format, --paper), nothing drawn:
    each kit's estimate and the features it is computed from."""
    from pnp.cli.options import request_of as _request, targets as _targets
    from pnp.layout.limits import STARTUP_SECONDS
    from pnp.pipeline.plan import plan

    games, paper, formats, words = [], "a4", [], None
    args = iter(argv[1:] if argv and argv[0] == "build" else argv)
    for a in args:
        if a in ("--format", "-f"):
            formats.append(next(args))
        elif a in ("--paper", "-p"):
            paper = next(args)
        elif a == "--words":
            words = Path(next(args))
        elif a in ("--out", "-o"):
            next(args)
        elif not a.startswith("-"):
            games.append(a)
    request = _request(paper, formats or ["pdf,svg"], [], words)
    kits = []
    for tp in plan(_targets(games or None), request).targets:
        b = tp.budget
        kits.append({"kit": tp.target, "seconds": b.seconds, "pages": b.pages,
                     "parts": sum(c.count for c in tp.components), "faces": sum(len(c.fronts) for c in tp.components)})
    return {"startup": STARTUP_SECONDS, "kits": kits}


def estimate(argv: list[str], cwd: Path, in_process: bool = False) -> float:
    """pnp's estimate (s) of `pnp build ARGV`, planned in a fresh process in ``cwd`` (with the pnp this
    bench imported)."""
    import os

    import pnp
    root = Path(pnp.__file__).resolve().parent.parent
    bench = Path(__file__).resolve().parent.parent
    path = os.pathsep.join(dict.fromkeys(p for p in (str(bench), str(root), os.environ.get("PYTHONPATH", "")) if p))
    got = subprocess.run([sys.executable, "-m", "bench.estimates", *argv], cwd=cwd,
                         env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True)
    if got.returncode != 0:
        raise SystemExit(f"estimate of {' '.join(argv)} failed:\n{got.stderr}")
    planned = json.loads(got.stdout)
    return sum(k["seconds"] for k in planned["kits"]) + (0.0 if in_process else planned["startup"])


def record(real: dict, estimated: float) -> dict:
    """The estimate beside a measurement's medians (``real``: an alternate() entry): the ratios
    estimate / real of wall and of CPU time."""
    return {"seconds": estimated, "wall_ratio": estimated / real["seconds"]["median"],
            "cpu_ratio": estimated / real["cpu_seconds"]["median"]}


if __name__ == "__main__":
    print(json.dumps(_plan(sys.argv[1:])))


def rows(results: dict) -> list[str]:
    """A table of every recorded estimate beside its case's medians (bench.run.table)."""
    found = []
    if "estimates" in results.get("a_cold_build", {}):
        found.append(("(a) cold `pnp build`, all kits, PDF+SVG", results["a_cold_build"]["estimates"]["pnp"]))
    for fmt, e in results.get("b_warm_vs_floor", {}).get("estimates", {}).items():
        found.append((f"(b) warm in-process build, all kits, {fmt.upper().replace(',', '+')}", e))
    for n, d in results.get("c_decks", {}).items():
        if isinstance(d, dict):
            for fmt, e in d.get("estimates", {}).items():
                found.append((f"(c) NetMatch {int(n):,} words, {fmt.upper()}", e))
    deck = results.get("e_custom_deck", {})
    for fmt in ("pdf", "pdf,svg"):
        for name, e in deck.get(fmt, {}).get("estimates", {}).items():
            what, _, n = name.partition("_")
            cards = int(n) if n else deck["rows"]
            label = "data-driven deck" if what == "deck" else "NetMatch"
            found.append((f"(e) {label}, {cards:,} cards, {fmt.upper().replace(',', '+')}", e))
    if not found:
        return []
    out = ["", "| case | estimate | estimate / CPU median | estimate / wall median | goal |", "|---|---|---|---|---|"]
    for label, e in found:
        within = 0.5 <= e["cpu_ratio"] <= 2.0
        out.append(f"| {label} | {e['seconds']:.2f} s | **{e['cpu_ratio']:.2f}x** | {e['wall_ratio']:.2f}x | "
                   f"within 2x{'' if within else ': not met'} |")
    return out
