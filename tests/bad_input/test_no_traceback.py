"""No traceback anywhere: every command, run with stdout on /dev/full, ends with
one plain error line on stderr and a non-zero exit code; with stdout on a file the same command works
(so the failure is the full device, not a bad command line)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMANDS = {
    "list": ["list"],
    "list-json": ["list", "--json"],
    "validate": ["validate", "nonads"],
    "validate-json": ["validate", "--json", "nonads"],
    "build": ["build", "nonads", "--out", "{out}"],
    "preview": ["preview", "nonads", "--dpi", "10", "--out", "{out}"],
    "calibrate": ["calibrate", "--out", "{out}"],
    "version": ["--version"],
    "help": ["-h"],
    "build-help": ["build", "-h"],
}


def _run(args: list[str], out: Path, stdout) -> subprocess.CompletedProcess:
    argv = [a.replace("{out}", str(out)) for a in args]
    env = {k: v for k, v in os.environ.items() if k != "PNP_CACHE_DIR"}
    return subprocess.run([sys.executable, "-m", "pnp", *argv], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=300, env=env)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux) to make stdout fail")
@pytest.mark.parametrize("name", COMMANDS)
def test_stdout_on_dev_full_gives_one_line_and_no_traceback(tmp_path, name):
    with open("/dev/full", "w") as full:
        r = _run(COMMANDS[name], tmp_path / "full", full)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode != 0
    lines = [line for line in r.stderr.splitlines() if line.strip() and not line.startswith("note: ")]
    assert len(lines) == 1, r.stderr  # one error line (the build's notes on stderr may come before it)
    assert lines[0].startswith("error: cannot write to standard output: No space left on device")


@pytest.mark.parametrize("name", COMMANDS)
def test_the_same_commands_work_with_stdout_on_a_file(tmp_path, name):
    with open(tmp_path / "stdout.txt", "w") as f:
        r = _run(COMMANDS[name], tmp_path / "ok", f)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert (tmp_path / "stdout.txt").stat().st_size > 0
