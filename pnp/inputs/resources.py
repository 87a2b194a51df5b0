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
    """Folder of the built-in game specs (<game>.yaml) and the default NetMatch word list."""
    return _data_dir("specs")


def sheets_dir() -> Path:
    """Folder of the sheet templates (<paper>.yaml)."""
    return _data_dir("templates") / "sheets"


def builtin_spec(game: str) -> Path:
    """Path of the built-in spec of ``game``."""
    return specs_dir() / f"{game}.yaml"
