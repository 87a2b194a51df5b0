"""Images in the drawing model (pnp.core.ir.Image) through both backends, read back.

PDF: each image's placed box from pdfplumber to 0.1 mm; raster images embedded once per document
(image XObjects counted with pypdf), SVG art as one Form XObject; the right pixels (a crop of the page
rendered by pypdfium2 compared with the source). SVG: the <use> of each image resolved to its box, the
same as the PDF's. Bad image files are refused before drawing, naming the file.
"""
from __future__ import annotations

import io
import re
import struct
import xml.etree.ElementTree as ET
import zlib

import pdfplumber
import pytest
from PIL import Image as PILImage

from pnp.core.errors import SpecError
from pnp.core.ir import Image, Page, Rect
from pnp.core.units import MM_PER_PT
from pnp.inputs.images import MAX_IMAGE_PIXELS, read_image
from pnp.render.pdf import PdfWriter
from pnp.render.svg import page_to_svg

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
QUADRANTS = ((255, 0, 0), (0, 160, 0), (0, 0, 255), (250, 200, 0))


def _png(path, w=200, h=100):
    im = PILImage.new("RGB", (w, h))
    for i, colour in enumerate(QUADRANTS):
        x0, y0 = (i % 2) * w // 2, (i // 2) * h // 2
        im.paste(colour, (x0, y0, x0 + w // 2, y0 + h // 2))
    im.save(path)
    return path


@pytest.fixture
def art(tmp_path):
    png = _png(tmp_path / "art.png")
    jpg = tmp_path / "photo.jpg"
    PILImage.open(png).convert("RGB").save(jpg, quality=95)
    svg = tmp_path / "icon.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" width="40mm" height="20mm">'
                   '<rect x="0" y="0" width="40" height="20" fill="#00a0a0"/>'
                   '<circle cx="20" cy="10" r="8" fill="#ffffff"/></svg>', encoding="utf-8")
    return png, jpg, svg


def _expected(box, size, fit):
    x, y, w, h = box
    iw, ih = size
    if fit == "stretch":
        return box
    s = (min if fit == "contain" else max)(w / iw, h / ih)
    return (x + (w - iw * s) / 2, y + (h - ih * s) / 2, iw * s, ih * s)


def _page(png, jpg, svg):
    shapes = [Rect(0, 0, 210, 297, fill="#ffffff"),
              Image(20, 20, 80, 80, str(png), "contain"),
              Image(120, 20, 60, 60, str(png), "cover"),
              Image(20, 120, 50, 70, str(png), "stretch"),
              Image(120, 120, 60, 30, str(jpg), "contain"),
              Image(20, 220, 60, 40, str(svg), "contain")]
    shapes += [Image(100 + 15 * i, 220, 12, 6, str(png), "stretch") for i in range(5)]  # the same file again
    return Page(210, 297, tuple(shapes), "images")


def _pdf_bytes(page) -> bytes:
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    writer.add(page)
    writer.close()
    return buf.getvalue()


def test_pdf_places_each_raster_at_its_box_and_embeds_it_once(art):
    png, jpg, svg = art
    page = _page(png, jpg, svg)
    data = _pdf_bytes(page)
    rasters = [s for s in page.items if isinstance(s, Image) and not s.src.endswith(".svg")]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        placed = [(o["x0"] * MM_PER_PT, o["top"] * MM_PER_PT, (o["x1"] - o["x0"]) * MM_PER_PT,
                   (o["bottom"] - o["top"]) * MM_PER_PT) for o in pdf.pages[0].images]
    assert len(placed) == len(rasters)
    for shape, got in zip(rasters, placed):
        want = _expected((shape.x, shape.y, shape.w, shape.h), read_image(__import__("pathlib").Path(shape.src)).size,
                         shape.fit)
        assert all(abs(a - b) < 0.1 for a, b in zip(got, want)), (shape, got, want)

    from pypdf import PdfReader
    seen: dict[int, str] = {}  # every XObject reachable from the page, forms' own resources included

    def walk(resources) -> None:
        for ref in (resources or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if ref.idnum not in seen:
                seen[ref.idnum] = str(obj["/Subtype"])
                if obj["/Subtype"] == "/Form":
                    walk(obj.get("/Resources"))
    walk(PdfReader(io.BytesIO(data)).pages[0]["/Resources"])
    kinds = sorted(seen.values())
    assert kinds.count("/Image") == 2, kinds   # art.png (used 8 times) and photo.jpg, once each
    assert kinds.count("/Form") == 3, kinds    # each raster's form and icon.svg as vectors, once each


def test_pdf_draws_the_right_pixels(art):
    import pypdfium2 as pdfium
    png, jpg, svg = art
    page = _page(png, jpg, svg)
    pdf = pdfium.PdfDocument(_pdf_bytes(page))
    dpi = 150
    bitmap = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    px = dpi / 25.4
    stretch = next(s for s in page.items if isinstance(s, Image) and s.fit == "stretch")
    # the centre of each quadrant of the stretched image has the source's colour
    for i, colour in enumerate(QUADRANTS):
        cx = stretch.x + stretch.w * (0.25 + 0.5 * (i % 2))
        cy = stretch.y + stretch.h * (0.25 + 0.5 * (i // 2))
        got = bitmap.getpixel((round(cx * px), round(cy * px)))
        assert all(abs(a - b) <= 12 for a, b in zip(got, colour)), (i, got, colour)
    # "cover" crops to its box: just outside the box is the white page
    cover = next(s for s in page.items if isinstance(s, Image) and s.fit == "cover")
    assert bitmap.getpixel((round((cover.x - 1) * px), round((cover.y + cover.h / 2) * px))) == (255, 255, 255)
    # the SVG icon: white circle in the centre, teal at the edge of its drawn box
    icon = next(s for s in page.items if isinstance(s, Image) and s.src.endswith(".svg"))
    x, y, w, h = _expected((icon.x, icon.y, icon.w, icon.h), (40, 20), "contain")
    assert bitmap.getpixel((round((x + w / 2) * px), round((y + h / 2) * px))) == (255, 255, 255)
    edge = bitmap.getpixel((round((x + 1.5) * px), round((y + 1.5) * px)))
    assert abs(edge[0] - 0) <= 12 and abs(edge[1] - 160) <= 12 and abs(edge[2] - 160) <= 12, edge


def _svg_boxes(svg_text: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    root = ET.fromstring(svg_text)
    sizes = {el.get("id"): (float(el.get("width")), float(el.get("height"))) for el in root.iter(f"{SVG_NS}image")}
    out = []
    for use in root.iter(f"{SVG_NS}use"):
        ref = use.get(XLINK).lstrip("#")
        t = re.match(r"translate\(([-\d.e]+),([-\d.e]+)\) scale\(([-\d.e]+),([-\d.e]+)\)", use.get("transform"))
        tx, ty, sx, sy = map(float, t.groups())
        iw, ih = sizes[ref]
        out.append((ref, (tx, ty, iw * sx, ih * sy)))
    return out


def test_svg_places_every_image_where_the_pdf_does_and_embeds_each_file_once(art):
    png, jpg, svg = art
    page = _page(png, jpg, svg)
    text = page_to_svg(page)
    root = ET.fromstring(text)
    images = list(root.iter(f"{SVG_NS}image"))
    assert len(images) == 3  # png, jpg, svg: each embedded once on the page
    assert all(im.get(XLINK).startswith("data:image/") for im in images)  # the file stands alone
    boxes = _svg_boxes(text)
    shapes = [s for s in page.items if isinstance(s, Image)]
    assert len(boxes) == len(shapes)
    for shape, (_ref, got) in zip(shapes, boxes):
        want = _expected((shape.x, shape.y, shape.w, shape.h),
                         (40, 20) if shape.src.endswith(".svg") else read_image(__import__("pathlib").Path(shape.src)).size,
                         shape.fit)
        assert all(abs(a - b) < 0.1 for a, b in zip(got, want)), (shape, got, want)


def _png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("case", ["missing", "truncated", "bomb", "not-an-image", "folder", "bad-svg"])
def test_bad_images_are_refused_before_drawing(tmp_path, case):
    path = tmp_path / f"{case}.png"
    if case == "truncated":
        data = _png(tmp_path / "whole.png", 400, 300).read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif case == "bomb":
        path.write_bytes(_png_header(50_000, 50_000))
    elif case == "not-an-image":
        path.write_bytes(b"GIF89a not supported here")
    elif case == "folder":
        path.mkdir()
    elif case == "bad-svg":
        path = tmp_path / "bad.svg"
        path.write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        read_image(path)
    message = str(info.value)
    assert path.name in message and "Traceback" not in message
    if case == "bomb":
        assert f"{MAX_IMAGE_PIXELS / 1e6:.0f} MP" in message
    # the renderer refuses the same file before it draws anything
    with pytest.raises(SpecError):
        _pdf_bytes(Page(210, 297, (Image(0, 0, 10, 10, str(path)),), "bad"))


def test_effective_resolution_of_a_raster(art):
    png, _jpg, svg = art
    facts = read_image(png)  # 200 x 100 px
    assert facts.dpi_at(25.4, 12.7) == pytest.approx(200.0)
    assert facts.dpi_at(50.8, 12.7) == pytest.approx(100.0)  # the smaller axis decides
    assert read_image(svg).dpi_at(100, 50) is None  # vectors have no resolution


def test_svg_page_with_images_renders_in_chromium_like_the_pdf(art, tmp_path):
    """Chromium draws the SVG page (images embedded as data: URLs) within 2 % of the PDF page's pixels;
    the same page with its images' data removed differs by more, so the comparison can fail."""
    from browser import require_chromium
    from test_svg_fonts import _differ
    require_chromium("compares the SVG page with images to the PDF page in a browser")
    import pypdfium2 as pdfium
    png, jpg, svg = art
    page = _page(png, jpg, svg)
    svg_path = tmp_path / "page.svg"
    text = page_to_svg(page)
    svg_path.write_text(text, encoding="utf-8")
    bare = tmp_path / "bare.svg"
    bare.write_text(re.sub(r'href="data:[^"]*"', 'href=""', text), encoding="utf-8")
    doc = pdfium.PdfDocument(_pdf_bytes(page))
    try:
        w_px, h_px = 210 * 4, 297 * 4
        same = _differ(svg_path, doc[0], tmp_path, "images", w_px, h_px)
        control = _differ(bare, doc[0], tmp_path, "bare", w_px, h_px)
    finally:
        doc.close()
    assert same <= 0.02, f"{same:.2%} of pixels differ"
    assert control > 0.02, f"without the images the page should differ, but only {control:.2%} of pixels do"
