"""execute(): a checked BuildPlan into kits on disk. It only imposes, writes and commits.

Every file is first written into a staging folder, then the whole game folder is switched to the
new generation in one atomic step (pnp.store): a kit is replaced whole or not at all, even under
kill -9, a full disk or two builds at once (they take turns on a per-game lock).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from ..core.errors import OutputError
from ..core.findings import Finding
from ..core.ir import Component
from ..core.safepath import write_bytes
from ..layout.impose import impose
from ..layout.packing import paper_of
from ..layout.options import ImposeOptions
from ..render.writers import WRITERS, WriteJob, WriterSettings
from ..store.kitstore import KitStore
from .plan import DEFAULT_FORMATS, BuildPlan, Request, TargetPlan, load_paper, plan

LOCK_WAIT = 120.0  # s: a second build into the same game folder waits this long for the first, then says "busy"
Progress = Callable[[int, int], None]


@dataclass
class KitResult:
    """What one kit's build wrote: ``files`` (paths under OUT/<game>), its ``manifest``, ``notes``
    for the user and the ``inputs`` it read (what `pnp watch` watches)."""
    game: str
    paper: str
    pages: int
    files: list[Path] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    inputs: list[Path] = field(default_factory=list)


def metadata(tp: TargetPlan) -> dict:
    """Document metadata for the PDF and SVG writers."""
    info = tp.info
    keywords = ", ".join(k for k in ("print-and-play", info.title, info.designer, "board game", "pnp") if k)
    return {"title": f"{info.title} \u2014 print-and-play kit", "author": info.designer,
            "subject": info.rules.description, "keywords": keywords, "credit": info.credit}


def execute_target(tp: TargetPlan, request: Request, out: Path, progress: Progress | None = None,
                   on_wait: Callable[[str], None] | None = None) -> KitResult:
    """Impose and write one planned kit into ``out/<game>/`` and switch it in.

    Writes, per format (see pnp.render.writers): ``<game>-<paper>.pdf``, ``svg/<game>-<paper>-pNN.svg``
    (one per page), cutter SVGs, TTS decks or previews, and ``manifest-<paper>.json`` (game, paper, pages,
    components with count, trim size in mm and pages, board fit, and every file with its sha256).
    ``progress(done, total)`` is called after each page; ``on_wait(message)`` while another build
    holds the game's lock (default: a note on stderr; see pnp.store.lock).

    Raises:
        OutputError: the output folder cannot be written (the earlier kit is unchanged).
    """
    game, sheet, formats = tp.loaded.game, request.paper.sheet, request.formats
    imposed = impose(tp.info.title, tp.components, sheet, tp.opts, tp.cover, tp.packing)
    total, sheet_plan, pages = imposed.total, imposed.plan, imposed.pages
    stem = f"{game.name}-{sheet.name}"
    manifest_name = f"manifest-{sheet.name}.json"

    def owns(rel: str) -> bool:
        """The files of the earlier kit (this game and paper, the formats built) that this build replaces."""
        return rel in (manifest_name, "manifest.json") or any(WRITERS[f].owns(rel, stem) for f in formats)

    with KitStore(Path(out), game.name, wait=LOCK_WAIT, on_wait=on_wait) as store:
        staging = store.staging()
        try:
            job = WriteJob(staging, stem, total, tp.opts, tp.components, metadata(tp), request.settings,
                           cache=store.store / "cache")  # font subsets kept between builds, inside --out

            written = _write(job, formats, pages, progress)
            manifest = _manifest(game.name, sheet.name, total, tp.components, sheet_plan, tp.opts, tp.fit,
                                 staging, written)
            write_bytes(staging, manifest_name, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
        except OSError as exc:
            raise OutputError(f"writing the kit failed: {exc.strerror or exc}; the earlier kit is unchanged.",
                              file=Path(out) / game.name, field="--out",
                              hint="check the folder is writable and has space") from None
        written.append(Path(manifest_name))
        store.commit(staging, owns)
    target_dir = Path(out) / game.name
    return KitResult(game.name, sheet.name, total, [target_dir / p for p in written], manifest, list(tp.notes),
                     list(tp.inputs))


def execute(build_plan: BuildPlan, out: Path) -> Iterator[KitResult]:
    """Write every kit of ``build_plan`` in order, yielding each result as it is switched in."""
    for tp in build_plan.targets:
        yield execute_target(tp, build_plan.request, out)


def build_kit(target: str, paper: str = "a4", formats: Sequence[str] = DEFAULT_FORMATS,
              out: Path = Path("output"), overrides: Mapping[str, Path] | None = None,
              opts: ImposeOptions = ImposeOptions(), settings: WriterSettings = WriterSettings()) -> KitResult:
    """plan() then execute() for one target: the library's one-call build.

    Raises:
        PnpError: bad spec, input file, paper, option or output folder (nothing is written).
        ValidationFailed: the components break a rule (nothing is written).
    """
    request = Request(load_paper(paper), tuple(formats), opts, dict(overrides or {}), settings)
    build_plan = plan([target], request)
    return execute_target(build_plan.targets[0], build_plan.request, out)


def _write(job: WriteJob, formats: tuple[str, ...], pages, progress) -> list[Path]:
    """Send every page to every writer, then finish them in registry order."""
    writers = [WRITERS[name](job) for name in formats]
    for number, page in enumerate(pages, start=1):
        for w in writers:
            w.page(number, page)
        if progress:
            progress(number, job.total)
    written: list[Path] = []
    for w in writers:
        written += w.finish()
    return written


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _manifest(game: str, paper_name: str, total: int, components: list[Component], plan_pages, opts: ImposeOptions,
              fit: list[Finding], staging: Path, written: list[Path]) -> dict:
    return {
        "game": game,
        "paper": paper_name,
        "pages": total,
        "bleed_mm": opts.bleed,
        "duplex": opts.duplex,
        "components": [
            {"name": c.name, "count": c.count, "trim_mm": [round(c.width, 3), round(c.height, 3)], "shape": c.shape,
             "paper": paper_of(c, opts), "pages": list(pages)}
            for c, pages in zip(components, plan_pages)],
        "board_fit": [{"status": f.status, "check": f.check} for f in fit],
        "files": [{"path": p.as_posix(), "bytes": (staging / p).stat().st_size, "sha256": _sha256(staging / p)}
                  for p in written],
    }
