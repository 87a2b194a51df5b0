"""pnp.render.png: PNG files of a bitmap, read back by two decoders (Pillow and PyMuPDF),
pixel for pixel, with their resolution; and the images pnp writes with it (print on demand, Cricut,
previews) the same whatever ``--workers`` says."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from PIL import Image
from typer.testing import CliRunner

from conftest import REPO
from pnp.cli import app
from pnp.render import png


def _noise(width: int, height: int, channels: int, seed: int = 1) -> np.ndarray:
    """Pixels no filter makes flat: random bytes with a few flat bands (what deflate packs well)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, (height, width, channels), dtype=np.uint8)
    a[height // 3: height // 2] = 255  # a band of opaque white
    a[:, width // 4] = 17
    return a


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_pixels_and_resolution_read_back_by_two_decoders(mode):
    pixels = _noise(37, 23, len(mode))
    data = png.encode_image(Image.fromarray(pixels, mode), dpi=300)
    with Image.open(io.BytesIO(data)) as im:
        assert im.mode == mode and im.size == (37, 23)
        assert np.array_equal(np.asarray(im), pixels)
        assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    pix = pymupdf.Pixmap(data)
    assert (pix.width, pix.height, pix.n, pix.alpha) == (37, 23, len(mode), mode == "RGBA")
    got = np.frombuffer(pix.samples, np.uint8).reshape(23, 37, len(mode))
    opaque = pixels[..., 3] == 255 if mode == "RGBA" else np.ones((23, 37), bool)  # PyMuPDF premultiplies alpha
    assert opaque.sum() > 100 and np.array_equal(got[opaque][:, :3], pixels[opaque][:, :3])
    assert np.array_equal(got[..., 3:], pixels[..., 3:])
    assert (pix.xres, pix.yres) == (300, 300)


def test_row_padding_of_the_bitmap_is_left_out():
    pixels = _noise(10, 6, 3, seed=2)
    stride = 10 * 3 + 7  # as a renderer aligns its rows
    padded = np.full((6, stride), 0xEE, np.uint8)
    padded[:, :30] = pixels.reshape(6, 30)
    data = png.encode(padded.tobytes(), 10, 6, stride, 3)
    with Image.open(io.BytesIO(data)) as im:
        assert np.array_equal(np.asarray(im), pixels)
        assert "dpi" not in im.info


@pytest.mark.parametrize("args", [(b"\0" * 30, 10, 1, 30, 2), (b"\0" * 29, 10, 1, 30, 3), (b"\0" * 30, 10, 1, 20, 3),
                                  (b"", 0, 1, 0, 3)])
def test_a_bitmap_that_does_not_match_its_sizes_is_refused(args):
    with pytest.raises(ValueError):
        png.encode(*args)


def test_other_image_modes_are_refused():
    with pytest.raises(ValueError, match="not RGB or RGBA"):
        png.encode_image(Image.new("L", (4, 4)))


def _digests(folder: Path, pattern: str) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.glob(pattern))}


def test_cricut_images_the_same_with_one_and_two_workers(tmp_path):
    cards = REPO / "specs" / "playing-cards" / "playing-cards.yaml"
    got = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        r = CliRunner().invoke(app, ["build", str(cards), "--cutter", "cricut", "--format", "pdf", "--workers",
                                     workers, "--out", str(out)])
        assert r.exit_code == 0, r.output
        got.append(_digests(out, "*/cricut/*"))
    assert got[0] == got[1]
    pngs = [name for name in got[0] if name.endswith(".png")]
    assert len(pngs) >= 2 and len(pngs) == len([n for n in got[0] if n.endswith(".svg")])
    for name in pngs:  # each one a transparent-background RGBA image at 300 dpi
        with Image.open(tmp_path / "1" / name) as im:
            assert im.mode == "RGBA" and im.info["dpi"] == pytest.approx((300, 300), abs=0.01)
            assert im.getchannel("A").getextrema() == (0, 255)


@pytest.mark.parametrize("value", ["0", "-3", "100000"])
def test_workers_out_of_range_is_refused_with_the_option_named(tmp_path, value):
    r = CliRunner().invoke(app, ["build", "nonaga", "--format", "pod", "--service", "tgc", "--workers", value,
                                 "--out", str(tmp_path / "out")])
    assert r.exit_code == 2, r.output
    assert "--workers" in r.output and value in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()
