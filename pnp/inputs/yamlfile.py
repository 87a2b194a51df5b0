"""Loading a YAML spec: the YAML 1.2 core-schema safe loader, refusals of hostile values, the line map.

Only the safe loader is used, under YAML 1.2 core-schema rules: ``1:30``, ``yes``, ``on`` and
``2024-01-01`` are strings, only true/false are booleans, ``0o17`` is octal and ``<<`` is an ordinary
key. The file size is checked before the file is read, and the limits of pnp.inputs.yamllimits (depth,
aliases, values) on the event stream before anything is built; duplicate keys and numbers longer than
any spec needs are refused while the data is constructed. Floats that are not finite (``.nan``,
``.inf``, ``1e1000``) load, and pnp.inputs.specfields.validate_model refuses them wherever they are. Every refusal
is a SpecError naming the file and, where there is one, the line as an editor counts it.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..core.errors import SpecError
from .safefile import NotRegular, read_regular, wrong_encoding
from .textcheck import editor_lines, line_of_byte
from .yamllimits import MAX_DEPTH, MAX_NUMBER_CHARS, MAX_SPEC_BYTES, PARSER, Lines, check_limits, short_repr


# ---- the YAML 1.2 core-schema loader -----------------------------------------------------------

_INT_DEC = re.compile(r"[-+]?[0-9]+\Z")
_INT_OCT = re.compile(r"0o[0-7]+\Z")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_FLOAT_INF = re.compile(r"[-+]?(?:\.inf|\.Inf|\.INF)\Z")
_FLOAT_NAN = re.compile(r"(?:\.nan|\.NaN|\.NAN)\Z")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_TAG = "tag:yaml.org,2002:"
MAX_TEXT_BYTES = 16 * 1024 * 1024  # read_text with no limit of its own: no text input pnp takes is larger


class _Refused(yaml.YAMLError):
    """A value the loader refuses (not a syntax error): carries its own message, mark and hint."""

    def __init__(self, message: str, mark: Any, hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.mark, self.hint = message, mark, hint


class _Loader(PARSER):  # type: ignore[misc, valid-type]
    """The safe loader with the YAML 1.2 core schema, no merge keys, and refusals for hostile values."""

    yaml_implicit_resolvers: dict = {}
    yaml_constructors: dict = {}
    lines: Lines | None = None  # load_yaml sets it, so messages can name a second line as an editor counts it

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
        raise _Refused(f"{short_repr(value)} is not an integer.", node.start_mark,
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
            raise _Refused(f"{short_repr(value)} is not a number.", node.start_mark, "write a number such as 12 or 0.5")
        return float(value)

    def construct_core_bool(self, node: ScalarNode) -> bool:
        value = self.construct_scalar(node)
        if value not in _BOOL:
            raise _Refused(f"{short_repr(value)} is not a boolean.", node.start_mark, "write true or false")
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
                raise _Refused(f"duplicate key {short_repr(key)}; it is already on line {line}.", key_node.start_mark,
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

def _line_map(node: yaml.Node, lines: Lines) -> dict[tuple, int]:
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


# ---- reading -------------------------------------------------------------------------------

def read_text(path: Path, what: str = "file", limit: int | None = None) -> str:
    """Read a UTF-8 text file (a byte-order mark is allowed) of at most ``limit`` bytes (default
    MAX_TEXT_BYTES). A FIFO, socket or device is refused without being opened for reading (never waits).

    Raises:
        SpecError: the file is missing, not a regular file, unreadable, larger than ``limit``, UTF-16
            or UTF-32 (named), or not UTF-8 (names the line of the first bad byte).
    """
    cap = MAX_TEXT_BYTES if limit is None else limit

    def too_large(size: int) -> SpecError:
        return SpecError(f"{what} is too large: {size} bytes (limit {cap} bytes).", file=path,
                         hint=f"a {what} is a few KB of text; check you gave the right file")
    try:
        raw = read_regular(path, cap)
    except FileNotFoundError:
        raise SpecError(f"{what} does not exist.", file=path,
                        hint="write the rules beside the spec (`pnp new` makes a rules.md to start from), or set "
                             "rules: to the file's name" if what == "rules file" else
                        "check the path, or run `pnp list` for the built-in games") from None
    except NotRegular as exc:
        raise SpecError(f"{what} is not a file: it is a folder." if exc.kind == "a folder" else
                        f"{what} is not a regular file: {exc.kind}.", file=path,
                        hint="give the path of a text file saved on disk") from None
    except OSError as exc:
        raise SpecError(f"cannot read {what}: {exc.strerror or exc}.", file=path) from None
    if len(raw) > cap:
        raise too_large(path.stat().st_size if path.is_file() else len(raw))
    encoding = wrong_encoding(raw)
    if encoding is not None:
        raise SpecError(f"{what} is {encoding}, not UTF-8.", file=path, line=1,
                        hint="save the file as UTF-8 (in most editors: Save As, encoding UTF-8)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = line_of_byte(raw, exc.start)
        raise SpecError(f"{what} is not UTF-8 (byte 0x{raw[exc.start]:02x}).", file=path, line=line,
                        hint="save the file as UTF-8") from None


def _yaml_error(exc: yaml.YAMLError, path: Path, lines: Lines) -> SpecError:
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
    if "nesting depth" in problem:  # PyYAML >= 6.0.4 refuses deep nesting in its scanner, before check_limits
        return SpecError(f"the file is nested too deeply for the YAML reader (pnp's limit is {MAX_DEPTH} levels).",
                         file=path, line=line, hint="a spec needs a few levels of lists and mappings; look for "
                         "brackets that are never closed or indentation that keeps growing")
    tabbed = line is not None and "\t" in (editor_lines(lines.text)[line - 1:line] or [""])[0]
    hint = "indent with spaces, not tabs (YAML forbids tabs)" if tabbed else \
        "check the indentation and quoting on that line"
    return SpecError(f"malformed YAML: {problem}.", file=path, line=line, hint=hint)


def load_yaml(path: Path, what: str = "spec file") -> tuple[dict, dict[tuple, int]]:
    """Parse a YAML mapping with the safe YAML 1.2 core-schema loader; return (data, line map).

    Limits (MAX_SPEC_BYTES, MAX_DEPTH, MAX_ALIASES, MAX_NODES) are checked on the event stream
    before anything is built; then the node tree is composed and the data constructed from it.
    ``what`` names the file in messages ("spec file", "sheet file").

    Raises:
        SpecError: missing file, bad encoding, a limit passed, malformed YAML, a duplicate key, a number
            that is too long, empty file or not a mapping. (Non-finite floats load; validate_model refuses them.)
    """
    text = read_text(path, what, limit=MAX_SPEC_BYTES)
    lines = Lines(text)
    try:
        check_limits(text, path, lines)
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
        raise SpecError(f"{what} is empty.", file=path, hint="start from a built-in spec: copy specs/<game>/<game>.yaml"
                        if what == "spec file" else "start from a built-in file: copy templates/sheets/a4.yaml")
    if not isinstance(data, dict):
        raise SpecError("spec must be a mapping of field: value.", file=path, line=1)
    return data, _line_map(node, lines)
