"""The rules checks a spec declares in ``checks:`` about its parts, the same for every kit: ``count``
(a component's total number of parts). A spec whose ``game:`` names a generator declares them on
the parts the generator made (GeneratorSpec, check_parts); a data-driven game's spec declares them
too, beside the checks that read its table's cells (pnp.custom.checks).

The rule a finding cites is the spec's own line ("the designer's checks: nonads.yaml, line 12"):
whoever wrote the spec wrote the requirement there.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

from pathlib import Path
from typing import Literal, Mapping, Sequence

from ..core.errors import SpecError
from ..core.findings import Finding, verdict
from ..core.ir import Component
from ..inputs.specfields import Count, Items, SpecBase, SpecModel

MAX_CHECKS = 200


class DeclaredCheck(SpecModel):
    """A declared check: the ``component`` (by name) it is about."""
    component: str


class CountCheck(DeclaredCheck):
    """The component's total number of parts (faces x copies; a data-driven game's rows x copies) is ``equals``."""
    check: Literal["count"]
    equals: Count(0, 10_000_000)


MAX_COMPONENTS = 20


class TemplatedComponent(SpecModel):
    """A part a generator's spec draws with its folder's templates: ``name`` (the generator asks for
    it by name), ``data`` (``generator:<table>``, rows the generator computes), ``front`` and ``back``
    (template files, with ``{column}`` placeholders as in a designer's deck: docs/templates.md). Its
    size, copies and shape are the generator's."""
    name: str
    data: str
    front: str
    back: str | None = None


class GeneratorSpec(SpecBase):
    """The header of a spec whose ``game:`` names a generator: SpecBase, its declared ``checks`` and
    the ``components`` its templates draw from the generator's rows (each a data-driven component,
    read and checked by pnp.custom when the generator asks for it: KitContext.parts)."""
    checks: Items(tuple[CountCheck, ...], 0, MAX_CHECKS, f"at most {MAX_CHECKS} checks") = ()
    components: Items(tuple[TemplatedComponent, ...], 0, MAX_COMPONENTS, f"at most {MAX_COMPONENTS} components") = ()


def rule_of(path: Path, lines: Mapping, i: int) -> str:
    """The rule source of the spec's ``i``-th declared check: the spec file and its line."""
    return f"the designer's checks: {path.name}, line {lines.get(('checks', i), '?')}"


def count_finding(component: str, total: int, equals: int, rule: str) -> Finding:
    """The verdict of a ``count`` check: ``total`` parts of ``component`` against ``equals``."""
    return verdict(total == equals, f"{component}: {total} parts (the spec asks for {equals})", rule)


def check_parts(spec: GeneratorSpec, components: Sequence[Component], path: Path, lines: Mapping) -> list[Finding]:
    """One Finding per declared check of ``spec``, in spec order, on the ``components`` its generator made.

    Raises:
        SpecError: a check names no component of the kit (file, line, field and the names there are).
    """
    totals: dict[str, int] = {}
    for comp in components:
        totals[comp.name] = totals.get(comp.name, 0) + comp.count
    out = []
    for i, chk in enumerate(spec.checks):
        if chk.component not in totals:
            raise SpecError(f"a {chk.check} check names component {chk.component!r}, which this kit does not have.",
                            file=path, line=lines.get(("checks", i, "component"), lines.get(("checks", i))),
                            field=f"checks.{i}.component", hint=f"the components are {', '.join(totals)}")
        out.append(count_finding(chk.component, totals[chk.component], chk.equals, rule_of(path, lines, i)))
    return out
