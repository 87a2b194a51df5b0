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


def snapshot(folder: Path) -> dict:
    """{relative path: sha256} of every file under ``folder``, to prove a failed run changed nothing."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def sigint_default() -> None:
    """``preexec_fn`` for a child the test stops with Ctrl-C (SIGINT): a shell running the suite in the
    background ignores SIGINT, and a child would inherit that and never stop; give it the default."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
