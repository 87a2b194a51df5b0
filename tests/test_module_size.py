"""No module of pnp is over 500 lines (the brief's "small, readable modules"; issue 47 asked it of
cli.py, core/richtext.py and custom/draw.py). Counted as a reader counts them: every line of the file."""
from __future__ import annotations

from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "pnp"
MAX_LINES = 500


def too_long(root: Path, most: int = MAX_LINES) -> list[str]:
    """Every .py file under ``root`` with more than ``most`` lines, as "path: N lines"."""
    out = []
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > most:
            out.append(f"{path.relative_to(root)}: {n} lines")
    return out


def test_no_module_of_pnp_is_over_500_lines():
    assert too_long(PKG) == []


def test_a_long_module_is_found(tmp_path):
    (tmp_path / "short.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    assert too_long(tmp_path) == [f"{Path('sub', 'long.py')}: {MAX_LINES + 1} lines"]
