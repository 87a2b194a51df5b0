"""What the requested formats say of a kit before it is drawn: the components each leaves out and
why, its warnings, the print service's safe area, and what keeps parts from a cutter's sheet edges
(the build note's words). Every format is asked through the registry (pnp.render.formats)."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..core.errors import SpecError
from ..core.ir import Component
from ..engine import Game
from ..layout.paper import Sheet, open_sheet
from ..render.formats import WriterSettings, formats


def format_notes(spec: Path, game: Game, components: Sequence[Component], names: Sequence[str],
                 settings: WriterSettings) -> tuple[str, ...]:
    """What each of the formats ``names`` leaves out of the kit of ``game`` (which components, why) and
    what it warns of, as notes; with a print service, which texts cross its safe area.

    Raises:
        SpecError: a format can make nothing of the kit (names the ``spec`` file, the format, the
            components and why), or its settings are wrong.
    """
    notes = []
    for fmt, writer in zip(names, formats().writers(names)):
        missing = writer.unserved(components, settings)
        notes += writer.warnings(components, settings)
        if not missing:
            continue
        listed = "; ".join(f"{name} ({why})" for name, why in missing)
        if len(missing) == len(components):
            raise SpecError(f"--format {fmt} can make nothing of {game.title}: {listed}.", file=spec,
                            field="--format", hint=f"build {game.name} in another format, or leave it out")
        notes.append(f"--format {fmt} writes nothing for {listed}.")
    if settings.service is not None:  # the print service's safe area: checked here, never by a renderer
        from ..checks import safearea  # with its print-service geometry: only a build for a print service
        notes += safearea.notes(served(components), settings.service)
    return tuple(notes)


def served(components: Sequence[Component]) -> list[Component]:
    """The components a print service takes (--format pod, validate --service: pnp.render.pod.why_not)."""
    from ..render.pod import why_not  # Pillow and the raster path: only a build for a print service
    return [c for c in components if why_not(c) is None]


def cutter_of(settings: WriterSettings, paper: Path) -> tuple[str | None, Sheet | None]:
    """(what keeps parts from the edges, in words, the ``paper`` without it) of a ``--cutter`` build,
    else (None, None): what the build note compares a cutter's sheet with (pnp.layout.sheetnote)."""
    machine = settings.cutter
    if machine is None:
        return None, None
    what = "Print Then Cut area" if machine.output_format else "registration marks"
    return f"--cutter {machine.name} ({machine.title}'s {what})", open_sheet(str(paper))[0]
