"""build_kit(): spec -> components -> pages -> files (one writer per format) + manifest, written atomically.

Every file is first written into a staging folder, then the whole game folder is switched to the
new generation in one atomic step (pnp.store.kitstore): a kit is replaced whole or not at all, even under
kill -9, a full disk or two builds at once (they take turns on a per-game lock).
Nothing here knows a game by name: games declare their extra inputs (``Game.inputs``) and the
caller passes overrides by input name.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from ..core.errors import OutputError, SpecError, ValidationFailed
from ..core.findings import FAIL, Finding
from ..games import Game, KitContext, get_game, registry
from ..store.kitstore import KitStore
from ..store.names import check_safe_name
from ..core.ir import Component
from ..inputs.rulestext import parse_rules
from ..layout.cover import CoverInfo, KitCover
from ..layout.fit import board_fit
from ..layout.limits import check_budget
from ..layout.impose import effective_options, impose
from ..layout.options import ImposeOptions
from ..layout.paper import Sheet, available_papers, load_sheet, sheet_path
from ..render.writers import WRITERS, WriteJob, resolve_formats
from ..inputs.resources import builtin_spec, specs_dir
from ..inputs.specfields import SpecBase, load_yaml, validate_model

DEFAULT_FORMATS = ("pdf", "svg")
LOCK_WAIT = 120.0  # s: a second build into the same game folder waits this long for the first, then says "busy"
COMMON_INPUTS = {"rules": "rules quick reference printed on the cover (Markdown; see specs/rules/)"}


@dataclass(frozen=True)
class LoadedSpec:
    """A game, its validated spec, and where the spec came from."""
    game: Game
    spec: SpecBase
    path: Path


@dataclass
class KitResult:
    """What build_kit wrote."""
    game: str
    paper: str
    pages: int
    files: list[Path] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    inputs: list[Path] = field(default_factory=list)


def load_target(target: str) -> LoadedSpec:
    """Load a game by name (its built-in spec) or a spec file by path; its ``game:`` names the game.

    Raises:
        SpecError: unknown game, missing file, malformed YAML, or invalid spec.
    """
    games = registry()
    if target in games:
        path = builtin_spec(target)
    else:
        path = Path(target)
        if not path.exists() and not target.endswith((".yaml", ".yml")) and os.sep not in target:
            raise SpecError(f"unknown game {target!r} and no such spec file.", field="GAME",
                            hint=f"use one of: {', '.join(games)}, or the path of a spec file")
    data, lines = load_yaml(path)
    name = data.get("game")
    if not isinstance(name, str) or name not in games:
        raise SpecError(f"`game:` must name one of {', '.join(games)} (got {name!r}).", file=path,
                        line=lines.get(("game",), 1), field="game", hint="set game: to the game this spec describes")
    game = get_game(name)
    return LoadedSpec(game, validate_model(game.spec_model, data, path, lines), path)


def context(loaded: LoadedSpec, overrides: Mapping[str, Path] | None = None, full: bool = True) -> KitContext:
    """The KitContext for one kit: ``overrides`` maps input names to files (``--set NAME=FILE``);
    only those this game takes (``Game.inputs`` and COMMON_INPUTS) reach it, so one ``--words`` can
    go with a build of every game (check_override_names refuses a name no target takes)."""
    taken = {k: Path(v) for k, v in (overrides or {}).items()
             if k in loaded.game.inputs or k in COMMON_INPUTS}
    return KitContext(loaded.path, taken, full)


def check_override_names(targets: Sequence[str | Game], overrides: Mapping[str, Path]) -> None:
    """Refuse an override that none of ``targets`` (names, spec paths or Games) takes.

    Raises:
        SpecError: naming the input and the inputs the targets do take.
    """
    if not overrides:
        return
    games = [t if isinstance(t, Game) else load_target(t).game for t in targets]
    takes = dict(COMMON_INPUTS)
    for game in games:
        takes.update(game.inputs)
    for name in overrides:
        if name not in takes:
            who = ", ".join(g.title for g in games)
            raise SpecError(f"{who} take{'s' if len(games) == 1 else ''} no input {name!r}.", field="--set",
                            hint=f"inputs: {', '.join(sorted(takes))}")


def validate_target(target: str, overrides: Mapping[str, Path] | None = None,
                    papers: Sequence[str] | None = None) -> tuple[LoadedSpec, list[Finding]]:
    """Run the game's rules checks, then the board-fit report for ``papers`` (default: every
    standard paper). Nothing is drawn or written."""
    loaded = load_target(target)
    ctx = context(loaded, overrides)
    findings = loaded.game.check(loaded.spec, ctx)
    if not any(f.status == FAIL for f in findings):
        sheets = [load_sheet(p) for p in (papers or available_papers())]
        findings += board_fit(loaded.game.components(loaded.spec, ctx), sheets)
    return loaded, findings


def cover_info(loaded: LoadedSpec, ctx: KitContext) -> CoverInfo:
    """The cover's facts: title and designer from the spec, the rules text from ``rules:`` (beside the
    spec, else built in; ``--set rules=FILE`` replaces it).

    Raises:
        SpecError: the rules file is missing or malformed (names its file and line).
    """
    spec, game = loaded.spec, loaded.game
    path = ctx.input_path("rules", spec.rules or f"rules/{game.name}.md", specs_dir())
    rules = parse_rules(path)
    who = spec.designer or "an unnamed designer"
    source = (f"Rules: a summary in pnp's own words of {who}'s rules for {rules.title}; the designer's text is the "
              f"authority. Edit {path.name} (beside the spec, or --set rules=FILE) and rebuild to change it.")
    return CoverInfo(spec.title or game.title, spec.designer, spec.year, rules, source)


def metadata(info: CoverInfo, game: Game) -> dict:
    """Document metadata for the PDF and SVG writers."""
    return {"title": f"{info.title} \u2014 print-and-play kit", "author": info.designer,
            "subject": info.rules.description,
            "keywords": f"print-and-play, {info.title}, {info.designer}, board game, pnp"}


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_environment() -> None:
    """Refuse a SOURCE_DATE_EPOCH that is not a whole number of seconds from 0 to 2^32 - 1 (1970-2106):
    reportlab reads it for the PDF's dates, and int() would take "²"-like digits or fail after the pages.

    Raises:
        SpecError: naming the variable.
    """
    sde = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if sde and not (sde.isascii() and sde.isdigit() and len(sde) <= 10 and int(sde) < 2 ** 32):
        shown = repr(sde) if len(sde) <= 24 else f"{sde[:20]!r}... ({len(sde)} characters)"
        raise SpecError(f"SOURCE_DATE_EPOCH={shown} is not a whole number of seconds from 0 to {2 ** 32 - 1:,} "
                        "(1970 to 2106).", field="SOURCE_DATE_EPOCH",
                        hint="set it to a Unix time in plain digits such as 1700000000 (`date +%s`), or unset it")


def _sheet(paper: str) -> Sheet:
    sheet = load_sheet(paper)
    check_safe_name(sheet.name, "sheet name", file=sheet_path(paper), field="name")
    return sheet


@dataclass(frozen=True)
class Prepared:
    """A target that passed its rules checks: spec, context (inputs loaded once), components and
    the cover's facts (rules text read and parsed once)."""
    loaded: LoadedSpec
    ctx: KitContext
    components: list[Component]
    info: CoverInfo


def prepare(target: str, overrides: Mapping[str, Path] | None = None, loaded: LoadedSpec | None = None) -> Prepared:
    """Load a target (unless ``loaded`` is given), run the checks that decide a kit, and make its components.

    Raises:
        PnpError: bad spec, input file or rules text.
        ValidationFailed: the components break a rule.
    """
    loaded = loaded or load_target(target)
    ctx = context(loaded, overrides, full=False)
    failed = [f for f in loaded.game.check(loaded.spec, ctx) if f.status == FAIL]
    if failed:
        raise ValidationFailed(f"{loaded.game.name} fails {len(failed)} rules check(s), e.g. {failed[0].check} "
                               f"[{failed[0].rule}].", file=loaded.path, hint=f"run `pnp validate {target}`")
    return Prepared(loaded, ctx, loaded.game.components(loaded.spec, ctx), cover_info(loaded, ctx))


def build_kit(target: str, paper: str = "a4", formats: Sequence[str] = DEFAULT_FORMATS, out: Path = Path("output"),
              overrides: Mapping[str, Path] | None = None, opts: ImposeOptions = ImposeOptions(),
              progress: Callable[[int, int], None] | None = None, settings: Mapping | None = None,
              prepared: Prepared | None = None) -> KitResult:
    """Build one kit into ``out/<game>/``.

    Writes, per format (see pnp.render.writers): ``<game>-<paper>.pdf``, ``svg/<game>-<paper>-pNN.svg``
    (one per page), cutter SVGs, TTS decks or previews, and ``manifest-<paper>.json`` (game, paper, pages,
    components with count, trim size in mm and pages, board fit, and every file with its sha256).
    ``progress(done, total)`` is called after each page; ``settings`` go to the writers (dpi);
    ``prepared`` (from preflight) saves loading and checking the target a second time.

    Raises:
        PnpError: bad spec, input file, paper, option or output folder (nothing is written).
        ValidationFailed: the components break a rule (nothing is written).
    """
    formats = resolve_formats(formats)
    check_environment()
    prepared = prepared or prepare(target, overrides)
    loaded, ctx, components = prepared.loaded, prepared.ctx, prepared.components
    game, spec = loaded.game, loaded.spec
    sheet = _sheet(paper)
    title = spec.title or game.title
    notes = []
    if opts.duplex != "none" and effective_options(components, opts).duplex == "none":
        notes.append(f"--duplex {opts.duplex} ignored: no part of {game.title} has a printed back, so the kit "
                     "prints one-sided.")
    opts = effective_options(components, opts)
    check_budget(components, sheet, opts, file=loaded.path)
    info = prepared.info
    cover = KitCover(info, components, sheet, opts)
    total, plan, pages = impose(title, components, sheet, opts, cover)
    fit = board_fit(components, [sheet], opts.overlap)
    stem = f"{game.name}-{sheet.name}"
    manifest_name = f"manifest-{sheet.name}.json"

    def owns(rel: str) -> bool:
        """The files of the earlier kit (this game and paper, the formats built) that this build replaces."""
        return rel in (manifest_name, "manifest.json") or any(WRITERS[f].owns(rel, stem) for f in formats)

    with KitStore(Path(out), game.name, wait=LOCK_WAIT) as store:
        staging = store.staging()
        try:
            job = WriteJob(staging, stem, total, opts, components, metadata(info, game), dict(settings or {}),
                           cache=store.store / "cache")  # font subsets kept between builds, inside --out
            written = _write(job, formats, pages, progress)
            manifest = _manifest(game.name, sheet.name, total, components, plan, opts, fit, staging, written)
            (staging / manifest_name).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"writing the kit failed: {exc.strerror or exc}; the earlier kit is unchanged.",
                              file=Path(out) / game.name, field="--out",
                              hint="check the folder is writable and has space") from None
        written.append(Path(manifest_name))
        store.commit(staging, owns)
    target_dir = Path(out) / game.name
    used = [loaded.path, info.rules.path, sheet_path(paper)]
    used += [ctx.input_path(name, getattr(spec, name), specs_dir()) for name in game.inputs if hasattr(spec, name)]
    return KitResult(game.name, sheet.name, total, [target_dir / p for p in written], manifest, notes, used)


def preflight(targets: Sequence[str], paper: str, formats: Sequence[str], overrides: Mapping[str, Path],
              opts: ImposeOptions) -> dict[str, Prepared]:
    """Check every target before any is built: formats, paper, spec, inputs, rules checks, page
    budget and rules text, so a multi-target build never replaces one kit and then stops at a bad
    one. Returns each target's Prepared, for build_kit(prepared=...).

    Raises:
        PnpError: the first problem found (nothing has been written).
        ValidationFailed: a target breaks a rule.
    """
    resolve_formats(formats)
    check_environment()
    sheet = _sheet(paper)
    games = {t: load_target(t) for t in dict.fromkeys(targets)}
    check_override_names([loaded.game for loaded in games.values()], overrides)
    ready = {}
    for target in games:
        p = ready[target] = prepare(target, overrides, games[target])
        check_budget(p.components, sheet, effective_options(p.components, opts), file=p.loaded.path)
    return ready


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


def _manifest(game: str, paper: str, total: int, components: list[Component], plan, opts: ImposeOptions,
              fit: list[Finding], staging: Path, written: list[Path]) -> dict:
    return {
        "game": game,
        "paper": paper,
        "pages": total,
        "bleed_mm": opts.bleed,
        "duplex": opts.duplex,
        "components": [
            {"name": c.name, "count": c.count, "trim_mm": [round(c.width, 3), round(c.height, 3)], "shape": c.shape,
             "pages": list(pages)}
            for c, pages in zip(components, plan)],
        "board_fit": [{"status": f.status, "check": f.check} for f in fit],
        "files": [{"path": p.as_posix(), "bytes": (staging / p).stat().st_size, "sha256": _sha256(staging / p)}
                  for p in written],
    }
