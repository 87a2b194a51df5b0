"""`pnp calibrate` and its printers: the sheet's marks where pnp.layout.calibration_marks says, at
true size; --measure refusing what is not the sheet; --save-printer keeping the offset in the
user's configuration folder (read back as untrusted input) and `pnp build --printer` applying it.

The commands that touch the configuration folder run as child processes whose XDG_CONFIG_HOME is a
temporary folder (platformdirs honours it on Linux), so the user's own folder is never read."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from sheet_pictures import Camera, photograph, render, through_light
from pnp.calibration.printers import PrinterStore
from pnp.core.errors import PnpError
from pnp.layout.calibration_marks import DICTIONARY, SheetMarks
from pnp.layout.paper import load_sheet
from pnp.pipeline.calibrate import build_calibration

ROOT = Path(__file__).resolve().parents[2]
DPI = 200


@pytest.fixture(scope="module")
def a4(tmp_path_factory):
    out = tmp_path_factory.mktemp("calibrate")
    pdf = build_calibration("a4", "long", out)
    return pdf, render(pdf, DPI)


def _run(args, config: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(XDG_CONFIG_HOME=str(config), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("paper,duplex", [("a4", "long"), ("letter", "short")])
def test_every_marker_reads_where_the_layout_puts_it(tmp_path, paper, duplex):
    """Each side's markers, found by OpenCV in a plain render of their page (the back's read mirrored,
    as light through the paper shows it), sit within 0.1 mm of their place: the sheet is true size."""
    front, back = render(build_calibration(paper, duplex, tmp_path), DPI)
    layout = SheetMarks(load_sheet(paper), duplex)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY))
    seen_back = back[:, ::-1] if duplex == "long" else back[::-1, :]
    for page, marks in ((front, layout.front), (seen_back, layout.back)):
        corners, ids, _ = detector.detectMarkers(np.ascontiguousarray((page * 255).astype(np.uint8)))
        found = {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel())}
        assert sorted(found) == sorted(m.id for m in marks)
        for m in marks:
            centre = (found[m.id].mean(axis=0) + 0.5) * 25.4 / DPI  # pixel centres -> mm from the corner
            assert centre == pytest.approx(m.centre, abs=0.1), m


def test_measure_prints_the_offset_and_saves_the_printer(a4, tmp_path):
    _, (front, back) = a4
    photo = photograph(through_light(front, back, "long", (1.0, 2.0), DPI), Camera(rotate=1, blur=1, seed=3),
                       tmp_path / "photo.jpg")
    config = tmp_path / "config"
    r = _run(["calibrate", "--measure", str(photo), "--save-printer", "office"], config, tmp_path)
    assert r.returncode == 0, r.stderr
    dx, dy = map(float, re.search(r"^--back-offset (\S+),(\S+) ", r.stdout, re.M).groups())
    assert (dx, dy) == pytest.approx((-1.0, -2.0), abs=0.2)
    assert "seen from the front, the back prints" in r.stdout
    saved = json.loads((config / "pnp" / "printers.json").read_text())
    assert saved["printers"]["office"]["long"]["back_offset"] == [dx, dy]
    assert saved["printers"]["office"]["long"]["paper"] == "a4"

    # pnp build --printer office: the same PDF as --back-offset DX,DY, not the one without
    pdfs = {}
    for name, extra in (("printer", ["--printer", "office"]), ("explicit", ["--back-offset", f"{dx:g},{dy:g}"]),
                        ("none", [])):
        out = tmp_path / name
        r = _run(["-q", "build", "nonads", "--format", "pdf", "--duplex", "long", "--out", str(out), *extra],
                 config, tmp_path)
        assert r.returncode == 0, r.stderr
        pdfs[name] = (out / "nonads" / "nonads-a4.pdf").read_bytes()
    assert pdfs["printer"] == pdfs["explicit"] != pdfs["none"]

    # the printer's one measured edge is taken when --duplex is not given
    r = _run(["-q", "build", "nonads", "--format", "pdf", "--printer", "office", "--out", str(tmp_path / "auto")],
             config, tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "auto" / "nonads" / "nonads-a4.pdf").read_bytes() == pdfs["printer"]


@pytest.mark.parametrize("args,needle", [
    (["build", "nonads", "--printer", "nowhere"], "no printer 'nowhere'"),
    (["build", "nonads", "--printer", "../x"], "is not 1-40 letters"),
    (["build", "nonads", "--printer", "office", "--duplex", "short"], "not the short edge"),
    (["build", "nonads", "--printer", "office", "--back-offset", "1,1"], "both move the backs"),
    (["calibrate", "--measure", "{photo}", "--save-printer", "a b"], "is not 1-40 letters"),
    (["calibrate", "{photo}"], "go with --measure"),
    (["calibrate", "--measure"], "one picture or two scans, not 0"),
])
def test_printer_options_refuse_in_one_line(tmp_path, args, needle):
    config = tmp_path / "config"
    PrinterStore(config / "pnp").save("office", "long", (0.5, -0.5), "a4")
    (tmp_path / "photo.png").write_bytes(b"")
    r = _run([a.replace("{photo}", str(tmp_path / "photo.png")) for a in args] + ["--out", str(tmp_path / "o")],
             config, tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr
    assert not (tmp_path / "o").exists()


def _kit_page(tmp_path: Path) -> Path:
    r = _run(["-q", "build", "nonads", "--format", "pdf", "--out", str(tmp_path / "kit")], tmp_path / "c", tmp_path)
    assert r.returncode == 0, r.stderr
    page, = render(tmp_path / "kit" / "nonads" / "nonads-a4.pdf", 150, pages=(1,))  # its sheet of tiles
    return photograph(page, Camera(rotate=1, seed=1), tmp_path / "kit.jpg")


def test_a_picture_of_something_else_is_refused(a4, tmp_path):
    _, (front, back) = a4
    rng = np.random.default_rng(0)
    noise = tmp_path / "noise.png"
    cv2.imwrite(str(noise), rng.integers(0, 256, (1600, 1200), dtype=np.uint8))
    front_only = photograph(front, Camera(rotate=1, seed=2), tmp_path / "front.jpg")
    (tmp_path / "notes.txt").write_text("not a picture\n")
    cases = [(_kit_page(tmp_path), "no pnp calibration sheet found"), (noise, "no pnp calibration sheet found"),
             (tmp_path / "notes.txt", "is not a picture pnp can read"), (tmp_path / "missing.jpg", "no such file"),
             (front_only, "no back markers seen through the paper")]
    for picture, needle in cases:
        r = _run(["calibrate", "--measure", str(picture)], tmp_path / "config", tmp_path)
        assert r.returncode == 2, (picture, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {picture}: ") and needle in lines[0], r.stderr
        assert r.stdout == ""


def test_two_pictures_of_the_front_are_not_two_scans(a4, tmp_path):
    _, (front, _) = a4
    scan = Camera(background=0.15, fill=0.9, seed=4)
    a, b = photograph(front, scan, tmp_path / "a.jpg"), photograph(front, scan, tmp_path / "b.jpg")
    r = _run(["calibrate", "--measure", str(a), str(b)], tmp_path / "config", tmp_path)
    assert r.returncode == 2 and "no back of a pnp calibration sheet found in this scan" in r.stderr, r.stderr


def test_the_wrong_paper_is_named(a4, tmp_path):
    _, (front, back) = a4
    photo = photograph(through_light(front, back, "long", (0, 0), DPI), Camera(seed=5), tmp_path / "p.jpg")
    r = _run(["calibrate", "--measure", str(photo), "--paper", "letter"], tmp_path / "config", tmp_path)
    assert r.returncode == 2 and "printed on a4, not on letter" in r.stderr, r.stderr


BAD_FILES = [
    (b"\xff\xfe", "is not JSON"),
    (b"[]", "is not a pnp printers file"),
    (json.dumps({"version": 2, "printers": {}}).encode(), "is not a pnp printers file"),
    (json.dumps({"version": 1, "printers": {"../x": {}}}).encode(), "is not a printer name"),
    (json.dumps({"version": 1, "printers": {"p": {"sideways": {}}}}).encode(), "field printers.p"),
    (json.dumps({"version": 1, "printers": {"p": {"long": {"back_offset": [1e9, 0], "paper": "a4",
                                                           "measured": "x"}}}}).encode(), "printers.p.long.back_offset"),
    (json.dumps({"version": 1, "printers": {"p": {"long": {"back_offset": ["1", 0], "paper": "a4",
                                                           "measured": "x"}}}}).encode(), "printers.p.long.back_offset"),
    (json.dumps({"version": 1, "printers": {"p": {"long": {"back_offset": [1, 0], "paper": "a4", "measured": "x",
                                                           "extra": 1}}}}).encode(), "nothing else"),
    (json.dumps({"version": 1, "printers": {f"p{i}": {"long": {"back_offset": [0, 0], "paper": "a4", "measured": "x"}}
                                            for i in range(101)}}).encode(), "at most 100"),
    (b" " * (64 * 1024 + 1), "more than 64 KiB"),
]


@pytest.mark.parametrize("raw,needle", BAD_FILES)
def test_a_bad_printers_file_is_refused_naming_it(tmp_path, raw, needle):
    (tmp_path / "printers.json").write_bytes(raw)
    with pytest.raises(PnpError) as info:
        PrinterStore(tmp_path).offset("p", "long")
    assert needle in str(info.value) and str(tmp_path / "printers.json") in str(info.value)


def test_saving_keeps_the_other_edge_and_printers(tmp_path):
    store = PrinterStore(tmp_path)
    store.save("office", "long", (1.25, -0.5), "a4")
    store.save("home", "short", (0.0, 2.0), "letter")
    store.save("office", "short", (-1.0, 0.75), "a4")
    assert store.offset("office", "long") == ("long", (1.25, -0.5))
    assert store.offset("office", "short") == ("short", (-1.0, 0.75))
    assert store.offset("home", "none") == ("short", (0.0, 2.0))
    with pytest.raises(PnpError, match="measured for both flip edges"):
        store.offset("office", "none")


def test_a_sheet_of_ones_own_is_measured_with_its_paper(tmp_path):
    """A sheet YAML of one's own (here 200 x 260 mm): its markers say so, and --paper names it."""
    from pnp.calibration.measure import Measurer
    from pnp.pipeline.plan import load_paper
    yaml = tmp_path / "mine.yaml"
    yaml.write_text("name: mine\nwidth: 200mm\nheight: 260mm\nmargin: 6mm\n")
    front, back = render(build_calibration(str(yaml), "long", tmp_path / "out"), 150)
    photo = photograph(through_light(front, back, "long", (-1.5, 0.5), 150), Camera(rotate=-1, blur=1, seed=6),
                       tmp_path / "p.jpg")
    builtin = lambda name: load_paper(name).sheet  # noqa: E731
    with pytest.raises(PnpError, match="printed on a sheet of your own"):
        Measurer(None, builtin).measure([photo])
    with pytest.raises(PnpError, match="printed on a sheet of your own, not on a4"):
        Measurer(load_paper("a4").sheet, builtin).measure([photo])
    m = Measurer(load_paper(str(yaml)).sheet, builtin).measure([photo])
    assert m.paper == "mine" and m.back_offset == pytest.approx((1.5, -0.5), abs=0.2)
