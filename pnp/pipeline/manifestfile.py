"""A kit's manifest written as a stream: json's encoder writing to the files, never the whole text
in memory.

The text is JSON in UTF-8, laid out as ``json.dumps(doc, indent=2, ensure_ascii=False)`` lays it out,
except that a top-level value that is a :class:`Records` (the parts of a kit: one record per part,
made on demand) or a :class:`SpooledRecords` (the same, encoded as made into a temporary file) is a list with **one record per line**, each record as
``json.dumps(record, ensure_ascii=False, separators=(", ", ": "))`` writes it: a part's change is one
line of a text diff, and json's C encoder writes the records (its indenting encoder is Python). A
100,000-part kit's manifest is about 20 MB of text; here at most CHUNK characters of it are held at
a time, and no record list is ever built.
"""
from __future__ import annotations

import json
import tempfile
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Callable, Iterator

from ..core.safepath import open_write

CHUNK = 1 << 16  # characters of text gathered before each write
_ENCODER = json.JSONEncoder(indent=2, ensure_ascii=False)
_RECORD = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))  # no indent: json's C encoder
_INDENT = " " * 2


class Records(Sequence):
    """A read-only sequence of JSON objects made on demand: ``make(item)`` for each of ``items``."""

    def __init__(self, items: Sequence, make: Callable[[object], dict]) -> None:
        self._items, self._make = items, make

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._make(v) for v in self._items[index]]
        return self._make(self._items[index])

    def __iter__(self) -> Iterator[dict]:
        make = self._make
        for v in self._items:
            yield make(v)


class SpooledRecords(Sequence):
    """JSON objects encoded as they are made, one per line as chunks() writes a record, into an
    anonymous temporary file (gone when closed or collected): a kit's 100,000 part records held on
    disk, not in memory, while its pages are written. Read back in order (iteration, each decoded),
    by index (the lines' offsets found on the first such read, 8 bytes a record) or as their text
    (``lines``, what chunks() writes).

    Raises:
        OSError: the temporary file cannot be made or written (disk full).
    """

    def __init__(self, records: Iterable[dict] = (), texts: Iterable[str] | None = None) -> None:
        """``records`` encoded as made; or ``texts``, each a record's JSON text as chunks() writes one
        (``json.dumps(record, ensure_ascii=False, separators=(", ", ": "))``, e.g.
        pnp.pipeline.parts.Part.record_text), spooled as they are."""
        self._file = tempfile.TemporaryFile()
        self._offsets: array | None = None
        self._count = 0
        held: list[bytes] = []
        for text in (map(_RECORD.encode, records) if texts is None else texts):
            held.append((text + "\n").encode("utf-8"))
            self._count += 1
            if len(held) >= 1024:
                self._file.write(b"".join(held))
                held = []
        self._file.write(b"".join(held))
        self._file.flush()

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if self._offsets is None:
            self._offsets, at = array("Q"), 0
            self._file.seek(0)
            for line in self._file:
                self._offsets.append(at)
                at += len(line)
        self._file.seek(self._offsets[index])
        return json.loads(self._file.readline().decode("utf-8"))

    def lines(self) -> Iterator[str]:
        """Each record's JSON text, in order (no line break)."""
        self._file.seek(0)
        for line in self._file:
            yield line[:-1].decode("utf-8")

    def __iter__(self) -> Iterator[dict]:
        for line in self.lines():
            yield json.loads(line)


def _value(value, level: int) -> str:
    """``value`` as json.dumps(indent=2) writes it at nesting ``level`` (its inner lines indented)."""
    return _ENCODER.encode(value).replace("\n", "\n" + _INDENT * level)


def chunks(doc: dict) -> Iterator[str]:
    """The text of ``json.dumps(doc, indent=2, ensure_ascii=False) + "\\n"`` in pieces, a Records
    value written as the list of its records, one record to a line (see the module)."""
    if not doc:
        yield "{}\n"
        return
    first = True
    for key, value in doc.items():
        yield ("{\n" if first else ",\n") + _INDENT + _ENCODER.encode(key) + ": "
        first = False
        if not isinstance(value, (Records, SpooledRecords)):
            yield _value(value, 1)
        elif not len(value):
            yield "[]"
        else:
            sep = "[\n" + _INDENT * 2
            texts = value.lines() if isinstance(value, SpooledRecords) else map(_RECORD.encode, value)
            for text in texts:
                yield sep + text
                sep = ",\n" + _INDENT * 2
            yield "\n" + _INDENT + "]"
    yield "\n}\n"


def write_json(root: Path, names: Sequence[str], doc: dict) -> None:
    """Write ``doc`` (see chunks) as UTF-8 to each of ``names`` under ``root`` at once, through the
    safe store's open_write (nothing below ``root`` is followed).

    Raises:
        OutputError: a name cannot be opened (open_write).
        OSError: a write fails (disk full, ...).
    """
    files = []
    try:
        for name in names:
            files.append(open_write(root, name))
        held: list[str] = []
        size = 0
        for piece in chunks(doc):
            held.append(piece)
            size += len(piece)
            if size >= CHUNK:
                data = "".join(held).encode("utf-8")
                for f in files:
                    f.write(data)
                held, size = [], 0
        data = "".join(held).encode("utf-8")
        for f in files:
            f.write(data)
    finally:
        for f in files:
            f.close()
