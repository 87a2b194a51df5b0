"""Preflight with bleed sees what a cut astray shows: a line drawn on the cut (the grey cut guide the
imposition printed along shaped parts before, a template's outline at the trim) and bleed of another
colour than the art inside the cut (a band that reaches the cut but does not bleed, as the buoys'
band and the tuck box's panels did). Each is drawn, written by the PDF writer, rendered and checked
as `pnp validate --preflight` does; the same parts drawn right pass."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.core.findings import FAIL, PASS
from pnp.core.ir import Component, Polygon, Rect
from pnp.layout.cover import BomCover
from pnp.layout.impose import cut_guide, impose
from pnp.layout.kitpacking import pack_kit
from pnp.layout.options import ImposeOptions
from pnp.preflight.run import check
from pnp.preflight.scene import PageScene
from pnp.render.pdf import PdfWriter
from preflight_kits import SHEET, assert_inside, card, not_passed, of, placement, run

PENTAGON = ((12.0, 0.0), (24.0, 9.0), (19.5, 24.0), (4.5, 24.0), (0.0, 9.0))


def _buoy(band_bleeds: bool) -> Component:
    face = (Rect(0, 0, 24, 24, fill="#c8102e", stroke=None, bleed=True),
            Rect(0, 12, 24, 5, fill="#ffffff", stroke=None, bleed=band_bleeds))
    return Component("buoy", 24.0, 24.0, (face,), copies=3, shape="polygon", outline=PENTAGON)


def _checked(tmp_path: Path, components, bleed: float, extra=lambda page: ()):
    """(findings, pages): the kit imposed with ``bleed``, each page given ``extra(page)`` items on top
    (what an older imposition drew), written, rendered and checked."""
    opts = ImposeOptions(bleed=bleed)
    pages = list(impose("test", components, SHEET, opts, BomCover("test"), pack_kit(components, SHEET, opts)).pages)
    pages = [replace(p, items=p.items + tuple(extra(p))) for p in pages]
    writer = PdfWriter(tmp_path / "kit.pdf")
    for page in pages:
        writer.add(page)
    writer.close()
    scenes = [PageScene(p, n, components) for n, p in enumerate(pages, 1)]
    return check(tmp_path / "kit.pdf", scenes, bleed), pages


def test_a_cut_guide_printed_with_bleed_fails_and_none_passes(tmp_path):
    def guides(page):
        return [cut_guide(p.cut.points, p.x, p.y) for p in page.placements if p.cut.points]
    found, pages = _checked(tmp_path, [_buoy(True)], 3.0, guides)
    bad = not_passed(found, "nothing is drawn on a cut")
    assert bad and all(f.status == FAIL for f in bad) and "polygon stroked on the cut" in bad[0].check
    number, p = placement(pages, "buoy", 0)
    assert_inside(bad[0].where, number, p)
    found, pages = _checked(tmp_path, [_buoy(True)], 3.0)
    assert [f.status for f in of(found, "nothing is drawn on a cut")] == [PASS]
    assert not any(isinstance(s, Polygon) and s.stroke for page in pages for g in page.items
                   for s in getattr(g, "children", ()))  # the imposition prints no guide with bleed
    found, _ = _checked(tmp_path, [_buoy(True)], 0.0, guides)
    assert not of(found, "nothing is drawn on a cut")  # without bleed a cut guide is the home print's


def test_a_template_outline_at_the_trim_is_left_out_with_bleed(tmp_path):
    """A tile whose template strokes its trim (Nonads' grey outline): drawn on the page with bleed 3,
    preflight finds it; imposed by pnp it is left out (the fill stays), and preflight passes."""
    face = [Rect(0, 0, 30, 30, fill="#000000", stroke=None, bleed=True),
            Rect(0, 0, 30, 30, fill=None, stroke="#808080", stroke_width=0.25)]
    tile = card("tile", [face], 30.0, 30.0)

    def outline(page):
        from pnp.core.ir import Group
        return [Group((face[1],), dx=p.x, dy=p.y) for p in page.placements]
    found, _ = _checked(tmp_path, [tile], 3.0, outline)
    assert [f.status for f in not_passed(found, "nothing is drawn on a cut")][:1] == [FAIL]
    found, pages = run([tile], bleed=3)
    assert [f.status for f in of(found, "nothing is drawn on a cut")] == [PASS]
    found, _ = run([tile], bleed=0)
    assert not of(found, "nothing is drawn on a cut")


def test_bleed_unlike_the_art_inside_the_cut_fails_and_art_running_on_passes(tmp_path):
    found, pages = run([_buoy(False)], bleed=3)  # the white band reaches the cut, the bleed beyond is red
    bad = not_passed(found, "bleed continues the art")
    assert bad and all(f.status == FAIL for f in bad)
    assert "#ffffff" in bad[0].check and "#c8102e" in bad[0].check
    number, p = placement(pages, bad[0].where.component, 0)
    assert bad[0].where.page == number
    found, _ = run([_buoy(True)], bleed=3)
    assert [f.status for f in of(found, "bleed continues the art")] == [PASS]
    # a card: a dark panel that reaches the left trim over a cream background that bleeds
    panel = card("box", [[Rect(0, 0, 40, 60, fill="#f1ede4", stroke=None, bleed=True),
                          Rect(0, 10, 20, 40, fill="#1f3a5f", stroke=None)]], 40.0, 60.0)
    found, pages = run([panel], bleed=3)
    bad = not_passed(found, "bleed continues the art")
    assert bad and "left edge" in bad[0].check
    number, p = placement(pages, "box", 0)
    assert_inside(replace(bad[0].where, x=bad[0].where.x + 1.5), number, p)  # 1.5 mm left of the trim
    found, _ = run([panel], bleed=0)
    assert not of(found, "bleed continues the art")
