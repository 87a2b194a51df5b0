"""The import rule (docs/architecture.md, "Layering"): imports stand at the top of a module; an import
of pnp's own modules inside a function is there only for a reason (a module needed only by a rarely
used command or option, or an import cycle), and the reason stands beside it as a comment on its
line. Read from the source with ast (which imports are inside a function) and tokenize (which lines
carry a comment).
"""
from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "pnp"

# Files whose bare function-level imports are left for now: a list to shrink, empty today (an entry
# that no longer has one fails below, so it is taken off when its file is fixed).
NOT_YET: set[str] = set()


def _commented_lines(source: str) -> set[int]:
    """The line numbers (1-based) that carry a comment with some text after its ``#``."""
    return {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type == tokenize.COMMENT and tok.string.lstrip("#").strip()}


def _own(node: ast.Import | ast.ImportFrom) -> bool:
    """True when the import names a module of pnp (relative, or pnp itself)."""
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "pnp"
    return any(a.name.split(".")[0] == "pnp" for a in node.names)


def _function_imports(node: ast.AST, inside: bool = False):
    """Every Import / ImportFrom under ``node`` that is inside a function body (``inside``: ``node``
    itself is), each once, walking the tree once."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
            yield child
        yield from _function_imports(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                          ast.Lambda)))


def bare_imports(source: str) -> list[int]:
    """The lines of every import of pnp's own modules inside a function body (methods and nested
    functions included) with no comment on any of the statement's lines, in line order."""
    own = [node for node in _function_imports(ast.parse(source)) if _own(node)]
    commented = _commented_lines(source) if own else set()
    return sorted(node.lineno for node in own
                  if not commented & set(range(node.lineno, (node.end_lineno or node.lineno) + 1)))


@pytest.fixture(scope="module")
def all_bare() -> dict[str, list[int]]:
    """pnp's file (relative to the repository) -> the lines of its bare function-level imports."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        lines = bare_imports(path.read_text(encoding="utf-8"))
        if lines:
            out[path.relative_to(PKG.parent).as_posix()] = lines
    return out


def test_every_function_level_import_of_pnp_says_why(all_bare):
    bare = {f: lines for f, lines in all_bare.items() if f not in NOT_YET}
    assert bare == {}, ("a function-level import of pnp's own modules with no reason beside it: move it to "
                        "the top of the module, or say why on its line (# only pnp edit; # a cycle: X imports "
                        f"this module): {bare}")


def test_the_files_left_for_now_still_have_what_they_were_left_for(all_bare):
    stale = sorted(f for f in NOT_YET if f not in all_bare)
    assert stale == [], f"no bare function-level import left in {stale}: take them off NOT_YET"


def test_the_finder_sees_bare_imports_and_passes_reasoned_ones():
    source = '''
from .a import b
import os


def f():
    from .x import y
    from ..z import w  # only pnp edit
    from pnp.core import units
    import pnp.layout.tiling
    import json
    from reportlab.lib import colors


class C:
    def m(self):
        def inner():
            from . import q
        from .long import (one,
                           two)  # a cycle: long imports this module
        from .other import (three,
                            four)
        return "# not a comment", inner
'''
    assert bare_imports(source) == [7, 9, 10, 18, 21]


def test_a_hash_in_a_string_is_not_a_reason():
    source = 'def f():\n    from .x import y; s = "# no"\n    return s\n'
    assert bare_imports(source) == [2]
