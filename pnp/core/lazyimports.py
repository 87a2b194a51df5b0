"""Import-time costs of libraries that a `pnp` process does not need, deferred to first use (a cold
build's start). :func:`install` is called by pnp.cli before it imports anything else.
The stand-ins behave as the modules they replace, and tests/test_lazyimports.py fails when a
library update changes what they rely on. Supported versions are pinned in pyproject.toml.

* ``reportlab.platypus`` (reportlab's document layout: paragraphs, tables, page templates; about
  40 ms, most of it compiling the paragraph parser's regular expressions) is imported by
  ``reportlab.graphics.shapes`` and ``renderPDF`` for one name, ``Flowable``, which svglib needs
  when it converts an SVG picture. The stand-in package gives ``Flowable`` from
  ``reportlab.platypus.flowables`` and runs the real package's ``__init__`` the first time any other
  name is asked for (``from reportlab.platypus import *`` included); its submodules import as usual.

* ``svglib``'s package ``__init__`` is its command-line converter (svg2pdf, argparse) and asks
  ``importlib.metadata`` for its version (about 12 ms with what that imports); pnp uses the
  ``svglib.svglib`` module only. The stand-in package imports its submodules as usual and runs the
  real ``__init__`` the first time any name of the package itself is asked for.
* ``svgwrite.data.svgparser`` compiles three large regular expressions when it is imported (about
  20 ms, a third of svgwrite's import). They check attribute values only when a Drawing has
  ``debug=True``; pnp writes with ``debug=False``. The stand-in's three functions run the real
  module on their first call, so ``debug=True`` still validates.
* svgwrite's ``container`` module imports ``urllib.request`` (with ``http.client``, ``ssl`` and
  ``email``: about 10 ms) for ``urlopen``, which only ``Drawing.embed_google_web_font`` calls.
  :func:`import_svgwrite` imports svgwrite with a stand-in ``urllib.request`` in place for that one
  import (its ``urlopen`` imports the real module when called), then takes the stand-in away, so
  every later import of ``urllib.request`` gets the real module.
* ``pydantic.plugin._loader`` imports ``importlib.metadata`` (about 12 ms) to scan every installed
  distribution for pydantic plugins when the first model is built. pnp's command sets pydantic's
  own switch ``PYDANTIC_DISABLE_PLUGINS=__all__`` when the user has not set it (a kit compiler has
  no use for validation plugins). The stand-in's ``get_plugins`` answers "no plugins" for that
  switch, as the real one does, and otherwise runs the real module and asks it.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import types
from pathlib import Path

SVGPARSER = "svgwrite.data.svgparser"
SVGPARSER_NAMES = ("is_valid_transferlist", "is_valid_pathdata", "is_valid_animation_timing")
"""What svgwrite imports from its svgparser module (svgwrite.data.typechecker): its ``__all__``."""
PLUGIN_LOADER = "pydantic.plugin._loader"
PLUGINS_OFF = ("__all__", "1", "true")
"""Values of PYDANTIC_DISABLE_PLUGINS for which pydantic loads no plugin at all."""


def _module_file(package: str, *parts: str) -> Path | None:
    """The source file ``parts`` inside ``package``, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations)), *parts)
    return path if path.is_file() else None


def _stand_in(name: str, path: Path, names: tuple[str, ...], shortcut=None) -> types.ModuleType:
    """A module ``name`` offering the functions ``names`` of the module at ``path``, which runs only
    when one of them is first called for real. ``shortcut(name, args)`` may answer a call without
    it (return None to go on to the real function)."""
    module = types.ModuleType(name, f"{name}, run on first use ({__name__})")
    real: dict = {"__name__": name, "__file__": str(path), "__package__": name.rpartition(".")[0]}
    done: list[bool] = []

    def load() -> dict:
        if not done:
            done.append(True)
            exec(compile(path.read_bytes(), str(path), "exec"), real)  # the library's own module source
        return real

    def deferred(fname: str):
        def call(*args):
            if shortcut is not None:
                answer = shortcut(fname, args)
                if answer is not None:
                    return answer
            return load()[fname](*args)
        call.__name__ = call.__qualname__ = fname
        return call

    for fname in names:
        setattr(module, fname, deferred(fname))
    module.__all__ = list(names)
    module.__file__ = str(path)
    module.load = load  # the real module's namespace (for tests)
    module.loaded = lambda: bool(done)
    return module


def _lazy_package(name: str, init: Path, early: dict[str, str]) -> types.ModuleType:
    """A stand-in for the package ``name`` (whose ``__init__.py`` is ``init``): submodules import as
    usual, a name in ``early`` is taken from its submodule (``{"Flowable": "flowables"}``), and any
    other name runs the real ``__init__`` in the stand-in first."""
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    loaded = []

    def __getattr__(attr: str):
        if attr in early and not loaded:
            return getattr(importlib.import_module(f"{name}.{early[attr]}"), attr)
        if not loaded:
            loaded.append(True)
            exec(compile(init.read_bytes(), str(init), "exec"), module.__dict__)  # the real __init__
            if attr in module.__dict__:
                return module.__dict__[attr]
        raise AttributeError(f"module {name!r} has no attribute {attr!r}")

    module.__getattr__ = __getattr__
    return module


def _no_plugins(_name: str, _args: tuple):
    return () if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in PLUGINS_OFF else None


def install() -> None:
    """Put both stand-ins in place. Call before svgwrite or pydantic is imported; a library already
    imported is left as it is. Idempotent."""
    if "reportlab.platypus" not in sys.modules:
        path = _module_file("reportlab", "platypus", "__init__.py")
        if path is not None:
            import reportlab  # the package's own __init__ is small (and the floor of every build)
            stand_in = _lazy_package("reportlab.platypus", path, {"Flowable": "flowables"})
            sys.modules["reportlab.platypus"] = reportlab.platypus = stand_in
    if "svglib" not in sys.modules:
        path = _module_file("svglib", "__init__.py")
        if path is not None:
            sys.modules["svglib"] = _lazy_package("svglib", path, {})
    if "svgwrite" not in sys.modules and SVGPARSER not in sys.modules:
        path = _module_file("svgwrite", "data", "svgparser.py")
        if path is not None:
            sys.modules[SVGPARSER] = _stand_in(SVGPARSER, path, SVGPARSER_NAMES)
    if "pydantic" not in sys.modules and PLUGIN_LOADER not in sys.modules:
        path = _module_file("pydantic", "plugin", "_loader.py")
        if path is not None:
            os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
            sys.modules[PLUGIN_LOADER] = _stand_in(PLUGIN_LOADER, path, ("get_plugins",), _no_plugins)


def _urlopen(*args, **kwargs):
    """``urllib.request.urlopen``, imported when first called."""
    from urllib.request import urlopen
    return urlopen(*args, **kwargs)


def import_svgwrite() -> types.ModuleType:
    """The svgwrite package, imported (the first time) without importing ``urllib.request``: see the
    module docstring. Any name svgwrite asks of the stand-in other than ``urlopen`` loads the real
    module."""
    if "svgwrite" not in sys.modules and "urllib.request" not in sys.modules:
        stand_in = types.ModuleType("urllib.request", f"urllib.request while svgwrite is imported ({__name__})")
        stand_in.urlopen = _urlopen

        def __getattr__(name: str):
            if name.startswith("__"):  # the import system asks for __path__ and the like
                raise AttributeError(name)
            import importlib
            if sys.modules.get("urllib.request") is stand_in:
                del sys.modules["urllib.request"]
            return getattr(importlib.import_module("urllib.request"), name)

        stand_in.__getattr__ = __getattr__
        sys.modules["urllib.request"] = stand_in
        try:
            import svgwrite
        finally:
            if sys.modules.get("urllib.request") is stand_in:
                del sys.modules["urllib.request"]
    import svgwrite
    return svgwrite
