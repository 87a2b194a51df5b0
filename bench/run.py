"""Benchmarks of pnp (docs/performance.md). Run: `python -m bench [--quick]`. Prints a table, writes
bench/results.json.

Every case measures pnp and its floor in the same run, alternately (pnp, floor, pnp, floor, ...), at
least 5 times each, and quotes min / median / max of both CPU time and wall time. Ratios are of CPU
medians: the machine is shared with other work, and a process's CPU time (user + system, read with
resource.getrusage(RUSAGE_CHILDREN) around the child) does not count the time it waited for a core;
wall ratios are printed beside them.
  a  cold `pnp build` of every kit (PDF + SVG) as a whole process, against two floors measured
     in the same run: a cold `python -c "import reportlab.pdfgen.canvas"` (target 5: <= 9x) and a
     cold import of pnp's own stack, `python -c "import reportlab.pdfgen.canvas, svgwrite, yaml,
     typer, pydantic"` (<= 5x; docs/performance.md). Bytecode is cached (`__pycache__`, written by
     an untimed first build), as an installed pnp has it.
  b  the same in-process, warm; compared with a bare-reportlab floor (same primitives, same pages)
     and a bare-svgwrite floor (the same, plus pnp's embedded-font <style>)
  c  NetMatch decks of 1,000 / 10,000 / 100,000 words as whole processes: PDF only against a
     bare-reportlab script drawing exactly pnp's word-card pages, what repeats drawn once as Form
     XObjects (bench/floor_cards.py, its layout taken from a pure word-card page; targets 1 and 2:
     10,000 <= 1.15x, 100,000 <= 1.05x), SVG only against the same in bare svgwrite with <defs> and
     <use> (target 3: 10,000 <= 1.2x), PDF + SVG for time and peak RSS (target 4: 100,000 words
     <= 190 MiB)
  d  the Nonads enumerator for n=4, k=8 and n=5, k=12 under C4 and D4
  e  a 1,000-row data-driven deck (pnp.custom) against NetMatch's kit with 1,000 words, whole
     processes, PDF and PDF + SVG (target 6: <= 1.5x; bench/custom_deck.py), and a card's cost in
     each, from the same at 5,000 cards (target 7: <= 1.3x); PDF only, the deck's card also against
     bare reportlab drawing the same card pages (bench/floor_deck.py)
  g  the five built-in games, a cold `pnp build` of them, against another checkout (--against, e.g.
     the tree at e8cf2c7), alternately (issue 47: <= 1.05x)
Every case of a, b, c and e records pnp's estimate of its time (bench/estimates.py) beside it.

Measure another checkout of pnp with this bench by running it from there (`cd OTHER && python -m
bench --out FILE`, with this bench/ copied in): the processes it starts import the pnp that the
bench imported.
"""
from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .estimates import estimate, record

HERE = Path(__file__).resolve().parent


def stats(samples: list[float]) -> dict:
    return {"min": min(samples), "median": statistics.median(samples), "max": max(samples), "n": len(samples)}


def timed(fn) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of ``fn()``."""
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


_REPORT_RSS = ("import atexit, os, resource, runpy, sys\n"
               "def _report():\n"
               "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
               "    try:\n"
               "        peak = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
               "    except (OSError, StopIteration):\n"
               "        pass\n"
               "    open(os.environ['PNP_BENCH_RSS'], 'w').write(str(peak))\n"
               "atexit.register(_report)  # run at exit, after pnp's command has returned\n"
               "sys.argv = ['pnp'] + sys.argv[2:]\n"
               "runpy.run_module('pnp', run_name='__main__')\n")
# the same for a script file (the floors): run it as __main__ with its folder first on the path, as
# `python SCRIPT` would (bench/floor_deck.py imports bench/floor_cards.py), then report the peak
_REPORT_RSS_SCRIPT = _REPORT_RSS.replace(
    "sys.argv = ['pnp'] + sys.argv[2:]",
    "sys.argv = sys.argv[2:]\nsys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))").replace(
    "runpy.run_module('pnp', run_name='__main__')", "runpy.run_path(sys.argv[0], run_name='__main__')")


AGAINST: Path | None = None
"""``--against ROOT``: another checkout of pnp (the tree before a change) whose builds cases c and e
run too, alternately with this one's, in the same run."""


def against_env(root: Path | None) -> dict | None:
    """The environment a measured process needs to import the pnp in ``root`` (None: this bench's)."""
    return None if root is None else {"PYTHONPATH": str(root)}


def run_process(args: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, float]:
    """Run `python -m pnp ARGS...` in a fresh process; return (wall seconds, CPU seconds, its peak RSS
    in MiB).

    The process reads its own high-water mark (VmHWM) at exit: on Linux, getrusage's ru_maxrss
    survives exec, so a child would report its parent's size whenever the parent was larger."""
    return run_script(["-c", _REPORT_RSS, "--"] + args, cwd, env)


def _env(rss_file: Path) -> dict:
    """The environment of a measured process: the same pnp this bench imported (so a checkout of
    an older pnp can be measured with this bench: run it from that checkout)."""
    import pnp
    root = str(Path(pnp.__file__).resolve().parent.parent)
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PNP_BENCH_RSS=str(rss_file), PYTHONPATH=path)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed pnp has its bytecode cached: so do the measured runs
    return env


def run_script(argv: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, float]:
    """Run `python ARGV...` in a fresh process (the `-c` script reports its peak RSS, or the
    wrapper below does); return (wall seconds, CPU seconds of the child: user + system, peak RSS in
    MiB)."""
    rss_file = cwd / "rss.txt"
    rss_file.unlink(missing_ok=True)
    if argv[0] != "-c":
        argv = ["-c", _REPORT_RSS_SCRIPT, "--"] + argv
    cpu = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.run([sys.executable] + argv, cwd=cwd, env={**_env(rss_file), **(env or {})},
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    cpu = _children_cpu() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv[3:])} failed:\n{proc.stderr.decode()}")
    return wall, cpu, (int(rss_file.read_text()) / 1024 if rss_file.exists() else None)


def word_list(n: int, path: Path) -> Path:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    words = ["".join(p) for p in itertools.product(letters, repeat=4)]
    random.Random(7).shuffle(words)
    path.write_text("\n".join(words[:n]) + "\n", encoding="utf-8")
    return path


def ratio(ours: dict, base: dict) -> float:
    return ours["median"] / base["median"]


def alternate(pairs: dict, reps: int) -> dict:
    """Run each named measurement ``reps`` times, round-robin (so drift hits them all alike);
    each returns (wall seconds, CPU seconds, peak RSS MiB or None). Returns name -> {"seconds" (wall),
    "cpu_seconds", "peak_rss_mib"}."""
    got: dict = {name: ([], [], []) for name in pairs}
    for _ in range(reps):
        for name, fn in pairs.items():
            wall, cpu, rss = fn()
            got[name][0].append(wall)
            got[name][1].append(cpu)
            if rss is not None:
                got[name][2].append(rss)
    return {name: {"seconds": stats(w), "cpu_seconds": stats(c), **({"peak_rss_mib": stats(r)} if r else {})}
            for name, (w, c, r) in got.items()}


def ratios(res: dict, ours: str, floor: str, prefix: str = "") -> dict:
    """CPU and wall ratios of the medians of ``ours`` to ``floor`` in ``res``."""
    return {f"{prefix}ratio": ratio(res[ours]["cpu_seconds"], res[floor]["cpu_seconds"]),
            f"{prefix}wall_ratio": ratio(res[ours]["seconds"], res[floor]["seconds"])}


STACK_IMPORT = "import reportlab.pdfgen.canvas, svgwrite, yaml, typer, pydantic"
"""Case (a)'s second floor: a cold import of the libraries a pnp build stands on."""


def case_a(tmp: Path, reps: int) -> dict:
    """Target 5: a cold `pnp build` of every kit (PDF + SVG) against a cold
    `python -c "import reportlab.pdfgen.canvas"` and against a cold import of pnp's stack
    (STACK_IMPORT), alternately: the build once with the font-subset cache filled (a rebuild; the
    cache lives in OUT/.pnp/cache, here $PNP_CACHE_DIR), once with it empty (a build into a new
    --out: the questions deck's Greek and Cyrillic pages are subset with fontTools)."""
    counter = itertools.count()

    warm = {"PNP_CACHE_DIR": str(tmp / "cache-warm")}  # the font-subset cache a rebuild finds filled

    def build():
        out = tmp / f"a{next(counter)}"
        res = run_process(["build", "--out", str(out)], tmp, warm)
        shutil.rmtree(out)
        return res

    def floor():
        wall, cpu, _ = run_script(["-c", "import reportlab.pdfgen.canvas"], tmp)
        return wall, cpu, None

    def stack():
        wall, cpu, _ = run_script(["-c", STACK_IMPORT], tmp)
        return wall, cpu, None

    empty_counter = itertools.count()

    def empty():  # a build whose font-subset cache is empty (a new machine)
        i = next(empty_counter)
        out = tmp / f"a-empty{i}"
        res = run_process(["build", "--out", str(out)], tmp, {"PNP_CACHE_DIR": str(tmp / f"cache{i}")})
        shutil.rmtree(out)
        return res

    build()  # the first build of a machine fills the disk caches (bytecode, font subset); not timed
    res = alternate({"pnp": build, "floor": floor, "stack": stack, "pnp_empty_font_cache": empty}, reps)
    res["estimates"] = {"pnp": record(res["pnp"], estimate(["build", "--format", "pdf,svg"], tmp))}
    res.update(ratios(res, "pnp", "floor"))
    res.update(ratios(res, "pnp", "stack", "stack_"))
    res.update(ratios(res, "pnp_empty_font_cache", "floor", "empty_cache_"))
    return res


FIVE_GAMES = ("nonads", "nooks", "numeria", "netmatch", "nonaga")


def case_g(tmp: Path, reps: int) -> dict:
    """The five built-in games, a cold `pnp build` of them as a whole process (default formats, a new
    --out each time, the font-subset cache filled), this tree against the tree named by --against,
    alternately (issue 47's target: <= 1.05x, within noise). ``ratio``: this tree / the other's, of
    the CPU medians (``wall_ratio``: of the wall medians).

    Raises:
        SystemExit: no --against tree was given."""
    if AGAINST is None:
        raise SystemExit("case g compares two trees: give --against OTHER_CHECKOUT")
    counter = itertools.count()
    warm = {"PNP_CACHE_DIR": str(tmp / "cache-g")}

    def build(root):
        def go():
            out = tmp / f"g{next(counter)}"
            res = run_process(["build", *FIVE_GAMES, "--out", str(out)], tmp, {**warm, **(against_env(root) or {})})
            shutil.rmtree(out)
            return res
        return go

    build(None)()  # untimed: the font-subset cache filled, this tree's bytecode cached
    build(AGAINST)()
    res = alternate({"pnp": build(None), "before": build(AGAINST)}, reps)
    res.update(ratios(res, "pnp", "before"))
    return res


def case_b(tmp: Path, reps: int) -> dict:
    from pnp.core.fonts import font_path
    from pnp.engine import registry
    from pnp.pipeline.execute import build_kit
    from pnp.pipeline.plan import load_target
    from pnp.pipeline.plan import context as plan_context
    from pnp.layout.impose import impose
    from pnp.layout.paper import load_sheet
    from pnp.render.svg import BASE_CHARS
    from pnp.render.svgfont import font_face_css

    from .floor import count_primitives, reportlab_floor, svgwrite_floor

    from pnp.render.pdf import PdfWriter
    from pnp.render.svg import page_to_svg

    games = list(registry())
    counts, pages = [], []
    for g in games:  # the primitives pnp draws, page by page, for the floors to copy
        loaded = load_target(g)
        comps = loaded.game.components(loaded.spec, plan_context(loaded))
        pages += list(impose(loaded.spec.title or loaded.game.title, comps, load_sheet("a4")).pages)
    counts = count_primitives(pages)
    css = font_face_css(BASE_CHARS)

    def backend_pdf():  # pnp's PDF backend alone, on the imposed pages (no specs, checks or files)
        w = PdfWriter(io.BytesIO())
        for page in pages:
            w.add(page)
        w.close()

    def backend_svg():
        for page in pages:
            page_to_svg(page)

    def floor_pdf_mem():
        reportlab_floor(counts, str(font_path()))

    def floor_svg_mem():
        svgwrite_floor(counts, css)

    def pnp(fmt):
        return lambda: [build_kit(g, formats=(fmt,), out=tmp / "b") for g in games]

    def floor_pdf():
        (tmp / "floor.pdf").write_bytes(reportlab_floor(counts, str(font_path())))

    def floor_svg():
        for i, s in enumerate(svgwrite_floor(counts, css)):
            (tmp / f"floor-{i}.svg").write_text(s, encoding="utf-8")

    def in_process(fn):
        return lambda: (*timed(fn), None)

    pnp("pdf")(), floor_pdf(), pnp("svg")(), floor_svg()  # warm-up
    res = {}
    for fmt, floor in (("pdf", floor_pdf), ("svg", floor_svg)):
        got = alternate({"pnp": in_process(pnp(fmt)), "floor": in_process(floor)}, reps)
        res[fmt] = {**got, **ratios(got, "pnp", "floor")}
    for fmt, ours_fn, floor in (("pdf", backend_pdf, floor_pdf_mem), ("svg", backend_svg, floor_svg_mem)):
        ours_fn(), floor()
        got = alternate({"pnp": in_process(ours_fn), "floor": in_process(floor)}, reps)
        res[f"{fmt}_backend"] = {**got, **ratios(got, "pnp", "floor")}
    res["pdf+svg"] = alternate({"pnp": in_process(lambda: [build_kit(g, formats=("pdf", "svg"), out=tmp / "b")
                                                           for g in games])}, reps)
    res["estimates"] = {fmt: record(res[key]["pnp"], estimate(["build", "--format", fmt], tmp, in_process=True))
                        for key, fmt in (("pdf", "pdf"), ("svg", "svg"), ("pdf+svg", "pdf,svg"))}
    total = sum(sum(c.values()) for c in counts)
    res["pages"], res["primitives"] = len(counts), total
    return res


def flat_shapes(items):
    """pnp's IR shapes (Rect, Line, Text; untransformed Groups opened) as the floors' shape dicts, mm,
    y down; a text's "page N of M" as "page {page} of {total}", for the floor to fill in."""
    from pnp.core.fonts import styled_face
    from pnp.core.ir import Group, Line, Rect, Text

    for s in items:
        if isinstance(s, Group):
            assert not (s.dx or s.dy or s.rotate or s.clip), s
            yield from flat_shapes(s.children)
        elif isinstance(s, Rect):
            yield {"type": "rect", "x": s.x, "y": s.y, "w": s.w, "h": s.h, "fill": s.fill}
        elif isinstance(s, Line):
            yield {"type": "line", "x1": s.x1, "y1": s.y1, "x2": s.x2, "y2": s.y2, "stroke": s.stroke,
                   "width": s.stroke_width}
        else:
            assert isinstance(s, Text) and s.valign == "baseline" and not s.rotate, s
            text = _PAGE_NUMBER.sub("page {page} of {total}", s.text.replace("{", "{{").replace("}", "}}"))
            yield {"type": "text", "x": s.x, "y": s.y, "size": s.size_pt, "anchor": s.anchor, "fill": s.fill,
                   "text": text, "font": styled_face(s.font, s.bold)}


_PAGE_NUMBER = re.compile(r"page \d+ of \d+")


def _keyed(s) -> bool:
    from pnp.core.ir import Group
    return isinstance(s, Group) and (s.key is not None or any(_keyed(k) for k in s.children))


def furniture(page, cards: list) -> list[dict]:
    """Everything on ``page`` but the ``cards`` (its clipped card groups), as the floors draw it: per
    group its frame (dx, dy, rotate), its shapes (:func:`flat_shapes`) and whether pnp draws it once
    (``key``: it or a group inside it is keyed), so the floors draw those once too."""
    from pnp.core.ir import Group

    out = []
    for s in page.items:
        if s in cards:
            continue
        g = s if isinstance(s, Group) else Group((s,))
        out.append({"key": _keyed(g), "dx": g.dx, "dy": g.dy, "rotate": g.rotate, "items": list(flat_shapes(g.children))})
    return out


def card_layout(words: Path, path: Path) -> dict:
    """What pnp draws on a full word-card page of the NetMatch kit built from ``words``, for the
    matched floors (bench/floor_cards.py): computed with pnp, untimed, written to ``path``. Keyed groups
    (drawn once by pnp) are marked so the floors draw them once too."""
    from xml.etree import ElementTree

    from pnp.core.fonts import BOLD_FACE, DEFAULT_FACE, cap_height, face as font_face, styled_face
    from pnp.core.ir import Group, Text
    from pnp.pipeline.plan import Request, load_paper, plan as plan_kits
    from pnp.layout.impose import impose
    from pnp.layout.paper import load_sheet
    from pnp.render.svg import FONT_STACK, page_to_svg
    from pnp.render.svgfont import font_stack

    from pnp.pipeline.execute import metadata
    [tp] = plan_kits(["netmatch"], Request(load_paper("a4"), overrides={"words": words})).targets
    comps = tp.components
    title = tp.info.title
    sheet = load_sheet("a4")
    imposed = impose(title, comps, sheet, tp.opts)
    total = imposed.total
    # a pure word-card page: every part on it is a word card, and it holds as many as any page does
    # (the first card page also holds pawns, so it is not what most pages of a large deck look like)
    best = (0, 0, None)
    for i, p in enumerate(imposed.pages, start=1):
        if len(p.placements) > best[0] and {q.name for q in p.placements} == {comps[0].name}:
            best = (len(p.placements), i, p)
    _, first, page = best
    meta = metadata(tp)
    card = comps[0]
    cards = [g for g in page.items if isinstance(g, Group) and g.clip is not None]
    [face] = [k for k in cards[0].children if isinstance(k, Group) and k.key is not None]
    texts = [t for t in cards[0].children if isinstance(t, Text)]
    big, small = sorted(texts, key=lambda t: -t.size_pt)
    # the word boxes as specs/netmatch/card.yaml sets them: 4 mm in from each side, 40 pt at most; half
    # the card's width, 11 pt at most (fit: box: as large as the box's width allows)
    boxes = []
    for t, w, most in ((big, card.width - 8, 40.0), (small, card.width / 2, 11.0)):
        font = styled_face(t.font, t.bold)
        boxes.append({"x": t.x, "y": t.y, "w": w, "size": most, "rotate": t.rotate, "fill": t.fill, "font": font,
                      "cap": cap_height(font)})
    groups = furniture(page, cards)
    root = ElementTree.fromstring(page_to_svg(page))  # the @font-face rules pnp embeds on this page
    css = [el.text for el in root.iter("{http://www.w3.org/2000/svg}style")]
    layout = {
        "page": [page.width, page.height], "card": [card.width, card.height],
        "slots": [[g.dx, g.dy] for g in cards], "face": list(flat_shapes(face.children)), "word_boxes": boxes,
        "groups": groups,
        "fonts": {f: str(font_face(f).path) for f in (DEFAULT_FACE, BOLD_FACE)}, "regular": DEFAULT_FACE,
        "font_stacks": {DEFAULT_FACE: FONT_STACK, BOLD_FACE: font_stack(BOLD_FACE)},
        "title": meta["title"],
        "desc": f"Page {{page}} of {{total}}: {page.label}. {meta['title']}"
                f"{', ' + meta['credit'] if meta.get('credit') else ''}.",
        "first_page": first, "total_pages": total, "css": css,
    }
    path.write_text(json.dumps(layout), encoding="utf-8")
    return layout


def case_c(tmp: Path, sizes: list[int], reps: int, svg_sizes: list[int]) -> dict:
    """Targets 1-3: NetMatch decks as whole processes. PDF only against the matched reportlab floor,
    SVG only against the matched svgwrite floor (sizes in ``svg_sizes``), and PDF + SVG for time and
    peak RSS (target 4: <= 190 MiB at 100,000 words; ``rss_ratio``: the peak at the largest deck over
    the peak at 1,000 words)."""
    floor_script = str(HERE / "floor_cards.py")
    res = {}
    for n in sizes:
        words = word_list(n, tmp / f"w{n}.txt")
        layout = tmp / f"layout{n}.json"
        card_layout(words, layout)
        r = reps  # at least 5 for every deck
        counter = itertools.count()

        def pnp(fmt, root: Path | None = None):
            def run():
                out = tmp / f"c{n}-{next(counter)}"
                got = run_process(["build", "netmatch", "--words", str(words), "--out", str(out), "--format", fmt],
                                  tmp, against_env(root))
                shutil.rmtree(out)
                return got
            return run

        def floor(kind):
            def run():
                out = tmp / f"floor{n}-{next(counter)}{'.pdf' if kind == 'pdf' else ''}"
                got = run_script([floor_script, kind, str(layout), str(words), str(out)], tmp)
                shutil.rmtree(out) if out.is_dir() else out.unlink()
                return got
            return run

        runs = {"pdf": pnp("pdf"), "pdf_floor": floor("pdf")}
        if n in svg_sizes:
            runs.update({"svg": pnp("svg"), "svg_floor": floor("svg")})
        runs["pdf+svg"] = pnp("pdf,svg")
        if AGAINST is not None:  # the same builds with the tree before, alternately in the same run
            runs.update({f"{k}_before": pnp(k.replace("+", ","), AGAINST) for k in ("pdf", "svg", "pdf+svg")
                         if k in runs})
        got = alternate(runs, r)
        got["estimates"] = {fmt: record(got[fmt], estimate(["build", "netmatch", "--words", str(words), "--format",
                                                            fmt.replace("+", ",")], tmp))
                            for fmt in ("pdf", "svg", "pdf+svg") if fmt in got}
        got.update(ratios(got, "pdf", "pdf_floor", "pdf_"))
        if "svg" in got:
            got.update(ratios(got, "svg", "svg_floor", "svg_"))
        for k in ("pdf", "svg"):
            if f"{k}_before" in got:
                got.update(ratios(got, f"{k}_before", f"{k}_floor", f"{k}_before_"))
                got.update(ratios(got, k, f"{k}_before", f"{k}_vs_before_"))
        if "pdf+svg_before" in got:
            got.update(ratios(got, "pdf+svg", "pdf+svg_before", "pdf+svg_vs_before_"))
        res[str(n)] = got
    small, large = res[str(min(sizes))], res[str(max(sizes))]
    res["rss_ratio"] = large["pdf+svg"]["peak_rss_mib"]["median"] / small["pdf+svg"]["peak_rss_mib"]["median"]
    res["largest"] = max(sizes)
    if len(sizes) > 1:
        res["split"] = split(res, *sorted(sizes)[:2])
    return res


def split(res: dict, small: int, large: int, target: float = 1.5) -> dict:
    """The PDF builds' CPU medians of two deck sizes split into a cost per card (the difference over
    the cards between, microseconds) and a fixed cost (the smaller deck's time less its cards, seconds),
    for pnp and for its floor, with their ratios; and ``needed_per_card_ratio``: the per-card ratio to
    the floor at which pnp, keeping its fixed cost, would be ``target`` times the floor at ``large``
    cards (what a per-card cut alone must reach)."""
    out: dict = {"sizes": [small, large], "target": target}
    for k in ("pdf", "pdf_floor"):
        a, b = res[str(small)][k]["cpu_seconds"]["median"], res[str(large)][k]["cpu_seconds"]["median"]
        per = (b - a) / (large - small)
        out[k] = {"per_card_us": per * 1e6, "fixed_s": a - small * per}
    ours, floor = out["pdf"], out["pdf_floor"]
    out["per_card_ratio"] = ours["per_card_us"] / floor["per_card_us"]
    out["fixed_ratio"] = ours["fixed_s"] / floor["fixed_s"] if floor["fixed_s"] > 0 else None
    allowed = target * (floor["fixed_s"] + large * floor["per_card_us"] / 1e6) - ours["fixed_s"]
    out["needed_per_card_ratio"] = allowed / large * 1e6 / floor["per_card_us"]
    return out


def case_d(reps: int) -> dict:
    from pnp.geometry.symmetry import burnside_count, enumerate_classes
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
    parser.add_argument("--cases", default="abcde", help="which cases to run (default: abcde; p: pod PNGs against Squib)")
    parser.add_argument("--out", type=Path, default=HERE / "results.json", help="where to write the results")
    parser.add_argument("--sizes", default=None, help="case c's deck sizes, comma-separated (default: 1000,10000 "
                                                     "with --quick, else 1000,10000,100000)")
    parser.add_argument("--against", type=Path, default=None,
                        help="another pnp checkout (the tree before a change): cases c and e also build with it, case g "
                             "compares with it, "
                             "alternately, and give each ratio for it too")
    args = parser.parse_args()
    global AGAINST
    AGAINST = args.against.resolve() if args.against else None
    reps = args.reps or (3 if args.quick else 5)
    sizes = ([int(n) for n in args.sizes.split(",")] if args.sizes else
             [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000])
    import pnp
    results = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                           "platform": platform.platform()}, "reps": reps,
               "pnp": str(Path(pnp.__file__).resolve().parent),
               **({"against": str(AGAINST)} if AGAINST else {})}
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as t:
        tmp = Path(t)
        if AGAINST is not None:  # untimed: the other tree's bytecode cached, as this tree's is
            run_process(["build", "netmatch", "--out", str(tmp / "warm"), "--format", "pdf,svg"], tmp,
                        against_env(AGAINST))
        if "a" in args.cases:
            print("case a: cold pnp build (all kits, PDF + SVG) vs cold reportlab import ...", flush=True)
            results["a_cold_build"] = case_a(tmp, reps)
        if "b" in args.cases:
            print("case b: warm in-process build vs bare reportlab / svgwrite floors ...", flush=True)
            results["b_warm_vs_floor"] = case_b(tmp, reps)
        if "c" in args.cases:
            print("case c: NetMatch decks vs matched floors ...", flush=True)
            results["c_decks"] = case_c(tmp, sizes, reps, [1_000, 10_000])
        if "g" in args.cases:
            print(f"case g: the five games, cold build, against {AGAINST} ...", flush=True)
            results["g_five_games"] = case_g(tmp, reps)
        if "d" in args.cases:
            print("case d: enumerator ...", flush=True)
            results["d_enumerator"] = case_d(reps)
        if "e" in args.cases:
            from .custom_deck import case_e
            print("case e: 1,000-row data-driven deck vs NetMatch with 1,000 words ...", flush=True)
            results["e_custom_deck"] = case_e(tmp, reps)
        if "p" in args.cases:
            from .pod_deck import case_p
            print("case p: print-on-demand PNGs of 1,000 poker cards vs Squib; peak RSS at 300 and 3,000 ...", flush=True)
            results["p_pod"] = case_p(tmp, reps)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(table(results))


TARGETS = {"a": "<= 9x (stretch 7x)", "a_stack": "<= 5x", "c10000pdf": "<= 1.15x (stretch 1.05x)",
           "c100000pdf": "<= 1.05x", "c10000svg": "<= 1.2x", "rss100000": "<= 190 MiB (stretch 160)"}


def _row(name: str, ours: dict, floor: dict | None, cpu_ratio: float | None, wall_ratio: float | None,
         target: str = "") -> str:
    """One table row: CPU and wall min / median / max of pnp and of its floor, and the ratios."""
    f_cpu = fmt_stats(floor["cpu_seconds"]) if floor else ""
    f_wall = fmt_stats(floor["seconds"]) if floor else ""
    r = f"{cpu_ratio:.2f}x" if cpu_ratio is not None else ""
    w = f"{wall_ratio:.2f}x" if wall_ratio is not None else ""
    r = f"**{r}**" if r else ""
    return (f"| {name} | {fmt_stats(ours['cpu_seconds'])} | {f_cpu} | {r} | {fmt_stats(ours['seconds'])} | "
            f"{f_wall} | {w} | {target} |")


def table(r: dict) -> str:
    rows = ["| case | pnp CPU min / median / max | floor CPU | CPU ratio | pnp wall | floor wall | wall ratio | target |",
            "|---|---|---|---|---|---|---|---|"]
    if "a_cold_build" in r:
        a = r["a_cold_build"]
        rows.append(_row("(a) cold `pnp build`, all kits, PDF+SVG (floor: cold `import reportlab.pdfgen.canvas`)",
                         a["pnp"], a["floor"], a["ratio"], a["wall_ratio"], TARGETS["a"]))
        if "stack" in a:
            rows.append(_row(f"(a) the same (floor: cold `{STACK_IMPORT}`)", a["pnp"], a["stack"],
                             a["stack_ratio"], a["stack_wall_ratio"], TARGETS["a_stack"]))
        if "pnp_empty_font_cache" in a:
            rows.append(_row("(a) the same with an empty font-subset cache (first build on a machine)",
                             a["pnp_empty_font_cache"], a["floor"], a["empty_cache_ratio"], a["empty_cache_wall_ratio"]))
    if "b_warm_vs_floor" in r:
        b = r["b_warm_vs_floor"]
        for fmt in ("pdf", "svg"):
            rows.append(_row(f"(b) warm build, all kits, {fmt.upper()} only", b[fmt]["pnp"], b[fmt]["floor"],
                             b[fmt]["ratio"], b[fmt]["wall_ratio"]))
        for fmt in ("pdf", "svg"):
            d = b[f"{fmt}_backend"]
            rows.append(_row(f"(b) {fmt.upper()} backend alone, the same {b['pages']} imposed pages, in memory",
                             d["pnp"], d["floor"], d["ratio"], d["wall_ratio"]))
        rows.append(_row(f"(b) warm build, all kits, PDF+SVG ({b['pages']} pages, {b['primitives']} primitives)",
                         b["pdf+svg"]["pnp"], None, None, None))
    if "c_decks" in r:
        c = r["c_decks"]
        for n, d in c.items():
            if not isinstance(d, dict) or not n.isdigit():
                continue
            rows.append(_row(f"(c) NetMatch {int(n):,} words, PDF (floor: matched reportlab)", d["pdf"], d["pdf_floor"],
                             d["pdf_ratio"], d["pdf_wall_ratio"], TARGETS.get(f"c{n}pdf", "")))
            if "svg" in d:
                rows.append(_row(f"(c) NetMatch {int(n):,} words, SVG (floor: matched svgwrite)", d["svg"],
                                 d["svg_floor"], d["svg_ratio"], d["svg_wall_ratio"], TARGETS.get(f"c{n}svg", "")))
            for k in ("pdf", "svg"):
                if f"{k}_before" in d:
                    rows.append(_row(f"(c) the same, {k.upper()}, the tree before (`--against`)", d[f"{k}_before"],
                                     d[f"{k}_floor"], d[f"{k}_before_ratio"], d[f"{k}_before_wall_ratio"]))
                    rows.append(_row(f"(c) the same, {k.upper()}: this tree against the tree before", d[k],
                                     d[f"{k}_before"], d[f"{k}_vs_before_ratio"], d[f"{k}_vs_before_wall_ratio"]))
            rss = d["pdf+svg"]["peak_rss_mib"]
            rows.append(_row(f"(c) NetMatch {int(n):,} words, PDF+SVG; peak RSS {fmt_stats(rss, 'MiB')}",
                             d["pdf+svg"], None, None, None, TARGETS.get(f"rss{n}", "")))
        if "split" in c:
            sp, ours, floor = c["split"], c["split"]["pdf"], c["split"]["pdf_floor"]
            lo, hi = sp["sizes"]
            fixed = f"{sp['fixed_ratio']:.2f}x" if sp["fixed_ratio"] is not None else ""
            rows.append(f"| (c) PDF, a card ({lo:,} to {hi:,} words) | {ours['per_card_us']:.0f} us | "
                        f"{floor['per_card_us']:.0f} us | **{sp['per_card_ratio']:.2f}x** | | | | |")
            rows.append(f"| (c) PDF, fixed cost (a {lo:,}-word build less its cards) | {ours['fixed_s']:.2f} s | "
                        f"{floor['fixed_s']:.2f} s | **{fixed}** | | | | |")
            rows.append(f"| (c) PDF, {hi:,} words: the per-card ratio that would give {sp['target']:g}x with this "
                        f"fixed cost | | | {sp['needed_per_card_ratio']:.2f}x | | | | |")
    for name, d in r.get("d_enumerator", {}).items():
        rows.append(f"| (d) enumerator {name} ({d['classes']:,} classes) | | | | {fmt_stats(d['seconds'])} | | | |")
    if "e_custom_deck" in r:
        from .custom_deck import rows as e_rows
        rows += e_rows(r["e_custom_deck"])
    if "p_pod" in r:
        from .pod_deck import rows as p_rows
        rows += p_rows(r["p_pod"])
    from .estimates import rows as estimate_rows
    rows += estimate_rows(r)
    return "\n".join(rows)


if __name__ == "__main__":
    main()
