"""Loading YAML specs into pydantic models, with errors that name the file, line and field.

YAML is read with the safe loader only. A spec names its game in ``game:``; each game module
defines a model derived from SpecBase, which rejects unknown keys.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from .errors import SpecError
from .units import parse_length

MAX_LENGTH_MM = 2000.0  # nothing pnp prints is larger than 2 m; "1km" is a typo, not a board


def _positive_length(mm: float) -> float:
    if mm <= 0:
        raise ValueError(f"must be greater than zero, got {mm:g} mm")
    if mm > MAX_LENGTH_MM:
        raise ValueError(f"{mm:g} mm is absurdly large (limit {MAX_LENGTH_MM:g} mm)")
    return mm


def _non_negative_length(mm: float) -> float:
    if mm < 0:
        raise ValueError(f"must not be negative, got {mm:g} mm")
    if mm > MAX_LENGTH_MM:
        raise ValueError(f"{mm:g} mm is absurdly large (limit {MAX_LENGTH_MM:g} mm)")
    return mm


def _hex_colour(value: Any) -> str:
    import re
    if not isinstance(value, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", value.strip()):
        raise ValueError(f"{value!r} is not a colour; write it as #rrggbb, e.g. #d55e00")
    return value.strip().lower()


Length = Annotated[float, BeforeValidator(parse_length), AfterValidator(_positive_length)]
"""A length in mm, written 30, "30mm", "1.2in" or "18pt"; must be > 0 and at most 2 m."""
OptionalLength = Annotated[float, BeforeValidator(parse_length), AfterValidator(_non_negative_length)]
"""A length in mm that may be zero."""
Colour = Annotated[str, BeforeValidator(_hex_colour)]
"""A colour written #rrggbb."""


class SpecBase(BaseModel):
    """Common header of every game spec. Unknown keys are errors."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    game: str
    title: str = ""


M = TypeVar("M", bound=BaseModel)
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present; safe either way


def _line_map(node: yaml.Node, path: tuple = (), out: dict | None = None) -> dict[tuple, int]:
    """Map each key path (as tuples of keys / indexes) to its 1-based line in the YAML source."""
    out = {} if out is None else out
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            out[path + (key,)] = key_node.start_mark.line + 1
            _line_map(value_node, path + (key,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[path + (i,)] = item.start_mark.line + 1
            _line_map(item, path + (i,), out)
    return out


def read_text(path: Path, what: str = "file") -> str:
    """Read a UTF-8 text file (a byte-order mark is allowed).

    Raises:
        SpecError: the file is missing, unreadable, or not UTF-8.
    """
    if not path.exists():
        raise SpecError(f"{what} does not exist.", file=path, hint="check the path, or run `pnp list` for the built-in games")
    if not path.is_file():
        raise SpecError(f"{what} is not a file.", file=path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SpecError(f"cannot read {what}: {exc.strerror}.", file=path) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SpecError(f"{what} is not UTF-8 (byte 0x{raw[exc.start]:02x}).", file=path, line=line,
                        hint="save the file as UTF-8") from None


def load_yaml(path: Path) -> tuple[dict, dict[tuple, int]]:
    """Parse a YAML mapping with the safe loader; return (data, line map).

    Raises:
        SpecError: missing file, bad encoding, malformed YAML, empty file or not a mapping.
    """
    text = read_text(path, "spec file")
    loader = _SafeLoader(text)
    try:  # one pass: compose the node tree (for line numbers), then construct the data from it
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        tabbed = line is not None and "\t" in (text.splitlines()[line - 1:line] or [""])[0]
        hint = "indent with spaces, not tabs (YAML forbids tabs)" if tabbed else \
            "check the indentation and quoting on that line"
        raise SpecError(f"malformed YAML: {problem}.", file=path, line=line, hint=hint) from None
    finally:
        loader.dispose()
    if node is None or data is None:
        raise SpecError("spec file is empty.", file=path, hint="start from a built-in spec: copy specs/<game>.yaml")
    if not isinstance(data, dict):
        raise SpecError("spec must be a mapping of field: value.", file=path, line=1)
    return data, _line_map(node)


def validate_model(model: type[M], data: dict, path: Path, lines: dict[tuple, int]) -> M:
    """Validate ``data`` against ``model``; the first problem becomes a SpecError with its line.

    Raises:
        SpecError: unknown key, wrong type, missing field, bad length or colour.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        field = ".".join(str(p) for p in loc) or None
        line = None
        for n in range(len(loc), 0, -1):
            if loc[:n] in lines:
                line = lines[loc[:n]]
                break
        kind = err["type"]
        if kind == "extra_forbidden":
            known = ", ".join(sorted(_fields_at(model, loc[:-1])))
            msg, hint = f"unknown key {loc[-1]!r}.", f"remove it or use one of: {known}"
        elif kind == "missing":
            msg, hint = "required field is missing.", f"add `{loc[-1]}:` to the spec"
        else:
            text = err["msg"].removeprefix("Value error, ")
            msg, hint = f"{text} (got {err.get('input')!r}).", None
        raise SpecError(msg, file=path, line=line, field=field, hint=hint) from None


def _fields_at(model: type[BaseModel], loc: tuple) -> list[str]:
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        info = getattr(current, "model_fields", {}).get(part)
        if info is None:
            return []
        ann = info.annotation
        current = ann if isinstance(ann, type) and issubclass(ann, BaseModel) else None
        if current is None:
            return []
    return list(getattr(current, "model_fields", {}))
