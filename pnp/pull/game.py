"""`pnp pull GAME`: every component's ``url:`` downloaded into the game folder as its ``data:`` file.

For each component with ``url:`` (pnp.pull.sources maps a Google Sheets link to its export address):

1. the data file's name passes the game folder's rule (pnp.inputs.gamefolder.inside), and its record
   (pnp.pull.record) is read back; when the record is for this ``url:`` and the file on disk is the
   one it describes, the request is conditional (a 304 downloads nothing);
2. the download is bounded (pnp.pull.fetch); a web page where a table was asked for (a Google sign-in
   page: the sheet is not shared) is refused, and so is a body that is not the data file's kind;
3. every file downloaded is read by the build's own reader and checks (the component's table, its
   columns, its cells, its templates' placeholders: the Game's check() with the new file in place
   of the old, as ``--set data=FILE`` gives it) before anything is replaced: a table the build would
   refuse is refused, naming its row and column, and every old file is kept as it was;
4. then each file is written atomically inside the folder (pnp.core.safepath.write_atomic: no link
   followed), and its record beside it.

A game pulls all its files or none. Nothing here runs during `pnp build`: only `pnp pull` and
`pnp watch --pull` call it.
"""
from __future__ import annotations

import hashlib
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import PnpError, SpecError
from ..core.findings import FAIL
from ..core.safepath import write_atomic
from ..custom import is_custom, load, spec_in_folder
from ..custom.spec import ComponentSpec
from ..engine import KitContext
from ..inputs.gamefolder import inside
from ..inputs.safefile import NotRegular, read_regular
from ..inputs.specfields import load_yaml
from ..inputs.weburl import host_of
from .fetch import Fetcher, Fetched, Progress, PullError
from .record import Record, read_record, write_record
from .sources import FORMATS, Source, export_source

_VALIDATOR = re.compile(r"^[\x20-\x7e]{1,512}$")
_HTML = re.compile(rb"^\s*(?:<!doctype\s+html|<html|<head|<meta|<!--)", re.IGNORECASE)
ZIP_MAGIC = b"PK\x03\x04"
SHARE_HINT = ("share the sheet: in Google Sheets choose Share > General access > Anyone with the link (Viewer), or "
              "File > Share > Publish to the web; then pull again (docs/pull.md)")


class NothingToPull(SpecError):
    """The game has no component with ``url:`` (or is not data-driven): there is nothing to pull."""


@dataclass(frozen=True)
class Pulled:
    """One data file's pull: its ``data`` name, the ``source`` asked, what happened (``status``:
    "downloaded", "unchanged" after a 304, "same" when the body was the file already) and ``bytes``."""
    data: str
    source: Source
    status: str
    bytes: int = 0


@dataclass
class PullReport:
    """What one pull of a game did: a Pulled per data file, the ``notes`` to print (a record
    ignored, checks failing on the new data, another error the build will meet)."""
    spec: Path
    pulled: list[Pulled] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """True when a data file was replaced (a watch then rebuilds)."""
        return any(p.status == "downloaded" for p in self.pulled)


@dataclass(eq=False)
class _Job:
    comp: ComponentSpec
    keys: list[str]  # the input names of the components that read this file ("data", "data.<name>")
    line: int | None
    source: Source
    old: bytes | None
    record: Record | None
    fetched: Fetched | None = None


def spec_path_of(target: str | Path) -> Path:
    """The spec file a pull target names: a game folder (``DIR/<DIR>.yaml``) or the spec file.

    Raises:
        SpecError: no such folder or file.
    """
    path = Path(target)
    if path.is_dir():
        return spec_in_folder(path)
    if not path.is_file():
        raise SpecError(f"{target} is neither a game folder nor a spec file.", field="GAME",
                        hint="name the folder `pnp new` made, or its .yaml spec")
    return path


def pull_game(target: str | Path, fetcher: Fetcher, progress: Progress | None = None) -> PullReport:
    """Pull every ``url:`` of the data-driven game ``target`` (folder or spec file) into its folder.

    Raises:
        NothingToPull: the spec is not data-driven or has no ``url:``.
        SpecError: the spec cannot be loaded, a ``data:`` name
            the folder's rule refuses or a suffix pnp does not pull, two URLs for one file.
        PullError: a download failed or was refused (the sign-in page of an unshared sheet, a body
            of the wrong kind, a table the build's checks refuse): no file is changed.
        OutputError: the folder cannot be written.
    """
    spec_path = spec_path_of(target)
    data, lines = load_yaml(spec_path)
    if not (isinstance(data, dict) and "components" in data and is_custom(data)):
        raise NothingToPull("pnp pull downloads the url: of a data-driven game's components; this spec has none.",
                        file=spec_path, field="components", hint="add url: to a component with data: (docs/pull.md)")
    game, spec = load(spec_path, data, lines)
    report = PullReport(spec_path)
    jobs = _jobs(spec, spec_path, lines, report)
    for name, job in jobs.items():
        job.fetched = _fetch(job, fetcher, progress, spec_path.parent / name)
    staged = {name: job for name, job in jobs.items()
              if job.fetched.status == 200 and job.fetched.body != job.old}
    if staged:
        _check(game, spec, spec_path, staged, report)
    root = spec_path.parent
    for name, job in jobs.items():
        got = job.fetched
        if got.status == 304:
            report.pulled.append(Pulled(name, job.source, "unchanged"))
            continue
        if name in staged:
            write_atomic(root, name, got.body)
        write_record(root, name, Record(job.comp.url, job.source.address, time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                        time.gmtime()), _valid(got.etag), _valid(got.last_modified),
                                        hashlib.sha256(got.body).hexdigest(), len(got.body)))
        report.pulled.append(Pulled(name, job.source, "downloaded" if name in staged else "same", len(got.body)))
    return report


def _jobs(spec, spec_path: Path, lines: dict, report: PullReport) -> dict[str, _Job]:
    """One job per data file named by a component with ``url:`` (keyed by the file's name)."""
    root = spec_path.parent
    first = next((c for c in spec.components if c.data is not None), None)
    jobs: dict[str, _Job] = {}
    for index, comp in enumerate(spec.components):
        if comp.url is None:
            continue
        line = lines.get(("components", index, "url"), lines.get(("components", index)))
        where = dict(file=spec_path, line=lines.get(("components", index, "data"), line),
                     field=f"components.{index}.data")
        path = inside(comp.data, root, what="data", must_exist=False, **where)
        try:
            source = export_source(comp.url, path.suffix)
        except ValueError as exc:
            raise SpecError(f"{exc}.", hint=f"name data: with one of {', '.join(FORMATS)}", **where) from None
        name = comp.data
        if name in jobs:
            if jobs[name].comp.url != comp.url:
                raise SpecError(f"components {jobs[name].comp.name!r} and {comp.name!r} download {name} from two "
                                "addresses.", file=spec_path, line=line, field=f"components.{index}.url",
                                hint="give both the same url:, or name a data: file of its own for each")
        else:
            record, why = read_record(root, name)
            if why:
                report.notes.append(f"{why}; the whole file is downloaded again")
            jobs[name] = _Job(comp, [], line, source, _current(path), record)
    for job in jobs.values():  # every component reading a pulled file is checked with the new one
        job.keys = ["data" if c is first else f"data.{c.name}" for c in spec.components if c.data == job.comp.data]
    if not jobs:
        raise NothingToPull("no component of this game has url:, so there is nothing to pull.", file=spec_path,
                        field="components", hint="add url: (the sheet's share link) beside a component's data: "
                                                 "(docs/pull.md)")
    return jobs


def _current(path: Path) -> bytes | None:
    """The data file's bytes as they are now, None when it is missing or unreadable."""
    try:
        return read_regular(path, 1 << 30)
    except (OSError, NotRegular):
        return None


def _fetch(job: _Job, fetcher: Fetcher, progress: Progress | None, path: Path) -> Fetched:
    """The job's download, conditional when its record describes the file on disk; its body checked.

    Raises:
        PullError: as Fetcher.get, or the body is not the data file's kind (naming ``path``).
    """
    rec, old = job.record, job.old
    fresh = rec is not None and rec.url == job.comp.url and rec.address == job.source.address and \
        old is not None and hashlib.sha256(old).hexdigest() == rec.sha256
    try:
        got = fetcher.get(job.source.address, rec.etag if fresh else None, rec.last_modified if fresh else None,
                          progress, "the sheet")
        if got.status == 304 and not fresh:
            raise PullError("the sheet answered 304 Not Modified to a request that was not conditional.",
                            hint="check the address in url:")
        if got.status == 200:
            _check_kind(got, job)
    except PullError as exc:
        exc.file = exc.file or str(path)
        raise
    return got


def _check_kind(got: Fetched, job: _Job) -> None:
    """Refuse a body that is not a ``job.source.fmt`` file: a web page (a sign-in page), a workbook
    where a CSV was asked for, or a CSV where a workbook was."""
    ctype = got.content_type.split(";")[0].strip().lower()
    head = got.body[:65536]
    html = ctype in ("text/html", "application/xhtml+xml") or bool(_HTML.match(head[:512]))
    fmt, url = job.source.fmt, job.comp.url
    if html:
        google = job.source.kind != "file" or host_of(got.address).endswith("google.com") or \
            b"accounts.google.com" in head
        raise PullError(f"{_short(url)} answered with a web page{' (a Google sign-in page)' if google else ''}, not "
                        f"a {fmt.upper()} file: the sheet is not shared with everyone who has the link"
                        + ("" if google else ", or the address is a page about the file, not the file") + ".",
                        hint=SHARE_HINT if google else
                        f"{SHARE_HINT}; for a file elsewhere, use the address that downloads the file itself")
    workbook = got.body.startswith(ZIP_MAGIC)
    if fmt in ("xlsx", "ods") and not workbook:
        raise PullError(f"{_short(url)} gave a file that is not a {fmt.upper()} workbook (it does not start as one).",
                        hint=f"use the address of a .{fmt} file, or name data: with the suffix of what the address "
                             "gives (.csv)")
    if fmt in ("csv", "tsv") and workbook:
        raise PullError(f"{_short(url)} gave a workbook (a zip file), not {fmt.upper()}.",
                        hint="name data: with .xlsx (or .ods), or use the address of a single sheet as CSV")


def _short(url: str, most: int = 80) -> str:
    return url if len(url) <= most else url[: most - 1] + "\u2026"


def _check(game, spec, spec_path: Path, staged: dict[str, _Job], report: PullReport) -> None:
    """Run the build's own reading and checks with every staged file in place of its data file.

    Raises:
        PullError: an error naming a staged file (its row and column): the files are not written.
    """
    with tempfile.TemporaryDirectory(prefix="pnp-pull-") as tmp:
        overrides, back = {}, {}
        for n, (name, job) in enumerate(staged.items()):
            folder = Path(tmp) / str(n)
            folder.mkdir()
            path = folder / Path(name).name
            path.write_bytes(job.fetched.body)
            back[str(path)] = (name, job)
            overrides.update({k: path for k in job.keys})
        ctx = KitContext(spec_path, overrides, full=False)
        try:
            findings = game.check(spec, ctx)
        except PnpError as exc:
            if exc.file in back:
                name, job = back[exc.file]
                raise PullError(f"{exc.message.rstrip('.')} (in the sheet downloaded from {job.comp.url}; {name} is "
                                "kept as it was).", file=spec_path.parent / name, line=exc.line, field=exc.field,
                                hint=exc.hint) from None
            report.notes.append(f"the pulled data is written, but the build will stop at: {exc}")
            return
    fails = [f for f in findings if f.status == FAIL]
    if fails:
        report.notes.append(f"{len(fails)} of the game's checks fail on the new data (pnp build refuses to write "
                            f"the kit until they pass): {fails[0].check}")


def _valid(validator: str | None) -> str | None:
    """A server's ETag or Last-Modified as recorded: printable ASCII of at most 512 characters, else None."""
    return validator if validator is not None and _VALIDATOR.match(validator) else None

