"""`pnp edit`'s web server: the editor page and its API, on 127.0.0.1 only (Starlette, uvicorn).

Served: ``/`` (the page, pnp/edit/static/editor.html, with this run's token), ``/static/<file>``
(its script and style sheet, package data: nothing else is read), and the API:

* ``GET /api/deck``: the components (names, trim sizes, sides, rows with their titles, columns),
  the template schema (pnp.edit.schema), the fonts the spec declares and the pictures in the folder;
* ``GET /api/card?component=&side=&row=&hide=``: one card drawn by pnp's SVG writer (pnp.edit.card.Deck.card),
  without the layers ``hide`` lists (ids, comma-separated: hidden on the page only);
* ``GET /api/problems?component=&side=``: the layers whose text fails on some row, texts past the safe area;
* ``GET /api/stamp``: a fingerprint of the files the deck reads (the page redraws when it changes);
* ``POST /api/edit``, ``/api/undo``, ``/api/redo``: writes (pnp.edit.session.Session).

Every request whose ``Host`` is not this server's own address is answered 400 (pnp.pipeline.serve.
LocalHostOnly, as `pnp watch --serve`), so a page that rebinds its name to 127.0.0.1 reads nothing.
A write is taken only with the token the page was served with (``X-PNP-Token``; new each time the
editor starts, compared in constant time), as JSON (``Content-Type: application/json``) and from
the page's own origin: its ``Origin`` header must be ``http://<Host>`` and ``Sec-Fetch-Site``, when
the browser sends it, ``same-origin``; a request with neither is refused too. A refused write is a
403 and changes nothing.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from importlib import resources
from pathlib import Path
from string import Template

from ..core.errors import PnpError
from ..pipeline.serve import LocalHostOnly, allowed_hosts
from .card import Deck
from .schema import layer_schema
from .session import Session

STATIC = {"editor.js": "text/javascript", "drag.js": "text/javascript", "panels.js": "text/javascript",
          "editor.css": "text/css"}
PICTURES = (".png", ".jpg", ".jpeg", ".svg")
MAX_PICTURES = 500   # picture files listed for the image layer's src
MAX_BODY = 256 * 1024  # bytes of one write request


def static_text(name: str) -> str:
    """The text of the packaged file pnp/edit/static/``name``."""
    return resources.files("pnp.edit").joinpath("static", name).read_text(encoding="utf-8")


def pictures(root: Path) -> list[str]:
    """Picture files in the game folder (paths relative to it, at most MAX_PICTURES), no link followed,
    hidden folders left out."""
    out: list[str] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.lower().endswith(PICTURES) and not os.path.islink(os.path.join(folder, name)):
                out.append(Path(os.path.relpath(os.path.join(folder, name), root)).as_posix())
                if len(out) >= MAX_PICTURES:
                    return out
    return out


def write_refusal(headers, token: str) -> str | None:
    """Why a write with these request ``headers`` is refused (None: it may write): the token, the
    content type, the origin."""
    given = headers.get("x-pnp-token", "")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8")):
        return "the request does not carry this editor's token (reload the page)"
    if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return "a write is JSON"
    origin, site = headers.get("origin"), headers.get("sec-fetch-site")
    own = f"http://{headers.get('host', '').lower()}"
    if origin is not None and origin.lower() != own:
        return f"a write from another page ({origin}) is refused"
    if site is not None and site != "same-origin":
        return "a write from another site is refused"
    if origin is None and site is None:
        return "a write must come from the editor's page"
    return None


class Editor:
    """What the server serves: the ``deck``, its edit ``session`` and this run's ``token``."""

    def __init__(self, spec_path: Path) -> None:
        self.deck = Deck(spec_path)
        self.session = Session(self.deck)
        self.token = secrets.token_urlsafe(24)

    def stamp(self) -> str:
        """A fingerprint (mtime, size) of the files the deck read last, the spec first."""
        digest = hashlib.sha256()
        files = self.deck.files or [self.deck.spec_path]
        for p in files:
            try:
                st = os.stat(p)
                digest.update(f"{p}\0{st.st_mtime_ns}\0{st.st_size}\n".encode())
            except OSError:
                digest.update(f"{p}\0-\n".encode())
        return digest.hexdigest()[:16]


def make_app(editor: Editor, port: int):
    """The Starlette application for ``editor`` on 127.0.0.1:``port`` (other Hosts: 400)."""
    from starlette.applications import Starlette  # Starlette: only when the page is served
    from starlette.middleware import Middleware  # Starlette: see above
    from starlette.responses import HTMLResponse, JSONResponse, Response  # Starlette: see above
    from starlette.routing import Route  # Starlette: see above

    page = Template(static_text("editor.html"))
    no_store = {"Cache-Control": "no-store"}

    def fail(exc: PnpError, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": f"error: {exc}"}, status_code=status, headers=no_store)

    def ints(request, *names):
        try:
            return [int(request.query_params.get(n, "0")) for n in names]
        except ValueError:
            raise PnpError(f"{', '.join(names)} must be whole numbers.", hint="reload the editor") from None

    async def index(_request):
        return HTMLResponse(page.substitute(token=editor.token), headers=no_store)

    async def static(request):
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not a file of the editor", status_code=404)
        return Response(static_text(name), media_type=STATIC[name], headers=no_store)

    async def deck(_request):
        try:
            got = editor.deck.load()
            comps = editor.deck.outline()
        except PnpError as exc:
            return fail(exc)
        return JSONResponse({"components": comps, "schema": layer_schema(), "fonts": sorted(got.spec.fonts),
                             "pictures": pictures(editor.deck.root), "folder": editor.deck.root.name,
                             "stamp": editor.stamp(), "can_undo": bool(editor.session.done),
                             "can_redo": bool(editor.session.undone)}, headers=no_store)

    async def card(request):
        try:
            comp, row = ints(request, "component", "row")
            hidden = frozenset(h for h in request.query_params.get("hide", "").split(",") if h)
            got = editor.deck.card(comp, request.query_params.get("side", "front"), row, hidden)
        except PnpError as exc:
            return fail(exc)
        got["stamp"] = editor.stamp()
        return JSONResponse(got, headers=no_store)

    async def problems(request):
        try:
            [comp] = ints(request, "component")
            got = editor.deck.problems(comp, request.query_params.get("side", "front"))
        except PnpError as exc:
            return fail(exc)
        return JSONResponse({"problems": got}, headers=no_store)

    async def stamp(_request):
        return JSONResponse({"stamp": editor.stamp()}, headers=no_store)

    async def write(request):
        refused = write_refusal(request.headers, editor.token)
        if refused is not None:
            return JSONResponse({"error": f"error: {refused}."}, status_code=403, headers=no_store)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": "error: the edit is too large."}, status_code=413, headers=no_store)
        try:
            op = json.loads(body or b"{}")
        except ValueError:
            return JSONResponse({"error": "error: the edit is not JSON."}, status_code=400, headers=no_store)
        kind = request.path_params["kind"]
        try:
            if kind == "edit":
                if not isinstance(op, dict):
                    raise PnpError("the edit is not a mapping.", hint="reload the editor")
                done = editor.session.apply(op)
            elif kind in ("undo", "redo"):
                done = editor.session.step(kind == "undo")
            else:
                return Response("no such write", status_code=404)
        except PnpError as exc:
            return fail(exc)
        return JSONResponse({"done": done, "can_undo": bool(editor.session.done),
                             "can_redo": bool(editor.session.undone)}, headers=no_store)

    return Starlette(routes=[Route("/", index), Route("/static/{name}", static), Route("/api/deck", deck),
                             Route("/api/card", card), Route("/api/problems", problems),
                             Route("/api/stamp", stamp),
                             Route("/api/{kind}", write, methods=["POST"])],
                     middleware=[Middleware(LocalHostOnly, hosts=allowed_hosts(port))])
