"""The one rule for a web address pnp may download from (a spec's ``url:``, every redirect `pnp pull` follows).

An address is allowed when it is ``https://`` to any host, or plain ``http://`` to this computer only
(127.0.0.1, ::1 or localhost: a local test server). Nothing else: no ``file:``, ``ftp:``, ``data:``,
no plain http across a network (anyone on the way could change the cards), no user name or password
in the address (it would be written into the game folder's record), at most MAX_URL_CHARS
characters, no control characters or spaces.
"""
from __future__ import annotations

from urllib.parse import urlsplit

MAX_URL_CHARS = 2048
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def host_of(url: str) -> str:
    """The host of ``url`` in lower case, without brackets ("::1"); "" when it has none."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def is_loopback(url: str) -> bool:
    """True when ``url``'s host is this computer (LOOPBACK)."""
    return host_of(url) in LOOPBACK


def url_problem(url: object) -> str | None:
    """Why ``url`` is not an address pnp downloads from ("it is ftp:, ..."), None when it is."""
    if not isinstance(url, str) or not url.strip():
        return "it is empty"
    if len(url) > MAX_URL_CHARS:
        return f"it is over {MAX_URL_CHARS} characters"
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        return "it holds a space or a control character"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        return "it is not a web address"
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        return f"it is {scheme + ':' if scheme else 'not a web address'}; pnp downloads only https:// addresses"
    if not parts.hostname:
        return "it names no host"
    if parts.username is not None or parts.password is not None:
        return "it holds a user name or password; share the sheet with a link instead"
    if scheme == "http" and parts.hostname.lower() not in LOOPBACK:
        return "it is plain http:// to another computer; use the https:// address"
    return None
