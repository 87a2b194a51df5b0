"""`pnp calibrate --measure`: the duplex offset read back off pictures made from pnp's own sheet.

The pictures (tests/calibration/sheet_pictures.py) are the calibration PDF's two pages rendered with
PDFium, the back moved by a known printer error (in the back page's own mm), then either combined as
light through paper shows them (the back mirrored, blurred and fainter, multiplied with the front)
or laid on a scanner's dark background, and photographed: turned, in perspective, blurred, noisy,
JPEG. Each offset must come back within TOLERANCE mm; and the --back-offset printed, applied to a
real build, must put the backs where the printer's error then lands them on the fronts.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from sheet_pictures import Camera, photograph, render, shifted, through_light
from pnp.calibration.measure import Measurer
from pnp.core.errors import PnpError
from pnp.layout.calibration_marks import SheetMarks
from pnp.layout.impose import ImposeOptions, impose
from pnp.layout.paper import load_sheet
from pnp.pipeline.calibrate import build_calibration
from pnp.pipeline.plan import context as plan_context, load_paper, load_target

TOLERANCE = 0.2  # mm
DPI = 150


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """(paper, duplex) -> (front, back) renders of pnp's calibration sheet at DPI."""
    out = tmp_path_factory.mktemp("calibrate")
    return {(p, d): render(build_calibration(p, d, out), DPI) for p, d in (("a4", "long"), ("letter", "short"))}


def _measurer() -> Measurer:
    return Measurer(None, lambda name: load_paper(name).sheet)


# (paper, duplex, printer error on the back page (mm), camera, how dark the back's ink shows through)
LIGHT = [
    ("a4", "long", (0.0, 0.0), Camera(), 0.45),
    ("a4", "long", (1.5, -0.7), Camera(rotate=1.5, perspective=0.02, blur=1.0, noise=4, quality=75, seed=1), 0.45),
    ("a4", "long", (-4.0, 4.0), Camera(rotate=-2.0, perspective=0.04, blur=1.5, noise=6, quality=60, seed=2), 0.45),
    ("a4", "long", (4.0, -3.3), Camera(rotate=0.7, perspective=0.05, blur=0.8, noise=3, quality=85, side=1800, seed=3),
     0.3),
    ("a4", "long", (-1.1, 2.7), Camera(rotate=-0.5, perspective=0.03, blur=1.0, noise=4, quality=75, side=1200, seed=8),
     0.2),  # a small photo of thick paper: the back's marks faint
    ("letter", "short", (-2.3, 3.1), Camera(rotate=2.0, perspective=0.03, blur=1.2, noise=5, quality=70, seed=4), 0.45),
    ("letter", "short", (3.6, 0.4), Camera(rotate=-1.0, perspective=0.04, blur=1.0, noise=4, quality=80, seed=5), 0.3),
]


@pytest.mark.parametrize("paper,duplex,error,camera,attenuation", LIGHT)
def test_offset_from_a_photo_against_a_light(sheets, tmp_path, paper, duplex, error, camera, attenuation):
    front, back = sheets[(paper, duplex)]
    seen = through_light(front, back, duplex, error, DPI, attenuation=attenuation)
    photo = photograph(seen, camera, tmp_path / "photo.jpg")
    m = _measurer().measure([photo])
    assert (m.mode, m.paper, m.duplex) == ("light", paper, duplex)
    # the back's content was moved by `error` on its own page: --back-offset must move it back
    assert m.back_offset == pytest.approx((-error[0], -error[1]), abs=TOLERANCE)
    assert m.front_marks == 8 and m.back_marks >= 4


def test_a_photo_taken_from_the_back_reads_the_same(sheets, tmp_path):
    """Everything mirrored (the camera behind the sheet, the light in front): the same offset."""
    front, back = sheets[("a4", "long")]
    seen = through_light(front, back, "long", (2.0, -1.0), DPI)[:, ::-1]
    photo = photograph(np.ascontiguousarray(seen), Camera(rotate=1.0, blur=1.0, noise=3, seed=7), tmp_path / "b.jpg")
    assert _measurer().measure([photo]).back_offset == pytest.approx((-2.0, 1.0), abs=TOLERANCE)


SCANS = [  # (paper, duplex, front's error on the paper, back's error, rotation of the scans)
    ("a4", "long", (0.0, 0.0), (1.2, -0.8), 0.4),
    ("a4", "long", (-1.0, 1.0), (-4.0, 4.0), 2.0),
    ("letter", "short", (0.4, 0.2), (3.2, -2.6), -1.2),
]


def _scan(page, error, rotate, seed, path):
    return photograph(shifted(page, *error, DPI), Camera(rotate=rotate, blur=0.7, noise=3, quality=85,
                                                         background=0.15, fill=0.9, seed=seed), path)


@pytest.mark.parametrize("paper,duplex,front_error,back_error,rotate", SCANS)
def test_offset_from_two_scans(sheets, tmp_path, paper, duplex, front_error, back_error, rotate):
    front, back = sheets[(paper, duplex)]
    f = _scan(front, front_error, rotate, 1, tmp_path / "front.jpg")
    b = _scan(back, back_error, -rotate / 2 + 0.3, 2, tmp_path / "back.jpg")
    # the backs must land where the front landed: back error + offset == the front's error, both on
    # the back page (a front displacement seen on the back page is mirrored for the flip edge)
    fx, fy = SheetMarks(load_sheet(paper), duplex).mirror_vector(*front_error)
    want = (fx - back_error[0], fy - back_error[1])
    for order in ([f, b], [b, f]):
        m = _measurer().measure(order)
        assert (m.mode, m.paper, m.duplex) == ("scans", paper, duplex)
        assert m.back_offset == pytest.approx(want, abs=TOLERANCE)


def test_a_scan_cropped_to_the_paper_is_refused(sheets, tmp_path):
    """No background round the paper: its edges cannot be told from the scan's border."""
    front, back = sheets[("a4", "long")]
    crop = Camera(fill=1.0, background=1.0, seed=3)
    f, b = photograph(front, crop, tmp_path / "f.jpg"), photograph(back, crop, tmp_path / "b.jpg")
    with pytest.raises(PnpError, match="edge cannot be seen"):
        _measurer().measure([f, b])


def _placements(game: str, opts: ImposeOptions):
    loaded = load_target(game)
    comps = loaded.game.components(loaded.spec, plan_context(loaded))
    return list(impose(loaded.spec.title or loaded.game.title, comps, load_sheet("a4"), opts).pages)


def _misses(pages, error, sheet_width) -> list[float]:
    """For every back on two-sided sheets: how far (mm) the printer, moving the back page by
    ``error``, puts it from the front it belongs to (long-edge flip: seen from the front, a back
    page's x runs from the right)."""
    misses = []
    for front, back in zip(pages, pages[1:]):
        if front.side != "front" or back.side != "back" or not back.placements:
            continue
        fronts = [(p.name, p.x, p.y) for p in front.placements]
        for q in back.placements:
            x = sheet_width - (q.x + error[0]) - q.w
            y = q.y + error[1]
            misses.append(min(np.hypot(x - fx, y - fy) for name, fx, fy in fronts if name == q.name))
    return misses


def test_the_printed_back_offset_moves_a_builds_backs_onto_its_fronts(sheets, tmp_path):
    """Measure through the command (its printed --back-offset), build Nonads with it, and let the
    same printer error move the built backs: each lands on its front. Without it they miss by the
    error."""
    from typer.testing import CliRunner
    from pnp.cli import app
    error = (2.6, -1.4)
    front, back = sheets[("a4", "long")]
    photo = photograph(through_light(front, back, "long", error, DPI),
                       Camera(rotate=1.2, perspective=0.03, blur=1.0, noise=4, quality=75, seed=11), tmp_path / "p.jpg")
    r = CliRunner().invoke(app, ["calibrate", "--measure", str(photo)])
    assert r.exit_code == 0, r.output
    dx, dy = map(float, re.search(r"^--back-offset (\S+),(\S+) ", r.output, re.M).groups())
    fixed = _misses(_placements("nonads", ImposeOptions(duplex="long", back_offset=(dx, dy))), error, 210.0)
    plain = _misses(_placements("nonads", ImposeOptions(duplex="long")), error, 210.0)
    assert len(fixed) >= 30
    assert max(fixed) <= TOLERANCE
    assert min(plain) == pytest.approx(np.hypot(*error), abs=0.01)
