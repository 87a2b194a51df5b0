"""`pnp pull GAME` against a sheet server on 127.0.0.1 (tests/pull/sheetserver.py): a good CSV and XLSX
are pulled, recorded and built; an unchanged sheet is asked conditionally and not downloaded again;
every refusal (404, redirect loop, other schemes, a sign-in page, a 2 GB body, a stalled body, a table
the build's checks refuse) is one `error:` line, exit 2, and the old file byte-identical; `pnp build`
never makes a request."""
from __future__ import annotations

import hashlib
import io
import json
import time
from pathlib import Path

import openpyxl
import pdfplumber
import pytest
import yaml
from typer.testing import CliRunner

from pnp.cli import app
from pnp.pull import Fetcher, Limits, PullError
from sheetserver import HUGE, SEND_CAP, Served, running

runner = CliRunner()
GOOD = ("name,text,copies\n"
        "Falcon,Look at the top card of any deck.,2\n"
        "Otter,Swap two cards in the market.,1\n"
        "Heron,Draw a card; then discard a card.,3\n").encode()
BAD = b"name,text,copies\nFalcon,Look.,2\nOtter,Swap.,1,stray cell\n"  # a cell right of the header's last column
WAIT = 30.0  # s: bounded waits for the server's handler to finish (not a timed assertion)


def _invoke(*args: str):
    result = runner.invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def server():
    with running() as state:
        yield state


def _deck(tmp_path: Path, url: str | None, data: str = "cards.csv") -> Path:
    """A `pnp new` deck whose card component has ``url:`` (and ``data:`` named ``data``)."""
    folder = tmp_path / "deck"
    code, _, err = _invoke("new", str(folder))
    assert code == 0, err
    spec_path = folder / "deck.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    comp = spec["components"][0]
    comp["data"] = data
    if url is not None:
        comp["url"] = url
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return folder


def _text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def test_pull_downloads_the_csv_records_it_and_the_build_prints_its_rows(tmp_path, server):
    server.files["/cards.csv"] = Served(GOOD)
    folder = _deck(tmp_path, server.url("/cards.csv"))
    code, out, err = _invoke("pull", str(folder))
    assert code == 0, err
    assert (folder / "cards.csv").read_bytes() == GOOD
    assert f"downloaded {len(GOOD):,} bytes" in out
    record = json.loads((folder / "cards.csv.pull.json").read_text(encoding="utf-8"))
    assert record["url"] == server.url("/cards.csv") and record["etag"] == server.files["/cards.csv"].tag
    assert record["sha256"] == hashlib.sha256(GOOD).hexdigest() and record["bytes"] == len(GOOD)
    code, _, err = _invoke("build", str(folder), "-o", str(tmp_path / "out"), "-f", "pdf")
    assert code == 0, err
    text = _text(tmp_path / "out" / "deck" / "deck-a4.pdf")
    assert all(name in text for name in ("Falcon", "Otter", "Heron")) and "Scout" not in text


def test_an_unchanged_sheet_is_asked_conditionally_and_not_downloaded_again(tmp_path, server):
    server.files["/cards.csv"] = Served(GOOD)
    folder = _deck(tmp_path, server.url("/cards.csv"))
    assert _invoke("pull", str(folder))[0] == 0
    stamp = (folder / "cards.csv").stat().st_mtime_ns
    code, out, err = _invoke("pull", str(folder))
    assert code == 0, err
    assert server.requests("/cards.csv") == 2
    assert "If-None-Match" not in server.log[0][1]
    assert server.log[1][1].get("If-None-Match") == server.files["/cards.csv"].tag
    assert server.sent["/cards.csv"] == len(GOOD)  # the body went out once: the second answer was a 304
    assert "unchanged" in out and (folder / "cards.csv").stat().st_mtime_ns == stamp
    server.files["/cards.csv"] = Served(GOOD.replace(b"Heron", b"Crane"))  # the sheet is edited
    assert _invoke("pull", str(folder))[0] == 0
    assert b"Crane" in (folder / "cards.csv").read_bytes()
    spec_path = folder / "deck.yaml"  # another url: (the same file behind a redirect): asked whole again
    spec_path.write_text(spec_path.read_text(encoding="utf-8").replace("/cards.csv", "/hop"), encoding="utf-8")
    assert _invoke("pull", str(folder))[0] == 0
    assert server.log[-2][0] == "/hop" and "If-None-Match" not in server.log[-1][1]


def test_a_file_changed_on_disk_is_downloaded_whole_again(tmp_path, server):
    server.files["/cards.csv"] = Served(GOOD)
    folder = _deck(tmp_path, server.url("/cards.csv"))
    assert _invoke("pull", str(folder))[0] == 0
    (folder / "cards.csv").write_bytes(GOOD + b"Local,edit,1\n")
    assert _invoke("pull", str(folder))[0] == 0
    assert "If-None-Match" not in server.log[1][1]
    assert (folder / "cards.csv").read_bytes() == GOOD


@pytest.mark.parametrize("record, why", [
    ('{"version": 1, "url": "%s", "address": "%s", "pulled": "2026-01-01T00:00:00Z", "etag": "\\"x\\"\\r\\nX-Evil: 1",'
     ' "last_modified": null, "sha256": "%s", "bytes": 1}', "not a record pnp wrote"),
    ('{"version": 1, "url": "%s", "address": "%s", "pulled": "2026-01-01T00:00:00Z", "etag": "\\"x\\"", '
     '"last_modified": null, "sha256": "%s", "bytes": 1, "extra": 1}', "not a record pnp wrote"),
    ('[' * 5000, "not a record pnp wrote"),
    ('{"pad": "%s"}' % ("x" * 20000), "over 16,384 bytes"),
])
def test_a_record_that_is_not_pnps_is_ignored_and_the_file_downloaded_whole(tmp_path, server, record, why):
    server.files["/cards.csv"] = Served(GOOD)
    folder = _deck(tmp_path, server.url("/cards.csv"))
    (folder / "cards.csv").write_bytes(GOOD)
    if record.count("%s") == 3:
        record = record % (server.url("/cards.csv"), server.url("/cards.csv"), hashlib.sha256(GOOD).hexdigest())
    (folder / "cards.csv.pull.json").write_text(record, encoding="utf-8")
    code, _, err = _invoke("pull", str(folder))
    assert code == 0, err
    assert why in err and "downloaded again" in err
    assert "If-None-Match" not in server.log[0][1]
    assert json.loads((folder / "cards.csv.pull.json").read_text())["etag"] == server.files["/cards.csv"].tag


def test_a_record_that_is_a_symlink_is_not_read(tmp_path, server):
    server.files["/cards.csv"] = Served(GOOD)
    folder = _deck(tmp_path, server.url("/cards.csv"))
    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}", encoding="utf-8")
    (folder / "cards.csv.pull.json").symlink_to(outside)
    code, _, err = _invoke("pull", str(folder))
    assert code == 0, err
    assert "cannot be read" in err and outside.read_text() == "{}"  # replaced, never written through
    assert not (folder / "cards.csv.pull.json").is_symlink()


def test_an_xlsx_is_pulled_as_a_workbook(tmp_path, server):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in (["name", "text", "copies"], ["Lynx", "See in the dark.", 2], ["Mole", "Dig one tile.", 1]):
        sheet.append(row)
    raw = io.BytesIO()
    book.save(raw)
    server.files["/book.xlsx"] = Served(raw.getvalue(), "application/vnd.openxmlformats-officedocument."
                                                       "spreadsheetml.sheet", etag=False)
    folder = _deck(tmp_path, server.url("/book.xlsx"), data="cards.xlsx")
    code, out, err = _invoke("pull", str(folder))
    assert code == 0, err
    assert (folder / "cards.xlsx").read_bytes() == raw.getvalue()
    code, _, err = _invoke("build", str(folder), "-o", str(tmp_path / "out"), "-f", "pdf")
    assert code == 0, err
    assert "Lynx" in _text(tmp_path / "out" / "deck" / "deck-a4.pdf")
    code, out, _ = _invoke("pull", str(folder))  # no validators: downloaded again, found the same, not rewritten
    assert code == 0 and "unchanged" in out and "If-None-Match" not in server.log[-1][1]


@pytest.mark.parametrize("path, words", [
    ("/missing.csv", "answered HTTP 404"),
    ("/loop", "redirects in a loop"),
    ("/to-file", "does not download from: it is file:"),
    ("/to-ftp", "does not download from: it is ftp:"),
    ("/to-remote-http", "does not download from: it is plain http:// to another computer"),
    ("/login", "not shared"),
    ("/huge", "2,000,000,000 bytes"),
    ("/stall", "took longer than 2 s"),
    ("/bad.csv", "right of the header's last column"),
])
def test_a_refused_pull_is_one_error_line_and_keeps_the_old_file(tmp_path, server, path, words):
    server.files["/bad.csv"] = Served(BAD)
    folder = _deck(tmp_path, server.url(path))
    before = (folder / "cards.csv").read_bytes()
    code, out, err = _invoke("pull", str(folder), "--deadline", "2")
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err and "Fix:" in err
    assert (folder / "cards.csv").read_bytes() == before
    assert not (folder / "cards.csv.pull.json").exists()
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []  # no temporary file left
    if path == "/login":
        assert "Anyone with the link" in err and "Publish to the web" in err
    if path == "/bad.csv":
        assert "row 3" in err and "cards.csv is kept as it was" in err


def _sent(server, path: str) -> int:
    end = time.monotonic() + WAIT  # the handler records what it sent once the client has hung up
    while path not in server.sent and time.monotonic() < end:
        time.sleep(0.05)
    return server.sent[path]


def test_a_2_gb_body_is_refused_at_the_limit_and_never_sent_whole(server):
    with Fetcher(Limits(max_bytes=1 << 20)) as fetcher:
        with pytest.raises(PullError, match="2,000,000,000 bytes"):
            fetcher.get(server.url("/huge"))
        with pytest.raises(PullError, match="more than 1 MB"):
            fetcher.get(server.url("/huge-unsized"))
    assert _sent(server, "/huge") < SEND_CAP < HUGE
    assert _sent(server, "/huge-unsized") < SEND_CAP < HUGE


def test_a_stalled_body_is_stopped_at_the_deadline_not_the_read_timeout(server):
    # the read timeout (60 s) outlasts the server's stall (STALL, then it hangs up mid-body): only the
    # deadline can end the download with "took longer"
    with Fetcher(Limits(deadline=1.0, read=60.0)) as fetcher:
        with pytest.raises(PullError, match="took longer than 1 s"):
            fetcher.get(server.url("/stall"))


def test_a_redirect_is_followed_on_loopback_and_limited(server):
    server.files["/cards.csv"] = Served(GOOD)
    with Fetcher(Limits(redirects=1)) as fetcher:
        got = fetcher.get(server.url("/hop"))
        assert got.body == GOOD and got.address == server.url("/cards.csv")
    with Fetcher(Limits(redirects=0)) as fetcher:
        with pytest.raises(PullError, match="more than 0 times"):
            fetcher.get(server.url("/hop"))


def test_a_web_page_where_a_workbook_is_asked_is_refused(tmp_path, server):
    server.files["/page.xlsx"] = Served(b"name,text\nA,B\n")
    folder = _deck(tmp_path, server.url("/page.xlsx"), data="cards.xlsx")
    code, _, err = _invoke("pull", str(folder))
    assert code == 2 and "is not a XLSX workbook" in err and not (folder / "cards.xlsx").exists()


def test_build_makes_no_request_even_for_a_spec_with_url(tmp_path, server):
    server.files["/cards.csv"] = Served(GOOD)
    folder = _deck(tmp_path, server.url("/cards.csv"))
    code, _, err = _invoke("build", str(folder), "-o", str(tmp_path / "out"), "-f", "pdf")
    assert code == 0, err
    assert "Scout" in _text(tmp_path / "out" / "deck" / "deck-a4.pdf")  # the file on disk, not the sheet
    (folder / "cards.csv").unlink()
    code, _, err = _invoke("build", str(folder), "-o", str(tmp_path / "out"), "-f", "pdf")
    assert code == 2 and "pnp pull" in err
    code, _, err = _invoke("watch", str(folder), "--pull", "1")
    assert code == 2 and "--pull 1 s is outside 5..86400" in err
    assert server.log == []


@pytest.mark.parametrize("edit, words", [
    ({"url": "ftp://example.org/cards.csv"}, "ftp:"),
    ({"url": "http://example.org/cards.csv"}, "plain http:// to another computer"),
    ({"data": None, "url": "https://example.org/c.csv"}, "url: need data:"),
])
def test_a_bad_url_in_the_spec_is_refused_naming_its_line(tmp_path, edit, words):
    folder = _deck(tmp_path, None)
    spec_path = folder / "deck.yaml"
    spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
    comp = spec["components"][0]
    comp.update(edit)
    for k in [k for k, v in comp.items() if v is None]:
        del comp[k]
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False, default_flow_style=False), encoding="utf-8")
    code, _, err = _invoke("pull", str(folder))
    assert code == 2 and words in err and "deck.yaml, line" in err, err


def test_a_game_without_url_has_nothing_to_pull(tmp_path):
    folder = _deck(tmp_path, None)
    code, _, err = _invoke("pull", str(folder))
    assert code == 2 and "nothing to pull" in err
