"""The record of a pull, beside the data file: ``cards.csv`` -> ``cards.csv.pull.json``.

It says where the file came from (the spec's ``url:`` and the address downloaded), when, the server's
validators (``ETag``, ``Last-Modified``: the next pull asks "changed since?" and a 304 downloads
nothing) and the SHA-256 of the file written (a file changed on disk since is downloaded again).

The record is in the game folder, so it is untrusted when read back: at most MAX_RECORD_BYTES, read
through pnp.core.safepath (no symlink followed), UTF-8 JSON of exactly these fields, each bounded;
a validator must be printable ASCII (it goes into a request header). A record that fails any check is
ignored (the next pull downloads the whole file) and the caller is told why.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.errors import OutputError
from ..core.safepath import open_read, read_fd, write_atomic
from ..inputs.weburl import MAX_URL_CHARS

MAX_RECORD_BYTES = 16 * 1024
SUFFIX = ".pull.json"
VERSION = 1
_VALIDATOR = r"^[\x20-\x7e]{1,512}$"


class _Fields(BaseModel):
    """The record's fields as read back: every one checked, nothing else allowed."""
    model_config = ConfigDict(extra="forbid", strict=True)
    version: int = Field(ge=VERSION, le=VERSION)
    url: str = Field(min_length=1, max_length=MAX_URL_CHARS)
    address: str = Field(min_length=1, max_length=3 * MAX_URL_CHARS)
    pulled: str = Field(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
    etag: str | None = Field(default=None, pattern=_VALIDATOR)
    last_modified: str | None = Field(default=None, pattern=_VALIDATOR)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    bytes: int = Field(ge=0, le=1 << 40)


@dataclass(frozen=True)
class Record:
    """One pull: the spec's ``url``, the ``address`` downloaded, when (``pulled``, UTC,
    2026-01-31T12:00:00Z), the validators, the file's ``sha256`` and its size in ``bytes``."""
    url: str
    address: str
    pulled: str
    etag: str | None
    last_modified: str | None
    sha256: str
    bytes: int


def record_name(data: str) -> str:
    """The record's path beside the data file ``data`` (relative to the game folder)."""
    return str(PurePosixPath(data.replace("\\", "/"))) + SUFFIX


def read_record(root: Path, data: str) -> tuple[Record | None, str | None]:
    """The record of ``data`` in the game folder ``root`` and None, or (None, why it was ignored);
    (None, None) when there is none."""
    name = record_name(data)
    try:
        with open_read(root, name) as f:
            raw = read_fd(f.fileno(), MAX_RECORD_BYTES)
    except FileNotFoundError:
        return None, None
    except OutputError as exc:
        return None, f"{name} cannot be read ({exc.message})"
    if len(raw) > MAX_RECORD_BYTES:
        return None, f"{name} is over {MAX_RECORD_BYTES:,} bytes"
    try:
        fields = _Fields.model_validate(json.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, ValidationError, RecursionError):
        return None, f"{name} is not a record pnp wrote"
    data = fields.model_dump()
    data.pop("version")
    return Record(**data), None


def write_record(root: Path, data: str, record: Record) -> None:
    """Write ``record`` beside ``data`` in ``root`` (atomically, pnp.core.safepath).

    Raises:
        OutputError: the folder cannot be written, or a link or special file is in the way.
    """
    body = json.dumps({"version": VERSION, **asdict(record)}, indent=2, ensure_ascii=True) + "\n"
    write_atomic(root, record_name(data), body.encode("ascii"))
