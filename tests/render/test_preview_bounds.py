"""Bounded previews: pages rendered one at a time, every PNG bounded in pixels
before rendering, a long deck's contact sheet sampled (first and last page included), peak memory
measured on a child process; a 0.05 mm tile exported to TTS gives 1-pixel cards, not a traceback."""
from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from pnp.inputs.resources import builtin_spec
from pnp.render.raster import CONTACT_MAX, MAX_PIXELS, THUMB_BOX, sample_pages

GREY = (128, 128, 128)


def _pnp(args: list[str], timeout: float = 600) -> tuple[subprocess.CompletedProcess, int]:
    """Run pnp in a child process; (result, peak RSS of that child in MiB, from getrusage)."""
    code = ("import json, resource, subprocess, sys\n"
            f"r = subprocess.run([sys.executable, '-m', 'pnp', *{args!r}], capture_output=True, text=True)\n"
            "print(json.dumps([r.returncode, r.stdout, r.stderr, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n")
    env = {k: v for k, v in os.environ.items() if k != "PNP_CACHE_DIR"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr
    rc, out, err, peak_kib = json.loads(proc.stdout)
    return subprocess.CompletedProcess(args, rc, out, err), peak_kib // 1024


def _words(path: Path, count: int) -> Path:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    words = ["".join(p) for p in itertools.product(letters, repeat=4)]
    random.Random(count).shuffle(words)
    path.write_text("\n".join(words[:count]) + "\n")
    return path


def _thumb_runs(sheet: Image.Image) -> list[tuple[int, int, int]]:
    """(x, top, bottom) of every thumbnail: runs over 40 px tall of rows that are not background
    grey at the edges and middle of each column of the contact sheet (labels are a few pixels tall)."""
    runs = []
    rgb = sheet.convert("RGB")
    for x in range(10, sheet.width, THUMB_BOX[0] + 10):
        probes = (x + 2, x + THUMB_BOX[0] // 2, x + THUMB_BOX[0] - 3)   # page edges are white paper
        if probes[-1] >= sheet.width:
            break
        top = None
        for y in range(sheet.height + 1):
            grey = y == sheet.height or all(rgb.getpixel((px, y)) == GREY for px in probes)
            if not grey and top is None:
                top = y
            elif grey and top is not None:
                if y - top > 40:
                    runs.append((x, top, y))
                top = None
    return runs


def _like(thumb: Image.Image, page: Image.Image) -> float:
    """Mean absolute difference (0-255) between a thumbnail and the page scaled to its size."""
    scaled = page.convert("RGB").resize(thumb.size, Image.Resampling.BILINEAR)
    return sum(ImageStat.Stat(ImageChops.difference(thumb.convert("RGB"), scaled)).mean) / 3


def test_sample_pages_keeps_first_and_last_and_the_limit():
    assert sample_pages(5, 64) == [0, 1, 2, 3, 4]
    for count in (65, 71, 2226, 20_000):
        shown = sample_pages(count, 64)
        assert shown[0] == 0 and shown[-1] == count - 1 and len(shown) == len(set(shown)) == 64
        gaps = [b - a for a, b in zip(shown, shown[1:])]
        assert max(gaps) - min(gaps) <= 1                 # evenly spread


def test_a_long_deck_preview_is_sampled_and_bounded(tmp_path):
    words = _words(tmp_path / "words.txt", 1200)
    out = tmp_path / "out"
    r, peak = _pnp(["preview", "netmatch", "--words", str(words), "--dpi", "10", "--out", str(out)])
    assert r.returncode == 0, r.stderr
    assert peak < 1024, f"peak RSS {peak} MiB"
    kit = out / "netmatch"
    pages = json.loads((kit / "manifest-a4.json").read_text())["pages"]
    assert pages > CONTACT_MAX                              # the case where the sheet must be sampled
    pngs = sorted((kit / "preview").glob("netmatch-a4-p*.png"))
    assert len(pngs) == pages
    with Image.open(pngs[0]) as first:
        assert first.size == (round(210 / 25.4 * 10), round(297 / 25.4 * 10))
        first = first.copy()
    with Image.open(pngs[-1]) as last:
        last = last.copy()
    with Image.open(kit / "preview" / "netmatch-a4-contact.png") as sheet:
        sheet = sheet.copy()
    assert sheet.width * sheet.height <= 1250 * 10_000
    runs = _thumb_runs(sheet)
    assert len(runs) == CONTACT_MAX
    # the first cell is page 1, the last cell (last row, reading order) is the last page
    by_order = sorted(runs, key=lambda r: (r[1], r[0]))
    cells = [sheet.crop((x, top, x + THUMB_BOX[0], bottom)) for x, top, bottom in (by_order[0], by_order[-1])]
    assert cells[0].height <= THUMB_BOX[1]
    assert _like(cells[0], first) < 12 and _like(cells[1], last) < 12
    assert _like(cells[0], last) > _like(cells[0], first)  # and they are told apart


def test_a_tall_sheet_at_high_dpi_stays_under_a_gigabyte(tmp_path, monkeypatch):
    sheet = tmp_path / "tall.yaml"
    sheet.write_text("name: tall\nwidth: 180mm\nheight: 1000mm\n")  # wide enough for the cover's one-line texts
    out = tmp_path / "out"
    dpi = 350                                   # 2480 x 13780 px: under the 40-megapixel bound
    assert (180 / 25.4 * dpi) * (1000 / 25.4 * dpi) < MAX_PIXELS
    r, peak = _pnp(["preview", "nonads", "--paper", str(sheet), "--dpi", str(dpi), "--out", str(out)])
    assert r.returncode == 0, r.stderr
    assert peak < 1024, f"peak RSS {peak} MiB"
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", None)
    for png in sorted((out / "nonads" / "preview").glob("nonads-tall-p*.png")):
        with Image.open(png) as im:
            assert im.size[0] == pytest.approx(180 / 25.4 * dpi, abs=1)
            assert im.size[1] == pytest.approx(1000 / 25.4 * dpi, abs=1)
    with Image.open(out / "nonads" / "preview" / "nonads-tall-contact.png") as contact:
        assert all(bottom - top <= THUMB_BOX[1] for _, top, bottom in _thumb_runs(contact))


@pytest.mark.parametrize("dpi", [600, 400])
def test_a_page_over_the_pixel_bound_is_refused_before_anything_is_written(tmp_path, dpi):
    sheet = tmp_path / "tall.yaml"
    sheet.write_text("name: tall\nwidth: 180mm\nheight: 1000mm\n")  # wide enough for the cover's one-line texts
    out = tmp_path / "out"
    r, peak = _pnp(["preview", "nonads", "--paper", str(sheet), "--dpi", str(dpi), "--out", str(out)])
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"at {dpi} dpi" in r.stderr and "megapixels" in r.stderr and "--dpi" in r.stderr
    assert len([ln for ln in r.stderr.strip().splitlines() if not ln.startswith("note:")]) == 1  # one error line
    assert not (out / "nonads").exists()
    assert peak < 1024


def test_a_tiny_tile_exported_to_tts_gives_one_pixel_cards(tmp_path):
    spec = tmp_path / "tiny.yaml"
    text = builtin_spec("nonads").read_text()
    spec.write_text(text.replace("tile_size: 30mm", "tile_size: 0.05mm"))
    assert "0.05mm" in spec.read_text()
    out = tmp_path / "out"
    r, _ = _pnp(["build", str(spec), "--format", "tts", "--out", str(out)])
    assert "Traceback" not in r.stderr
    assert r.returncode in (0, 2), r.stderr
    if r.returncode == 2:
        assert len(r.stderr.strip().splitlines()) == 1
        return
    folder = out / "nonads" / "tts" / "nonads-a4"
    save = json.loads((folder / "nonads-a4.json").read_text())
    [deck] = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    for sheet in deck["CustomDeck"].values():
        with Image.open(folder / sheet["FaceURL"].rsplit("/", 1)[1]) as im:
            cw, ch = im.width / sheet["NumWidth"], im.height / sheet["NumHeight"]
            assert cw >= 1 and ch >= 1 and cw == int(cw) and ch == int(ch)


def test_preview_help_states_the_bounds():
    from typer.testing import CliRunner

    from pnp.cli import app
    text = " ".join(CliRunner().invoke(app, ["preview", "-h"]).output.split())
    assert f"{MAX_PIXELS // 1_000_000} megapixels" in text and f"at most {CONTACT_MAX} pages" in text
