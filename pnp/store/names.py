"""The one rule for names that become path components under --out: game, paper (sheet name),
component and format names. Lower-case ASCII letters and digits, then also ``-`` and ``_``, at most
41 characters: no separators, no dots, nothing a file system or a shell treats specially."""
from __future__ import annotations

import re
from pathlib import Path

from ..core.errors import SpecError

MAX_NAME_CHARS = 41
SAFE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,%d}\Z" % (MAX_NAME_CHARS - 1))


def is_safe_name(name: object) -> bool:
    """True when ``name`` may be used as one path component under --out."""
    return isinstance(name, str) and SAFE_NAME.match(name) is not None


def check_safe_name(name: object, what: str, file: Path | None = None, field: str | None = None) -> str:
    """``name`` when it is safe (see SAFE_NAME).

    Raises:
        SpecError: naming ``what``, the file and field it came from.
    """
    if not is_safe_name(name):
        shown = repr(name) if len(repr(name)) <= 60 else repr(name)[:57] + "..."
        raise SpecError(f"{what} {shown} cannot be used in file names.", file=file, field=field,
                        hint="use 1-41 lower-case letters, digits, - and _, starting with a letter or digit")
    return name
