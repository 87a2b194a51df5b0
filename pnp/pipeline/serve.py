"""`pnp watch --serve`: a live preview of the kits on a local web page (127.0.0.1 only).

The page shows, per target, the kit's SVG pages, its bill of materials and the checks' verdict. It
reloads itself within a second of each rebuild: the browser listens to Server-Sent Events
(sse-starlette) that carry a version number the watch loop increases after every round. A bad edit
shows its error (file, line, field) above the last good pages, which stay.

Parts added or changed since the previous build of the session (the manifests' parts, pnp.pipeline.
parts) are listed under a badge (removed ones counted) and the pages printing them outlined, on the
page only (never in the kit).

Served: ``/`` (the page), ``/events`` (SSE), ``/state`` (JSON) and ``/kit/<n>/<file>``, where
``<file>`` must be one of the files the build of target ``n`` wrote (its manifest, kept in memory):
nothing else under --out is read. A kit file is opened through pnp.core.safepath.open_read from --out, in
the generation folder pnp's link ``OUT/<game>`` names at the request (pnp.store.recovery: a link pnp did
not make is refused; no symlink followed below --out, regular files only), so ``OUT/<game>`` re-pointed
elsewhere, a file replaced by a link, a FIFO or a folder, or one that vanished, is a 404. Every request whose ``Host`` header is not the address the
server listens on (``127.0.0.1``, ``localhost`` or ``[::1]`` with its port) is answered 400, so a web
page that rebinds its own name to 127.0.0.1 (DNS rebinding) cannot read the kit or ``/state``.
Starlette and uvicorn (BSD-3) are imported only with --serve.
"""
from __future__ import annotations

import asyncio
import html
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

from ..core.errors import OutputError, PnpError
from ..core.safepath import open_read
from ..store.recovery import current_generation

MAX_PAGES_SHOWN = 200   # pages per kit on the page (a 1,000-page deck would take minutes to load)
POLL = 0.2              # s between version checks of an open event stream
HOST = "127.0.0.1"      # the only address served
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")  # what a browser on this machine may call it
CHUNK = 1 << 16         # bytes of a kit file sent at a time


def allowed_hosts(port: int) -> frozenset[str]:
    """The ``Host`` header values the server answers when listening on ``port``: each of
    :data:`LOCAL_NAMES` with ``:port`` (and bare, for port 80, where browsers leave the port out),
    lower case."""
    hosts = {f"{name}:{port}" for name in LOCAL_NAMES}
    if port == 80:
        hosts.update(LOCAL_NAMES)
    return frozenset(hosts)


class LocalHostOnly:
    """ASGI middleware: a request whose ``Host`` header (lower-cased) is not one of ``hosts`` gets 400
    and never reaches the app. Starlette's TrustedHostMiddleware compares the host name only, not the
    port; this compares the whole header, as the page's own URLs send it."""

    def __init__(self, app, hosts: frozenset[str]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket"):
            values = [v for k, v in scope.get("headers", ()) if k == b"host"]
            host = values[0].decode("latin-1").lower() if len(values) == 1 else ""
            if host not in self.hosts:
                from starlette.responses import PlainTextResponse  # Starlette: only when a page is served
                await PlainTextResponse("pnp serves this page only as http://127.0.0.1 with its port",
                                        status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


@dataclass
class KitView:
    """What the page shows of one target: the last good kit (``files`` under ``folder``) and the last error."""
    target: str
    title: str = ""
    folder: Path | None = None
    files: tuple[str, ...] = ()
    bom: list[dict] = field(default_factory=list)
    verdict: str = ""
    error: str = ""
    parts: dict = field(default_factory=dict)   # (component, key) -> (fingerprint, count, pages), last good build
    changed: tuple[str, ...] = ()               # "component: key (added|changed)" since the build before
    removed: int = 0                            # parts the build before had and this one has not
    changed_pages: frozenset = frozenset()      # pages holding an added or changed part


class PreviewState:
    """Shared between the watch loop (which updates it) and the server threads (which read it)."""

    def __init__(self, targets: list[str]) -> None:
        self._lock = threading.Lock()
        self.version = 0
        self.views = [KitView(t) for t in targets]
        self._kits: dict[tuple[int, int], int] = {}  # (target, kit) -> its view, for a target's later kits

    def kit_ok(self, index: int, title: str, folder: Path, manifest: dict, verdict: str, kit: int = 0) -> None:
        """Kit ``kit`` of target ``index`` built (a spec of several languages makes one kit per
        language: the first is shown in the target's place, the others after the targets): show its
        pages and bill of materials."""
        with self._lock:
            if kit and (index, kit) not in self._kits:
                self._kits[index, kit] = len(self.views)
                self.views.append(KitView(self.views[index].target))
            v = self.views[self._kits[index, kit] if kit else index]
            v.title, v.folder, v.verdict, v.error = title, folder, verdict, ""
            v.files = tuple(f["path"] for f in manifest.get("files", ()))
            v.bom = [{"name": c["name"], "count": c["count"], "trim_mm": c["trim_mm"], "pages": c["pages"]}
                     for c in manifest.get("components", ())]
            parts = {(p["component"], p["key"]): (p["fingerprint"], p["count"], tuple(p.get("pages", ())))
                     for p in manifest.get("parts", ())}
            if v.parts:  # the first build of this session has nothing to compare with
                v.changed, v.changed_pages = changes(v.parts, parts)
                v.removed = sum(ident not in parts for ident in v.parts)
            v.parts = parts

    def kit_error(self, index: int, error: PnpError) -> None:
        """Target ``index`` failed: show the error above its last good pages."""
        with self._lock:
            self.views[index].error = str(error)

    def round_done(self) -> None:
        """A round of rebuilds ended: open pages reload."""
        with self._lock:
            self.version += 1

    def snapshot(self) -> tuple[int, list[KitView]]:
        with self._lock:
            return self.version, [KitView(**vars(v)) for v in self.views]


def changes(old: dict, new: dict) -> tuple[tuple[str, ...], frozenset]:
    """The parts added or changed between two builds' ``parts`` ((component, key) -> (fingerprint,
    count, pages)), as "component: key (added|changed)" lines, and the pages of the new kit that hold
    them."""
    lines, pages = [], set()
    for ident, (fp, count, where) in new.items():
        kind = "added" if ident not in old else "changed" if old[ident][:2] != (fp, count) else None
        if kind:
            lines.append(f"{ident[0]}: {ident[1]} ({kind})")
            pages.update(where)
    return tuple(lines), frozenset(pages)


PAGE = Template("""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pnp preview</title>
<style>
body { font-family: "Noto Sans", sans-serif; margin: 1.5em; background: #f4f4f4; }
.error { background: #fde8e8; border: 1px solid #c00; color: #900; padding: .6em; white-space: pre-wrap; }
.verdict { color: #333; } table { border-collapse: collapse; margin: .5em 0; }
td, th { border: 1px solid #bbb; padding: .2em .6em; text-align: left; }
.pages { display: flex; flex-wrap: wrap; gap: 12px; }
.page { background: white; box-shadow: 0 1px 4px #999; width: 420px; }
.page svg { width: 100%; height: auto; display: block; }
.page.changed { outline: 3px solid #e69f00; }
.badge { display: inline-block; background: #e69f00; color: #000; border-radius: .8em; padding: 0 .6em; }
</style></head>
<body data-version="$version">
<h1>pnp preview</h1>
$kits
<script>
const shown = document.body.dataset.version;
const events = new EventSource("/events");
events.onmessage = (e) => { if (e.data !== shown) location.reload(); };
for (const div of document.querySelectorAll(".page[data-src]")) {
  fetch(div.dataset.src).then((r) => r.text()).then((svg) => { div.innerHTML = svg; });
}
</script>
</body></html>
""")


def _number(svg: str) -> int | None:
    """The page number of an SVG page's file name (``svg/<stem>-pNN.svg``)."""
    m = re.search(r"-p(\d+)\.svg$", svg)
    return int(m.group(1)) if m else None


def _kit_html(index: int, view: KitView) -> str:
    esc = html.escape
    parts = [f'<section id="kit-{index}"><h2>{esc(view.title or view.target)}</h2>']
    if view.error:
        parts.append(f'<div class="error">error: {esc(view.error)}\n(the last good kit is shown)</div>')
    if view.verdict:
        parts.append(f'<p class="verdict">{esc(view.verdict)}</p>')
    if view.bom:
        rows = "".join(f"<tr><td>{esc(c['name'])}</td><td>{c['count']}</td>"
                       f"<td>{c['trim_mm'][0]:g} \u00d7 {c['trim_mm'][1]:g} mm</td>"
                       f"<td>{esc(', '.join(map(str, c['pages'])))}</td></tr>" for c in view.bom)
        parts.append("<table><tr><th>component</th><th>count</th><th>trim</th><th>pages</th></tr>"
                     f"{rows}</table>")
    if view.changed or view.removed:
        listed = "".join(f"<li>{esc(line)}</li>" for line in view.changed[:MAX_PAGES_SHOWN])
        gone = f", {view.removed} removed" if view.removed else ""
        parts.append(f'<details class="changes"><summary><span class="badge">{len(view.changed)} changed</span>'
                     f'{gone} since the previous build (outlined pages)</summary><ul>{listed}</ul></details>')
    pages = [f for f in view.files if f.startswith("svg/") and f.endswith(".svg")]
    if len(pages) > MAX_PAGES_SHOWN:
        parts.append(f"<p>the first {MAX_PAGES_SHOWN} of {len(pages)} pages</p>")
    parts.append('<div class="pages">' + "".join(
        f'<div class="page{" changed" if _number(p) in view.changed_pages else ""}" '
        f'data-src="/kit/{index}/{esc(p, quote=True)}"></div>' for p in pages[:MAX_PAGES_SHOWN]) + "</div></section>")
    return "".join(parts)


def make_app(state: PreviewState, port: int):
    """The Starlette application serving ``state`` to requests addressed to ``127.0.0.1:port`` (or
    ``localhost:port``, ``[::1]:port``; anything else: 400)."""
    from sse_starlette.sse import EventSourceResponse  # Starlette: only when a page is served
    from starlette.applications import Starlette  # Starlette: imported when first needed, never at start-up
    from starlette.middleware import Middleware  # Starlette: imported when first needed, never at start-up
    from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse  # Starlette: see above
    from starlette.routing import Route  # Starlette: imported when first needed, never at start-up

    async def index(_request):
        version, views = state.snapshot()
        body = PAGE.substitute(version=version, kits="".join(_kit_html(i, v) for i, v in enumerate(views)))
        return HTMLResponse(body, headers={"Cache-Control": "no-store"})

    async def state_json(_request):
        version, views = state.snapshot()
        return JSONResponse({"version": version, "kits": [
            {"target": v.target, "title": v.title, "error": v.error, "verdict": v.verdict, "bom": v.bom,
             "files": list(v.files), "changed": list(v.changed), "removed": v.removed, "changed_pages": sorted(v.changed_pages)}
            for v in views]})

    async def events(request):
        async def stream():
            last = None
            while not await request.is_disconnected():
                version = state.version
                if version != last:
                    last = version
                    yield {"data": str(version)}
                await asyncio.sleep(POLL)
        return EventSourceResponse(stream(), ping=15)

    async def kit_file(request):
        _, views = state.snapshot()
        index, rel = request.path_params["index"], request.path_params["path"]
        if not 0 <= index < len(views) or rel not in views[index].files or views[index].folder is None:
            return Response("not a file of this kit", status_code=404)
        try:
            f = open_read(*kit_path(views[index].folder, rel))
        except (OSError, OutputError):  # vanished, replaced by a link or a special file, or OUT/<game> not pnp's
            return Response("not a file of this kit", status_code=404)
        media = "image/svg+xml" if rel.endswith(".svg") else "application/octet-stream"
        return StreamingResponse(_chunks(f), media_type=media, headers={"Cache-Control": "no-store"})

    return Starlette(routes=[Route("/", index), Route("/state", state_json), Route("/events", events),
                             Route("/kit/{index:int}/{path:path}", kit_file)],
                     middleware=[Middleware(LocalHostOnly, hosts=allowed_hosts(port))])


def kit_path(folder: Path, rel: str) -> tuple[Path, str]:
    """Where the file ``rel`` of the kit ``folder`` (OUT/<game>) is now, as (--out, the path below it): in the
    generation folder pnp's link OUT/<game> names (pnp.store.recovery.current_generation), never where
    another link leads, so OUT/<game> re-pointed outside --out while the watch runs serves nothing.

    Raises:
        OutputError: OUT/<game> is not pnp's link (or holds no kit).
    """
    out = folder.parent
    gen = current_generation(out, folder.name)
    if gen is None:
        raise OutputError(f"{folder} holds no kit.", file=folder)
    return out, f"{gen.relative_to(out).as_posix()}/{rel}"


def _chunks(f):
    """The bytes of the open file ``f`` in CHUNK pieces; the file is closed at the end."""
    with f:
        while chunk := f.read(CHUNK):
            yield chunk


def start_server(state: PreviewState | None, port: int, make=None) -> tuple[str, object]:
    """Serve ``state`` on 127.0.0.1:``port`` (0: a free port) in a background thread; ``make``: instead
    of the preview, the ASGI app ``make(port)`` returns for the port bound (`pnp edit`'s).

    Returns:
        (the page's URL, the uvicorn server; set its ``should_exit`` to stop it).

    Raises:
        PnpError: the port cannot be used (taken, or not allowed).
    """
    import uvicorn  # uvicorn: imported when first needed, never at start-up
    if not 0 <= port <= 65535:
        raise PnpError(f"--port {port} is outside 0..65535.", field="--port", hint="use e.g. --port 8765, or 0 for any")
    taken = PnpError(f"cannot serve the preview on {HOST}:{port} (the port is taken or not allowed).",
                     field="--port", hint="choose another port, or --port 0 for any free one")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # bound here: the app must know its port
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
    except OSError:
        sock.close()
        raise taken from None
    bound = sock.getsockname()[1]
    app = make(bound) if make is not None else make_app(state, bound)
    config = uvicorn.Config(app, log_level="error", lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="pnp-preview", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise taken
        time.sleep(0.02)
    return f"http://{HOST}:{bound}/", server
