"""`pnp watch`: build, then rebuild whenever an input a kit used changes (watchfiles, debounced).

Each rebuild prints what changed, the page count, the time and the validation verdict. A bad edit
prints its error and leaves the last good kit in place (every build is staged and switched in
atomically, so a PDF viewer that reloads on change only ever sees a whole kit). Ctrl-C stops with
exit code 0.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable, Mapping, Sequence

from ..core.errors import PnpError
from ..core.findings import FAIL, WARN
from .plan import build_kit, validate_target


def _build_all(targets, paper, formats, out, overrides, say) -> set[Path]:
    """Build every target; print one line each; return the input files to watch (even after errors:
    the files of a failing target are watched too, so fixing them triggers a rebuild)."""
    watched: set[Path] = set()
    for target in targets:
        path = Path(target)
        if path.suffix in (".yaml", ".yml"):
            watched.add(path.resolve())
        start = time.perf_counter()
        try:
            result = build_kit(target, paper=paper, formats=formats, out=out, overrides=overrides)
        except PnpError as exc:
            say(f"error: {exc} (the last good kit is kept)")
            continue
        watched.update(p.resolve() for p in result.inputs)
        try:
            _, findings = validate_target(target, overrides)
            fails = sum(f.status == FAIL for f in findings)
            warns = sum(f.status == WARN for f in findings)
            verdict = f"validate: {'FAIL' if fails else 'pass'} ({len(findings)} checks, {fails} failed, {warns} warnings)"
        except PnpError as exc:
            verdict = f"validate: error: {exc}"
        say(f"{result.game}: {result.pages} pages on {result.paper} in {time.perf_counter() - start:.1f} s; {verdict}")
    return watched


def watch_kits(targets: Sequence[str], paper: str, formats: Sequence[str], out: Path,
               overrides: Mapping[str, Path], debounce_ms: int = 300, say: Callable[[str], None] = print,
               quiet: bool = False, stop: threading.Event | None = None) -> int:
    """Build ``targets`` and rebuild on every change to their inputs until Ctrl-C (or ``stop`` is set).

    Returns:
        0 (the exit code: stopping a watch is not an error).
    """
    from watchfiles import watch

    speak = (lambda text: None) if quiet else say
    watched = _build_all(targets, paper, formats, out, overrides, say)
    seen = _stamps(watched)
    speak(f"watching {len(watched)} files (Ctrl-C to stop)")
    try:
        while True:
            folders = sorted({p.parent for p in watched if p.parent.exists()}) or [Path.cwd()]
            # yield_on_timeout: every half second the stamps are compared too, so an edit made while the
            # watcher was starting (or a missed event) still triggers a rebuild
            for _changes in watch(*folders, debounce=debounce_ms, stop_event=stop, raise_interrupt=True,
                                  yield_on_timeout=True, rust_timeout=500,
                                  watch_filter=lambda _change, path: Path(path).resolve() in watched):
                now = _stamps(watched)
                changed = sorted(p.name for p in watched if now.get(p) != seen.get(p))
                if not changed:
                    continue
                speak(f"changed: {', '.join(changed)}; rebuilding")
                found = _build_all(targets, paper, formats, out, overrides, say)
                seen = _stamps(watched | found)
                if found - watched:
                    watched |= found
                    break  # a new input (e.g. another word list): watch its folder too
            else:
                return 0
    except KeyboardInterrupt:
        speak("stopped")
        return 0


def _stamps(paths) -> dict[Path, tuple[int, int] | None]:
    """(mtime in ns, size) of each file, or None when it is missing: what a rebuild compares."""
    out = {}
    for p in paths:
        try:
            st = p.stat()
            out[p] = (st.st_mtime_ns, st.st_size)
        except OSError:
            out[p] = None
    return out
