"""Spec models: the field types of every spec (lengths, colours, counts, switches), SpecBase and
validate_model, which turns the first problem into a SpecError naming the file, line and field.

A spec names its game in ``game:``; each game module defines a model derived from SpecBase, and every
model nested in a spec derives from SpecModel: both reject unknown keys and nan / inf in float fields.
Loading the YAML (safe loader, YAML 1.2 core schema, hostile-input limits) is pnp.inputs.yamlfile; its names
are re-exported here, so ``from pnp.inputs.specfields import load_yaml, read_text, validate_model`` keeps working.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from ..core.errors import SpecError
from ..core.units import parse_length
from .yamllimits import MAX_ALIASES, MAX_DEPTH, MAX_NODES, MAX_NUMBER_CHARS, MAX_SPEC_BYTES
from .yamllimits import short_repr as _short
from .yamlfile import load_yaml, read_text
from .textcheck import (COVER_CREDIT_PT, COVER_TITLE_PT, MAX_DESIGNER_CHARS, MAX_TITLE_CHARS, credit_line,
                        text_problem, title_line)

__all__ = ["MAX_ALIASES", "MAX_DEPTH", "MAX_LENGTH_MM", "MAX_NODES", "MAX_NUMBER_CHARS", "MAX_SPEC_BYTES",
           "MIN_LENGTH_MM", "BoundedFloat", "BoundedLength", "Bounds", "Colour", "Count", "FieldError", "FiniteFloat", "Flag", "Items",
           "Length", "OptionalLength", "SpecBase", "SpecModel", "load_yaml", "read_text", "validate_model"]

MAX_LENGTH_MM = 2000.0  # nothing pnp prints is larger than 2 m; "1km" is a typo, not a board
MIN_LENGTH_MM = 0.01  # a positive length below a hundredth of a millimetre cannot be printed or cut


# ---- field types -------------------------------------------------------------------------------

def _positive_length(mm: float) -> float:
    if not math.isfinite(mm):
        raise ValueError(f"must be a finite length, got {mm!r}")
    if mm <= 0:
        raise ValueError(f"must be greater than zero, got {mm:g} mm")
    if mm < MIN_LENGTH_MM:
        raise ValueError(f"{mm:g} mm is too small to print (at least {MIN_LENGTH_MM:g} mm)")
    if mm > MAX_LENGTH_MM:
        raise ValueError(f"{mm:g} mm is absurdly large (limit {MAX_LENGTH_MM:g} mm)")
    return mm


def _non_negative_length(mm: float) -> float:
    if not math.isfinite(mm):
        raise ValueError(f"must be a finite length, got {mm!r}")
    if mm < 0:
        raise ValueError(f"must not be negative, got {mm:g} mm")
    if mm > MAX_LENGTH_MM:
        raise ValueError(f"{mm:g} mm is absurdly large (limit {MAX_LENGTH_MM:g} mm)")
    return mm


def _hex_colour(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", value.strip()):
        raise ValueError(f"{_short(value)} is not a colour; write it as #rrggbb, e.g. #d55e00")
    return value.strip().lower()


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got {value!r}")
    return value


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError(f"must be a finite number, got {value!r}")
    return value


Length = Annotated[float, BeforeValidator(parse_length), AfterValidator(_positive_length)]
"""A length in mm, written 30, "30mm", "1.2in" or "18pt"; finite, at least 0.01 mm and at most 2 m."""
OptionalLength = Annotated[float, BeforeValidator(parse_length), AfterValidator(_non_negative_length)]
"""A length in mm that may be zero; finite and at most 2 m."""
Colour = Annotated[str, BeforeValidator(_hex_colour)]
"""A colour written #rrggbb."""
FiniteFloat = Annotated[float, BeforeValidator(_no_bool), AfterValidator(_finite)]
"""A plain number (not a length) that must be finite: no nan, inf or true/false."""


class FieldError(ValueError):
    """A field validator's refusal with a ``hint``, which validate_model prints after "Fix:". The value
    refused is quoted after the message unless ``quote`` is False (a long list says only its length)."""

    def __init__(self, message: str, hint: str | None = None, quote: bool = True) -> None:
        super().__init__(message)
        self.hint, self.quote = hint, quote


@dataclass(frozen=True)
class Bounds:
    """Metadata on a Count, BoundedFloat or Items type: the range lo..hi it accepts (read by tests)."""
    lo: float
    hi: float


def _true_or_false(value: Any) -> bool:
    if not isinstance(value, bool):
        raise FieldError(f"must be true or false, got {_short(value)}",
                         "write true or false (yes, on, 1 and quoted words are not switches in a spec)")
    return value


Flag = Annotated[bool, BeforeValidator(_true_or_false)]
"""A switch written true or false only; a plain ``bool`` field would also take "yes", "on", 1 or "t"."""


def Count(lo: int, hi: int, hint: str | None = None) -> Any:  # noqa: N802 - used like a type: `copies: Count(1, 50) = 4`
    """An annotated int type for a count that must be a whole number in lo..hi (both included).

    Accepts an int, or a float with no fractional part (``4.0``); refuses bools, strings, other floats
    and values outside the range with "must be between lo and hi". ``hint`` says why the range is
    what it is (default: the range again).
    """
    if lo > hi:
        raise ValueError(f"Count({lo}, {hi}): lo must not exceed hi")
    fix = hint or f"write a whole number from {lo} to {hi}"

    def check(value: Any) -> int:
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise FieldError(f"must be a whole number between {lo} and {hi}, got {_short(value)}", fix)
        if not lo <= value <= hi:
            raise FieldError(f"must be between {lo} and {hi}, got {_short(value)}", fix)
        return value

    return Annotated[int, BeforeValidator(check), Bounds(lo, hi)]


def _in_range(lo: float, hi: float, fix: str, unit: str = "") -> Any:
    """An AfterValidator: a finite value in lo..hi, else a FieldError "must be between lo and hi"."""
    def check(value: float) -> float:
        if not (math.isfinite(value) and lo <= value <= hi):
            raise FieldError(f"must be between {lo:g}{unit} and {hi:g}{unit}, got {value:g}{unit}", fix)
        return value
    return check


def BoundedLength(lo: float, hi: float, hint: str | None = None) -> Any:  # noqa: N802 - used like a type
    """An annotated float type for a length in mm (written as :data:`Length` is: 0.3, "0.3mm",
    "12pt") in lo..hi mm (both included), e.g. a card's thickness.

    Refuses what Length refuses and values outside the range with "must be between lo and hi mm".
    """
    if not (math.isfinite(lo) and math.isfinite(hi) and 0 < lo <= hi):
        raise ValueError(f"BoundedLength({lo}, {hi}): bounds must be finite with 0 < lo <= hi")
    check = _in_range(lo, hi, hint or f"write a length from {lo:g} mm to {hi:g} mm", " mm")
    return Annotated[float, BeforeValidator(parse_length), AfterValidator(check), Bounds(lo, hi)]


def BoundedFloat(lo: float, hi: float, hint: str | None = None) -> Any:  # noqa: N802 - used like a type
    """An annotated float type for a finite plain number in lo..hi (both included), e.g. a size in pt.

    Refuses bools, nan, inf and values outside the range with "must be between lo and hi".
    """
    if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
        raise ValueError(f"BoundedFloat({lo}, {hi}): bounds must be finite with lo <= hi")
    check = _in_range(lo, hi, hint or f"write a number from {lo:g} to {hi:g}")
    return Annotated[float, BeforeValidator(_no_bool), AfterValidator(check), Bounds(lo, hi)]


def Items(kind: Any, lo: int, hi: int, hint: str | None = None) -> Any:  # noqa: N802 - used like a type
    """``kind`` (a list, tuple or mapping type) holding lo..hi items, checked before the items are.

    ``Items(tuple[NodeSpec, ...], 1, 1000)`` refuses an empty list and a list of 1001 with
    "holds 1,001 items; it must hold between 1 and 1,000" and ``hint``.
    """
    fix = hint or f"give {lo} to {hi} items"

    def check(value: Any) -> Any:
        if isinstance(value, (list, tuple, dict)) and not lo <= len(value) <= hi:
            raise FieldError(f"holds {len(value):,} items; it must hold between {lo} and {hi:,}", fix, quote=False)
        return value

    return Annotated[kind, BeforeValidator(check), Bounds(lo, hi)]


class SpecModel(BaseModel):
    """Base of every model read from a spec or sheet file, nested ones included: unknown keys are
    errors, instances are frozen, and float fields refuse nan and inf (also written "nan" in quotes).
    A model's validator is built when it first validates (``defer_build``): a process builds only the
    models of the files it reads, not every model pnp defines (about a third of a cold start's imports)."""
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True)


def _cover_text(what: str, max_chars: int, size_pt: float, printed, bold: bool = False):
    """A validator for a one-line text of the cover (see pnp.inputs.textcheck)."""
    def check(value: str) -> str:
        if value:
            problem = text_problem(value, what, max_chars, size_pt, printed(value), bold)
            if problem:
                raise FieldError(problem, f"keep the {what} to one short line of plain text in Latin, Greek or Cyrillic letters",
                                 quote=False)
        return value
    return check


CoverTitle = Annotated[str, AfterValidator(_cover_text("title", MAX_TITLE_CHARS, COVER_TITLE_PT, title_line, True))]
"""The game's title as the cover prints it: one line at 20 pt bold on A4, no control characters,
every glyph in the font; at most MAX_TITLE_CHARS characters."""
Designer = Annotated[str, AfterValidator(_cover_text("designer", MAX_DESIGNER_CHARS, COVER_CREDIT_PT,
                                                     lambda d: credit_line(d, 9999, traditional=True)))]
"""Who designed the game, as the cover's credit line prints it (11 pt, one line), measured in its longest
form: "a traditional game, arranged by NAME (year)"."""


class SpecBase(SpecModel):
    """Common header of every game spec (a SpecModel)."""
    game: str
    title: CoverTitle = ""
    designer: Designer = ""
    """Who designed the game: printed on the cover and in the PDF's Author."""
    year: Count(1, 9999, "write the year the game was published, e.g. 2011, or leave it out") | None = None
    """Year the game was published, for the credit line."""
    traditional: Flag = False
    """A traditional game (no designer's rights): the cover says "a traditional game, in the public
    domain" (or "..., arranged by DESIGNER") instead of "designed by"."""
    rules: str = ""
    """Rules quick-reference file (Markdown) beside the spec; empty means rules.md. For a spec of one
    of pnp's own games whose folder lacks the file, the game's own folder's (specs/<game>/)."""


M = TypeVar("M", bound=BaseModel)


# ---- validating ------------------------------------------------------------------------------

def validate_model(model: type[M], data: dict, path: Path, lines: dict[tuple, int]) -> M:
    """Validate ``data`` against ``model``; the first problem becomes a SpecError with its line.

    Raises:
        SpecError: a float anywhere in ``data`` that is nan or infinite, unknown key, wrong type,
            missing field, bad length or colour.
    """
    bad = _non_finite(data)
    if bad is not None:
        loc, value = bad
        field = ".".join(str(p) for p in loc) or None
        raise SpecError(f"{field or 'a key'} is not a finite number (it reads as {value!r}); every number in a "
                        f"spec must be finite.", file=path, line=_line_at(loc, lines), field=field,
                        hint="write an ordinary number: .inf, .nan and numbers beyond about 1e308 are refused")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        field = ".".join(str(p) for p in loc) or None
        line = _line_at(loc, lines)
        kind = err["type"]
        if kind == "extra_forbidden":
            known = ", ".join(sorted(_fields_at(model, loc[:-1])))
            msg, hint = f"unknown key {_short(loc[-1])}.", f"remove it or use one of: {known}"
        elif kind == "missing":
            msg, hint = "required field is missing.", f"add `{loc[-1]}:` to the spec"
        else:
            text = err["msg"].removeprefix("Value error, ")
            cause = (err.get("ctx") or {}).get("error")
            hint = getattr(cause, "hint", None)
            if kind == "finite_number":
                hint = "write an ordinary number: nan and inf (quoted or not) are refused"
            got = _short(err.get("input"), 300)
            quote = not isinstance(cause, FieldError) or (cause.quote and not text.endswith(f"got {got}"))
            msg = f"{text} (got {got})." if quote else f"{text}."
        raise SpecError(msg, file=path, line=line, field=field, hint=hint) from None


def _line_at(loc: tuple, lines: dict[tuple, int]) -> int | None:
    """The line of the longest prefix of ``loc`` that the line map knows."""
    for n in range(len(loc), 0, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None


def _non_finite(data: Any) -> tuple[tuple, float] | None:
    """(key path, value) of the first float in ``data`` (values or keys) that is nan or infinite, else None.

    Iterative; a list or mapping repeated by an alias is looked at once.
    """
    seen: set[int] = set()
    stack: list[tuple[tuple, Any]] = [((), data)]
    while stack:
        loc, value = stack.pop()
        if isinstance(value, float):
            if not math.isfinite(value):
                return loc, value
        elif isinstance(value, (dict, list)) and id(value) not in seen:
            seen.add(id(value))
            items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
            for key, item in reversed(items):
                if isinstance(key, float) and not math.isfinite(key):
                    return loc + (key,), key
                stack.append((loc + (key,), item))
    return None


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
