"""A kit is replaced whole or not at all (pnp build through pnp.store.kitstore): failures part way, kill -9,
two builds at once, kits of other papers, and symlinks pointing outside --out."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir

from conftest import snapshot

runner = CliRunner()


def _build(*args) -> "CliRunner.Result":
    return runner.invoke(app, ["build", *map(str, args)])


def _words(tmp_path: Path, name: str, words: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


def _kit(game_dir: Path) -> dict:
    """snapshot() of the kit without history/, where each build adds a numbered copy of its manifest."""
    return {k: v for k, v in snapshot(game_dir).items() if not k.startswith("history/")}


def _consistent(game_dir: Path, paper: str = "a4") -> dict:
    """The manifest of a kit matches its files byte for byte; returns the manifest."""
    manifest = json.loads((game_dir / f"manifest-{paper}.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        data = (game_dir / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["path"]
    return manifest


def test_a_page_path_in_the_way_leaves_the_earlier_kit_byte_for_byte(tmp_path):
    out = tmp_path / "out"
    assert _build("netmatch", "-o", out).exit_code == 0
    page = out / "netmatch" / "svg" / "netmatch-a4-p05.svg"
    gen = page.resolve().parent
    page.unlink()
    page.mkdir()
    before = snapshot(out / "netmatch")
    other = _words(tmp_path, "w.txt", ["ABCD", "EFGH", "IJKL"])
    r = _build("netmatch", "--words", other, "-o", out)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert snapshot(out / "netmatch") == before
    assert (out / "netmatch" / "svg").resolve() == gen


def test_disk_full_while_writing_the_pdf_keeps_the_earlier_kit(tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert _build("nonads", "-o", out).exit_code == 0
    before = snapshot(out / "nonads")
    from pnp.render import pdf

    def full(self):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(pdf.PdfWriter, "close", full)
    r = _build("nonads", "-o", out)
    assert r.exit_code == 2 and "No space left" in r.output and "unchanged" in r.output, r.output
    assert snapshot(out / "nonads") == before
    assert [p.name for p in (out / ".pnp").iterdir() if ".stage." in p.name] == []


def test_papers_keep_their_own_manifest_and_pages(tmp_path):
    out = tmp_path / "out"
    big = tmp_path / "a4-big.yaml"
    big.write_text("name: a4-big\nwidth: 210mm\nheight: 297mm\nmargin: 5mm\n", encoding="utf-8")
    for paper in ("a4", "letter", str(big)):
        assert _build("nonads", "-o", out, "--paper", paper).exit_code == 0
    kept = {k: v for k, v in snapshot(out / "nonads").items() if "letter" in k or "a4-big" in k}
    assert any("a4-big" in k for k in kept) and "manifest-letter.json" in kept
    assert _build("nonads", "-o", out, "--paper", "a4", "-f", "svg").exit_code == 0
    after = snapshot(out / "nonads")
    assert {k: after[k] for k in kept} == kept
    for paper in ("a4", "letter", "a4-big"):
        assert _consistent(out / "nonads", paper)["paper"] == paper


def test_a_sheet_named_like_a_builtin_paper_is_refused(tmp_path):
    fake = tmp_path / "mine.yaml"
    fake.write_text("name: a4\nwidth: 200mm\nheight: 280mm\n", encoding="utf-8")
    r = _build("nonads", "-o", tmp_path / "out", "--paper", fake)
    assert r.exit_code == 2 and "like the built-in paper" in r.output and "line 1" in r.output


def test_game_folder_symlinked_outside_is_refused_and_outside_untouched(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep me")
    (outside / "netmatch-a4.pdf").write_text("not a kit")
    out = tmp_path / "out"
    out.mkdir()
    (out / "netmatch").symlink_to(outside)
    before = snapshot(outside)
    r = _build("netmatch", "-o", out)
    assert r.exit_code == 2 and "symlink" in r.output, r.output
    assert snapshot(outside) == before


def test_a_plain_folder_at_the_game_path_is_refused_and_untouched(tmp_path):
    out = tmp_path / "out"
    folder = out / "nonads"
    (folder / "svg").mkdir(parents=True)
    (folder / "nonads-a4.pdf").write_bytes(b"%PDF-1.4 an older kit someone keeps")
    (folder / "svg" / "nonads-a4-p01.svg").write_text("<svg/>")
    (folder / "notes.txt").write_text("keep me")
    before = snapshot(folder)
    r = _build("nonads", "-o", out)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert str(folder) in r.output and "a folder that pnp did not make" in r.output, r.output
    assert "move it away" in r.output and "--out" in r.output, r.output
    assert snapshot(folder) == before and not folder.is_symlink()
    assert sorted(p.name for p in out.iterdir()) == ["nonads"]   # not even OUT/.pnp or a lock file was made


def test_svg_folder_symlinked_outside_is_never_followed(tmp_path):
    out = tmp_path / "out"
    assert _build("nonads", "-o", out).exit_code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "nonads-a4-p01.svg").write_text("someone else's file")
    svg = out / "nonads" / "svg"
    real = svg.resolve()
    for f in real.iterdir():
        f.unlink()
    real.rmdir()
    svg.symlink_to(outside)
    before_out, before_outside = snapshot(out / "nonads"), snapshot(outside)
    r = _build("nonads", "-o", out)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert snapshot(outside) == before_outside
    assert snapshot(out / "nonads") == before_out


def _spawn_build(out: Path, words: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pnp", "-q", "build", "netmatch", "--words", str(words),
                             "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _deck(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    letters = "ABCDEFGHIJKLMNOPRSTUVW"
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(letters) for _ in range(4)))
    return sorted(words)


@pytest.mark.slow
def test_two_builds_at_once_take_turns_and_leave_one_whole_kit(tmp_path):
    out = tmp_path / "out"
    lists = [_words(tmp_path, f"w{i}.txt", _deck(400, i)) for i in range(2)]
    procs = [_spawn_build(out, lists[i]) for i in range(2)]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    manifest = _consistent(out / "netmatch")
    files = {e["path"] for e in manifest["files"]}
    on_disk = {k for k in snapshot(out / "netmatch") if k.startswith("svg/")}
    assert on_disk == {f for f in files if f.startswith("svg/")}  # no page of the other build left over
    assert manifest["components"][0]["count"] == 400


@pytest.mark.slow
def test_kill_9_at_random_points_leaves_the_old_or_the_new_kit_exactly(tmp_path):
    out = tmp_path / "out"
    old_words = _words(tmp_path, "old.txt", _deck(300, 1))
    new_words = _words(tmp_path, "new.txt", _deck(300, 2))
    assert _spawn_build(out, old_words).wait(timeout=300) == 0
    old = _kit(out / "netmatch")
    probe = _spawn_build(out / "probe", new_words)
    start = time.monotonic()
    assert probe.wait(timeout=300) == 0
    duration = time.monotonic() - start
    rng = random.Random(7)
    outcomes = {"old": 0, "new": 0}
    new = None
    for _trial in range(12):
        proc = _spawn_build(out, new_words)
        time.sleep(rng.uniform(0.2, duration * 1.5))  # from start-up to past the end of the build
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        now = _kit(out / "netmatch")
        if now == old:
            outcomes["old"] += 1
        else:
            new = new or now
            assert now == new, "a kill left a mixed kit"
            _consistent(out / "netmatch")
            outcomes["new"] += 1
            assert _spawn_build(out, old_words).wait(timeout=300) == 0  # back to the old kit
            assert _kit(out / "netmatch") == old
    assert _spawn_build(out, new_words).wait(timeout=300) == 0
    leftovers = [p.name for p in (out / ".pnp").iterdir() if not p.name.endswith(".lock") and p.name != "cache"]
    assert len(leftovers) == 1 and leftovers[0].startswith("netmatch.g"), leftovers  # stale staging cleaned
    assert sum(outcomes.values()) == 12 and outcomes["old"] > 0


def test_staging_left_by_an_older_pnp_is_removed_without_following_links(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    dead = out / ".pnp-staging-nonads-a4-999999999"
    (dead / "svg").mkdir(parents=True)
    (dead / "nonads-a4.pdf").write_text("half a kit")
    alive = out / f".pnp-staging-nonads-a4-{os.getpid()}"
    alive.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    (out / ".pnp-staging-netmatch-a4-999999998").symlink_to(outside)
    assert _build("nonads", "-o", out, "-f", "pdf").exit_code == 0
    assert not dead.exists() and alive.is_dir()
    assert not os.path.lexists(out / ".pnp-staging-netmatch-a4-999999998")
    assert (outside / "keep.txt").read_text() == "keep"
