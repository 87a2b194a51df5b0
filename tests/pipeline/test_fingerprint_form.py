"""A part's fingerprint is the sha256 of its canonical form as json.dumps writes it (pnp.pipeline.parts):
the digests pnp computes piecewise must be those of that text, or an earlier kit's manifest would
no longer match and `pnp diff` would call every part changed.

The reference here builds the form as nested lists and hashes json.dumps of it, the definition in
the module's docstring, independently of the code under test.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from pnp.custom.fronts import TemplateFronts
from pnp.core.ir import Circle, Component, Group, Image, Line, Polygon, Rect, Text
from pnp.pipeline.parts import fingerprint, parts_of
from pnp.pipeline.plan import Request, load_paper, plan

SKIPPED = {"key", "root", "width"}  # a render cache key, where SVG art may reach, a measure of the other fields


def form(value):
    """The canonical form: a dataclass as [type name, fields in order] less SKIPPED, floats rounded to
    4 decimals, a picture as "sha256:" and the hash of its bytes."""
    if type(value) is float:
        return round(value, 4)
    if type(value) in (tuple, list):
        return [form(v) for v in value]
    if dataclasses.is_dataclass(value):
        out = [type(value).__name__]
        for f in dataclasses.fields(value):
            if f.name in SKIPPED:
                continue
            v = getattr(value, f.name)
            if type(value) is Image and f.name == "src":
                out.append("sha256:" + hashlib.sha256(Path(v).read_bytes()).hexdigest())
            else:
                out.append(form(v))
        return out
    return value


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def reference(comp: Component, front) -> str:
    back = None if comp.back is None else hashlib.sha256(dumps(form(comp.back)).encode()).hexdigest()
    text = dumps([round(comp.width, 4), round(comp.height, 4), comp.shape, round(comp.radius, 4),
                  form(tuple(front)), back])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def picture(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("pic") / "p.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>', encoding="utf-8")
    return str(path)


def odd_fronts(picture: str) -> list[tuple]:
    """Fronts with every kind of value the form holds: floats that round, -0.0, NaN and the
    infinities, text needing escapes, nested and shared groups, a picture, empty fronts."""
    furniture = Group((Rect(0, 0, 63.5, 88.9, fill="#fff"), Circle(31.75, 44.45, 1 / 3, fill=None)), key="k1")
    return [
        (),
        (furniture,),
        (furniture, Text(1.23456789, -0.0, 'a "quoted" \\ line\n\tü \u2028 \x00 😀', size_pt=7.00004)),
        (Text(float("nan"), float("inf"), "x", rotate=-float("inf")),),
        (Group((furniture, Group((Line(0, 0, 1e-9, 1e300, dash=(2.0, 1.0)),), dx=0.5, clip=(0, 0, 1, 1))),
               sx=-1.0),),
        (Polygon(((0.1, 0.2), (1.00005, 2.0), (3, 4)), fill="#123456"), furniture),
        (Image(0, 0, 10, 10, picture, "cover", root="/somewhere"),),
        # Texts of one style, and Texts whose fields are not of their usual types (ints, None, 1 for True)
        (Text(0.5, 0.25, "a", anchor="middle", fill="#555555", bold=True, rotate=180.0),
         Text(0.75, 0.125, "b", anchor="middle", fill="#555555", bold=True, rotate=-0.0),
         Text(3, 4, "ints", size_pt=9, rotate=90), Text(1.0, 2.0, "odd", fill=None, bold=1, underline=0)),
    ]


@pytest.mark.parametrize("back", [None, "group", "tuple"])
def test_odd_fronts_hash_to_their_canonical_json(picture, back):
    shared = (Rect(0, 0, 10, 10, fill="#000000"),)
    backs = {None: None, "group": (Group(shared, key="b"),), "tuple": shared}
    comp = Component("c", 63.5, 88.9, odd_fronts(picture), back=backs[back], shape="rounded", radius=3.175)
    got = [fingerprint(comp, f) for f in comp.fronts]
    assert got == [reference(comp, f) for f in comp.fronts]
    assert len(set(got)) == len(got)  # every odd front differs, so its digest does


def test_a_kits_parts_carry_the_reference_fingerprints():
    """Every part of NetMatch and the playing-cards deck that no template draws (the board, the tuck
    box): the fingerprint parts_of gives is the reference's of the part's first front. A part a template
    draws is fingerprinted by its template and row instead (tests/custom/test_template_fingerprint.py)."""
    drawn = templated = 0
    for target in ("netmatch", str(Path(__file__).resolve().parents[2] / "specs" / "playing-cards")):
        [tp] = plan([target], Request(load_paper("a4"), ("pdf",))).targets
        parts = parts_of(tp.components)
        assert len(parts) > 50
        for p in parts:
            comp = tp.components[p.comp]
            if isinstance(comp.fronts, TemplateFronts):
                templated += 1
                assert p.fingerprint != reference(comp, comp.fronts[p.fronts[0]]), (target, p.group, p.key)
                continue
            drawn += 1
            assert p.fingerprint == reference(comp, comp.fronts[p.fronts[0]]), (target, p.group, p.key)
    assert drawn and templated
