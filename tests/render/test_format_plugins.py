"""Output formats as plug-ins (pnp.render.formats): each format declares its files, options and cost;
a package adds one through the entry-point group ``pnp.formats``, shown by the example package in
tests/render/format_plugin (a real dist-info on the path of a fresh process, no stand-in)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.errors import SpecError
from pnp.render.formats import BUILTIN, GROUP, Formats, KitWriter, WriterSettings, formats

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = Path(__file__).resolve().parent / "format_plugin"


def _pnp(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``python -m pnp ARGS`` in a fresh process with the example package installed on its path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.pathsep.join([str(PLUGIN), str(ROOT)])
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_an_installed_packages_format_builds_and_its_files_are_the_kits(tmp_path):
    out = tmp_path / "out"
    r = _pnp(["build", "nonads", "--format", "pdf,contents", "--out", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    listing = (out / "nonads" / "contents" / "nonads-a4.txt").read_text(encoding="utf-8").splitlines()
    from pypdf import PdfReader
    pages = len(PdfReader(out / "nonads" / "nonads-a4.pdf").pages)
    assert [line.split("\t")[0] for line in listing] == [str(n) for n in range(1, pages + 1)]
    manifest = json.loads((out / "nonads" / "manifest-a4.json").read_text(encoding="utf-8"))
    assert "contents/nonads-a4.txt" in json.dumps(manifest["files"])
    # a later build in another format replaces the whole kit: the plug-in's file goes with it
    r = _pnp(["build", "nonads", "--format", "pdf", "--out", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert not (out / "nonads" / "contents" / "nonads-a4.txt").exists()


def test_a_plugin_that_is_not_a_format_is_refused_by_name(tmp_path):
    r = _pnp(["build", "nonads", "--format", "broken", "--out", str(tmp_path / "out")], tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert "'broken'" in lines[0] and "pnp_contents_format:NotAWriter" in lines[0] and GROUP in lines[0]
    assert not (tmp_path / "out" / "nonads").exists()


def test_an_unknown_format_lists_the_installed_plugins_too(tmp_path):
    r = _pnp(["build", "nonads", "--format", "jpeg", "--out", str(tmp_path / "out")], tmp_path)
    assert r.returncode == 2 and "unknown format 'jpeg'" in r.stderr
    assert all(name in r.stderr for name in [*BUILTIN, "contents"])


def test_a_broken_plugin_owns_nothing_and_stops_no_other_build():
    points = {"gone": EntryPoint("gone", "no_such_module:Writer", GROUP)}
    registry = Formats(points)
    assert registry.names() == (*BUILTIN, "gone")
    assert not registry.owns("gone/nonads-a4.txt", "nonads-a4") and registry.owns("nonads-a4.pdf", "nonads-a4")
    with pytest.raises(SpecError, match="cannot be loaded: ModuleNotFoundError"):
        registry.get("gone")


def test_a_plugin_never_shadows_pnps_own_format():
    registry = Formats({"pdf": EntryPoint("pdf", "pnp_contents_format:ContentsWriter", GROUP)})
    assert registry.names() == tuple(BUILTIN) and registry.get("pdf").__name__ == "PdfKitWriter"


def test_every_format_declares_its_options_and_cost():
    settings = WriterSettings()
    for name in BUILTIN:
        writer = formats().get(name)
        assert issubclass(writer, KitWriter) and writer.name == name
        assert set(writer.options) <= set(WriterSettings.__dataclass_fields__), name
        assert writer.seconds(10, (), settings) >= 0 and writer.pixels(_A4, settings)[0] >= 0


class _Sheet:
    width, height = 210.0, 297.0


_A4 = _Sheet()


@pytest.mark.parametrize("args, flag, taker", [
    (["--tts-url", "https://example.org/kits"], "--tts-url", "tts"),
    (["--svg-text", "outlines", "--format", "pdf"], "--svg-text", "svg"),
    (["--service", "tgc"], "--service", "pod"),
])
def test_an_option_no_requested_format_reads_is_refused(tmp_path, args, flag, taker):
    """An option the build's formats would silently ignore is bad input: the line names it and the
    format that reads it, and nothing is written."""
    r = CliRunner().invoke(app, ["build", "nonads", "--out", str(tmp_path / "out"), *args])
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert r.exit_code == 2 and lines[0].startswith("error:") and "Traceback" not in r.output, r.output
    flat = " ".join(r.output.split())
    assert f"{flag} is for --format {taker}" in flat
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("fmt, imported", [("pdf", False), ("svg", True)])
@pytest.mark.parametrize("builds", [1, 3])
def test_a_build_imports_the_svg_writer_only_when_it_writes_svg(tmp_path, fmt, imported, builds):
    """A format's module and its library are imported when the format is asked for: a fresh process
    building NetMatch as PDF never imports svgwrite (nor pnp's SVG writer); one building SVG does.
    So does a rebuild into a kit folder holding the earlier builds' history copies (which no format
    writes: deciding they stay asks no format)."""
    code = ("import sys\nfrom pnp.cli import app\nsys.argv = ['pnp', 'build', 'netmatch', '--format', "
            f"{fmt!r}, '--out', {str(tmp_path / 'out')!r}, '-q']\n"
            "try:\n    app()\nexcept SystemExit as stop:\n    assert not stop.code, stop.code\n"
            "print(sorted(m for m in ('svgwrite', 'pnp.render.svg') if m in sys.modules))\n")
    for _ in range(builds):
        proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert proc.stdout.strip().splitlines()[-1] == ("['pnp.render.svg', 'svgwrite']" if imported else "[]")
    kit = tmp_path / "out" / "netmatch"
    assert list(kit.rglob(f"*.{fmt}"))
    assert len(list(kit.glob("history/manifest-a4-g*.json"))) == builds


class _CountedPoints(dict):
    """Entry points that count how often they are read (as a whole: iterated or asked for a name)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.reads = 0

    def __iter__(self):
        self.reads += 1
        return super().__iter__()


def test_pnps_own_formats_are_resolved_without_reading_the_entry_points():
    """A build in pnp's own formats orders them without reading the installed entry points (each
    read scans every installed distribution); one naming a plug-in reads them and puts it after pnp's."""
    points = _CountedPoints({"mine": EntryPoint("mine", f"{__name__}:_MineWriter", GROUP)})
    registry = Formats(points)
    assert registry.resolve(["svg", "pdf"]) == ("pdf", "svg") and points.reads == 0
    assert registry.resolve(["mine", "pdf"]) == ("pdf", "mine") and points.reads == 1


class _MineWriter(KitWriter):
    """A third party's format for the test above (never asked to write)."""
