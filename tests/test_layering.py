"""The import contract (docs/architecture.md, "Layering"): no import cycles between pnp's modules,
games never import layout or render, layout never imports render, kit or cli, and only cli imports typer.

Imports are read from the source with ast (module-level and function-level alike), so a lazy import
inside a function counts too.
"""
from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "pnp"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_pkg: bool, node: ast.ImportFrom) -> list[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = module.split(".")
        if not is_pkg:
            parts = parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    if node.module is None:  # from . import x: x may be a module
        return [f"{base}.{a.name}" for a in node.names]
    return [base] + [f"{base}.{a.name}" for a in node.names]


def import_graph() -> dict[str, set[str]]:
    """module -> pnp modules it imports (only names that are real modules of pnp)."""
    files = {(_module_name(p)): p for p in PKG.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = _resolve(module, path.name == "__init__.py", node)
            for name in names:
                while name and name not in files:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    deps.add(name)
        graph[module] = deps
    return graph


def external_imports(module_path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(module_path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules, or None. A package's __init__ importing its own
    submodules (the registry) is not a cycle of layers, so edges parent -> child are ignored."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if d.startswith(m + "."):
                continue
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_import_cycles():
    assert find_cycle(import_graph()) is None, f"import cycle: {' -> '.join(find_cycle(import_graph()))}"


def test_cycle_finder_finds_a_planted_cycle():
    graph = {"pnp.a": {"pnp.b"}, "pnp.b": {"pnp.c"}, "pnp.c": {"pnp.a"}}
    assert find_cycle(graph) == ["pnp.a", "pnp.b", "pnp.c", "pnp.a"]


FORBIDDEN = {
    "pnp.games": ("pnp.layout", "pnp.render", "pnp.kit", "pnp.cli"),
    "pnp.layout": ("pnp.render", "pnp.kit", "pnp.cli", "pnp.games"),
    "pnp.render": ("pnp.kit", "pnp.cli", "pnp.games"),
    "pnp.geometry": ("pnp.layout", "pnp.render", "pnp.kit", "pnp.cli", "pnp.games"),
    "pnp.ir": ("pnp.layout", "pnp.render", "pnp.kit", "pnp.cli", "pnp.games"),
}


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, deps in graph.items():
        for layer, banned in FORBIDDEN.items():
            if module == layer or module.startswith(layer + "."):
                bad += [f"{module} imports {d}" for d in deps for b in banned if d == b or d.startswith(b + ".")]
    return sorted(bad)


def test_layers():
    assert layer_violations(import_graph()) == []


def test_layer_check_catches_a_game_importing_layout():
    assert layer_violations({"pnp.games.x": {"pnp.layout.tiling"}}) == ["pnp.games.x imports pnp.layout.tiling"]


def test_only_cli_imports_typer():
    users = sorted(_module_name(p) for p in PKG.rglob("*.py") if "typer" in external_imports(p))
    assert users == ["pnp.cli"]


def test_graph_sees_function_level_imports():
    graph = import_graph()
    assert "pnp.render.raster" in graph["pnp.render.writers"]  # imported inside PreviewKitWriter.finish
