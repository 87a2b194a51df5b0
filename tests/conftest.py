"""Shared fixtures: kits built once per session into a temporary folder, and PDF read-back helpers.

The suite runs on pytest-xdist workers (``-n auto`` in pyproject.toml): as many as the machine has
cores, at most MAX_WORKERS. Every test writes only below its own tmp_path (each worker has its own
base temporary folder), so workers never share an output folder.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pdfplumber
import pytest

from pnp.pipeline.execute import build_kit

PT = 25.4 / 72.0  # mm per point
REPO = Path(__file__).resolve().parent.parent
MAX_WORKERS = 2


def pytest_xdist_auto_num_workers(config):
    """Workers for ``-n auto``: one per usable core, at most MAX_WORKERS (the suite's subprocess
    tests start pnp themselves, so more workers than that mostly wait on each other)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """Build a kit once per (game, paper): built(game, paper) -> KitResult."""
    root = tmp_path_factory.mktemp("kits")
    cache = {}

    def get(game: str, paper: str = "a4", **kw):
        key = (game, paper, tuple(sorted(kw.items())))
        if key not in cache:
            cache[key] = build_kit(game, paper=paper, out=root / f"{paper}-{len(cache)}", **kw)
        return cache[key]
    return get


def pdf_of(result) -> Path:
    return next(p for p in result.files if p.suffix == ".pdf")


def mm(v: float) -> float:
    return v * PT


def filled_rects(page, colour=None):
    """Filled rectangles on a pdfplumber page as (x, y, w, h) mm, y from the top; optional fill colour."""
    out = []
    for r in page.rects:
        if not r.get("fill"):
            continue
        col = tuple(round(c, 3) for c in (r.get("non_stroking_color") or ()))
        if colour is not None and col != colour:
            continue
        out.append((mm(r["x0"]), mm(r["top"]), mm(r["x1"] - r["x0"]), mm(r["bottom"] - r["top"])))
    return out


def open_pdf(path):
    return pdfplumber.open(str(path))


def blue_kit(folder: Path, title: str, components: str) -> Path:
    """A data-driven kit in ``folder`` (created): a spec of that title whose ``components`` (YAML, the
    list's items) all draw face.yaml, one blue background that bleeds, and the shapes example's rules."""
    folder.mkdir(parents=True)
    (folder / f"{folder.name}.yaml").write_text(f"title: {title}\ncomponents:\n{components}", encoding="utf-8")
    (folder / "face.yaml").write_text('layers:\n  - {type: rect, fill: "#1f5f8b", bleed: true}\n', encoding="utf-8")
    (folder / "rules.md").write_text((REPO / "specs" / "shapes" / "rules.md").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    return folder


def snapshot(folder: Path) -> dict:
    """{relative path: sha256} of every file under ``folder``, to prove a failed run changed nothing."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_refused(spec: Path, existing: Path, fname: str, line: str | None, field: str | None, needles,
                   case: str = "", file_marks: tuple[str, ...] = (", ",)) -> None:
    """`pnp build` (into ``existing``, a folder holding a good kit) and `pnp validate` of ``spec`` both
    exit 2 without a traceback, naming the file ``fname`` (followed by one of ``file_marks``), the
    ``line`` and ``field`` when given, and every text of ``needles``; ``existing`` is left unchanged."""
    from typer.testing import CliRunner
    from pnp.cli import app
    before = snapshot(existing)
    for command in ("build", "validate"):
        args = [command, str(spec)] + (["--out", str(existing)] if command == "build" else [])
        r = CliRunner().invoke(app, args)
        out = " ".join(r.output.split())
        assert r.exit_code == 2, (case, r.output)
        assert "Traceback" not in r.output
        assert any(f"{fname}{mark}" in out for mark in file_marks), out
        if line:
            assert line in out, out
        if field:
            assert f"field {field}" in out, out
        for needle in needles:
            assert needle in out, (needle, out)
    assert snapshot(existing) == before


def sigint_default() -> None:
    """``preexec_fn`` for a child the test stops with Ctrl-C (SIGINT): a shell running the suite in the
    background ignores SIGINT, and a child would inherit that and never stop; give it the default."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
