"""The `pnp` command (typer): build, validate, list. Commands stay thin; the work is in pnp.kit.

A PnpError becomes one message on stderr and exit code 2; a failed rules check exits 1.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .errors import PnpError, ValidationFailed
from .findings import FAIL, PASS, WARN
from .games import registry
from .kit import DEFAULT_FORMATS, build_calibration, build_kit, context, load_target, validate_target
from .layout.options import ImposeOptions
from .render.writers import WRITERS
from .textsafe import plain
from .units import fmt_mm, parse_length

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="pnp: compile print-and-play kits (PDF, SVG) for abstract games, and prove their parts match the rules.")
err = Console(stderr=True, highlight=False)
out = Console(highlight=False, soft_wrap=True)


def _fail(exc: PnpError) -> None:
    """Print the error as plain text (control characters escaped, long values cut) and exit 2
    (1 for a failed rules check)."""
    typer.echo(f"error: {plain(str(exc))}", err=True)
    raise typer.Exit(1 if isinstance(exc, ValidationFailed) else 2)


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


def _split_formats(values: list[str]) -> tuple[str, ...]:
    result = []
    for v in values:
        result.extend(x.strip().lower() for x in v.split(",") if x.strip())
    return tuple(dict.fromkeys(result))


def _targets(games: list[str] | None) -> list[str]:
    return list(games) if games else list(registry())


def _offset(text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError("expected two values")
        return (parse_length(parts[0]), parse_length(parts[1]))
    except ValueError as exc:
        raise PnpError(f"--back-offset {text!r} is not DX,DY in mm ({exc}).", field="--back-offset",
                       hint="write e.g. --back-offset 1.5,-0.5 (read it off `pnp calibrate`)") from None


def _progress():
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=err, transient=True, disable=not err.is_terminal)


@app.command()
def build(
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to build (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p", help="a4, letter, a3, tabloid, or a sheet YAML file."),
    fmt: List[str] = typer.Option(list(DEFAULT_FORMATS), "--format", "-f",
                                  help=f"{', '.join(WRITERS)} (repeat or comma-separate)."),
    out_dir: Path = typer.Option(Path("output"), "--out", "-o", help="Output folder."),
    sets: List[str] = typer.Option([], "--set", help="Replace an input file a game declares: NAME=FILE "
                                   "(NetMatch: words=FILE). Repeatable."),
    words: Optional[Path] = typer.Option(None, "--words", help="Shorthand for --set words=FILE (NetMatch word list)."),
    bleed: str = typer.Option("0", "--bleed", help="Bleed past the trim, mm (a print shop wants 3)."),
    duplex: str = typer.Option("none", "--duplex", help="Backs for duplex printing: none, long or short (flip edge)."),
    back_offset: str = typer.Option("0,0", "--back-offset", help="DX,DY mm added to back sheets (see `pnp calibrate`)."),
) -> None:
    """Build kits into OUT/<game>/: the PDF, one SVG per page and manifest.json."""
    try:
        formats = _split_formats(fmt)
        try:
            bleed_mm = parse_length(bleed)
        except ValueError as exc:
            raise PnpError(f"--bleed: {exc}.", field="--bleed", hint="write e.g. --bleed 3") from None
        opts = ImposeOptions(bleed=bleed_mm, duplex=duplex, back_offset=_offset(back_offset))
        overrides = _overrides(sets, words)
        for target in _targets(games):
            start = time.perf_counter()
            with _progress() as bar:
                task = bar.add_task(f"building {target}", total=None)
                result = build_kit(target, paper=paper, formats=formats, out=out_dir, overrides=overrides, opts=opts,
                                   progress=lambda done, total: bar.update(task, completed=done, total=total))
            size = sum(f.stat().st_size for f in result.files)
            out.print(f"{result.game}: {result.pages} pages on {result.paper}, {len(result.files)} files, "
                      f"{size / 1024:.0f} KiB, {time.perf_counter() - start:.1f} s -> {result.files[0].parent}")
    except PnpError as exc:
        _fail(exc)


@app.command()
def validate(
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files to check (default: every game)."),
    sets: List[str] = typer.Option([], "--set", help="Replace an input file a game declares: NAME=FILE."),
    words: Optional[Path] = typer.Option(None, "--words", help="Shorthand for --set words=FILE (NetMatch word list)."),
) -> None:
    """Run the rules checks; exit 0 if all pass (warnings allowed), 1 if any fails, 2 on bad input."""
    failed = False
    try:
        for target in _targets(games):
            loaded, findings = validate_target(target, _overrides(sets, words))
            out.print(f"[bold]{escape(plain(loaded.game.title))}[/] ({escape(plain(str(loaded.path)))})")
            for f in findings:
                colour = {PASS: "green", FAIL: "red", WARN: "yellow"}[f.status]
                out.print(f"  [{colour}]{f.status.upper():7}[/] {escape(plain(f.check))}  "
                          f"[dim]{escape('[' + plain(f.rule) + ']')}[/]")
                failed |= f.status == FAIL
    except PnpError as exc:
        _fail(exc)
    raise typer.Exit(1 if failed else 0)


@app.command()
def calibrate(
    paper: str = typer.Option("a4", "--paper", "-p", help="a4, letter, a3, tabloid."),
    duplex: str = typer.Option("long", "--duplex", help="long or short (flip edge)."),
    step: float = typer.Option(1.0, "--step", help="Offset step between targets, mm."),
    out_dir: Path = typer.Option(Path("output"), "--out", "-o", help="Output folder."),
) -> None:
    """Print a two-sided test sheet to read your printer's --back-offset from."""
    try:
        path = build_calibration(paper, duplex, out_dir, step)
        out.print(f"calibration sheet: {path} (print both sides at 100 %, flip on the {duplex} edge)")
    except PnpError as exc:
        _fail(exc)


@app.command()
def preview(
    games: Optional[List[str]] = typer.Argument(None, help="Games or spec files (default: every game)."),
    paper: str = typer.Option("a4", "--paper", "-p"),
    dpi: int = typer.Option(50, "--dpi", help="Resolution of the PNGs."),
    out_dir: Path = typer.Option(Path("output"), "--out", "-o", help="Output folder."),
) -> None:
    """Build each kit's PDF and render every page to PNG, plus one contact sheet per kit."""
    try:
        if not 10 <= dpi <= 600:
            raise PnpError(f"dpi {dpi} is outside 10..600.", field="--dpi", hint="50 for a quick look, 300 to print")
        for target in _targets(games):
            with _progress() as bar:
                task = bar.add_task(f"preview {target}", total=None)
                result = build_kit(target, paper=paper, formats=("preview",), out=out_dir, settings={"dpi": dpi},
                                   progress=lambda done, total: bar.update(task, completed=done, total=total))
            pngs = [f for f in result.files if f.suffix == ".png"]
            out.print(f"{result.game}: {len(pngs) - 1} pages at {dpi} dpi, contact sheet {pngs[-1]}")
    except PnpError as exc:
        _fail(exc)


@app.command("list")
def list_games() -> None:
    """Show the games and their components with counts and trim sizes."""
    try:
        for name, game in registry().items():
            loaded = load_target(name)
            out.print(f"[bold]{name}[/]: {escape(game.summary)}")
            for comp in game.components(loaded.spec, context(loaded)):
                size = (f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle"
                        else f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}")
                out.print(f"    {comp.count:4d} x {comp.name} ({size})")
    except PnpError as exc:
        _fail(exc)


def main() -> None:  # pragma: no cover - console-script entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
