"""Every part of a kit by a stable key, with a fingerprint of what is drawn on it.

A part is one distinct front of a component (its copies count once). Its identity is (group, key):
the group is the spec's component name, the key the data row's key (pnp.custom.parts.row_keys: the
``key:`` column, else the first column whose cells all differ, else the row number); a built-in
game's parts are keyed by their titles when these all differ (a NetMatch card's word), else by their
number in the component (1, 2, ...). A board or any single-front component is key "1". A data-driven
part whose key is not declared also records its ``title`` (its name column's cell,
pnp.custom.parts.title_column) when that differs from the key, so that pnp diff can name it.

The fingerprint says what a part is drawn from. A part drawn from a template (pnp.custom: its
component's fronts are a DigestedFronts, pnp.custom.fronts.TemplateFronts) gets the sha256 of its
trim size and shape, its back's digest and its front's digest: the template's digest (the bound
template's layers' resolved settings, the part size, the language, the declared fonts' file hashes)
and the cells of the columns the template reads, with the sha256 of every picture and icon the row
shows (pnp.custom.draw.Face.fingerprint); no front is drawn for it. Any other part's fingerprint is
the sha256 of its drawing serialised canonically (pnp.core.ir shapes with their fields in order,
lengths rounded to 0.1 µm, a picture by the sha256 of its bytes, never its path; a Group's render
cache key left out): trim size, shape, the front and the back. Neither depends on the paper, the
imposition or the PDF around the part, so re-imposing or changing the paper marks nothing changed.
A manifest records which kind its fingerprints are (PARTS_VERSION).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from math import isfinite
from operator import attrgetter
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol, Sequence, runtime_checkable

from ..core.errors import SpecError
from ..core.ir import Component, Group, Image, PartSource, Text
from ..core.values import record
from ..inputs.safefile import read_regular
from ..layout.sheetspace import BoardBlock

PARTS_VERSION = 2
"""What a manifest's part fingerprints are (its ``parts_version``): 2, a template-drawn part's from its
template's digest and its row's values (pnp.custom.draw.Face.fingerprint), any other part's from its
drawing; 1 (a manifest without ``parts_version``), every part's from its drawing. pnp.pipeline.diff
compares only with a manifest of this version."""
MAX_PICTURE_BYTES = 256 * 1024 * 1024  # a picture file hashed for a fingerprint (pictures are checked far below this)
MAX_TITLE = 200  # characters of a part's title the manifest keeps (a label, not the cell)
MAX_RECORD_TEXT = 10_000
"""The most characters of a text a manifest record holds (component, key, title, column name): parts_of()
writes none longer (bounded()) and pnp.pipeline.diff refuses a manifest holding a longer one."""
_SKIPPED = {"key", "root", "width"}  # Group.key: a render cache key (holds paths); Image.root: where SVG art may
# reach; Text.width: a measure of the text's other fields


Fields = tuple  # tuple[tuple[str, str], ...]: (column key, field_hash of the cell), in the row's order


@record
class PartRecord:
    """A part as a manifest lists it: its ``group`` (component name) and ``key``, the data ``row``
    (None without data), ``count`` (its copies in the kit), the ``fingerprint`` (sha256 hex of what is
    drawn), the ``fields``: (column key, sha256 hex prefix of the cell) pairs, in the row's order
    (a tuple, not a dict: a kit of 100,000 parts holds one of these per part) and its ``title``
    ("" unless its key is undeclared and its title differs from it)."""
    group: str
    key: str
    row: int | None
    count: int
    fingerprint: str
    fields: Fields
    title: str


@record
class Part(PartRecord):
    """One part of the kit being built (a PartRecord) and where it is in the kit: component index
    ``comp``, the indices of its fronts ``fronts``, once placed its ``pages``, and what its key is,
    ``keyed`` (PartSource.keyed: "declared", "column", "row" or "")."""
    comp: int
    fronts: tuple[int, ...]
    pages: tuple[int, ...] = ()
    keyed: str = ""

    @property
    def ident(self) -> tuple[str, str]:
        return (self.group, self.key)

    def record(self, pages: tuple[int, ...] | None = None) -> dict:
        """The part as the manifest holds it (its ``title`` only when it has one), printed on
        ``pages`` (default: its own ``pages``)."""
        pages = list(self.pages if pages is None else pages)
        if self.title:
            return {"component": self.group, "key": self.key, "title": self.title, "row": self.row,
                    "count": self.count, "fingerprint": self.fingerprint, "fields": dict(self.fields),
                    "pages": pages}
        return {"component": self.group, "key": self.key, "row": self.row, "count": self.count,
                "fingerprint": self.fingerprint, "fields": dict(self.fields), "pages": pages}

    def record_text(self, pages: tuple[int, ...] | None = None) -> str:
        """record(pages) as the manifest writes it: ``json.dumps(self.record(pages), ensure_ascii=False,
        separators=(", ", ": "))``, written from the fields without the dict (a kit of 100,000 parts
        writes one per part); any field not of its usual type (a row that is not an int or None, say)
        is written by json's encoder itself."""
        pages = self.pages if pages is None else pages
        row, count = self.row, self.count
        if not ((row is None or type(row) is int) and type(count) is int and all(type(n) is int for n in pages)):
            return _record_json(self.record(pages))
        s = _string
        fields = ", ".join([f"{s(k)}: {s(v)}" for k, v in dict(self.fields).items()])
        title = f"{s('title')}: {s(self.title)}, " if self.title else ""
        return (f'{{"component": {s(self.group)}, "key": {s(self.key)}, {title}"row": '
                f'{"null" if row is None else int.__repr__(row)}, "count": {int.__repr__(count)}, '
                f'"fingerprint": {s(self.fingerprint)}, "fields": {{{fields}}}, '
                f'"pages": [{", ".join(map(int.__repr__, pages))}]}}')

    def pages_in(self, pages: dict[tuple[int, int], tuple[int, ...]]) -> tuple[int, ...]:
        """The pages this part's fronts are printed on, from part_pages' ``pages``."""
        fronts, comp = self.fronts, self.comp
        return pages.get((comp, fronts[0]), ()) if len(fronts) == 1 else \
            tuple(sorted({n for f in fronts for n in pages.get((comp, f), ())}))

    def placed(self, pages: dict[tuple[int, int], tuple[int, ...]]) -> "Part":
        """This part with the pages its fronts are printed on (from part_pages)."""
        return Part(self.group, self.key, self.row, self.count, self.fingerprint, self.fields, self.title, self.comp,
                    self.fronts, self.pages_in(pages), self.keyed)


def field_hash(value: str) -> str:
    """A cell's text as the manifest keeps it: the first 16 hex digits of its sha256."""
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""json.dumps(value, separators=(",", ":"), ensure_ascii=False), with one encoder made once."""
_record_json = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
"""json.dumps(value, ensure_ascii=False, separators=(", ", ": ")): a manifest record's text (Part.record_text)."""
_string = json.encoder.encode_basestring
"""A str as json writes it with ensure_ascii=False (no encoder made per part)."""
_LITERAL = {True: "true", False: "false", None: "null"}
_NUMBERS = 65536  # floats _Canon keeps the JSON text of; the table starts over when full


def _number(v: float) -> str:
    """A float rounded to 4 decimals as json.dumps writes it (repr; NaN and the infinities by name)."""
    v = round(v, 4)
    return repr(v) if isfinite(v) else _dumps(v)


_TEXT_NAMES = ("x", "y", "text", "size_pt", "anchor", "valign", "fill", "bold", "rotate", "underline", "font")
_TEXT_FIELDS = attrgetter(*_TEXT_NAMES) if tuple(f.name for f in dataclasses.fields(Text)
                                                                     if f.name not in _SKIPPED) == _TEXT_NAMES else None
"""A Text's fields in order, for _Canon's Text writer (None, and no such writer, if Text's fields change)."""


class _Canon:
    """The canonical form of IR shapes as compact JSON text: each dataclass as [type name, its
    fields in order] (render cache keys and SVG roots left out), floats rounded to 4 decimals, a
    picture by the sha256 of its bytes; byte for byte what ``json.dumps(form, separators=(",",
    ":"), ensure_ascii=False)`` writes of that form. A Group, often the same object on every part
    (a template's furniture, a common back), is written once: its text is kept with the object itself
    (so its id is never reused)."""

    def __init__(self) -> None:
        self.pictures: dict[str, str] = {}
        self.strings: dict[str, str] = {}  # a string field's JSON text (anchors, colours, fonts repeat)
        self.fields: dict[type, tuple[str, Callable]] = {}  # a dataclass: '["Name"', its fields' getter
        self.groups: dict[int, tuple[object, str]] = {}  # id(Group) -> the Group, its text
        self.digests: dict[int, tuple[object, str]] = {}  # id(a back) -> the back, its digest
        self.numbers: dict[float, str] = {}  # a float (never 0.0 or -0.0) -> its JSON text, rounded
        self.styles: dict[tuple, tuple[str, str]] = {}  # a Text's (anchor, valign, fill, bold, underline, font) -> its JSON

    def _text_shape(self, value) -> str | None:
        """A Text's canonical JSON written field by field (what text() writes of it), or None when a
        field is not of its usual type (a float that is an int, a string that is None): text()'s
        general walk writes those. A deck's Texts share a few styles: each style's JSON is kept."""
        x, y, s, size, anchor, valign, fill, bold, rotate, underline, font = _TEXT_FIELDS(value)
        if not (type(x) is float and type(y) is float and type(size) is float and type(rotate) is float
                and type(s) is str and type(anchor) is str and type(valign) is str and type(fill) is str
                and type(bold) is bool and type(underline) is bool and type(font) is str):
            return None
        style = (anchor, valign, fill, bold, underline, font)
        got = self.styles.get(style)
        if got is None:
            got = self.styles[style] = (",".join((_dumps(anchor), _dumps(valign), _dumps(fill), _LITERAL[bold])) + ",",
                                        "," + _LITERAL[underline] + "," + _dumps(font) + "]")
        numbers = self.numbers
        x, y, size, rotate = numbers.get(x) or self._number(x), numbers.get(y) or self._number(y), \
            numbers.get(size) or self._number(size), numbers.get(rotate) or self._number(rotate)
        text = self.strings.get(s)
        if text is None:
            text = self.strings[s] = _dumps(s)
        return f'["Text",{x},{y},{text},{size},{got[0]}{rotate}{got[1]}'

    def _number(self, v: float) -> str:
        """_number(v) for a float, kept in ``numbers`` (a template puts its texts at the same few
        places on every part); never a zero, whose sign a table keyed by value would lose."""
        if v == 0.0:
            return repr(v)  # "0.0" or "-0.0", as round(v, 4) keeps the sign
        got = _number(v)
        if len(self.numbers) >= _NUMBERS:
            self.numbers.clear()
        self.numbers[v] = got
        return got

    def text(self, value) -> str:
        """``value``'s canonical form as JSON text."""
        t = type(value)
        if t is str:
            return _dumps(value)
        if t is float:
            return self.numbers.get(value) or self._number(value)
        if t is bool or value is None:
            return _LITERAL[value]
        if t is int:
            return repr(value)
        if t is tuple or t is list:
            return "[" + ",".join([self.text(v) for v in value]) + "]"
        if t is Group:
            kept = self.groups.get(id(value))
            if kept is not None and kept[0] is value:
                return kept[1]
        elif t is Text and _TEXT_FIELDS is not None:
            got = self._text_shape(value)
            if got is not None:
                return got
        fields = self.fields.get(t)
        if fields is None:
            if not dataclasses.is_dataclass(t):
                return _dumps(value)  # as json.dumps writes any other value (a str or int subclass)
            names = tuple(f.name for f in dataclasses.fields(t) if f.name not in _SKIPPED)
            fields = self.fields[t] = (f'["{t.__name__}"',
                                       attrgetter(*names) if len(names) > 1 else lambda v: (getattr(v, names[0]),))
        out = [fields[0]]
        if t is Image:
            out += [_dumps("sha256:" + self._picture(value.src)) if n == "src" else self.text(getattr(value, n))
                    for n in (f.name for f in dataclasses.fields(t) if f.name not in _SKIPPED)]
        else:
            strings, numbers = self.strings, self.numbers
            for v in fields[1](value):  # the plain fields inline: most of a drawing's values
                tv = type(v)
                if tv is float:
                    out.append(numbers.get(v) or self._number(v))
                elif tv is str:
                    got = strings.get(v)
                    out.append(got if got is not None else strings.setdefault(v, _dumps(v)))
                else:
                    out.append(_LITERAL[v] if tv is bool else self.text(v))
        got = ",".join(out) + "]"
        if t is Group:
            self.groups[id(value)] = (value, got)
        return got

    def _picture(self, src: str) -> str:
        if src not in self.pictures:
            try:
                data = read_regular(Path(src), MAX_PICTURE_BYTES)
            except OSError as exc:
                raise SpecError(f"cannot read the picture {src} to fingerprint its part: {exc.strerror or exc}.",
                                file=src, hint="do not change the game folder while pnp runs") from None
            self.pictures[src] = hashlib.sha256(data).hexdigest()
        return self.pictures[src]

    def digest(self, value) -> str:
        """The sha256 (hex) of ``value``'s canonical form; a back (one object, shared by every front
        of its component) is digested once."""
        kept = self.digests.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        got = hashlib.sha256(self.text(value).encode("utf-8")).hexdigest()
        if isinstance(value, tuple):
            self.digests[id(value)] = (value, got)
        return got


class _Hasher:
    """fingerprint() for many fronts: the hash of the same canonical JSON text, fed in pieces. The
    text of a part is ``[W,H,"shape",R,[F1,F2,...],BACK]``: the head up to the front's opening
    bracket is hashed once per component, and a front's first shape, often the template's furniture
    (one Group on every part), once per component and shape (the hash's state copied after it)."""

    def __init__(self, canon: _Canon) -> None:
        self.canon = canon
        self.heads: dict[int, tuple[Component, object, str]] = {}  # id(comp) -> comp, hash of the head, tail
        self.starts: dict[tuple[int, int], tuple[object, object]] = {}  # (id(comp), id(shape)) -> shape, hash

    def __call__(self, comp: Component, front) -> str:
        got = self.heads.get(id(comp))
        if got is None or got[0] is not comp:
            back = None if comp.back is None else self.canon.digest(comp.back)
            head = _dumps([round(comp.width, 4), round(comp.height, 4), comp.shape, round(comp.radius, 4)])
            got = self.heads[id(comp)] = (comp, hashlib.sha256((head[:-1] + ",[").encode("utf-8")),
                                          "]," + _dumps(back) + "]")
        _, head, tail = got
        shapes = tuple(front)
        if not shapes:
            h = head.copy()
        else:
            first = shapes[0]
            start = self.starts.get((id(comp), id(first)))
            if start is None or start[0] is not first:
                h = head.copy()
                h.update(self.canon.text(first).encode("utf-8"))
                if type(first) is Group:
                    self.starts[id(comp), id(first)] = (first, h.copy())
            else:
                h = start[1].copy()
            if len(shapes) > 1:  # the rest in one piece: "," before each shape, then the tail
                text = self.canon.text
                h.update(("," + ",".join([text(shape) for shape in shapes[1:]]) + tail).encode("utf-8"))
                return h.hexdigest()
        h.update(tail.encode("utf-8"))
        return h.hexdigest()


@runtime_checkable
class DigestedFronts(Protocol):
    """A Component's fronts that know what draws each (pnp.custom.fronts.TemplateFronts): ``digest(i)``
    is 32 bytes of sha256 of front ``i``'s template and the row's values it reads."""

    def digest(self, index: int) -> bytes: ...


class _FromDigests:
    """The fingerprint of a part whose front says what draws it (DigestedFronts): the sha256 of
    ``template\x1f[W,H,"shape",R]\x1fBACK\x1f`` (trim size and shape as _Hasher writes them, BACK the
    digest of the drawn back, or null) followed by the front's 32-byte digest; the head is hashed once
    per component."""

    def __init__(self, canon: _Canon) -> None:
        self.canon = canon
        self.heads: dict[int, tuple[Component, object]] = {}  # id(comp) -> comp, hash of the head

    def __call__(self, comp: Component, index: int) -> str:
        got = self.heads.get(id(comp))
        if got is None or got[0] is not comp:
            back = None if comp.back is None else self.canon.digest(comp.back)
            head = _dumps([round(comp.width, 4), round(comp.height, 4), comp.shape, round(comp.radius, 4)])
            got = self.heads[id(comp)] = (comp, hashlib.sha256(f"template\x1f{head}\x1f{_dumps(back)}\x1f"
                                                               .encode("utf-8")))
        h = got[1].copy()
        h.update(comp.fronts.digest(index))
        return h.hexdigest()


def fingerprint(comp: Component, front, canon: _Canon | None = None) -> str:
    """The sha256 (hex) of what is drawn on one part of ``comp`` whose front is ``front``."""
    return _Hasher(canon or _Canon())(comp, front)


def _sources(comp: Component) -> Iterable[PartSource]:
    if comp.sources:
        return comp.sources
    n = len(comp.fronts)
    if len(comp.titles) == n and all(comp.titles) and len(set(comp.titles)) == n:  # made one at a time
        return (PartSource(t, None, (), comp.name) for t in comp.titles)
    return (PartSource(str(i), None, (), comp.name) for i in range(1, n + 1))


def bounded(text: str) -> str:
    """``text`` when it has at most MAX_RECORD_TEXT characters, else its start, an ellipsis and 16 hex digits of
    its sha256 (MAX_RECORD_TEXT characters in all: the same text always gives the same result, two differ)."""
    if len(text) <= MAX_RECORD_TEXT:
        return text
    return text[:MAX_RECORD_TEXT - 17] + "\u2026" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def parts_of(components: Sequence[Component]) -> list[Part]:
    """Every part of the kit, in kit order, each key once per group (copies counted, a copy's
    fingerprint taken from its first front). Draws every front (the IR only, no PDF)."""
    canon = _Canon()
    digest, from_digests = _Hasher(canon), _FromDigests(canon)
    hashes: dict[str, str] = {}  # a cell's text -> field_hash (a column's cells often repeat)
    found: list[Part] = []  # in kit order
    where: dict[str, dict[str, int]] = {}  # group -> key -> its part's index in found (no tuple per part)
    for ci, comp in enumerate(components):
        digested = isinstance(comp.fronts, DigestedFronts)  # its fronts say what draws them: none is drawn
        for fi, (front, src) in enumerate(zip(range(len(comp.fronts)) if digested else _iter(comp.fronts),
                                              _sources(comp))):
            group, key = bounded(src.group or comp.name), bounded(src.key)
            keys = where.get(group)
            if keys is None:
                keys = where[group] = {}
            at = keys.get(key)
            old = None if at is None else found[at]
            if old is not None and old.comp == ci:
                found[at] = dataclasses.replace(old, count=old.count + comp.copies, fronts=old.fronts + (fi,))
                continue
            if old is not None:  # the same key in another run of the group (another back): a new identity
                key = bounded(f"{src.key} ({comp.name})")
                at = keys.get(key)  # (made again in its place for each such front)
            fields = tuple([(bounded(k), hashes.get(v) or hashes.setdefault(v, field_hash(v))) for k, v in src.fields])
            title = comp.titles[fi][:MAX_TITLE] if src.keyed in ("column", "row") and len(comp.titles) > fi else ""
            part = Part(group, key, src.row, comp.copies, from_digests(comp, fi) if digested else digest(comp, front),
                        fields, title if title != key else "", ci, (fi,), (), src.keyed)
            if at is None:
                keys[key] = len(found)
                found.append(part)
            else:
                found[at] = part
    return found


def part_pages(packing, components: Sequence[Component], cover_pages: int,
               sides: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """The 1-based page numbers each front of ``components`` is printed on, by (component index,
    front index): its sheets' pages after ``cover_pages`` cover pages, ``sides`` pages per sheet (2 in
    duplex: the back page too); a board's, every piece's. ``packing``: the kit's Packing
    (pnp.layout.kitpacking)."""
    out: dict[tuple[int, int], tuple[int, ...]] = {}
    shared: dict[tuple[int, ...], tuple[int, ...]] = {}  # one tuple per distinct list of pages, shared

    def add(key: tuple[int, int], numbers: tuple[int, ...]) -> None:
        had = out.get(key)
        if had is None or had is numbers:  # most fronts lie on one sheet: its tuple, no set per front
            out[key] = numbers
        elif had[-1] < numbers[0]:  # sheets come in page order
            both = had + numbers
            out[key] = shared.setdefault(both, both)
        else:
            both = tuple(sorted({*had, *numbers}))
            out[key] = shared.setdefault(both, both)

    for i, sheet in enumerate(packing.sheets):
        first = 1 + (cover_pages + i) * sides
        numbers = tuple(range(first, first + sides))
        for block in sheet.blocks:
            if isinstance(block, BoardBlock):
                add((block.comp, 0), numbers)
                continue
            for (ci, k), _, _ in block.slots():
                add((ci, k // components[ci].copies), numbers)
    return out


def _iter(fronts) -> Iterator:
    for i in range(len(fronts)):
        yield fronts[i]


def kit_fingerprint(parts: Sequence[Part]) -> str:
    """The sha256 (hex) of every part's identity, count and fingerprint: the kit's version, the hash of
    ``json.dumps(sorted([p.group, p.key, p.count, p.fingerprint] for p in parts), separators=(",", ":"),
    ensure_ascii=False)``, fed in pieces (neither the lists nor the whole text are made)."""
    h = hashlib.sha256(b"[")
    sep, held = "", []
    order = sorted(parts, key=attrgetter("key"))  # by (group, key), unique in a kit, in two stable sorts: no
    order.sort(key=attrgetter("group"))            # key tuple per part
    string = _string  # a str as _dumps writes it
    for p in order:  # _dumps([group, key, count, fingerprint]), an int count as json writes one (its repr)
        held.append(f"{sep}[{string(p.group)},{string(p.key)},{int.__repr__(p.count)},{string(p.fingerprint)}]")
        sep = ","
        if len(held) >= 4096:
            h.update("".join(held).encode("utf-8"))
            held = []
    h.update(("".join(held) + "]").encode("utf-8"))
    return h.hexdigest()
