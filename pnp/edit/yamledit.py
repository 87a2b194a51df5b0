"""Round-trip edits of a template file's ``layers:``: the file stays the one a person wrote.

Each edit (a layer's fields set or removed, a layer added, deleted or moved) is made on the file's
text with ruamel.yaml (MIT): the file is read round-trip (comments, key order and quoting kept),
the one layer changed in that tree, and only that layer's lines are replaced in the text by the
layer as ruamel writes it again (in the style it had: ``- {type: rect, ...}`` stays one flow
mapping, a block mapping stays a block). Every other line, its comments, blank lines and
wrapping, is kept byte for byte. The spliced text is read back and compared with the edited tree;
should they differ (a layout the splice does not understand, such as ``layers: [...]`` written as
one flow list), the whole tree is written by ruamel instead, which still keeps every comment and
the key order but may re-wrap long lines.

Layers are numbered from 0 here (``layers[index]``); the editor's labels number them from 1, as
pnp's messages do.
"""
from __future__ import annotations

import copy
import io
from typing import Any

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from ..core.errors import SpecError

WIDTH = 110          # the line width `pnp new` writes its templates at (pnp.custom.scaffold)
DELETE = object()    # a field value that removes the key
DECIMALS = 2         # mm written to 0.01 mm


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = WIDTH
    return y


def _load(text: str, name: str):
    try:
        doc = _yaml().load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SpecError(f"{name} is not valid YAML: {getattr(exc, 'problem', None) or exc}.", file=name,
                        line=mark.line + 1 if mark else None, hint="fix the file by hand, then edit again") from None
    if not isinstance(doc, CommentedMap):
        doc = CommentedMap()
    return doc


def _layers(doc: CommentedMap, name: str) -> CommentedSeq:
    seq = doc.get("layers")
    if seq is None:
        seq = doc["layers"] = CommentedSeq()
    if not isinstance(seq, CommentedSeq):
        raise SpecError(f"{name}: layers: is not a list.", file=name, field="layers", hint="write layers: as a list")
    return seq


LOADER = getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)  # libyaml's, where PyYAML was built with it


def safe_load(text: str) -> Any:
    """``text`` read as plain YAML data (PyYAML's safe loader)."""
    return pyyaml.load(text, Loader=LOADER)


def _plain(node: Any) -> Any:
    """The data of a ruamel node as plain Python (for comparing two texts' meaning)."""
    if isinstance(node, dict):
        return {_plain(k): _plain(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    for kind in (int, float, str):
        if isinstance(node, kind):
            return kind(node)
    return node


def _eol_only(node: Any) -> None:
    """Keep only the end-of-line part of the comments in ``node`` (recursively): the comment lines
    that follow the last key belong to the text after the layer, which the splice keeps as it is."""
    if isinstance(node, (CommentedMap, CommentedSeq)):
        for slot in list(node.ca.items.values()):
            for i, token in enumerate(slot):
                if token is not None and hasattr(token, "value") and "\n" in token.value:
                    first = token.value.split("\n", 1)[0]
                    slot[i] = copy.copy(token)
                    slot[i]._value = first + "\n" if first.strip() else "\n"
        node.ca.comment = None
        for child in (node.values() if isinstance(node, CommentedMap) else node):
            _eol_only(child)


def _item_text(item: Any, eol: Any, indent: int) -> list[str]:
    """The lines of ``- item`` indented ``indent`` columns (its dash's column): a flow mapping as
    `pnp new` writes one (PyYAML at WIDTH, wrapped between fields), a block mapping by ruamel (its
    end-of-line comments kept)."""
    pad = " " * indent
    if isinstance(item, CommentedMap) and item.fa.flow_style() and eol is None:
        text = pyyaml.safe_dump(_plain(item), sort_keys=False, allow_unicode=True, default_flow_style=True,
                                width=WIDTH - indent - 2)
        return [pad + ("- " if i == 0 else "") + line.rstrip() + "\n" for i, line in enumerate(text.splitlines())]
    item = copy.deepcopy(item)
    _eol_only(item)
    seq = CommentedSeq([item])
    if eol is not None:
        seq.ca.items[0] = copy.deepcopy(eol)
        _eol_only(seq)
    buf = io.StringIO()
    _yaml().dump(seq, buf)
    return [pad + line.rstrip() + "\n" for line in buf.getvalue().splitlines()]


class LayerText:
    """A template file's text and its round-trip tree: ``text`` (str), ``doc`` (the ruamel tree),
    ``layers`` (its layers list) and each layer's lines, [start, end) line numbers of the text
    (``spans``; None when the layout is one the splice does not follow)."""

    def __init__(self, text: str, name: str = "template") -> None:
        self.text, self.name = text, name
        self.doc = _load(text, name)
        self.layers = _layers(self.doc, name)
        self.lines = text.splitlines(keepends=True)
        if self.lines and not self.lines[-1].endswith("\n"):
            self.lines[-1] += "\n"
        self.spans = self._spans()

    def _spans(self) -> list[tuple[int, int, int]] | None:
        """(first line, end line, dash column) of each layer, trailing blank and comment lines left out."""
        seq = self.layers
        if not len(seq) or seq.fa.flow_style():
            return None if len(seq) else []
        starts = []
        for i in range(len(seq)):
            line, col = seq.lc.item(i)
            text = self.lines[line] if line < len(self.lines) else ""
            dash = text.rfind("-", 0, col)
            if dash < 0 or text[:dash].strip():
                return None
            starts.append((line, dash))
        later = [self.doc.lc.key(k)[0] for k in self.doc if self.doc.lc.key(k)[0] > starts[-1][0]]
        limit = min(later) if later else len(self.lines)
        out = []
        for i, (line, dash) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else limit
            while end > line + 1 and (not self.lines[end - 1].strip() or self.lines[end - 1].lstrip().startswith("#")):
                end -= 1
            out.append((line, end, dash))
        return out

    def _result(self, lines: list[str] | None) -> str:
        """The spliced ``lines`` when they read back as the edited tree, else the whole tree written by ruamel."""
        want = _plain(self.doc)
        if lines is not None:
            text = "".join(lines)
            try:
                if safe_load(text) == want:
                    return text
            except pyyaml.YAMLError:
                pass
        buf = io.StringIO()
        _yaml().dump(self.doc, buf)
        return buf.getvalue()

    def _check(self, index: int, last: int | None = None) -> None:
        top = len(self.layers) if last is None else last
        if not 0 <= index < top:
            raise SpecError(f"{self.name} has no layer {index + 1} (it has {len(self.layers)}).", file=self.name,
                            field="layers", hint="reload the editor: the file changed")

    def set_fields(self, index: int, fields: dict[str, Any]) -> str:
        """The text with layer ``index``'s ``fields`` set (a new key goes after the others; DELETE removes one)."""
        self._check(index)
        item = self.layers[index]
        if not isinstance(item, CommentedMap):
            raise SpecError(f"{self.name}: layer {index + 1} is not a mapping.", file=self.name,
                            field=f"layers.{index}", hint="write the layer as type: ... with its fields")
        for k, v in fields.items():
            if v is DELETE:
                item.pop(k, None)
            else:
                item[k] = v
        return self._replace(index, item)

    def _replace(self, index: int, item) -> str:
        if self.spans is None:
            return self._result(None)
        start, end, dash = self.spans[index]
        new = _item_text(item, self.layers.ca.items.get(index), dash)
        return self._result(self.lines[:start] + new + self.lines[end:])

    def insert(self, index: int, layer: dict, flow: bool | None = None) -> str:
        """The text with ``layer`` inserted as layer ``index`` (0 .. the number of layers), written in the
        style of its neighbours unless ``flow`` says."""
        self._check(index, len(self.layers) + 1)
        item = CommentedMap(layer)
        spans = self.spans
        near = self.layers[min(index, len(self.layers) - 1)] if len(self.layers) else None
        if flow is None:
            flow = near.fa.flow_style() if isinstance(near, CommentedMap) else True
        if flow:
            item.fa.set_flow_style()
        else:
            item.fa.set_block_style()
        self.layers.insert(index, item)
        if not spans:  # an empty list or one the splice does not follow
            return self._result(None)
        at = spans[index - 1][1] if index else spans[0][0]
        dash = spans[min(index, len(spans) - 1)][2]
        return self._result(self.lines[:at] + _item_text(item, None, dash) + self.lines[at:])

    def delete(self, index: int) -> str:
        """The text without layer ``index`` (its lines; comment lines above and below it stay)."""
        self._check(index)
        del self.layers[index]
        if self.spans is None:
            return self._result(None)
        start, end, _ = self.spans[index]
        return self._result(self.lines[:start] + self.lines[end:])

    def move(self, index: int, to: int) -> str:
        """The text with layer ``index`` moved to position ``to`` (its own lines moved as written)."""
        self._check(index)
        self._check(to)
        if index == to:
            return self.text
        item = self.layers.pop(index)
        self.layers.insert(to, item)
        if self.spans is None:
            return self._result(None)
        start, end, _ = self.spans[index]
        block = self.lines[start:end]
        rest = self.lines[:start] + self.lines[end:]
        spans = [(s - (end - start) if s >= end else s, e - (end - start) if e >= end else e, d)
                 for i, (s, e, d) in enumerate(self.spans) if i != index]
        at = spans[to - 1][1] if to else spans[0][0]
        return self._result(rest[:at] + block + rest[at:])

    def layer(self, index: int) -> dict:
        """Layer ``index`` as plain data (what the file says, nothing inherited)."""
        self._check(index)
        return _plain(self.layers[index])

    def set_include(self, old: str, new: str) -> str:
        """The text with the include ``old`` renamed ``new`` (a shared template copied into the folder)."""
        inc = self.doc.get("include")
        if not isinstance(inc, CommentedSeq) or old not in inc:
            raise SpecError(f"{self.name} does not include {old}.", file=self.name, field="include",
                            hint="reload the editor: the file changed")
        inc[inc.index(old)] = new
        line, col = self.doc.lc.key("include")
        text = self.lines[line]
        if text.count(old) == 1:  # include: [shared/x.yaml] on one line: the name replaced where it stands
            return self._result(self.lines[:line] + [text.replace(old, new)] + self.lines[line + 1:])
        return self._result(None)


def mm_value(mm: float, old: Any, ref: float) -> Any:
    """A length of ``mm`` written as the field's old value was: a percentage of ``ref`` mm ("12.5%"),
    "Xmm", or a plain number (mm), to 0.01 mm (0.01 %)."""
    if isinstance(old, str) and old.strip().endswith("%") and ref > 0:
        return f"{round(mm / ref * 100, DECIMALS):g}%"
    if isinstance(old, str) and old.strip().endswith("mm"):
        return f"{round(mm, DECIMALS):g}mm"
    value = round(mm, DECIMALS)
    return int(value) if value == int(value) and not isinstance(old, float) else value
