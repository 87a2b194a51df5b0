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

from pnp.inputs.resources import specs_dir
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
    text = (specs_dir() / "netmatch.yaml").read_text(encoding="utf-8")
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


def test_the_server_serves_only_files_of_the_kit(tmp_path):
    """/kit/<n>/<file> answers only for files the build wrote (its manifest), never a path outside."""
    from starlette.testclient import TestClient

    from pnp.build.serve import PreviewState, make_app
    folder = tmp_path / "kit"
    (folder / "svg").mkdir(parents=True)
    (folder / "svg" / "a.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    state = PreviewState(["nonads"])
    state.kit_ok(0, "Nonads", folder, {"files": [{"path": "svg/a.svg"}], "components": []}, "checks: pass")
    client = TestClient(make_app(state))
    assert client.get("/kit/0/svg/a.svg").status_code == 200
    for bad in ("/kit/0/../secret.txt", "/kit/0/%2e%2e/secret.txt", "/kit/1/svg/a.svg", "/kit/0/svg/b.svg"):
        r = client.get(bad)
        assert r.status_code == 404 and "secret" not in r.text, bad
    page = client.get("/").text
    assert 'data-src="/kit/0/svg/a.svg"' in page and "checks: pass" in page
