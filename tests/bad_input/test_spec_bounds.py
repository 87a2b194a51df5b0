"""Every count and size in every game's spec is bounded by what a printable kit can need, and every
value inside the bounds is cheap: the checks, the parts and the page estimate finish in seconds and
raise nothing but a PnpError.

The models are walked, not listed, so a new game or field is covered without editing this file: an
int needs Count(lo, hi), a float a Length or BoundedFloat, a bool Flag, a list or mapping Items(...,
lo, hi), and every nested model derives from SpecModel (unknown keys and nan refused).
"""
from __future__ import annotations

import random
import time
import types
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from pnp.inputs import specfields as specmod
from pnp.core.errors import PnpError, SpecError
from pnp.core.findings import FAIL
from pnp.engine import KitContext, registry
from pnp.layout.limits import check_budget
from pnp.pipeline.plan import LoadedSpec, context as plan_context
from pnp.layout.paper import CropMarkStyle, Sheet, load_sheet
from pnp.inputs.resources import builtin_spec
from pnp.inputs.specfields import Bounds, SpecModel, load_yaml, validate_model

LENGTHS = [typing.get_args(specmod.Length)[1:], typing.get_args(specmod.OptionalLength)[1:]]
FLAG = typing.get_args(specmod.Flag)[1:]
SECONDS = 60.0  # per extreme spec: a bound against runaway work, not a timing (all well under 5 s when measured)


def _split(annotation) -> tuple[object, list]:
    """(bare type, metadata) of a possibly Annotated type."""
    if typing.get_origin(annotation) is typing.Annotated:
        base, *meta = typing.get_args(annotation)
        return base, meta
    return annotation, []


def unbounded(annotation, metadata, where: str) -> list[str]:
    """Fields under ``where`` whose type lets a count, size or switch run away."""
    base, meta = _split(annotation)
    meta = list(metadata) + meta
    origin = typing.get_origin(base)
    bounded = any(isinstance(m, Bounds) for m in meta)
    if origin in (typing.Union, types.UnionType):
        return [x for arg in typing.get_args(base) if arg is not type(None) for x in unbounded(arg, meta, where)]
    if origin is typing.Literal or base is str or base is type(None):
        return []
    if base is bool:
        return [] if tuple(meta) == FLAG else [f"{where}: bool (use Flag)"]
    if base is int:
        return [] if bounded else [f"{where}: int without Count(lo, hi)"]
    if base is float:
        return [] if bounded or tuple(meta) in LENGTHS else [f"{where}: float without Length or BoundedFloat"]
    if isinstance(base, type) and issubclass(base, BaseModel):
        bad = [] if issubclass(base, SpecModel) else [f"{where}: {base.__name__} is not a SpecModel"]
        return bad + model_problems(base, where + ".")
    if origin in (tuple, list, dict):
        args = [a for a in typing.get_args(base) if a is not Ellipsis]
        variable = origin is not tuple or Ellipsis in typing.get_args(base)
        bad = [f"{where}: {origin.__name__} without Items(..., lo, hi)"] if variable and not bounded else []
        return bad + [x for a in args for x in unbounded(a, [], where + "[]")]
    return [f"{where}: unexpected type {base!r}"]


def model_problems(model: type[BaseModel], prefix: str = "") -> list[str]:
    return [x for name, info in model.model_fields.items()
            for x in unbounded(info.annotation, info.metadata, prefix + name)]


@pytest.mark.parametrize("game", sorted(registry()))
def test_every_field_of_every_game_is_bounded(game):
    assert model_problems(registry()[game].spec_model) == []


def test_crop_mark_style_is_a_spec_model():
    assert issubclass(CropMarkStyle, SpecModel) and model_problems(CropMarkStyle) == []


def test_the_walker_finds_unbounded_fields():
    class Nested(BaseModel):
        x: float = 0.0

    class Loose(specmod.SpecBase):
        n: int = 1
        on: bool = True
        items: list[str] = []
        pair: tuple[str, str] = ("a", "b")
        nested: Nested = Nested()
        ok: specmod.Count(1, 2) = 1
    problems = " | ".join(model_problems(Loose))
    for needle in ("n: int", "on: bool", "items: list", "nested: Nested is not a SpecModel",
                   "nested.x: float", "year"):
        assert (needle in problems) == (needle != "year"), problems
    assert "pair" not in problems and "ok" not in problems


# ---- every bound, at both ends, is cheap ---------------------------------------------------------

def _scalar_fields(model: type[BaseModel], prefix: tuple = ()) -> list[tuple[tuple, Bounds]]:
    """(path, bounds) of every Count or BoundedFloat field reachable through nested models."""
    out = []
    for name, info in model.model_fields.items():
        base, meta = _split(info.annotation)
        meta = list(info.metadata) + meta
        if typing.get_origin(base) in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(base) if a is not type(None)]
            base, extra = _split(args[0]) if len(args) == 1 else (base, [])
            meta += extra
        bounds = next((m for m in meta if isinstance(m, Bounds)), None)
        if base in (int, float) and bounds is not None:
            out.append((prefix + (name,), bounds))
        elif isinstance(base, type) and issubclass(base, BaseModel):
            out += _scalar_fields(base, prefix + (name,))
    return out


def _cases():
    for name, game in sorted(registry().items()):
        for path, bounds in _scalar_fields(game.spec_model):
            for end, value in (("lo", bounds.lo), ("hi", bounds.hi)):
                yield pytest.param(name, path, value, id=f"{name}-{'.'.join(path)}-{end}")


@pytest.mark.parametrize("game,path,value", list(_cases()))
def test_extreme_values_are_cheap_and_fail_cleanly(game, path, value):
    spec_path = builtin_spec(game)
    data, lines = load_yaml(spec_path)
    node = data
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value
    try:
        spec = validate_model(registry()[game].spec_model, data, spec_path, lines)
    except SpecError:
        return  # refused with a message naming its field (another bound of the same spec)
    start = time.perf_counter()
    ctx = KitContext(spec_path, full=True)
    try:  # as `pnp validate` and `pnp build` do: the parts are made only when no check fails
        if not any(f.status == FAIL for f in registry()[game].check(spec, ctx)):
            components = registry()[game].components(spec, plan_context(LoadedSpec(registry()[game], spec, spec_path, lines), full=False))
            check_budget(components, load_sheet("a4"))
    except PnpError:
        pass
    assert time.perf_counter() - start < SECONDS


def test_bounds_metadata_matches_the_check():
    count = specmod.Count(2, 6)
    assert [m for m in typing.get_args(count) if isinstance(m, Bounds)] == [Bounds(2, 6)]
    sheet = Sheet(name="x", width=210, height=297)
    assert sheet.crop_marks.length == 4.0


def test_spec_model_refuses_quoted_nan_in_nested_models(tmp_path):
    for game, text, field in (
            ("netmatch", "network:\n  generator: null\n  nodes:\n    - {id: a, kind: hub, x: \"nan\", y: 0}\n"
                         "  edges: []\n", "network.nodes.0.x"),
            ("nooks", "stones:\n  diameter: \"inf\"\n", "stones.diameter")):
        p = tmp_path / f"{game}.yaml"
        p.write_text(f"game: {game}\n{text}", encoding="utf-8")
        data, lines = load_yaml(p)
        with pytest.raises(SpecError) as e:
            validate_model(registry()[game].spec_model, data, p, lines)
        assert e.value.field == field and ("finite" in str(e.value) or "'inf'" in str(e.value)), str(e.value)


def test_crop_marks_refuse_nan(tmp_path):
    p = tmp_path / "sheet.yaml"
    p.write_text("name: nan-marks\nwidth: 210mm\nheight: 297mm\ncrop_marks:\n  width: \"nan\"\n", encoding="utf-8")
    data, lines = load_yaml(p)
    with pytest.raises(SpecError) as e:
        validate_model(Sheet, data, Path(p), lines)
    assert e.value.field == "crop_marks.width" and e.value.line == 5


@pytest.mark.parametrize("game", sorted(registry()))
def test_random_values_within_the_bounds_never_crash(game):
    """Up to three bounded fields at a time set to random values in range (seeded): the checks, the
    parts and the page estimate raise nothing but a PnpError, each spec within SECONDS."""
    rng = random.Random(f"bounds-{game}")
    model = registry()[game].spec_model
    fields = _scalar_fields(model)
    spec_path = builtin_spec(game)
    for _ in range(12):
        data, lines = load_yaml(spec_path)
        for path, b in rng.sample(fields, k=min(len(fields), rng.randint(1, 3))):
            node = data
            for key in path[:-1]:
                node = node.setdefault(key, {})
            if isinstance(b.lo, int) and isinstance(b.hi, int):
                node[path[-1]] = rng.choice([b.lo, b.hi, rng.randint(b.lo, b.hi), rng.randint(b.lo, min(b.hi, b.lo + 10))])
            else:
                node[path[-1]] = rng.choice([b.lo, b.hi, rng.uniform(b.lo, b.hi)])
        try:
            spec = validate_model(model, data, spec_path, lines)
        except SpecError:
            continue
        start = time.perf_counter()
        try:
            if not any(f.status == FAIL for f in registry()[game].check(spec, KitContext(spec_path, full=True))):
                check_budget(registry()[game].components(spec, plan_context(LoadedSpec(registry()[game], spec, spec_path, lines), full=False)), load_sheet("a4"))
        except PnpError:
            pass
        assert time.perf_counter() - start < SECONDS, data
