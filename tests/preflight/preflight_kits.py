"""Helpers for the preflight tests: a tiny kit of hand-made components, imposed and preflighted as
`pnp validate --preflight` does, and tiny PDFs made with reportlab."""
from __future__ import annotations

from pathlib import Path

from pnp.core.findings import PASS
from pnp.core.ir import Component
from pnp.layout.cover import BomCover
from pnp.layout.impose import impose
from pnp.layout.kitpacking import pack_kit
from pnp.layout.options import ImposeOptions
from pnp.pipeline.plan import load_paper
from pnp.preflight.run import preflight

SHEET = load_paper("a4").sheet


def run(components, bleed: float = 0.0):
    """(findings, pages): the preflight of a kit of ``components`` on A4, and its imposed pages."""
    opts = ImposeOptions(bleed=bleed)
    packing = pack_kit(components, SHEET, opts)
    cover = BomCover("test")
    found = preflight("test", components, SHEET, opts, cover, packing)
    pages = list(impose("test", components, SHEET, opts, cover, packing).pages)
    return found, pages


def of(findings, rule_word: str):
    """The findings whose rule names ``rule_word``."""
    return [f for f in findings if rule_word in f.rule]


def not_passed(findings, rule_word: str):
    return [f for f in of(findings, rule_word) if f.status != PASS]


def placement(pages, name: str, face: int = 0):
    """(page number, Placement) of the first placed front ``face`` of component ``name``."""
    for number, page in enumerate(pages, 1):
        for p in page.placements:
            if p.name == name and p.face == face:
                return number, p
    raise AssertionError(f"{name} face {face} is on no page")


def assert_inside(where, number: int, p) -> None:
    """``where`` names page ``number`` and a point of placement ``p``'s trim box (mm)."""
    assert where.page == number
    assert where.component == p.name
    assert p.x - 0.01 <= where.x <= p.x + p.w + 0.01 and p.y - 0.01 <= where.y <= p.y + p.h + 0.01, (where, p)


def card(name: str, faces, w: float = 40.0, h: float = 40.0, **kw) -> Component:
    return Component(name, w, h, tuple(tuple(f) for f in faces), **kw)


def pdf_with(path: Path, draw) -> Path:
    """A one-page A4 PDF drawn by ``draw(canvas)`` (reportlab)."""
    from reportlab.pdfgen import canvas
    c = canvas.Canvas(str(path), invariant=1)
    draw(c)
    c.showPage()
    c.save()
    return path
