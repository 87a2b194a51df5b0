"""`pnp pull`: a game's spreadsheets downloaded from the web into its folder (docs/pull.md).

The only part of pnp that touches the network: `pnp build` reads the files a pull left, never a URL.
sources maps a Google Sheets link to its export address (pure), fetch downloads with bounds
(httpx), record keeps the validators beside each file, game pulls one game (checked by the build's
own reader before anything is replaced), and Puller pulls on a period for `pnp watch --pull`.

pnp.pull imports pnp.core, pnp.inputs, pnp.engine and pnp.custom; pnp.pipeline and pnp.cli import it.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Sequence

from ..core.errors import PnpError
from .fetch import Fetcher, Limits, PullError
from .game import NothingToPull, PullReport, pull_game, spec_path_of

__all__ = ["Fetcher", "Limits", "NothingToPull", "PullError", "PullReport", "Puller", "pull_game", "report_lines",
           "spec_path_of"]

MIN_PERIOD = 5.0  # s: `pnp watch --pull` asks a sheet at most this often
MAX_PERIOD = 86_400.0


def report_lines(report: PullReport) -> list[str]:
    """The lines `pnp pull` prints for one game: one per data file, then the notes."""
    out = []
    for p in report.pulled:
        sheet = f", sheet gid {p.source.gid}" if p.source.gid is not None else ""
        if p.status == "downloaded":
            out.append(f"{p.data}: downloaded {p.bytes:,} bytes ({p.source.kind}{sheet})")
        elif p.status == "same":
            out.append(f"{p.data}: downloaded, unchanged ({p.bytes:,} bytes)")
        else:
            out.append(f"{p.data}: unchanged since the last pull (the server said 304 Not Modified)")
    return out + [f"note: {n}" for n in report.notes]


class Puller:
    """Pulls ``targets`` (spec files or game folders) every ``period`` seconds for a watch; holds one
    Fetcher (close() it).
    ``say`` prints each line; a target with nothing to pull is skipped without a word."""

    def __init__(self, targets: Sequence[str | Path], period: float, say: Callable[[str], None],
                 limits: Limits = Limits()) -> None:
        self.targets = list(targets)
        self.period = period
        self.say = say
        self.fetcher = Fetcher(limits)
        self._next = 0.0
        self._said: dict[str, str] = {}  # the last error of each target, printed once until it changes

    def due(self) -> bool:
        """True when the period since the last pull has passed (the first pull is due at once)."""
        return time.monotonic() >= self._next

    def pull(self) -> bool:
        """Pull every target once; True when a data file was replaced. Errors are printed (the
        last good file is kept), never raised."""
        self._next = time.monotonic() + self.period
        changed = False
        for target in self.targets:
            try:
                report = pull_game(target, self.fetcher)
            except NothingToPull:
                continue
            except PnpError as exc:
                if self._said.get(str(target)) != str(exc):
                    self.say(f"error: pull: {exc} (the last good file is kept)")
                self._said[str(target)] = str(exc)
                continue
            self._said.pop(str(target), None)
            for line in report_lines(report):
                if report.changed or line.startswith("note:"):
                    self.say(f"pull: {line}")
            changed |= report.changed
        return changed

    def close(self) -> None:
        self.fetcher.close()
