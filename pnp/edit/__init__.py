"""`pnp edit GAME`: a card editor in the browser whose every edit is saved to the template YAML, in place.

* pnp.edit.yamledit -- the round-trip writer (ruamel.yaml): only the edited layer's lines change;
* pnp.edit.card -- the card as printed, drawn by pnp's SVG writer, with its layers' boxes and problems;
* pnp.edit.schema -- the properties panel's fields, read from the template models;
* pnp.edit.session -- the checked, confined, atomic writes and their undo/redo;
* pnp.edit.server -- the page and its API on 127.0.0.1 (local Hosts, a token and same-origin writes);
* pnp/edit/static/ -- the page, its script and style sheet (package data).

:func:`edit` starts the server, prints its address first, then keeps the kit rebuilt as `pnp watch`
does (pnp.pipeline.watch.watch_kits) until Ctrl-C. See docs/editor.md.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from ..core.errors import SpecError
from ..custom import spec_in_folder
from ..custom.table import SUFFIXES
from ..pipeline.plan import draw_all

__all__ = ["edit", "game_spec"]


def game_spec(target: str, say: Callable[[str], None] = print) -> Path:
    """The spec of the deck ``target`` names: a game folder (``DIR/<DIR>.yaml``), a spec file, or a
    spreadsheet (.csv, .tsv, .xlsx, .ods), for which `pnp new` first makes a folder beside it named
    after it (or uses the one an earlier `pnp edit` made).

    Raises:
        SpecError: no such folder, spec or spreadsheet; PnpError: what `pnp new` raises for the sheet.
    """
    path = Path(target)
    if path.is_dir():
        return spec_in_folder(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        if not path.is_file():
            raise SpecError(f"{target} does not exist.", file=target, field="GAME",
                            hint="give a game folder, its spec file or a spreadsheet")
        return path
    if path.suffix.lower() in SUFFIXES:
        if not path.is_file():
            raise SpecError(f"{target} does not exist.", file=target, field="GAME",
                            hint="give a game folder, its spec file or a spreadsheet")
        folder = path.with_name(path.stem.lower().replace(" ", "-") or "deck")
        if folder.is_dir() and any(folder.iterdir()):
            say(f"editing {folder} (made from {path.name} before)")
            return spec_in_folder(folder)
        from ..custom.scaffold import scaffold  # pnp new: only for a spreadsheet
        made = scaffold(folder, path, verify=draw_all)
        say(f"made {folder}: {', '.join(f.name for f in made.files)}")
        return spec_in_folder(folder)
    raise SpecError(f"{target} is not a game folder, a spec (.yaml) or a spreadsheet.", file=target, field="GAME",
                    hint="give a folder `pnp new` made, its spec file, or a .csv/.tsv/.xlsx/.ods file")


def edit(target: str, port: int, out: Path, request, say: Callable[[str], None] = print,
         quiet: bool = False, stop: threading.Event | None = None, debounce_ms: int = 300) -> int:
    """Serve the editor for ``target`` (see game_spec) on 127.0.0.1:``port`` (0: any free port); its
    address is the first line ``say`` gets (a spreadsheet's `pnp new` lines come before it). Then build
    the kit into ``out`` with ``request`` (pnp.pipeline.plan.Request) and rebuild it on every change,
    as `pnp watch` does, until Ctrl-C or ``stop``.

    Returns:
        0.

    Raises:
        PnpError: the deck cannot be read, the port cannot be used.
    """
    from ..pipeline.serve import start_server  # the page's server and the watcher: only when it serves
    from ..pipeline.watch import watch_kits  # see start_server
    from .server import Editor, make_app  # Starlette: see start_server
    spec = game_spec(target, say)
    editor = Editor(spec)
    editor.deck.outline()  # a deck that cannot be read fails here, before a page is served
    url, server = start_server(None, port, make=lambda bound: make_app(editor, bound))
    say(f"editor: {url} (saves every edit to the templates; Ctrl-C stops)")
    try:
        return watch_kits([str(spec)], request, out, debounce_ms, say=say, quiet=quiet, stop=stop)
    finally:
        server.should_exit = True
