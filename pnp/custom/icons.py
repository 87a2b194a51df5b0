"""The icons folder of a data-driven game: ``:name:`` in a text layer draws ``<name>.svg`` (else
``<name>.png``) from it inline (pnp.text). The folder is the spec's ``icons:`` (default
``icons/`` beside the spec); each picture is checked (pnp.inputs.images.read_image) when first used.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..text import Icon
from ..inputs.gamefolder import Refused, exists_inside, inside, within
from ..inputs.images import read_image

SUFFIXES = (".svg", ".png")
MAX_LISTED = 12  # icon names listed in a message


class IconFolder:
    """Icons looked up by name in ``folder`` (an absolute path; it need not exist until an icon is
    used). ``record`` is called with each picture file used (``pnp watch`` watches it). With ``root``
    (the spec's folder), the folder and every icon file go through the rule for files a game folder
    names (pnp.inputs.gamefolder): a folder or icon that leads out of it (a symlink), or an icon that
    is not a regular file, is refused, and the names of a folder outside are never listed.

    ``lookup(name)`` returns the Icon; raises KeyError (message: the names there are) for an icon the
    folder lacks, and SpecError (naming the file) for an icon outside the folder or a picture that is
    not a good PNG or SVG."""

    def __init__(self, folder: Path, record: Callable[[Path], None] | None = None, root: Path | None = None) -> None:
        self.folder, self.record, self.root = folder, record, root
        self._found: dict[str, Icon] = {}

    def _outside(self) -> bool:
        """True when the folder leads outside ``root`` (its contents are then neither read nor listed)."""
        return self.root is not None and not within(self.folder, self.root)

    def names(self) -> list[str]:
        """The icon names the folder holds, sorted (none for a folder outside ``root``)."""
        if self._outside():
            return []
        try:
            return sorted({p.stem for p in self.folder.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file()})
        except OSError:
            return []

    def lookup(self, name: str) -> Icon:
        got = self._found.get(name)
        if got is not None:
            return got
        if self._outside():
            raise KeyError(f"the icons folder {self.folder.name!r} must be a folder inside the game folder "
                           f"{self.root}; it leads outside the folder (a symlink)")
        for suffix in SUFFIXES:
            path = self.folder / f"{name}{suffix}"
            if self.root is not None:
                if not exists_inside(path.name, self.folder):
                    continue
                try:
                    path = inside(path.name, self.root, base=self.folder, what=f"the icon :{name}:")
                except Refused as exc:  # richtext words a KeyError with where the :name: is written
                    raise KeyError(exc.message) from None
            elif not path.is_file():
                continue
            if self.record is not None:
                self.record(path)
            facts = read_image(path, field="icons", root=self.root)
            w, h = facts.size
            got = self._found[name] = Icon(name, str(path), w / h, str(self.root) if self.root else None)
            return got
        names = self.names()
        there = (f"it has {', '.join(':' + n + ':' for n in names[:MAX_LISTED])}"
                 + (f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else "")) if names else (
            "it has no .svg or .png files" if self.folder.is_dir() else "that folder does not exist")
        raise KeyError(f"there is no icon :{name}: ({name}.svg or {name}.png) in {self.folder} ({there})")
