"""Pictures that catch a change in appearance: page 2 of each A4 kit against a reference rendering.

The kits are built by the ``pnp`` command in a subprocess; page PAGE of each PDF is rendered by
pypdfium2 at DPI in 8-bit grey and compared pixel by pixel with tests/reference/<game>-a4-p2.png.
A pixel counts as changed when its grey level differs by more than TOLERANCE of 255 (so a different
anti-aliasing of the same edge is not counted, while a part, line or letter that moved, appeared or
went is); a page fails when more than MAX_CHANGED pixels change. When a change is intended,
``python3 -m tests.make_references`` writes the references again; look at them before committing.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from make_references import COMMAND, DPI, GAMES, PAGE, PAPER, REPO, build_kits, reference_png, render_page

TOLERANCE = 64     # grey levels of 255
MAX_CHANGED = 10   # pixels of 249 x 351 (one pixel is 0.85 mm square at 30 dpi)


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict[str, Path]:
    """{game: A4 PDF}, built once for this module through ``python -m pnp build``."""
    return build_kits(tmp_path_factory.mktemp("reference-kits") / "out")


def changed_pixels(got: Image.Image, want: Image.Image) -> np.ndarray:
    """Boolean mask of the pixels whose grey levels differ by more than TOLERANCE.

    Raises:
        ValueError: the images differ in size.
    """
    if got.size != want.size:
        raise ValueError(f"sizes differ: {got.size[0]} x {got.size[1]} against {want.size[0]} x {want.size[1]} pixels")
    a = np.asarray(got.convert("L"), dtype=np.int16)
    b = np.asarray(want.convert("L"), dtype=np.int16)
    return np.abs(a - b) > TOLERANCE


def compare(game: str, got: Image.Image, want: Image.Image, keep: Path) -> str | None:
    """None when ``got`` matches ``want`` within the tolerances, else a message naming the page,
    how many pixels changed and where, and how to accept the change. The rendering and a picture of
    the changed pixels are saved in ``keep`` for a look."""
    where = f"{game} {PAPER.upper()} page {PAGE} (tests/reference/{reference_png(game).name})"
    keep.mkdir(parents=True, exist_ok=True)
    got.save(keep / f"{game}-now.png")
    try:
        mask = changed_pixels(got, want)
    except ValueError as exc:
        return f"{where}: {exc}. Rendering kept at {keep / f'{game}-now.png'}"
    n = int(mask.sum())
    if n <= MAX_CHANGED:
        return None
    Image.fromarray(np.where(mask, 0, 255).astype(np.uint8)).save(keep / f"{game}-changed.png")
    rows, cols = np.nonzero(mask)
    mm = 25.4 / DPI
    return (f"{where} changed: {n} of {mask.size} pixels differ by more than {TOLERANCE} grey levels "
            f"(at most {MAX_CHANGED} may), between x {cols.min() * mm:.0f}-{(cols.max() + 1) * mm:.0f} mm and "
            f"y {rows.min() * mm:.0f}-{(rows.max() + 1) * mm:.0f} mm from the top left. Rendering and changed "
            f"pixels kept in {keep}. If the change is intended, run `{COMMAND}` from the repository's root, "
            f"look at the new PNGs and commit them.")


@pytest.mark.parametrize("game", GAMES)
def test_page_matches_its_reference_rendering(kits, game, tmp_path):
    want = reference_png(game)
    assert want.is_file(), f"no reference rendering {want.relative_to(REPO)}: run `{COMMAND}`"
    message = compare(game, render_page(kits[game]), Image.open(want), tmp_path)
    assert message is None, message


def test_comparison_fails_on_a_small_change(kits, tmp_path):
    """Tiles moved by 1 mm, or one letter of one word card changed, are caught and reported; the
    same page against itself is not."""
    want = Image.open(reference_png("nonads"))
    shifted = Image.new("L", want.size, 255)
    shifted.paste(want, (round(1.0 * DPI / 25.4), 0))  # 1 mm to the right
    message = compare("nonads", shifted, want, tmp_path)
    assert message is not None and "nonads A4 page 2" in message and COMMAND in message
    assert (tmp_path / "nonads-changed.png").is_file()

    words = (REPO / "specs" / "netmatch" / "netmatch-words.txt").read_text(encoding="utf-8").splitlines()
    first = next(i for i, w in enumerate(words) if w.strip() and not w.startswith("#"))
    one_letter = words[first][:2] + ("X" if words[first][2] != "X" else "Y") + words[first][3:]
    assert one_letter not in words
    edited = tmp_path / "words.txt"
    edited.write_text("\n".join(words[:first] + [one_letter] + words[first + 1:]) + "\n", encoding="utf-8")
    pdf = build_kits(tmp_path / "out", ("netmatch",), "--words", str(edited))["netmatch"]
    cards = render_page(kits["netmatch"])
    assert compare("netmatch", render_page(pdf), cards, tmp_path / "one-letter") is not None
    assert compare("netmatch", cards, cards, tmp_path / "same") is None


def test_different_sizes_are_reported_not_compared(tmp_path):
    want = Image.open(reference_png("nonaga"))
    message = compare("nonaga", want.resize((want.width + 1, want.height)), want, tmp_path)
    assert message is not None and "sizes differ" in message
