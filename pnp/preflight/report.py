"""A preflight finding: a Finding (pnp.core.findings) with the place it was measured, and the rule
for listing many of one kind (the first SHOWN named, the rest counted)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core.findings import FAIL, PASS, WARN, Finding
from .scene import Where

SHOWN = 8  # places named per check and status; the rest are counted in one more finding


@dataclass(frozen=True)
class Spot(Finding):
    """A Finding at ``where`` (page, mm, component, card); None for a whole-kit verdict."""
    where: Where | None = None


def listed(found: Sequence[tuple[str, Where, str]], rule: str, passed: str) -> list[Finding]:
    """Findings of one check from ``found`` ((status, where, what) in the order measured): per status,
    the first SHOWN as Spots ("<what> (<where>)"), then one counting the rest; one PASS saying
    ``passed`` when nothing was found."""
    if not found:
        return [Finding(PASS, passed, rule)]
    out: list[Finding] = []
    for status in (FAIL, WARN):
        some = [(w, what) for s, w, what in found if s == status]
        out += [Spot(status, f"{what} ({w.describe()})", rule, where=w) for w, what in some[:SHOWN]]
        if len(some) > SHOWN:
            out.append(Finding(status, f"and {len(some) - SHOWN} more like these", rule))
    return out


def short(text: str, n: int = 30) -> str:
    """``text`` cut to ``n`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= n else text[:n - 1] + "\u2026"
