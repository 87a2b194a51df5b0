"""No module in pnp/ is longer than 350 lines: a longer one is split by concern (see docs/architecture.md)."""
from __future__ import annotations

from pathlib import Path

MAX_LINES = 350
PKG = Path(__file__).resolve().parents[1] / "pnp"


def test_no_module_exceeds_350_lines():
    long = {str(p.relative_to(PKG.parent)): n for p in sorted(PKG.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"split these modules (limit {MAX_LINES} lines): {long}"
