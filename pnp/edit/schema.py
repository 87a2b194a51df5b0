"""The template schema as the editor's properties panel reads it, made from pnp.custom.template's models.

Every field of every layer type (pnp.custom.template.LAYER_TYPES) is described from its pydantic
annotation alone, so a field added to a model appears in the panel with no editor code:

* ``kind``: "length" (mm, or % of the part: a Dim), "mm" (a length in mm), "number" (with ``min`` and
  ``max``), "bool", "choice" (``choices``: the Literal's values), "colour" (fill, stroke, colour),
  "font" (a font the spec declares), "picture" (a file in the folder), "when", "text", "list" (points, dash);
* ``unit``: "mm", "mm or %", "pt" (a size in points), "" otherwise;
* ``default``: the model's default as the YAML would write it (None: the field is unset by default;
  ``required`` when the model has none);
* ``doc``: the field's docstring or description, if any.
"""
from __future__ import annotations

import ast
import inspect
import typing
from functools import lru_cache
from typing import Any, Literal

from pydantic_core import PydanticUndefined

from ..custom.template import LAYER_TYPES, Dim
from ..inputs.specfields import Bounds
from .card import plain_value

COLOUR_FIELDS = ("fill", "stroke", "colour")
POINT_FIELDS = ("size", "min_size")  # font sizes: pt


def _validators(metadata) -> set[str]:
    return {getattr(getattr(m, "func", None), "__name__", "") for m in metadata}


def _unwrap(annotation):
    """The annotation without Optional (``X | None``), and whether None was allowed."""
    args = typing.get_args(annotation)
    if type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return (rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]), True
    return annotation, False


def _kind(name: str, annotation, metadata) -> dict:
    annotation, optional = _unwrap(annotation)
    inner = list(metadata)
    if typing.get_origin(annotation) is typing.Annotated:
        inner += list(annotation.__metadata__)
        annotation = typing.get_args(annotation)[0]
    funcs = _validators(inner)
    bounds = next((m for m in inner if isinstance(m, Bounds)), None)
    out: dict[str, Any] = {"optional": optional}
    if typing.get_origin(annotation) is Literal:
        out.update(kind="choice", choices=list(typing.get_args(annotation)))
    elif annotation is Dim or "_dim" in funcs:
        out.update(kind="length", unit="mm or %")
    elif name == "when":
        out.update(kind="when")
    elif name in COLOUR_FIELDS:
        out.update(kind="colour")
    elif name.endswith("font"):
        out.update(kind="font")
    elif name == "src":
        out.update(kind="picture")
    elif annotation is bool:
        out.update(kind="bool")
    elif "parse_length" in funcs:
        out.update(kind="mm", unit="mm")
    elif annotation in (float, int):
        out.update(kind="number", unit="pt" if name in POINT_FIELDS else "")
        if bounds is not None:
            out.update(min=bounds.lo, max=bounds.hi)
    elif typing.get_origin(annotation) in (tuple, list):
        out.update(kind="list")
    else:
        out.update(kind="text")
    out.setdefault("unit", "")
    return out


def _docs(model) -> dict[str, str]:
    """The attribute docstrings (a string right after a field) of ``model`` and its bases."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if not cls.__module__.startswith("pnp."):
            continue
        try:
            tree = ast.parse(inspect.getsource(cls))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for a, b in zip(body, body[1:]):
            if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name) and isinstance(b, ast.Expr) \
                    and isinstance(getattr(b, "value", None), ast.Constant) and isinstance(b.value.value, str):
                docs[a.target.id] = " ".join(b.value.value.split())
    return docs


@lru_cache(maxsize=1)
def layer_schema() -> dict:
    """{layer type: {"doc": the model's docstring, "fields": [{"name", "kind", "unit", "default",
    "required", "optional", "choices"?, "min"?, "max"?, "doc"}]}}, fields in the model's order."""
    out = {}
    for kind, model in LAYER_TYPES.items():
        docs = _docs(model)
        fields = []
        for name, info in model.model_fields.items():
            if name == "type":
                continue
            entry = {"name": info.alias or name, **_kind(name, info.annotation, info.metadata)}
            required = info.default is PydanticUndefined and info.default_factory is None
            entry["required"] = required
            entry["default"] = None if required else plain_value(info.default)
            entry["doc"] = info.description or docs.get(name, "")
            fields.append(entry)
        out[kind] = {"doc": " ".join((model.__doc__ or "").split()), "fields": fields}
    return out
