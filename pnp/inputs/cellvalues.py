"""Spreadsheet cell values in messages: what counts as empty, what a non-text value is called, and
the error values spreadsheet programs write for a formula that failed."""
from __future__ import annotations

import datetime

# what Excel, LibreOffice and Google Sheets show (and export to CSV) for a formula that failed
ERROR_VALUES = frozenset({"#DIV/0!", "#N/A", "#REF!", "#VALUE!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!", "#CALC!",
                          "#GETTING_DATA", "#ERROR!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!"}
                         | {f"Err:{n}" for n in range(500, 540)})


def is_empty(value) -> bool:
    """None, or text that is only spaces."""
    return value is None or (isinstance(value, str) and not value.strip())


def kind_of(value) -> str:
    """'the number 12', 'the date 2024-01-01', ...: a cell value that is not text, named for a message."""
    if isinstance(value, bool):
        return f"the true/false value {str(value).upper()}"
    if isinstance(value, (int, float)):
        shown = int(value) if isinstance(value, float) and value.is_integer() else value
        return f"the number {shown}"
    if isinstance(value, datetime.datetime):
        return f"the date and time {value.isoformat(sep=' ')}"
    if isinstance(value, datetime.date):
        return f"the date {value.isoformat()}"
    if isinstance(value, datetime.time):
        return f"the time {value.isoformat()}"
    if isinstance(value, datetime.timedelta):
        return f"the duration {value}"
    return f"a {type(value).__name__} value"
