"""The one rule for every file a game folder names: inside the folder, a regular file, bounded.

A spec someone sends you cannot make pnp read (and print, or quote in a message) a file from
elsewhere on your computer. Every name a game folder gives (a spec's ``data:``, ``rules:``,
``front:``/``back:``, ``fonts:`` and ``icons:``, a template's ``include:``, an image layer's ``src``,
an icon, every file SVG art references) goes through ``inside()``, which refuses:

* a name that is not a file name (control characters, over MAX_NAME_CHARS characters, empty);
* an absolute path (``/x``, ``~/x``, ``C:\\x``) and any ``..`` part, even one that would come back in;
* a path that leads outside the folder through a symlink (the real path, every link followed, must
  stay inside the folder's real path), and a symlink loop;
* anything but a regular file (a folder, FIFO, socket or device: never opened, so nothing waits);
* a file over the caller's size bound.

Messages name the spec file, line and field the caller gives and say the rule; they never show what
a refused file holds, what an outside folder lists or where a link leads.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..core.errors import SpecError
from .safefile import LinkFree, kind_of

MAX_NAME_CHARS = 1024
HINT = "keep the file in the game's folder (or a folder inside it) and name it relative to the spec"


def _shown(name: str) -> str:
    return repr(name[:60]) + ("..." if len(name) > 60 else "")


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a file inside a folder ("an absolute path", ...), None when it can."""
    if not isinstance(name, str) or not name.strip():
        return "it is empty"
    if len(name) > MAX_NAME_CHARS or any(ord(c) < 32 or ord(c) == 127 for c in name):
        return f"it is not a file name (control characters, or over {MAX_NAME_CHARS} characters)"
    if name.startswith(("/", "\\", "~")) or PureWindowsPath(name).is_absolute():
        return "it is an absolute path"
    if ".." in PurePosixPath(name).parts or ".." in PureWindowsPath(name).parts:
        return "it leads out of the folder (..)"
    return None


def _contained(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def within(path: Path, folder: Path) -> bool:
    """True when ``path``, every symlink followed, is ``folder`` or inside it (also followed)."""
    return _contained(os.path.realpath(path), os.path.realpath(folder))


class Refused(SpecError):
    """A name the rule refuses (a SpecError: its message says the rule, never what the file holds)."""


def inside(name: str, root: Path, *, base: Path | None = None, what: str = "file", file: Path | str | None = None,
           line: int | None = None, field: str | None = None, limit: int | None = None, must_exist: bool = True,
           folder: bool = False) -> Path:
    """The path ``name`` gives, relative to ``base`` (default ``root``, which ``base`` must be inside),
    kept inside the folder ``root``: its real path (every link resolved, inside ``root``'s real path)
    as a ``LinkFree`` path, which pnp.inputs.safefile.read_regular opens without following links. ``limit``: the most bytes the file may hold. ``must_exist=False``
    returns a path that does not exist (the caller says it is missing); ``folder=True`` asks for a
    folder instead of a regular file.

    Raises:
        Refused: see the module docstring; ``file``, ``line`` and ``field`` locate the name.
    """
    where = dict(file=file, line=line, field=field)
    problem = name_problem(name)
    if problem is not None:
        shown = _shown(name) if isinstance(name, str) else repr(name)
        raise Refused(f"{what} {shown} must name a "
                      f"{'folder' if folder else 'file'} inside the game folder {root}; {problem}.", hint=HINT, **where)
    path = (base if base is not None else root) / name
    rule = f"{what} {_shown(name)} must name a {'folder' if folder else 'file'} inside the game folder {root}"
    real_root = os.path.realpath(root)
    try:
        real = os.path.realpath(path, strict=True)
    except FileNotFoundError:
        real = os.path.realpath(path)
        if not _contained(real, real_root):
            raise Refused(f"{rule}; it leads outside the folder (a symlink).", hint=HINT, **where) from None
        if must_exist:
            raise Refused(f"{what} {_shown(name)} does not exist in the game folder {root}.",
                          hint="check the file name (names are relative to the spec)", **where) from None
        return path
    except OSError:  # a symlink loop, a name too long, a part that is not a folder
        raise Refused(f"{rule}; it cannot be followed (a symlink loop, or a part that is not a folder).",
                      hint=HINT, **where) from None
    if not _contained(real, real_root):
        raise Refused(f"{rule}; it leads outside the folder (a symlink).", hint=HINT, **where)
    st = os.stat(real)
    if folder:
        if not stat.S_ISDIR(st.st_mode):
            raise Refused(f"{rule}; it is {kind_of(st.st_mode) if not stat.S_ISREG(st.st_mode) else 'a file'}.",
                          hint=HINT, **where)
        return LinkFree(real)
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"{what} {_shown(name)} is not a regular file: it is {kind_of(st.st_mode)}.",
                      hint="name a file saved on disk", **where)
    if limit is not None and st.st_size > limit:
        raise Refused(f"{what} {_shown(name)} is {st.st_size:,} bytes (limit {limit:,} bytes).",
                      hint="save it smaller", **where)
    return LinkFree(real)


def exists_inside(name: str, base: Path) -> bool:
    """True when ``base / name`` is there at all (a file, folder, special file or a link, even a
    broken one): the caller then applies inside() to it rather than looking further."""
    if name_problem(name) is not None:
        return True  # inside() says why
    return os.path.lexists(base / name)
