"""How a `pnp` process ends (pnp.cli.main): the interpreter's own exit guarantees hold: atexit
handlers run, a running thread is waited for, standard output is flushed, and the exit status is the
command's."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def _pnp_process(tmp_path: Path, body: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``body`` then ``pnp ARGS`` through pnp.cli.main in a fresh interpreter."""
    script = textwrap.dedent(body) + f"\nimport sys\nsys.argv = ['pnp', *{list(args)!r}]\nfrom pnp.cli import main\nmain()\n"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120)


def test_atexit_handlers_still_run(tmp_path):
    mark = tmp_path / "ran.txt"
    res = _pnp_process(tmp_path, f"""
        import atexit
        atexit.register(lambda: open({str(mark)!r}, "w").write("ran"))
        """, "--version")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().startswith("pnp ")
    assert mark.read_text() == "ran"


def test_a_running_thread_is_waited_for(tmp_path):
    mark = tmp_path / "thread.txt"
    res = _pnp_process(tmp_path, f"""
        import threading, time
        def late():
            time.sleep(0.5)
            open({str(mark)!r}, "w").write("done")
        threading.Thread(target=late).start()
        """, "--version")
    assert res.returncode == 0, res.stderr
    assert mark.read_text() == "done"


def test_output_without_a_final_newline_is_flushed(tmp_path):
    res = _pnp_process(tmp_path, """
        import sys
        sys.stdout.write("partial line, still buffered")
        """, "--version")
    assert res.returncode == 0
    assert res.stdout.startswith("partial line, still buffered")


@pytest.mark.parametrize("args, status", [(("--version",), 0), (("build", "no-such-game"), 2), ((), 2)])
def test_the_exit_status_is_the_commands(tmp_path, args, status):
    res = _pnp_process(tmp_path, "", *args)
    assert res.returncode == status, (res.stdout, res.stderr)


def test_a_failed_check_exits_1(tmp_path):
    """A NetMatch spec expecting 74 words against the 75 the word list has fails its check."""
    spec = tmp_path / "broken.yaml"
    spec.write_text("game: netmatch\nexpected_words: 74\n", encoding="utf-8")
    res = _pnp_process(tmp_path, "", "validate", str(spec))
    assert res.returncode == 1 and "FAIL" in res.stdout, (res.stdout, res.stderr)

