"""Output formats as writers registered by name: pdf, svg, cut-svg, tts, pod, cricut, preview, showcase.

A kit build makes one ``WriteJob`` and one writer per requested format; every imposed page goes to
each writer's ``page()``, then ``finish()`` returns the files it wrote (paths relative to the
staging folder). Writers finish in registry order, so ``preview`` finds the PDF already written.
Each writer also says which files of a kit it writes (``owns``), so the switch to the new kit drops
every old file of that kit in every format, built this time or not (a kit is one build:
pnp.pipeline.execute.owned_by_kit).

Every file goes through pnp.core.safepath (no symlink or special file below the staging folder is
followed or written through). Format names follow pnp.store.names's safe-name rule (tested).

Adding a format: subclass KitWriter, decorate it with ``@register("name")``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import SpecError
from ..core.ir import Component, Group, Page
from ..layout.options import ImposeOptions
from ..core.safepath import checked_path, folder as safe_folder, write_bytes


PDF_METADATA = ("title", "author", "subject", "keywords")
"""The keys of WriteJob.metadata that the PDF's document information takes."""


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
    """One output format. ``folder`` is its sub-folder of the kit ("" for the kit folder itself);
    ``requires`` names formats that must be written too (they finish first); ``takes_cutter``: the
    format writes printed sheets that ``--cutter`` can mark and cut (pnp.layout.cutter_marks)."""
    name = ""
    folder = ""
    requires: tuple[str, ...] = ()
    takes_cutter = True

    def __init__(self, job: WriteJob) -> None:
        self.job = job
        self.written: list[Path] = []

    def page(self, number: int, page: Page) -> None:
        """Take one imposed page (1-based ``number``)."""

    def prepared(self, page: Page) -> Page:
        """``page`` with the print-then-cut registration marks of ``settings.cutter`` (a
        pnp.layout.cutter_marks.Cutter) in a layer "registration", when one is set."""
        cutter = self.job.settings.cutter
        if cutter is None:
            return page
        from ..layout.cutter_marks import Cutter, registration_marks
        if not isinstance(cutter, Cutter):  # none, or Cricut (Design Space prints its own marks)
            return page
        marks = Group(registration_marks(page.width, page.height, cutter, self.job.opts.words),
                      layer="registration")
        return replace(page, items=page.items + (marks,))

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
        raise NotImplementedError


WRITERS: dict[str, type[KitWriter]] = {}


def register(name: str):
    """Class decorator: make a KitWriter available as ``--format name``."""
    def deco(cls: type[KitWriter]) -> type[KitWriter]:
        cls.name = name
        WRITERS[name] = cls
        return cls
    return deco


def resolve_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """The formats to write, with what they require, in registry order.

    Raises:
        SpecError: an unknown format, or none at all (names the option and lists the known ones).
    """
    known = ", ".join(WRITERS)
    if not formats:
        raise SpecError("no output format given.", field="--format", hint=f"use {known}")
    wanted = set()
    for fmt in formats:
        if fmt not in WRITERS:
            raise SpecError(f"unknown format {fmt!r}.", field="--format", hint=f"use {known}")
        wanted.add(fmt)
        wanted.update(WRITERS[fmt].requires)
    return tuple(name for name in WRITERS if name in wanted)


@register("pdf")
class PdfKitWriter(KitWriter):
    """The whole kit as one PDF: ``<stem>.pdf``."""

    def __init__(self, job: WriteJob) -> None:
        super().__init__(job)
        from ..core.memo import active
        from .pdf import PdfWriter
        self.path = checked_path(job.staging, f"{job.stem}.pdf")  # reportlab opens it (and its chunks) by name
        meta = job.metadata
        options = dict(duplex=job.opts.duplex, **{k: meta[k] for k in PDF_METADATA if k in meta})
        if active() is not None and job.settings.press is None:  # `pnp watch`: unchanged pages are reused
            from .pdfsplice import SplicingPdfWriter
            self.pdf = SplicingPdfWriter(job.staging, self.path.name, **options)
        else:
            self.pdf = PdfWriter(self.path, **options, **job.settings.pdf_colour)

    def page(self, number: int, page: Page) -> None:
        self.pdf.add(self.prepared(page))

    def finish(self) -> list[Path]:
        self.pdf.close()
        return [Path(self.path.name)]

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"{stem}\.pdf"


SVG_TEXT_MODES = ("text", "outlines")
"""How page SVGs set text (``settings.svg_text``, ``--svg-text``): ``<text>`` with the font embedded
(@font-face; the default), or glyph outlines (``<path>``) for programs that ignore @font-face (Inkscape)."""


class _PageSvgWriter(KitWriter):
    """One SVG file per page, named ``<folder>/<stem>-pNN<suffix>.svg`` (svg.svg_text; ``cut``: a cutter SVG;
    ``settings.svg_text == "outlines"``: text as glyph outlines, ``--svg-text outlines``)."""
    suffix = ""
    only_pages_with_parts = False
    cut = False

    def page(self, number: int, page: Page) -> None:
        if self.only_pages_with_parts and not page.placements:
            return
        rel = Path(self.folder) / f"{self.job.stem}-p{number:0{self.job.page_digits}d}{self.suffix}.svg"
        from .pagememo import page_text
        from .svg import svg_text
        page, about = self.prepared(page), self.job.describe(number, page)
        outlines = self.job.settings.svg_text == "outlines"
        if not hasattr(self, "_fonts"):
            from .pagememo import FontStamps
            self._fonts = FontStamps()  # each face's bytes hashed once per build
        text = page_text(page, self._fonts, (*about, str(self.cut), str(outlines)),
                         lambda: svg_text(page, *about, cut=self.cut, cache=self.job.cache, outlines=outlines))
        write_bytes(self.job.staging, rel.as_posix(), text.encode("utf-8"))
        self.written.append(rel)

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"{cls.folder}/{stem}-p\d+{re.escape(cls.suffix)}\.svg"


@register("svg")
class SvgKitWriter(_PageSvgWriter):
    """One SVG per page: ``svg/<stem>-pNN.svg``."""
    folder = "svg"
    cut = False


@register("cut-svg")
class CutSvgKitWriter(_PageSvgWriter):
    """Cutter SVGs for pages with parts: ``cut/<stem>-pNN-cut.svg`` (layers "cut" and "art")."""
    folder = "cut"
    suffix = "-cut"
    only_pages_with_parts = True
    cut = True


@register("tts")
class TtsKitWriter(KitWriter):
    """A Tabletop Simulator saved object of the whole kit and its images, in a folder per kit (so kits
    whose paper names share a prefix, a4 and a4-word, never claim each other's files):
    ``tts/<stem>/<stem>.json`` and ``tts/<stem>/<stem>-<part>….png`` (see pnp.render.tts_save).
    ``settings.tts_url``: the base URL of hosted images (default: ``file:///`` paths of the
    files under OUT/<game>/tts/<stem>)."""
    folder = "tts"
    takes_cutter = False

    def finish(self) -> list[Path]:
        from .tts_save import kit_folder, url_maker, write_save
        rel = f"{self.folder}/{self.job.stem}"
        folder = self.job.kit_folder(rel)
        url = url_maker(kit_folder(self.job.staging) / rel, self.job.settings.tts_url)
        written = write_save(self.job.components, folder, self.job.stem, self.job.metadata.get("title", ""), url,
                             self.job.settings.workers)
        return [p.relative_to(self.job.staging) for p in written]

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"tts/{stem}/{stem}(-[a-z0-9_-]+)?\.(png|json)"


@register("pod")
class PodKitWriter(KitWriter):
    """Print-on-demand files for ``settings.service`` (a pnp.render.pod.Service): per card-like
    component one PNG per face and back with bleed, a per-card PDF and a contact sheet with the safe
    area: ``pod/<stem>-<service>-<part>…`` (see pnp.render.pod)."""
    folder = "pod"
    takes_cutter = False

    @classmethod
    def unserved(cls, components: Sequence[Component], settings: WriterSettings) -> list[tuple[str, str]]:
        from .pod import SERVICES, why_not
        if settings.service is None:
            raise SpecError("--format pod needs --service.", field="--service",
                            hint=f"add --service {' | '.join(SERVICES)} (or custom:DPI,BLEED,SAFE)")
        return [(c.name, why) for c in components if (why := why_not(c, settings.service))]

    def finish(self) -> list[Path]:
        from .pod import why_not, write_component
        service = self.job.settings.service
        for comp in self.job.components:
            if why_not(comp) is None:
                self.written += [p.relative_to(self.job.staging) for p in
                                 write_component(comp, service, self.job.kit_folder(f"{self.folder}/{self.job.stem}"),
                                                 self.job.stem, self.job.settings.workers,
                                                 **self.job.settings.pdf_colour)]
        return self.written

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"pod/{stem}/{stem}-[a-z0-9_-]+\.(png|pdf)"


@register("cricut")
class CricutKitWriter(KitWriter):
    """Cricut Print Then Cut (``--cutter cricut``): per front sheet with parts, the parts as one
    transparent PNG within Design Space's Print Then Cut area and a cut SVG in the same coordinates,
    plus the sizes to set (``cricut/<stem>-pNN.png|svg``, ``cricut/<stem>.txt``, the stem ending in
    "-cricut"; see
    pnp.render.cricut)."""
    folder = "cricut"

    def __init__(self, job: WriteJob) -> None:
        super().__init__(job)
        self.sheets: list = []

    @classmethod
    def unserved(cls, components: Sequence[Component], settings: WriterSettings) -> list[tuple[str, str]]:
        from ..layout.cutter_marks import Cricut
        cutter = settings.cutter
        if not isinstance(cutter, Cricut):
            raise SpecError("--format cricut is the Print Then Cut output of --cutter cricut.", field="--format",
                            hint="use --cutter cricut instead of --format cricut")
        unfit = [(c.name, f"{c.width:g} x {c.height:g} mm, larger than {cutter.title}'s Print Then Cut area "
                          f"({cutter.width:g} x {cutter.height:g} mm)") for c in components
                 if not c.board and not cutter.fits(c.width, c.height)]
        if unfit and len(unfit) == len(components):
            raise SpecError(f"--cutter cricut can cut none of the parts: {'; '.join(f'{n} ({why})' for n, why in unfit)}.",
                            field="--cutter", hint="print the PDF without --cutter and cut by hand, or make the parts "
                                                   "smaller")
        return unfit

    @classmethod
    def warnings(cls, components: Sequence[Component], settings: WriterSettings) -> list[str]:
        backed = [c.name for c in components if c.back is not None]
        return [f"--cutter cricut: Design Space prints one side, so the Print Then Cut images hold the fronts only; "
                f"no back is printed for {', '.join(backed)}."] if backed else []

    def page(self, number: int, page: Page) -> None:
        from .cricut import SheetJob, check_sheet
        if page.side != "front" or not page.placements:
            return
        base = f"{self.job.stem}-p{number:0{self.job.page_digits}d}"
        check_sheet(page, self.job.settings.cutter, base)  # refused before any image is drawn
        self.sheets.append((number, SheetJob(page, self.job.settings.cutter, self.job.staging, self.folder, base,
                                             self.job.describe(number, page)[0])))

    def finish(self) -> list[Path]:
        from .cricut import write_guide, write_sheets
        if self.sheets:
            self.job.kit_folder(self.folder)
            made = write_sheets([job for _, job in self.sheets], self.job.settings.workers)
            sheets = [(number, sheet) for (number, _), sheet in zip(self.sheets, made)]
            for _, sheet in sheets:
                self.written += [sheet.png, sheet.svg]
            self.written.append(write_guide(sheets, self.job.settings.cutter, self.job.staging, self.folder,
                                            self.job.stem))
        return self.written

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"cricut/{stem}(-p\d+\.(png|svg)|\.txt)"


@register("preview")
class PreviewKitWriter(KitWriter):
    """Every page of the PDF as PNG at ``settings.dpi`` plus a contact sheet:
    ``preview/<stem>-pNN.png`` and ``preview/<stem>-contact.png`` (bounded in pixels and memory:
    see pnp.render.raster; a long kit's contact sheet shows a sample of its pages)."""
    folder = "preview"
    requires = ("pdf",)

    def page(self, number: int, page: Page) -> None:
        from .raster import check_page_pixels
        check_page_pixels(page.width, page.height, self.job.settings.dpi, number)

    def finish(self) -> list[Path]:
        from .raster import render_previews
        return render_previews(self.job.staging / f"{self.job.stem}.pdf", self.job.staging, self.folder,
                               self.job.stem, self.job.settings.dpi, workers=self.job.settings.workers)

    @classmethod
    def pattern(cls, stem: str) -> str:
        return rf"preview/{stem}-(p\d+|contact)\.png"
