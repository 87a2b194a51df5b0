"""Text that is safe to print: control characters escaped, long values cut."""
from __future__ import annotations

import unicodedata

MAX_MESSAGE = 2000   # characters of one message
MAX_VALUE = 200      # characters of one quoted value inside a message


def plain(text: str, limit: int = MAX_MESSAGE, newlines: bool = True) -> str:
    """``text`` with every control, format or line/paragraph-separator character written as an
    escape (``\\x1b``, ``\\u2028``) and cut in the middle to at most ``limit`` characters; a line break
    ``\\n`` is kept unless ``newlines`` is false (a text shown on one line: a name, a key)."""
    out = []
    for ch in text:
        if (ch == "\n" and newlines) or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    text = "".join(out)
    if len(text) > limit:
        half = (limit - 5) // 2
        text = f"{text[:half]} [\u2026] {text[-half:]}"
    return text


def cut(value: object, limit: int = MAX_VALUE) -> str:
    """``repr(value)``, cut in the middle to at most ``limit`` characters: for quoting a user's value."""
    text = repr(value)
    if len(text) > limit:
        half = (limit - 5) // 2
        text = f"{text[:half]} [\u2026] {text[-half:]}"
    return text
