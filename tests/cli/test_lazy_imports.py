"""A build imports only what it draws (docs/performance.md, "Cold start"): the preview server and
the watcher, the raster, print-service, Tabletop Simulator and cutter writers, workbook readers,
the font subsetter, numpy, svglib, the proof stamp, the rules booklet, the reprint's cover, the cutters' marks
and the print services' safe-area check are imported by the commands and kits that use them, never by
``pnp build`` of a kit that needs none of them (Nonads: templates, no pictures, no SVG art).

Read from ``python -X importtime`` of a fresh process: every module the process imported.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NOT_FOR_NONADS = {
    "starlette", "uvicorn", "sse_starlette", "watchfiles",       # pnp watch / preview
    "numpy",                                                      # the vectorised enumerator only
    "svglib", "lxml", "reportlab.graphics", "reportlab.platypus",  # SVG art drawn into a PDF
    "fontTools", "fontTools.subset",                              # font subsets not shipped, designers' fonts
    "python_calamine",                                            # spreadsheets
    "pnp.pipeline.serve", "pnp.pipeline.watch", "pnp.pipeline.calibrate", "pnp.layout.calibration_sheet",
    "pnp.layout.calibration_marks", "pnp.calibration.measure", "pnp.calibration.printers", "cv2", "platformdirs",
    "pnp.render.raster", "pnp.render.pod", "pnp.render.tts", "pnp.render.tts_save", "pnp.render.cricut",
    "pnp.render.showcase_draw", "pnp.render.showcase_layout",
    "pnp.custom.scaffold",
    "pnp.layout.proof", "pnp.layout.booklet", "pnp.layout.reprint_cover",  # --proof, --rules booklet, --reprint
    "pnp.layout.cutter_marks", "pnp.checks.safearea",            # --cutter, --format pod / --service
}


def imported_modules(args: list[str], cwd: Path) -> set[str]:
    """The modules a fresh ``python -X importtime -m pnp ARGS`` process imports."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "pnp", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2 and "cumulative" not in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def test_a_build_of_nonads_imports_no_module_it_does_not_use(tmp_path):
    names = imported_modules(["-q", "build", "nonads", "--out", str(tmp_path / "out")], tmp_path)
    assert "pnp.pipeline.execute" in names and "reportlab.pdfgen.canvas" in names  # it did build
    assert (tmp_path / "out" / "nonads").is_dir()
    assert sorted(NOT_FOR_NONADS & names) == []


def test_svg_art_brings_svglib(tmp_path):
    """The playing cards draw SVG art into the PDF: there svglib is imported (so the list above
    names modules a build can import)."""
    names = imported_modules(["-q", "build", "playing-cards", "--format", "pdf", "--out", str(tmp_path / "out")],
                             tmp_path)
    assert "svglib.svglib" in names and "reportlab.graphics" in names


def test_proof_and_booklet_bring_their_modules(tmp_path):
    """A build that stamps its version and prints a rules booklet imports the two modules that do
    it (so the list above names modules a build can import)."""
    names = imported_modules(["-q", "build", "nonads", "--format", "pdf", "--proof", "--rules", "booklet",
                              "--out", str(tmp_path / "out")], tmp_path)
    assert "pnp.layout.proof" in names and "pnp.layout.booklet" in names
    assert any(p.name.startswith("nonads-rules-booklet") for p in (tmp_path / "out" / "nonads").iterdir())
