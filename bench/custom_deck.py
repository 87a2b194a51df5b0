"""Bench case e: a 1,000-row data-driven deck against NetMatch's kit with 1,000 words.

Both are whole `pnp build` processes, run alternately in the same bench run, medians compared
(target: the data-driven deck within 1.5x of NetMatch). The deck is made to match NetMatch's word
cards: mini-euro cards, the same 1,000 words set large (shrunk to fit), a small copy turned half a
turn, a footer, a common back; each card also carries a clue wrapped over several lines, so text
fitting is measured too. NetMatch's kit has its board, pawns and tokens besides the cards.
"""
from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import yaml

from .run import alternate, flat_shapes, fmt_stats, furniture, ratio, run_process, run_script, word_list

ROWS = 1_000
LARGE = 5_000  # the second deck size: the cost of a card is the difference over the 4,000 cards between
SPEC = """title: Bench deck
designer: pnp bench
components:
  - name: word card
    size: mini-euro
    data: deck.csv
    front: front.yaml
    back: shared/card-back.yaml
checks:
  - {check: count, component: word card, equals: %d}
  - {check: unique, component: word card, columns: [word]}
"""
FRONT = """layers:
  - {type: rect, fill: "#ffffff", bleed: true}
  - {type: text, text: "{word}", x: 5mm, y: 20mm, w: 34mm, h: 16mm, size: 40, min_size: 8, fit: shrink,
     bold: true, align: center, valign: middle}
  - {type: text, text: "{word}", x: 11mm, y: 4mm, w: 22mm, h: 6mm, size: 11, min_size: 5, fit: shrink,
     align: center, valign: middle, rotate: 180, colour: "#555555"}
  - {type: text, text: "{clue}", x: 5mm, y: 40mm, w: 34mm, h: 16mm, size: 9, min_size: 5, fit: shrink, wrap: true,
     align: center}
  - {type: text, text: "Bench deck", x: 5mm, y: 59mm, w: 34mm, h: 5mm, size: 6, align: center, colour: "#555555"}
"""
RULES = ("# Bench deck\nA deck made to time pnp.\n\n## Components\n- %s word cards.\n\n## Setup\nNone.\n\n"
         "## A turn\nNone.\n\n## End and winner\nNone.\n\n## Fine points\n- None.\n")


def _deck_folder(folder: Path, files: dict[str, str], header: list[str], rows) -> Path:
    """``folder`` holding ``files`` (name -> text), the rules and deck.csv: ``header``, then ``rows``."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = list(rows)
    for name, text in {**files, "rules.md": RULES % f"{len(rows):,}"}.items():
        (folder / name).write_text(text, encoding="utf-8")
    with (folder / "deck.csv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(header)
        out.writerows(rows)
    return folder


def make_deck(folder: Path, words: Path, rows: int = ROWS) -> Path:
    """The data-driven deck folder: spec, rules, front template and a CSV of ``rows`` rows (word, clue)."""
    return _deck_folder(folder, {"bench-deck.yaml": SPEC % rows, "front.yaml": FRONT}, ["word", "clue"],
                        ([word, f"Card {i + 1}: say a sentence with {word} in it, then pass the deck to your left."]
                         for i, word in enumerate(words.read_text(encoding="utf-8").split()[:rows])))


TWIN_SPEC = """title: Twin deck
designer: pnp bench
components:
  - name: word card
    size: mini-euro
    data: deck.csv
    front: card.yaml
    back: card-back.yaml
"""
NETMATCH = Path(__file__).resolve().parent.parent / "specs" / "netmatch"
FLOOR = Path(__file__).resolve().parent / "floor_deck.py"


def make_twin_deck(folder: Path, words: Path, rows: int = ROWS) -> Path:
    """A data-driven deck drawn as NetMatch's word cards are: NetMatch's own card.yaml and
    card-back.yaml as its templates, a CSV of ``rows`` rows (word, back_colour) as its data, no
    board, pawns or tokens. Its card costs what the engine costs a NetMatch card from a spreadsheet."""
    files = {name: (NETMATCH / name).read_text(encoding="utf-8") for name in ("card.yaml", "card-back.yaml")}
    return _deck_folder(folder, {"twin-deck.yaml": TWIN_SPEC, **files}, ["word", "back_colour"],
                        ([word, "#1f3a5f"] for word in words.read_text(encoding="utf-8").split()[:rows]))


def deck_layout(folder: Path, path: Path) -> dict:
    """What pnp draws on a full card page of the bench deck in ``folder`` (make_deck), for its matched
    floor (bench/floor_deck.py): computed with pnp, untimed, written to ``path``: page and card size,
    slots, the card's face (its keyed groups), the furniture (bench.run.furniture), the text boxes of
    FRONT with their fonts' ascent and descent, the fonts' files."""
    from pnp.core.fonts import BOLD_FACE, DEFAULT_FACE, face as font_face, styled_face
    from pnp.core.ir import Group
    from pnp.layout.impose import impose
    from pnp.layout.paper import load_sheet
    from pnp.pipeline.execute import metadata
    from pnp.pipeline.plan import Request, load_paper, plan as plan_kits

    [tp] = plan_kits([str(folder)], Request(load_paper("a4"))).targets
    imposed = impose(tp.info.title, tp.components, load_sheet("a4"), tp.opts)
    pages = list(imposed.pages)
    card = tp.components[0]
    full = max(range(len(pages)), key=lambda i: len(pages[i].placements))  # the first full card page
    page = pages[full]
    cards = [g for g in page.items if isinstance(g, Group) and g.clip is not None]
    face = [s for g in cards[0].children if isinstance(g, Group) and g.key is not None for s in flat_shapes(g.children)]
    boxes = []
    for layer in yaml.safe_load(FRONT)["layers"]:
        if layer["type"] != "text" or "{" not in layer["text"]:
            continue
        font = styled_face(DEFAULT_FACE, layer.get("bold", False))
        mm = {k: float(str(layer[k]).removesuffix("mm")) for k in ("x", "y", "w", "h")}
        boxes.append({**mm, "column": layer["text"].strip("{}"), "size": float(layer["size"]),
                      "min_size": float(layer.get("min_size", layer["size"])), "wrap": layer.get("wrap", False),
                      "valign": layer.get("valign", "top"), "rotate": float(layer.get("rotate", 0)),
                      "fill": layer.get("colour", "#000000"), "font": font, "spacing": 1.2,
                      "ascent": font_face(font).ascent, "descent": font_face(font).descent})
    layout = {"page": [page.width, page.height], "card": [card.width, card.height],
              "slots": [[g.dx, g.dy] for g in cards], "face": face, "boxes": boxes, "groups": furniture(page, cards),
              "fonts": {f: str(font_face(f).path) for f in (DEFAULT_FACE, BOLD_FACE)}, "regular": DEFAULT_FACE,
              "title": metadata(tp)["title"], "first_page": full + 1, "total_pages": imposed.total}
    path.write_text(json.dumps(layout), encoding="utf-8")
    return layout


def case_e(tmp: Path, reps: int) -> dict:
    """`pnp build DECK` and `pnp build netmatch --words`, with ROWS and with LARGE cards each, PDF and
    PDF + SVG, alternately. ``ratio``: deck / NetMatch of the CPU medians at ROWS (``wall_ratio``: of
    the wall medians); ``card_us``: each one's cost of a card, the difference of the CPU medians at
    LARGE and at ROWS over the cards between (microseconds), and ``card_ratio`` (target 4: <= 1.3x);
    ``twin_card_ratio``: the same of a deck drawn with NetMatch's own card templates (make_twin_deck),
    which separates what the engine costs from what the bench deck's card draws more; PDF only,
    ``floor_card_ratio``: the deck's card against bench/floor_deck.py, bare reportlab drawing the
    same card pages (its layout from pnp's imposition, untimed), and ``floor_ratio`` of the decks.
    Each run's estimate (pnp.layout.limits, planned untimed) is recorded beside it (``estimates``)."""
    from .estimates import estimate, record

    counter = itertools.count()
    result: dict = {"rows": ROWS, "large": LARGE}
    setups = {}
    for n in (ROWS, LARGE):
        words = word_list(n, tmp / f"e-words{n}.txt")
        setups[n] = ([str(make_deck(tmp / f"e{n}" / "bench-deck", words, n))], ["netmatch", "--words", str(words)],
                     [str(make_twin_deck(tmp / f"e{n}" / "twin-deck", words, n))])
    from . import run as bench_run
    layouts = {}  # deck size -> the floor's layout file, written untimed
    for n, (deck, _netmatch, _twin) in setups.items():
        layouts[n] = tmp / f"e-layout{n}.json"
        deck_layout(Path(deck[0]), layouts[n])
    before = bench_run.AGAINST  # --against: the tree before, built alternately too ("deck_before", ...)
    kinds = ("deck", "netmatch", "twin") + (("deck_before", "netmatch_before") if before is not None else ())
    for fmt in ("pdf", "pdf,svg"):
        def run(args, root=None):
            def go():
                out = tmp / f"e-out{next(counter)}"
                return run_process(["build", *args, "--out", str(out), "--format", fmt], tmp, bench_run.against_env(root))
            return go
        def floor(n):
            def go():
                rows = Path(setups[n][0][0]) / "deck.csv"
                return run_script([str(FLOOR), str(layouts[n]), str(rows), str(tmp / f"e-floor{next(counter)}.pdf")], tmp)
            return go
        runs = {}
        for n, (deck, netmatch, twin) in setups.items():
            suffix = "" if n == ROWS else f"_{n}"
            runs.update({f"deck{suffix}": run(deck), f"netmatch{suffix}": run(netmatch), f"twin{suffix}": run(twin)})
            if fmt == "pdf":
                runs[f"floor{suffix}"] = floor(n)
            if before is not None:
                runs.update({f"deck_before{suffix}": run(deck, before), f"netmatch_before{suffix}": run(netmatch, before)})
        got = alternate(runs, reps)
        cards = LARGE - ROWS
        card = {k: (got[f"{k}_{LARGE}"]["cpu_seconds"]["median"] - got[k]["cpu_seconds"]["median"]) / cards * 1e6
                for k in kinds + (("floor",) if fmt == "pdf" else ())}
        estimates = {}
        for n, (deck, netmatch, _twin) in setups.items():
            suffix = "" if n == ROWS else f"_{n}"
            for k, args in (("deck", deck), ("netmatch", netmatch)):
                estimates[k + suffix] = record(got[k + suffix], estimate(["build", *args, "--format", fmt], tmp))
        result[fmt] = {**got, "ratio": ratio(got["deck"]["cpu_seconds"], got["netmatch"]["cpu_seconds"]),
                       "wall_ratio": ratio(got["deck"]["seconds"], got["netmatch"]["seconds"]),
                       "card_us": card, "card_ratio": card["deck"] / card["netmatch"],
                       "twin_card_ratio": card["twin"] / card["netmatch"], "estimates": estimates}
        if fmt == "pdf":
            result[fmt].update({"floor_card_ratio": card["deck"] / card["floor"],
                                "floor_ratio": ratio(got["deck"]["cpu_seconds"], got["floor"]["cpu_seconds"])})
        if before is not None:
            result[fmt].update({"before_ratio": ratio(got["deck_before"]["cpu_seconds"],
                                                      got["netmatch_before"]["cpu_seconds"]),
                                "before_card_ratio": card["deck_before"] / card["netmatch_before"],
                                "deck_vs_before": ratio(got[f"deck_{LARGE}"]["cpu_seconds"],
                                                        got[f"deck_before_{LARGE}"]["cpu_seconds"])})
    return result


def rows(e: dict) -> list[str]:
    """Table rows of case e for bench.run.table (the columns of bench.run._row: CPU, then wall)."""
    from .run import _row
    out = []
    for fmt in ("pdf", "pdf,svg"):
        d = e[fmt]
        if "wall_ratio" not in d:  # a run from before the ratio was of CPU time
            d = {**d, "ratio": ratio(d["deck"]["cpu_seconds"], d["netmatch"]["cpu_seconds"]),
                 "wall_ratio": d["ratio"]}
        name = fmt.upper().replace(",", "+")
        out.append(_row(f"(e) data-driven deck, {e['rows']:,} rows, {name} (floor: NetMatch "
                        f"kit, {e['rows']:,} words)", d["deck"], d["netmatch"], d["ratio"], d["wall_ratio"], "<= 1.5x"))
        if "card_us" in d:
            c = d["card_us"]
            out.append(f"| (e) a card's cost, {name}: deck {c['deck']:.0f} us, NetMatch {c['netmatch']:.0f} us "
                       f"(CPU medians at {e['large']:,} less at {e['rows']:,}, over the cards between) | | | "
                       f"**{d['card_ratio']:.2f}x** | | | | <= 1.3x |")
        if "twin_card_ratio" in d:
            out.append(f"| (e) a card's cost, {name}, a deck drawn with NetMatch's own card templates from a "
                       f"spreadsheet: {d['card_us']['twin']:.0f} us, NetMatch {d['card_us']['netmatch']:.0f} us | | | "
                       f"**{d['twin_card_ratio']:.2f}x** | | | | |")
        if "floor_card_ratio" in d:
            out.append(f"| (e) a card's cost, {name}, against bare reportlab drawing the same card pages "
                       f"(bench/floor_deck.py): deck {d['card_us']['deck']:.0f} us, floor "
                       f"{d['card_us']['floor']:.0f} us | | | **{d['floor_card_ratio']:.2f}x** | | | | |")
        if "before_card_ratio" in d:
            c = d["card_us"]
            out.append(f"| (e) the same, the tree before (`--against`): deck {c['deck_before']:.0f} us, NetMatch "
                       f"{c['netmatch_before']:.0f} us a card | | | {d['before_card_ratio']:.2f}x | | | | |")
            out.append(f"| (e) the {e['large']:,}-row deck, {name}: this tree against the tree before | | | "
                       f"{d['deck_vs_before']:.2f}x | | | | |")
    return out
