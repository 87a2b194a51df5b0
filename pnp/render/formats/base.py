"""What every output format shares: the settings writers take (WriterSettings), the job of one kit
(WriteJob) and the writer's interface (KitWriter).

A kit build makes one ``WriteJob`` and one writer per requested format; every imposed page goes to
each writer's ``page()``, then ``finish()`` returns the files it wrote (paths relative to the
staging folder). Every file goes through pnp.core.safepath (no symlink or special file below the
staging folder is followed or written through).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from ...core.ir import Component, Group, Page
from ...core.safepath import folder as safe_folder
from ...layout.options import ImposeOptions

MAX_WORKERS = 256
"""Most processes ``--workers`` may ask for (WriterSettings.workers; pnp.render.imagepool)."""


PDF_METADATA = ("title", "author", "subject", "keywords")
"""The keys of WriteJob.metadata that the PDF's document information takes."""


SVG_TEXT_MODES = ("text", "outlines")
"""How page SVGs set text (``WriterSettings.svg_text``, ``--svg-text``): ``<text>`` with the font embedded
(@font-face; the default), or glyph outlines (``<path>``) for programs that ignore @font-face (Inkscape).
Here, not in the SVG format's module, so checking the option imports no SVG writer."""


@dataclass(frozen=True)
class WriterSettings:
    """What writers need besides the pages, typed and checked where the user gives it (the CLI):
    ``dpi``, pixels per inch of preview pages; ``svg_text``, "text" (``<text>`` with the font
    embedded) or "outlines" (glyph outlines, ``--svg-text outlines``); ``tts_url``, the base URL of
    hosted Tabletop Simulator images (None: ``file:///`` paths on this computer); ``service``, the
    print service card images are made for (a pnp.render.pod.Service, ``--service``); ``cutter``,
    the cutting machine whose marks are printed (a pnp.layout.cutter_marks.Cutter, ``--cutter``);
    ``press``, the CMYK press profile every PDF's colours and pictures are converted with (a
    pnp.colour.press.Press, ``--colour cmyk``, ``--icc``; None: sRGB); ``pdfx``, PDFs made PDF/X-4
    with that profile (``--pdfx``); ``workers``, the processes that draw per-card images (None: every
    core; pnp.render.imagepool); ``showcase``, the cards and width of ``--format showcase``'s
    pictures (a pnp.render.showcase_rows.ShowcaseOptions, ``--showcase``, ``--showcase-width``; None: the
    defaults)."""
    dpi: float = 50
    svg_text: str = "text"
    tts_url: str | None = None
    service: Any = None
    cutter: Any = None
    press: Any = None
    pdfx: bool = False
    workers: int | None = None
    showcase: Any = None

    @property
    def pdf_colour(self) -> dict:
        """The keyword arguments of pnp.render.pdf.PdfWriter for these settings' colour."""
        return {"press": self.press, "pdfx": self.pdfx}


@dataclass
class WriteJob:
    """What every writer of one kit shares: ``staging`` folder, file ``stem`` ("<game>-<paper>"),
    document ``metadata`` (title, author, subject, keywords for the PDF; credit, the cover's credit line
    for the SVG pages' descriptions, "" when no one is credited), page ``total``, imposition ``opts``,
    the kit's ``components``, ``settings`` (e.g. dpi for previews) and ``cache``, the folder where
    font subsets are kept between builds (OUT/.pnp/cache; None: in memory only; untrusted, see
    pnp.render.fontcache)."""
    staging: Path
    stem: str
    total: int
    opts: ImposeOptions
    components: Sequence[Component]
    metadata: dict = field(default_factory=dict)
    settings: WriterSettings = WriterSettings()
    cache: Path | None = None

    def describe(self, number: int, page: Page) -> tuple[str, str]:
        """(title, description) of page ``number``, for SVG ``<title>`` and ``<desc>``."""
        title = self.metadata.get("title", "")
        by = f", {self.metadata['credit']}" if self.metadata.get("credit") else ""
        return title, self.opts.words("Page {number} of {total}: {label}. {title}{by}.").format(
            number=number, total=self.total, label=page.label, title=title, by=by)

    @property
    def page_digits(self) -> int:
        """Digits in page numbers of file names (at least 2: p01)."""
        return max(2, len(str(self.total)))

    def kit_folder(self, rel: str) -> Path:
        """``staging/rel``, created through pnp.core.safepath (no symlink or special file on the way),
        for writers whose libraries write files by name inside it (Pillow, the TTS and POD writers).

        Raises:
            OutputError: something other than a folder is in the way.
        """
        with safe_folder(self.staging, rel):
            pass
        return self.staging / rel


class KitWriter:
    """One output format, declared by its class: ``name`` (``--format name``, set by the registry);
    ``folder``, its sub-folder of the kit ("" for the kit folder itself); ``requires``, formats that
    must be written too (they finish first); ``takes_cutter``: the format writes printed sheets that
    ``--cutter`` can mark and cut (pnp.layout.cutter_marks); ``options``, the WriterSettings fields
    it reads (the plan refuses an option no requested format takes: pnp.render.formats.check_options);
    its cost for the work estimate (``seconds``, ``pixels``: pnp.layout.limits.FormatCost); the
    files it writes (``pattern``); what it leaves out or warns of (``unserved``, ``warnings``).

    The writer's life: one instance per kit build, ``page()`` for every imposed page in order, then
    ``finish()`` once."""
    name = ""
    folder = ""
    requires: tuple[str, ...] = ()
    takes_cutter = True
    options: tuple[str, ...] = ()
    seconds_per_page = 0.05
    """CPU seconds per imposed page (a format that declares nothing is costed as a cutter SVG)."""
    seconds_per_part = 500e-6
    """CPU seconds per part placed and drawn."""

    def __init__(self, job: WriteJob) -> None:
        self.job = job
        self.written: list[Path] = []

    def page(self, number: int, page: Page) -> None:
        """Take one imposed page (1-based ``number``)."""

    def prepared(self, page: Page) -> Page:
        """``page`` with the print-then-cut registration marks of ``settings.cutter`` (a
        pnp.layout.cutter_marks.Cutter) in a layer "registration", when one is set."""
        cutter = self.job.settings.cutter
        shapes = () if cutter is None else cutter.marks(page.width, page.height, self.job.opts.words)
        if not shapes:  # no cutter, or Cricut (Design Space prints its own marks)
            return page
        return replace(page, items=page.items + (Group(shapes, layer="registration"),))

    def finish(self) -> list[Path]:
        """Close the format's files; return every path written, relative to the staging folder."""
        return self.written

    @classmethod
    def unserved(cls, components: Sequence[Component], settings: WriterSettings) -> list[tuple[str, str]]:
        """(component name, why) of each component this format writes nothing for; plan() names them,
        and refuses a kit of which the format can make nothing.

        Raises:
            SpecError: the format's settings are missing or wrong (e.g. pod without --service).
        """
        return []

    @classmethod
    def warnings(cls, components: Sequence[Component], settings: WriterSettings) -> list[str]:
        """What a user should look at before sending this format's files off (plan() prints them)."""
        return []

    @classmethod
    def owns(cls, relpath: str, stem: str) -> bool:
        """True when ``relpath`` (posix, relative to the game folder) is a file this format writes for
        the kit ``stem``: the files a rebuild of that kit in this format replaces."""
        return bool(re.fullmatch(cls.pattern(re.escape(stem)), relpath))

    @classmethod
    def pattern(cls, stem: str) -> str:
        """The regular expression of the files (posix, relative to the game folder) the format writes
        for the kit ``stem`` (already escaped)."""
        raise NotImplementedError

    @classmethod
    def seconds(cls, pages: int, components: Sequence[Component], settings: WriterSettings) -> float:
        """Roughly how long (CPU s) writing ``pages`` imposed pages of ``components`` with ``settings``
        takes: per page and per part placed (pnp.layout.limits.estimate_seconds adds it up)."""
        return pages * cls.seconds_per_page + sum(c.count for c in components) * cls.seconds_per_part

    @classmethod
    def pixels(cls, sheet, settings: WriterSettings) -> tuple[int, str, float]:
        """The largest image (pixels) the format renders per ``sheet`` (a pnp.layout.paper.Sheet) with
        ``settings``, the option that sets it, and the dpi; (0, "", 0) for a format that renders none."""
        return 0, "", 0.0
