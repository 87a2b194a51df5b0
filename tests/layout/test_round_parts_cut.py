"""Round parts as a player cuts them, read back from the built PDF (no --cut-lines: no line at the
trim). The cover says: cut the square on the crop marks, then the circle inside it that touches the
middle of each side. The test finds the crop marks, cuts each square, and checks that every disc and
pawn of Nonaga is exactly the circle inscribed in its square, in mm."""
from __future__ import annotations

import json

import pymupdf
from typer.testing import CliRunner

from pnp.cli import app

PT = 25.4 / 72
MARK_MAX_MM = 0.15  # crop marks are 0.25 pt hairlines
TOL = 0.05          # mm


def _marks(page) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """Vertical marks as (x, y0, y1) and horizontal ones as (y, x0, x1), in mm from the top left."""
    vertical, horizontal = [], []
    for d in page.get_drawings():
        if d.get("fill") is not None or (d.get("width") or 0) * PT > MARK_MAX_MM or len(d["items"]) != 1:
            continue
        kind, a, b = d["items"][0]
        if kind != "l":
            continue
        (x0, y0), (x1, y1) = (a.x * PT, a.y * PT), (b.x * PT, b.y * PT)
        if abs(x0 - x1) < 0.01:
            vertical.append((x0, min(y0, y1), max(y0, y1)))
        elif abs(y0 - y1) < 0.01:
            horizontal.append((y0, min(x0, x1), max(x0, x1)))
    return vertical, horizontal


def test_each_round_part_is_the_circle_inscribed_in_the_square_its_crop_marks_cut(tmp_path):
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["build", "nonaga", "--out", str(out), "-f", "pdf"])
    assert r.exit_code == 0, r.output
    kit = out / "nonaga"
    manifest = json.loads((kit / "manifest-a4.json").read_text(encoding="utf-8"))
    sizes = {c["name"]: c["trim_mm"][0] for c in manifest["components"] if c["name"] in ("disc", "pawn")}
    page_number = manifest["components"][0]["pages"][0]
    with pymupdf.open(kit / "nonaga-a4.pdf") as doc:
        page = doc[page_number - 1]
        vertical, horizontal = _marks(page)
        circles = [d["rect"] for d in page.get_drawings()
                   if d.get("fill") is not None and [i[0] for i in d["items"]] == ["c"] * 4]
    cut = {name: 0 for name in sizes}
    for rect in circles:
        left, top, right, bottom = rect.x0 * PT, rect.y0 * PT, rect.x1 * PT, rect.y1 * PT
        name = next((n for n, s in sizes.items() if abs(right - left - s) < TOL), None)
        if name is None:
            continue  # a smaller circle of a part's artwork, not its trim
        # the square the marks cut: a vertical mark on each side edge (outside the square, above or
        # below it), a horizontal mark on each top and bottom edge (left or right of it)
        for x in (left, right):
            assert any(abs(mx - x) < TOL and (y1 <= top + TOL or y0 >= bottom - TOL) for mx, y0, y1 in vertical), \
                (name, "no crop mark cuts the side at x", round(x, 2))
        for y in (top, bottom):
            assert any(abs(my - y) < TOL and (x1 <= left + TOL or x0 >= right - TOL) for my, x0, x1 in horizontal), \
                (name, "no crop mark cuts the edge at y", round(y, 2))
        # the circle touches the middle of each side of that square: its box is the square
        assert abs((right - left) - (bottom - top)) < TOL
        cut[name] += 1
    assert cut["disc"] == 19 and cut["pawn"] == 6, cut  # the rules' 19 discs and 3 + 3 pawns
