"""pnp.core.lazyimports: the stand-ins for three library modules that a pnp process would otherwise
import for nothing (issue 24, cold start). Each test fails when a library release changes what the
stand-in relies on; then check the stand-in against the new release and widen the pin in
pyproject.toml."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.core import lazyimports


def _run(code: str, env: dict | None = None) -> dict:
    """Run ``code`` in a fresh interpreter (which prints one JSON value); return that value."""
    import os
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, **(env or {})})
    return json.loads(out.stdout.strip().splitlines()[-1])


def _imported_names(path: Path, module: str) -> set[str]:
    """Every name the source file ``path`` imports with ``from <module> import ...`` (``module`` with
    leading dots for a relative import)."""
    names = set()
    level = len(module) - len(module.lstrip("."))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8-sig"))):
        if isinstance(node, ast.ImportFrom) and node.module == module.lstrip(".") and node.level == level:
            names.update(a.name for a in node.names)
    return names


def _site(*parts: str) -> Path:
    import importlib.util
    spec = importlib.util.find_spec(parts[0])
    return Path(next(iter(spec.submodule_search_locations)), *parts[1:])


# ---- svgwrite's svgparser -----------------------------------------------------------------------

def test_the_svgparser_stand_in_offers_what_svgwrite_imports_from_it():
    """svgwrite.data.typechecker is svgparser's only importer, and takes exactly SVGPARSER_NAMES."""
    users = [p for p in _site("svgwrite").rglob("*.py")
             if _imported_names(p, lazyimports.SVGPARSER) and p.name != "svgparser.py"]
    assert [p.name for p in users] == ["typechecker.py"]
    assert _imported_names(users[0], lazyimports.SVGPARSER) == set(lazyimports.SVGPARSER_NAMES)
    real = ast.parse(_site("svgwrite", "data", "svgparser.py").read_text(encoding="utf-8-sig"))
    declared = next(ast.literal_eval(n.value) for n in real.body if isinstance(n, ast.Assign)
                    and any(getattr(t, "id", "") == "__all__" for t in n.targets))
    assert set(declared) == set(lazyimports.SVGPARSER_NAMES)


def test_the_svgparser_is_not_compiled_by_a_build_and_still_validates_in_debug_mode():
    got = _run(
        "import json, sys\n"
        "import pnp.cli, svgwrite\n"
        "from pnp.core.ir import Page, Rect\n"
        "from pnp.render.svg import page_to_svg\n"
        "page_to_svg(Page(20, 20, (Rect(1, 1, 5, 5),), 'p'))\n"
        "parser = sys.modules['svgwrite.data.svgparser']\n"
        "before = parser.loaded() if hasattr(parser, 'loaded') else None\n"
        "d = svgwrite.Drawing(debug=True)\n"
        "ok = d.g(transform='translate(1,2) rotate(30)') is not None\n"
        "try:\n"
        "    d.g(transform='translate(1,2')\n"
        "    refused = False\n"
        "except TypeError:\n"
        "    refused = True\n"
        "print(json.dumps([hasattr(parser, 'load'), before, ok, refused,\n"
        "                  parser.is_valid_pathdata('M 0 0 L 1 1 z'), parser.is_valid_pathdata('M 0 0 Q')]))\n")
    stand_in, compiled_by_build, valid_ok, invalid_refused, path_ok, path_bad = got
    assert stand_in, "pnp.cli did not put the svgparser stand-in in place"
    assert compiled_by_build is False, "writing an SVG page compiled svgwrite's parser"
    assert valid_ok and invalid_refused, "svgwrite with debug=True no longer validates transforms"
    assert path_ok is True and path_bad is False


# ---- reportlab.platypus ---------------------------------------------------------------------------

def test_reportlab_graphics_takes_only_flowable_from_platypus():
    for name in ("shapes.py", "renderPDF.py"):
        assert _imported_names(_site("reportlab", "graphics", name), "reportlab.platypus") == {"Flowable"}, name


def test_an_svg_picture_is_converted_without_the_platypus_package():
    got = _run(
        "import json, sys\n"
        "import pnp.cli\n"
        "from svglib.svglib import svg2rlg\n"
        "from reportlab.graphics import renderPDF\n"
        "import io\n"
        "svg = b'<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"5\" height=\"5\"/></svg>'\n"
        "drawing = svg2rlg(io.BytesIO(svg))\n"
        "print(json.dumps([drawing.width, 'reportlab.platypus.paragraph' in sys.modules,\n"
        "                  'reportlab.platypus.tables' in sys.modules]))\n")
    assert got == [7.5, False, False]  # 10 px = 7.5 pt


def test_every_platypus_name_is_there_when_asked_for():
    code = ("import json{pre}\nimport reportlab.platypus as p\nfrom reportlab.platypus import *\n"
            "names = sorted(k for k in dir(p) if not k.startswith('__'))\n"
            "print(json.dumps([names, p.Flowable is p.flowables.Flowable, p.__version__]))\n")
    plain = _run(code.format(pre=""))
    stood_in = _run(code.format(pre="\nimport pnp.cli"))
    assert stood_in[1] and plain[1]
    assert stood_in[2] == plain[2]
    assert set(plain[0]) <= set(stood_in[0]), sorted(set(plain[0]) - set(stood_in[0]))


# ---- pydantic's plugin loader ----------------------------------------------------------------------

def test_pydantic_imports_only_get_plugins_from_its_loader():
    users = [p for p in _site("pydantic").rglob("*.py") if _imported_names(p, "._loader")]
    assert [p.name for p in users] == ["_schema_validator.py"]
    assert _imported_names(users[0], "._loader") == {"get_plugins"}


@pytest.mark.parametrize("value", lazyimports.PLUGINS_OFF)
def test_the_plugin_switch_means_no_plugins_to_the_real_loader_too(value, monkeypatch):
    """The stand-in answers "no plugins" only for the values pydantic's own get_plugins does."""
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", value)
    real = lazyimports._stand_in("probe_loader", _site("pydantic", "plugin", "_loader.py"), ("get_plugins",))
    namespace = real.load()
    namespace["entry_points"] = lambda **_: pytest.fail("the real loader scanned for plugins")
    assert tuple(namespace["get_plugins"]()) == ()
    assert lazyimports._no_plugins("get_plugins", ()) == ()


def test_with_the_switch_unset_the_stand_in_asks_the_real_loader(monkeypatch):
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "some-other-plugin")
    module = lazyimports._stand_in("probe_loader2", _site("pydantic", "plugin", "_loader.py"), ("get_plugins",),
                                   lazyimports._no_plugins)
    namespace = module.load()

    class EntryPoint:
        name, value = "probe", "probe.module:plugin"

        @staticmethod
        def load():
            return "the plugin"

    namespace["entry_points"] = lambda group: [EntryPoint] if group == "pydantic" else []
    assert list(module.get_plugins()) == ["the plugin"]


def test_the_command_sets_the_switch_only_when_the_user_did_not():
    assert _run("import json, os, pnp.cli; print(json.dumps(os.environ.get('PYDANTIC_DISABLE_PLUGINS')))",
                {"PYDANTIC_DISABLE_PLUGINS": ""}) == ""
    import os
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", "import json, os, sys, pnp.cli; "
                          "print(json.dumps([os.environ.get('PYDANTIC_DISABLE_PLUGINS'), "
                          "'importlib.metadata' in sys.modules]))"],
                         capture_output=True, text=True, check=True, env=env)
    assert json.loads(out.stdout) == ["__all__", False]


# ---- svglib's package __init__ ------------------------------------------------------------------------

def test_svglib_modules_take_nothing_from_the_package_init():
    """svglib's modules import only each other (submodules), never a name the package __init__ makes."""
    root = _site("svglib")
    submodules = {p.stem for p in root.glob("*.py")} - {"__init__"}
    for path in root.glob("*.py"):
        if path.name == "__init__.py":
            continue
        taken = _imported_names(path, "svglib") | _imported_names(path, ".")
        assert taken <= submodules, (path.name, taken - submodules)


def test_svg_pictures_are_read_without_svglibs_command_line_tool():
    from importlib.metadata import version
    got = _run(
        "import json, sys\n"
        "import pnp.cli\n"
        "from svglib.svglib import svg2rlg\n"
        "before = ['importlib.metadata' in sys.modules, 'argparse' in sys.modules]\n"
        "import svglib\n"
        "print(json.dumps(before + [svglib.__version__, callable(svglib.svg2pdf)]))\n")
    assert got == [False, False, version("svglib"), True]


# ---- urllib.request while svgwrite is imported ----------------------------------------------------------

def test_svgwrite_takes_only_urlopen_from_urllib_request():
    for path in _site("svgwrite").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8-sig"))
        plain = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not any(name.startswith("urllib") for name in plain), path.name
        taken = _imported_names(path, "urllib.request")
        assert taken <= {"urlopen"}, (path.name, taken)


def test_svg_pages_are_written_without_urllib_request_and_it_is_real_afterwards(tmp_path):
    font = tmp_path / "probe.txt"
    font.write_text("probe bytes", encoding="ascii")
    got = _run(
        "import json, sys\n"
        "from pnp.core.ir import Page, Rect\n"
        "from pnp.render.svg import page_to_svg\n"
        "page_to_svg(Page(20, 20, (Rect(1, 1, 5, 5),), 'p'))\n"
        "loaded = 'urllib.request' in sys.modules\n"
        "import svgwrite.container, urllib.request\n"
        f"read = svgwrite.container.urlopen({font.as_uri()!r}).read().decode()\n"
        "print(json.dumps([loaded, hasattr(urllib.request, 'Request'), read]))\n")
    assert got == [False, True, "probe bytes"]
