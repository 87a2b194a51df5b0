"""`pnp watch --pull SECONDS`: the sheet is pulled before the first build and then on the period; an
edit of the sheet on the server rebuilds the kit, an unchanged sheet (304) does not, a sheet that turns
bad prints its error and keeps the last good file and kit. Bounded waits, no timed assertion."""
from __future__ import annotations

import threading

import pdfplumber
import yaml
from typer.testing import CliRunner

from pnp.cli import app
from pnp.pipeline.plan import Request, load_paper
from pnp.pipeline.watch import watch_kits
from sheetserver import Served, running
from test_watch import WAIT, _until  # bounded waits, as the watch's own tests wait


def _text(pdf) -> str:
    with pdfplumber.open(pdf) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def test_watch_pull_rebuilds_when_the_sheet_changes(tmp_path):
    folder = tmp_path / "deck"
    assert CliRunner().invoke(app, ["new", str(folder)]).exit_code == 0
    spec_path = folder / "deck.yaml"
    out = tmp_path / "out"
    pdf = out / "deck" / "deck-a4.pdf"
    with running() as server:
        server.files["/cards.csv"] = Served(b"name,text,copies\nKestrel,Fly over one tile.,1\n")
        spec = yaml.safe_load(spec_path.read_text(encoding="utf-8"))
        spec["components"][0]["url"] = server.url("/cards.csv")
        spec_path.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
        lines: list[str] = []
        stop = threading.Event()
        watcher = threading.Thread(target=watch_kits, args=([str(folder)], Request(load_paper("a4"), ("pdf",)), out),
                                   kwargs=dict(debounce_ms=50, say=lines.append, stop=stop, pull_every=0.2),
                                   daemon=True)
        watcher.start()
        try:
            _until(lambda: any(ln.startswith("watching") for ln in lines), "the first build", lines)
            assert "Kestrel" in _text(pdf)  # pulled before the first build
            _until(lambda: server.requests("/cards.csv") >= 3, "two more pulls", lines)
            assert sum(ln.startswith("deck:") for ln in lines) == 1  # 304s: no rebuild
            server.files["/cards.csv"] = Served(b"name,text,copies\nOsprey,Dive onto one tile.,1\n")
            _until(lambda: pdf.is_file() and "Osprey" in _text(pdf), "the rebuild after the sheet changed", lines)
            good = pdf.read_bytes()
            server.files["/cards.csv"] = Served(b"name,text,copies\nOsprey,Dive.,1,stray\n")
            _until(lambda: any("error: pull:" in ln and "kept" in ln for ln in lines), "the bad sheet's error", lines)
            assert b"Osprey,Dive onto one tile." in (folder / "cards.csv").read_bytes()
            assert pdf.read_bytes() == good
        finally:
            stop.set()
            watcher.join(WAIT)
        assert not watcher.is_alive()
