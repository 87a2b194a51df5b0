"""`pnp build`, `pnp validate`, `pnp diff` and `pnp preview`: plan every target before any is
written (pnp.pipeline.plan), then write kit by kit with a progress line (pnp.pipeline.execute)."""
from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import typer

from ..core.errors import PnpError, ValidationFailed
from ..core.findings import FAIL, PASS, WARN
from ..core.plaintext import plain
from ..pipeline.diff import compare, read_old
from ..pipeline.execute import execute_target
from ..pipeline.parts import parts_of
from ..pipeline.plan import RULES_MODES, Request, plan
from ..render.formats import DEFAULT_FORMATS, WriterSettings
from .app import app
from .console import Console, console, guard
from .options import (COLOUR_HELP, DUPLEX_HELP, FORMAT_HELP, ICC_HELP, LANG_HELP, OUT_HELP, PAPER_HELP, PDFX_HELP,
                      QUIET_HELP, SERVICE_NAMES, SET_HELP, SHOWCASE_HELP, SVG_TEXT_HELP, WORDS_HELP, WORKERS_HELP,
                      colour_settings, destination_settings, impose_options, out_folder, request_of, svg_text_option,
                      targets, with_cutter, with_showcase, workers_option)

LONG_BUILD_SECONDS = 2.0  # a build estimated longer than this says its pages and time before drawing


@app.command()
def build(
    ctx: typer.Context,
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to build (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP),
    fmt: List[str] = typer.Option(list(DEFAULT_FORMATS), "--format", "-f", help=FORMAT_HELP),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    sets: List[str] = typer.Option([], "--set", help=SET_HELP),
    words: Optional[Path] = typer.Option(None, "--words", help=WORDS_HELP),
    bleed: str = typer.Option("0", "--bleed", help="Bleed past the trim, mm, 0-10 (a print shop wants 3)."),
    duplex: str = typer.Option("none", "--duplex", help=DUPLEX_HELP),
    back_offset: str = typer.Option("0,0", "--back-offset", help="DX,DY mm added to back sheets (see `pnp calibrate`)."),
    printer: Optional[str] = typer.Option(None, "--printer", help="Apply the --back-offset kept for this printer by "
                                                                  "`pnp calibrate --measure ... --save-printer NAME`."),
    mix_papers: bool = typer.Option(False, "--mix-papers", help="Let parts of different paper (card stock, plain "
                                                               "paper for boards) share a sheet: fewer sheets."),
    cut_lines: bool = typer.Option(False, "--cut-lines", help="Draw a thin grey line at the trim of round and "
                                                             "rounded parts (over the artwork; crop marks are "
                                                             "always drawn outside the trim)."),
    tts_url: Optional[str] = typer.Option(None, "--tts-url", help="--format tts: base URL where you host the images "
                                                                 "(default: file:/// paths on this computer)."),
    service: Optional[str] = typer.Option(None, "--service", help="--format pod: " + SERVICE_NAMES + "."),
    showcase: Optional[str] = typer.Option(None, "--showcase", help=SHOWCASE_HELP),
    showcase_width: Optional[int] = typer.Option(None, "--showcase-width", help="--format showcase: the pictures' "
                                                 "width in pixels, 200-4000 (default 1600)."),
    svg_text: str = typer.Option("text", "--svg-text", help=SVG_TEXT_HELP),
    cutter: Optional[str] = typer.Option(None, "--cutter", help="Print-then-cut: silhouette (registration marks on "
                                                                 "every sheet and in the cutter SVG), or cricut (one "
                                                                 "Print Then Cut image and cut SVG per sheet)."),
    colour: Optional[str] = typer.Option(None, "--colour", help=COLOUR_HELP),
    pdfx: bool = typer.Option(False, "--pdfx", help=PDFX_HELP),
    icc: Optional[Path] = typer.Option(None, "--icc", help=ICC_HELP),
    reprint: bool = typer.Option(False, "--reprint", help="Also write <game>-reprint-<paper>.pdf: only the parts new "
                                                          "or changed since the kit this build replaces, and what to "
                                                          "take out of the deck."),
    proof: bool = typer.Option(False, "--proof", help="Print the kit's version (fingerprint and date) small and grey "
                                                      "on every part and sheet."),
    workers: Optional[int] = typer.Option(None, "--workers", help=WORKERS_HELP),
    rules: str = typer.Option("cover", "--rules", help="Where the rules go: cover (the kit's cover), or booklet (also "
                                                       "<game>-rules-booklet-<paper>.pdf: A5 pages on A4, half-Letter "
                                                       "on Letter, two-sided, to fold and staple)."),
    lang: Optional[str] = typer.Option(None, "--lang", help=LANG_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Build kits into OUT/<game>/: the PDF, one SVG per page and a manifest. Every target is checked
    before any is written."""
    con = console(ctx, quiet)
    with guard():
        settings = replace(destination_settings(tts_url, service), svg_text=svg_text_option(svg_text),
                           workers=workers_option(workers), **colour_settings(colour, pdfx, icc))
        if printer is not None:
            from ..calibration.printers import printer_offset  # only --printer reads the printers file
            duplex, back_offset = printer_offset(printer, duplex, back_offset)
        opts = impose_options(bleed, duplex, back_offset, mix_papers, cut_lines)
        request = with_cutter(request_of(paper, fmt, sets, words, opts, settings), cutter)
        request = with_showcase(request, showcase, showcase_width)
        if rules not in RULES_MODES:
            raise PnpError(f"--rules {rules!r} is not one of {', '.join(RULES_MODES)}.", field="--rules",
                           hint="write --rules booklet for a rules booklet, or leave it out")
        request = replace(request, reprint=reprint, proof=proof, rules=rules, language=lang)
        out = out_folder(out_dir)
        _run(con, plan(targets(games), request, con.note), out)


def _run(con: Console, build_plan, out: Path, report=None) -> None:
    """Execute a plan target by target with a progress line, printing each kit's notes and report."""
    for tp in build_plan.targets:
        start = time.perf_counter()
        if tp.budget is not None and tp.budget.seconds > LONG_BUILD_SECONDS:
            con.note(f"{tp.loaded.game.name}: {tp.budget.describe()} to draw.")
        with con.progress(f"building {tp.target}") as progress:
            result = execute_target(tp, build_plan.request, out, progress, on_wait=con.note)  # -q silences it
        for text in result.notes:
            con.note(text)
        con.say((report or _report)(result, time.perf_counter() - start))


def _report(result, seconds: float) -> str:
    size = sum(f.stat().st_size for f in result.files)
    return (f"{result.game}: {result.pages} pages on {result.paper}, {len(result.files)} files, "
            f"{size / 1024:.0f} KiB, {seconds:.1f} s -> {result.files[0].parent}")


@app.command()
def validate(
    ctx: typer.Context,
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to check (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP + " The page budget and cover are checked on it."),
    sets: List[str] = typer.Option([], "--set", help=SET_HELP),
    words: Optional[Path] = typer.Option(None, "--words", help=WORDS_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON (for scripts and CI)."),
    service: Optional[str] = typer.Option(None, "--service", help="Also check card text against a print service's "
                                                                   "safe area: " + SERVICE_NAMES + "."),
    preflight: bool = typer.Option(False, "--preflight", help="Also draw the kit and check its pages as a print "
                                   "shop would: ink coverage, text size, line width, picture resolution, colours, "
                                   "fonts, safe area, bleed, text contrast and colour-blind safety (docs/print.md)."),
    bleed: Optional[str] = typer.Option(None, "--bleed", help="--preflight: bleed past the trim, mm (default: the "
                                                              "--service's, else 0)."),
    colour: Optional[str] = typer.Option(None, "--colour", help="--preflight: " + COLOUR_HELP),
    pdfx: bool = typer.Option(False, "--pdfx", help="--preflight: " + PDFX_HELP),
    icc: Optional[Path] = typer.Option(None, "--icc", help="--preflight: " + ICC_HELP),
    lang: Optional[str] = typer.Option(None, "--lang", help=LANG_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Run every check a build runs (rules checks, inputs, page budget, cover) and report whether each
    board fits each standard paper; exit 0 if all pass (warnings allowed), 1 if any fails, 2 on bad input."""
    con = console(ctx, quiet)
    failed = False
    report = []
    with guard():
        settings = replace(destination_settings(None, service), **colour_settings(colour, pdfx, icc))
        if bleed is None:
            bleed = str(settings.service.bleed) if preflight and settings.service is not None else "0"
        request = request_of(paper, list(DEFAULT_FORMATS), sets, words, impose_options(bleed, "none", "0,0"), settings, True)
        checked = plan(targets(games), replace(request, language=lang))
        for tp in checked.targets:
            loaded, findings = tp.loaded, tp.findings
            if preflight and tp.components is not None:
                findings = findings + _preflight(con, tp, request)
            failed |= any(f.status == FAIL for f in findings)
            report.append({"game": loaded.game.name, "title": loaded.game.title, "spec": str(loaded.path),
                           "findings": [_finding_json(f) for f in findings]})
            if as_json:
                continue
            con.say(f"{plain(loaded.game.title, newlines=False)} ({plain(str(loaded.path), newlines=False)})")
            for f in findings:
                label = f"{f.status.upper():7}"
                if sys.stdout.isatty():
                    label = typer.style(label, fg={PASS: "green", FAIL: "red", WARN: "yellow"}[f.status])
                con.say(f"  {label} {plain(f.check, newlines=False)}  [{plain(f.rule, newlines=False)}]")
    if as_json:
        typer.echo(json.dumps({"ok": not failed, "games": report}, indent=2, ensure_ascii=False))
    raise typer.Exit(1 if failed else 0)


def _preflight(con: Console, tp, request: Request) -> list:
    """The preflight findings of one planned kit (pnp.preflight), with a progress line."""
    from ..preflight.run import preflight  # renders every page at 300 dpi: only validate --preflight
    with con.progress(f"preflight {tp.target}") as progress:
        return tp.book.run(preflight, tp.info.title, tp.components, request.paper.sheet, tp.opts, tp.cover, tp.packing,
                         request.settings, tp.loaded.path, progress)


def _finding_json(f) -> dict:
    """A finding for --json; a preflight finding adds where it was measured (component, card, page, mm)."""
    out = {"status": f.status, "check": f.check, "rule": f.rule}
    where = getattr(f, "where", None)
    if where is not None:
        out["where"] = where.as_json()
    return out


@app.command()
def diff(
    ctx: typer.Context,
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to compare (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP + " The kit on this paper is compared."),
    out_dir: str = typer.Option("output", "--out", "-o", help="Output folder holding the kits, OUT/<game>/."),
    sets: List[str] = typer.Option([], "--set", help=SET_HELP),
    words: Optional[Path] = typer.Option(None, "--words", help=WORDS_HELP),
    since: Optional[int] = typer.Option(None, "--from", min=1, help="Compare with this earlier generation of the kit "
                                                                    "(its manifest's generation) that OUT still holds."),
    as_json: bool = typer.Option(False, "--json", help="Print the changes as JSON."),
    lang: Optional[str] = typer.Option(None, "--lang", help=LANG_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Which parts a build would add, remove or change in the kit in OUT/<game>: one line each with
    its title or key, data row and the fields that changed (without a declared key, cards are paired
    by the content of their rows, so an edited card is changed, not removed and added); a spec of
    several languages, per language kit (OUT/<game>-<code>/). Exit 0 if none, 1 if some, 2 on bad input (a failed rules check included)."""
    con = console(ctx, quiet)
    changed = False
    report = []
    with guard():
        out = out_folder(out_dir)
        try:
            planned = plan(targets(games), replace(request_of(paper, ["pdf"], sets, words), language=lang), con.note)
        except ValidationFailed as exc:  # exit 1 means "parts differ" here
            typer.echo(f"error: {plain(str(exc), newlines=False)}", err=True)
            raise typer.Exit(2) from None
        for tp in planned.targets:
            game, sheet = tp.loaded.game.name, planned.request.paper.sheet.name
            found = compare(game, sheet, read_old(out, game, sheet, since), tp.book.run(parts_of, tp.components))
            changed |= bool(found.changes)
            report.append(found.record() | ({"language": tp.ctx.language} if tp.ctx.language else {}))
            if as_json:
                continue
            counts = {k: sum(c.kind == k for c in found.changes) for k in ("added", "removed", "changed")}
            language = f" ({plain(tp.ctx.language)})" if tp.ctx.language else ""
            con.say(f"{plain(game)}{language} on {sheet}, against generation {found.old.generation}: "
                + (", ".join(f"{n} {k}" for k, n in counts.items()) if found.changes else "no part changed"))
            for text in found.notes():
                con.say(f"  note: {plain(text)}")
            for change in found.changes:
                con.say(f"  {plain(change.line())}")
    if as_json:
        typer.echo(json.dumps({"changed": changed, "kits": report}, indent=2, ensure_ascii=False))
    raise typer.Exit(1 if changed else 0)


@app.command()
def preview(
    ctx: typer.Context,
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP),
    dpi: int = typer.Option(50, "--dpi", help="Resolution of the PNGs, 10-600."),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    sets: List[str] = typer.Option([], "--set", help=SET_HELP),
    words: Optional[Path] = typer.Option(None, "--words", help=WORDS_HELP),
    workers: Optional[int] = typer.Option(None, "--workers", help=WORKERS_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Build each kit's PDF and render every page to PNG, plus one contact sheet per kit. Bounds: a
    page image at most 40 megapixels (A4 at 600 dpi; larger is refused before rendering), pages rendered
    one at a time (under 0.5 GB at any dpi), a contact sheet of at most 64 pages (a longer kit shows 64
    spread evenly, first and last included, each labelled with its page number)."""
    con = console(ctx, quiet)
    with guard():
        if not 10 <= dpi <= 600:
            raise PnpError(f"dpi {dpi} is outside 10..600.", field="--dpi", hint="50 for a quick look, 300 to print")
        request = request_of(paper, ["preview"], sets, words, settings=WriterSettings(dpi=dpi, workers=workers_option(workers)))

        def report(result, _seconds: float) -> str:
            pngs = [f for f in result.files if f.suffix == ".png"]
            return f"{result.game}: {len(pngs) - 1} pages at {dpi} dpi, contact sheet {pngs[-1]}"
        _run(con, plan(targets(games), request, con.note), out_folder(out_dir), report)
