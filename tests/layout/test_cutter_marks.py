"""--cutter silhouette: print-then-cut registration marks on every sheet and in the cutter SVG.

Read back: the filled marks from the PDF (pdfplumber) and from the cutter SVG's "registration"
layer (XML parser), compared to 0.1 mm; the marks at Silhouette Studio's documented places (square
at the top-left, L marks top-right and bottom-left, 10 mm inset; docs/print.md); every cut path of
the SVG in line with the PDF's crop marks to 0.1 mm and clear of the marks.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import PT, open_pdf
from pnp.cli import app

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.1
INSET, SQUARE = 10.0, 5.0  # Silhouette Studio's default inset and its square (docs/print.md)


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    out = tmp_path_factory.mktemp("cutter")
    r = CliRunner().invoke(app, ["build", "netmatch", "--cutter", "silhouette", "--format", "pdf,cut-svg",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out / "netmatch"


def _layer(svg: Path, name: str) -> list[tuple[float, float, float, float]]:
    root = ET.parse(svg).getroot()
    layer = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"layer-{name}")
    return [tuple(float(el.get(k)) for k in ("x", "y", "width", "height")) for el in layer.iter(f"{SVG}rect")]


def _pdf_marks(page) -> list[tuple[float, float, float, float]]:
    """Black filled rectangles on the page within 30 mm of a page corner (the marks)."""
    w, h = page.width * PT, page.height * PT
    out = []
    for r in page.rects:
        black = tuple(r.get("non_stroking_color") or ()) in ((0,), (0, 0, 0), (0, 0, 0, 1))
        if not r.get("fill") or r.get("stroke") or not black:
            continue
        box = (r["x0"] * PT, r["top"] * PT, (r["x1"] - r["x0"]) * PT, (r["bottom"] - r["top"]) * PT)
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        if 0 <= cx <= w and 0 <= cy <= h and min(cx, w - cx) < 30 and min(cy, h - cy) < 30:
            out.append(box)
    return out


def _same(a, b) -> bool:
    return all(abs(p - q) <= TOL for p, q in zip(a, b))


def test_marks_agree_between_pdf_and_cut_file(kit):
    pdf_path = next(kit.glob("*.pdf"))
    checked = 0
    with open_pdf(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages):
            svg = kit / "cut" / f"{pdf_path.stem}-p{i + 1:02d}-cut.svg"
            marks = _pdf_marks(page)
            assert len(marks) == 5, f"page {i + 1}: square and two L marks of two bars each"
            if not svg.exists():
                continue
            svg_marks = _layer(svg, "registration")
            assert len(svg_marks) == len(marks)
            for m in marks:
                assert any(_same(m, s) for s in svg_marks), f"page {i + 1}: PDF mark {m} not in {svg.name}"
            checked += 1
    assert checked >= 1


def test_marks_where_silhouette_studio_looks(kit):
    with open_pdf(next(kit.glob("*.pdf"))) as pdf:
        page = pdf.pages[1]
        w, h = page.width * PT, page.height * PT
        marks = _pdf_marks(page)
    square = [m for m in marks if abs(m[2] - m[3]) < TOL]
    assert len(square) == 1 and _same(square[0], (INSET, INSET, SQUARE, SQUARE))
    bars = [m for m in marks if m not in square]
    # top-right L: a bar centred on y = INSET and one centred on x = w - INSET, meeting at that corner
    assert any(abs(b[1] + b[3] / 2 - INSET) <= TOL and abs(b[0] + b[2] - (w - INSET) - b[3] / 2) <= TOL for b in bars)
    assert any(abs(b[0] + b[2] / 2 - (w - INSET)) <= TOL for b in bars)
    # bottom-left L: centred on x = INSET and y = h - INSET
    assert any(abs(b[0] + b[2] / 2 - INSET) <= TOL for b in bars)
    assert any(abs(b[1] + b[3] / 2 - (h - INSET)) <= TOL for b in bars)
    assert not any(b[0] + b[2] > w - 30 and b[1] + b[3] > h - 30 for b in marks), "bottom-right corner stays empty"


def test_every_cut_path_in_line_with_the_printed_marks_and_clear_of_registration(kit):
    pdf_path = next(kit.glob("*.pdf"))
    with open_pdf(pdf_path) as pdf:
        for i, page in enumerate(pdf.pages):
            svg = kit / "cut" / f"{pdf_path.stem}-p{i + 1:02d}-cut.svg"
            if not svg.exists():
                continue
            crop_x = {round(l["x0"] * PT, 2) for l in page.lines if abs(l["x0"] - l["x1"]) < 0.01}
            crop_y = {round(l["top"] * PT, 2) for l in page.lines if abs(l["top"] - l["bottom"]) < 0.01}
            marks = _pdf_marks(page)
            for x, y, w, h in _layer(svg, "cut"):
                for edge in (x, x + w):
                    assert any(abs(edge - c) <= TOL for c in crop_x), f"page {i + 1}: cut at x={edge:.2f}"
                for edge in (y, y + h):
                    assert any(abs(edge - c) <= TOL for c in crop_y), f"page {i + 1}: cut at y={edge:.2f}"
                for mx, my, mw, mh in marks:  # at least 1 mm of paper between a part and a mark
                    assert x > mx + mw + 1 or x + w < mx - 1 or y > my + mh + 1 or y + h < my - 1, \
                        f"page {i + 1}: the part at ({x:.1f}, {y:.1f}) is within 1 mm of a registration mark"


def test_nothing_else_printed_near_the_marks(kit):
    """The sensor reads the corners: rendered at 150 dpi (clipping applied, as printed), every pixel
    within 1.5 mm of a mark, off the marks themselves, is paper white."""
    import pypdfium2 as pdfium
    pdf_path = next(kit.glob("*.pdf"))
    dpi = 150
    px = dpi / 25.4
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        with open_pdf(pdf_path) as pdf:
            for i, page in enumerate(pdf.pages):
                marks = _pdf_marks(page)
                img = doc[i].render(scale=dpi / 72).to_pil().convert("L")

                def on_mark(x, y):
                    return any(mx - 0.3 <= x <= mx + mw + 0.3 and my - 0.3 <= y <= my + mh + 0.3
                               for mx, my, mw, mh in marks)
                for mx, my, mw, mh in marks:
                    for yy in range(int((my - 1.5) * px), int((my + mh + 1.5) * px) + 1):
                        for xx in range(int((mx - 1.5) * px), int((mx + mw + 1.5) * px) + 1):
                            x, y = (xx + 0.5) / px, (yy + 0.5) / px
                            if not on_mark(x, y):
                                assert img.getpixel((xx, yy)) > 235, \
                                    f"page {i + 1}: ink at ({x:.1f}, {y:.1f}) mm, next to a registration mark"
    finally:
        doc.close()
