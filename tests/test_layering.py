"""The import contract (docs/architecture.md, "Layering"): no import cycles between pnp's modules,
each folder imports only the folders below it (ALLOWED), and only cli imports typer.

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


# Folder rules (docs/architecture.md, "Layering"): each folder of pnp may import only the folders listed.
# core <- text (the typesetter) <- every folder above core; core <- inputs <- engine <- games, custom; core <- geometry <- games, custom; core, inputs <- layout <- render;
# core, inputs, layout <- checks; core, inputs <- colour <- render; core, inputs, layout, colour, render <- preflight <- cli; core <- store; core, inputs, layout <- calibration (reading pictures of the duplex sheet) <- pipeline, cli; fonts (the shipped bold faces and their maker) imports no pnp; everything <- pipeline (plan, execute) <- cli.
# A designer's game (custom) is a guest of the engine, never of pnp's own games.
ALLOWED = {
    "core": {"core"},
    "text": {"core", "text"},
    "inputs": {"core", "text", "inputs"},
    "geometry": {"core", "text", "geometry"},
    "engine": {"core", "text", "inputs", "engine"},
    "games": {"core", "text", "inputs", "geometry", "engine", "games"},
    "custom": {"core", "text", "inputs", "geometry", "engine", "custom"},
    "layout": {"core", "text", "inputs", "layout"},
    "checks": {"core", "text", "inputs", "layout", "checks"},
    "colour": {"core", "text", "inputs", "colour"},
    "render": {"core", "text", "inputs", "layout", "colour", "render", "pnp"},
    "store": {"core", "store"},
    "calibration": {"core", "text", "inputs", "layout", "calibration"},
    "preflight": {"core", "text", "inputs", "layout", "colour", "render", "preflight"},
    "fonts": {"fonts"},
    "pull": {"core", "text", "inputs", "engine", "custom", "pull"},
    "pipeline": {"core", "text", "inputs", "engine", "games", "custom", "layout", "checks", "colour", "render", "store",
                 "pipeline", "pull", "calibration"},
    "edit": {"core", "text", "inputs", "engine", "custom", "layout", "render", "pipeline", "edit"},  # `pnp edit`
    "cli": {"core", "text", "inputs", "engine", "games", "custom", "layout", "checks", "colour", "render", "store",
            "pipeline", "pull", "calibration", "cli", "preflight", "edit", "pnp"},
    "__main__": {"cli"},
    "pnp": set(),
}


def _folder(module: str) -> str:
    """The folder (or top-level module) of pnp that ``module`` belongs to: pnp.layout.tiling -> layout."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "pnp"


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, deps in graph.items():
        allowed = ALLOWED.get(_folder(module))
        if allowed is None:
            bad.append(f"{module} is in no folder of the layering rules")
            continue
        bad += [f"{module} imports {d}" for d in deps if _folder(d) not in allowed]
    return sorted(bad)


def test_layers():
    assert layer_violations(import_graph()) == []


def test_layer_check_catches_a_game_importing_layout():
    assert layer_violations({"pnp.games.x": {"pnp.layout.tiling"}}) == ["pnp.games.x imports pnp.layout.tiling"]


def test_layer_check_catches_layout_importing_render_and_core_importing_inputs():
    graph = {"pnp.layout.impose": {"pnp.render.pdf"}, "pnp.core.ir": {"pnp.inputs.specfields"},
             "pnp.render.svg": {"pnp.pipeline.plan"}, "pnp.newfolder.x": set()}
    assert layer_violations(graph) == ["pnp.core.ir imports pnp.inputs.specfields",
                                       "pnp.layout.impose imports pnp.render.pdf",
                                       "pnp.newfolder.x is in no folder of the layering rules",
                                       "pnp.render.svg imports pnp.pipeline.plan"]


def test_layer_check_catches_custom_importing_games_and_engine_importing_games():
    graph = {"pnp.custom.parts": {"pnp.games.netmatch.words"}, "pnp.engine.plugins": {"pnp.games.nonads"}}
    assert layer_violations(graph) == ["pnp.custom.parts imports pnp.games.netmatch.words",
                                       "pnp.engine.plugins imports pnp.games.nonads"]


def is_check(module: str) -> bool:
    """A module that decides findings: the checks and preflight folders, pnp.custom.checks, any game's checks."""
    parts = module.split(".")
    return len(parts) > 1 and (parts[1] in ("checks", "preflight") or parts[-1] == "checks")


def renderer_check_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a check by a renderer (pnp.render): renderers draw, they never check."""
    return sorted(f"{m} imports {d}" for m, deps in graph.items() if _folder(m) == "render"
                  for d in deps if is_check(d))


def test_no_renderer_imports_a_check():
    assert renderer_check_imports(import_graph()) == []


def test_renderer_check_finder_finds_planted_imports():
    graph = {"pnp.render.pod": {"pnp.checks.safearea", "pnp.layout.bleed"},
             "pnp.render.pdf": {"pnp.custom.checks", "pnp.games.netmatch.checks"},
             "pnp.render.svg": {"pnp.preflight.contrast"},
             "pnp.pipeline.plan": {"pnp.checks.safearea"}}
    assert renderer_check_imports(graph) == ["pnp.render.pdf imports pnp.custom.checks",
                                             "pnp.render.pdf imports pnp.games.netmatch.checks",
                                             "pnp.render.pod imports pnp.checks.safearea",
                                             "pnp.render.svg imports pnp.preflight.contrast"]


def test_only_cli_imports_typer():
    users = sorted(_module_name(p) for p in PKG.rglob("*.py") if "typer" in external_imports(p))
    assert users and all(u == "pnp.cli" or u.startswith("pnp.cli.") for u in users), users


def test_graph_sees_function_level_imports():
    graph = import_graph()
    assert "pnp.render.raster" in graph["pnp.render.formats.preview"]  # imported inside PreviewKitWriter.finish
