"""`pnp watch --serve`, driven as a designer uses it, in headless Chromium (Playwright driving Debian's
/usr/bin/chromium): open the page, edit the data, see the new word on the page without touching the
browser, make a bad edit, see the error (file, line) above the last good pages, fix it, see the error go.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from pnp.inputs.resources import builtin_folder, builtin_spec, specs_dir
from conftest import sigint_default
from test_watch import WAIT, _stop, _until

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def _require_browser() -> None:
    from browser import require_chromium
    require_chromium("drives the live-preview page through edits in a browser")


def test_live_preview_follows_edits_and_shows_errors(tmp_path):
    _require_browser()
    from playwright.sync_api import sync_playwright

    words = tmp_path / "words.txt"
    words.write_text("TREE\nBIRD\nFISH\n", encoding="utf-8")
    spec = tmp_path / "netmatch.yaml"
    text = (builtin_spec("netmatch")).read_text(encoding="utf-8")
    spec.write_text(text.replace("words: netmatch-words.txt", "words: words.txt")
                    .replace("expected_words: 75", "expected_words: null"), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(spec), "--serve", "--port", "0",
                             "-o", str(tmp_path / "out"), "-f", "pdf", "--debounce", "100"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=sigint_default,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        url = next(m.group(0) for ln in lines if (m := re.search(r"http://127\.0\.0\.1:\d+/", ln)))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            page = browser.new_page()
            page.goto(url)
            content = "() => document.body.textContent"
            page.wait_for_function(f"() => ({content})().includes('BIRD')", timeout=WAIT * 1000)
            assert "QQQQ" not in page.evaluate(content)
            bom = page.inner_text("table")
            assert "word card" in bom and "3" in bom

            words.write_text("TREE\nBIRD\nQQQQ\n", encoding="utf-8")  # the new word: the page reloads by itself
            page.wait_for_function(f"() => ({content})().includes('QQQQ') && !({content})().includes('FISH')",
                                   timeout=WAIT * 1000)

            words.write_text("TREE\nAB1D\nQQQQ\n", encoding="utf-8")  # a bad edit
            page.wait_for_selector(".error", timeout=WAIT * 1000)
            error = page.inner_text(".error")
            assert "words.txt" in error and "line 2" in error, error
            assert "QQQQ" in page.evaluate(content), "the last good pages must stay"

            words.write_text("TREE\nBIRD\nROAD\n", encoding="utf-8")  # fixed
            page.wait_for_function(f"() => ({content})().includes('ROAD')", timeout=WAIT * 1000)
            assert page.query_selector(".error") is None
            browser.close()
    finally:
        _stop(proc)


PORT = 8765  # the port the app is told it listens on (TestClient sends its requests to it directly)
BASE = f"http://127.0.0.1:{PORT}"


def _kit(tmp_path):
    """A served kit of one SVG page in tmp_path/out/nonads (pnp's link to the generation folder
    out/.pnp/nonads.g1, as pnp.store makes it), a sentinel file outside it, and a TestClient."""
    from starlette.testclient import TestClient

    from pnp.pipeline.serve import PreviewState, make_app
    (tmp_path / "out" / ".pnp" / "nonads.g1" / "svg").mkdir(parents=True)
    folder = tmp_path / "out" / "nonads"
    folder.symlink_to(".pnp/nonads.g1", target_is_directory=True)
    (folder / "svg" / "a.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><text>PAGE-A</text></svg>",
                                          encoding="utf-8")
    (tmp_path / "secret.txt").write_text("SENTINEL-7f3c", encoding="utf-8")
    state = PreviewState(["nonads"])
    state.kit_ok(0, "Nonads", folder, {"files": [{"path": "svg/a.svg"}], "components": []}, "checks: pass")
    return folder, TestClient(make_app(state, PORT), base_url=BASE, raise_server_exceptions=False)


def test_the_server_serves_only_files_of_the_kit(tmp_path):
    """/kit/<n>/<file> answers only for files the build wrote (its manifest), never a path outside."""
    _, client = _kit(tmp_path)
    r = client.get("/kit/0/svg/a.svg")
    assert r.status_code == 200 and "PAGE-A" in r.text and r.headers["content-type"].startswith("image/svg+xml")
    for bad in ("/kit/0/../secret.txt", "/kit/0/%2e%2e/secret.txt", "/kit/1/svg/a.svg", "/kit/0/svg/b.svg"):
        r = client.get(bad)
        assert r.status_code == 404 and "SENTINEL" not in r.text, bad
    page = client.get("/").text
    assert 'data-src="/kit/0/svg/a.svg"' in page and "checks: pass" in page


def test_the_server_answers_only_its_own_address(tmp_path):
    """A DNS-rebinding page (its own name resolved to 127.0.0.1) sends its name as Host: refused with 400
    for the page, /state and every kit file; the names of this machine with the server's port are answered."""
    _, client = _kit(tmp_path)
    for host in ("evil.example", f"evil.example:{PORT}", "127.0.0.1", f"127.0.0.1:{PORT + 1}",
                 f"localhost.evil.example:{PORT}", f"127.0.0.1:{PORT}.evil.example"):
        for path in ("/", "/state", "/kit/0/svg/a.svg"):
            r = client.get(path, headers={"Host": host})
            assert r.status_code == 400, (host, path, r.status_code)
            assert "PAGE-A" not in r.text and "Nonads" not in r.text and "svg/a.svg" not in r.text, (host, path)
    for host in (f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"LOCALHOST:{PORT}", f"[::1]:{PORT}"):
        assert client.get("/state", headers={"Host": host}).json()["kits"][0]["title"] == "Nonads", host
        assert "PAGE-A" in client.get("/kit/0/svg/a.svg", headers={"Host": host}).text, host


def test_a_kit_file_replaced_by_a_link_or_deleted_is_a_404(tmp_path):
    """A file of the kit replaced by a symlink to a file outside is not followed; a deleted one, a folder
    turned into a link, a FIFO: each a 404 with no traceback, never a 500."""
    folder, client = _kit(tmp_path)
    page = folder / "svg" / "a.svg"
    page.unlink()
    r = client.get("/kit/0/svg/a.svg")
    assert r.status_code == 404 and "Traceback" not in r.text

    page.symlink_to(tmp_path / "secret.txt")
    r = client.get("/kit/0/svg/a.svg")
    assert r.status_code == 404 and "SENTINEL" not in r.text

    page.unlink()
    os.mkfifo(page)
    assert client.get("/kit/0/svg/a.svg").status_code == 404  # and it did not hang on the FIFO

    page.unlink()
    (folder / "svg").rmdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "a.svg").write_text("SENTINEL-7f3c", encoding="utf-8")
    (folder / "svg").symlink_to(tmp_path / "elsewhere")
    r = client.get("/kit/0/svg/a.svg")
    assert r.status_code == 404 and "SENTINEL" not in r.text


def test_a_kit_link_re_pointed_outside_out_serves_nothing(tmp_path):
    """OUT/<game> re-pointed while the watch runs (to a folder outside --out, or to a generation folder that is
    itself a link leading out): the kit's files are 404s, and the outside files' text is never sent."""
    folder, client = _kit(tmp_path)
    assert "PAGE-A" in client.get("/kit/0/svg/a.svg").text
    outside = tmp_path / "elsewhere"
    (outside / "svg").mkdir(parents=True)
    (outside / "svg" / "a.svg").write_text("SENTINEL-7f3c", encoding="utf-8")
    folder.unlink()
    folder.symlink_to(outside, target_is_directory=True)
    r = client.get("/kit/0/svg/a.svg")
    assert r.status_code == 404 and "SENTINEL" not in r.text
    folder.unlink()
    (tmp_path / "out" / ".pnp" / "nonads.g2").symlink_to(outside, target_is_directory=True)
    folder.symlink_to(".pnp/nonads.g2", target_is_directory=True)  # pnp's name, a link leading out
    r = client.get("/kit/0/svg/a.svg")
    assert r.status_code == 404 and "SENTINEL" not in r.text
    folder.unlink()
    folder.symlink_to(".pnp/nonads.g1", target_is_directory=True)  # back: served again
    assert "PAGE-A" in client.get("/kit/0/svg/a.svg").text


def test_the_preview_marks_the_parts_changed_since_the_previous_build(tmp_path):
    """Two builds of a deck, as the watch loop reports them: the page lists the changed keys under a
    badge and outlines exactly the SVG pages that print them (read back from the SVG files); the kit's
    own files carry no mark."""
    import xml.etree.ElementTree as ET

    from pnp.pipeline.execute import build_kit
    from pnp.pipeline.serve import PreviewState
    from test_diff import write_deck

    rows = [(f"k{i:02d}", f"Name {i}", str(i), "#000000") for i in range(20)]
    spec = write_deck(tmp_path / "deck", rows)
    out = tmp_path / "out"
    state = PreviewState([str(spec)])
    first = build_kit(str(spec), formats=("svg",), out=out)
    state.kit_ok(0, "Deck", out / "deck", first.manifest, "")
    assert 'class="badge"' not in client_page(state)  # nothing to compare the first build with
    rows[13] = ("k13", "Renamed", "13", "#000000")
    write_deck(spec.parent, rows)
    second = build_kit(str(spec), formats=("svg",), out=out)
    state.kit_ok(0, "Deck", out / "deck", second.manifest, "")
    page = client_page(state)
    assert "1 changed" in page and "card: k13 (changed)" in page
    outlined = re.findall(r'class="page changed" data-src="/kit/0/([^"]+)"', page)
    svg_ns = "{http://www.w3.org/2000/svg}"
    holding = []
    for f in sorted((out / "deck" / "svg").glob("*.svg")):
        texts = "".join(t.text or "" for t in ET.parse(f).iter(f"{svg_ns}text"))
        assert "badge" not in f.read_text() and "changed" not in texts
        if "CARD-k13" in texts:
            holding.append(f"svg/{f.name}")
    assert outlined == holding and len(holding) == 1


def client_page(state) -> str:
    from starlette.testclient import TestClient

    from pnp.pipeline.serve import make_app
    return TestClient(make_app(state, PORT), base_url=BASE).get("/").text
