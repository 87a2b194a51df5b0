"""The protocol between a kit's spec and the engine: ``Game`` (a registered generator: spec model,
components, checks) and ``KitContext`` (what a generator sees beside its spec)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from ..core.findings import Finding
from ..core.ir import Component
from ..inputs.gamefolder import exists_inside, inside
from ..inputs.specfields import SpecBase


@dataclass(frozen=True)
class PaperRoom:
    """The room a part may take on the build's paper, ``name``: ``width`` x ``height`` mm (after margins,
    footer, crop marks and bleed; pnp.layout.partfit.room_for_parts), and the same for each shipped
    paper (``papers``: (name, width, height), smallest first), to name a paper a larger part needs."""
    name: str
    width: float
    height: float
    papers: tuple[tuple[str, float, float], ...] = ()

    def fits(self, w: float, h: float) -> bool:
        """A ``w`` x ``h`` mm part fits this paper's room."""
        return w <= self.width + 1e-9 and h <= self.height + 1e-9

    def needed(self, w: float, h: float) -> str | None:
        """The smallest shipped paper whose room holds ``w`` x ``h`` mm, None when none does."""
        return next((n for n, pw, ph in self.papers if w <= pw + 1e-9 and h <= ph + 1e-9), None)


@dataclass
class KitContext:
    """What a game sees beside its spec.

    Attributes:
        spec_path: the spec file (relative input files resolve against its folder).
        overrides: input name -> path given on the command line (``--set words=FILE``); only names
            the game declares in ``Game.inputs`` are accepted.
        full: True for `pnp validate`, which also runs the slow analyses that cannot fail a kit
            (self-checks of the enumerator, searches behind warnings); `pnp build` sets it False
            and runs only the checks that decide whether the kit may be printed.
        used: every input file resolved through ``input_path`` (in order, no repeats): the build plan
            lists them and `pnp watch` watches them.
        parts: set by the plan for a generator whose spec declares ``components:`` (its own or, when it
            declares none, those of the game's shipped spec folder): ``parts(name, size=(w, h))`` is
            the Components of the declared component ``name`` (size in mm, given by the generator
            when the component's ``size:`` is absent), drawn from its templates the way a designer's
            deck is (pnp.custom), its rows from the generator's provider that ``data:
            generator:<table>`` names (``Game.rows``). None for a data-driven game.
        paper: the room parts have on the build's paper (PaperRoom), set by the plan; None outside a
            build (parts that depend on the paper, a tuck box's net, are then made whole).
        language: the language of the kit being built (a spec's ``languages:``), None for a kit in one.
        notes: what the game tells the user about this build (printed as build notes).
    """
    spec_path: Path
    overrides: dict[str, Path] = field(default_factory=dict)
    full: bool = True
    used: list[Path] = field(default_factory=list)
    parts: Callable[..., list[Component]] | None = None
    paper: PaperRoom | None = None
    language: str | None = None
    notes: list[str] = field(default_factory=list)
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    def input_path(self, name: str, spec_value: str, fallback_dir: Path | None = None, *, line: int | None = None,
                   field: str | None = None, limit: int | None = None) -> Path:
        """Where input ``name`` comes from: its command-line override (the user's own choice, taken as
        given), else ``spec_value`` resolved inside the spec's folder (then inside ``fallback_dir``, e.g.
        the built-in specs folder, when the spec's folder has nothing of that name) by the one rule for
        files a game folder names (pnp.inputs.gamefolder.inside; ``limit``: the most bytes it may hold).
        A missing file is returned for its reader to report. The path is recorded in ``used``.

        Raises:
            SpecError: the name leads outside the folder (absolute, ``..``, a symlink out), or names
                something that is not a regular file (the spec file, ``line`` and ``field``, default ``name``).
        """
        if name in self.overrides:
            path = Path(self.overrides[name])
        else:
            root = self.spec_path.parent
            if fallback_dir is not None and not exists_inside(spec_value, root):
                root = fallback_dir
            path = inside(spec_value, root, what=name, file=self.spec_path, line=line, field=field or name,
                          limit=limit, must_exist=False)
        if path not in self.used:
            self.used.append(path)
        return path

    def overridden(self, name: str) -> bool:
        """True when input ``name`` was replaced on the command line."""
        return name in self.overrides

    def once(self, key: Any, load: Callable[[], Any]) -> Any:
        """``load()``, computed once per build: the validator and the drawing of one kit share it."""
        if key not in self._memo:
            self._memo[key] = load()
        return self._memo[key]


@dataclass(frozen=True)
class Game:
    """A registered game: its spec model, its components and its rules checks.

    ``components(spec, ctx)`` returns the kit's Components in print order; ``check(spec, ctx)``
    returns Findings. ``summary`` is the first docstring line of the module, shown by `pnp list`.
    ``inputs`` maps the names of extra input files the game reads (spec fields holding a path) to a
    one-line description; the CLI's ``--set NAME=FILE`` overrides them. ``credits(spec)`` names
    what the kit designed itself, for the cover's credit line (NetMatch: "board layout: pnp").
    ``fit_work(spec, ctx)``, when given, is about how many characters components() will lay out to
    fit its texts (a data-driven game's shrink-to-fit), counted before it draws any.
    """
    name: str
    title: str
    spec_model: type[SpecBase]
    components: Callable[[SpecBase, KitContext], list[Component]]
    check: Callable[[SpecBase, KitContext], list[Finding]]
    summary: str = ""
    inputs: dict[str, str] = field(default_factory=dict)
    credits: Callable[[SpecBase], tuple[str, ...]] = lambda spec: ()
    fit_work: Callable[[SpecBase, KitContext], float] | None = None
    rows: Mapping[str, Callable[[SpecBase, KitContext], list[dict[str, str]]]] = field(default_factory=dict)
