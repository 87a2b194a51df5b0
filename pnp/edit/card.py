"""One card of a data-driven deck as it prints, for the editor: drawn by pnp's own SVG writer.

:class:`Deck` reads the game folder's spec, data and templates (pnp.custom.parts.ready, as a build
does) each time a card is asked for, so what the page shows is always what the files say.
:meth:`Deck.card` draws one component's front or back for one row: the template's layers bound to
the row (pnp.custom.draw), grown for bleed (pnp.layout.bleed) and written by
pnp.render.svg.page_to_svg on a page BLEED_MM larger than the trim on every side. Each layer comes
with its box (mm from the trim's top-left corner), the template file and index it was written at
and what is wrong with it on this row (a text that does not fit is drawn as nothing, and said).

:meth:`Deck.problems` looks at every row of a face: the text layers that fail to fit on some row
(the rows listed), and the text boxes crossing the safe area (pnp.core.safearea, as the checks do).
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import PnpError, SpecError
from ..core.fontbook import FontBook
from ..core.ir import Group, Page, Rect
from ..core.safearea import SAFE_MM, insets, past_safe_line
from ..custom.parts import Ready, ready, title_column
from ..custom.shaped import outline_of
from ..custom.template import Dim, shipped_dir
from ..inputs.gamefolder import within
from ..layout.bleed import extend_for_bleed
from ..pipeline.plan import context, load_target
from ..render.svg import page_to_svg

BLEED_MM = 3.0   # the bleed the editor draws and guides (a print shop's usual 3 mm)
MAX_ROWS_LISTED = 50  # rows named per problem


def plain_value(value: Any) -> Any:
    """A template field's value as JSON: a Dim as the YAML would write it (mm number, "50%",
    "50% - 1mm"), a model as its fields, tuples as lists."""
    if isinstance(value, Dim):
        if not value.pct:
            return round(value.value, 4)
        text = f"{value.value:g}%"
        return text + (f" {'+' if value.offset >= 0 else '-'} {abs(value.offset):g}mm" if value.offset else "")
    if hasattr(value, "model_dump"):
        return {k: plain_value(getattr(value, k)) for k in type(value).model_fields if getattr(value, k) is not None}
    if isinstance(value, (tuple, list)):
        return [plain_value(v) for v in value]
    return value


def layer_box(layer, w: float, h: float) -> tuple[float, float, float, float]:
    """(x, y, width, height) mm of a layer on a ``w`` x ``h`` mm part: its box, a circle's square,
    a line's or polygon's bounding box."""
    if hasattr(layer, "w"):
        return layer.x.mm(w), layer.y.mm(h), layer.w.mm(w), layer.h.mm(h)
    if layer.type == "circle":
        cx, cy, r = layer.cx.mm(w), layer.cy.mm(h), layer.r.mm(w)
        return cx - r, cy - r, 2 * r, 2 * r
    if layer.type == "line":
        xs, ys = (layer.x1.mm(w), layer.x2.mm(w)), (layer.y1.mm(h), layer.y2.mm(h))
    else:
        xs, ys = [p[0].mm(w) for p in layer.points], [p[1].mm(h) for p in layer.points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def stamps(files: list[Path]) -> tuple:
    """(mtime in ns, size) of each file, None for one that is missing: what tells a change."""
    out = []
    for p in files:
        try:
            st = os.stat(p)
            out.append((st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            out.append(None)
    return tuple(out)


@dataclass
class Loaded:
    """One read of the deck: the spec's components made ready (pnp.custom.parts.Ready), and the font
    book (pnp.core.fontbook) they were read in, which every redraw of this read enters: the faces the
    spec declares live as long as the read."""
    spec: Any
    readies: list[Ready]
    files: list[Path]
    book: FontBook


class Deck:
    """The game folder ``root`` whose spec is ``spec_path``, read again whenever one of the files it
    read last has changed (its mtime, size or inode: an atomic write is a new inode); ``version``
    counts the cards drawn (the page's data-version)."""

    def __init__(self, spec_path: Path) -> None:
        self.spec_path = Path(spec_path)
        self.root = Path(os.path.realpath(self.spec_path.parent))
        self.version = 0
        self.files: list[Path] = []  # what the last load read (the spec, data, templates, pictures)
        self._last: tuple[tuple, Loaded] | None = None  # the stamps of those files then, and what was read
        self._lock = threading.Lock()

    def load(self) -> Loaded:
        """Read the spec, its data and templates.

        Raises:
            PnpError: what a build would raise reading them (file, line, field); a spec that names a
                generator (``game:``) rather than components.
        """
        if self._last is not None and self._last[0] == stamps(self._watched()):
            return self._last[1]  # no file it read has changed since (mtime in ns and size)
        loaded = load_target(str(self.spec_path))
        if not hasattr(loaded.spec, "components") or loaded.game.fit_work is None:
            raise SpecError(f"{self.spec_path.name} names a generator (game:); pnp edit lays out a data-driven "
                            "deck's templates.", file=self.spec_path, field="game",
                            hint="edit a folder `pnp new` made (components: with data: and front:)")
        self._last = None
        book = FontBook()  # this read's faces and type tables: a changed file makes a new read and a new book
        with book.in_use():
            ctx = context(loaded)
            try:
                readies = ready(loaded.spec, ctx, loaded.lines)
            finally:
                self.files = [self.spec_path, *ctx.used]
        got = Loaded(loaded.spec, readies, self.files, book)
        self._last = (stamps(self._watched()), got)
        return got

    def _watched(self) -> list[Path]:
        """The files the last load read and their folders (a file added beside them, such as a copy of a
        shared template, changes what an include finds)."""
        return [*self.files, *dict.fromkeys(p.parent for p in self.files)]

    def forget(self) -> None:
        """Read the deck afresh next time (after a write)."""
        self._last = None

    def rel(self, path: Path) -> str:
        """How the page names a template file: its path inside the game folder, or ``shared/NAME``
        for one of pnp's shared templates."""
        real = os.path.realpath(path)
        if within(real, self.root):
            return Path(os.path.relpath(real, self.root)).as_posix()
        shared = shipped_dir()
        if within(real, shared):
            return Path(os.path.relpath(real, os.path.realpath(shared))).as_posix()
        return Path(path).name

    def source(self, path: Path) -> str:
        """"folder" for a template in the game folder, "shared" for one of pnp's."""
        return "folder" if within(path, self.root) else "shared"

    def outline(self) -> list[dict]:
        """The components the page offers: name, trim size (mm), shape and radius, sides, rows (each
        row's number in its data file and its title)."""
        got = self.load()
        out = []
        for r in got.readies:
            col = title_column(r.table, r.spec.title)
            rows = [{"number": row.number if row else None,
                     "title": (row.values.get(col, "").strip() if row and col else "") or
                              (f"row {row.number}" if row else "the card")} for row in r.rows]
            out.append({"name": r.spec.name, "size": list(r.spec.size), "shape": r.spec.shape,
                        "radius": r.spec.radius if r.spec.shape == "rounded" else 0.0,
                        "sides": ["front"] + (["back"] if r.spec.back is not None else []), "rows": rows,
                        "columns": list(r.table.headers) if r.table else []})
        return out

    def _face(self, got: Loaded, comp: int, side: str, row: int):
        if not 0 <= comp < len(got.readies):
            raise SpecError(f"the deck has no component {comp + 1}.", field="component", hint="reload the editor")
        r = got.readies[comp]
        if not 0 <= row < len(r.rows):
            raise SpecError(f"component {r.spec.name!r} has no row {row + 1}.", field="row", hint="reload the editor")
        path = r.paths[row][0 if side == "front" else 1]
        if side not in ("front", "back") or path is None:
            raise SpecError(f"component {r.spec.name!r} has no {side}.", field="side", hint="choose front or back")
        return r, path, r.faces[path]

    def card(self, comp: int, side: str, row: int, hidden: frozenset[str] = frozenset()) -> dict:
        """Card ``row`` (0-based, in data order) of component ``comp``'s ``side`` ("front"/"back"):
        {"svg": the page pnp's SVG writer wrote (trim plus BLEED_MM each side), "version",
        "trim_mm": [w, h], "bleed_mm", "safe_mm", "template": the face's file, "layers": [{"id":
        "<file>:<1-based index>", "file", "index" (0-based), "type", "name", "box" [x, y, w, h] mm,
        "shown" (its when: holds), "error" (why it is not drawn on this row) or None, "source"
        ("folder" or "shared"), "included" (an include's layers, not the face's own file),
        "values" (every field, defaults filled in), "hidden"}]}. The layers whose ids are in ``hidden``
        are left out of the drawing (on the page only: the template is not changed).

        Raises:
            PnpError: the deck cannot be read (its message names file, line, field).
        """
        got = self.load()
        with got.book.in_use():
            return self._card(got, comp, side, row, hidden)

    def _card(self, got: Loaded, comp: int, side: str, row: int, hidden: frozenset[str]) -> dict:
        r, path, face = self._face(got, comp, side, row)
        w, h = r.spec.size
        record = r.rows[row]
        values = record.values if record is not None else {}
        shapes: list = []
        layers = []
        for bl in face.layers:
            place = bl.place
            ident = f"{self.rel(place.file)}:{place.index}"
            shown = bl.show is None or bl.show(values)
            error = None
            if shown and ident not in hidden:
                n = len(shapes)
                try:
                    bl.draw(values, record, shapes)
                except PnpError as exc:
                    del shapes[n:]
                    error = str(exc)
            layers.append({"id": ident, "file": self.rel(place.file), "hidden": ident in hidden,
                           "index": place.index - 1, "type": place.layer.type, "name": place.layer.name,
                           "box": [round(v, 4) for v in layer_box(place.layer, w, h)], "shown": shown,
                           "error": error, "source": self.source(place.file),
                           "included": os.path.realpath(place.file) != os.path.realpath(path),
                           "values": {k: plain_value(v) for k, v in place.layer if v is not None},
                           "own": sorted({k[0] for k in place.lines if len(k) == 1 and isinstance(k[0], str)}),
                           "geom": _geometry(place.layer, w, h)})
        drawing = extend_for_bleed(tuple(shapes), w, h, BLEED_MM, outline_of(r.spec))
        page = Page(w + 2 * BLEED_MM, h + 2 * BLEED_MM, (Group(drawing, dx=BLEED_MM, dy=BLEED_MM),), label="")
        svg = page_to_svg(page)
        with self._lock:
            self.version += 1
            version = self.version
        return {"svg": svg, "version": version, "trim_mm": [w, h], "bleed_mm": BLEED_MM, "safe_mm": SAFE_MM,
                "template": self.rel(path), "template_source": self.source(path), "layers": layers}

    def problems(self, comp: int, side: str) -> list[dict]:
        """What is wrong on ``side`` of component ``comp`` over all its rows: [{"id": the layer,
        "kind": "fit" (its text fails on some rows: "rows" [0-based indexes], "message" the first
        error) or "safe" (its box crosses the safe area: "message")}].

        Raises:
            PnpError: the deck cannot be read.
        """
        got = self.load()
        with got.book.in_use():
            return self._problems(got, comp, side)

    def _problems(self, got: Loaded, comp: int, side: str) -> list[dict]:
        r = got.readies[comp] if 0 <= comp < len(got.readies) else None
        if r is None or side not in ("front", "back"):
            raise SpecError(f"the deck has no component {comp + 1} {side}.", field="component",
                            hint="reload the editor")
        w, h = r.spec.size
        fails: dict[str, tuple[list[int], str]] = {}
        out: list[dict] = []
        seen_faces = set()
        for i, (record, paths) in enumerate(zip(r.rows, r.paths)):
            path = paths[0 if side == "front" else 1]
            if path is None:
                continue
            face = r.faces[path]
            values = record.values if record is not None else {}
            for bl in face.texts:
                ident = f"{self.rel(bl.place.file)}:{bl.place.index}"
                if bl.show is not None and not bl.show(values):
                    continue
                try:
                    bl.draw(values, record, [])
                except PnpError as exc:
                    rows, _ = fails.setdefault(ident, ([], str(exc)))
                    rows.append(i)
            if path not in seen_faces:
                seen_faces.add(path)
                for bl in face.texts:
                    edge = past_safe_line(insets(_corners(layer_box(bl.place.layer, w, h)), w, h,
                                                 r.spec.shape == "circle"), SAFE_MM)
                    if edge is not None:
                        out.append({"id": f"{self.rel(bl.place.file)}:{bl.place.index}", "kind": "safe",
                                    "message": f"the text box reaches {edge[1]:.1f} mm past the safe area "
                                               f"({SAFE_MM:g} mm inside the trim) at the {edge[0]}"})
        for ident, (rows, message) in fails.items():
            out.append({"id": ident, "kind": "fit", "rows": rows[:MAX_ROWS_LISTED], "count": len(rows),
                        "message": message})
        return out


def _geometry(layer, w: float, h: float) -> dict:
    """A line's end points or a polygon's points in mm (what a drag moves), {} for a boxed layer."""
    if layer.type == "line":
        return {"x1": layer.x1.mm(w), "y1": layer.y1.mm(h), "x2": layer.x2.mm(w), "y2": layer.y2.mm(h)}
    if layer.type == "polygon":
        return {"points": [[px.mm(w), py.mm(h)] for px, py in layer.points]}
    return {}


def _corners(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x, y, w, h = box
    return x, y, x + w, y + h


def bleed_guide(w: float, h: float) -> Rect:
    """The bleed edge as a rectangle in the trim's coordinates (mm)."""
    return Rect(-BLEED_MM, -BLEED_MM, w + 2 * BLEED_MM, h + 2 * BLEED_MM)
