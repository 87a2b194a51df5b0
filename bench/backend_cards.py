"""pnp's PDF backend alone against the matched floor's drawing, in one process, on a NetMatch deck:
`python -m bench.backend_cards WORDS [REPS]` (default 10,000 words, 5 runs of each, alternately).

pnp's side is pnp.render.pdf.PdfWriter drawing the deck's imposed pages (planned and imposed once,
untimed, held in memory) into memory, saved and finished as a build does; the floor's side is
bench/floor_cards.py's pdf_floor drawing the word-card pages into memory. What the two share is the
per-card operator code (a card's frame, its placed face, its two texts) and reportlab's save; what
a whole `pnp build` adds (start-up, planning, fingerprints, imposition, the manifest and the kit
store) is left out, so the ratio reads how close pnp's own drawing is to the floor's.
"""
from __future__ import annotations

import io
import json
import sys
import tempfile
import time
from pathlib import Path

from .run import card_layout, ratio, stats, word_list


def measure(n: int, reps: int) -> dict:
    from pnp.layout.impose import impose
    from pnp.pipeline.plan import Request, load_paper, plan
    from pnp.render.pdf import PdfWriter

    from .floor_cards import pdf_floor

    with tempfile.TemporaryDirectory(prefix="pnp-backend-") as t:
        tmp = Path(t)
        words = word_list(n, tmp / "words.txt")
        layout = card_layout(words, tmp / "layout.json")
        listed = [w for w in words.read_text(encoding="utf-8").split()]
        [tp] = plan(["netmatch"], Request(load_paper("a4"), ("pdf",), overrides={"words": words})).targets
    pages = list(impose(tp.info.title, tp.components, load_paper("a4").sheet, tp.opts).pages)

    def ours():
        w = PdfWriter(io.BytesIO())
        for page in pages:
            w.add(page)
        w.close()

    def floor():
        pdf_floor(layout, listed, io.BytesIO())

    ours(), floor()  # warm: fonts parsed, subsets made
    got: dict = {"pnp": [], "floor": []}
    for _ in range(reps):
        for name, fn in (("pnp", ours), ("floor", floor)):
            t0 = time.process_time()
            fn()
            got[name].append(time.process_time() - t0)
    res = {name: {"cpu_seconds": stats(v)} for name, v in got.items()}
    res["ratio"] = ratio(res["pnp"]["cpu_seconds"], res["floor"]["cpu_seconds"])
    res["pages"], res["floor_pages"] = len(pages), -(-n // len(layout["slots"]))
    return res


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(json.dumps(measure(n, reps), indent=2))
