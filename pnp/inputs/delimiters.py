"""Which character separates the cells of a delimited text table: comma, semicolon, tab or pipe.

Excel writes ``;`` in most of Europe (where ``,`` is the decimal comma), some tools write ``|`` or
tab. ``detect`` parses the first SAMPLE_ROWS non-empty records with each candidate and keeps the one
whose rows split alike: a candidate counts only when its most common row width (the *mode*) is at
least two cells; its score is the share of rows of that width, plus one when the first row (the
header, usually free of punctuation) has that width too. The best score wins when it leads the next
by at least MARGIN; otherwise the file is ambiguous and the caller asks the user to say which.
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass

DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
SAMPLE_ROWS = 50
MARGIN = 0.2


@dataclass(frozen=True, eq=False)
class Detected:
    """``delimiter`` (a key of DELIMITERS; None when ambiguous), and ``tied``: the candidates that
    scored alike when ambiguous (else empty)."""
    delimiter: str | None
    tied: tuple[str, ...] = ()


def _score(text: str, delimiter: str) -> float:
    """How consistently ``delimiter`` splits the first rows of ``text`` (0 when it does not split them)."""
    widths: list[int] = []
    try:
        for cells in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            if any(c.strip() for c in cells):
                while cells and not cells[-1].strip():
                    cells.pop()
                widths.append(len(cells))
                if len(widths) >= SAMPLE_ROWS:
                    break
    except csv.Error:
        return 0.0
    if not widths:
        return 0.0
    mode, count = Counter(widths).most_common(1)[0]
    if mode < 2:
        return 0.0
    return count / len(widths) + (1.0 if widths[0] == mode else 0.0)


def detect(text: str, default: str = ",") -> Detected:
    """The delimiter of the delimited ``text`` (without a byte-order mark).

    Returns ``default`` when no candidate splits the rows (a one-column table), and
    ``Detected(None, tied)`` when two or more candidates split them about equally well.
    """
    scores = sorted(((_score(text, d), d) for d in DELIMITERS), reverse=True)
    best, chosen = scores[0]
    if best == 0.0:
        return Detected(default)
    tied = tuple(d for s, d in scores if s > 0 and best - s < MARGIN)
    return Detected(chosen) if len(tied) == 1 else Detected(None, tied)
