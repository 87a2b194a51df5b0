"""``--format tts``: a Tabletop Simulator saved object of the whole kit and its images
(pnp.render.tts_save)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

from ...core.ir import Component
from .base import KitWriter, WriterSettings

SECONDS_PER_CARD = 0.004
SECONDS_PER_SHEET = 0.2
CARDS_PER_SHEET = 69  # TTS's 10 x 7 sheet, its last slot the hidden face


class TtsKitWriter(KitWriter):
    """A Tabletop Simulator saved object of the whole kit and its images, in a folder per kit (so kits
    whose paper names share a prefix, a4 and a4-word, never claim each other's files):
    ``tts/<stem>/<stem>.json`` and ``tts/<stem>/<stem>-<part>….png`` (see pnp.render.tts_save).
    ``settings.tts_url``: the base URL of hosted images (default: ``file:///`` paths of the
    files under OUT/<game>/tts/<stem>)."""
    folder = "tts"
    takes_cutter = False
    options = ("tts_url", "workers")

    def finish(self) -> list[Path]:
        from ..tts_save import kit_folder, url_maker, write_save  # Pillow and the raster path: this format only
        rel = f"{self.folder}/{self.job.stem}"
        folder = self.job.kit_folder(rel)
        url = url_maker(kit_folder(self.job.staging) / rel, self.job.settings.tts_url)
        written = write_save(self.job.components, folder, self.job.stem, self.job.metadata.get("title", ""), url,
                             self.job.settings.workers)
        return [p.relative_to(self.job.staging) for p in written]

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"tts/{stem}/{stem}(-[a-z0-9_-]+)?\.(png|json)"

    @classmethod
    def seconds(cls, pages: int, components: Sequence[Component], settings: WriterSettings) -> float:
        """SECONDS_PER_CARD per card of each deck and SECONDS_PER_SHEET per deck sheet (wall-clock
        times on a shared two-core machine, so they err high)."""
        decks = [c.count for c in components if c.shape == "rect" and not c.board and c.count > 1]
        return sum(n * SECONDS_PER_CARD + math.ceil(n / CARDS_PER_SHEET) * SECONDS_PER_SHEET for n in decks)
