"""The editor's writes: each edit checked, written in place atomically inside the game folder, undoable.

An edit names a template by its path inside the game folder (``front.yaml``) and a layer by its
0-based index there. Before anything is written:

* the name passes pnp's one rule for files a game folder names (pnp.inputs.gamefolder.inside: no
  absolute path, no ``..``, no symlink leading out, a regular .yaml/.yml file under the template
  size bound) and must be a template the deck itself reads (so no other file of the folder, such
  as the spec or the data, is ever rewritten);
* the new text is read back and its layers validated as a build would (pnp.custom.template's
  models, an ``extends:`` layer with what it inherits), so a bad value is refused naming the field.

The text is written with pnp.core.safepath.write_atomic below the folder (no symlink followed on the
way; readers see the old file or the new one). A layer of one of pnp's shared templates is never
written: :meth:`Session.copy_shared` first copies that template into the folder under the same name
(``shared/card-back.yaml``), which the template's include then finds before pnp's own (the rule of
pnp.custom.template.resolve). Undo and redo step through every write of the session; one whose file
was changed outside the editor since is refused rather than overwriting that change.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml as pyyaml

from ..core.errors import PnpError, SpecError
from ..core.safepath import open_read, read_fd, write_atomic
from ..custom.template import LAYER_TYPES, MAX_TEMPLATE_BYTES, _TemplateFile, shipped_dir
from ..inputs.gamefolder import inside, name_problem, within
from ..inputs.specfields import validate_model
from .card import Deck
from .yamledit import DELETE, LayerText, mm_value, safe_load

@dataclass(frozen=True)
class Write:
    """One file's text before and after an edit (``before`` None: the edit made the file)."""
    rel: str
    before: str | None
    after: str


class Session:
    """The edits of one `pnp edit` run on ``deck``: ``done`` (undo stack) and ``undone`` (redo stack),
    each a list of writes made together. Thread-safe: one edit at a time."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.done: list[tuple[str, list[Write]]] = []
        self.undone: list[tuple[str, list[Write]]] = []
        self._lock = threading.Lock()

    # -- files -----------------------------------------------------------------------------------
    def template(self, name: str) -> str:
        """``name`` as the path of a template of the deck inside the game folder (its real path
        relative to the folder).

        Raises:
            SpecError: a name the confinement rule refuses, a file that is not .yaml, or one the deck
                does not read as a template; a shared template (copy it into the folder first).
        """
        if not isinstance(name, str) or not name.lower().endswith((".yaml", ".yml")):
            raise SpecError(f"{name!r} is not a template file (.yaml).", field="file",
                            hint="edit a layer of one of the deck's templates")
        root = self.deck.root
        if name.startswith("shared/") and not os.path.lexists(root / name) and name_problem(name) is None \
                and os.path.isfile(shipped_dir() / name):
            raise SpecError(f"{name} is one of pnp's shared templates (other games print it too).", field="file",
                            hint="copy it into the game folder first")
        real = inside(name, root, what="template", field="file", limit=MAX_TEMPLATE_BYTES)
        rel = Path(os.path.relpath(real, root)).as_posix()
        if rel not in self._templates():
            if within(real, shipped_dir()):
                raise SpecError(f"{name} is one of pnp's shared templates.", field="file",
                                hint="copy it into the game folder first")
            raise SpecError(f"{name} is not one of the deck's templates.", field="file",
                            hint="edit a layer of a template the spec names (front:, back:) or one they include")
        return rel

    def _templates(self) -> set[str]:
        got = self.deck.load()
        out = set()
        for r in got.readies:
            for path, face in r.faces.items():
                for p in (path, *(bl.place.file for bl in face.layers)):
                    if within(p, self.deck.root):
                        out.add(Path(os.path.relpath(os.path.realpath(p), self.deck.root)).as_posix())
        return out

    def read(self, rel: str) -> str:
        """The text of ``rel`` below the game folder (no symlink followed), at most MAX_TEMPLATE_BYTES.

        Raises:
            SpecError: missing, too large or not UTF-8; OutputError: a link or special file on the way.
        """
        try:
            with open_read(self.deck.root, rel) as f:
                data = read_fd(f.fileno(), MAX_TEMPLATE_BYTES)
        except FileNotFoundError:
            raise SpecError(f"{rel} is not in the game folder.", file=rel, hint="reload the editor") from None
        if len(data) > MAX_TEMPLATE_BYTES:
            raise SpecError(f"{rel} is over {MAX_TEMPLATE_BYTES:,} bytes.", file=rel, hint="split the template")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise SpecError(f"{rel} is not UTF-8 text.", file=rel, hint="save it as UTF-8") from None

    def _validate(self, rel: str, text: str, index: int | None) -> None:
        """Refuse ``text`` for ``rel`` unless it reads as a template whose layer ``index`` (None: none
        in particular) validates, naming the field."""
        path = self.deck.root / rel
        try:
            data = safe_load(text) or {}
        except pyyaml.YAMLError as exc:
            raise SpecError(f"the edit would make {rel} unreadable: {exc}.", file=rel, hint="undo") from None
        top = validate_model(_TemplateFile, data, path, {})
        if index is None or not 0 <= index < len(top.layers):
            return
        layer = dict(top.layers[index])
        base = layer.get("extends")
        if isinstance(base, str):  # what it inherits: the named layer of this deck
            for r in self.deck.load().readies:
                for face in r.faces.values():
                    for bl in face.layers:
                        if bl.place.layer.name == base:
                            layer = {**{k: v for k, v in bl.place.raw.items() if k not in ("name", "extends")},
                                     **layer}
                            break
        model = LAYER_TYPES.get(layer.get("type"))
        if model is None:
            raise SpecError(f"layer {index + 1} has type {layer.get('type')!r}.", file=rel, field=f"layers.{index}.type",
                            hint=f"use one of: {', '.join(LAYER_TYPES)}")
        try:
            validate_model(model, layer, path, {})
        except SpecError as exc:
            exc.field = f"layers.{index}.{exc.field}" if exc.field else f"layers.{index}"
            raise

    def _write(self, what: str, writes: list[Write]) -> None:
        """Write ``writes``, then read the deck as a build would; should it fail (a text box moved off
        the part, a placeholder naming no column), put the files back as they were and raise that error."""
        for w in writes:
            write_atomic(self.deck.root, w.rel, w.after.encode("utf-8"))
        self.deck.forget()
        try:
            self.deck.load()
        except PnpError:
            for w in writes:
                if w.before is not None:
                    write_atomic(self.deck.root, w.rel, w.before.encode("utf-8"))
            self.deck.forget()
            raise
        self.done.append((what, writes))
        self.undone.clear()

    # -- edits -----------------------------------------------------------------------------------
    def apply(self, op: dict) -> str:
        """Apply one edit: ``op`` is {"op": "set", "file", "index", "fields": {name: value or None (unset)}},
        {"op": "add", "file", "at", "layer": {...}}, {"op": "delete" | "duplicate", "file", "index"},
        {"op": "move", "file", "index", "to"} or {"op": "copy", "file": "shared/NAME.yaml"}. Returns what
        was done, for the page.

        Raises:
            SpecError: a refused file, an index not in the file, a value the template refuses (naming
                the field); OutputError: the file cannot be written.
        """
        with self._lock:
            kind = op.get("op")
            if kind == "copy":
                return self.copy_shared(op.get("file"))
            rel = self.template(op.get("file"))
            before = self.read(rel)
            text = LayerText(before, rel)
            index = op.get("index")
            if kind != "add" and not isinstance(index, int):
                raise SpecError("the edit names no layer.", field="index", hint="reload the editor")
            if kind == "set":
                fields = op.get("fields")
                if not isinstance(fields, dict) or not fields:
                    raise SpecError("the edit sets no field.", field="fields", hint="reload the editor")
                if "type" in fields:
                    raise SpecError("a layer's type cannot change.", field="type",
                                    hint="add a layer of the other type and delete this one")
                after = text.set_fields(index, self._values(text, index, fields, op.get("ref")))
                what, check = f"{rel} layer {index + 1}: {', '.join(fields)}", index
            elif kind == "add":
                layer, at = op.get("layer"), op.get("at", len(text.layers))
                if not isinstance(layer, dict) or not isinstance(at, int):
                    raise SpecError("the new layer is not a mapping.", field="layer", hint="reload the editor")
                after = text.insert(at, layer)
                what, check = f"{rel}: a {layer.get('type')} layer added", at
            elif kind == "duplicate":
                copy = {k: v for k, v in text.layer(index).items() if k != "name"}
                after = LayerText(before, rel).insert(index + 1, copy)
                what, check = f"{rel} layer {index + 1} duplicated", index + 1
            elif kind == "delete":
                after = text.delete(index)
                what, check = f"{rel} layer {index + 1} deleted", None
            elif kind == "move":
                to = op.get("to")
                if not isinstance(to, int):
                    raise SpecError("the move names no place.", field="to", hint="reload the editor")
                after = text.move(index, to)
                what, check = f"{rel} layer {index + 1} moved to {to + 1}", to
            else:
                raise SpecError(f"unknown edit {kind!r}.", field="op", hint="reload the editor")
            if after == before:
                return "nothing changed"
            self._validate(rel, after, check)
            self._write(what, [Write(rel, before, after)])
            return what

    @staticmethod
    def _values(text: LayerText, index: int, fields: dict, ref: Any) -> dict:
        """The values to write: None unsets a field; {"mm": N} is a length written as the field's old
        value was (a percentage of the part's width or height ``ref`` [w, h] mm, "Nmm" or a number)."""
        own = text.layer(index)
        w, h = ref if isinstance(ref, list) and len(ref) == 2 and all(isinstance(v, (int, float)) for v in ref) \
            else (0.0, 0.0)
        out = {}
        for k, v in fields.items():
            if v is None:
                v = DELETE
            elif isinstance(v, dict) and set(v) == {"mm"}:
                mm = v["mm"]
                if isinstance(mm, bool) or not isinstance(mm, (int, float)):
                    raise SpecError(f"{k} is not a length in mm.", field=k, hint="give a number of mm")
                v = mm_value(float(mm), own.get(k), h if k.lstrip("c").startswith(("y", "h")) else w)
            out[k] = v
        return out

    def copy_shared(self, name: Any) -> str:
        """Copy pnp's shared template ``name`` ("shared/NAME.yaml", one the deck reads) into the game
        folder under the same name, where the includes naming it find it first.

        Raises:
            SpecError: not a shared template of the deck, or the folder already holds that name.
        """
        if not isinstance(name, str) or not name.startswith("shared/"):
            raise SpecError(f"{name!r} is not one of pnp's shared templates.", field="file",
                            hint="copy a template named shared/...")
        shared = shipped_dir()
        real = inside(name, shared, what="shared template", field="file", limit=MAX_TEMPLATE_BYTES)
        used = {os.path.realpath(bl.place.file) for r in self.deck.load().readies for face in r.faces.values()
                for bl in face.layers}
        if os.path.realpath(real) not in used:
            raise SpecError(f"{name} is not a template this deck reads.", field="file", hint="reload the editor")
        if os.path.lexists(self.deck.root / name):
            raise SpecError(f"the game folder already has {name}.", field="file", hint="edit that copy")
        text = Path(real).read_text(encoding="utf-8")
        self._write(f"{name} copied into the folder", [Write(name, None, text)])
        return f"{name} copied into the folder"

    def step(self, back: bool) -> str:
        """Undo (``back``) or redo the last edit; returns what it was ("" when there is none).

        Raises:
            SpecError: a file the edit wrote was changed outside the editor since (nothing is written).
        """
        with self._lock:
            stack, other = (self.done, self.undone) if back else (self.undone, self.done)
            if not stack:
                return ""
            what, writes = stack[-1]
            for w in writes:
                expect = w.after if back else w.before
                if expect is None:
                    continue
                try:
                    now = self.read(w.rel)
                except SpecError:
                    now = None
                if now != expect:
                    raise SpecError(f"{w.rel} changed outside the editor since this edit; "
                                    f"{'undoing' if back else 'redoing'} it would lose that change.", file=w.rel,
                                    hint="edit on from here (the editor's history stops at that change)")
            for w in writes:
                text = w.before if back else w.after
                if text is not None:  # a copied template stays when its copy is undone
                    write_atomic(self.deck.root, w.rel, text.encode("utf-8"))
            self.deck.forget()
            other.append(stack.pop())
            return what
