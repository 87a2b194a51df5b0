"""plan(): every input of a build resolved and checked once, before anything is written.

``plan(targets, request)`` loads each target's spec, opens its input files through the KitContext
(which records every path it opens), parses the rules text once (glyphs checked there), runs the
rules checks, makes the components, applies the request's options (duplex turned off for a kit
without backs), checks the page budget and lays out the cover. The result, a BuildPlan, is all
``execute()`` needs: it only imposes, writes and commits. `pnp validate` is plan() alone, `pnp
build` is plan() then execute(), and `pnp watch` loops over both; because every check runs in
plan(), a multi-target build never replaces one kit and then stops at a bad one.

Values arrive typed (a loaded Sheet, ImposeOptions, format names checked against the registry):
the command line turns strings into them once, at its edge. Nothing here knows a game by name.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from ..core.errors import PnpError, SpecError, ValidationFailed
from ..core.findings import FAIL, WARN, Finding
from ..core.fontbook import FontBook, for_build
from ..core.words import has_words, words
from ..core.ir import Component
from ..engine import Game, KitContext, PaperRoom, game_names, get_game, third_party_names
from ..engine.declared import GeneratorSpec, check_parts
from ..inputs.gamefolder import exists_inside
from ..inputs.resources import builtin_folder, builtin_spec, shipped_specs
from ..inputs.rulestext import parse_rules
from ..inputs.specfields import SpecBase, load_yaml, validate_model
from ..layout.cover import CoverInfo, KitCover
from ..layout.fit import board_fit
from ..layout.impose import effective_options
from ..layout.limits import Budget, check_budget, check_fit_work, duration
from ..layout.options import ImposeOptions
from ..layout.kitpacking import Packing, pack_kit
from ..layout.sheetnote import sheet_counts
from ..layout.paper import Sheet, available_papers, load_sheet, open_sheet
from ..layout.partfit import room_for_parts
from ..render.formats import DEFAULT_FORMATS, WriterSettings, formats
from .formatnotes import cutter_of, format_notes, served
from ..store.names import MAX_NAME_CHARS, SAFE_NAME, check_safe_name
from ..store.recovery import kit_link

if TYPE_CHECKING:
    from ..layout.booklet import RulesBooklet  # only with --rules booklet


COMMON_INPUTS = {"rules": "rules quick reference printed on the cover (Markdown; see specs/<game>/rules.md)"}


@dataclass(frozen=True, eq=False)
class Paper:
    """The paper of a build: the loaded sheet template and the file it came from (watched)."""
    sheet: Sheet
    path: Path


def load_paper(name_or_path: str) -> Paper:
    """Load ``--paper``: a built-in name (a4, letter, a3, tabloid) or a sheet YAML file.

    Raises:
        SpecError: unknown paper, an invalid template, or a name that cannot be a file name.
    """
    sheet, path = open_sheet(name_or_path)
    check_safe_name(sheet.name, "sheet name", file=path, field="name")
    return Paper(sheet, path)


@dataclass(frozen=True, eq=False)
class Request:
    """What to build, typed: ``paper``, output ``formats`` (registered writer names), imposition
    ``opts``, ``overrides`` (input name -> file, from ``--set NAME=FILE``), writer ``settings``
    (pnp.render.formats.WriterSettings: preview dpi, SVG text, TTS base URL, print service, cutter), ``full`` (validate: also the slow analyses and the board-fit report for every
    standard paper), ``reprint`` (also write the reprint of the new and changed parts, pnp.pipeline.diff)
    ``proof`` (stamp the kit's version on every part and sheet, pnp.layout.proof) and ``rules``
    (RULES_MODES: "cover", the rules on the kit's cover only; "booklet", also a rules booklet,
    pnp.layout.booklet)."""
    paper: Paper
    formats: tuple[str, ...] = DEFAULT_FORMATS
    opts: ImposeOptions = ImposeOptions()
    overrides: Mapping[str, Path] = field(default_factory=dict)
    settings: WriterSettings = WriterSettings()
    full: bool = False
    reprint: bool = False
    proof: bool = False
    rules: str = "cover"
    language: str | None = None
    """``--lang CODE``: build only that language of each kit (one of its spec's ``languages:``)."""


PDFX_SUFFIX = "-pdfx"
"""What a print shop's kit (``--pdfx``) adds to its paper's name: ``<game>-<paper>-pdfx.pdf``, never the home kit."""


def kit_paper(request: Request) -> str:
    """The name a kit's files and manifest carry for its paper: the sheet's name, plus PDFX_SUFFIX for
    a print shop's kit (``settings.pdfx``), which is then a kit of its own beside the home kit."""
    return request.paper.sheet.name + (PDFX_SUFFIX if request.settings.pdfx else "")


RULES_MODES = ("cover", "booklet")
"""Where the rules are printed (``--rules``): on the kit's cover, or on it and as a booklet too."""


@dataclass(frozen=True, eq=False)
class LoadedSpec:
    """A game, its validated spec, where the spec came from and the line of each of its fields."""
    game: Game
    spec: SpecBase
    path: Path
    lines: Mapping = field(default_factory=dict, compare=False)


@dataclass(frozen=True, eq=False)
class TargetPlan:
    """One target, resolved and checked: its spec, context (inputs loaded once), findings, and,
    when the checks pass, its components, the board-fit report for the request's paper (``fit``),
    effective options, cover facts, the kit's ``packing`` (made once, used by the cover and the
    imposition) and laid-out cover.
    ``inputs`` lists every file the kit reads (spec, rules text, sheet, declared inputs)."""
    target: str
    loaded: LoadedSpec
    ctx: KitContext
    findings: list[Finding]
    inputs: tuple[Path, ...]
    components: list[Component] | None = None
    fit: list[Finding] = field(default_factory=list)
    opts: ImposeOptions | None = None
    info: CoverInfo | None = None
    cover: KitCover | None = None
    notes: tuple[str, ...] = ()
    budget: Budget | None = None  # pages and time estimated before anything is drawn
    packing: Packing | None = None
    booklet: RulesBooklet | None = None  # the rules booklet, laid out (request.rules "booklet")
    book: FontBook = field(default_factory=FontBook, repr=False)  # the target's faces and type tables: execute writes in it

    @property
    def failed(self) -> list[Finding]:
        return [f for f in self.findings if f.status == FAIL]


@dataclass(frozen=True, eq=False)
class BuildPlan:
    """Every target of one build, in order, with the request they share."""
    request: Request
    targets: tuple[TargetPlan, ...]


def load_target(target: str) -> LoadedSpec:
    """Load a kit: a shipped spec folder by name (specs/<name>/, the five games and the examples, as
    `pnp list` shows them), a game folder or a spec file by path. One engine reads them all: a spec
    whose ``game:`` names a registered generator (pnp.engine) gets its parts from that generator, a
    spec with ``components:`` and no ``game:`` from its templates and data (pnp.custom).

    Raises:
        SpecError: unknown name, missing file, malformed YAML, a ``game:`` naming no generator (file,
            line, field and the known names), or an invalid spec.
    """
    path = Path(target)
    kit = kit_link(path)  # OUT/<game> of a build run here (--out .): a kit pnp wrote is never a game
    bare = not target.endswith((".yaml", ".yml")) and os.sep not in target
    if target in game_names() or (bare and (kit is not None or not path.exists())):
        if not SAFE_NAME.match(target) or not builtin_spec(target).is_file():
            if kit is not None:
                raise _a_kit(target, kit)
            raise SpecError(f"unknown game {target!r} and no such spec file.", field="GAME",
                            hint=f"use one of: {', '.join(shipped_specs())}, or the path of a spec file or game folder")
        path = builtin_spec(target)
    elif kit is not None:
        raise _a_kit(target, kit)
    if path.is_dir() and path.suffix not in (".yaml", ".yml"):  # a game folder: DIR/<DIR>.yaml
        from ..custom import spec_in_folder  # pnp.custom's template models (0.4 s): only for a game folder
        path = spec_in_folder(path)
    data, lines = load_yaml(path)
    if isinstance(data, dict) and "components" in data and data.get("game", "custom") == "custom":
        from ..custom import load  # as above: only a data-driven spec (components:, no game: but custom)
        return LoadedSpec(*load(path, data, lines), path, lines)
    name = data.get("game")
    # names only: a build of one kit imports only its own generator, and reads the installed packages'
    # entry points (about 0.1 s) only for a name that is not pnp's own
    if not isinstance(name, str) or (name not in game_names() and name not in third_party_names()):
        known = game_names() + third_party_names()
        raise SpecError(f"`game:` must name one of {', '.join(known)} (got {name!r}).", file=path,
                        line=lines.get(("game",), 1), field="game",
                        hint="set game: to a registered generator (pnp list shows pnp's own); a spec names "
                             "generators, never files of code")
    game = get_game(name, file=path, line=lines.get(("game",), 1))
    return LoadedSpec(game, validate_model(game.spec_model, data, path, lines), path, lines)


def _a_kit(target: str, link: str) -> SpecError:
    return SpecError(f"{target!r} is a kit pnp built (a link to {link}), not a game folder.", field="GAME",
                     hint="name the game's own folder or spec file (or a shipped game by name); pnp writes kits, "
                          "it never reads one as a game")


def context(loaded: LoadedSpec, overrides: Mapping[str, Path] | None = None, full: bool = True,
            language: str | None = None) -> KitContext:
    """The KitContext for one kit: ``overrides`` maps input names to files (``--set NAME=FILE``);
    only those this game takes (``Game.inputs`` and COMMON_INPUTS) reach it, so one ``--words`` can
    go with a build of every game (plan() refuses a name no target takes)."""
    taken = {k: Path(v) for k, v in (overrides or {}).items()
             if k in loaded.game.inputs or k in COMMON_INPUTS}
    ctx = KitContext(loaded.path, taken, full, language=language)
    if isinstance(loaded.spec, GeneratorSpec):  # the components its templates draw from the generator's rows
        from ..custom.generated import parts_of  # pnp.custom (0.4 s): only a generator with templates
        shipped = builtin_spec(loaded.game.name) if loaded.game.name in game_names() else None
        ctx.parts = parts_of(loaded.spec, ctx, loaded.lines, loaded.game.rows, shipped)
    return ctx


def _check_override_names(games: Sequence[Game], overrides: Mapping[str, Path]) -> None:
    takes = dict(COMMON_INPUTS)
    for game in games:
        takes.update(game.inputs)
    for name in overrides:
        if name not in takes:
            who = ", ".join(g.title for g in games)
            raise SpecError(f"{who} take{'s' if len(games) == 1 else ''} no input {name!r}.", field="--set",
                            hint=f"inputs: {', '.join(sorted(takes))}")


def _who(target: str, language: str | None) -> str:
    return f"{target!r}" + (f" (its {language} kit)" if language else "")


def _check_kit_folders(kits: Sequence[tuple[str, str | None, LoadedSpec]]) -> None:
    """Every kit of the plan (target, language, spec) writes its own folder OUT/<kit name>: two kits with
    one name (two specs of one game, or a spec's ``-de`` kit and a game named ``<game>-de``) would have
    the second replace the first.

    Raises:
        SpecError: naming both targets (and languages) and the folder they share.
    """
    seen: dict[str, tuple[str, str | None, LoadedSpec]] = {}
    for target, language, spec in kits:
        first = seen.setdefault(spec.game.name, (target, language, spec))
        if first[2] is not spec:
            lang_line = spec.lines.get(("languages",)) if language else None
            raise SpecError(f"{_who(*first[:2])} and {_who(target, language)} both write the kit folder "
                            f"OUT/{spec.game.name}, so the second would replace the first.", file=spec.path,
                            line=lang_line, field="languages" if language else "GAME",
                            hint="list each language once (a kit's folder has its code in lower case)"
                            if first[1] and language and first[0] == target else "build them one at a time with different --out "
                            "folders, or rename one game (name: in a data-driven spec)")


def draw_all(spec_path: Path) -> None:
    """Load the spec file ``spec_path`` and draw every part of its kit in memory, as `pnp build` does
    before imposing (`pnp new` checks the folder it makes with this).

    Raises:
        PnpError: what the build would raise (a text that does not fit, a bad cell, a bad template).
    """
    with for_build().in_use():  # a build's own font book (pnp.core.fontbook)
        loaded = load_target(str(spec_path))
        loaded.game.components(loaded.spec, context(loaded))


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


def cover_info(loaded: LoadedSpec, ctx: KitContext) -> CoverInfo:
    """The cover's facts: title and designer from the spec, the rules text from ``rules:`` (beside the
    spec, else for a built-in game pnp's own; ``--set rules=FILE`` replaces it), parsed once.

    Raises:
        SpecError: the rules file is missing or malformed, or holds a character the font lacks
            (names its file and line).
    """
    spec, game = loaded.spec, loaded.game
    builtin = game.name in game_names()  # a data-driven game's rules are in its own folder only
    name = spec.rules or "rules.md"
    if ctx.language and not ctx.overridden("rules"):  # rules.de.md beside rules.md, when there is one
        stem, dot, suffix = name.rpartition(".")
        local = f"{stem}.{ctx.language}.{suffix}" if dot else f"{name}.{ctx.language}"
        if exists_inside(local, loaded.path.parent):
            name = local
    path = ctx.input_path("rules", name, builtin_folder(game.name) if builtin else None,
                          line=loaded.lines.get(("rules",)))
    rules = parse_rules(path, _icons(loaded, ctx), ctx.language)
    if not has_words(ctx.language):
        ctx.notes.append(f"language {ctx.language}: pnp has no catalogue of its own words in {ctx.language}, so "
                         "the words pnp prints itself (cover, footers, labels, instructions) are in English.")
    said = words(ctx.language)
    return CoverInfo(spec.title or game.title, spec.designer, spec.year, rules,
                     CoverInfo.source_line(spec.designer, rules.title, spec.traditional, said)
                     if builtin or spec.traditional else "",  # a data-driven game's rules are its designer's own
                     game.credits(spec),
                     spec.traditional, said)


def _icons(loaded: LoadedSpec, ctx: KitContext):
    """The ``:name:`` lookup of a data-driven game whose icons folder exists (pnp.custom.icons; each
    icon used is recorded for `pnp watch`), else None (built-in games have no icons)."""
    folder = getattr(loaded.spec, "icons", None)
    if not folder:
        return None
    root = loaded.path.parent
    path = root / folder
    if not path.is_dir():
        return None
    from ..custom.icons import IconFolder  # only a game with an icons folder
    return IconFolder(path, lambda p: p in ctx.used or ctx.used.append(p), root=root).lookup


def paper_room(sheet: Sheet, bleed: float) -> PaperRoom:
    """The room a part has on ``sheet`` with ``bleed`` (pnp.layout.partfit.room_for_parts), and on each
    shipped paper, smallest first (for a part that needs a larger paper: a tuck box's net)."""
    papers = sorted((room_for_parts(load_sheet(p), bleed), p) for p in available_papers())
    return PaperRoom(sheet.name, *room_for_parts(sheet, bleed),
                     tuple((p, w, h) for (w, h), p in sorted(papers, key=lambda x: x[0][0] * x[0][1])))


LONG_FIT_SECONDS = 2.0  # text fitting estimated longer than this is announced before it starts


def languages(loaded: LoadedSpec, language: str | None) -> list[tuple[str | None, LoadedSpec]]:
    """The kits one spec makes: one per language of its ``languages:`` (the first under the game's
    own name, each other one as ``<name>-<code>``: its folder and file names), or only ``language``
    (``--lang``); a spec without ``languages:`` makes one kit, in no particular language.

    Raises:
        SpecError: ``language`` is not one of the spec's languages (naming them).
    """
    codes = tuple(getattr(loaded.spec, "languages", ()) or ())
    if language is not None and language not in codes:
        raise SpecError(f"--lang {language}: {loaded.game.title} is built in "
                        + (f"{', '.join(codes)} only." if codes else "one language (its spec has no languages:)."),
                        file=loaded.path, line=loaded.lines.get(("languages",)), field="--lang",
                        hint=f"write --lang {codes[0]}" if codes else "leave --lang out, or add languages: to the spec")
    if not codes:
        return [(None, loaded)]
    out = []
    for i, code in enumerate(codes):
        if language is None or code == language:
            game = loaded.game if i == 0 else replace(loaded.game, name=kit_name(loaded, code))
            out.append((code, replace(loaded, game=game)))
    return out


def kit_name(loaded: LoadedSpec, code: str) -> str:
    """The folder and file name of the kit of language ``code`` (not the spec's first):
    ``<game>-<code>`` with the code in lower case (``pt-BR`` -> ``<game>-pt-br``).

    Raises:
        SpecError: the name is no safe folder name (pnp.store.names), naming the spec's ``languages:``.
    """
    name = f"{loaded.game.name}-{code.casefold()}"
    try:
        return check_safe_name(name, f"the {code} kit's folder name", file=loaded.path, field="languages")
    except SpecError as exc:
        exc.line = loaded.lines.get(("languages",))
        exc.hint = (f"give the game a shorter name (name:), at most {MAX_NAME_CHARS - len(code) - 1} characters, "
                    "or a shorter language code")
        raise


def plan_target(target: str, loaded: LoadedSpec, request: Request,
                notify: Callable[[str], None] | None = None, language: str | None = None) -> TargetPlan:
    """Resolve and check one target (see the module docstring) in ``language`` (a kit of a spec's
    ``languages:``; None for a spec without). When the rules checks fail the plan holds the findings
    and no components.

    Raises:
        PnpError: a bad input file, rules text, page budget or cover (naming file, line and field;
            in a kit of one of several languages the message starts with the language).
    """
    book = for_build()  # the target's font book (pnp.core.fontbook): planned in it, carried to execute
    if language is None:
        with book.in_use():
            return _plan_target(target, loaded, request, notify, None, book)
    try:
        with book.in_use():
            tp = _plan_target(target, loaded, request, notify, language, book)
    except PnpError as exc:
        exc.message = f"in the {language} kit: {exc.message}"
        raise
    said = f"in the {language} kit: "
    return replace(tp, findings=[replace(f, check=said + f.check) for f in tp.findings])


def _plan_target(target: str, loaded: LoadedSpec, request: Request, notify: Callable[[str], None] | None,
                 language: str | None, book: FontBook) -> TargetPlan:
    ctx = context(loaded, request.overrides, full=request.full, language=language)
    sheet = request.paper.sheet
    ctx.paper = paper_room(sheet, request.opts.bleed)

    def inputs() -> tuple[Path, ...]:
        return tuple(dict.fromkeys([loaded.path, *ctx.used, request.paper.path]))

    info = replace(cover_info(loaded, ctx), print_shop=request.settings.pdfx)
    findings = loaded.game.check(loaded.spec, ctx)
    if any(f.status == FAIL for f in findings):
        return TargetPlan(target, loaded, ctx, findings, inputs(), book=book)
    fit_chars = loaded.game.fit_work(loaded.spec, ctx) if loaded.game.fit_work is not None else 0.0
    fitting = check_fit_work(fit_chars, loaded.path)
    if notify is not None and fitting > LONG_FIT_SECONDS:
        notify(f"{loaded.game.name}: fitting the text of every part, about {duration(fitting)}.")
    components = loaded.game.components(loaded.spec, ctx)
    if isinstance(loaded.spec, GeneratorSpec) and loaded.spec.checks:  # the spec's own checks on the parts made
        declared = check_parts(loaded.spec, components, loaded.path, loaded.lines)
        findings = findings + declared
        if any(f.status == FAIL for f in declared):
            return TargetPlan(target, loaded, ctx, findings, inputs(), book=book)
    opts = replace(effective_options(components, request.opts), words=info.words)  # the kit's language
    notes = ()
    if opts.duplex != request.opts.duplex:
        notes = (f"--duplex {request.opts.duplex} ignored: no part of {loaded.game.title} has a printed back, so "
                 "the kit prints one-sided.",)
    if opts.cut_lines and opts.bleed > 0:  # with bleed nothing is drawn on a cut (pnp.layout.impose)
        opts = replace(opts, cut_lines=False)
        notes += ("--cut-lines ignored: with --bleed nothing is drawn on a cut (the bleed carries each part's art "
                  "past its edge, so a cut that strays still shows art); cut on the crop marks.",)
    notes += tuple(ctx.notes) + format_notes(loaded.path, loaded.game, components, request.formats,
                                             request.settings)
    counts = sheet_counts(components, sheet, opts, *cutter_of(request.settings, request.paper.path))
    notes += (counts,) if counts else ()
    notes += tuple(f"warning: {f.check} [{f.rule}]" for f in findings if f.status == WARN and f.build_note)
    fit = [] if request.full else board_fit(components, [sheet], opts.overlap)
    if request.full:  # validate: does each board fit every standard paper, or in how many pieces
        findings = findings + board_fit(components, [load_sheet(p) for p in available_papers()], opts.overlap)
        if request.settings.service is not None:  # validate --service: text past the service's safe area
            from ..checks import safearea  # its print-service geometry: only validate --service
            findings = findings + safearea.findings(served(components), request.settings.service)
    budget = check_budget(components, sheet, opts, file=loaded.path, formats=formats().writers(request.formats),
                          settings=request.settings, fit_chars=fit_chars)
    packing = pack_kit(components, sheet, opts)
    cover = KitCover(info, components, sheet, opts, packing)
    booklet = None
    if request.rules == "booklet":
        from ..layout.booklet import RulesBooklet  # only with --rules booklet
        booklet = RulesBooklet(info, cover, components, sheet, opts)
    return TargetPlan(target, loaded, ctx, findings, inputs(), components, fit, opts, info, cover, notes, budget,
                      packing, booklet, book)


def plan(targets: Sequence[str], request: Request, notify: Callable[[str], None] | None = None) -> BuildPlan:
    """Resolve and check every target before any is built; ``notify`` is told, before it starts,
    of work estimated to take long (text fitting over LONG_FIT_SECONDS).

    Raises:
        PnpError: the first bad input found (nothing has been written).
        ValidationFailed: a target breaks a rule (not for ``request.full``, where the findings are
            the answer).
    """
    check_environment()
    request = replace(request, formats=formats().resolve(request.formats))  # with the formats they require
    if not request.full:
        formats().check_options(request.formats, request.settings)
    loaded = {t: load_target(t) for t in dict.fromkeys(targets)}
    if request.overrides:
        _check_override_names([spec.game for spec in loaded.values()], request.overrides)
    kits = [(target, language, spec) for target, each in loaded.items()
            for language, spec in languages(each, request.language)]
    _check_kit_folders(kits)  # every kit name checked, and none twice, before any kit is planned
    planned = []
    for target, language, spec in kits:
        tp = plan_target(target, spec, request, notify, language)
        if tp.failed and not request.full:
            first = tp.failed[0]
            raise ValidationFailed(f"{spec.game.name} fails {len(tp.failed)} rules check(s), e.g. {first.check} "
                                   f"[{first.rule}].", file=spec.path, hint=f"run `pnp validate {target}`")
        planned.append(tp)
    return BuildPlan(request, tuple(planned))

