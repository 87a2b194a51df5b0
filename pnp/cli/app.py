"""The `pnp` command group (typer): one ``error:`` line for an option its own type refuses, the
global options (``--version``, ``-q``), and the Console of each invocation."""
from __future__ import annotations

import typer
from typer.core import TyperGroup

from .. import __version__
from ..core.plaintext import plain
from .console import Console


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


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pnp {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_options(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but errors."),
) -> None:
    """pnp: compile print-and-play kits (PDF, SVG) for abstract games, and prove their parts match the rules."""
    ctx.find_root().obj = Console(quiet)
