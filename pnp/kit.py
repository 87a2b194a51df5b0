"""build_kit(): spec -> components -> pages -> PDF, SVGs and manifest, written atomically.

Every file is first written into a staging folder inside the output folder, then moved into place
with os.replace. If anything fails part way, the staging folder is removed and the previous kit is
left exactly as it was.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import OutputError, PnpError, SpecError
from .findings import FAIL, Finding
from .games import Game, KitContext, get_game, registry
from .ir import Component
from .layout.impose import ImposeOptions, effective_options, impose
from .layout.sheets import load_sheet
from .render.pdf import PdfWriter
from .render.svg import write_cut_svg, write_svg
from .resources import builtin_spec
from .spec import SpecBase, load_yaml, validate_model

FORMATS = ("pdf", "svg", "cut-svg", "tts")
DEFAULT_FORMATS = ("pdf", "svg")
MAX_BLEED = 10.0
_SAFE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")


class ValidationFailed(PnpError):
    """The spec loads but its components break a rule; `pnp build` refuses to write the kit (exit 1)."""


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


def validate_target(target: str, words: Path | None = None) -> tuple[LoadedSpec, list[Finding]]:
    """Run the game's rules checks without drawing anything."""
    loaded = load_target(target)
    ctx = KitContext(loaded.path, words)
    return loaded, loaded.game.check(loaded.spec, ctx)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _prepare_out(out: Path, game: str) -> Path:
    if out.exists() and not out.is_dir():
        raise OutputError("output path is a file, not a folder.", file=out, field="--out",
                          hint="give a folder with --out")
    target = out / game
    if target.exists() and not target.is_dir():
        raise OutputError("output path is a file, not a folder.", file=target, field="--out")
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / f".pnp-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"cannot write to the output folder: {exc.strerror}.", file=target, field="--out",
                          hint="choose a writable folder with --out") from None
    return target


def check_options(formats: tuple[str, ...], opts: ImposeOptions) -> None:
    """Refuse unknown formats, a bleed outside 0..10 mm, a back offset over 20 mm, a bad SOURCE_DATE_EPOCH.

    Raises:
        SpecError: naming the option.
    """
    for fmt in formats:
        if fmt not in FORMATS:
            raise SpecError(f"unknown format {fmt!r}.", field="--format", hint=f"use {', '.join(FORMATS)}")
    if not formats:
        raise SpecError("no output format given.", field="--format", hint=f"use {', '.join(FORMATS)}")
    if not 0 <= opts.bleed <= MAX_BLEED:
        raise SpecError(f"bleed {opts.bleed:g} mm is outside 0..{MAX_BLEED:g} mm.", field="--bleed",
                        hint="a print shop wants 3 mm; home printing 0-2 mm")
    if any(abs(v) > 20 for v in opts.back_offset):
        raise SpecError(f"back offset {opts.back_offset} is more than 20 mm.", field="--back-offset",
                        hint="printers are off by 1-4 mm; measure it with `pnp calibrate`")
    sde = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if sde and not sde.isdigit():
        raise SpecError(f"SOURCE_DATE_EPOCH={sde!r} is not a whole number of seconds.", field="SOURCE_DATE_EPOCH",
                        hint="set it to a Unix time such as 1700000000, or unset it")


def build_kit(target: str, paper: str = "a4", formats: tuple[str, ...] = DEFAULT_FORMATS, out: Path = Path("output"),
              words: Path | None = None, opts: ImposeOptions = ImposeOptions(),
              progress: Callable[[int, int], None] | None = None) -> KitResult:
    """Build one kit into ``out/<game>/``.

    Writes ``<game>-<paper>.pdf``, ``svg/<game>-<paper>-pNN.svg`` (one per page) and
    ``manifest.json`` (game, paper, pages, components with count, trim size in mm and pages, and
    every file with its sha256). ``progress(done, total)`` is called after each page.

    Raises:
        PnpError: bad spec, word list, paper or output folder (nothing is written).
        ValidationFailed: the components break a rule (nothing is written).
    """
    check_options(formats, opts)
    loaded = load_target(target)
    game, spec = loaded.game, loaded.spec
    ctx = KitContext(loaded.path, words, full=False)
    failed = [f for f in game.check(spec, ctx) if f.status == FAIL]
    if failed:
        raise ValidationFailed(f"{game.name} fails {len(failed)} rules check(s), e.g. {failed[0].check} "
                               f"[{failed[0].rule}].", file=loaded.path, hint=f"run `pnp validate {target}`")
    components = game.components(spec, ctx)
    sheet = load_sheet(paper)
    if not _SAFE_NAME.match(sheet.name):
        raise SpecError(f"sheet name {sheet.name!r} cannot be used in file names.", field="name",
                        hint="use lower-case letters, digits, - and _")
    title = spec.title or game.title
    opts = effective_options(components, opts)
    total, plan, pages = impose(title, components, sheet, opts)
    target_dir = _prepare_out(Path(out), game.name)
    stem = f"{game.name}-{sheet.name}"
    staging = Path(out) / f".pnp-staging-{stem}-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        (staging / "svg").mkdir(parents=True)
        written = _write_pages(pages, total, staging, stem, title, formats, opts, progress)
        if "tts" in formats:
            written += _write_tts(components, staging, stem)
        manifest = _manifest(game.name, sheet.name, total, components, plan, opts, staging, written)
        (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
        written.append(Path("manifest.json"))
        _commit(staging, target_dir, stem, written, formats)
    except OSError as exc:
        raise OutputError(f"writing the kit failed: {exc.strerror or exc}.", file=target_dir, field="--out",
                          hint="check the folder is writable and has space") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return KitResult(game.name, sheet.name, total, [target_dir / p for p in written], manifest)


def _write_pages(pages, total, staging: Path, stem: str, title: str, formats, opts, progress) -> list[Path]:
    written: list[Path] = []
    pdf = PdfWriter(staging / f"{stem}.pdf", title=title, duplex=opts.duplex) if "pdf" in formats else None
    width = max(2, len(str(total)))
    for number, page in enumerate(pages, start=1):
        if pdf:
            pdf.add(page)
        if "svg" in formats:
            rel = Path("svg") / f"{stem}-p{number:0{width}d}.svg"
            write_svg(page, staging / rel)
            written.append(rel)
        if "cut-svg" in formats and page.placements:
            rel = Path("cut") / f"{stem}-p{number:0{width}d}-cut.svg"
            (staging / "cut").mkdir(exist_ok=True)
            write_cut_svg(page, staging / rel)
            written.append(rel)
        if progress:
            progress(number, total)
    if pdf:
        pdf.close()
        written.insert(0, Path(f"{stem}.pdf"))
    return written


def _write_tts(components: list[Component], staging: Path, stem: str) -> list[Path]:
    from .tts import eligible, write_decks
    out = []
    for comp in components:
        if eligible(comp):
            out += [p.relative_to(staging) for p in write_decks(comp, staging / "tts", stem)]
    return out


def _manifest(game: str, paper: str, total: int, components: list[Component], plan, opts: ImposeOptions,
              staging: Path, written: list[Path]) -> dict:
    return {
        "game": game,
        "paper": paper,
        "pages": total,
        "bleed_mm": opts.bleed,
        "duplex": opts.duplex,
        "components": [
            {"name": c.name, "count": c.count, "trim_mm": [round(c.width, 3), round(c.height, 3)], "shape": c.shape,
             "pages": list(range(first, first + n))}
            for c, (first, n) in zip(components, plan)],
        "files": [{"path": p.as_posix(), "bytes": (staging / p).stat().st_size, "sha256": _sha256(staging / p)}
                  for p in written],
    }


def _commit(staging: Path, target: Path, stem: str, written: list[Path], formats) -> None:
    """Move staged files into place (os.replace is atomic per file); drop stale pages of this paper
    in the folders of the formats just built."""
    keep = {p.as_posix() for p in written}
    for folder, fmt in (("svg", "svg"), ("cut", "cut-svg"), ("tts", "tts")):
        if fmt not in formats:
            continue
        for old in (target / folder).glob(f"{stem}-*"):
            if f"{folder}/{old.name}" not in keep:
                old.unlink()
    root = target.resolve()
    for rel in written:
        dest = (target / rel).resolve()
        if rel.is_absolute() or root not in dest.parents:
            raise OutputError(f"refusing to write {rel} outside the output folder.", file=target, field="--out")
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / rel, dest)


def build_calibration(paper: str, duplex: str, out: Path = Path("output"), step: float = 1.0) -> Path:
    """Write ``OUT/calibrate/calibrate-<paper>-<duplex>.pdf``: the two-sided duplex test sheet.

    Raises:
        SpecError: duplex is not long/short, step outside 0.1..2 mm, or unknown paper.
        OutputError: the folder cannot be written.
    """
    from .layout.calibrate import calibration_pages
    if duplex not in ("long", "short"):
        raise SpecError(f"duplex {duplex!r} cannot be calibrated.", field="--duplex", hint="use long or short")
    if not 0.1 <= step <= 2.0:
        raise SpecError(f"step {step:g} mm is outside 0.1..2 mm.", field="--step")
    sheet = load_sheet(paper)
    target = _prepare_out(Path(out), "calibrate")
    path = target / f"calibrate-{sheet.name}-{duplex}.pdf"
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        writer = PdfWriter(tmp, title="pnp duplex calibration", duplex=duplex)
        for page in calibration_pages(sheet, duplex, step):
            writer.add(page)
        writer.close()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def preview_kit(target: str, paper: str = "a4", out: Path = Path("output"), dpi: int = 50,
                progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Render every page of the built kit's PDF to PNG in ``OUT/<game>/preview/``, plus a contact
    sheet ``<game>-<paper>-contact.png``. Builds the PDF first if it is missing.

    Raises:
        SpecError: dpi outside 10..600, or a bad target.
    """
    from .render.raster import contact_sheet, pdf_pages_to_png
    if not 10 <= dpi <= 600:
        raise SpecError(f"dpi {dpi} is outside 10..600.", field="--dpi")
    loaded = load_target(target)
    sheet = load_sheet(paper)
    folder = Path(out) / loaded.game.name
    pdf = folder / f"{loaded.game.name}-{sheet.name}.pdf"
    if not pdf.is_file():
        build_kit(target, paper=paper, formats=("pdf",), out=out)
    stem = f"{loaded.game.name}-{sheet.name}"
    preview = folder / "preview"
    staging = Path(out) / f".pnp-staging-preview-{stem}-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        pages = pdf_pages_to_png(pdf, staging, stem, dpi, progress)
        contact = contact_sheet(pages, staging / f"{stem}-contact.png")
        preview.mkdir(parents=True, exist_ok=True)
        for old in preview.glob(f"{stem}-p*.png"):
            old.unlink()
        result = []
        for p in pages + [contact]:
            os.replace(p, preview / p.name)
            result.append(preview / p.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return result
