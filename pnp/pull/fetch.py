"""One bounded download (httpx): byte limit, connect and read timeouts, a total deadline, checked redirects.

``Fetcher(limits).get(address, etag, last_modified)`` asks for ``address`` (conditionally when the last
download's validators are given) and follows at most ``limits.redirects`` redirects itself, each
``Location`` checked by pnp.inputs.weburl's rule (https, or http to this computer; never from another
computer to this one). The body is streamed and refused at ``limits.max_bytes`` (a ``Content-Length``
over it is refused before a byte is read); every wait (connecting, each read) is bounded by the read
or connect timeout and by what is left of ``limits.deadline`` (seconds for the whole download,
redirects included), checked again after every chunk, so a server that trickles bytes is stopped too.
No proxy, .netrc or cookie of the environment is used (httpx ``trust_env=False``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urljoin

import httpx

from ..core.errors import PnpError
from ..inputs.weburl import is_loopback, url_problem
from ..inputs.workbookguard import size_text

USER_AGENT = "pnp-pull/1 (print-and-play kit compiler)"
CHUNK = 64 * 1024
REDIRECTS = (301, 302, 303, 307, 308)


class PullError(PnpError):
    """A download that failed or was refused (the data file on disk is left as it was)."""


@dataclass(frozen=True)
class Limits:
    """The bounds of one download: ``max_bytes`` of body, ``deadline`` seconds in all, ``connect``
    and ``read`` seconds for one wait, at most ``redirects`` redirects."""
    max_bytes: int = 16 * 1024 * 1024
    deadline: float = 60.0
    connect: float = 10.0
    read: float = 20.0
    redirects: int = 5


@dataclass(frozen=True)
class Fetched:
    """What the server answered: ``status`` 200 (``body`` is the whole file) or 304 (unchanged, no
    body), the ``address`` that answered (after redirects), its ``content_type`` and validators."""
    status: int
    body: bytes
    address: str
    content_type: str
    etag: str | None
    last_modified: str | None


Progress = Callable[[int, "int | None"], None]
"""Called with (bytes received, bytes expected or None) while a body is read."""


class Fetcher:
    """An HTTP client for pulls, open for its lifetime (``with Fetcher() as f``; connections reused)."""

    def __init__(self, limits: Limits = Limits(), transport: httpx.BaseTransport | None = None) -> None:
        self.limits = limits
        self._client = httpx.Client(follow_redirects=False, trust_env=False, transport=transport,
                                    headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"})

    def __enter__(self) -> "Fetcher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._client.close()

    def get(self, address: str, etag: str | None = None, last_modified: str | None = None,
            progress: Progress | None = None, what: str = "the sheet") -> Fetched:
        """Download ``address`` (``what`` names it in messages), conditionally on ``etag`` /
        ``last_modified`` (a 304 then returns no body).

        Raises:
            PullError: an address or redirect the rule refuses, a redirect loop or too many
                redirects, an HTTP error status, a body over the limit, the deadline passed, a
                connection or TLS failure (each says what happened and what to do).
        """
        limits = self.limits
        end = time.monotonic() + limits.deadline
        headers = {}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        seen: list[str] = []
        url = address
        while True:
            problem = url_problem(url)
            if problem is not None:
                raise PullError(f"{what} redirected to {_short(url)}, which pnp does not download from: {problem}.",
                                hint="use the address the sheet's own site gives for sharing (docs/pull.md)")
            if seen and is_loopback(url) and not is_loopback(seen[-1]):
                raise PullError(f"{what} at {_short(seen[-1])} redirected to this computer ({_short(url)}); "
                                "pnp does not follow that.", hint="check the address in url:")
            if url in seen:
                raise PullError(f"{what} redirects in a loop ({_short(url)} again after {len(seen)} redirects).",
                                hint="open the address in a browser; if it loops there too, share the sheet again")
            seen.append(url)
            left = end - time.monotonic()
            if left <= 0:
                raise self._late(what)
            timeout = httpx.Timeout(connect=min(limits.connect, left), read=min(limits.read, left),
                                    write=min(limits.read, left), pool=min(limits.connect, left))
            try:
                with self._client.stream("GET", url, headers=headers, timeout=timeout) as response:
                    if response.status_code in REDIRECTS:
                        if len(seen) > limits.redirects:
                            raise PullError(f"{what} redirected more than {limits.redirects} times.",
                                            hint="open the address in a browser to see where it leads")
                        location = response.headers.get("Location", "")
                        if not location:
                            raise PullError(f"{what} answered {response.status_code} with no Location.",
                                            hint="check the address in url:")
                        url = urljoin(url, location)
                        continue
                    return self._answer(response, url, end, progress, what)
            except httpx.TimeoutException:
                if time.monotonic() >= end - 0.05:
                    raise self._late(what) from None
                raise PullError(f"{what} at {_short(url)} did not answer in {limits.read:g} s.",
                                hint="check your connection and pull again") from None
            except httpx.HTTPError as exc:
                raise PullError(f"cannot download {what} from {_short(url)}: {_reason(exc)}.",
                                hint="check your connection and the address in url:, then pull again") from None

    def _answer(self, response: httpx.Response, url: str, end: float, progress: Progress | None,
                what: str) -> Fetched:
        validators = (response.headers.get("ETag"), response.headers.get("Last-Modified"))
        ctype = response.headers.get("Content-Type", "")
        if response.status_code == 304:
            return Fetched(304, b"", url, ctype, *validators)
        if response.status_code != 200:
            raise PullError(f"{what} at {_short(url)} answered HTTP {response.status_code} "
                            f"{response.reason_phrase or ''}".rstrip() + ".", hint=_status_hint(response.status_code))
        limit = self.limits.max_bytes
        declared = response.headers.get("Content-Length")
        total = int(declared) if declared and declared.isdigit() else None
        if total is not None and total > limit:
            raise self._big(what, f"{size_text(total)} (it says so before sending it)")
        chunks, got = [], 0
        for chunk in response.iter_bytes(CHUNK):
            got += len(chunk)
            if got > limit:
                raise self._big(what, f"more than {size_text(limit)}")
            chunks.append(chunk)
            if progress is not None:
                progress(got, total)
            if time.monotonic() > end:
                raise self._late(what)
        return Fetched(200, b"".join(chunks), url, ctype, *validators)

    def _big(self, what: str, size: str) -> PullError:
        return PullError(f"{what} is {size}; pnp pulls at most {size_text(self.limits.max_bytes)}.",
                         hint="check the address in url: (a sheet of cards is far smaller), or delete unused rows "
                              "and columns")

    def _late(self, what: str) -> PullError:
        return PullError(f"downloading {what} took longer than {self.limits.deadline:g} s; stopped.",
                         hint="check your connection and pull again")


def _short(url: str, most: int = 80) -> str:
    return url if len(url) <= most else url[: most - 1] + "\u2026"


def _reason(exc: httpx.HTTPError) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:200]


def _status_hint(status: int) -> str:
    if status in (401, 403):
        return ("the sheet is not shared: in Google Sheets choose Share > General access > Anyone with the link, "
                "or File > Share > Publish to the web (docs/pull.md)")
    if status == 404:
        return "check the address in url: (copy the sheet's link again)"
    if status == 429 or status >= 500:
        return "the server is busy or failing; pull again later"
    return "check the address in url:"
