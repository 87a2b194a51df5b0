"""Showcase pictures (``--format showcase``): transparent PNGs of a kit's cards for a web page or a
crowdfunding page, drawn from the same faces as the kit.

Per card-like component (every part but boards and folded nets), in ``showcase/<stem>/``:

- ``<stem>-<part>-fan.png``: a hand fan of the chosen cards (``--showcase ROWS``; default the first
  FAN_DEFAULT distinct faces), the last one on top;
- ``<stem>-<part>-grid.png`` (``…-grid-N.png`` when there are more than GRID_FACES): every distinct
  face once (faces are distinct by what is drawn on them: two rows that draw the same card, or a
  row's copies, are one face), in kit order;
- ``<stem>-<part>-single.png``: the first chosen card alone.

A part of one distinct face (a coin printed 8 times) gets its single picture only.

Each picture is ``--showcase-width`` pixels wide (ShowcaseOptions.width, WIDTH_RANGE), RGBA with a
transparent background; every card is cut to its component's outline (the cutter's: rounded corners
of its radius, a circle, a polygon) and casts a soft shadow down and to the right. The drawing is
pnp.render.showcase_draw (Pillow, imported only by a build that writes showcase pictures).

ROWS and the cards it picks: pnp.render.showcase_rows.

Its cost for the estimate, at the default width SHOWCASE_WIDTH: per card-like component
SECONDS_PER_COMPONENT (its fan and single card: rendering, turning, blurring the shadows, PNG) and per
distinct part SECONDS_PER_FACE_AREA, both growing with the width squared, plus SECONDS_PER_FACE (its
PDF page). Measured: 10 and 300 faces, 2.5 and 5.2 s at 1600 px, 8.7 and 16.8 s at 4000 px, a PDF
build's 1.0 and 1.6 s taken off, on the shared two-core machine.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ...core.ir import Component
from ..showcase_rows import DEFAULT_WIDTH as SHOWCASE_WIDTH, FAN_DEFAULT, ShowcaseOptions, check_rows, chosen, slug, why_not
from .base import KitWriter, WriterSettings

SECONDS_PER_COMPONENT = 1.6
SECONDS_PER_FACE = 0.005
SECONDS_PER_FACE_AREA = 0.0035


def options_of(settings: WriterSettings) -> ShowcaseOptions:
    """The showcase options of ``settings`` (the defaults when none were given)."""
    got: Any = getattr(settings, "showcase", None)
    return got if isinstance(got, ShowcaseOptions) else ShowcaseOptions()


class ShowcaseKitWriter(KitWriter):
    """Showcase pictures of every card-like component (see this module):
    ``showcase/<stem>/<stem>-<part>-fan.png``, ``-grid.png`` (``-grid-N.png``) and ``-single.png``."""
    folder = "showcase"
    takes_cutter = False
    options = ("showcase", "workers")

    @classmethod
    def seconds(cls, pages: int, components: Sequence[Component], settings: WriterSettings) -> float:
        """See the module's docstring: per component and per distinct part, with the width squared."""
        shown = [c for c in components if not c.board and not c.folds]
        faces = sum(len({id(s) for s in c.sources}) if c.sources else len(c.fronts) for c in shown)
        area = (options_of(settings).width / SHOWCASE_WIDTH) ** 2
        return (len(shown) * SECONDS_PER_COMPONENT + faces * SECONDS_PER_FACE_AREA) * area + faces * SECONDS_PER_FACE

    @classmethod
    def unserved(cls, components: Sequence[Component], settings: WriterSettings) -> list[tuple[str, str]]:
        from ..showcase_draw import check_pixels  # Pillow: only a build that draws showcase pictures
        options = options_of(settings)
        served = [c for c in components if why_not(c) is None]
        check_rows(served, options)
        for comp in served:
            check_pixels(comp, options, len(chosen(comp, options) or []) or FAN_DEFAULT)
        return [(c.name, why) for c in components if (why := why_not(c))]

    @classmethod
    def warnings(cls, components: Sequence[Component], settings: WriterSettings) -> list[str]:
        options = options_of(settings)
        if options.rows is None:
            return []
        missed = [c.name for c in components if why_not(c) is None and not chosen(c, options)]
        return [f"--showcase {options.text[:60]!r} picks no part of {', '.join(missed)}: only "
                f"{'its' if len(missed) == 1 else 'their'} grid is drawn."] if missed else []

    def finish(self) -> list[Path]:
        from ..showcase_draw import write_component  # see unserved()
        options = options_of(self.job.settings)
        rel = f"{self.folder}/{self.job.stem}"
        names: set[str] = set()
        for comp in self.job.components:
            if why_not(comp) is not None:
                continue
            base = f"{self.job.stem}-{slug(comp.name)}"
            while base in names:
                base += "-x"
            names.add(base)
            written = write_component(comp, options, self.job.kit_folder(rel), base, chosen(comp, options),
                                      self.job.settings.workers)
            self.written += [Path(rel) / name for name in written]
        return self.written

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"showcase/{stem}/{stem}-[a-z0-9_-]+\.png"
