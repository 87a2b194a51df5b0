"""An example output format from a package of its own (tests/render/test_format_plugins.py): a
plain-text list of a kit's pages, ``contents/<stem>.txt``, one line per page with its number, side
and label. Registered through the entry-point group pnp.formats in this folder's dist-info."""
from __future__ import annotations

from pathlib import Path

from pnp.core.safepath import write_bytes
from pnp.render.formats import KitWriter


class ContentsWriter(KitWriter):
    """``--format contents``: ``contents/<stem>.txt``."""
    folder = "contents"
    takes_cutter = False
    seconds_per_page = 1e-5
    seconds_per_part = 0.0

    def __init__(self, job) -> None:
        super().__init__(job)
        self.lines: list[str] = []

    def page(self, number, page) -> None:
        self.lines.append(f"{number}\t{page.side}\t{page.label}")

    def finish(self) -> list[Path]:
        rel = f"{self.folder}/{self.job.stem}.txt"
        self.job.kit_folder(self.folder)
        write_bytes(self.job.staging, rel, ("\n".join(self.lines) + "\n").encode("utf-8"))
        return [Path(rel)]

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"contents/{stem}\.txt"


class NotAWriter:
    """Registered as ``--format broken``: not a KitWriter, so pnp refuses it by name."""
