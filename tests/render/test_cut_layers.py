"""Cutter SVG layers for shaped and folded parts: a polygon part's cut path has its outline's
vertices, and fold lines go to a "score" layer of their own (never the cut layer), read back with
an XML parser; a polygon's Print Then Cut image is opaque inside it only (read back with Pillow)."""
import xml.etree.ElementTree as ET

from PIL import Image

from pnp.core.ir import CutShape, Page, Placement, Rect
from pnp.layout.cutter_marks import CRICUT
from pnp.render.cricut import write_sheet
from pnp.render.svg import svg_text

SVG = "{http://www.w3.org/2000/svg}"
HEX = ((20.0, 0.0), (40.0, 11.5), (40.0, 34.5), (20.0, 46.0), (0.0, 34.5), (0.0, 11.5))


def _layers(page: Page) -> dict:
    root = ET.fromstring(svg_text(page, cut=True).split("\n", 1)[1])
    return {g.get("id"): list(g) for g in root.iter(SVG + "g") if g.get("id", "").startswith("layer-")}


def test_polygon_outline_and_score_layer():
    place = Placement("hex", 10, 20, 40, 46, CutShape("polygon", 0, HEX, ((0, 11.5, 40, 11.5),)))
    layers = _layers(Page(210, 297, (Rect(10, 20, 40, 46),), "hex", placements=(place,)))
    (cut,) = layers["layer-cut"]
    assert cut.tag == SVG + "polygon"
    points = [tuple(float(v) for v in pair.split(",")) for pair in cut.get("points").split()]
    assert points == [(x + 10, y + 20) for x, y in HEX]
    (score,) = layers["layer-score"]
    assert score.tag == SVG + "line"
    assert [float(score.get(k)) for k in ("x1", "y1", "x2", "y2")] == [10, 31.5, 50, 31.5]
    assert score.get("stroke") != cut.get("stroke")


def test_flat_parts_have_no_score_layer():
    place = Placement("card", 10, 20, 63, 88)
    assert "layer-score" not in _layers(Page(210, 297, (), "card", placements=(place,)))


def test_cricut_image_is_opaque_inside_the_polygon_only(tmp_path):
    """The Print Then Cut image of a sheet with one hexagon (pnp.render.cricut.write_sheet, read back
    with Pillow): opaque at the hex's centre, transparent at the corners of its box, outside the hex."""
    place = Placement("hex", 10, 20, 40, 46, CutShape("polygon", 0, HEX))
    page = Page(210, 297, (Rect(10, 20, 40, 46, fill="#3366cc", stroke=None),), "hex", placements=(place,))
    sheet = write_sheet(page, CRICUT, tmp_path, "cricut", "hex", dpi=127)  # 5 px per mm
    with Image.open(tmp_path / sheet.png) as im:
        alpha = im.getchannel("A")
        k = im.info["dpi"][0] / 25.4
    ox, oy = sheet.origin
    at = lambda x, y: alpha.getpixel((int((x - ox) * k), int((y - oy) * k)))  # noqa: E731  page mm
    assert sheet.parts == 1 and at(30.0, 43.0) == 255  # the hex's centre
    assert at(11.0, 21.0) == at(49.0, 21.0) == at(11.0, 65.0) == at(49.0, 65.0) == 0  # its box's corners
    assert at(30.0, 21.0) == 255 and at(11.0, 43.0) == 255  # its top vertex and its left side, inside
