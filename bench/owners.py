"""Who owns a build's time: pnp's own code, or the libraries and the interpreter.

Samples ``pnp ARGS`` with py-spy (``pip install py-spy``; non-blocking, so the build runs at its own
speed) and sorts every sample by its owner:

- ``import:OWNER``: inside an import, OWNER the package whose module body runs (``pnp`` for pnp's
  own modules, whatever they define: its dataclasses and pydantic models count as pnp's);
- ``leaf:OWNER``: outside imports, OWNER the package of the innermost Python frame (``pnp`` when
  pnp's own code runs, including C it calls directly: HarfBuzz, zlib, file reads and ``fsync``);
  ``leaf:<string>`` is code that ``dataclasses`` generated, such as ``__init__``.

The share that is not pnp's is a floor under the build: were every line of pnp's own code free, the
build would still take that share of its time. ``--cold`` multiplies it by a measured ratio of the
build to another process (a cold import of the stack, say) to give that floor as a ratio.

    python -m bench.owners --runs 10 -- build --out /tmp/o          # every kit, cold
    python -m bench.owners --ratio 8.11 -- build --out /tmp/o
"""
from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_FRAME = re.compile(r"^(.*) \((.*?):(\d+)\)$")
PNP_OWNED = ("leaf:pnp", "import:pnp", "leaf:<string>")


def owner(path: str) -> str:
    """The owner of a frame's file as py-spy names it: ``pnp``, a package or a stdlib module."""
    if path.startswith("pnp/"):
        return "pnp"
    if path.startswith("<frozen"):
        return path.strip("<>").split()[-1]
    return path.split("/")[0].removesuffix(".py")


def classify(lines) -> collections.Counter:
    """Samples by owner from py-spy's raw lines (``frame;frame;... count``)."""
    counts: collections.Counter = collections.Counter()
    for line in lines:
        stack, _, n = line.rstrip().rpartition(" ")
        if not stack:
            continue
        frames = [(m.group(1), m.group(2)) if (m := _FRAME.match(f)) else (f, "?") for f in stack.split(";")]
        if any("importlib._bootstrap" in path for _, path in frames):
            bodies = [path for fn, path in frames
                      if fn == "<module>" and not path.startswith("<frozen runpy") and path != "pnp/__main__.py"]
            counts["import:" + (owner(bodies[-1]) if bodies else "?")] += int(n)
        else:
            counts["leaf:" + owner(frames[-1][1])] += int(n)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--rate", type=int, default=250, help="samples a second")
    parser.add_argument("--ratio", type=float, default=None,
                        help="the build's measured CPU over a floor's: the floor under the build as that ratio")
    parser.add_argument("args", nargs="+", help="pnp's arguments (after --); an --out folder is emptied per run")
    a = parser.parse_args()
    if shutil.which("py-spy") is None:
        sys.exit("py-spy is not installed: pip install py-spy")
    out = Path(a.args[a.args.index("--out") + 1]) if "--out" in a.args else None
    counts: collections.Counter = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.runs):
            if out is not None:
                shutil.rmtree(out, ignore_errors=True)
            raw = Path(tmp) / f"{i}.txt"
            subprocess.run(["py-spy", "record", "--nonblocking", "-r", str(a.rate), "-f", "raw", "-o", str(raw),
                            "--", sys.executable, "-m", "pnp", "-q", *a.args],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with raw.open(encoding="utf-8") as fh:
                counts += classify(fh)
    total = sum(counts.values())
    for key, n in counts.most_common(30):
        print(f"{100 * n / total:6.2f} %  {key}")
    own = sum(counts[k] for k in PNP_OWNED) / total
    print(f"samples {total}; pnp's own {100 * own:.1f} %, the rest {100 * (1 - own):.1f} %")
    if a.ratio is not None:
        print(f"floor under the build with pnp's own code free: {(1 - own) * a.ratio:.2f}x (measured {a.ratio:.2f}x)")


if __name__ == "__main__":
    main()
