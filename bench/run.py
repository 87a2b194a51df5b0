"""Benchmarks of pnp (issue 7). Run: `python -m bench [--quick]`. Prints a table, writes bench/results.json.

Cases:
  a  cold `pnp build` of every kit (PDF + SVG) as a whole process
  b  the same in-process, warm; compared with a bare-reportlab floor (same primitives, same pages)
     and a bare-svgwrite floor, measured alternately, medians quoted
  c  NetMatch decks of 1,000 / 10,000 / 100,000 words: time and peak RSS (fresh process each)
  d  the Nonads enumerator for n=4, k=8 and n=5, k=12 under C4 and D4
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def stats(samples: list[float]) -> dict:
    return {"min": min(samples), "median": statistics.median(samples), "max": max(samples), "n": len(samples)}


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


_REPORT_RSS = ("import resource, runpy, sys\n"
               "sys.argv = ['pnp'] + sys.argv[2:]\n"
               "try:\n    runpy.run_module('pnp', run_name='__main__')\n"
               "except SystemExit as exc:\n    code = exc.code or 0\nelse:\n    code = 0\n"
               "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
               "try:\n"
               "    peak = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
               "except (OSError, StopIteration):\n    pass\n"
               "open(__import__('os').environ['PNP_BENCH_RSS'], 'w').write(str(peak))\n"
               "sys.exit(code)\n")


def run_process(args: list[str], cwd: Path) -> tuple[float, float]:
    """Run `python -m pnp ARGS...` in a fresh process; return (wall seconds, its peak RSS in MiB).

    The process reads its own high-water mark (VmHWM) at exit: on Linux, getrusage's ru_maxrss
    survives exec, so a child would report its parent's size whenever the parent was larger."""
    rss_file = cwd / "rss.txt"
    env = dict(os.environ, PNP_BENCH_RSS=str(rss_file))
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _REPORT_RSS, "--"] + args, cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"pnp {' '.join(args)} failed:\n{proc.stderr.decode()}")
    return wall, int(rss_file.read_text()) / 1024


def word_list(n: int, path: Path) -> Path:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    words = ["".join(p) for p in itertools.product(letters, repeat=4)]
    random.Random(7).shuffle(words)
    path.write_text("\n".join(words[:n]) + "\n", encoding="utf-8")
    return path


def case_a(tmp: Path, reps: int) -> dict:
    samples = []
    for i in range(reps):
        out = tmp / f"a{i}"
        samples.append(run_process(["build", "--out", str(out)], tmp)[0])
        shutil.rmtree(out)
    return stats(samples)


def case_b(tmp: Path, reps: int) -> dict:
    from pnp.fonts import font_path
    from pnp.games import registry
    from pnp.kit import build_kit, load_target
    from pnp.games import KitContext
    from pnp.layout.impose import impose
    from pnp.layout.sheets import load_sheet

    from .floor import count_primitives, reportlab_floor, svgwrite_floor

    games = list(registry())
    counts = []
    for g in games:  # the primitives pnp draws, page by page, for the floors to copy
        loaded = load_target(g)
        comps = loaded.game.components(loaded.spec, KitContext(loaded.path))
        counts += count_primitives(impose(loaded.spec.title or loaded.game.title, comps, load_sheet("a4"))[2])

    def pnp(fmt):
        return lambda: [build_kit(g, formats=(fmt,), out=tmp / "b") for g in games]

    def floor_pdf():
        (tmp / "floor.pdf").write_bytes(reportlab_floor(counts, str(font_path())))

    def floor_svg():
        for i, s in enumerate(svgwrite_floor(counts)):
            (tmp / f"floor-{i}.svg").write_text(s, encoding="utf-8")

    pnp("pdf")(), floor_pdf(), pnp("svg")(), floor_svg()  # warm-up
    res = {}
    for fmt, floor in (("pdf", floor_pdf), ("svg", floor_svg)):
        ours, base = [], []
        for _ in range(reps):  # alternate, so drift hits both alike
            ours.append(timed(pnp(fmt)))
            base.append(timed(floor))
        res[fmt] = {"pnp": stats(ours), "floor": stats(base),
                    "ratio_median": statistics.median(ours) / statistics.median(base)}
    both = [timed(lambda: [build_kit(g, formats=("pdf", "svg"), out=tmp / "b") for g in games]) for _ in range(reps)]
    res["pdf+svg"] = {"pnp": stats(both)}
    total = sum(sum(c.values()) for c in counts)
    res["pages"], res["primitives"] = len(counts), total
    return res


def case_c(tmp: Path, sizes: list[int], reps: int) -> dict:
    res = {}
    for n in sizes:
        words = word_list(n, tmp / f"w{n}.txt")
        walls, rss = [], []
        for i in range(reps if n <= 10_000 else 1):
            out = tmp / f"c{n}-{i}"
            wall, peak = run_process(["build", "netmatch", "--words", str(words), "--out", str(out),
                                      "--format", "pdf,svg"], tmp)
            walls.append(wall)
            rss.append(peak)
            shutil.rmtree(out)
        res[str(n)] = {"seconds": stats(walls), "peak_rss_mib": stats(rss)}
    return res


def case_d(reps: int) -> dict:
    from pnp.combinatorics import burnside_count, enumerate_classes
    res = {}
    for n, k in ((4, 8), (5, 12)):
        for group in ("C4", "D4"):
            samples = []
            for _ in range(reps):
                t = time.perf_counter()
                classes = enumerate_classes(n, k, group)
                samples.append(time.perf_counter() - t)
            assert len(classes) == burnside_count(n, k, group)
            res[f"n={n},k={k},{group}"] = {"classes": len(classes), "seconds": stats(samples)}
    return res


def fmt_stats(s: dict, unit: str = "s") -> str:
    return f"{s['min']:.2f} / {s['median']:.2f} / {s['max']:.2f} {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, no 100,000-word deck")
    parser.add_argument("--reps", type=int, default=None)
    args = parser.parse_args()
    reps = args.reps or (2 if args.quick else 5)
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    results = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                           "platform": platform.platform()}, "reps": reps}
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as t:
        tmp = Path(t)
        print("case a: cold pnp build (all kits, PDF + SVG) ...", flush=True)
        results["a_cold_build"] = case_a(tmp, reps)
        print("case b: warm in-process build vs bare reportlab / svgwrite floors ...", flush=True)
        results["b_warm_vs_floor"] = case_b(tmp, reps)
        print("case c: NetMatch decks ...", flush=True)
        results["c_decks"] = case_c(tmp, sizes, min(reps, 3))
        print("case d: enumerator ...", flush=True)
        results["d_enumerator"] = case_d(min(reps, 3))
    (HERE / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(table(results))


def table(r: dict) -> str:
    rows = ["| case | min / median / max | note |", "|---|---|---|"]
    rows.append(f"| (a) cold `pnp build`, all kits, PDF+SVG | {fmt_stats(r['a_cold_build'])} | whole process |")
    b = r["b_warm_vs_floor"]
    for fmt in ("pdf", "svg"):
        rows.append(f"| (b) warm build, {fmt.upper()} only | {fmt_stats(b[fmt]['pnp'])} | "
                    f"floor {fmt_stats(b[fmt]['floor'])}; ratio {b[fmt]['ratio_median']:.2f}x (target <= 1.5x) |")
    rows.append(f"| (b) warm build, PDF+SVG | {fmt_stats(b['pdf+svg']['pnp'])} | {b['pages']} pages, "
                f"{b['primitives']} primitives |")
    for n, c in r["c_decks"].items():
        rows.append(f"| (c) NetMatch deck, {int(n):,} words | {fmt_stats(c['seconds'])} | "
                    f"peak RSS {fmt_stats(c['peak_rss_mib'], 'MiB')} |")
    for name, d in r["d_enumerator"].items():
        rows.append(f"| (d) enumerator {name} | {fmt_stats(d['seconds'])} | {d['classes']:,} classes |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
