"""A sheet server on 127.0.0.1 for the pull tests: a threaded http.server whose paths answer what a web
host might (a CSV with an ETag, an XLSX, a 404, redirect loops, redirects to other schemes, a sign-in
page, a 2 GB body, a stalled body), with a log of every request it saw and the bytes it sent."""
from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOGIN_PAGE = (b"<!doctype html><html lang=\"en\"><head><title>Google Sheets - sign in</title></head>"
              b"<body><form action=\"https://accounts.google.com/signin\">Sign in to continue to Sheets</form>"
              b"</body></html>")
HUGE = 2 * 1000 ** 3  # bytes the /huge paths claim or would send
SEND_CAP = 64 * 1024 * 1024  # the server stops sending here in any case (a bounded loop)
STALL = 10.0  # s the /stall path waits before it hangs up, its body unfinished


@dataclass
class Served:
    """One file the server holds: its bytes, content type, and whether it answers If-None-Match."""
    body: bytes
    ctype: str = "text/csv; charset=utf-8"
    etag: bool = True

    @property
    def tag(self) -> str:
        return '"' + hashlib.sha256(self.body).hexdigest()[:16] + '"'


@dataclass
class SheetServer:
    """The running server: ``files`` by path, ``log`` of (path, headers), ``sent`` bytes per path."""
    files: dict[str, Served] = field(default_factory=dict)
    log: list[tuple[str, dict]] = field(default_factory=list)
    sent: dict[str, int] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)
    port: int = 0

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def requests(self, path: str) -> int:
        return sum(p.split("?")[0] == path for p, _ in self.log)


def _handler(state: SheetServer):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def do_GET(self):  # noqa: N802 - http.server's name
            state.log.append((self.path, dict(self.headers)))
            path = self.path.split("?")[0]
            redirects = {"/loop": "/loop2", "/loop2": "/loop", "/to-file": "file:///etc/passwd",
                         "/to-ftp": "ftp://127.0.0.1/cards.csv", "/to-remote-http": "http://example.com/cards.csv",
                         "/hop": "/cards.csv"}
            if path in redirects:
                self.send_response(302)
                self.send_header("Location", redirects[path])
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path == "/login":
                self._send(200, LOGIN_PAGE, "text/html; charset=utf-8")
            elif path in ("/huge", "/huge-unsized"):
                self._huge(path, sized=path == "/huge")
            elif path == "/stall":
                self.send_response(200)
                self.send_header("Content-Type", "text/csv")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"name,text\n")
                self.wfile.flush()
                state.release.wait(STALL)  # then hang up mid-body (the client gives up long before)
            elif path in state.files:
                served = state.files[path]
                if served.etag and self.headers.get("If-None-Match") == served.tag:
                    self.send_response(304)
                    self.send_header("ETag", served.tag)
                    self.end_headers()
                    return
                self._send(200, served.body, served.ctype, served.tag if served.etag else None)
            else:
                self._send(404, b"not found", "text/plain")

        def _send(self, code: int, body: bytes, ctype: str, etag: str | None = None) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            if etag:
                self.send_header("ETag", etag)
            self.end_headers()
            self.wfile.write(body)
            state.sent[self.path] = state.sent.get(self.path, 0) + len(body)

        def _huge(self, path: str, sized: bool) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            if sized:
                self.send_header("Content-Length", str(HUGE))
            self.end_headers()
            block = b"a," * 32768
            sent = 0
            try:
                while sent < min(HUGE, SEND_CAP):
                    self.wfile.write(block)
                    sent += len(block)
            except OSError:  # the client hung up
                pass
            state.sent[path] = sent

    return Handler


class running:
    """``with running() as server:`` a SheetServer on 127.0.0.1 (any free port) until the block ends."""

    def __enter__(self) -> SheetServer:
        self.state = SheetServer()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self.state))
        self.httpd.daemon_threads = True
        self.state.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self.state

    def __exit__(self, *exc) -> None:
        self.state.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
