"""Every part of a kit by a stable key, with a fingerprint of what is drawn on it.

A part is one distinct front of a component (its copies count once). Its identity is (group, key):
the group is the spec's component name, the key the data row's key (pnp.custom.parts.row_keys: the
``key:`` column, else the first column whose cells all differ, else the row number); a built-in
game's parts are keyed by their titles when these all differ (a NetMatch card's word), else by their
number in the component (1, 2, ...). A board or any single-front component is key "1".

The fingerprint is the sha256 of the part's drawing serialised canonically (pnp.core.ir shapes with
their fields in order, lengths rounded to 0.1 µm, a picture by the sha256 of its bytes, never its
path; a Group's render cache key left out): trim size, shape, the front and the back. It does not
depend on the paper, the imposition or the PDF around the part, so re-imposing or changing the paper
marks nothing changed.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from operator import attrgetter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..core.errors import SpecError
from ..core.ir import Component, Group, Image, PartSource
from ..inputs.safefile import read_regular
from ..layout.sheetspace import BoardBlock

MAX_PICTURE_BYTES = 256 * 1024 * 1024  # a picture file hashed for a fingerprint (pictures are checked far below this)
_PLAIN = {str, int, bool, type(None)}
_SKIPPED = {"key", "root"}  # Group.key: a render cache key (holds paths); Image.root: where SVG art may reach


@dataclass(frozen=True)
class PartRecord:
    """A part as a manifest lists it: its ``group`` (component name) and ``key``, the data ``row``
    (None without data), ``count`` (its copies in the kit), the ``fingerprint`` (sha256 hex of what is
    drawn) and the ``fields`` (column key -> sha256 hex prefix of the cell)."""
    group: str
    key: str
    row: int | None
    count: int
    fingerprint: str
    fields: dict[str, str]


@dataclass(frozen=True)
class Part(PartRecord):
    """One part of the kit being built (a PartRecord) and where it is in the kit: component index
    ``comp``, the indices of its fronts ``fronts`` and, once placed, its ``pages``."""
    comp: int
    fronts: tuple[int, ...]
    pages: tuple[int, ...] = ()

    @property
    def ident(self) -> tuple[str, str]:
        return (self.group, self.key)

    def record(self) -> dict:
        """The part as the manifest holds it."""
        return {"component": self.group, "key": self.key, "row": self.row, "count": self.count,
                "fingerprint": self.fingerprint, "fields": self.fields, "pages": list(self.pages)}

    def placed(self, pages: dict[tuple[int, int], tuple[int, ...]]) -> "Part":
        """This part with the pages its fronts are printed on (from part_pages)."""
        return dataclasses.replace(self, pages=tuple(sorted({n for f in self.fronts for n in pages.get((self.comp, f), ())})))


def field_hash(value: str) -> str:
    """A cell's text as the manifest keeps it: the first 16 hex digits of its sha256."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


class _Canon:
    """Canonical JSON-able form of IR shapes: each dataclass as [type name, its fields in order]
    (render cache keys and SVG roots left out), floats rounded, a picture by the sha256 of its bytes.
    A Group, often the same object on every part (a template's furniture, a common back), is
    serialised once: its form is kept with the object itself (so its id is never reused)."""

    def __init__(self) -> None:
        self.pictures: dict[str, str] = {}
        self.fields: dict[type, tuple[tuple[str, ...], Callable]] = {}  # a dataclass's fields: names, getter
        self.groups: dict[int, tuple[object, object]] = {}

    def __call__(self, value):
        t = type(value)
        if t in _PLAIN:
            return value
        if t is float:
            return round(value, 4)
        if t is tuple or t is list:
            return [self(v) for v in value]
        fields = self.fields.get(t)
        if fields is None:
            if not dataclasses.is_dataclass(t):
                return value
            names = tuple(f.name for f in dataclasses.fields(t) if f.name not in _SKIPPED)
            fields = self.fields[t] = (names, attrgetter(*names) if len(names) > 1 else lambda v: (getattr(v, names[0]),))
        if t is Group:
            kept = self.groups.get(id(value))
            if kept is not None and kept[0] is value:
                return kept[1]
        if t is Image:
            form = ["Image", *[self._picture(value.src) if n == "src" else self(getattr(value, n)) for n in fields[0]]]
        else:
            form = [t.__name__]
            for v in fields[1](value):  # the plain fields inline: most of a drawing's values
                tv = type(v)
                form.append(round(v, 4) if tv is float else v if tv in _PLAIN else self(v))
        if t is Group:
            self.groups[id(value)] = (value, form)
        return form

    def _picture(self, src: str) -> str:
        if src not in self.pictures:
            try:
                data = read_regular(Path(src), MAX_PICTURE_BYTES)
            except OSError as exc:
                raise SpecError(f"cannot read the picture {src} to fingerprint its part: {exc.strerror or exc}.",
                                file=src, hint="do not change the game folder while pnp runs") from None
            self.pictures[src] = hashlib.sha256(data).hexdigest()
        return "sha256:" + self.pictures[src]

    def digest(self, value) -> str:
        """The sha256 (hex) of ``value``'s canonical form; a back (one object, shared by every front
        of its component) is digested once."""
        kept = self.groups.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        text = json.dumps(self(value), separators=(",", ":"), ensure_ascii=False)
        got = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if isinstance(value, tuple):
            self.groups[id(value)] = (value, got)
        return got


def fingerprint(comp: Component, front, canon: _Canon | None = None) -> str:
    """The sha256 (hex) of what is drawn on one part of ``comp`` whose front is ``front``."""
    canon = canon or _Canon()
    back = None if comp.back is None else canon.digest(comp.back)
    form = [round(comp.width, 4), round(comp.height, 4), comp.shape, round(comp.radius, 4), canon(tuple(front)), back]
    return hashlib.sha256(json.dumps(form, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def _sources(comp: Component) -> Sequence[PartSource]:
    if comp.sources:
        return comp.sources
    n = len(comp.fronts)
    if len(comp.titles) == n and all(comp.titles) and len(set(comp.titles)) == n:
        return [PartSource(t, None, (), comp.name) for t in comp.titles]
    return [PartSource(str(i), None, (), comp.name) for i in range(1, n + 1)]


def parts_of(components: Sequence[Component]) -> list[Part]:
    """Every part of the kit, in kit order, each key once per group (copies counted, a copy's
    fingerprint taken from its first front). Draws every front (the IR only, no PDF)."""
    canon = _Canon()
    found: dict[tuple[str, str], Part] = {}
    for ci, comp in enumerate(components):
        for fi, (front, src) in enumerate(zip(_iter(comp.fronts), _sources(comp))):
            ident = (src.group or comp.name, src.key)
            old = found.get(ident)
            if old is not None and old.comp == ci:
                found[ident] = dataclasses.replace(old, count=old.count + comp.copies, fronts=old.fronts + (fi,))
                continue
            if old is not None:  # the same key in another run of the group (another back): a new identity
                ident = (ident[0], f"{src.key} ({comp.name})")
            found[ident] = Part(ident[0], ident[1], src.row, comp.copies, fingerprint(comp, front, canon),
                                {k: field_hash(v) for k, v in src.fields}, ci, (fi,))
    return list(found.values())


def part_pages(packing, components: Sequence[Component], cover_pages: int,
               sides: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """The 1-based page numbers each front of ``components`` is printed on, by (component index,
    front index): its sheets' pages after ``cover_pages`` cover pages, ``sides`` pages per sheet (2 in
    duplex: the back page too); a board's, every piece's. ``packing``: the kit's Packing
    (pnp.layout.kitpacking)."""
    out: dict[tuple[int, int], set[int]] = {}
    for i, sheet in enumerate(packing.sheets):
        first = 1 + (cover_pages + i) * sides
        numbers = set(range(first, first + sides))
        for block in sheet.blocks:
            if isinstance(block, BoardBlock):
                out.setdefault((block.comp, 0), set()).update(numbers)
                continue
            for (ci, k), _, _ in block.slots():
                out.setdefault((ci, k // components[ci].copies), set()).update(numbers)
    return {key: tuple(sorted(v)) for key, v in out.items()}


def _iter(fronts) -> Iterator:
    for i in range(len(fronts)):
        yield fronts[i]


def kit_fingerprint(parts: Sequence[Part]) -> str:
    """The sha256 (hex) of every part's identity, count and fingerprint: the kit's version."""
    text = json.dumps(sorted([p.group, p.key, p.count, p.fingerprint] for p in parts), separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
