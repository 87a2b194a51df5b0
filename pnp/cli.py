"""The `pnp` command (typer): build, validate, diff, list, watch, calibrate, preview. Commands stay thin:
each turns its options into typed values once, here at the edge (a loaded paper, lengths in mm,
ImposeOptions, checked format names), then calls pnp.pipeline.plan.plan() and, to write,
pnp.pipeline.execute.

A PnpError becomes one plain-text message on stderr (control characters escaped, long values cut)
and exit code 2; a failed rules check exits 1. ``-q`` silences everything but errors; ``--json``
(validate, list) prints machine-readable results on stdout.
"""
from __future__ import annotations

import gc
import json
import logging
import os
import sys
import time
import warnings
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import typer
from typer.core import TyperGroup

from . import __version__
from .core.errors import PnpError, ValidationFailed
from .core.findings import FAIL, PASS, WARN
from .inputs.resources import shipped_specs
from .pipeline.execute import execute_target
from .pipeline.plan import DEFAULT_FORMATS, RULES_MODES, Request, context, load_paper, load_target, plan
from .layout.options import DUPLEX_MODES, ImposeOptions
from .layout.paper import available_papers
from .render.writers import SVG_TEXT_MODES, WRITERS, WriterSettings
from .core.plaintext import plain
from .core.units import fmt_mm, parse_length

PAPERS = ", ".join(available_papers())


class _OneLineErrors(TyperGroup):
    """pnp's command group: an option value the option's own type refuses (``--from 0``, ``--header-row 0``, an
    integer written ``abc``, a path holding NUL) is one ``error:`` line naming the option and exit 2, as every
    other bad input, instead of click's usage text."""

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except typer.BadParameter as exc:
            name = exc.param.opts[0] if exc.param is not None and getattr(exc.param, "opts", None) else None
            shown = plain(exc.message, newlines=False).rstrip(".")
            shown = shown[:1].lower() + shown[1:]
            where = f"field {name}: {name}: " if name else ""
            typer.echo(f"error: {where}{shown}. Fix: see `pnp {ctx.invoked_subcommand or ''} -h`", err=True)
            raise typer.Exit(2) from None


app = typer.Typer(cls=_OneLineErrors, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="pnp: compile print-and-play kits (PDF, SVG) for abstract games, and prove their parts "
                       "match the rules.")
STATE = {"quiet": False}
LONG_BUILD_SECONDS = 2.0  # a build estimated longer than this says its pages and time before drawing


def _say(text: str = "") -> None:
    """Print a line on stdout unless --quiet."""
    if not STATE["quiet"]:
        typer.echo(text)


def _note(text: str) -> None:
    """Print a note on stderr unless --quiet."""
    if not STATE["quiet"]:
        typer.echo(f"note: {plain(text, newlines=False)}", err=True)


def _fail(exc: PnpError) -> None:
    """Print the error as plain text and exit 2 (1 for a failed rules check)."""
    typer.echo(f"error: {plain(str(exc), newlines=False)}", err=True)  # one line, whatever a name holds
    raise typer.Exit(1 if isinstance(exc, ValidationFailed) else 2)


@contextmanager
def _guard():
    """Turn every error a user can cause into one plain message and exit 2: a PnpError, and an
    OSError from a path the system refuses (too long, not searchable) that slipped past the checks.
    Libraries' own warnings (Pillow's decompression-bomb warning, fontTools' log records) are not printed:
    pnp checks those inputs itself and says what matters in its own notes and errors."""
    try:
        with _libraries_quiet():
            yield
    except PnpError as exc:
        _fail(exc)
    except BrokenPipeError:  # `pnp list | head`: the reader went away; stop quietly, like other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(1) from None
    except OSError as exc:
        if not getattr(exc, "filename", None):   # no file named: writing to stdout failed (> /dev/full)
            raise typer.Exit(_output_failed(exc)) from None
        _fail(PnpError(f"{exc.filename}: {exc.strerror or exc}.", hint="check the path: its length, spelling and permissions"))


@contextmanager
def _libraries_quiet():
    """While a command runs: Python warnings ignored, and log records of libraries (fontTools, svglib, ...)
    that configure no handler of their own dropped instead of printed by logging's last-resort handler."""
    root, drop = logging.getLogger(), logging.NullHandler()
    root.addHandler(drop)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.removeHandler(drop)


def _output_failed(exc: OSError) -> int:
    """Standard output cannot take what pnp prints (a full disk, /dev/full): say so in one line on
    stderr, send what is still buffered to /dev/null, and return exit code 2."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    typer.echo(f"error: cannot write to standard output: {exc.strerror or exc}. Fix: check where the output "
               "goes (a full disk, a closed pipe) and run the command again", err=True)
    return 2


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but errors."),
) -> None:
    """pnp: compile print-and-play kits (PDF, SVG) for abstract games, and prove their parts match the rules."""
    STATE["quiet"] = quiet


def _overrides(sets: list[str], words: Path | None) -> dict[str, Path]:
    """``--set NAME=FILE`` pairs (and ``--words FILE``, shorthand for ``--set words=FILE``)."""
    out: dict[str, Path] = {}
    for item in sets:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value:
            raise PnpError(f"--set {item!r} is not NAME=FILE.", field="--set",
                           hint="write e.g. --set words=my-words.txt")
        out[name.strip()] = Path(value)
    if words is not None:
        out["words"] = words
    return out


def _out(value: str) -> Path:
    """The --out folder; an empty value is refused (it would mean the current folder by accident)."""
    if not value.strip():
        raise PnpError("--out is empty.", field="--out", hint="name a folder, e.g. -o output (or -o . for this folder)")
    return Path(value)


def _split_formats(values: list[str]) -> tuple[str, ...]:
    result = []
    for v in values:
        result.extend(x.strip().lower() for x in v.split(",") if x.strip())
    return tuple(dict.fromkeys(result))


def _targets(games: list[str] | None) -> list[str]:
    """The targets given, else every shipped spec folder (specs/<name>/: the five games and the examples)."""
    return list(games) if games else shipped_specs()


def _offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError("expected two values")
        return (parse_length(parts[0]), parse_length(parts[1]))
    except ValueError as exc:
        raise PnpError(f"--back-offset {text!r} is not DX,DY in mm ({exc}).", field="--back-offset",
                       hint="write e.g. --back-offset 1.5,-0.5 (read it off `pnp calibrate`)") from None


def _options(bleed: str, duplex: str, back_offset: str, mix_papers: bool = False, cut_lines: bool = False
             ) -> ImposeOptions:
    try:
        bleed_mm = parse_length(bleed)
    except ValueError as exc:
        raise PnpError(f"--bleed: {exc}.", field="--bleed", hint="write e.g. --bleed 3") from None
    opts = ImposeOptions(bleed=bleed_mm, duplex=duplex, back_offset=_offset(back_offset), mix_papers=mix_papers,
                         cut_lines=cut_lines)
    if opts.back_offset != (0.0, 0.0) and duplex not in ("long", "short"):
        raise PnpError(f"--back-offset {back_offset} moves the backs of a two-sided print, but --duplex is {duplex}.",
                       field="--back-offset", hint="add --duplex long or --duplex short, or drop --back-offset")
    return opts


def _request(paper: str, fmt: list[str], sets: list[str], words: Path | None, opts: ImposeOptions = ImposeOptions(),
             settings: WriterSettings = WriterSettings(), full: bool = False) -> Request:
    """Every option of a command as typed values, parsed once."""
    return Request(load_paper(paper), _split_formats(fmt), opts, _overrides(sets, words), settings, full)


@contextmanager
def _progress(label: str):
    """A progress line on stderr for long work (only on a terminal, and not with --quiet)."""
    if STATE["quiet"] or not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _report(result, seconds: float) -> str:
    size = sum(f.stat().st_size for f in result.files)
    return (f"{result.game}: {result.pages} pages on {result.paper}, {len(result.files)} files, "
            f"{size / 1024:.0f} KiB, {seconds:.1f} s -> {result.files[0].parent}")


PAPER_HELP = f"Paper: {PAPERS}, or a sheet YAML file."
FORMAT_HELP = f"Output formats: {', '.join(WRITERS)} (repeat or comma-separate)."
DUPLEX_HELP = f"Backs for duplex printing: {', '.join(DUPLEX_MODES)} (the flip edge)."
SET_HELP = ("Replace an input file: NAME=FILE (every game: rules=FILE; NetMatch: words=FILE; a data-driven game: "
            "data=FILE). Repeatable.")
OUT_HELP = "Output folder (created if missing); kits go to OUT/<game>/."
COLOUR_HELP = ("PDF colour: rgb (sRGB as designed) or cmyk (every colour and picture converted with a press "
               "profile; black K only).")
PDFX_HELP = "PDF/X-4 for a print shop (implies --colour cmyk; docs/print.md)."
ICC_HELP = "CMYK press profile (.icc) for --colour cmyk / --pdfx (default: pnp's SWOP, CGATS TR 003)."
QUIET_HELP = "Print nothing but errors (also accepted before the command: pnp -q build)."
SERVICE_NAMES = "tgc, mpc, drivethru, printerstudio, or custom:DPI,BLEED,SAFE (e.g. custom:300,3mm,3mm)"
WORDS_HELP = "Shorthand for --set words=FILE: a NetMatch word list (.txt, .csv, .tsv, .xlsx, .ods)."
WORKERS_HELP = ("Processes that draw per-card images (--format pod, tts, preview, --cutter cricut), 1-256 "
                "(default: every core this process may use).")
LANG_HELP = ("Only the kit in this language, one of the spec's languages: (default: one kit per language; "
             "the first keeps OUT/<game>/, the others go to OUT/<game>-<code>/).")
SHOWCASE_HELP = ("--format showcase: the fan's cards, by row number, range or key, e.g. 2-6,9 (default: the "
                 "first five faces of each part).")
SVG_TEXT_HELP = ("SVG pages: text as 'text' (the font embedded with @font-face, for browsers) or 'outlines' "
                 "(glyph paths, for programs that ignore @font-face, such as Inkscape).")


@app.command()
def build(
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to build (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP),
    fmt: List[str] = typer.Option(list(DEFAULT_FORMATS), "--format", "-f", help=FORMAT_HELP),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    sets: List[str] = typer.Option([], "--set", help=SET_HELP),
    words: Optional[Path] = typer.Option(None, "--words", help=WORDS_HELP),
    bleed: str = typer.Option("0", "--bleed", help="Bleed past the trim, mm, 0-10 (a print shop wants 3)."),
    duplex: str = typer.Option("none", "--duplex", help=DUPLEX_HELP),
    back_offset: str = typer.Option("0,0", "--back-offset", help="DX,DY mm added to back sheets (see `pnp calibrate`)."),
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
    STATE["quiet"] |= quiet
    with _guard():
        settings = replace(_destination_settings(tts_url, service), svg_text=_svg_text(svg_text),
                           workers=_workers(workers), **_colour_settings(colour, pdfx, icc))
        opts = _options(bleed, duplex, back_offset, mix_papers, cut_lines)
        request = _with_cutter(_request(paper, fmt, sets, words, opts, settings), cutter)
        request = _with_showcase(request, showcase, showcase_width)
        if rules not in RULES_MODES:
            raise PnpError(f"--rules {rules!r} is not one of {', '.join(RULES_MODES)}.", field="--rules",
                           hint="write --rules booklet for a rules booklet, or leave it out")
        request = replace(request, reprint=reprint, proof=proof, rules=rules, language=lang)
        out = _out(out_dir)
        _run(plan(_targets(games), request, _note), out)


def _with_showcase(request: Request, rows: str | None, width: int | None) -> Request:
    """``--showcase`` and ``--showcase-width``, checked here (pnp.render.showcase_rows.parse_showcase)."""
    from .render.showcase_rows import check_requested, parse_showcase
    check_requested(rows is not None or width is not None, request.formats)
    return replace(request, settings=replace(request.settings, showcase=parse_showcase(rows, width)))


def _workers(workers: int | None) -> int | None:
    """``--workers``, checked here (None: every core, pnp.render.imagepool).

    Raises:
        PnpError: a number outside 1..MAX_WORKERS (field --workers).
    """
    if workers is None:
        return None
    from .render.imagepool import MAX_WORKERS
    if not 1 <= workers <= MAX_WORKERS:
        raise PnpError(f"--workers {workers} is outside 1..{MAX_WORKERS}.", field="--workers",
                       hint="leave it out to use every core, or give 1 to draw in this process alone")
    return workers


def _svg_text(svg_text: str) -> str:
    """``--svg-text``, checked here.

    Raises:
        PnpError: a value other than text or outlines (field --svg-text).
    """
    if svg_text not in SVG_TEXT_MODES:
        raise PnpError(f"--svg-text {svg_text!r} is not one of {', '.join(SVG_TEXT_MODES)}.", field="--svg-text",
                       hint="write --svg-text outlines for Inkscape, or leave it out")
    return svg_text


def _colour_settings(colour: str | None, pdfx: bool, icc: Path | None) -> dict:
    """``--colour``, ``--pdfx`` and ``--icc`` as WriterSettings fields (``--pdfx`` and ``--icc`` imply
    cmyk); the profile is read and checked here, before anything is planned or written.

    Raises:
        PnpError: a colour other than rgb or cmyk, or --colour rgb with --pdfx or --icc (field named).
        SpecError: an --icc file that is not a usable CMYK output profile (pnp.colour.press.load_press).
    """
    if colour not in (None, "rgb", "cmyk"):
        raise PnpError(f"--colour {colour!r} is not rgb or cmyk.", field="--colour",
                       hint="write --colour cmyk for a print shop, or leave it out")
    if colour == "rgb" and (pdfx or icc is not None):
        raise PnpError(f"--colour rgb contradicts {'--pdfx' if pdfx else '--icc'}, which makes CMYK.",
                       field="--colour", hint="drop --colour rgb")
    if colour != "cmyk" and not pdfx and icc is None:
        return {}
    from .colour.press import load_press, shipped_press
    return {"press": shipped_press() if icc is None else load_press(icc), "pdfx": pdfx}


def _destination_settings(tts_url: str | None, service: str | None) -> WriterSettings:
    """Writer settings of the destination options (checked here, at the edge)."""
    settings = WriterSettings()
    if tts_url is not None:
        from .render.tts_save import check_base_url
        settings = replace(settings, tts_url=check_base_url(tts_url))
    if service is not None:
        from .render.pod import parse_service
        settings = replace(settings, service=parse_service(service))
    return settings


def _with_cutter(request: Request, cutter: str | None) -> Request:
    """``--cutter``: the request with the machine (a writer setting: the marks to print) and a paper
    whose margin keeps every part clear of them (named <paper>-<cutter>); cricut adds the cricut
    format (its Print Then Cut images). Refused with a format that makes no printed sheet."""
    if cutter is None:
        return request
    from .pipeline.plan import Paper
    from .layout.cutter_marks import CRICUT, check_cutter_formats, cutter_sheet, parse_cutter
    machine = parse_cutter(cutter)
    check_cutter_formats(machine, request.formats, lambda f: f not in WRITERS or WRITERS[f].takes_cutter)
    if request.opts.duplex == "fold":
        raise PnpError(f"--cutter {machine.name} cuts the sheet as printed, but --duplex fold sheets are folded and "
                       "glued before cutting, which hides or moves the marks the machine reads.", field="--cutter",
                       hint="use --duplex long or short (or none) with --cutter, or cut fold-over sheets by hand")
    paper = Paper(cutter_sheet(request.paper.sheet, machine), request.paper.path)
    formats = request.formats + (("cricut",) if machine is CRICUT and "cricut" not in request.formats else ())
    return replace(request, paper=paper, formats=formats, settings=replace(request.settings, cutter=machine))


def _run(build_plan, out: Path, report=None) -> None:
    """Execute a plan target by target with a progress line, printing each kit's notes and report."""
    for tp in build_plan.targets:
        start = time.perf_counter()
        if tp.budget is not None and tp.budget.seconds > LONG_BUILD_SECONDS:
            _note(f"{tp.loaded.game.name}: {tp.budget.describe()} to draw.")
        with _progress(f"building {tp.target}") as progress:
            result = execute_target(tp, build_plan.request, out, progress, on_wait=_note)  # -q silences it
        for note in result.notes:
            _note(note)
        _say((report or _report)(result, time.perf_counter() - start))


@app.command()
def validate(
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
    STATE["quiet"] |= quiet
    failed = False
    report = []
    with _guard():
        settings = replace(_destination_settings(None, service), **_colour_settings(colour, pdfx, icc))
        if bleed is None:
            bleed = str(settings.service.bleed) if preflight and settings.service is not None else "0"
        request = _request(paper, list(DEFAULT_FORMATS), sets, words, _options(bleed, "none", "0,0"), settings, True)
        checked = plan(_targets(games), replace(request, language=lang))
        for tp in checked.targets:
            loaded, findings = tp.loaded, tp.findings
            if preflight and tp.components is not None:
                findings = findings + _preflight(tp, request)
            failed |= any(f.status == FAIL for f in findings)
            report.append({"game": loaded.game.name, "title": loaded.game.title, "spec": str(loaded.path),
                           "findings": [_finding_json(f) for f in findings]})
            if as_json:
                continue
            _say(f"{plain(loaded.game.title, newlines=False)} ({plain(str(loaded.path), newlines=False)})")
            for f in findings:
                label = f"{f.status.upper():7}"
                if sys.stdout.isatty():
                    label = typer.style(label, fg={PASS: "green", FAIL: "red", WARN: "yellow"}[f.status])
                _say(f"  {label} {plain(f.check, newlines=False)}  [{plain(f.rule, newlines=False)}]")
    if as_json:
        typer.echo(json.dumps({"ok": not failed, "games": report}, indent=2, ensure_ascii=False))
    raise typer.Exit(1 if failed else 0)


def _preflight(tp, request: Request) -> list:
    """The preflight findings of one planned kit (pnp.preflight), with a progress line."""
    from .preflight.run import preflight
    with _progress(f"preflight {tp.target}") as progress:
        return preflight(tp.info.title, tp.components, request.paper.sheet, tp.opts, tp.cover, tp.packing,
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
    from .pipeline.diff import compare, read_old
    from .pipeline.parts import parts_of
    STATE["quiet"] |= quiet
    changed = False
    report = []
    with _guard():
        out = _out(out_dir)
        try:
            planned = plan(_targets(games), replace(_request(paper, ["pdf"], sets, words), language=lang), _note)
        except ValidationFailed as exc:  # exit 1 means "parts differ" here
            typer.echo(f"error: {plain(str(exc), newlines=False)}", err=True)
            raise typer.Exit(2) from None
        for tp in planned.targets:
            game, sheet = tp.loaded.game.name, planned.request.paper.sheet.name
            found = compare(game, sheet, read_old(out, game, sheet, since), parts_of(tp.components))
            changed |= bool(found.changes)
            report.append(found.record() | ({"language": tp.ctx.language} if tp.ctx.language else {}))
            if as_json:
                continue
            counts = {k: sum(c.kind == k for c in found.changes) for k in ("added", "removed", "changed")}
            language = f" ({plain(tp.ctx.language)})" if tp.ctx.language else ""
            _say(f"{plain(game)}{language} on {sheet}, against generation {found.old.generation}: "
                 + (", ".join(f"{n} {k}" for k, n in counts.items()) if found.changes else "no part changed"))
            for note in found.notes():
                _say(f"  note: {plain(note)}")
            for change in found.changes:
                _say(f"  {plain(change.line())}")
    if as_json:
        typer.echo(json.dumps({"changed": changed, "kits": report}, indent=2, ensure_ascii=False))
    raise typer.Exit(1 if changed else 0)


@app.command()
def watch(
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to build and watch (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP),
    fmt: List[str] = typer.Option(list(DEFAULT_FORMATS), "--format", "-f", help=FORMAT_HELP),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    sets: List[str] = typer.Option([], "--set", help=SET_HELP),
    words: Optional[Path] = typer.Option(None, "--words", help=WORDS_HELP),
    debounce: int = typer.Option(300, "--debounce", help="Wait this many ms after the last change before rebuilding."),
    serve: bool = typer.Option(False, "--serve", help="Also show the kits on a local web page (127.0.0.1) that reloads "
                                                      "after every rebuild; its address is printed."),
    port: int = typer.Option(8765, "--port", help="Port of the --serve page (0: any free port)."),
    svg_text: str = typer.Option("text", "--svg-text", help=SVG_TEXT_HELP),
    lang: Optional[str] = typer.Option(None, "--lang", help=LANG_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Build, then rebuild whenever a spec, word list, rules text or sheet template it used changes
    (every language kit of a spec, or the one --lang names). A bad edit prints its error and keeps the
    last good kit. Ctrl-C stops."""
    STATE["quiet"] |= quiet
    from .pipeline.watch import watch_kits
    with _guard():
        if not 50 <= debounce <= 10_000:
            raise PnpError(f"--debounce {debounce} ms is outside 50..10000.", field="--debounce")
        formats = fmt + (["svg"] if serve else [])  # the page shows the SVG pages
        request = replace(_request(paper, formats, sets, words, settings=WriterSettings(svg_text=_svg_text(svg_text))),
                          language=lang)
        code = watch_kits(_targets(games), request, _out(out_dir), debounce,
                          say=lambda text: typer.echo(plain(text, newlines=False)), quiet=STATE["quiet"],
                          serve_port=port if serve else None)
    raise typer.Exit(code)


@app.command()
def calibrate(
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP),
    duplex: str = typer.Option("long", "--duplex", help="long or short (the flip edge)."),
    step: float = typer.Option(1.0, "--step", help="Offset step between targets, mm."),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Print a two-sided test sheet to read your printer's --back-offset from."""
    STATE["quiet"] |= quiet
    from .pipeline.calibrate import build_calibration  # only this command draws the test sheet
    with _guard():
        path = build_calibration(paper, duplex, _out(out_dir), step)
        _say(f"calibration sheet: {path} (print both sides at 100 %, flip on the {duplex} edge)")


@app.command()
def preview(
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
    STATE["quiet"] |= quiet
    with _guard():
        if not 10 <= dpi <= 600:
            raise PnpError(f"dpi {dpi} is outside 10..600.", field="--dpi", hint="50 for a quick look, 300 to print")
        request = _request(paper, ["preview"], sets, words, settings=WriterSettings(dpi=dpi, workers=_workers(workers)))

        def report(result, _seconds: float) -> str:
            pngs = [f for f in result.files if f.suffix == ".png"]
            return f"{result.game}: {len(pngs) - 1} pages at {dpi} dpi, contact sheet {pngs[-1]}"
        _run(plan(_targets(games), request, _note), _out(out_dir), report)


@app.command()
def new(
    folder: Path = typer.Argument(..., help="The game folder to make (must not exist, or be empty)."),
    data: Optional[Path] = typer.Option(None, "--data", help="A spreadsheet (.csv, .tsv, .xlsx, .ods): one card per row."),
    sheet: Optional[str] = typer.Option(None, "--sheet", help="The workbook sheet to read (default: the first "
                                        "with a table)."),
    header_row: Optional[int] = typer.Option(None, "--header-row", min=1, max=1000,
                                             help="The row of column names, 1 = the top row (when pnp cannot tell)."),
    delimiter: Optional[str] = typer.Option(None, "--delimiter", help="The CSV cell separator: comma, semicolon, "
                                            "tab or pipe (default: detected)."),
    title: Optional[str] = typer.Option(None, "--title", help="The game's name (default: the sheet's title row, the "
                                        "data file's name or the folder's)."),
    no_header: bool = typer.Option(False, "--no-header", help="The table has no row of column names: every row is "
                                   "a card (pnp names the columns by what they hold)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Make a game folder that builds as it is: spec, rules, front and back templates, and your
    spreadsheet (every column on the cards, laid out by what it holds: copies, ids, names, long
    texts, pictures, colours, kinds, yes/no marks) or a sample CSV. See docs/templates.md."""
    STATE["quiet"] |= quiet
    from .custom.scaffold import scaffold
    from .pipeline.plan import draw_all
    from .inputs.delimiters import DELIMITERS
    with _guard():
        named = {v: k for k, v in DELIMITERS.items()}
        if delimiter is not None and named.get(delimiter.strip().lower(), delimiter) not in DELIMITERS:
            raise PnpError(f"--delimiter {delimiter!r} is not one of comma, semicolon, tab, pipe.",
                             field="--delimiter", hint="write e.g. --delimiter semicolon")
        if no_header and header_row is not None:
            raise PnpError("--no-header and --header-row contradict each other.", field="--no-header",
                           hint="give one of them")
        made = scaffold(folder, data, sheet, header_row,
                        None if delimiter is None else named.get(delimiter.strip().lower(), delimiter),
                        title, no_header, verify=draw_all)
        _say(f"made {folder}: {', '.join(f.name for f in made.files)}")
        for note in made.notes:
            _say(f"note: {note}")
        _say(f"next: pnp build {folder}   (then edit {folder.name}/front.yaml and rebuild, or pnp watch {folder})")


@app.command("list")
def list_games(as_json: bool = typer.Option(False, "--json", help="Print the games and parts as JSON.")) -> None:
    """Show the shipped spec folders, the five games and the data-driven examples (what `pnp build`
    with no target builds), with the generator each names, their components, counts and trim sizes."""
    games = []
    with _guard():
        for target in _targets(None):
            loaded = load_target(target)
            game = loaded.game
            name = game.name
            comps = game.components(loaded.spec, context(loaded))
            generator = loaded.spec.game if loaded.spec.game != "custom" else None  # None: templates and data
            games.append({"game": name, "title": game.title, "designer": loaded.spec.designer,
                          "summary": game.summary, "inputs": dict(game.inputs),
                          "target": target, "folder": str(loaded.path.parent), "generator": generator,
                          "components": [{"name": c.name, "count": c.count, "shape": c.shape,
                                          "trim_mm": [round(c.width, 3), round(c.height, 3)]} for c in comps]})
            if as_json:
                continue
            _say(f"{name}: {plain(game.summary)}")
            _say(f"    spec folder {plain(str(loaded.path.parent))}"
                 + (f", generator {plain(generator)}" if generator else ", templates and data"))
            for comp in comps:
                size = (f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle"
                        else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}")
                _say(f"    {comp.count:4d} x {comp.name} ({size})")
    if as_json:
        typer.echo(json.dumps({"games": games}, indent=2, ensure_ascii=False))


def _flushed(status):
    """``status`` (a SystemExit code), once standard output has taken what pnp printed: a closed
    pipe ends quietly (1 unless the command already failed), any other failure is reported as inside
    a command (2). Either way standard output then goes to /dev/null, so the interpreter's own flush
    at exit has nothing left to fail on."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return status or 1
    except OSError as exc:
        return _output_failed(exc)
    except ValueError:  # standard output was closed
        pass
    return status


def main() -> None:  # pragma: no cover - console-script entry point
    """The `pnp` command: run the typer app and exit with its status (SystemExit)."""
    # everything imported so far (typer, pydantic, reportlab, the games) lives as long as the process:
    # move it out of the collector's reach, so the collections a build's drawing objects set off do
    # not walk it again each time (about 9 % of a 10,000-word build's CPU time)
    gc.freeze()
    # and collect the young generation every 10,000 new objects rather than 700: a build's drawing
    # objects mostly die young through their reference counts, and each collection also walks the
    # survivors again
    gc.set_threshold(10_000, 10, 10)
    try:
        app()
        status = 0
    except SystemExit as exc:
        status = exc.code
    except OSError as exc:                  # stdout failing outside a command's guard (--json, -h, --version)
        status = _output_failed(exc)
    # the command has finished and what it leaves lives until the process ends: move that out of the
    # collector's reach too, so the collections of the interpreter's shutdown do not walk it (about a
    # tenth of a build's CPU time); atexit handlers, the flush of stdout and the teardown of modules
    # run as always (CPython never promises __del__ of objects alive at exit)
    gc.freeze()
    raise SystemExit(_flushed(status))


if __name__ == "__main__":  # pragma: no cover
    main()
