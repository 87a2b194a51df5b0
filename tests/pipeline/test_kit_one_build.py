"""A kit is one build: after an edit, a build in another format leaves no file of the older inputs.

Built through the CLI into a temporary --out: the kit's files are walked on disk (through the link
pnp keeps), each is looked up in the new manifest, and every file that can hold text (PDF read back
with pypdf, SVG, JSON, text) is searched for the title the edit replaced.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdf
from typer.testing import CliRunner

from pnp.cli import app
from pnp.inputs.resources import builtin_spec

runner = CliRunner()
OLD, NEW = "Playing cards", "Zebra deck"


def _deck(tmp: Path) -> Path:
    """A copy of the shipped playing-cards folder (its spec and rules carry the title OLD)."""
    folder = tmp / "playing-cards"
    shutil.copytree(builtin_spec("playing-cards").parent, folder)
    return folder


def _retitle(folder: Path) -> None:
    for name in ("playing-cards.yaml", "rules.md"):
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert OLD in text
        path.write_text(text.replace(OLD, NEW), encoding="utf-8")


def _kit_files(kit: Path) -> set[str]:
    """Every file under the kit folder, posix relative paths; the manifest and its numbered history
    copies are the kit's record of itself, not files it lists."""
    files = {p.relative_to(kit).as_posix() for p in kit.rglob("*") if p.is_file()}
    return {f for f in files if not f.startswith("history/") and not f.startswith("manifest-")}


def _text_of(path: Path) -> str:
    if path.suffix == ".pdf":
        reader = pypdf.PdfReader(path)
        meta = " ".join(str(v) for v in (reader.metadata or {}).values())
        return meta + " ".join(page.extract_text() or "" for page in reader.pages)
    if path.suffix in (".svg", ".json", ".txt"):
        return path.read_text(encoding="utf-8")
    return ""


def test_a_build_of_another_format_after_an_edit_leaves_nothing_of_the_older_inputs(tmp_path):
    folder, out = _deck(tmp_path), tmp_path / "out"
    first = runner.invoke(app, ["build", str(folder), "-f", "pdf,svg", "--out", str(out), "-q"])
    assert first.exit_code == 0, first.output
    kit = out / "playing-cards"
    before = _kit_files(kit)
    assert any(f.endswith(".pdf") for f in before) and any(f.endswith(".svg") for f in before)
    assert all(OLD in _text_of(kit / f) for f in before if f.endswith(".pdf"))  # the old title is there to find

    _retitle(folder)
    second = runner.invoke(app, ["build", str(folder), "-f", "tts", "--out", str(out), "-q"])
    assert second.exit_code == 0, second.output
    manifest = json.loads((kit / "manifest-a4.json").read_text(encoding="utf-8"))
    listed = {f["path"] for f in manifest["files"]}
    on_disk = _kit_files(kit)
    assert on_disk, "the TTS build wrote files"
    assert on_disk - listed == set(), f"files in the kit that its manifest does not list: {sorted(on_disk - listed)[:5]}"
    assert listed <= on_disk
    holding_old = [f for f in on_disk if OLD in _text_of(kit / f)]
    assert holding_old == [], holding_old
    assert any(NEW in _text_of(kit / f) for f in on_disk if f.endswith(".json"))  # the TTS save is the new build's


def test_a_kit_on_another_paper_is_its_own_and_stays(tmp_path):
    """Kits of one game on two papers are two kits (two manifests): building one leaves the other whole."""
    folder, out = _deck(tmp_path), tmp_path / "out"
    assert runner.invoke(app, ["build", str(folder), "-f", "pdf", "-p", "letter", "--out", str(out), "-q"]).exit_code == 0
    assert runner.invoke(app, ["build", str(folder), "-f", "tts", "--out", str(out), "-q"]).exit_code == 0
    kit = out / "playing-cards"
    letter = json.loads((kit / "manifest-letter.json").read_text(encoding="utf-8"))
    for entry in letter["files"]:
        assert (kit / entry["path"]).is_file(), entry["path"]
