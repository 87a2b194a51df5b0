"""The icons folder of a data-driven game: ``:name:`` in a text layer draws ``<name>.svg`` (else
``<name>.png``) from it inline (pnp.core.richtext). The folder is the spec's ``icons:`` (default
``icons/`` beside the spec); each picture is checked (pnp.inputs.images.read_image) when first used.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..core.richtext import Icon
from ..inputs.images import read_image

SUFFIXES = (".svg", ".png")
MAX_LISTED = 12  # icon names listed in a message


class IconFolder:
    """Icons looked up by name in ``folder`` (an absolute path; it need not exist until an icon is
    used). ``record`` is called with each picture file used (``pnp watch`` watches it). With ``root``
    (the spec's folder), an icon file that leads out of it (a symlink) is refused like a missing one:
    a spec someone sends you cannot make pnp print a file from elsewhere on your computer.

    ``lookup(name)`` returns the Icon; raises KeyError (message: the names there are) for an icon the
    folder lacks, and SpecError (naming the file) for a picture that is not a good PNG or SVG."""

    def __init__(self, folder: Path, record: Callable[[Path], None] | None = None, root: Path | None = None) -> None:
        self.folder, self.record = folder, record
        self.root = root.resolve() if root is not None else None
        self._found: dict[str, Icon] = {}

    def names(self) -> list[str]:
        """The icon names the folder holds, sorted."""
        try:
            return sorted({p.stem for p in self.folder.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file()})
        except OSError:
            return []

    def lookup(self, name: str) -> Icon:
        got = self._found.get(name)
        if got is not None:
            return got
        for suffix in SUFFIXES:
            path = self.folder / f"{name}{suffix}"
            if path.is_file():
                if self.root is not None and not path.resolve().is_relative_to(self.root):
                    raise KeyError(f"the icon :{name}: ({path.name}) leads to {path.resolve()}, outside the spec's "
                                   "folder (a symlink)")
                if self.record is not None:
                    self.record(path)
                facts = read_image(path, field="icons")
                w, h = facts.size
                got = self._found[name] = Icon(name, str(path), w / h)
                return got
        names = self.names()
        there = (f"it has {', '.join(':' + n + ':' for n in names[:MAX_LISTED])}"
                 + (f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else "")) if names else (
            "it has no .svg or .png files" if self.folder.is_dir() else "that folder does not exist")
        raise KeyError(f"there is no icon :{name}: ({name}.svg or {name}.png) in {self.folder} ({there})")
