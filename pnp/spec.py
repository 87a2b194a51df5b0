"""Loading YAML specs into pydantic models, with errors that name the file, line and field.

YAML is read with the safe loader only, under YAML 1.2 core-schema rules: ``1:30``, ``yes``, ``on``
and ``2024-01-01`` are strings, only true/false are booleans, ``0o17`` is octal and ``<<`` is an
ordinary key. A spec names its game in ``game:``; each game module defines a model derived from
SpecBase, which rejects unknown keys.

Hostile input is refused before it can cost much. The file size is checked before the file is read;
the nesting depth, the number of aliases and the number of values (every use of an alias counts the
whole value it repeats) are checked on the parser's event stream, which is read lazily and abandoned
at the first limit, before any node tree or data is built. Duplicate keys and numbers longer than any
spec needs are refused while the data is constructed; floats that are not finite (``.nan``, ``.inf``,
``1e1000``) load, and validate_model refuses them wherever they are, before the model sees them.
Every refusal is a SpecError naming the file and, where there is one, the line.
"""
from __future__ import annotations

import bisect
import math
import re
from pathlib import Path
from typing import Annotated, Any, TypeVar

import yaml
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .errors import SpecError
from .units import parse_length

MAX_LENGTH_MM = 2000.0  # nothing pnp prints is larger than 2 m; "1km" is a typo, not a board
MIN_LENGTH_MM = 0.01  # a positive length below a hundredth of a millimetre cannot be printed or cut

# Limits on a spec file. The built-in specs are under 3 KB, at most about 100 values and 3 levels deep.
MAX_SPEC_BYTES = 1024 * 1024
MAX_DEPTH = 64  # nested lists / mappings, counting the levels an alias brings with it
MAX_ALIASES = 100  # uses of *name
MAX_NODES = 100_000  # scalars, lists and mappings, with each alias counted as the value it repeats
MAX_NUMBER_CHARS = 100  # characters in one int or float literal


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


def _true_or_false(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {_short(value)}")
    return value


Flag = Annotated[bool, BeforeValidator(_true_or_false)]
"""A switch written true or false only; a plain ``bool`` field would also take "yes", "on", 1 or "t"."""


def Count(lo: int, hi: int) -> Any:  # noqa: N802 - used like a type: `copies: Count(1, 50) = 4`
    """An annotated int type for a count that must be a whole number in lo..hi (both included).

    Accepts an int, or a float with no fractional part (``4.0``); refuses bools, strings, other floats
    and values outside the range with "must be between lo and hi".
    """
    if lo > hi:
        raise ValueError(f"Count({lo}, {hi}): lo must not exceed hi")

    def check(value: Any) -> int:
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"must be a whole number between {lo} and {hi}, got {_short(value)}")
        if not lo <= value <= hi:
            raise ValueError(f"must be between {lo} and {hi}, got {_short(value)}")
        return value

    return Annotated[int, BeforeValidator(check)]


def BoundedFloat(lo: float, hi: float) -> Any:  # noqa: N802 - used like a type: `word_size_pt: BoundedFloat(4, 200)`
    """An annotated float type for a finite plain number in lo..hi (both included), e.g. a size in pt.

    Refuses bools, nan, inf and values outside the range with "must be between lo and hi".
    """
    if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
        raise ValueError(f"BoundedFloat({lo}, {hi}): bounds must be finite with lo <= hi")

    def check(value: float) -> float:
        if not (math.isfinite(value) and lo <= value <= hi):
            raise ValueError(f"must be between {lo:g} and {hi:g}, got {value!r}")
        return value

    return Annotated[float, BeforeValidator(_no_bool), AfterValidator(check)]


class SpecBase(BaseModel):
    """Common header of every game spec. Unknown keys are errors; float fields refuse nan and inf."""
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    game: str
    title: str = ""
    designer: str = ""
    """Who designed the game: printed on the cover and in the PDF's Author."""
    year: int | None = None
    """Year the game was published, for the credit line."""
    rules: str = ""
    """Rules quick-reference file (Markdown) beside the spec; empty means rules/<game>.md."""


M = TypeVar("M", bound=BaseModel)


def _short(value: Any, limit: int = 60) -> str:
    """repr() of a value for a message, cut to ``limit`` characters; huge ints are described, not printed."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # an int inside a container with more digits than Python will print
        text = f"a {type(value).__name__} too large to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---- the YAML 1.2 core-schema loader -----------------------------------------------------------

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present; safe either way
_LIBYAML = _Base is not yaml.SafeLoader  # libyaml reports reader errors at a UTF-8 byte offset

_INT_DEC = re.compile(r"[-+]?[0-9]+\Z")
_INT_OCT = re.compile(r"0o[0-7]+\Z")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_FLOAT_INF = re.compile(r"[-+]?(?:\.inf|\.Inf|\.INF)\Z")
_FLOAT_NAN = re.compile(r"(?:\.nan|\.NaN|\.NAN)\Z")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_TAG = "tag:yaml.org,2002:"


class _Refused(yaml.YAMLError):
    """A value the loader refuses (not a syntax error): carries its own message, mark and hint."""

    def __init__(self, message: str, mark: Any, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.mark, self.hint = message, mark, hint


class _Lines:
    """Line numbers as an editor counts them: 1 + the number of \\n before a character index.

    The YAML readers also count U+2028, U+2029, U+0085 and a lone \\r as line breaks, so their
    ``mark.line`` drifts from what an editor shows; ``mark.index`` (characters) does not.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._breaks = [m.start() for m in re.finditer("\n", text)]

    def at(self, index: int) -> int:
        return bisect.bisect_left(self._breaks, index) + 1

    def of(self, mark: Any) -> int | None:
        return self.at(mark.index) if mark is not None else None

    def at_reader_position(self, position: int) -> int:
        """Line of a ReaderError position: a UTF-8 byte offset from libyaml, a character index otherwise."""
        if _LIBYAML:
            position = len(self.text.encode("utf-8")[:position].decode("utf-8", "ignore"))
        return self.at(position)


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """The safe loader with the YAML 1.2 core schema, no merge keys, and refusals for hostile values."""

    yaml_implicit_resolvers: dict = {}
    yaml_constructors: dict = {}
    lines: _Lines | None = None  # load_yaml sets it, so messages can name a second line as an editor counts it

    def _refuse_number(self, node: ScalarNode, value: str, what: str) -> None:
        if len(value) > MAX_NUMBER_CHARS:
            raise _Refused(f"{what} {value[:20]}... is {len(value)} characters long "
                           f"(limit {MAX_NUMBER_CHARS} characters).", node.start_mark,
                           "no spec value needs a number this long; check for a pasted or runaway value")

    def construct_core_int(self, node: ScalarNode) -> int:
        value = self.construct_scalar(node)
        self._refuse_number(node, value, "integer")
        if _INT_DEC.match(value):
            return int(value)
        if _INT_OCT.match(value):
            return int(value[2:], 8)
        if _INT_HEX.match(value):
            return int(value[2:], 16)
        raise _Refused(f"{_short(value)} is not an integer.", node.start_mark,
                       "write a whole number such as 12, 0o17 or 0x1f")

    def construct_core_float(self, node: ScalarNode) -> float:
        value = self.construct_scalar(node)
        self._refuse_number(node, value, "number")
        # .inf, .nan and 1e1000 load as floats (YAML 1.2 core); validate_model refuses them with their field
        if _FLOAT_INF.match(value):
            return float(value.replace(".", "").lower())
        if _FLOAT_NAN.match(value):
            return math.nan
        if not _FLOAT.match(value):
            raise _Refused(f"{_short(value)} is not a number.", node.start_mark, "write a number such as 12 or 0.5")
        return float(value)

    def construct_core_bool(self, node: ScalarNode) -> bool:
        value = self.construct_scalar(node)
        if value not in _BOOL:
            raise _Refused(f"{_short(value)} is not a boolean.", node.start_mark, "write true or false")
        return _BOOL[value]

    def construct_mapping(self, node: Any, deep: bool = False) -> dict:
        """A mapping, refusing duplicate and unhashable keys (no ``<<`` merging: YAML 1.2 has none)."""
        if not isinstance(node, MappingNode):
            raise ConstructorError(None, None, f"expected a mapping node, but found {node.id}", node.start_mark)
        mapping: dict = {}
        first: dict = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise ConstructorError("while constructing a mapping", node.start_mark,
                                       "found unhashable key", key_node.start_mark) from None
            if key in mapping:
                mark = first[key].start_mark
                line = self.lines.of(mark) if self.lines is not None else mark.line + 1
                raise _Refused(f"duplicate key {_short(key)}; it is already on line {line}.", key_node.start_mark,
                               "a key may appear once in a mapping; remove or merge one of them")
            first[key] = key_node
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping


for _tag, _regexp, _first in (
        ("bool", r"(?:true|True|TRUE|false|False|FALSE)\Z", "tTfF"),
        ("int", r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z", "-+0123456789"),
        ("float", r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                  r"|[-+]?(?:\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN)\Z", "-+0123456789."),
        ("null", r"(?:~|null|Null|NULL|)\Z", ["~", "n", "N", ""])):
    _Loader.add_implicit_resolver(_TAG + _tag, re.compile(_regexp), list(_first))

for _tag, _constructor in (
        ("null", yaml.constructor.SafeConstructor.construct_yaml_null),
        ("bool", _Loader.construct_core_bool),
        ("int", _Loader.construct_core_int),
        ("float", _Loader.construct_core_float),
        ("str", yaml.constructor.SafeConstructor.construct_yaml_str),
        ("seq", yaml.constructor.SafeConstructor.construct_yaml_seq),
        ("map", yaml.constructor.SafeConstructor.construct_yaml_map)):
    _Loader.add_constructor(_TAG + _tag, _constructor)
_Loader.add_constructor(None, yaml.constructor.SafeConstructor.construct_undefined)  # any other tag: error


def _check_limits(text: str, path: Path, lines: _Lines) -> None:
    """Walk the parser's events (no node tree, no data) and refuse the spec at the first limit it passes.

    Depth counts open lists / mappings plus the depth an alias brings; the node count adds, for an alias,
    the size of the whole value it repeats, so a "billion laughs" spec is refused after a few hundred
    events. Both parsers read lazily, so nothing after the refusing event is scanned.

    Raises:
        SpecError: a limit is passed, or an alias refers to a collection that contains it.
        yaml.YAMLError: the text is not well-formed YAML (load_yaml reports it).
    """
    def refuse(message: str, event: Any, hint: str) -> SpecError:
        return SpecError(message, file=path, line=lines.of(event.start_mark), hint=hint)

    loader = _Loader(text)
    try:
        stack: list[list] = []  # open collections: [anchor, size so far, height of the deepest child]
        anchors: dict[str, tuple[int, int] | None] = {}  # anchor -> (size, height); None while still open
        nodes = aliases = 0
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.DocumentStartEvent):
                anchors = {}
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                anchor, size, height = stack.pop()
                height += 1
                if anchor is not None:
                    anchors[anchor] = (size, height)
            elif isinstance(event, yaml.CollectionStartEvent):
                nodes += 1
                if len(stack) + 1 > MAX_DEPTH:
                    raise refuse(f"the spec is nested more than {MAX_DEPTH} levels deep (limit {MAX_DEPTH}).", event,
                                 "a spec needs a few levels of lists and mappings; look for brackets that are "
                                 "never closed or indentation that keeps growing")
                if nodes > MAX_NODES:
                    raise refuse(f"the spec holds more than {MAX_NODES} values (limit {MAX_NODES}).", event,
                                 "a spec needs a few hundred values; check you gave the right file")
                stack.append([event.anchor, 1, 0])
                if event.anchor is not None:
                    anchors[event.anchor] = None
                continue
            elif isinstance(event, yaml.AliasEvent):
                aliases += 1
                name = _short(event.anchor, 40).strip("'\"")
                if aliases > MAX_ALIASES:
                    raise refuse(f"the spec uses more than {MAX_ALIASES} aliases (limit {MAX_ALIASES}).", event,
                                 "write the values out instead of repeating them with *aliases")
                if event.anchor in anchors and anchors[event.anchor] is None:
                    raise refuse(f"alias *{name} refers to a list or mapping that contains it.", event,
                                 "an alias must repeat an earlier, complete value")
                size, height = anchors.get(event.anchor) or (1, 0)  # an unknown anchor: the composer reports it
                nodes += size
                if len(stack) + height > MAX_DEPTH:
                    raise refuse(f"the spec is nested more than {MAX_DEPTH} levels deep once alias *{name} is "
                                 f"expanded (limit {MAX_DEPTH}).", event,
                                 "write the values out instead of nesting aliases inside aliases")
                if nodes > MAX_NODES:
                    raise refuse(f"the spec holds more than {MAX_NODES} values once alias *{name} is expanded "
                                 f"(limit {MAX_NODES}).", event,
                                 "each *alias counts as the whole value it repeats; write the values out "
                                 "instead of nesting aliases inside aliases")
            elif isinstance(event, yaml.ScalarEvent):
                nodes += 1
                size, height = 1, 0
                if nodes > MAX_NODES:
                    raise refuse(f"the spec holds more than {MAX_NODES} values (limit {MAX_NODES}).", event,
                                 "a spec needs a few hundred values; check you gave the right file")
                if event.anchor is not None:
                    anchors[event.anchor] = (size, height)
            else:
                continue
            if stack:  # add the finished node (scalar, alias or collection) to its parent
                stack[-1][1] += size
                stack[-1][2] = max(stack[-1][2], height)
    finally:
        loader.dispose()


def _line_map(node: yaml.Node, lines: _Lines) -> dict[tuple, int]:
    """Map each key path (as tuples of keys / indexes) to its 1-based line in the YAML source.

    Iterative, in document order, and each collection node is entered once: a later alias of it gets
    the line of the value it repeats (the anchor's) and is not expanded.
    """
    out: dict[tuple, int] = {}
    seen: set[int] = set()
    stack: list[tuple[tuple, yaml.Node]] = [((), node)]
    while stack:
        path, current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        children: list[tuple[tuple, yaml.Node]] = []
        if isinstance(current, MappingNode):
            for key_node, value_node in current.value:
                if not isinstance(key_node, ScalarNode):
                    continue  # complex keys are refused when the data is constructed
                child = path + (key_node.value,)
                out.setdefault(child, lines.of(key_node.start_mark))
                children.append((child, value_node))
        elif isinstance(current, SequenceNode):
            for i, item in enumerate(current.value):
                child = path + (i,)
                out.setdefault(child, lines.of(item.start_mark))
                children.append((child, item))
        stack.extend(c for c in reversed(children) if isinstance(c[1], (MappingNode, SequenceNode)))
    return out


# ---- reading and validating --------------------------------------------------------------------

def read_text(path: Path, what: str = "file", limit: int | None = None) -> str:
    """Read a UTF-8 text file (a byte-order mark is allowed) of at most ``limit`` bytes.

    Raises:
        SpecError: the file is missing, unreadable, larger than ``limit``, or not UTF-8.
    """
    if not path.exists():
        raise SpecError(f"{what} does not exist.", file=path, hint="check the path, or run `pnp list` for the built-in games")
    if not path.is_file():
        raise SpecError(f"{what} is not a file.", file=path)

    def too_large(size: int) -> SpecError:
        return SpecError(f"{what} is too large: {size} bytes (limit {limit} bytes).", file=path,
                         hint="a spec is a few KB of text; check you gave the right file")
    try:
        if limit is not None and path.stat().st_size > limit:
            raise too_large(path.stat().st_size)
        with path.open("rb") as fh:
            raw = fh.read(limit + 1) if limit is not None else fh.read()
    except OSError as exc:
        raise SpecError(f"cannot read {what}: {exc.strerror}.", file=path) from None
    if limit is not None and len(raw) > limit:
        raise too_large(len(raw))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SpecError(f"{what} is not UTF-8 (byte 0x{raw[exc.start]:02x}).", file=path, line=line,
                        hint="save the file as UTF-8") from None


def _yaml_error(exc: yaml.YAMLError, path: Path, lines: _Lines) -> SpecError:
    """A SpecError for a YAML syntax error, a reader error or a refused value, with an editor's line."""
    if isinstance(exc, _Refused):
        return SpecError(exc.message, file=path, line=lines.of(exc.mark), hint=exc.hint)
    if isinstance(exc, yaml.reader.ReaderError):
        char = exc.character if isinstance(exc.character, int) else ord(exc.character[:1] or "\0")
        return SpecError(f"the file contains the control character U+{char:04X}, which YAML does not allow.",
                         file=path, line=lines.at_reader_position(exc.position),
                         hint="delete it; a form feed or other control character often comes from copy and paste")
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = lines.of(mark)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    tabbed = line is not None and "\t" in (lines.text.split("\n")[line - 1:line] or [""])[0]
    hint = "indent with spaces, not tabs (YAML forbids tabs)" if tabbed else \
        "check the indentation and quoting on that line"
    return SpecError(f"malformed YAML: {problem}.", file=path, line=line, hint=hint)


def load_yaml(path: Path) -> tuple[dict, dict[tuple, int]]:
    """Parse a YAML mapping with the safe YAML 1.2 core-schema loader; return (data, line map).

    Limits (MAX_SPEC_BYTES, MAX_DEPTH, MAX_ALIASES, MAX_NODES) are checked on the event stream
    before anything is built; then the node tree is composed and the data constructed from it.

    Raises:
        SpecError: missing file, bad encoding, a limit passed, malformed YAML, a duplicate key, a number
            that is too long, empty file or not a mapping. (Non-finite floats load; validate_model refuses them.)
    """
    text = read_text(path, "spec file", limit=MAX_SPEC_BYTES)
    lines = _Lines(text)
    try:
        _check_limits(text, path, lines)
        loader = _Loader(text)
        loader.lines = lines
        try:  # compose the node tree (for line numbers), then construct the data from it
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, path, lines) from None
    if node is None or data is None:
        raise SpecError("spec file is empty.", file=path, hint="start from a built-in spec: copy specs/<game>.yaml")
    if not isinstance(data, dict):
        raise SpecError("spec must be a mapping of field: value.", file=path, line=1)
    return data, _line_map(node, lines)


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
            msg, hint = f"{text} (got {_short(err.get('input'), 300)}).", None
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
