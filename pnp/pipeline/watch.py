"""`pnp watch`: build, then rebuild whenever an input a kit read changes (watchfiles, debounced).

Each round is plan() then execute() per target; the files to watch are the plan's ``inputs`` (every
file the KitContext opened, the spec, the rules text, the sheet). The stamps (mtime, size) of those
files are taken *before* a round starts, so a save made while a kit is being built is seen when the
round ends and starts another round: after any burst of saves the kit on disk is built from the last
saved state, or the last error is shown. A bad edit prints its error and leaves the last good kit in
place (every build is staged and switched in atomically); a spec that is bad from the start is waited on
too, named as a file or as its game folder. Saves made while a round builds start the next round once
they stop for the debounce time (one rebuild after a burst, not one per save). A target that names no
game and no spec file fails at once (exit 2), before anything is watched. Ctrl-C stops with exit code 0. What a round
made is kept in memory for the next (pnp.core.memo: content-keyed, bounded, never read from disk).
With ``pull_every`` (`pnp watch --pull SECONDS`) every ``url:`` of the targets is pulled first and then
on that period (pnp.pull.Puller, checked between the watcher's half-second ticks); a sheet that changed
replaces its data file, which the watch sees as an edit and rebuilds; a failed pull prints its error
and keeps the last good file.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from ..core.errors import PnpError
from ..core.findings import FAIL, WARN
from ..core.memo import DEFAULT_BUDGET, Memo
from .execute import execute_target
from ..custom import spec_in_folder
from ..engine import game_names
from ..inputs.resources import builtin_spec, shipped_specs
from .plan import Request, load_target, plan

def _stamps(paths) -> dict[Path, tuple[int, int] | None]:
    """(mtime in ns, size) of each file, or None when it is missing: what a round compares."""
    out = {}
    for p in paths:
        try:
            st = p.stat()
            out[p] = (st.st_mtime_ns, st.st_size)
        except OSError:
            out[p] = None
    return out


def spec_of(target: str) -> Path:
    """The spec file a watch target names: a shipped game's, a game folder's ``DIR/<DIR>.yaml`` or the file
    itself, found without reading it (a spec that is bad now is waited on, whichever way it is named).

    Raises:
        SpecError: an unknown game, a missing spec file or a folder without its spec (nothing to wait for).
    """
    path = Path(target)
    if target in game_names() or (target in shipped_specs() and not path.exists()):  # as load_target reads it
        return builtin_spec(target)
    if path.is_dir() and path.suffix not in (".yaml", ".yml"):
        return spec_in_folder(path)
    if path.is_file():
        return path
    load_target(target)  # raises, naming the target
    return path


def settle(paths: set[Path], seen: dict, debounce_ms: int, stop: threading.Event | None = None) -> dict:
    """Wait until none of ``paths`` changed for ``debounce_ms`` (their stamps against ``seen``, the stamps
    when the last round ended), so saves made during a build are rebuilt once, after the burst; the stamps
    then. Returns at once when ``stop`` is set."""
    while True:
        if stop is not None and stop.wait(debounce_ms / 1000):
            return seen
        if stop is None:
            time.sleep(debounce_ms / 1000)
        now = _stamps(paths)
        if now == seen:
            return now
        seen = now


def _round(targets: Sequence[str], request: Request, out: Path, watched: set[Path],
           say: Callable[[str], None], preview=None) -> set[Path]:
    """Plan and build every target, every kit of it (one per language of a spec's ``languages:``, or
    the one ``request.language`` names), each written whole and switched in on its own; print one line
    per kit, naming its language (and show it on the ``preview`` page, a
    pnp.pipeline.serve.PreviewState); return the files to watch (a failing target keeps the files it
    was known to read, so fixing them triggers a rebuild)."""
    found: set[Path] = set()
    for index, target in enumerate(targets):
        found.add(spec_of(target).resolve())  # a bad spec is watched, so fixing it rebuilds
        start = time.perf_counter()
        try:
            kits = plan([target], request).targets
            for kit, tp in enumerate(kits):
                result = execute_target(tp, request, out)
                found.update(p.resolve() for p in result.inputs)
                fails = sum(f.status == FAIL for f in tp.findings)
                warns = sum(f.status == WARN for f in tp.findings)
                verdict = (f"checks: {'FAIL' if fails else 'pass'} ({len(tp.findings)} checks, {fails} failed, "
                           f"{warns} warnings)")
                language = f" ({tp.ctx.language})" if tp.ctx.language else ""
                say(f"{result.game}{language}: {result.pages} pages on {result.paper} in "
                    f"{time.perf_counter() - start:.1f} s; {verdict}")
                start = time.perf_counter()
                if preview is not None:
                    preview.kit_ok(index, tp.info.title + language, out / result.game, result.manifest, verdict,
                                   kit=kit)
        except PnpError as exc:
            if getattr(exc, "file", None):  # the file at fault is watched, so fixing it rebuilds
                found.add(Path(exc.file).resolve())
            found.update(Path(p).resolve() for p in getattr(exc, "inputs", ()))  # e.g. a missing picture
            say(f"error: {exc} (the last good kit is kept)")
            if preview is not None:
                preview.kit_error(index, exc)
            continue
    if preview is not None:
        preview.round_done()
    return found


def watch_kits(targets: Sequence[str], request: Request, out: Path, debounce_ms: int = 300,
               say: Callable[[str], None] = print, quiet: bool = False,
               stop: threading.Event | None = None, serve_port: int | None = None,
               memory: int = DEFAULT_BUDGET, pull_every: float | None = None) -> int:
    """Build ``targets`` and rebuild on every change to their inputs until Ctrl-C (or ``stop`` is set).
    With ``serve_port`` (0: any free port) the kits are also shown on a local page that reloads
    itself after every round (pnp.pipeline.serve); its URL is printed first. With ``pull_every``
    (seconds) the targets' ``url:`` files are pulled before the first build and then on that period.

    Between rounds the process keeps decoded pictures, finished SVG pages and each kit's last PDF in
    memory (at most ``memory`` bytes, pnp.core.memo), keyed by the content they were made from, so a
    save redraws only what it changed (the PDF's other pages are spliced from the kept one,
    pnp.render.pdfsplice); each kit is still written whole and switched in atomically (pnp.store).

    Returns:
        0 (the exit code: stopping a watch is not an error).

    Raises:
        SpecError: a target names no game and no spec file (nothing to watch).
        PnpError: the preview's port cannot be used.
    """
    from watchfiles import watch  # watchfiles: imported when first needed, never at start-up

    for target in targets:  # an unknown game or a missing spec file: nothing to wait for
        spec_of(target)
    speak = (lambda text: None) if quiet else say
    preview = server = None
    if serve_port is not None:
        from .serve import PreviewState, start_server  # Starlette: only with --serve
        preview = PreviewState(list(targets))
        url, server = start_server(preview, serve_port)
        say(f"preview: {url} (reloads after every rebuild)")
    memo = Memo(memory)
    watched: set[Path] = set()
    pending = True
    puller = None
    if pull_every is not None:
        from ..pull import Puller  # httpx: only with --pull
        puller = Puller([spec_of(t) for t in targets], pull_every, say)
        puller.pull()
    try:
        while True:
            while pending:  # rounds until nothing changed while the last one ran
                before = _stamps(watched)
                with memo.in_use():
                    found = _round(targets, request, out, watched, say, preview)
                before.update(_stamps(found - watched))  # first seen in this round
                watched |= found
                seen = _stamps(watched)
                changed = sorted(p.name for p in watched if seen.get(p) != before.get(p))
                pending = bool(changed)
                if pending:
                    speak(f"changed while building: {', '.join(changed)}; rebuilding once the saves stop")
                    seen = settle(watched, seen, debounce_ms, stop)
                    if stop is not None and stop.is_set():
                        return 0
            speak(f"watching {len(watched)} files (Ctrl-C to stop)")
            folders = sorted({p.parent for p in watched if p.parent.exists()}) or [Path.cwd()]
            # yield_on_timeout: every half second the stamps are compared too, so an edit made while the
            # watcher was starting (or a missed event) still triggers a rebuild
            for _changes in watch(*folders, debounce=debounce_ms, stop_event=stop, raise_interrupt=True,
                                  yield_on_timeout=True, rust_timeout=500,
                                  watch_filter=lambda _change, path: Path(path).resolve() in watched):
                if puller is not None and puller.due():
                    puller.pull()  # a replaced data file is seen below as a change
                now = _stamps(watched)
                changed = sorted(p.name for p in watched if now.get(p) != seen.get(p))
                if changed:
                    speak(f"changed: {', '.join(changed)}; rebuilding")
                    pending = True
                    break
            else:
                return 0
    except KeyboardInterrupt:
        speak("stopped")
        return 0
    finally:
        if server is not None:
            server.should_exit = True
        if puller is not None:
            puller.close()
