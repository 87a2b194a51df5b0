"""pnp uses its libraries through their public API and leaves the interpreter as it found it
(docs/performance.md, "Cold start"): no module of pnp replaces a library's attribute, swaps
``sys.modules``, writes the environment, runs source through ``exec``/``eval``, ends the process
with ``os._exit`` or the private ``atexit._run_exitfuncs``, or turns the collector off. The one
place that tunes the collector is ``pnp.cli.main``, after start-up (``gc.freeze``, a threshold).

Read from the source with ast, every module of pnp, function bodies included.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[2] / "pnp"
SOURCES = sorted(PKG.rglob("*.py"))


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` for a Name/Attribute chain, "" for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def _imported_names(tree: ast.AST) -> set[str]:
    """Names a module binds to another package's module or object by an import (anywhere in it)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and not (node.module or "").startswith("pnp"):
            names.update(a.asname or a.name for a in node.names)
    return names


def _function_of(tree: ast.AST) -> dict[int, str]:
    """id of every node -> the name of the innermost function holding it ("" at module level)."""
    owner: dict[int, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else name
            owner[id(child)] = inner
            visit(child, inner)
    visit(tree, "")
    return owner


def tricks(path: Path, pkg: Path = PKG) -> list[str]:
    """Every trick in the module at ``path`` (inside the package folder ``pkg``), as "line: what"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = _imported_names(tree)
    owner = _function_of(tree)
    module = ".".join(path.relative_to(pkg.parent).with_suffix("").parts)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in ("exec", "eval", "os._exit", "atexit._run_exitfuncs", "os.putenv", "os.unsetenv",
                        "gc.disable", "sys.modules.pop", "sys.modules.update", "sys.modules.setdefault",
                        "sys.modules.__setitem__", "os.environ.update", "os.environ.setdefault",
                        "os.environ.pop", "os.environ.__setitem__", "os.environ.clear"):
                found.append(f"{node.lineno}: calls {name}")
            elif name.startswith("gc.") and not (module == "pnp.cli.__init__" and owner.get(id(node)) == "main"):
                found.append(f"{node.lineno}: calls {name} outside pnp.cli.main")
            elif name == "setattr" and node.args and _dotted(node.args[0]).split(".")[0] in imported:
                found.append(f"{node.lineno}: setattr on the imported {_dotted(node.args[0])}")
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            base = target.value if isinstance(target, ast.Subscript) else target
            name = _dotted(base)
            if isinstance(target, ast.Subscript) and name in ("sys.modules", "os.environ"):
                found.append(f"{node.lineno}: writes {name}[...]")
            elif isinstance(target, ast.Attribute) and name.split(".")[0] in imported:
                found.append(f"{node.lineno}: replaces {name}, an attribute of an imported library")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PKG.parent)))
def test_no_module_of_pnp_patches_a_library_or_the_interpreter(path):
    assert tricks(path) == []


@pytest.mark.parametrize("source, what", [
    ("import os\nos._exit(0)\n", "os._exit"),
    ("import gc\ngc.disable()\n", "gc.disable"),
    ("import sys\nsys.modules['urllib.request'] = object()\n", "sys.modules"),
    ("import os\nos.environ['PYDANTIC_DISABLE_PLUGINS'] = '__all__'\n", "os.environ"),
    ("import svgwrite.base\nsvgwrite.base.BaseElement.get_xml = len\n", "svgwrite.base.BaseElement.get_xml"),
    ("from reportlab.pdfgen import canvas\ndef f():\n    canvas.Canvas.circle = None\n", "canvas.Canvas.circle"),
    ("src = 'x = 1'\nexec(src)\n", "exec"),
    ("import gc\ngc.freeze()\n", "gc.freeze"),
])
def test_the_scan_finds_each_trick(tmp_path, source, what):
    (tmp_path / "pnp").mkdir()
    bad = tmp_path / "pnp" / "bad.py"
    bad.write_text(source, encoding="utf-8")
    found = tricks(bad, tmp_path / "pnp")
    assert len(found) == 1 and what in found[0]
