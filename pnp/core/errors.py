"""One error hierarchy. Every error a user can cause is a PnpError that names its file, line and field.

pnp/cli.py turns a PnpError into a one-paragraph message and exit code 2; nothing else prints tracebacks.
"""
from __future__ import annotations

from pathlib import Path


class PnpError(Exception):
    """A problem with the user's input or environment.

    Attributes:
        message: what is wrong.
        file: the file concerned, if any.
        line: 1-based line number in that file, if known.
        field: the dotted spec field or CLI option concerned, if any.
        hint: how to fix it.
    """

    def __init__(self, message: str, *, file: str | Path | None = None, line: int | None = None,
                 field: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.hint = hint

    def location(self) -> str:
        """'specs/nonads/nonads.yaml, line 4, field tile_size' (only the parts that are known)."""
        parts = []
        if self.file:
            parts.append(self.file)
        if self.line:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(f"field {self.field}")
        return ", ".join(parts)

    def __str__(self) -> str:
        loc = self.location()
        text = f"{loc}: {self.message}" if loc else self.message
        if self.hint:
            text += f" Fix: {self.hint}"
        return text


class SpecError(PnpError):
    """A spec file (YAML) that cannot be read, parsed or validated."""


class WordListError(PnpError):
    """A word list with a bad line: wrong length, duplicate, non-letter, missing glyph, bad encoding."""


class LayoutError(PnpError):
    """A component or sheet that cannot be laid out, e.g. larger than the printable area."""


class OutputError(PnpError):
    """The output folder cannot be written, or a path would leave it."""


class ValidationFailed(PnpError):
    """The spec loads but its components break a rule; `pnp build` refuses to write the kit (exit 1)."""
