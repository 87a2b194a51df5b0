"""`pnp edit`'s redraw: from a key press (a 0.5 mm nudge) to pnp's redrawn card, on a poker card of a
500-row deck, as a ratio against pnp's SVG writer alone drawing the same card.

``python -m bench.edit_redraw [--rows 500] [--reps 30] [--out FILE]``. The deck is `pnp new` from a
sheet of ``rows`` rows (name, a text of 5 to 25 words, copies). Three measurements, alternately:

* ``edit``: what the editor's server does between the page's POST of the nudge and the card it
  returns: the edit checked, written in place (ruamel round trip, atomic write, the deck read back as
  a build reads it) and card 250 drawn (pnp.edit.session.Session.apply, pnp.edit.card.Deck.card);
* ``http``: the same through the page's two requests (POST /api/edit, GET /api/card) on Starlette's
  TestClient (no network);
* ``svg``: the floor: pnp.render.svg.page_to_svg writing that card's page (drawn once, untimed).

The ratios are of the medians (wall time), edit / svg and http / svg; the edit's median is also
shown against the issue's 250 ms. Not a test: nothing here fails on a slow machine.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .run import stats

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau "
         "upsilon phi chi psi omega").split()


def make_deck(tmp: Path, rows: int) -> Path:
    """A `pnp new` folder from a sheet of ``rows`` cards; its spec's path."""
    rnd = random.Random(48)
    lines = ["name,text,copies"] + [f"Card {i},{' '.join(rnd.choice(WORDS) for _ in range(rnd.randint(5, 25)))},1"
                                    for i in range(rows)]
    sheet = tmp / "cards500.csv"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pnp", "new", str(tmp / "deck"), "--data", str(sheet), "-q"], check=True)
    return tmp / "deck" / "deck.yaml"


def measure(rows: int, reps: int) -> dict:
    from starlette.testclient import TestClient

    from pnp.core.ir import Group, Page
    from pnp.edit.card import BLEED_MM
    from pnp.edit.server import Editor, make_app
    from pnp.render.svg import page_to_svg

    with tempfile.TemporaryDirectory(prefix="pnp-edit-bench-") as t:
        spec = make_deck(Path(t), rows)
        editor = Editor(spec)
        row = min(250, rows - 1)
        card = editor.deck.card(0, "front", row)
        w, h = card["trim_mm"]
        got = editor.deck.load()
        r = got.readies[0]
        drawing = r.faces[r.paths[row][0]].draw(r.rows[row])
        page = Page(w + 2 * BLEED_MM, h + 2 * BLEED_MM, (Group(drawing, dx=BLEED_MM, dy=BLEED_MM),), label="")
        port = 8799
        client = TestClient(make_app(editor, port), base_url=f"http://127.0.0.1:{port}")
        headers = {"X-PNP-Token": editor.token, "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
        step = [0]

        def nudge() -> dict:
            step[0] += 1
            return {"op": "set", "file": "front.yaml", "index": 1, "fields": {"x": {"mm": 4.0 + 0.5 * (step[0] % 2)}},
                    "ref": [w, h]}

        def edit():
            editor.session.apply(nudge())
            editor.deck.card(0, "front", row)

        def http():
            r1 = client.post("/api/edit", json=nudge(), headers=headers)
            r2 = client.get(f"/api/card?component=0&side=front&row={row}")
            assert r1.status_code == 200 and r2.status_code == 200, (r1.text, r2.text[:200])

        cases = {"edit": edit, "http": http, "svg": lambda: page_to_svg(page)}
        for fn in cases.values():  # warm: fonts, caches, the first read of the deck
            fn()
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(reps):
            for name, fn in cases.items():
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    res = {name: stats(v) for name, v in times.items()}
    floor = res["svg"]["median"]
    return {"rows": rows, "reps": reps, "seconds": res,
            "ratio": res["edit"]["median"] / floor, "http_ratio": res["http"]["median"] / floor,
            "edit_ms": res["edit"]["median"] * 1000, "target_ms": 250}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=500)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    got = measure(args.rows, args.reps)
    s = got["seconds"]
    print(f"{got['rows']} rows, {got['reps']} runs each (medians): edit {s['edit']['median'] * 1000:.1f} ms, "
          f"through HTTP {s['http']['median'] * 1000:.1f} ms, SVG writer alone {s['svg']['median'] * 1000:.2f} ms")
    print(f"ratio edit / svg {got['ratio']:.1f}, http / svg {got['http_ratio']:.1f}; "
          f"edit {got['edit_ms']:.0f} ms of the {got['target_ms']} ms target")
    if args.out:
        args.out.write_text(json.dumps(got, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
