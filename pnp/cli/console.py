"""What a `pnp` command prints and how it ends: one Console per invocation (quiet or not), notes and
a progress line on stderr, and every error a user can cause as one plain ``error:`` line with exit
code 2 (1 for a failed rules check)."""
from __future__ import annotations

import logging
import os
import sys
import warnings
from contextlib import contextmanager

import typer

from ..core.errors import PnpError, ValidationFailed
from ..core.plaintext import plain


class Console:
    """What one invocation prints: ``quiet`` (``-q``, before or after the command) silences
    everything but errors. Held by click's root context, so it lives as long as the invocation."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet

    def say(self, text: str = "") -> None:
        """Print a line on stdout unless quiet."""
        if not self.quiet:
            typer.echo(text)

    def note(self, text: str) -> None:
        """Print a note on stderr unless quiet (one line, whatever the text holds)."""
        if not self.quiet:
            typer.echo(f"note: {plain(text, newlines=False)}", err=True)

    @contextmanager
    def progress(self, label: str):
        """A progress line on stderr for long work (only on a terminal, and not when quiet); yields
        ``update(done, total)``."""
        if self.quiet or not sys.stderr.isatty():
            yield lambda done, total: None
            return
        from rich.console import Console as RichConsole  # only on a terminal: rich's import is not free
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)  # only on a terminal
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TextColumn("left"), TimeRemainingColumn(), console=RichConsole(stderr=True),
                      transient=True) as bar:
            task = bar.add_task(label, total=None)
            yield lambda done, total: bar.update(task, completed=done, total=total)


def console(ctx: typer.Context, quiet: bool = False) -> Console:
    """The Console of the invocation ``ctx`` belongs to (made by the group's callback; made here when
    a command is invoked on its own), quiet from here on when the command's own ``-q`` is ``quiet``."""
    root = ctx.find_root()
    if not isinstance(root.obj, Console):
        root.obj = Console()
    root.obj.quiet |= quiet
    return root.obj


def fail(exc: PnpError) -> None:
    """Print the error as plain text and exit 2 (1 for a failed rules check)."""
    typer.echo(f"error: {plain(str(exc), newlines=False)}", err=True)  # one line, whatever a name holds
    raise typer.Exit(1 if isinstance(exc, ValidationFailed) else 2)


@contextmanager
def guard():
    """Turn every error a user can cause into one plain message and exit 2: a PnpError, and an
    OSError from a path the system refuses (too long, not searchable) that slipped past the checks.
    Libraries' own warnings (Pillow's decompression-bomb warning, fontTools' log records) are not printed:
    pnp checks those inputs itself and says what matters in its own notes and errors."""
    try:
        with libraries_quiet():
            yield
    except PnpError as exc:
        fail(exc)
    except BrokenPipeError:  # `pnp list | head`: the reader went away; stop quietly, like other tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(1) from None
    except OSError as exc:
        if not getattr(exc, "filename", None):   # no file named: writing to stdout failed (> /dev/full)
            raise typer.Exit(output_failed(exc)) from None
        fail(PnpError(f"{exc.filename}: {exc.strerror or exc}.", hint="check the path: its length, spelling and permissions"))


@contextmanager
def libraries_quiet():
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


def output_failed(exc: OSError) -> int:
    """Standard output cannot take what pnp prints (a full disk, /dev/full): say so in one line on
    stderr, send what is still buffered to /dev/null, and return exit code 2."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    typer.echo(f"error: cannot write to standard output: {exc.strerror or exc}. Fix: check where the output "
               "goes (a full disk, a closed pipe) and run the command again", err=True)
    return 2


def flushed(status):
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
        return output_failed(exc)
    except ValueError:  # standard output was closed
        pass
    return status
