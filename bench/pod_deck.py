"""Bench case p: print-on-demand PNGs of a poker deck for The Game Crafter, against Squib.

pnp: ``pnp build DECK --format pod --service tgc``, a data-driven deck of poker cards (63.5 x 88.9 mm;
825 x 1125 px with TGC's 1/8 in bleed at 300 dpi): a white ground, a rounded frame, the card's name
large and bold, a sentence wrapped over several lines, a footer. Each build also writes the per-card
PDF and the contact sheet.

The peer: Squib (github.com/andymeneely/squib, Ruby over cairo and pango), run from its source with
Debian's ruby-gnome packages, drawing the same cards at the same size with ``save_png``. Squib is
found from ``SQUIB_SRC`` (a checkout's ``lib`` folder's parent); without it, or when Ruby cannot
load it, the case records why and compares with RECORDED_SQUIB_SECONDS.

Time: pnp and Squib alternately, ``reps`` times each, CPU and wall min / median / max; the ratio is
of wall medians (pnp uses every core; the target is about the time a user waits), and beside it each
pnp run over the Squib run right after it (wall and CPU, min / median / max) and the load average
at the end (how busy the machine was). Memory: each
process run under ``/usr/bin/time -v`` ("Maximum resident set size": the largest single process of
the tree, pnp's or one of its image workers), and beside it the sum of the resident sizes of the
whole process tree sampled every 20 ms (shared pages counted once per process, so an upper bound).
"""
from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from .run import _env, fmt_stats, stats

RECORDED_SQUIB_SECONDS = 17.6
"""Squib's save_png of 1,000 poker cards, measured on this machine before (wall seconds)."""
TIME_ROWS = 1_000
RSS_ROWS = (300, 3_000)
SPEC = """title: Pod bench deck
designer: pnp bench
components:
  - name: card
    size: poker
    data: deck.csv
    front: front.yaml
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: rounded, x: 3mm, y: 3mm, w: 57.5mm, h: 82.9mm, radius: 3mm, stroke: "#333366", stroke_width: 0.6mm}
  - {type: text, text: "{name}", x: 6mm, y: 8mm, w: 51.5mm, h: 14mm, size: 24, min_size: 10, fit: shrink, bold: true,
     align: center, valign: middle}
  - {type: text, text: "{text}", x: 8mm, y: 30mm, w: 47.5mm, h: 40mm, size: 11, min_size: 6, fit: shrink, wrap: true,
     align: center}
  - {type: text, text: "Pod bench deck", x: 6mm, y: 80mm, w: 51.5mm, h: 4mm, size: 7, align: center, colour: "#555555"}
"""
RULES = ("# Pod bench deck\nA deck made to time pnp.\n\n## Components\n- Poker cards.\n\n## Setup\nNone.\n\n"
         "## A turn\nNone.\n\n## End and winner\nNone.\n\n## Fine points\n- None.\n")
# The same card for Squib, in pixels of the 825 x 1125 image (bleed 37.5 px; 1 mm = 300 / 25.4 px)
SQUIB = """require 'squib'
require 'csv'
rows = CSV.read(ARGV[0], headers: true)
Squib::Deck.new(cards: rows.size, width: 825, height: 1125, dpi: 300) do
  background color: '#ffffff'
  rect x: 73, y: 73, width: 679, height: 979, radius: 35, stroke_color: '#333366', stroke_width: 7
  text str: rows['name'], x: 108, y: 132, width: 608, height: 165, font: 'Noto Sans Bold 24', align: :center,
       valign: :middle, ellipsize: false
  text str: rows['text'], x: 132, y: 392, width: 561, height: 472, font: 'Noto Sans 11', align: :center,
       wrap: :word_char
  text str: 'Pod bench deck', x: 108, y: 982, width: 608, height: 47, font: 'Noto Sans 7', align: :center,
       color: '#555555'
  save_png dir: ARGV[1], prefix: 'card_'
end
"""


def make_deck(folder: Path, rows: int) -> Path:
    """The deck folder: spec, rules, front template and a ``rows``-row CSV (name, text)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{folder.name}.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "front.yaml").write_text(FRONT, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    with (folder / "deck.csv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "text"])
        for i in range(rows):
            out.writerow([f"Card {i + 1}", f"Card number {i + 1} of the deck: draw two, then give one card to the "
                          f"player on your left. Keep the other hidden until the end of the round."])
    return folder


def _tree_rss_kib(pid: int) -> int:
    """Sum of VmRSS of ``pid`` and its descendants (KiB), read from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        ppid = int(re.search(r"^PPid:\s+(\d+)", text, re.M).group(1))
        children.setdefault(ppid, []).append(int(entry))
        m = re.search(r"^VmRSS:\s+(\d+)", text, re.M)
        rss[int(entry)] = int(m.group(1)) if m else 0
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total


def measure(argv: list[str], cwd: Path, env: dict) -> dict:
    """Run ``argv`` under ``/usr/bin/time -v``: wall and CPU seconds, its "Maximum resident set size"
    (MiB) and the peak of the process tree's summed RSS (MiB)."""
    log = cwd / "time-v.txt"
    proc = subprocess.Popen(["/usr/bin/time", "-v", "-o", str(log), *argv], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_rss_kib(proc.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    sampler.join()
    text = log.read_text()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:4])} failed:\n{err.decode()[-2000:]}\n{text[-500:]}")
    field = {k.strip(): v.strip() for k, v in (line.split(": ", 1) for line in text.splitlines() if ": " in line)}
    h, m, s = ([0.0] + [float(x) for x in field["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")])[-3:]
    return {"seconds": h * 3600 + m * 60 + s,
            "cpu_seconds": float(field["User time (seconds)"]) + float(field["System time (seconds)"]),
            "max_rss_mib": int(field["Maximum resident set size (kbytes)"]) / 1024,
            "tree_rss_mib": peak[0] / 1024}


def _pnp(deck: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "pnp", "build", str(deck), "--format", "pod", "--service", "tgc", "--out", str(out)]


def squib_command(tmp: Path, deck: Path) -> tuple[list[str] | None, str]:
    """(argv running the Squib script on ``deck``'s CSV, "") or (None, why Squib cannot run here)."""
    src = os.environ.get("SQUIB_SRC")
    if not shutil.which("ruby"):
        return None, "ruby is not installed (apt-get install ruby ruby-gnome)"
    if not src or not (Path(src) / "lib" / "squib.rb").exists():
        return None, "SQUIB_SRC does not name a Squib checkout (a folder holding lib/squib.rb)"
    script = tmp / "squib_deck.rb"
    script.write_text(SQUIB, encoding="utf-8")
    out = tmp / "squib-out"
    out.mkdir(exist_ok=True)
    argv = ["ruby", "-I", str(Path(src) / "lib"), str(script), str(deck / "deck.csv"), str(out)]
    probe = subprocess.run(["ruby", "-I", str(Path(src) / "lib"), "-e", "require 'squib'"], capture_output=True,
                           text=True)
    if probe.returncode != 0:
        return None, "Ruby cannot load Squib: " + (probe.stderr.strip().splitlines() or ["?"])[0][:300]
    return argv, ""


def _series(rows: list[dict]) -> dict:
    return {k: stats([r[k] for r in rows]) for k in rows[0]}


def case_p(tmp: Path, reps: int) -> dict:
    """Time of 1,000 cards, pnp and Squib alternately; memory of pnp at 300 and 3,000 cards."""
    env = _env(tmp / "rss-unused.txt")
    deck = make_deck(tmp / "pod-deck", TIME_ROWS)
    squib, why = squib_command(tmp, deck)
    runs: dict[str, list[dict]] = {"pnp": [], "squib": []}
    for i in range(reps):
        runs["pnp"].append(measure(_pnp(deck, tmp / f"p-out{i}"), tmp, env))
        shutil.rmtree(tmp / f"p-out{i}")
        if squib:
            runs["squib"].append(measure(squib, tmp, env))
    result: dict = {"cards": TIME_ROWS, "pnp": _series(runs["pnp"])}
    if squib:
        result["squib"] = _series(runs["squib"])
        base = result["squib"]["seconds"]["median"]
    else:
        result["squib_missing"] = why
        base = RECORDED_SQUIB_SECONDS
    result["squib_seconds"] = base
    result["wall_ratio"] = result["pnp"]["seconds"]["median"] / base
    if squib:  # each pnp run against the Squib run right after it
        pairs = list(zip(runs["pnp"], runs["squib"]))
        result["wall_ratio_pairs"] = stats([p["seconds"] / q["seconds"] for p, q in pairs])
        result["cpu_ratio_pairs"] = stats([p["cpu_seconds"] / q["cpu_seconds"] for p, q in pairs])
    result["load_average"] = list(os.getloadavg())
    for n in RSS_ROWS:
        big = make_deck(tmp / f"pod-deck-{n}", n)
        got = [measure(_pnp(big, tmp / f"m-out{n}-{i}"), tmp, env) for i in range(max(1, reps // 2))]
        for i in range(len(got)):
            shutil.rmtree(tmp / f"m-out{n}-{i}")
        result[f"rss_{n}"] = _series(got)
    return result


def rows(p: dict) -> list[str]:
    """Table rows of case p for bench.run.table."""
    from .run import _row
    peer = p.get("squib")
    name = (f"(p) pod PNGs, {p['cards']:,} poker cards for TGC (floor: Squib save_png"
            + (")" if peer else f", recorded {p['squib_seconds']:.1f} s: {p['squib_missing']})"))
    out = [_row(name, p["pnp"], peer, peer and p["pnp"]["cpu_seconds"]["median"] / peer["cpu_seconds"]["median"],
                p["wall_ratio"], "wall <= 0.5x")]
    if "wall_ratio_pairs" in p:
        w, c = p["wall_ratio_pairs"], p["cpu_ratio_pairs"]
        out.append(f"| (p) each pnp run / the Squib run after it (load average {p['load_average'][0]:.1f}) | | | "
                   f"{c['min']:.2f} / {c['median']:.2f} / {c['max']:.2f}x | | | "
                   f"{w['min']:.2f} / {w['median']:.2f} / {w['max']:.2f}x | wall <= 0.5x |")
    for n in RSS_ROWS:
        d = p[f"rss_{n}"]
        out.append(f"| (p) pod PNGs, {n:,} poker cards: peak RSS (`/usr/bin/time -v`) "
                   f"{fmt_stats(d['max_rss_mib'], 'MiB')}, process tree {fmt_stats(d['tree_rss_mib'], 'MiB')} | "
                   f"{fmt_stats(d['cpu_seconds'])} |  |  | {fmt_stats(d['seconds'])} |  |  | <= 300 MiB |")
    return out
