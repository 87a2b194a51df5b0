"""Which part of an earlier kit each planned part is: by its key, else by the content of its row.

A part's key names it across builds (pnp.pipeline.parts). When the spec declares ``key:``, or a
generator keys its own parts, keys alone decide. Otherwise the key is a guess (the first column
whose cells all differ, else the row number) that an edit can change: fixing a typo in a card's
name changes its key, and inserting a row shifts every later row number. Such parts are paired as
version control pairs a renamed file with its old self, in this order, within one component, each
part paired at most once:

1. **The same key**, when the key is a column's cell (a row number names no card, so it waits for 4).
2. **The same fields**: an old and a new part whose rows hash alike, cell for cell (a row moved or
   shifted by an insertion), in kit order.
3. **Similar fields**: of the rest, every old and new part whose similarity is at least SIMILAR
   (git's 50 % rename rule), best pairs first (the most similar, then the nearest rows, then kit
   order). The manifest keeps a hash of each cell, not its text, so similarity counts cells:
   2 x (cells alike) / (cells of the old row + cells of the new one), the ratio difflib's
   SequenceMatcher gives two rows as lists of (column, cell hash) pairs. A row that is the same
   but for one of its four cells is 75 % alike; a one-column row is never similar to another.
4. **The same key** for the parts still unpaired (a row number: what replaced a row).

Step 3 is quadratic in the parts left unpaired; a component with more than MAX_PAIRING of them on
either side (a forged or huge manifest) skips it, and the pairing says so.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .parts import Part, PartRecord

SIMILAR = 0.5  # the least similarity (2 x cells alike / cells of both rows) of two paired rows
MAX_PAIRING = 1000  # unpaired parts of a component, on either side, past which step 3 is skipped
CONTENT_KEYED = ("column", "row")  # Part.keyed values whose parts are paired by content


@dataclass(frozen=True, eq=False)
class Pairing:
    """``of``: each paired planned part's (group, key) -> the earlier kit's part it is; ``skipped``:
    the components (group names, in kit order) with more than ``limit`` parts left unpaired on a
    side after step 2, which were not paired by similarity (step 3)."""
    of: dict[tuple[str, str], PartRecord]
    skipped: tuple[str, ...]
    limit: int


def pair(old: Mapping[tuple[str, str], PartRecord], parts: Sequence[Part],
         limit: int | None = None) -> Pairing:
    """Pair the planned ``parts`` with the earlier kit's parts ``old`` ((group, key) -> record),
    as the module says; ``limit`` (default MAX_PAIRING) bounds step 3. Deterministic: the same
    inputs give the same pairs. Work: linear in the parts but for step 3, which compares at most
    ``limit`` x ``limit`` pairs of rows per component, cell by cell."""
    limit = MAX_PAIRING if limit is None else limit
    of: dict[tuple[str, str], PartRecord] = {}
    used: set[tuple[str, str]] = set()
    for p in parts:  # step 1, and keys alone for declared and generated keys
        if p.keyed != "row" and p.ident in old:
            of[p.ident] = old[p.ident]
            used.add(p.ident)
    content = {p.group for p in parts if p.keyed in CONTENT_KEYED}
    new_left: dict[str, list[Part]] = {}
    for p in parts:
        if p.group in content and p.ident not in of:
            new_left.setdefault(p.group, []).append(p)
    old_left: dict[str, list[PartRecord]] = {}
    for ident, was in old.items():
        if ident[0] in new_left and ident not in used:
            old_left.setdefault(ident[0], []).append(was)
    skipped = []
    for group, news in new_left.items():
        olds = _same_fields(news, old_left.get(group, []), of, used)
        news = [p for p in news if p.ident not in of]
        if not news or not olds:
            continue
        if len(news) > limit or len(olds) > limit:
            skipped.append(group)
            continue
        _similar(news, olds, of, used)
    for p in parts:  # step 4
        if p.ident not in of and p.ident in old and p.ident not in used:
            of[p.ident] = old[p.ident]
            used.add(p.ident)
    return Pairing(of, tuple(skipped), limit)


def _same_fields(news: list[Part], olds: list[PartRecord], of: dict, used: set) -> list[PartRecord]:
    """Step 2: pair the parts whose rows hash alike, in kit order; the old parts left."""
    by_fields: dict[tuple, list[PartRecord]] = {}
    for was in reversed(olds):  # popped from the end: kit order
        if was.fields:
            by_fields.setdefault(tuple(sorted(was.fields)), []).append(was)
    for p in news:
        same = by_fields.get(tuple(sorted(p.fields))) if p.fields else None
        if same:
            was = same.pop()
            of[p.ident] = was
            used.add((was.group, was.key))
    return [was for was in olds if (was.group, was.key) not in used]


def _similar(news: list[Part], olds: list[PartRecord], of: dict, used: set) -> None:
    """Step 3: pair the parts whose rows are at least SIMILAR alike, the best pairs first. Only the
    pairs that share a cell are compared (an index of the old rows' (column, hash) pairs)."""
    index: dict[tuple[str, str], list[int]] = {}
    old_sizes = []
    for j, was in enumerate(olds):
        cells = set(was.fields)
        old_sizes.append(len(cells))
        for cell in cells:
            index.setdefault(cell, []).append(j)
    candidates = []
    for i, p in enumerate(news):
        cells = set(p.fields)
        shared: dict[int, int] = {}
        for cell in cells:
            for j in index.get(cell, ()):
                shared[j] = shared.get(j, 0) + 1
        for j, n in shared.items():
            total = len(cells) + old_sizes[j]
            if 2 * n >= SIMILAR * total:
                distance = abs((p.row or 0) - (olds[j].row or 0))
                candidates.append((-2 * n / total, distance, i, j))
    candidates.sort()
    taken_new: set[int] = set()
    taken_old: set[int] = set()
    for _, _, i, j in candidates:
        if i in taken_new or j in taken_old:
            continue
        taken_new.add(i)
        taken_old.add(j)
        was = olds[j]
        of[news[i].ident] = was
        used.add((was.group, was.key))
