"""What pnp leaves where it writes: a preflight killed with SIGKILL leaves nothing in TMPDIR that the
next run does not remove, and a kit pnp wrote (OUT/<game>, its link) is never taken for a game.

The preflight runs in a subprocess with TMPDIR set to a fresh folder; it is killed (-9) once its PDF
is on disk, so what a kill leaves is there to find, and the next preflight's start must remove it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.preflight.scratch import PREFIX, scratch_folder, sweep
from conftest import blue_kit

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]


def _preflight(tmpdir: Path, game: str) -> subprocess.Popen:
    env = {**os.environ, "TMPDIR": str(tmpdir), "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "pnp", "validate", game, "--preflight", "-q"], cwd=tmpdir.parent,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for_pdf(tmpdir: Path, proc: subprocess.Popen, timeout: float = 240.0) -> Path:
    """The scratch PDF of the running preflight, once it is written (polled every 10 ms)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = [p for p in tmpdir.glob(f"{PREFIX}*/*.pdf") if p.stat().st_size > 0]
        if found:
            return found[0]
        assert proc.poll() is None, "the preflight ended before its PDF was seen"
        time.sleep(0.01)
    proc.kill()
    raise AssertionError("no scratch PDF appeared")


def test_a_killed_preflight_leaves_nothing_the_next_run_does_not_remove(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = _preflight(tmpdir, "netmatch")
    pdf = _wait_for_pdf(tmpdir, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert pdf.is_file(), "the kill left the PDF behind (what the next run must remove)"
    again = _preflight(tmpdir, "nonads")
    out, err = again.communicate(timeout=600)
    assert again.returncode in (0, 1), err.decode()
    assert b"Traceback" not in err
    assert sorted(os.listdir(tmpdir)) == [], "TMPDIR still holds files after the next preflight"


def test_a_live_preflights_folder_is_never_swept(tmp_path):
    """sweep() run while a preflight works leaves its folder; the preflight then finishes normally."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = _preflight(tmpdir, "netmatch")
    pdf = _wait_for_pdf(tmpdir, proc)
    assert sweep(tmpdir) == [] and pdf.parent.is_dir()
    out, err = proc.communicate(timeout=600)
    assert proc.returncode in (0, 1), err.decode()
    assert os.listdir(tmpdir) == []


def test_sweep_follows_no_link_and_takes_only_its_own_names(tmp_path, monkeypatch):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.pdf").write_bytes(b"%PDF-")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    (tmpdir / f"{PREFIX}link").symlink_to(target, target_is_directory=True)
    (tmpdir / "other-folder").mkdir()
    (tmpdir / f"{PREFIX}dead").mkdir()  # no process holds it: what a kill leaves
    (tmpdir / f"{PREFIX}dead" / "preflight.pdf").write_bytes(b"%PDF-")
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile reads TMPDIR again
    with scratch_folder() as mine:
        assert mine.parent == tmpdir and mine.is_dir()
        assert sorted(os.listdir(tmpdir)) == sorted([f"{PREFIX}link", "other-folder", mine.name])
        assert sweep(tmpdir) == []  # its own folder is locked while in use
    assert not mine.exists()
    assert (target / "keep.pdf").is_file() and (tmpdir / f"{PREFIX}link").is_symlink()


KIT_CASES = {
    # name: (argv after building playing-cards and a deck of one's own into the folder, run from it; exit)
    "kit-link-by-name": (["build", "playing-cards", "-f", "pdf", "--out", "."], 0),
    "kit-link-by-name-default-out": (["build", "playing-cards", "-f", "pdf"], 0),
    "kit-link-validate": (["validate", "playing-cards"], 0),
    "kit-link-as-a-path": (["build", "./playing-cards", "-f", "pdf", "--out", "."], 2),
    "kit-link-of-ones-own-deck": (["build", "deck", "-f", "pdf", "--out", "."], 2),
}


def kit_folder(tmp: Path) -> Path:
    """A folder that kits were written into (--out): playing-cards and a deck of one's own (its source
    folder elsewhere), each a link pnp keeps (OUT/<game> -> .pnp/<game>.g<N>)."""
    deck = blue_kit(tmp / "src" / "deck", "Deck", "  - {name: card, size: poker, copies: 2, front: face.yaml}\n")
    kits = tmp / "kits"
    for target in ("playing-cards", str(deck)):
        r = runner.invoke(app, ["build", target, "-f", "pdf", "--out", str(kits), "-q"])
        assert r.exit_code == 0, r.output
    assert os.readlink(kits / "playing-cards").startswith(".pnp/") and os.readlink(kits / "deck").startswith(".pnp/")
    return kits


@pytest.mark.parametrize("case", sorted(KIT_CASES))
def test_a_kit_is_never_a_game(tmp_path, monkeypatch, case):
    argv, code = KIT_CASES[case]
    kits = kit_folder(tmp_path)
    monkeypatch.chdir(kits)
    before = {p: os.readlink(kits / p) for p in ("playing-cards", "deck")}
    r = runner.invoke(app, argv + ["-q"])
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    if code == 2:
        lines = [line for line in r.output.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), r.output
        assert "is a kit pnp built" in lines[0] and argv[1] in lines[0]
        assert {p: os.readlink(kits / p) for p in before} == before, "nothing was written"
    elif argv[0] == "build":
        where = kits / ("output" if "--out" not in argv else ".")
        assert (where / "playing-cards" / "playing-cards-a4.pdf").is_file()
