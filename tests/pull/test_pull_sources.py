"""Google Sheets' link forms map to their export addresses (pnp.pull.sources.export_source, a pure
function), and the one URL rule (pnp.inputs.weburl) refuses what pnp never downloads from."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from pnp.inputs.weburl import url_problem
from pnp.pull.sources import export_source

ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcd"
PUB = "2PACX-1vQabcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"


def _parts(address: str) -> tuple[str, str, dict[str, list[str]]]:
    p = urlsplit(address)
    return p.netloc, p.path, parse_qs(p.query)


@pytest.mark.parametrize("link", [f"https://docs.google.com/spreadsheets/d/{ID}/edit#gid=123",
                                  f"https://docs.google.com/spreadsheets/d/{ID}/edit?gid=123#gid=123",
                                  f"https://docs.google.com/spreadsheets/u/1/d/{ID}/edit#gid=123",
                                  f"https://docs.google.com/spreadsheets/d/{ID}/export?format=xlsx&gid=123"])
def test_a_sheets_link_is_its_csv_export_with_the_sheets_gid(link):
    source = export_source(link, ".csv")
    host, path, query = _parts(source.address)
    assert (host, path) == ("docs.google.com", f"/spreadsheets/d/{ID}/export")
    assert query == {"format": ["csv"], "gid": ["123"]}
    assert (source.kind, source.fmt, source.gid) == ("google sheet", "csv", "123")


def test_the_share_buttons_link_is_the_first_sheet_as_csv_or_the_whole_workbook():
    link = f"https://docs.google.com/spreadsheets/d/{ID}/edit?usp=sharing"
    csv = export_source(link, ".csv")
    assert _parts(csv.address)[2] == {"format": ["csv"]} and csv.gid is None
    book = export_source(link, ".xlsx")
    assert _parts(book.address)[1:] == (f"/spreadsheets/d/{ID}/export", {"format": ["xlsx"]})
    assert _parts(export_source(link, ".ods").address)[2] == {"format": ["ods"]}
    assert _parts(export_source(link, ".TSV").address)[2] == {"format": ["tsv"]}


def test_a_workbook_export_drops_the_gid_every_sheet_comes():
    source = export_source(f"https://docs.google.com/spreadsheets/d/{ID}/edit#gid=77", ".xlsx")
    assert _parts(source.address)[2] == {"format": ["xlsx"]} and source.gid is None


@pytest.mark.parametrize("link, gid", [(f"https://docs.google.com/spreadsheets/d/e/{PUB}/pubhtml", None),
                                       (f"https://docs.google.com/spreadsheets/d/e/{PUB}/pubhtml?gid=5&single=true", "5"),
                                       (f"https://docs.google.com/spreadsheets/d/e/{PUB}/pub?output=csv", None),
                                       (f"https://docs.google.com/spreadsheets/d/e/{PUB}/pub?gid=5&single=true&output=csv",
                                        "5")])
def test_a_published_sheet_is_its_pub_csv(link, gid):
    source = export_source(link, ".csv")
    host, path, query = _parts(source.address)
    assert path == f"/spreadsheets/d/e/{PUB}/pub"
    assert query == ({"output": ["csv"]} if gid is None else {"output": ["csv"], "gid": [gid], "single": ["true"]})
    assert (source.kind, source.gid) == ("published sheet", gid)


def test_a_published_workbook_as_xlsx():
    source = export_source(f"https://docs.google.com/spreadsheets/d/e/{PUB}/pubhtml", ".xlsx")
    assert _parts(source.address)[2] == {"output": ["xlsx"]}


@pytest.mark.parametrize("link", ["https://example.org/decks/cards.csv?raw=1",
                                  "https://raw.githubusercontent.com/someone/game/main/cards.tsv",
                                  "https://docs.google.com/document/d/1abcdefghijklmnop/edit"])
def test_any_other_address_is_downloaded_as_it_is(link):
    source = export_source(link, ".csv")
    assert (source.address, source.kind) == (link, "file")


def test_a_suffix_pnp_does_not_read_is_refused():
    with pytest.raises(ValueError, match="not '.json'"):
        export_source("https://example.org/cards.json", ".json")


@pytest.mark.parametrize("url, problem", [
    ("file:///etc/passwd", "file:"), ("ftp://example.org/cards.csv", "ftp:"),
    ("http://example.org/cards.csv", "plain http:// to another computer"),
    ("http://10.0.0.1/cards.csv", "plain http:// to another computer"),
    ("https://user:secret@example.org/cards.csv", "user name or password"),
    ("https://example.org/a b.csv", "space"), ("https://", "no host"), ("cards.csv", "not a web address"),
    ("https://example.org:99999999/x", "not a web address"), ("https://x.org/" + "a" * 3000, "over 2048"),
])
def test_the_url_rule_refuses(url, problem):
    assert problem in (url_problem(url) or "")


@pytest.mark.parametrize("url", ["https://docs.google.com/spreadsheets/d/x/edit", "http://127.0.0.1:8000/c.csv",
                                 "http://[::1]:8000/c.csv", "http://localhost/c.csv", "HTTPS://Example.org/c.csv"])
def test_the_url_rule_allows(url):
    assert url_problem(url) is None
