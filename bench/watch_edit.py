"""The watch harness: how soon `pnp watch --serve` switches in the new kit after a one-cell edit of a
400-card deck with 400 distinct pictures (bench/watch_deck.py), and how soon the preview page is told.

``python -m bench.watch_edit [--procs 3] [--edits 5] [--out FILE]``. Each of ``procs`` watch processes
(PDF + SVG, the default formats) makes its first, full build (timed by the process itself: the seconds
on its "N pages on a4 in S s" line), then ``edits`` times one cell of the CSV is changed and saved:
the edit's time is from the save to the moment the kit's manifest on disk is the new one (the
store's switch; polled every 5 ms), the preview's from that switch to the Server-Sent Event that makes
an open page reload (its ``/events`` stream, read as a browser does). The ratio is of the medians:
edit / full build, both wall time (target: at most 0.25; the preview within 0.5 s); beside it each
edit's time over its own process's full build, min / median / max, and the load average at the end. Not a test:
nothing here fails on a slow machine.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from .run import fmt_stats, stats
from .watch_deck import make_deck

POLL = 0.005    # s between looks at the manifest
WAIT = 300.0    # s: the longest a build may take before the harness gives up


def _until(predicate, what: str):
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        got = predicate()
        if got:
            return got
        time.sleep(POLL)
    raise RuntimeError(f"timed out waiting for {what}")


def _events(url: str, seen: list[tuple[float, str]]) -> None:
    """Read the page's event stream as a browser does, noting when each version arrives."""
    with urllib.request.urlopen(url + "events", timeout=WAIT) as stream:
        for raw in stream:
            line = raw.decode("utf-8").strip()
            if line.startswith("data:"):
                seen.append((time.perf_counter(), line[5:].strip()))


def one_process(deck: Path, out: Path, edits: int) -> dict:
    """One watch process: its full build's seconds, and per edit the seconds to the switch and to the event."""
    spec = make_deck(deck)
    manifest = out / "watch-deck" / "manifest-a4.json"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(spec), "-o", str(out), "--debounce", "50",
                             "--serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    try:
        url = _until(lambda: next((ln.split()[1] for ln in lines if ln.startswith("preview:")), None), "the URL")
        _until(lambda: any("watching" in ln for ln in lines), "the first build")
        full = float(re.search(r"pages on a4 in ([\d.]+) s", next(ln for ln in lines if "pages on a4" in ln))[1])
        seen: list[tuple[float, str]] = []
        threading.Thread(target=_events, args=(url, seen), daemon=True).start()
        _until(lambda: seen, "the event stream")
        data = deck / "deck.csv"
        original = data.read_text(encoding="utf-8")
        switch, preview = [], []
        for n in range(edits):
            before = manifest.read_bytes()
            heard = len(seen)
            data.write_text(original.replace("Card 200,", f"Card 200 ({n}),"), encoding="utf-8")
            saved = time.perf_counter()
            _until(lambda: manifest.exists() and manifest.read_bytes() != before, "the switch")
            switched = time.perf_counter()
            _until(lambda: len(seen) > heard, "the preview's event")
            switch.append(switched - saved)
            preview.append(seen[heard][0] - switched)
            _until(lambda: sum("watching" in ln for ln in lines) >= n + 2, "the round's end")
        data.write_text(original, encoding="utf-8")
        return {"full": full, "switch": switch, "preview": preview}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--procs", type=int, default=3)
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path("bench/results-watch.json"))
    args = ap.parse_args()
    full, switch, preview, each = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.procs):
            got = one_process(Path(tmp) / "deck", Path(tmp) / f"out{i}", args.edits)
            full.append(got["full"])
            switch += got["switch"]
            preview += got["preview"]
            each += [s / got["full"] for s in got["switch"]]  # each edit against its own process's full build
    result = {"full_build": stats(full), "edit_to_switch": stats(switch), "switch_to_preview_event": stats(preview),
              "ratio": stats(switch)["median"] / stats(full)["median"], "ratio_each_edit": stats(each),
              "load_average": list(os.getloadavg())}
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"full build (first round)       {fmt_stats(result['full_build'])}")
    print(f"one-cell edit: save -> switch  {fmt_stats(result['edit_to_switch'])}")
    print(f"switch -> preview's event      {fmt_stats(result['switch_to_preview_event'])}")
    print(f"edit / full build (medians)    {result['ratio']:.2f}  (target <= 0.25)")
    r = result["ratio_each_edit"]
    print(f"each edit / its full build     {r['min']:.2f} / {r['median']:.2f} / {r['max']:.2f}; "
          f"load average at the end {', '.join(f'{x:.1f}' for x in result['load_average'])}")


if __name__ == "__main__":
    main()
