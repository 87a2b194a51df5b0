"""Rules-validator results: each check reports pass, fail or warning with the rule it comes from."""
from __future__ import annotations

from dataclasses import dataclass

PASS, FAIL, WARN = "pass", "fail", "warning"


@dataclass(frozen=True)
class Finding:
    """One check's result.

    Attributes:
        status: "pass", "fail" or "warning".
        check: what was checked, with its numbers ("34 tiles, each 3x3 with 4 black cells").
        rule: where the requirement comes from ("Nonads rules: Tiles").
        build_note: a warning that `pnp build` prints too, as a note (it is about the printed kit,
            e.g. a picture's resolution); other warnings only `pnp validate` shows.
    """
    status: str
    check: str
    rule: str
    build_note: bool = False


def verdict(ok: bool, check: str, rule: str, warn: bool = False) -> Finding:
    """PASS when ``ok``; otherwise FAIL (or WARNING when ``warn``)."""
    return Finding(PASS if ok else (WARN if warn else FAIL), check, rule)
