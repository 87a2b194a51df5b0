"""execute(): a checked BuildPlan into kits on disk. It only imposes, writes and commits.

Every file is first written into a staging folder, then the whole game folder is switched to the
new generation in one atomic step (pnp.store): a kit is replaced whole or not at all, even under
kill -9, a full disk or two builds at once (they take turns on a per-game lock).
"""
from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from ..core.errors import OutputError
from ..core.findings import Finding
from ..core.ir import Component, LazyFronts
from ..layout.impose import impose
from ..layout.kitpacking import pack_kit
from ..layout.packing import paper_of
from ..layout.options import ImposeOptions
from ..render.formats import WriteJob, WriterSettings, formats
from ..store.kitstore import KitStore
from ..store.recovery import read_only_view
from .diff import HISTORY, OldKit, compare, held_generations, history_generation, history_name, read_old
from .manifestfile import SpooledRecords, write_json
from .parts import PARTS_VERSION, kit_fingerprint, part_pages, parts_of
from .plan import DEFAULT_FORMATS, BuildPlan, Request, TargetPlan, kit_paper, load_paper, plan

LOCK_WAIT = 120.0  # s: a second build into the same game folder waits this long for the first, then says "busy"
Progress = Callable[[int, int], None]


@dataclass(eq=False)
class KitResult:
    """What one kit's build wrote: ``files`` (paths under OUT/<game>), its ``manifest`` (its "parts" a
    read-only sequence of the part records, held in a temporary file: pnp.pipeline.manifestfile.SpooledRecords),
    ``notes`` for the user and the ``inputs`` it read (what `pnp watch` watches)."""
    game: str
    paper: str
    pages: int
    files: list[Path] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    inputs: list[Path] = field(default_factory=list)


def metadata(tp: TargetPlan) -> dict:
    """Document metadata for the PDF and SVG writers (pnp's words in the kit's language, ``info.words``)."""
    info = tp.info
    keywords = ", ".join(k for k in (info.words("print-and-play"), info.title, info.designer, info.words("board game"),
                                     "pnp") if k)
    return {"title": info.words("{title} \u2014 print-and-play kit").format(title=info.title), "author": info.designer,
            "subject": info.rules.description, "keywords": keywords, "credit": info.credit}


def execute_target(tp: TargetPlan, request: Request, out: Path, progress: Progress | None = None,
                   on_wait: Callable[[str], None] | None = None) -> KitResult:
    """Impose and write one planned kit into ``out/<game>/`` and switch it in.

    Writes, per format (see pnp.render.formats): ``<game>-<paper>.pdf``, ``svg/<game>-<paper>-pNN.svg``
    (one per page), cutter SVGs, TTS decks or previews, and ``manifest-<paper>.json`` (game, paper, pages,
    components with count, trim size in mm and pages (a box's inside too, ``inner_mm`` [W, D, H]), board fit, every file with its sha256, the kit's
    ``fingerprint`` and every part with its key, fingerprint and pages: pnp.pipeline.parts) with a
    numbered copy in ``history/`` (pnp.pipeline.diff). With ``request.reprint``, also
    ``<game>-reprint-<paper>.pdf``: the parts new or changed since the kit it replaces (none when nothing
    changed; a note says so). With ``request.rules`` "booklet", also ``<game>-rules-booklet-<paper>.pdf``
    (pnp.layout.booklet). With ``request.proof``, every part and sheet carries the kit's version
    (pnp.layout.proof), also in the manifest. ``progress(done, total)`` is called after each page;
    ``on_wait(message)`` while another build holds the game's lock (default: a note on stderr; see
    pnp.store.lock).

    Written in the target's font book (``tp.book``, pnp.core.fontbook), the one it was planned in.

    Raises:
        OutputError: the output folder cannot be written (the earlier kit is unchanged).
    """
    with tp.book.in_use():
        return _execute_target(tp, request, out, progress, on_wait)


def _execute_target(tp: TargetPlan, request: Request, out: Path, progress: Progress | None,
                    on_wait: Callable[[str], None] | None) -> KitResult:
    game, sheet, names = tp.loaded.game, request.paper.sheet, request.formats
    parts = parts_of(tp.components)
    fingerprint = kit_fingerprint(parts)
    components, version = tp.components, None
    if request.proof:  # pnp.layout.proof: imported only by a build that stamps
        from ..layout.proof import stamp_components, version as proof_version  # only with --proof
        version = proof_version(fingerprint, _=tp.opts.words)
        components = stamp_components(tp.components, version) if version else tp.components
    imposed = impose(tp.info.title, components, sheet, tp.opts, tp.cover, tp.packing, proof=version)
    total, sheet_plan, pages = imposed.total, imposed.plan, imposed.pages
    where = part_pages(tp.packing, components, tp.cover.count, 2 if tp.opts.duplex in ("long", "short") else 1)
    placed = [p.placed(where) for p in parts] if request.reprint else None  # a reprint compares them after the pages
    paper = kit_paper(request)  # "<paper>-pdfx" for a print shop's kit: never the home kit's files
    stem = f"{game.name}-{paper}"
    manifest_name = f"manifest-{paper}.json"
    reprint_name = f"{game.name}-reprint-{paper}.pdf"
    booklet_name = f"{game.name}-rules-booklet-{paper}.pdf"
    notes = list(tp.notes)

    with KitStore(Path(out), game.name, wait=LOCK_WAIT, on_wait=on_wait) as store:
        old, generation = previous(Path(out), game.name, paper, read=request.reprint)

        def owns(rel: str) -> bool:
            """The files of the earlier kit (this game and paper) that this build replaces: every file
            of that kit in any format, not only the formats built (a kit is one build: a PDF drawn
            from older inputs never stays beside the new files, docs/output.md), its reprint and
            booklet, and history copies past the last HISTORY. A history copy is decided by its
            generation alone, so a rebuild asks the formats only about the kit's other files (and
            loads no format's module for its history)."""
            gen = history_generation(rel, paper)
            if gen is not None:
                return gen <= generation - HISTORY
            return rel in (manifest_name, "manifest.json", reprint_name, booklet_name) or owned_by_kit(rel, stem)

        staging = store.staging()
        try:
            # the manifest's part records, made now and held on disk while the pages are written
            records = SpooledRecords(texts=(p.record_text() for p in placed)) if placed is not None else \
                SpooledRecords(texts=(p.record_text(p.pages_in(where)) for p in parts))
            parts = where = None  # one entry per part, one per front: not kept while the pages are written
            job = WriteJob(staging, stem, total, tp.opts, components, metadata(tp), request.settings,
                           cache=store.store / "cache")  # font subsets kept between builds, inside --out

            written = _write(job, names, pages, progress)
            if request.reprint:
                note, extra = _reprint(tp, request, components, placed, old, generation, job, reprint_name, version)
                notes.append(note)
                written += extra
            if tp.booklet is not None:
                written += _booklet(tp, job, booklet_name)
            manifest = _manifest(game.name, paper, total, tp.components, sheet_plan, tp.opts, tp.fit,
                                 staging, written)
            manifest.update({"fingerprint": fingerprint, "parts_version": PARTS_VERSION,
                             "parts": records})
            if version:
                manifest["version"] = version
            write_json(staging, (manifest_name, history_name(paper, generation)), manifest)
        except OSError as exc:
            raise OutputError(f"writing the kit failed: {exc.strerror or exc}; the earlier kit is unchanged.",
                              file=Path(out) / game.name, field="--out",
                              hint="check the folder is writable and has space") from None
        written.append(Path(manifest_name))
        store.commit(staging, owns)
    target_dir = Path(out) / game.name
    return KitResult(game.name, paper, total, [target_dir / p for p in written], manifest, notes,
                     list(tp.inputs))


def owned_by_kit(rel: str, stem: str) -> bool:
    """True when ``rel`` (posix, relative to OUT/<game>) is a file some format writes for the kit
    ``stem`` ("<game>-<paper>"): what a new build of that kit removes, whatever formats it writes."""
    return formats().owns(rel, stem)


def previous(out: Path, game: str, paper: str, read: bool = True) -> tuple[OldKit | None, int]:
    """The kit a build replaces (None: none, its manifest is unreadable or lacks parts, or ``read``
    is false: only a reprint compares with it) and the new build's generation (one past the highest
    the kit's history holds)."""
    old = None
    if read:
        with contextlib.suppress(OutputError):
            old = read_old(out, game, paper)
    with contextlib.suppress(OutputError, OSError), read_only_view(out, game) as root:
        return old, max([0, *held_generations(root, paper)]) + 1
    return old, 1


def _reprint(tp: TargetPlan, request: Request, components: list[Component], parts, old: OldKit | None,
             generation: int, job: WriteJob, name: str, proof: str | None) -> tuple[str, list[Path]]:
    """Write the reprint of the parts new or changed since ``old`` into the job's staging folder
    as ``name`` (PDF), with its cover (pnp.layout.reprint_cover), every sheet stamped with ``proof``
    when set; a note saying what it holds."""
    game, sheet = tp.loaded.game.name, request.paper.sheet
    if old is None:
        return (f"--reprint: no earlier kit of {game} on {kit_paper(request)} with a parts list to compare with, so no reprint "
                "was written (print the whole kit).", [])
    diff = compare(game, kit_paper(request), old, parts)
    if not diff.changes:
        return f"--reprint: nothing changed since generation {old.generation}; no reprint written.", []
    from ..layout.reprint_cover import Entry, ReprintCover  # only a build with --reprint
    chosen = reprint_components(components, parts, diff.put_in)
    put_in = [Entry(c.group, c.key, "new" if c.kind == "added" else "replacement", c.title)
              for c in diff.changes if c.kind != "removed"]
    take_out = [Entry(c.group, c.key, "removed", c.title) if c.kind == "removed" else
                Entry(c.group, c.was[0], "replaced", c.was[2]) for c in diff.changes if c.kind != "added"]
    comps = [c for _, _, c in chosen]
    cover = ReprintCover(tp.info.title, take_out, put_in, sheet, old.generation, generation, tp.opts.words)
    if comps:
        packing = pack_kit(comps, sheet, tp.opts)
        where = part_pages(packing, comps, cover.count, 2 if tp.opts.duplex in ("long", "short") else 1)
        moved = {ci: (n, {f: j for j, f in enumerate(idx)}) for n, (ci, idx, _) in enumerate(chosen)}
        cover.pages_of = {p.ident: p.pages_in(where) for p in (
            replace(p, comp=moved[p.comp][0], fronts=tuple(moved[p.comp][1][f] for f in p.fronts))
            for p in parts if p.ident in diff.put_in)}
        imposed = impose(tp.info.title, comps, sheet, tp.opts, cover, packing, proof=proof)
        total, pages = imposed.total, imposed.pages
    else:  # only removals: the cover alone
        total = cover.count
        pages = iter(cover.pages([], [], sheet, tp.opts, total))
        if proof:
            from ..layout.proof import sheet_stamp  # only with --proof
            pages = (replace(p, items=p.items + (sheet_stamp(sheet, proof, tp.opts.words),)) for p in pages)
    stem = name[:-len(".pdf")]
    sub = replace(job, stem=stem, total=total, components=comps)
    written = _write(sub, ("pdf",), pages, None)
    return (f"--reprint: {name} holds {len(put_in)} new or changed part(s) and lists {len(take_out)} to take out"
            + "".join(f"; {note}" for note in diff.notes()) + ".", written)


def _booklet(tp: TargetPlan, job: WriteJob, name: str) -> list[Path]:
    """Write the rules booklet (pnp.layout.booklet) into the job's staging folder as ``name``: its
    sheets two-sided (flip on the short edge), without a cutter's marks."""
    from ..layout.booklet import DUPLEX as BOOKLET_DUPLEX  # only with --rules booklet
    booklet = tp.booklet
    sides = booklet.sheets()
    sub = replace(job, stem=name[:-len(".pdf")], total=len(sides), components=[],
                  opts=replace(job.opts, duplex=BOOKLET_DUPLEX), settings=replace(job.settings, cutter=None))
    return _write(sub, ("pdf",), iter(sides), None)


def reprint_components(components: Sequence[Component], parts,
                       keys: set) -> list[tuple[int, list[int], Component]]:
    """The components cut down to the fronts of the parts ``keys`` names ((group, key) pairs), each
    with its index in ``components`` and the indices of the fronts kept; components left with no
    front are dropped."""
    fronts: dict[int, list[int]] = {}
    for p in parts:
        if p.ident in keys:
            fronts.setdefault(p.comp, []).extend(p.fronts)
    out = []
    for ci, idx in sorted(fronts.items()):
        comp = components[ci]
        idx = sorted(idx)
        out.append((ci, idx, replace(comp, fronts=LazyFronts(idx, lambda i, f=comp.fronts: f[i]),
                                titles=tuple(comp.titles[i] for i in idx) if comp.titles else (),
                                sources=tuple(comp.sources[i] for i in idx) if comp.sources else ())))
    return out


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


def _write(job: WriteJob, names: tuple[str, ...], pages, progress) -> list[Path]:
    """Send every page to every writer of the formats ``names``, then finish them in registry order."""
    writers = [writer(job) for writer in formats().writers(names)]
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
             "paper": paper_of(c, opts), "pages": list(pages),
             **({"inner_mm": [round(v, 2) for v in c.inner]} if c.inner else {})}
            for c, pages in zip(components, plan_pages)],
        "board_fit": [{"status": f.status, "check": f.check} for f in fit],
        "files": [{"path": p.as_posix(), "bytes": (staging / p).stat().st_size, "sha256": _sha256(staging / p)}
                  for p in written],
    }
