"""Nothing is written outside --out through any path: one write function that
never follows a symlink below --out, and one safe-name rule for every name that becomes a path
component. Each case hashes a sentinel folder outside --out before and after."""
from __future__ import annotations

import os
import re
import signal
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.pipeline.calibrate import build_calibration
from pnp.pipeline.execute import build_kit
from pnp.cli import app
from pnp.core.errors import OutputError, SpecError
from pnp.inputs.resources import sheets_dir
from pnp.core.fontbook import FontBook
from pnp.render.formats import formats
from pnp.store.names import SAFE_NAME, check_safe_name, is_safe_name
from pnp.core.safepath import checked_path, open_write, write_atomic, write_bytes

from sentinel import make_sentinel, tree_hash

BAD_NAMES = ["../../x", "a/b", "..", ".", "", "a\x00b", "A4", "-a4", "_a4", "a4.yaml", "a" * 42, "a4\n", "é4", " a4"]


@pytest.fixture
def sentinel(tmp_path):
    folder = make_sentinel(tmp_path / "outside")
    before = tree_hash(folder)
    yield folder
    assert tree_hash(folder) == before, "a file outside --out was written, replaced or deleted"


@pytest.fixture
def out(tmp_path):
    return tmp_path / "out"


def _sheet(tmp_path: Path, name: str, text: str | None = None) -> Path:
    """A copy of the A4 template with another ``name:`` (a YAML double-quoted string)."""
    body = (sheets_dir() / "a4.yaml").read_text()
    body = re.sub(r"(?m)^name: .*$", lambda _: f'name: "{name}"', body)
    path = tmp_path / f"sheet-{len(list(tmp_path.glob('sheet-*')))}.yaml"
    path.write_text(text if text is not None else body, encoding="utf-8")
    return path


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


# --- the safe-name rule ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", BAD_NAMES)
def test_unsafe_names_are_refused(name):
    with pytest.raises(SpecError) as err:
        check_safe_name(name, "sheet name", file="x.yaml", field="name")
    assert "cannot be used in file names" in str(err.value) and "x.yaml" in str(err.value)
    assert "\x00" not in str(err.value) and "\n" not in str(err.value).split("Fix:")[0]


@pytest.mark.parametrize("name", ["a4", "a4-word", "letter_2", "0", "z" * 41])
def test_safe_names_pass(name):
    assert check_safe_name(name, "sheet name", field="name") == name


def test_format_names_follow_the_rule():
    assert all(SAFE_NAME.match(name) for name in formats().names())


# --- the one write function -------------------------------------------------------------------------

def test_open_write_refuses_a_symlinked_folder_on_the_way(tmp_path, sentinel):
    root = tmp_path / "root"
    (root / "a").mkdir(parents=True)
    os.symlink(sentinel, root / "a" / "b")
    with pytest.raises(OutputError, match="symbolic link"):
        write_bytes(root, "a/b/new.txt", b"x")
    with pytest.raises(OutputError, match="symbolic link"):
        write_bytes(root, "a/b/keep.txt", b"x")
    assert not (sentinel / "new.txt").exists()


def test_open_write_refuses_a_symlinked_file(tmp_path, sentinel):
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(sentinel / "keep.txt", root / "f.txt")
    with pytest.raises(OutputError, match="symbolic link"):
        write_bytes(root, "f.txt", b"x")
    with pytest.raises(OutputError, match="symbolic link"):
        checked_path(root, "f.txt")


def test_open_write_refuses_a_fifo_without_blocking(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    os.mkfifo(root / "f.png")
    signal.alarm(20)                                 # a blocking open would hang: fail instead
    try:
        with pytest.raises(OutputError, match="FIFO"):
            write_bytes(root, "f.png", b"x")
    finally:
        signal.alarm(0)
    assert stat.S_ISFIFO(os.lstat(root / "f.png").st_mode)


@pytest.mark.parametrize("rel", ["../x", "/etc/x", "a/../../x", "a\x00b"])
def test_paths_leaving_the_root_are_refused(tmp_path, rel):
    with pytest.raises(OutputError, match="not a plain path"):
        open_write(tmp_path, rel)


def test_write_atomic_replaces_a_symlink_without_following_it(tmp_path, sentinel):
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(sentinel / "keep.txt", root / "f.pdf")
    write_atomic(root, "f.pdf", b"%PDF-new")
    assert not os.path.islink(root / "f.pdf") and (root / "f.pdf").read_bytes() == b"%PDF-new"
    assert [p.name for p in root.iterdir()] == ["f.pdf"]   # no temporary file left


# --- calibrate ---------------------------------------------------------------------------------------

def test_calibrate_into_a_symlinked_calibrate_folder_is_refused(out, sentinel):
    out.mkdir()
    os.symlink(sentinel, out / "calibrate")
    r = CliRunner().invoke(app, ["calibrate", "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert "symbolic link" in r.output and "Traceback" not in r.output
    assert os.path.islink(out / "calibrate")


def test_calibrate_replaces_a_planted_symlink_at_its_file(out, sentinel):
    (out / "calibrate").mkdir(parents=True)
    os.symlink(sentinel / "keep.txt", out / "calibrate" / "calibrate-a4-long.pdf")
    path = build_calibration("a4", "long", out)
    assert not path.is_symlink() and path.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("name", ["../../x", "../calibrate-escape", "a\\0b", "sub/dir"])
@pytest.mark.parametrize("command", ["calibrate", "build"])
def test_sheet_names_with_paths_or_nul_are_refused(tmp_path, out, sentinel, name, command):
    sheet = _sheet(tmp_path, name)
    args = ["calibrate"] if command == "calibrate" else ["build", "nonads"]
    r = CliRunner().invoke(app, [*args, "--paper", str(sheet), "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert "cannot be used in file names" in r.output and str(sheet) in r.output
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert not out.exists() or _files(out) == set()
    assert not list(tmp_path.rglob("*.pdf"))


# --- build: the font cache and the game folder ----------------------------------------------------

def test_cache_folder_replaced_by_a_symlink_is_not_written_through(out, sentinel, monkeypatch):
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    (out / ".pnp").mkdir(parents=True)
    os.symlink(sentinel, out / ".pnp" / "cache")
    from pnp.inputs.resources import specs_dir  # Greek and Cyrillic: subsets beyond the base characters
    no_chunks = out.parent / "no-chunks"  # no shipped chunks (another font version): the build subsets its fonts
    no_chunks.mkdir()
    with FontBook(chunk_folder=no_chunks).in_use() as book:  # a book of its own: no subset in memory
        result = build_kit(str(specs_dir() / "questions"), formats=("svg",), out=out)
    assert book.made["subset"] > 0
    cache = out / ".pnp" / "cache"
    assert cache.is_dir() and not cache.is_symlink()
    entries = sorted(p.name for p in cache.iterdir())
    assert entries and all(re.fullmatch(r"font-[0-9a-f]{32}-[0-9a-f]{64}\.css", e) for e in entries)
    assert any(p.suffix == ".svg" for p in result.files)


def test_a_symlinked_folder_inside_the_kit_is_not_written_through(out, sentinel):
    build_kit("nonads", formats=("svg",), out=out)
    svg = out / "nonads" / "svg"
    for p in svg.iterdir():
        p.unlink()
    svg.rmdir()
    os.symlink(sentinel, svg)
    with pytest.raises(OutputError, match="in the way"):
        build_kit("nonads", formats=("svg",), out=out)


def test_sheets_sharing_a_prefix_keep_their_own_tts_files(tmp_path, out, sentinel):
    a4_word = _sheet(tmp_path, "a4-word")
    first = build_kit("nonads", paper=str(a4_word), formats=("tts",), out=out)
    kit_word = {p.relative_to(out / "nonads").as_posix() for p in first.files if "tts/" in p.as_posix()}
    hashes = {rel: (out / "nonads" / rel).read_bytes() for rel in kit_word}
    second = build_kit("nonads", paper="a4", formats=("tts",), out=out)
    kit_a4 = {p.relative_to(out / "nonads").as_posix() for p in second.files if "tts/" in p.as_posix()}
    assert kit_word and kit_a4 and not kit_word & kit_a4
    on_disk = _files(out / "nonads")
    assert kit_word <= on_disk and kit_a4 <= on_disk
    assert all((out / "nonads" / rel).read_bytes() == data for rel, data in hashes.items())
    # and no writer claims the other kit's files
    for name, writer in zip(formats().names(), formats().writers(formats().names())):
        assert not any(writer.owns(rel, "nonads-a4") for rel in kit_word | {"manifest-a4-word.json"}), name
        assert not any(writer.owns(rel, "nonads-a4-word") for rel in kit_a4), name


@pytest.mark.parametrize("paper", ["a4-word", "a4-p01", "a4-contact", "a4-sheet1", "a4-back"])
def test_no_writer_claims_a_file_of_a_kit_whose_paper_extends_another(paper):
    """Every file name any writer makes for the kit nonads-<paper> is refused by every writer's owns()
    for nonads-a4, and the reverse (the names are read off the writers' patterns' own examples)."""
    samples = {
        "pdf": "{s}.pdf", "svg": "svg/{s}-p01.svg", "cut-svg": "cut/{s}-p01-cut.svg",
        "tts": "tts/{s}/{s}-tile-sheet1.png", "preview": "preview/{s}-p01.png",
        "pod": "pod/{s}/{s}-tgc-tile-001.png", "cricut": "cricut/{s}-p01.png",
        "showcase": "showcase/{s}/{s}-tile-fan.png",
    }
    assert set(samples) == set(formats().names())
    for fmt, template in samples.items():
        assert formats().get(fmt).owns(template.format(s="nonads-a4"), "nonads-a4")
        for other in formats().writers(formats().names()):
            assert not other.owns(template.format(s=f"nonads-{paper}"), "nonads-a4"), (fmt, other.name)
            assert not other.owns(template.format(s="nonads-a4"), f"nonads-{paper}"), (fmt, other.name)


@pytest.mark.parametrize("names", [["Word card", "word-card", "WORD CARD"], ["", "---", "***"], ["Ünïcode tile"],
                                   ["x" * 80, "x" * 80], ["tile", "tile-2", "tile"]])
def test_tts_part_names_are_safe_and_distinct(names):
    from types import SimpleNamespace

    from pnp.render.tts_save import part_names
    made = part_names([SimpleNamespace(name=n) for n in names])
    assert len(made) == len(set(made)) == len(names)
    assert all(is_safe_name(m) for m in made), made
