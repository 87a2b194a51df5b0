"""Where a component's ``url:`` is downloaded from: Google Sheets links mapped to their export addresses.

A pure function of the address and the data file's kind (its suffix), with no network:

* ``https://docs.google.com/spreadsheets/d/ID/edit#gid=N`` (a sheet's link, the address bar) ->
  ``.../d/ID/export?format=csv&gid=N``; ``/edit?usp=sharing`` (the Share button's link, no sheet named)
  -> the first sheet as CSV, or the whole workbook when ``data:`` is ``.xlsx`` or ``.ods``;
* ``https://docs.google.com/spreadsheets/d/e/PUB/pubhtml`` (File > Share > Publish to the web, as a web
  page) and ``.../d/e/PUB/pub?output=csv`` (the same, as CSV) -> ``.../d/e/PUB/pub?output=csv`` (with
  its ``gid`` and ``single=true`` when it names a sheet);
* any other address is downloaded as it is (the https address of a .csv, .tsv, .xlsx or .ods file).

The export's format follows ``data:``: ``.csv`` -> csv, ``.tsv`` -> tsv, ``.xlsx`` -> xlsx, ``.ods`` -> ods
(Google exports each). A workbook format exports every sheet (the spec's ``sheet:`` picks one), so a
``gid`` is kept only for CSV and TSV.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

GOOGLE_HOST = "docs.google.com"
FORMATS = {".csv": "csv", ".tsv": "tsv", ".xlsx": "xlsx", ".ods": "ods"}
_DOC = re.compile(r"^/spreadsheets/(?:u/\d+/)?d/(?P<id>[A-Za-z0-9_-]{10,200})(?:/(?P<rest>.*))?$")
_PUB = re.compile(r"^/spreadsheets/(?:u/\d+/)?d/e/(?P<id>[A-Za-z0-9_-]{10,300})/(?P<rest>pubhtml|pub)(?:/.*)?$")
_GID = re.compile(r"^\d{1,12}$")


@dataclass(frozen=True)
class Source:
    """A download: the ``address`` fetched and what it is, ``kind`` ("google sheet", "published
    sheet", "file"), ``fmt`` (csv, tsv, xlsx, ods: what the body must be) and the sheet's ``gid``
    when the address names one."""
    address: str
    kind: str
    fmt: str
    gid: str | None = None


def _gid(query: dict[str, list[str]], fragment: str) -> str | None:
    """The sheet id of a Google address: ``gid=N`` in the query or the fragment (``#gid=N``)."""
    found = query.get("gid", [None])[0]
    frag = parse_qs(fragment)
    found = frag.get("gid", [found])[0]
    return found if found is not None and _GID.match(found) else None


def export_source(url: str, suffix: str) -> Source:
    """The Source that downloads ``url`` as a ``suffix`` file (".csv", ".tsv", ".xlsx", ".ods").

    Raises:
        ValueError: ``suffix`` is not one of FORMATS (the caller words the spec's error).
    """
    fmt = FORMATS.get(suffix.lower())
    if fmt is None:
        raise ValueError(f"pnp pulls only {', '.join(FORMATS)} files, not {suffix or 'a file without a suffix'!r}")
    parts = urlsplit(url)
    if (parts.hostname or "").lower() != GOOGLE_HOST:
        return Source(url, "file", fmt)
    query = parse_qs(parts.query)
    gid = _gid(query, parts.fragment)
    sheet_only = fmt in ("csv", "tsv")
    pub = _PUB.match(parts.path)
    if pub:
        args = {"output": fmt}
        if gid is not None and sheet_only:
            args.update(gid=gid, single="true")
        return Source(f"https://{GOOGLE_HOST}/spreadsheets/d/e/{pub['id']}/pub?{urlencode(args)}", "published sheet",
                      fmt, gid if sheet_only else None)
    doc = _DOC.match(parts.path)
    if doc:
        args = {"format": fmt}
        if gid is not None and sheet_only:
            args["gid"] = gid
        return Source(f"https://{GOOGLE_HOST}/spreadsheets/d/{doc['id']}/export?{urlencode(args)}", "google sheet",
                      fmt, gid if sheet_only else None)
    return Source(url, "file", fmt)
