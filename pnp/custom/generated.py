"""A generator's templated components: parts a spec folder draws with its templates from rows the
generator computes (``data: generator:<table>``), through the same tables, templates and checks as a
designer's deck.

The rows are the generator's (``Game.rows``, pnp.engine): each a dict of column name -> cell text,
in print order. The templates are the spec folder's own files, found by the rule for every file a
game folder names (pnp.inputs.gamefolder); a spec naming a generator and declaring no
``components:`` uses those of the game's shipped spec folder, with that folder's templates.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Mapping

from ..core.errors import SpecError
from ..core.ir import Component
from ..engine import KitContext
from ..engine.declared import GeneratorSpec
from ..inputs.specfields import validate_model
from ..inputs.yamlfile import load_yaml
from .parts import build_components
from .spec import CustomSpec
from .table import Row, Table, key

PREFIX = "generator:"  # data: generator:<table> names a table the generator computes


def generated_table(name: str, rows: list[dict[str, str]], spec_path: Path) -> Table:
    """The generator's rows ``rows`` as a Table (columns in the first row's order, rows numbered from 1);
    ``spec_path`` is the spec that names them, for messages."""
    headers = list(rows[0]) if rows else []
    return Table(spec_path, f"{PREFIX}{name}", 1, headers, {key(h): i + 1 for i, h in enumerate(headers)},
                 [Row(i + 1, _cells(row)) for i, row in enumerate(rows)])


def _cells(row: dict) -> dict[str, str]:
    """A generator's row by column key: the row itself when its names are column keys already and its
    cells text (no copy: a deck of 100,000 rows holds each once), else a new dict."""
    for k, v in row.items():
        if type(v) is not str or type(k) is not str or key(k) != k:
            return {key(k): str(v) for k, v in row.items()}
    return row


def _one(raw: tuple, name: str, size: tuple[float, float] | None, path: Path, lines: dict) -> tuple[dict, dict]:
    """The declared component ``name`` as a data-driven spec of one component (its size filled in
    from ``size`` when absent) and that spec's line map."""
    for i, comp in enumerate(raw):
        if isinstance(comp, dict) and comp.get("name") == name:
            comp = dict(comp)
            if "size" not in comp and size is not None:
                comp["size"] = list(size)
            moved = {(k[0], 0, *k[2:]) if k[:2] == ("components", i) else k: v for k, v in lines.items()}
            return {"components": [comp]}, moved
    names = [c.get("name") for c in raw if isinstance(c, dict)]
    raise SpecError(f"the generator draws the component {name!r} from the spec's templates, but the spec declares "
                    f"no component of that name (its components: {', '.join(map(str, names)) or 'none'}).",
                    file=path, line=lines.get(("components",)), field="components",
                    hint=f"declare it: components: [{{name: {name}, data: {PREFIX}..., front: FILE.yaml}}]")


def parts_of(spec: GeneratorSpec, ctx: KitContext, lines: dict, providers: Mapping[str, Callable],
             shipped: Path | None) -> Callable[..., list[Component]] | None:
    """``KitContext.parts`` for a generator's ``spec``: ``parts(name, size=None)`` draws the declared
    component ``name`` (size in mm when its ``size:`` is absent) from its templates and the rows of
    ``providers[<table>](spec, ctx)``. The components are the spec's own; when it declares none,
    those of ``shipped`` (the game's shipped spec, read as a spec file), whose folder then holds the
    templates. None when neither declares any.

    Raises (from parts()):
        SpecError: no component of that name, a bad component or template, a ``data:`` naming a
            table the generator does not compute, a template column the rows lack (file, line, field).
    """
    raw, path, where = tuple(c.model_dump(exclude_none=True) for c in spec.components), ctx.spec_path, lines
    if not raw and shipped is not None and shipped.is_file() and shipped.resolve() != ctx.spec_path.resolve():
        data, where = load_yaml(shipped)
        raw = tuple(c.model_dump(exclude_none=True) for c in validate_model(type(spec), data, shipped, where).components)
        path = shipped
    if not raw:
        return None
    if (path == ctx.spec_path and shipped is not None and shipped.is_file()
            and not any((path.parent / t.name).is_file() for t in shipped.parent.glob("*.yaml") if t != shipped)):
        path = shipped  # a copy of the shipped spec alone: its templates are the shipped folder's
    local = replace(ctx, spec_path=path)  # shares used and the memo: one build, one record of files read

    def parts(name: str, size: tuple[float, float] | None = None) -> list[Component]:
        data, moved = _one(raw, name, size, path, where)
        # kept in the build's memo: pnp.custom's own memos key on the spec's id
        one = ctx.once(("generator component", name, size), lambda: validate_model(CustomSpec, data, path, moved))
        table = one.components[0].data
        if table is None or not table.startswith(PREFIX) or table[len(PREFIX):] not in providers:
            known = ", ".join(PREFIX + n for n in providers) or "none"
            raise SpecError(f"component {name!r} has data: {table!r}; a generator's component draws one of the "
                            f"tables it computes ({known}).", file=path,
                            line=moved.get(("components", 0, "data"), moved.get(("components", 0))),
                            field="components.0.data", hint=f"write data: {PREFIX}<table>")
        rows = ctx.once(("generator rows", table), lambda: providers[table[len(PREFIX):]](spec, ctx))
        tables = {table: generated_table(table[len(PREFIX):], rows, path)}
        return build_components(one, local, moved, tables)
    return parts
