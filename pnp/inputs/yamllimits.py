"""Limits on a spec's YAML, checked on the parser's event stream before any node tree or data is built.

The nesting depth, the number of aliases and the number of values (every use of an alias counts the
whole value it repeats) are counted while the parser's events are read lazily; the walk stops at the
first limit passed, so a "billion laughs" or a 100,000-bracket spec costs a few hundred events. Also
here: line numbers as an editor counts them (Lines), and short_repr for quoting values in messages.
The loader itself is pnp.inputs.yamlfile.
"""
from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import SpecError

# Limits on a spec file. The built-in specs are under 3 KB, at most about 100 values and 3 levels deep.
MAX_SPEC_BYTES = 1024 * 1024
MAX_DEPTH = 64  # nested lists / mappings, counting the levels an alias brings with it
MAX_ALIASES = 100  # uses of *name
MAX_NODES = 100_000  # scalars, lists and mappings, with each alias counted as the value it repeats
MAX_NUMBER_CHARS = 100  # characters in one int or float literal

PARSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present; safe either way
LIBYAML = PARSER is not yaml.SafeLoader  # libyaml reports reader errors at a UTF-8 byte offset


def short_repr(value: Any, limit: int = 60) -> str:
    """repr() of a value for a message, cut to ``limit`` characters; huge ints are described, not printed."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except ValueError:  # an int inside a container with more digits than Python will print
        text = f"a {type(value).__name__} too large to print"
    return text if len(text) <= limit else text[: limit - 3] + "..."



class Lines:
    """Line numbers as an editor counts them: 1 + the number of line ends (\\n, \\r\\n or a lone
    \\r, as pnp.inputs.textcheck.editor_lines splits) before a character index.

    The YAML readers also count U+2028, U+2029 and U+0085 as line breaks, so their ``mark.line``
    drifts from what an editor shows; ``mark.index`` (characters) does not.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._breaks = [m.end() - 1 for m in re.finditer("\r\n|\r|\n", text)]

    def at(self, index: int) -> int:
        return bisect.bisect_left(self._breaks, index) + 1

    def of(self, mark: Any) -> int | None:
        return self.at(mark.index) if mark is not None else None

    def at_reader_position(self, position: int) -> int:
        """Line of a ReaderError position: a UTF-8 byte offset from libyaml, a character index otherwise."""
        if LIBYAML:
            position = len(self.text.encode("utf-8")[:position].decode("utf-8", "ignore"))
        return self.at(position)



def check_limits(text: str, path: Path, lines: Lines) -> None:
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

    loader = PARSER(text)  # events only: no resolver or constructor runs
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
                name = short_repr(event.anchor, 40).strip("'\"")
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
