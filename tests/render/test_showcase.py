"""--format showcase: fan, grid and single-card PNGs, read back and measured.

The deck: poker cards (63.5 x 88.9 mm) with 4 mm rounded corners, each filled with its row's colour
from a CSV that repeats some rows word for word. What a picture should hold is counted from the CSV
(its distinct rows, its row numbers), never from pnp's output; each card is found in a picture by
its exact flat colour, and the card's size in pixels is measured from the picture itself.
"""
from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app

from conftest import REPO

W_MM, H_MM, RADIUS_MM = 63.5, 88.9, 4.0
PALETTE = ["#d62828", "#f77f00", "#fcbf49", "#2a9d8f", "#264653", "#6a4c93", "#1982c4", "#8ac926", "#ff595e"]
# (name, colour) per data row; rows 4 and 7 repeat rows 2 and 5 cell for cell (the header is row 1)
ROWS = [("ruby", PALETTE[0]), ("amber", PALETTE[1]), ("ruby", PALETTE[0]), ("gold", PALETTE[2]),
        ("teal", PALETTE[3]), ("amber", PALETTE[1]), ("slate", PALETTE[4]), ("plum", PALETTE[5]),
        ("sky", PALETTE[6]), ("lime", PALETTE[7]), ("coral", PALETTE[8])]


def _deck(folder: Path, rows=ROWS, shape: str = f"size: poker\n    shape: rounded\n    radius: {RADIUS_MM}mm") -> Path:
    folder.mkdir(parents=True)
    (folder / f"{folder.name}.yaml").write_text(
        f"title: Colours\ncomponents:\n  - name: card\n    {shape}\n    data: deck.csv\n    front: front.yaml\n",
        encoding="utf-8")
    (folder / "front.yaml").write_text('layers:\n  - {type: rect, fill: "{colour}", bleed: true}\n', encoding="utf-8")
    (folder / "rules.md").write_text((REPO / "specs" / "shapes" / "rules.md").read_text(encoding="utf-8"),
                                     encoding="utf-8")
    with open(folder / "deck.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["name", "colour"])
        writer.writerows(rows)
    return folder


def _build(deck: Path, out: Path, *extra: str):
    return CliRunner().invoke(app, ["build", str(deck), "--format", "showcase", "--out", str(out), *extra])


def _rgb(hexcode: str) -> tuple[int, int, int]:
    return tuple(int(hexcode[i:i + 2], 16) for i in (1, 3, 5))


def _rgba(path: Path) -> np.ndarray:
    with Image.open(path) as im:
        assert im.mode == "RGBA"
        return np.asarray(im.convert("RGBA")).astype(int)


def _colours_shown(px: np.ndarray, min_pixels: int = 400) -> set[str]:
    """The palette colours that fill at least ``min_pixels`` opaque pixels exactly (within 2 levels)."""
    opaque = px[..., 3] == 255
    shown = set()
    for hexcode in PALETTE:
        close = (np.abs(px[..., :3] - np.array(_rgb(hexcode))).max(axis=2) <= 2) & opaque
        if close.sum() >= min_pixels:
            shown.add(hexcode)
    return shown


def _runs(line: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True in a 1-D boolean array (end exclusive)."""
    edges = np.diff(np.concatenate([[0], line.astype(int), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)))


def _cards_in_grid(px: np.ndarray) -> list[tuple[int, int, int, int]]:
    """(x0, y0, x1, y1) of every card of an upright grid: the columns and rows where some pixel is
    more than half opaque (a shadow never is), crossed, and kept where the cell holds a card."""
    solid = px[..., 3] >= 128
    boxes = []
    for y0, y1 in _runs(solid.any(axis=1)):
        for x0, x1 in _runs(solid[y0:y1].any(axis=0)):
            if solid[(y0 + y1) // 2, (x0 + x1) // 2]:
                boxes.append((x0, y0, x1, y1))
    return boxes


def _corner_inset(px: np.ndarray, box, corner: str) -> float:
    """Pixels along the diagonal from the box's ``corner`` ("tl", "tr", "bl", "br") to the first more
    than half opaque pixel."""
    x0, y0, x1, y1 = box
    sx, sy = (1, 1) if corner == "tl" else (-1, 1) if corner == "tr" else (1, -1) if corner == "bl" else (-1, -1)
    x, y = (x0 if sx > 0 else x1 - 1), (y0 if sy > 0 else y1 - 1)
    for t in range(min(x1 - x0, y1 - y0) // 2):
        if px[y + sy * t, x + sx * t, 3] >= 128:
            return t
    raise AssertionError("no opaque pixel on the diagonal")


def _check_corners(px: np.ndarray, box) -> None:
    """Each corner of the card in ``box`` is transparent beyond its radius: the diagonal meets the
    card where a circle of RADIUS_MM (in pixels from the card's measured width) would."""
    x0, y0, x1, y1 = box
    per_mm = (x1 - x0) / W_MM
    assert abs((y1 - y0) / per_mm - H_MM) < 2 / per_mm + 0.05, "the card keeps its aspect"
    r = RADIUS_MM * per_mm
    expected = r * (1 - 1 / math.sqrt(2))  # from the box's corner to the arc, along x (and y)
    for corner in ("tl", "tr", "bl", "br"):
        got = _corner_inset(px, box, corner)
        assert abs(got - expected) <= 1.5, (corner, got, expected)
        cx = x0 if corner in ("tl", "bl") else x1 - 1
        cy = y0 if corner in ("tl", "tr") else y1 - 1
        assert px[cy, cx, 3] < 128, "the box's corner lies outside the rounded card"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("showcase")
    deck = _deck(root / "colours")
    out = root / "out"
    r = _build(deck, out, "--showcase", "2,3, 5-6 ,9", "--showcase-width", "900")
    assert r.exit_code == 0, r.output
    return out / "colours"


def _picture(kit: Path, kind: str) -> Path:
    found = sorted(kit.glob(f"showcase/*/*-card-{kind}.png"))
    assert len(found) == 1, found
    return found[0]


def test_every_picture_is_the_width_asked_with_a_transparent_background(built):
    pngs = sorted(built.rglob("*.png"))
    assert {p.name.rsplit("-", 1)[1] for p in pngs} == {"fan.png", "grid.png", "single.png"}
    for path in pngs:
        px = _rgba(path)
        assert px.shape[1] == 900, path.name
        for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
            assert px[y, x, 3] == 0, (path.name, y, x)


def test_the_manifest_lists_every_picture(built):
    manifest = json.loads(next(built.glob("manifest-*.json")).read_text(encoding="utf-8"))
    listed = {f["path"] for f in manifest["files"]}
    on_disk = {p.relative_to(built).as_posix() for p in built.rglob("*.png")}
    assert on_disk and on_disk <= listed


def test_the_fan_holds_the_rows_asked_for_and_no_other(built):
    data = ROWS  # data row n is ROWS[n - 2]
    asked = [2, 3, 5, 6, 9]
    shown = _colours_shown(_rgba(_picture(built, "fan")))
    assert shown == {data[n - 2][1] for n in asked}


def test_the_grid_holds_each_distinct_face_once(built):
    px = _rgba(_picture(built, "grid"))
    boxes = _cards_in_grid(px)
    distinct = set(ROWS)  # the CSV's distinct rows: what a card shows
    assert len(boxes) == len(distinct)
    colours = ["#%02x%02x%02x" % tuple(px[(y0 + y1) // 2, (x0 + x1) // 2, :3]) for x0, y0, x1, y1 in boxes]
    assert sorted(colours) == sorted(c for _, c in distinct)
    for box in boxes:
        _check_corners(px, box)


def test_the_single_card_is_cut_round_with_a_soft_offset_shadow(built):
    px = _rgba(_picture(built, "single"))
    (box,) = _cards_in_grid(px)
    _check_corners(px, box)
    x0, y0, x1, y1 = box
    assert _colours_shown(px) == {ROWS[0][1]}  # the first row asked for (row 2)
    alpha = px[..., 3]
    mid = (x0 + x1) // 2
    below, above = alpha[y1:, mid], alpha[:y0, mid][::-1]  # from the card's edge outwards
    assert 0 < below[2] < 255 and below.max() < 128, "semi-transparent below the card"
    # offset down: darker just below than just above, and reaching further
    assert below[2] > above[2] + 10
    assert (below > 2).sum() > (above > 2).sum()
    right, left = alpha[(y0 + y1) // 2, x1:], alpha[(y0 + y1) // 2, :x0][::-1]
    assert 0 < right[2] < 128 and (right > 2).sum() > (left > 2).sum(), "and to the right"


def test_the_default_fan_is_the_first_five_distinct_faces(tmp_path):
    deck = _deck(tmp_path / "colours")
    r = _build(deck, tmp_path / "out")
    assert r.exit_code == 0, r.output
    kit = tmp_path / "out" / "colours"
    first = list(dict.fromkeys(c for _, c in ROWS))[:5]
    assert _colours_shown(_rgba(_picture(kit, "fan"))) == set(first)
    assert _rgba(_picture(kit, "fan")).shape[1] == 1600  # the default width


def test_parts_picked_by_key(tmp_path):
    rows = [(name, colour) for name, colour in dict.fromkeys(ROWS)]  # names all differ: the key column
    deck = _deck(tmp_path / "colours", rows)
    r = _build(deck, tmp_path / "out", "--showcase", "teal,plum", "--showcase-width", "400")
    assert r.exit_code == 0, r.output
    shown = _colours_shown(_rgba(_picture(tmp_path / "out" / "colours", "fan")), 100)
    assert shown == {dict(rows)["teal"], dict(rows)["plum"]}


@pytest.mark.parametrize("args,needle", [
    (["--showcase", "0-"], "--showcase"),
    (["--showcase", "0"], "numbered from 1"),
    (["--showcase", "6-2"], "backwards"),
    (["--showcase", "2,,3"], "empty item"),
    (["--showcase", str(2 * len(ROWS) + 2)], "does not exist"),  # past the last row (the header is row 1)
    (["--showcase", "1"], "does not exist"),  # the header
    (["--showcase", "nosuchkey"], "no part has the key"),
    (["--showcase", "2-14"], "a fan holds at most"),  # 13 cards
    (["--showcase-width", "0"], "--showcase-width"),
    (["--showcase-width", "100000"], "--showcase-width"),
    (["--showcase-width", "wide"], "--showcase-width"),
])
def test_bad_values_are_one_error_line_and_write_nothing(tmp_path, args, needle):
    deck = _deck(tmp_path / "colours", ROWS * 2)  # 22 rows: more than a fan holds
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["build", str(deck), "--format", "showcase", "--out", str(out), *args])
    assert r.exit_code == 2, r.output
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.output
    assert "Traceback" not in r.output
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


def test_showcase_options_without_the_format_are_refused(tmp_path):
    deck = _deck(tmp_path / "colours")
    r = CliRunner().invoke(app, ["build", str(deck), "--format", "pdf", "--showcase", "2", "--out",
                                 str(tmp_path / "out")])
    assert r.exit_code == 2 and r.output.startswith("error: ") and "--format showcase" in r.output
    assert not (tmp_path / "out").exists()


def test_the_estimate_grows_with_the_width_and_counts_a_rows_copies_once():
    from dataclasses import replace
    from pnp.core.ir import Component, PartSource
    from pnp.layout.limits import estimate_seconds
    from pnp.render.formats import WriterSettings, formats
    from pnp.render.showcase_rows import parse_showcase
    fmt = formats().writers(["showcase"])
    rows = [PartSource(str(n), n) for n in range(2, 12)]
    one = Component("card", W_MM, H_MM, [()] * 10, sources=tuple(rows))
    three = replace(one, fronts=[()] * 30, sources=tuple(s for s in rows for _ in range(3)))  # copies 3
    small, large = (estimate_seconds(1, [one], fmt, WriterSettings(showcase=parse_showcase(None, w)))
                    for w in (800, 4000))
    assert large > 4 * small
    settings = WriterSettings()

    def showcase(comp):  # the format's own share
        return estimate_seconds(1, [comp], fmt, settings) - estimate_seconds(1, [comp], [], settings)

    assert showcase(three) == pytest.approx(showcase(one))
    board = replace(one, board=True)
    assert estimate_seconds(1, [board], fmt, settings) < estimate_seconds(1, [one], fmt, settings)


def test_a_part_of_one_face_gets_its_single_picture_only(tmp_path):
    rows = [("ruby", PALETTE[0])] * 3  # three rows, one distinct row
    deck = _deck(tmp_path / "colours", rows)
    r = _build(deck, tmp_path / "out", "--showcase-width", "300")
    assert r.exit_code == 0, r.output
    pngs = sorted((tmp_path / "out" / "colours").rglob("*.png"))
    assert len(set(rows)) == 1 and [p.name.rsplit("-", 1)[1] for p in pngs] == ["single.png"]
    assert _colours_shown(_rgba(pngs[0]), 100) == {PALETTE[0]}


def test_a_round_part_is_cut_round(tmp_path):
    deck = _deck(tmp_path / "colours", ROWS[:3], "size: 40mm\n    shape: circle")
    r = _build(deck, tmp_path / "out", "--showcase-width", "500")
    assert r.exit_code == 0, r.output
    px = _rgba(_picture(tmp_path / "out" / "colours", "single"))
    (box,) = _cards_in_grid(px)
    x0, y0, x1, y1 = box
    assert abs((x1 - x0) - (y1 - y0)) <= 1
    r_px = (x1 - x0) / 2  # the diameter measured, the radius its half: the circle meets the diagonal there
    for corner in ("tl", "tr", "bl", "br"):
        assert abs(_corner_inset(px, box, corner) - r_px * (1 - 1 / math.sqrt(2))) <= 1.5, corner
