"""Where the built-in specs, sheet templates and word list live, installed or in a source checkout.

A wheel carries specs/ and templates/ as the packages ``pnp.specs`` and ``pnp.templates``
(see pyproject.toml); an editable install or a source checkout finds them beside pnp/.
"""
from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parents[1]  # the pnp package


def _data_dir(name: str) -> Path:
    inside = _PKG / name
    if inside.is_dir():
        return inside
    return _PKG.parent / name


def specs_dir() -> Path:
    """Folder of the shipped spec folders: specs/<name>/ (spec <name>.yaml, rules.md, data), the five
    built-in games and the data-driven examples alike."""
    return _data_dir("specs")


def sheets_dir() -> Path:
    """Folder of the sheet templates (<paper>.yaml)."""
    return _data_dir("templates") / "sheets"


def builtin_folder(name: str) -> Path:
    """The shipped spec folder called ``name`` (it may not exist)."""
    return specs_dir() / name


def builtin_spec(name: str) -> Path:
    """Path of the spec of the shipped spec folder ``name``: specs/<name>/<name>.yaml (it may not exist)."""
    return builtin_folder(name) / f"{name}.yaml"


def shipped_specs() -> list[str]:
    """The names of the shipped spec folders (those holding <name>.yaml), in alphabetical order: what
    `pnp list` shows and `pnp build` with no target builds."""
    root = specs_dir()
    return [p.name for p in sorted(root.iterdir()) if p.is_dir() and (p / f"{p.name}.yaml").is_file()]
