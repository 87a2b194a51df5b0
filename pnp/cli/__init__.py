"""The `pnp` command (typer): build, validate, diff, preview (pnp.cli.kits); new, watch, list,
calibrate (pnp.cli.design). Commands stay thin: each turns its options into typed values once, at
the edge (pnp.cli.options), then calls pnp.pipeline.plan.plan() and, to write, pnp.pipeline.execute.

A PnpError becomes one plain-text message on stderr (control characters escaped, long values cut)
and exit code 2; a failed rules check exits 1 (pnp.cli.console). ``-q`` silences everything but
errors; ``--json`` (validate, list, diff) prints machine-readable results on stdout.
"""
from __future__ import annotations

import gc

from . import design, kits  # noqa: F401  (their commands register on the app)
from .app import app
from .console import flushed, output_failed

__all__ = ["app", "main"]


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
        status = output_failed(exc)
    # the command has finished and what it leaves lives until the process ends: move that out of the
    # collector's reach too, so the collections of the interpreter's shutdown do not walk it (about a
    # tenth of a build's CPU time); atexit handlers, the flush of stdout and the teardown of modules
    # run as always (CPython never promises __del__ of objects alive at exit)
    gc.freeze()
    raise SystemExit(flushed(status))


if __name__ == "__main__":  # pragma: no cover
    main()
