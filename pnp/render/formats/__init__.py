"""Output formats as plug-ins: each format is one class (a KitWriter, pnp.render.formats.base) in a
module of its own that declares its name's files, its options, its cost and what it cannot make.

pnp's own are BUILTIN, in the order writers finish (``preview`` after ``pdf``, whose file it
renders); a package adds one through the entry-point group GROUP (``name = "package.module:Writer"``
in its pyproject.toml), after pnp's own. The CLI, the plan and the limits ask a format through a
``Formats`` registry; none of them names a format.

A format's module is imported when the format is first asked for; its heavy backend (Pillow,
pypdfium2) is imported by the writer's methods, so a build imports only what it writes.
"""
from __future__ import annotations

import importlib
import re
from functools import cached_property, lru_cache
from importlib.metadata import entry_points
from typing import Iterable, Mapping, Sequence

from ...core.errors import SpecError
from .base import PDF_METADATA, KitWriter, WriteJob, WriterSettings

GROUP = "pnp.formats"
"""The entry-point group of third parties' output formats."""

BUILTIN: Mapping[str, str] = {
    "pdf": "pdf:PdfKitWriter",
    "svg": "svg:SvgKitWriter",
    "cut-svg": "svg:CutSvgKitWriter",
    "tts": "tts:TtsKitWriter",
    "pod": "pod:PodKitWriter",
    "cricut": "cricut:CricutKitWriter",
    "showcase": "showcase:ShowcaseKitWriter",
    "preview": "preview:PreviewKitWriter",
}
"""pnp's own formats: name -> "module:class" in this package, in the order writers finish."""

DEFAULT_FORMATS = ("pdf", "svg")
FORMAT_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,30}")
"""A format's name: also a file and folder name of the kit (pnp.store.names's safe-name rule)."""

OPTION_FLAGS: Mapping[str, str] = {"dpi": "--dpi", "svg_text": "--svg-text", "tts_url": "--tts-url",
                                   "service": "--service"}
"""WriterSettings field -> the command-line option that sets it, for the settings only some formats
read (check_options). The rest are read by several: --cutter by every format that prints sheets
(KitWriter.takes_cutter), --colour and --pdfx by every PDF, --workers by every raster format."""

__all__ = ["BUILTIN", "DEFAULT_FORMATS", "GROUP", "Formats", "KitWriter", "PDF_METADATA", "WriteJob",
           "WriterSettings", "formats"]


class Formats:
    """The output formats by name: pnp's own (BUILTIN), then the entry points of GROUP that pnp's own
    do not shadow. ``points``: name -> an importlib.metadata.EntryPoint (default: the installed
    distributions'). Each format's class is loaded once, when first asked for."""

    def __init__(self, points: Mapping | None = None) -> None:
        self._points = points
        self._loaded: dict[str, type[KitWriter]] = {}

    @cached_property
    def third_party(self) -> dict:
        """Third parties' formats by name (entry points, not loaded), sorted by name."""
        points = self._points if self._points is not None else {ep.name: ep for ep in entry_points(group=GROUP)}
        return {n: points[n] for n in sorted(points) if n not in BUILTIN}

    def names(self) -> tuple[str, ...]:
        """Every format's name, pnp's own first (none is loaded)."""
        return tuple(BUILTIN) + tuple(self.third_party)

    def get(self, name: str) -> type[KitWriter]:
        """The writer class of format ``name``.

        Raises:
            SpecError: an unknown format (field --format, naming the known ones), or a third party's
                that cannot be loaded, is not a KitWriter or has a name that is not a safe file name.
        """
        if name in self._loaded:
            return self._loaded[name]
        if name in BUILTIN:
            module, cls = BUILTIN[name].split(":")
            writer = getattr(importlib.import_module(f"{__name__}.{module}"), cls)
        elif name in self.third_party:
            writer = self._load(name)
        else:
            raise SpecError(f"unknown format {name[:40]!r}.", field="--format", hint=f"use {', '.join(self.names())}")
        writer.name = name
        self._loaded[name] = writer
        return writer

    def _load(self, name: str) -> type[KitWriter]:
        ep = self.third_party[name]
        try:
            writer = ep.load()
        except Exception as exc:  # a broken plug-in is reported, not a traceback
            raise SpecError(f"the format {name!r} ({ep.value}, entry point group {GROUP}) cannot be loaded: "
                            f"{type(exc).__name__}: {exc}.", field="--format",
                            hint="reinstall the package that provides it, or use another format") from None
        if not (isinstance(writer, type) and issubclass(writer, KitWriter)) or not FORMAT_NAME.fullmatch(name):
            raise SpecError(f"the entry point {name!r} ({ep.value}, group {GROUP}) is not a pnp output format "
                            "(a pnp.render.formats.KitWriter named with lower-case letters, digits and -).",
                            field="--format", hint="use another format, or fix the package that provides it")
        return writer

    def resolve(self, wanted: Sequence[str]) -> tuple[str, ...]:
        """The formats to write: ``wanted`` with what they require, in registry order.

        Raises:
            SpecError: an unknown format, or none at all (names the option and lists the known ones).
        """
        if not wanted:
            raise SpecError("no output format given.", field="--format", hint=f"use {', '.join(self.names())}")
        chosen = set()
        for name in wanted:
            chosen.add(name)
            chosen.update(self.get(name).requires)
        order = tuple(BUILTIN) if chosen <= BUILTIN.keys() else self.names()  # pnp's own come first: no scan
        return tuple(name for name in order if name in chosen)

    def writers(self, names: Iterable[str]) -> list[type[KitWriter]]:
        """The writer classes of ``names``, in that order."""
        return [self.get(name) for name in names]

    def owns(self, relpath: str, stem: str) -> bool:
        """True when ``relpath`` (posix, relative to the game folder) is a file some format writes for
        the kit ``stem``: what a new build of that kit removes, whatever formats it writes (a third
        party's format that cannot be loaded owns nothing)."""
        for name in self.names():
            try:
                writer = self.get(name)
            except SpecError:
                continue
            if writer.owns(relpath, stem):
                return True
        return False

    def check_options(self, names: Sequence[str], settings: WriterSettings) -> None:
        """Refuse a writer setting given on the command line that none of the formats ``names`` reads
        (a value other than WriterSettings' default, e.g. --tts-url without --format tts).

        Raises:
            SpecError: naming the option and the formats that take it.
        """
        default = WriterSettings()
        read = {option for name in names for option in self.get(name).options}
        for option, flag in OPTION_FLAGS.items():
            if option not in read and getattr(settings, option) != getattr(default, option):
                takers = [n for n in self.names() if n in BUILTIN and option in self.get(n).options]
                raise SpecError(f"{flag} is for --format {' or '.join(takers)}, and this build writes "
                                f"{', '.join(names)}.", field=flag,
                                hint=f"add --format {takers[0]}, or leave {flag} out")


@lru_cache(maxsize=1)
def formats() -> Formats:
    """The registry of the installed formats, made once per process (the installed distributions'
    entry points do not change while it runs; a test makes its own Formats)."""
    return Formats()
