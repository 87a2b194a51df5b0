"""Which parts changed: a planned kit's parts (pnp.pipeline.parts) against an earlier kit's manifest.

The earlier kit is ``OUT/<game>/manifest-<paper>.json`` (the current kit) or, for ``--from GEN``,
``OUT/<game>/history/manifest-<paper>-g<GEN>.json``: every build keeps a copy of its manifest in
``history/``, numbered one past the highest number there (1 for the first kit of a game and paper);
the last HISTORY copies stay. The manifest itself holds no number, so the same inputs still give the
same manifest. A manifest is untrusted input: at most MAX_MANIFEST_BYTES, read without following links, and
checked field by field before it is compared (a wrong one is an OutputError naming the file and field).

Each planned part is paired with the earlier kit's part it is (pnp.pipeline.pairing: by key, and
without a declared ``key:`` by the content of its row, so a card whose name lost a typo is still that
card). A part is added (paired with none), removed (no planned part is paired with it) or changed
(what is drawn on it or its count differs): then the fields of its data row that differ are named,
or "drawing changed" when none does (a template, a picture or a generator changed). A part is named
by its title when the manifest records one (pnp.pipeline.parts), else by its key.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..core.errors import OutputError
from ..core.plaintext import plain
from ..core.safepath import open_read, read_fd
from ..store.recovery import read_only_view
from .pairing import MAX_PAIRING, pair
from .parts import MAX_RECORD_TEXT, PARTS_VERSION, Part, PartRecord

MAX_MANIFEST_BYTES = 64 * 1024 * 1024
HISTORY = 20  # manifests of earlier builds kept per paper in OUT/<game>/history/
_HEX = re.compile(r"^[0-9a-f]{16,64}$")


def manifest_name(paper: str) -> str:
    return f"manifest-{paper}.json"


def history_name(paper: str, generation: int) -> str:
    """The copy of a build's manifest kept in the kit folder, relative to OUT/<game>."""
    return f"history/manifest-{paper}-g{generation}.json"


_HISTORY = re.compile(r"^history/manifest-(?P<paper>.+)-g(?P<gen>[1-9][0-9]{0,8})\.json$")


def history_generation(rel: str, paper: str) -> int | None:
    """The generation of a history copy of ``paper``'s manifest at ``rel``, else None."""
    m = _HISTORY.match(rel)
    return int(m["gen"]) if m and m["paper"] == paper else None


@dataclass(frozen=True, eq=False)
class OldKit:
    """An earlier kit: its manifest ``path``, ``generation`` and parts by (group, key)."""
    path: Path
    generation: int
    parts: dict[tuple[str, str], PartRecord]


@dataclass(frozen=True, eq=False)
class Change:
    """One part that differs: ``kind`` "added", "removed" or "changed", its ``group``, ``key``,
    data ``row`` and ``title`` ("" when the manifest records none), the planned part's except for a
    removed one; for a changed part the ``fields`` that differ (empty: only the drawing changed), the
    ``count`` before and after and the earlier part it replaces, ``was`` (its key, row and title)."""
    kind: str
    group: str
    key: str
    row: int | None
    fields: tuple[str, ...] = ()
    count: tuple[int, int] | None = None
    title: str = ""
    was: tuple[str, int | None, str] | None = None

    @property
    def label(self) -> str:
        """What the part is called: its title, else its key."""
        return self.title or self.key

    @property
    def was_label(self) -> str:
        """What the earlier part a changed one replaces was called (its title, else its key)."""
        return (self.was[2] or self.was[0]) if self.was else self.label

    def line(self) -> str:
        """One line for the terminal: the kind, the component, the title or key, the row, what the
        part was when paired by content (another key) and what changed."""
        where = [f"row {self.row}"] if self.row is not None else []
        if self.was is not None and self.was[0] != self.key:
            was = [_short(self.was_label)] if self.was_label != self.label else []
            if self.was[1] is not None and self.was[1] != self.row:
                was.append(f"row {self.was[1]}")
            if was:
                where.append("was " + ", ".join(was))
        head = f"{self.kind:<8} {_short(self.group)}: {_short(self.label)}" + (f" ({', '.join(where)})" if where else "")
        if self.kind != "changed":
            return head
        what = []
        if self.fields:
            what.append("fields " + ", ".join(self.fields))
        if self.count is not None:
            what.append(f"copies {self.count[0]} -> {self.count[1]}")
        return f"{head}: {'; '.join(what) or 'drawing changed'}"

    def record(self) -> dict:
        """The change as `pnp diff --json` lists it: ``change``, ``component``, ``key``, ``row``, the
        ``title`` when recorded; a changed part's ``fields``, ``drawing_changed``, ``copies`` (when
        its count changed) and, when it was paired by content, ``was``: the earlier part's ``key``,
        ``row`` (and ``title``)."""
        out = {"change": self.kind, "component": self.group, "key": self.key, "row": self.row}
        if self.title:
            out["title"] = self.title
        if self.was is not None and self.was[0] != self.key:
            out["was"] = {"key": self.was[0], "row": self.was[1]} | ({"title": self.was[2]} if self.was[2] else {})
        if self.kind == "changed":
            out["fields"] = list(self.fields)
            out["drawing_changed"] = not self.fields and self.count is None
            if self.count is not None:
                out["copies"] = list(self.count)
        return out


@dataclass(eq=False)
class Diff:
    """The changes of a planned kit against ``old`` (in kit order: changed and added as the new kit
    lists them, then removed as the old one did); ``skipped``: the components with more than
    ``limit`` unpaired parts on a side, not paired by similarity (pnp.pipeline.pairing)."""
    game: str
    paper: str
    old: OldKit
    changes: list[Change] = field(default_factory=list)
    skipped: tuple[str, ...] = ()
    limit: int = MAX_PAIRING

    @property
    def put_in(self) -> set[tuple[str, str]]:
        """(group, key) of the parts to print: new and changed."""
        return {(c.group, c.key) for c in self.changes if c.kind != "removed"}

    def notes(self) -> list[str]:
        """What the report must say beside the changes: each component not paired by similarity."""
        return [f"{group} has more than {self.limit:,} parts left without a counterpart on one side: they "
                "were paired by key or identical rows only, not by how alike their rows are"
                for group in self.skipped]

    def record(self) -> dict:
        return {"game": self.game, "paper": self.paper, "from": str(self.old.path),
                "from_generation": self.old.generation, "changes": [c.record() for c in self.changes],
                "similarity_skipped": list(self.skipped)}


def _short(key: str, limit: int = 60) -> str:
    """A key, title or component name read from a manifest (untrusted) as one line shows it: at most ``limit``
    characters, then every control, format and line-break character escaped (pnp.core.plaintext.plain)."""
    return plain(key if len(key) <= limit else key[:limit - 1] + "\u2026", newlines=False)


def compare(game: str, paper: str, old: OldKit, parts: Sequence[Part]) -> Diff:
    """What changed from ``old`` to the planned ``parts``, each paired with the earlier part it is
    by pnp.pipeline.pairing.pair (a paired part whose drawing and count are the same is unchanged,
    whatever its key)."""
    paired = pair(old.parts, parts)
    diff = Diff(game, paper, old, skipped=paired.skipped, limit=paired.limit)
    seen = set()
    for p in parts:
        was = paired.of.get(p.ident)
        if was is None:
            diff.changes.append(Change("added", p.group, p.key, p.row, title=p.title))
            continue
        seen.add((was.group, was.key))
        if was.fingerprint != p.fingerprint or was.count != p.count:
            before, after = dict(was.fields), dict(p.fields)
            fields = tuple(sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)))
            count = (was.count, p.count) if was.count != p.count else None
            diff.changes.append(Change("changed", p.group, p.key, p.row, fields, count, p.title,
                                       (was.key, was.row, was.title)))
    for ident, was in old.parts.items():
        if ident not in seen:
            diff.changes.append(Change("removed", was.group, was.key, was.row, title=was.title))
    return diff


# --------------------------------------------------------------------------------------------------
# Reading an earlier manifest (untrusted)
# --------------------------------------------------------------------------------------------------

def read_old(out: Path, game: str, paper: str, generation: int | None = None) -> OldKit:
    """The earlier kit of ``game`` on ``paper`` in ``out``: the current one, or the build numbered
    ``generation`` that the kit's history still holds.

    Raises:
        OutputError: no kit yet, no such generation (naming those held), a manifest too large, not
            JSON, of another game or paper, or a field of the wrong type (naming the file and field).
    """
    rel = manifest_name(paper) if generation is None else history_name(paper, generation)
    with read_only_view(out, game) as root:
        number = generation if generation is not None else max([1, *held_generations(root, paper)])
        try:
            with open_read(root, rel) as f:
                data = read_fd(f.fileno(), MAX_MANIFEST_BYTES)  # f.read(n) would allocate n bytes first
        except FileNotFoundError:
            if generation is None:
                raise OutputError(f"no kit of {game} on {paper} has been built in this output folder yet.",
                                  file=Path(out) / game / rel, field="--out",
                                  hint=f"run `pnp build {game} --paper {paper}` first") from None
            held = held_generations(root, paper)
            listed = f"it holds {', '.join(map(str, held))}" if held else "it holds none"
            raise OutputError(f"the kit's history has no generation {generation} on {paper} ({listed}).",
                              file=Path(out) / game / "history", field="--from",
                              hint="give one of the generations it holds") from None
    path = Path(out) / game / rel
    if len(data) > MAX_MANIFEST_BYTES:
        raise _bad(path, None, f"is larger than {MAX_MANIFEST_BYTES // (1024 * 1024)} MiB")
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _bad(path, None, f"is not JSON ({plain(str(exc), 200)})") from None
    except RecursionError:  # json's decoder recurses once per level of nesting
        raise _bad(path, None, "is nested too deeply to be read (a manifest is 3 levels deep)") from None
    return _validated(doc, path, game, paper, number)


def held_generations(root: Path, paper: str) -> list[int]:
    """The generations of ``paper``'s manifest that the kit folder ``root`` keeps in history/."""
    try:
        names = [f"history/{p.name}" for p in (root / "history").iterdir()]
    except OSError:
        return []
    return sorted(g for g in (history_generation(n, paper) for n in names) if g is not None)


def _bad(path: Path, fld: str | None, what: str) -> OutputError:
    where = f"its field {fld} " if fld else ""
    return OutputError(f"the manifest {where}{what}; it was not written by this pnp or was changed.", file=path,
                       field=fld, hint="build the kit again to write a new manifest")


def _validated(doc, path: Path, game: str, paper: str, gen: int) -> OldKit:
    if not isinstance(doc, dict):
        raise _bad(path, None, "is not a JSON object")
    if doc.get("game") != game or doc.get("paper") != paper:
        raise _bad(path, "game", f"names {str(doc.get('game'))[:40]!r} on {str(doc.get('paper'))[:40]!r}, "
                                 f"not {game} on {paper}")
    if "parts" not in doc:
        raise OutputError("the kit was built by a pnp that did not record its parts, so there is nothing to compare "
                          "with.", file=path, field="parts", hint="build it once more, then `pnp diff` compares")
    if doc.get("parts_version", 1) != PARTS_VERSION:
        version = doc.get("parts_version", 1)
        raise OutputError(f"the kit's manifest fingerprints its parts as parts version {str(version)[:20]}, and this "
                          f"pnp as version {PARTS_VERSION} (a template-drawn part by its template and the cells it "
                          "reads), so its parts cannot be compared.", file=path, field="parts_version",
                          hint="build the kit once with this pnp (its manifest then has the new fingerprints), "
                               "then `pnp diff` compares with it")
    raw = doc["parts"]
    if not isinstance(raw, list):
        raise _bad(path, "parts", "is not a list")
    parts: dict[tuple[str, str], PartRecord] = {}
    for i, p in enumerate(raw):
        where = f"parts[{i}]"
        if not isinstance(p, dict):
            raise _bad(path, where, "is not an object")
        group, key, fp, row, count, fields = (p.get(k) for k in
                                              ("component", "key", "fingerprint", "row", "count", "fields"))
        for name, value in (("component", group), ("key", key)):
            if not isinstance(value, str) or not value or len(value) > MAX_RECORD_TEXT:
                raise _bad(path, f"{where}.{name}", f"is not a text of 1 to {MAX_RECORD_TEXT:,} characters")
        title = p.get("title", "")
        if not isinstance(title, str) or len(title) > MAX_RECORD_TEXT:
            raise _bad(path, f"{where}.title", f"is not a text of at most {MAX_RECORD_TEXT:,} characters")
        if not isinstance(fp, str) or not _HEX.match(fp):
            raise _bad(path, f"{where}.fingerprint", "is not a sha256 in hex")
        if row is not None and (not isinstance(row, int) or isinstance(row, bool) or row < 0):
            raise _bad(path, f"{where}.row", "is not a row number")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _bad(path, f"{where}.count", "is not a count")
        if not isinstance(fields, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                   and len(k) <= MAX_RECORD_TEXT
                                                   and _HEX.match(v) for k, v in fields.items()):
            raise _bad(path, f"{where}.fields", "is not an object of column names and hashes")
        if (group, key) in parts:
            raise _bad(path, f"{where}.key", f"repeats the key {_short(key)!r} of {group}")
        parts[group, key] = PartRecord(group, key, row, count, fp, tuple(fields.items()), title)
    return OldKit(path, gen, parts)
