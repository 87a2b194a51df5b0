"""The cost of the pikepdf pass over every saved PDF (pnp/render/pdfpost.py: content-derived subset
tags; with --pdfx the output intent and XMP too) on the 10,000-word NetMatch PDF.

    python -m bench.postpass [--words 10000] [--reps 5]

Measures, alternately in the same run: the whole `pnp build netmatch --words W -f pdf` process (which
includes the pass), and the pass alone, in this process, on a copy of the PDF that build wrote, as a
build runs it (finish_pdf on the file: open from disk, retag every subset, save without decoding a
stream, replace the file; run again on a finished file it does the same work), plus the pass with
--pdfx's marks. Prints CPU and wall medians and the pass's share of the build's CPU time.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from .run import run_process, word_list


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--words", type=int, default=10_000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    from pnp.colour.press import shipped_press
    from pnp.render.pdfpost import finish_pdf

    build_cpu, build_wall, post_cpu, post_wall, x4_cpu = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        words = word_list(args.words, tmp / "words.txt")
        press = shipped_press()
        for i in range(args.reps):
            out = tmp / f"o{i}"
            wall, cpu, _ = run_process(["build", "netmatch", "--words", str(words), "--out", str(out),
                                        "--format", "pdf", "-q"], tmp)
            build_wall.append(wall)
            build_cpu.append(cpu)
            data = next((out / "netmatch").glob("*.pdf")).read_bytes()
            copy = tmp / "copy.pdf"
            copy.write_bytes(data)
            t, c = time.perf_counter(), time.process_time()
            finish_pdf(copy)
            post_wall.append(time.perf_counter() - t)
            post_cpu.append(time.process_time() - c)
            copy.write_bytes(data)
            c = time.process_time()
            finish_pdf(copy, press=press, pdfx=True)
            x4_cpu.append(time.process_time() - c)
            shutil.rmtree(out)
    med = statistics.median
    print(f"NetMatch, {args.words} words, PDF only, {args.reps} runs each ({len(data) / 1e6:.1f} MB PDF)")
    print(f"  whole build (process):   CPU {med(build_cpu):.2f} s, wall {med(build_wall):.2f} s")
    print(f"  post-pass (retag):       CPU {med(post_cpu):.3f} s, wall {med(post_wall):.3f} s "
          f"= {med(post_cpu) / med(build_cpu):.1%} of the build's CPU")
    print(f"  post-pass with --pdfx:   CPU {med(x4_cpu):.3f} s = {med(x4_cpu) / med(build_cpu):.1%}")


if __name__ == "__main__":
    main()
