"""`pnp new`, `pnp watch`, `pnp edit`, `pnp pull`, `pnp list` and `pnp calibrate`: a game folder made from a spreadsheet, kits
rebuilt as their inputs change, the shipped games listed, and the duplex test sheet."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import List, Optional

import typer

from ..core.errors import PnpError
from ..core.plaintext import plain
from ..core.units import fmt_mm
from ..inputs.delimiters import DELIMITERS
from ..pipeline.plan import context, draw_all, load_target
from ..render.formats import DEFAULT_FORMATS, WriterSettings
from .app import app
from .console import console, guard
from .options import (FORMAT_HELP, LANG_HELP, OUT_HELP, PAPER_HELP, QUIET_HELP, SET_HELP, SVG_TEXT_HELP,
                      WORDS_HELP, out_folder, request_of, svg_text_option, targets)


@app.command()
def watch(
    ctx: typer.Context,
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
    pull_every: Optional[float] = typer.Option(None, "--pull", help="Also pull every url: (as pnp pull) now and "
                                               "every SECONDS (5 to 86400), rebuilding when a sheet changed."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Build, then rebuild whenever a spec, word list, rules text or sheet template it used changes
    (every language kit of a spec, or the one --lang names). A bad edit prints its error and keeps the
    last good kit. Ctrl-C stops."""
    con = console(ctx, quiet)
    from ..pipeline.watch import watch_kits  # the watcher and the page's server: only this command
    with guard():
        if not 50 <= debounce <= 10_000:
            raise PnpError(f"--debounce {debounce} ms is outside 50..10000.", field="--debounce")
        if pull_every is not None and not 5 <= pull_every <= 86_400:
            raise PnpError(f"--pull {pull_every:g} s is outside 5..86400.", field="--pull",
                           hint="write e.g. --pull 60 to pull the sheets once a minute")
        wanted = fmt + (["svg"] if serve else [])  # the page shows the SVG pages
        request = replace(request_of(paper, wanted, sets, words, settings=WriterSettings(svg_text=svg_text_option(svg_text))),
                          language=lang)
        code = watch_kits(targets(games), request, out_folder(out_dir), debounce,
                          say=lambda text: typer.echo(plain(text, newlines=False)), quiet=con.quiet,
                          serve_port=port if serve else None, pull_every=pull_every)
    raise typer.Exit(code)


@app.command()
def edit(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="A game folder, its spec file, or a spreadsheet (then `pnp new` first, "
                                         "into a folder beside it)."),
    port: int = typer.Option(8765, "--port", help="Port of the editor page on 127.0.0.1 (0: any free port)."),
    paper: str = typer.Option("a4", "--paper", "-p", help=PAPER_HELP),
    fmt: List[str] = typer.Option(list(DEFAULT_FORMATS), "--format", "-f", help=FORMAT_HELP),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Lay out a deck's cards in the browser: drag, resize and set every field of its templates; each
    edit is saved to the template YAML in place (comments kept), and the kit is rebuilt as `pnp watch`
    does. The page's address is the first line printed. See docs/editor.md."""
    con = console(ctx, quiet)
    from ..edit import edit as edit_deck  # the editor's server: only this command
    with guard():
        request = request_of(paper, fmt, [], None)
        code = edit_deck(game, port, out_folder(out_dir), request,
                         say=lambda text: typer.echo(plain(text, newlines=False)), quiet=con.quiet)
    raise typer.Exit(code)


@app.command()
def pull(
    ctx: typer.Context,
    games: List[str] = typer.Argument(..., help="Game folders (or spec files) whose components' url: to download."),
    deadline: float = typer.Option(60.0, "--deadline", help="Stop a download after this many seconds (1 to 3600)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Download each component's url: (a Google Sheet or a .csv/.tsv/.xlsx/.ods address) into its data:
    file, checked as pnp build reads it; an unchanged sheet is not downloaded again. See docs/pull.md."""
    con = console(ctx, quiet)
    from ..pull import Fetcher, Limits, pull_game, report_lines  # httpx: only this command touches the network
    with guard():
        if not 1 <= deadline <= 3600:
            raise PnpError(f"--deadline {deadline:g} s is outside 1..3600.", field="--deadline")
        with Fetcher(Limits(deadline=deadline)) as fetcher:
            for game in games:
                with con.progress(f"pulling {game}") as progress:
                    report = pull_game(game, fetcher, progress)
                for line in report_lines(report):
                    if line.startswith("note: "):
                        con.note(line[len("note: "):])
                    else:
                        con.say(f"{game}: {line}")


@app.command()
def calibrate(
    ctx: typer.Context,
    pictures: Optional[List[Path]] = typer.Argument(None, help="With --measure: a photo of the printed sheet held "
                                                               "against a light, or two scans (front and back)."),
    paper: Optional[str] = typer.Option(None, "--paper", "-p", help=PAPER_HELP + " (default a4; with --measure: "
                                                                     "the paper the sheet's markers name)"),
    duplex: str = typer.Option("long", "--duplex", help="long or short (the flip edge)."),
    step: float = typer.Option(1.0, "--step", help="Offset step between targets, mm."),
    out_dir: str = typer.Option("output", "--out", "-o", help=OUT_HELP),
    measure: bool = typer.Option(False, "--measure", help="Read the --back-offset off PICTURES of the printed sheet "
                                                          "(docs/print.md, \"Measuring the duplex offset\")."),
    save_printer: Optional[str] = typer.Option(None, "--save-printer", help="With --measure: keep the offset as "
                                                                            "this printer's (pnp build --printer NAME)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Print a two-sided test sheet to read your printer's --back-offset from; --measure reads it off a photo."""
    con = console(ctx, quiet)
    with guard():
        if measure or pictures or save_printer:
            if not measure:
                raise PnpError("pictures and --save-printer go with --measure.", field="--measure",
                               hint="write pnp calibrate --measure PHOTO.jpg")
            from ..pipeline.calibrate import measure_calibration  # OpenCV: only this command reads pictures
            for line in measure_calibration(list(pictures or []), paper, save_printer):
                con.say(line)
            return
        from ..pipeline.calibrate import build_calibration  # only this command draws the test sheet
        path = build_calibration(paper or "a4", duplex, out_folder(out_dir), step)
        con.say(f"calibration sheet: {path} (print both sides at 100 %, flip on the {duplex} edge)")


@app.command()
def new(
    ctx: typer.Context,
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
    con = console(ctx, quiet)
    from ..custom.scaffold import scaffold  # reads a whole workbook's shape: only this command
    with guard():
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
        con.say(f"made {folder}: {', '.join(f.name for f in made.files)}")
        for note in made.notes:
            con.say(f"note: {note}")
        con.say(f"next: pnp build {folder}   (then edit {folder.name}/front.yaml and rebuild, or pnp watch {folder})")


@app.command("list")
def list_games(ctx: typer.Context,
               as_json: bool = typer.Option(False, "--json", help="Print the games and parts as JSON.")) -> None:
    """Show the shipped spec folders, the five games and the data-driven examples (what `pnp build`
    with no target builds), with the generator each names, their components, counts and trim sizes."""
    con = console(ctx)
    games = []
    with guard():
        for target in targets(None):
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
            con.say(f"{name}: {plain(game.summary)}")
            con.say(f"    spec folder {plain(str(loaded.path.parent))}"
                 + (f", generator {plain(generator)}" if generator else ", templates and data"))
            for comp in comps:
                size = (f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle"
                        else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}")
                con.say(f"    {comp.count:4d} x {comp.name} ({size})")
    if as_json:
        typer.echo(json.dumps({"games": games}, indent=2, ensure_ascii=False))
