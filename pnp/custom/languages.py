"""One deck in several languages: which cell a text placeholder prints in a language's kit.

A spec's ``languages: [en, de, ar]`` builds one kit per language (docs/templates.md, "Languages").
In the kit of language ``de`` a text layer's ``{name}`` prints the cell of the column ``name@de``
when the table has that column and the cell is not empty, else the cell of ``name`` (the default
text: a missing translation falls back to it, and the build note lists each such cell). Only text
placeholders are translated: ``when:``, colours, copies, keys and the declared checks read the
columns as they are, so a condition on ``category`` holds in every language.
"""
from __future__ import annotations

import re
from typing import Iterable

LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}")
"""A language code as BCP 47 writes it, lower-case primary subtag: ``en``, ``de``, ``pt-BR``, ``sr-Latn``."""
MAX_LANGUAGES = 20
SHOWN = 8  # fallback cells a build note names before it says how many more there are


def column(name: str, language: str) -> str:
    """The column key holding ``name``'s translation into ``language`` (keys are case-folded)."""
    return f"{name}@{language.casefold()}"


def translated(values: dict[str, str], language: str | None) -> dict[str, str]:
    """``values`` (a row's cells by column key) with every cell of a column ``name`` replaced by its
    ``name@language`` cell when that one is not empty; ``values`` itself when nothing changes or
    ``language`` is None."""
    if not language:
        return values
    suffix = "@" + language.casefold()
    out = None
    for k, v in values.items():
        if k.endswith(suffix) and v.strip():
            if out is None:
                out = dict(values)
            out[k[:-len(suffix)]] = v
    return out if out is not None else values


def source(values: dict[str, str], name: str, language: str | None) -> str:
    """The column key whose cell a placeholder ``{name}`` prints in the kit of ``language``: ``name@language``
    when ``values`` (a row's cells by key) has that cell and it is not empty, else ``name`` (what an error
    about the printed cell names)."""
    if language and values.get(column(name, language), "").strip():
        return column(name, language)
    return name


def fallbacks(rows: Iterable, columns: Iterable[str], headers: Iterable[str], language: str) -> list[str]:
    """Where the kit of ``language`` prints the default text: for each printed column (``columns``,
    keys) with no ``name@language`` column among ``headers`` (keys), "column NAME (no NAME@LANG)";
    for the others each row (a pnp.custom.table.Row) whose translation is empty while the default
    cell is not, "row N (NAME, ...)" with every such column of the row."""
    have = set(headers)
    out: list[str] = []
    present = []
    for col in sorted(set(columns)):
        if column(col, language) in have:
            present.append(col)
        else:
            out.append(f"column {col} (no {column(col, language)} column)")
    for row in rows:
        if row is None:
            continue
        lacking = [col for col in present if row.values.get(col, "").strip()
                   and not row.values.get(column(col, language), "").strip()]
        if lacking:
            out.append(f"row {row.number} ({', '.join(lacking)})")
    return out


def fallback_note(language: str, where: list[str], data: str) -> str:
    """The build note of a kit whose ``where`` (fallbacks()) print the default text."""
    shown = ", ".join(where[:SHOWN]) + (f" and {len(where) - SHOWN} more" if len(where) > SHOWN else "")
    return f"language {language}: {len(where)} place(s) in {data} print the default text: {shown}."
