"""`pnp watch` rebuilds after a real edit, keeps the last good kit after a bad edit, and stops cleanly
on Ctrl-C. A real subprocess, real file edits, bounded waits."""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from pnp.inputs.resources import specs_dir

WAIT = 60.0  # s: generous bound for a slow CI machine; the test normally takes about 5 s


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _until(predicate, what: str, lines: list[str]) -> None:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; output so far:\n" + "".join(lines))


def test_watch_rebuilds_on_edit_keeps_last_good_kit_and_stops_on_ctrl_c(tmp_path):
    spec = tmp_path / "nonads.yaml"
    original = (specs_dir() / "nonads.yaml").read_text(encoding="utf-8")
    spec.write_text(original, encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "nonads.md").write_text((specs_dir() / "rules" / "nonads.md").read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    out = tmp_path / "out"
    pdf = out / "nonads" / "nonads-a4.pdf"
    proc = subprocess.Popen([sys.executable, "-m", "pnp", "watch", str(spec), "-o", str(out), "-f", "pdf",
                             "--debounce", "100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        _until(lambda: any("watching" in ln for ln in lines), "the first build", lines)
        assert pdf.is_file() and any("nonads: 2 pages" in ln and "validate: pass" in ln for ln in lines)
        first = _sha(pdf)

        spec.write_text(original.replace("tile_size: 30mm", "tile_size: 28mm"), encoding="utf-8")
        _until(lambda: pdf.is_file() and _sha(pdf) != first, "the rebuild after an edit", lines)
        _until(lambda: sum("nonads: 2 pages" in ln for ln in lines) >= 2, "the rebuild report", lines)
        assert any("changed: nonads.yaml" in ln for ln in lines)
        good = _sha(pdf)

        spec.write_text(original.replace("tile_size: 30mm", "tile_size: -5mm"), encoding="utf-8")
        _until(lambda: any(ln.startswith("error:") for ln in lines), "the error after a bad edit", lines)
        assert any("tile_size" in ln and "last good kit is kept" in ln for ln in lines)
        assert _sha(pdf) == good

        (tmp_path / "rules" / "nonads.md").write_text(
            (specs_dir() / "rules" / "nonads.md").read_text(encoding="utf-8") + "- One more house rule.\n",
            encoding="utf-8")
        spec.write_text(original, encoding="utf-8")
        _until(lambda: _sha(pdf) not in (good, first), "the rebuild after the fix", lines)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=WAIT)
        finally:
            proc.kill()
    err = proc.stderr.read()
    assert code == 0 and "Traceback" not in err, err
