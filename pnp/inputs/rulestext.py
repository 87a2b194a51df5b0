"""The rules quick reference a kit prints on its cover, read from a small Markdown file.

The format (the only Markdown the cover takes): line 1 ``# Title``, line 2 a one-line description,
then the ``## Section`` headings Components, Setup, A turn, End and winner and Fine points, in that
order, with paragraphs (lines joined until a blank line) and ``- `` bullets. Parsed once per build;
errors name the file and line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SpecError
from ..core.fonts import missing_glyphs
from .specfields import read_text

RULE_SECTIONS = ("Components", "Setup", "A turn", "End and winner", "Fine points")
MAX_RULES_BYTES = 64 * 1024


@dataclass(frozen=True)
class Block:
    """One piece of the rules text: ``kind`` "heading", "para" or "bullet", its ``text`` and the
    1-based ``line`` of the source it starts on."""
    kind: str
    text: str
    line: int


@dataclass(frozen=True)
class Rules:
    """A parsed rules file: title, one-line description, and blocks in order."""
    path: Path
    title: str
    description: str
    blocks: tuple[Block, ...]


def parse_rules(path: Path) -> Rules:
    """Read a rules file: line 1 ``# Title``, line 2 a one-line description, then ``## Section``
    headings (Components, Setup, A turn, End and winner, Fine points, in that order), paragraphs
    (lines joined until a blank line) and ``- `` bullets.

    Raises:
        SpecError: a missing or unreadable file, not UTF-8, larger than 64 KiB, a missing title or
            description, a missing or misplaced section, Markdown the cover cannot print, or a
            character the embedded font lacks
            (names the file and line).
    """
    if path.is_file() and path.stat().st_size > MAX_RULES_BYTES:
        raise SpecError(f"rules text is larger than {MAX_RULES_BYTES // 1024} KiB.", file=path,
                        hint="a quick reference fits on two pages: shorten it")
    lines = read_text(path, "rules file").splitlines()
    if not lines or not lines[0].startswith("# ") or not lines[0][2:].strip():
        raise SpecError("the first line must be the title, written `# Title`.", file=path, line=1, field="rules")
    if len(lines) < 2 or not lines[1].strip() or lines[1].startswith("#"):
        raise SpecError("the second line must be a one-line description of the game.", file=path, line=2,
                        field="rules")
    blocks: list[Block] = []
    para: list[str] = []
    para_line = 0

    def flush() -> None:
        nonlocal para
        if para:
            kind = "bullet" if para[0].startswith("- ") else "para"
            text = " ".join(p.strip() for p in para)
            blocks.append(Block(kind, text[2:].strip() if kind == "bullet" else text, para_line))
            para = []

    for number, raw in enumerate(lines[2:], start=3):
        line = raw.rstrip()
        if not line.strip():
            flush()
        elif line.startswith("## "):
            flush()
            blocks.append(Block("heading", line[3:].strip(), number))
        elif line.startswith("#") or line.lstrip().startswith(("|", "* ", "  -")) or re.match(r"\s*\d+\.\s", line):
            raise SpecError(f"the cover prints `## Section` headings, paragraphs and `- ` bullets only; "
                            f"cannot print {line.strip()[:40]!r}.", file=path, line=number, field="rules",
                            hint="use one level of headings and plain bullets")
        elif line.startswith("- "):
            flush()
            para, para_line = [line], number
        else:
            if not para:
                para_line = number
            para.append(line)
    flush()
    headings = [b.text for b in blocks if b.kind == "heading"]
    if tuple(headings) != RULE_SECTIONS:
        missing = [h for h in RULE_SECTIONS if h not in headings]
        where = next((b.line for b in blocks if b.kind == "heading" and b.text not in RULE_SECTIONS), None)
        raise SpecError("the rules need the sections " + ", ".join(RULE_SECTIONS) + " in that order"
                        + (f"; missing: {', '.join(missing)}" if missing else f"; found: {', '.join(headings)}")
                        + ".", file=path, line=where, field="rules", hint="start each with `## ` on its own line")
    for number, line in enumerate(lines, start=1):
        lacking = missing_glyphs(line)
        if lacking:
            raise SpecError(f"the embedded font (Noto Sans) cannot print {' '.join(map(repr, lacking[:5]))} "
                            f"(U+{ord(lacking[0]):04X}).", file=path, line=number, field="rules",
                            hint="replace the character with one the font has, or describe it in words")
    return Rules(path, lines[0][2:].strip(), lines[1].strip(), tuple(blocks))
