"""The neutral drawing model: small value classes (pnp.core.values) in millimetres, y pointing down (as in SVG).

Game modules build these; pnp/layout places them on pages; pnp/render turns pages into PDF or SVG.
No game imports a renderer and no renderer knows about games.

Colours are CSS-style hex strings ("#000000") or None for "no paint".
A shape with ``bleed=True`` reaches the trim: when a kit is built with bleed, imposition extends
the sides of that shape that touch the trim outward by the bleed (see pnp/layout/bleed.py).
"""
from __future__ import annotations

from dataclasses import field
from typing import Callable, Sequence, Union

from .values import value

BLACK = "#000000"
WHITE = "#ffffff"


@value
class Rect:
    """Axis-aligned rectangle: top-left (x, y), width w, height h, all mm; ``r`` > 0 rounds the corners
    with that radius (mm)."""
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = BLACK
    stroke_width: float = 0.2
    bleed: bool = False
    r: float = 0.0


@value
class Circle:
    """Circle: centre (cx, cy) and radius r, mm."""
    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = BLACK
    stroke_width: float = 0.2
    bleed: bool = False


@value
class Polygon:
    """Closed polygon through ``points`` ((x, y) pairs, mm), filled by the nonzero winding rule (SVG's
    default; the PDF writer asks for it too), so a polygon whose sides cross is filled where it
    overlaps itself."""
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = BLACK
    stroke_width: float = 0.2


@value
class Line:
    """Straight line segment from (x1, y1) to (x2, y2), mm; ``dash`` is an on/off pattern in mm."""
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = BLACK
    stroke_width: float = 0.2
    dash: tuple[float, ...] | None = None


@value
class Text:
    """One line of text at (x, y) mm.

    ``anchor`` is "start", "middle" or "end" horizontally; ``valign`` is "baseline" or "middle"
    (middle centres the cap height on y). ``size_pt`` is the font size in points. ``rotate`` turns
    the text clockwise by degrees about (x, y). ``underline`` draws a rule under it. ``font`` is the
    name of a face in pnp.core.fonts's registry ("NotoSans", "NotoSans-Italic", or one registered).

    ``width`` is the text's advance width in mm at ``size_pt`` in the face it is drawn in (its bold
    face when ``bold``), given by a maker that measured it while fitting (pnp.custom.textbind), whose
    glyphs that maker has checked in that face; None, and a backend measures and checks the text
    itself (pnp.render.base.place_text). It is derived, so it takes no part in equality, hashing or a
    part's fingerprint.
    """
    x: float
    y: float
    text: str
    size_pt: float = 10.0
    anchor: str = "start"
    valign: str = "baseline"
    fill: str = BLACK
    bold: bool = False
    rotate: float = 0.0
    underline: bool = False
    font: str = "NotoSans"
    width: float | None = field(default=None, compare=False)


@value
class Group:
    """Children drawn after translating by (dx, dy), then rotating clockwise by ``rotate`` degrees,
    then scaling by (sx, sy) (sx = -1 mirrors). ``clip`` = (x, y, w, h) in the group's own
    coordinates limits the children to that rectangle; ``clip_path``, a closed polygon ((x, y) pairs
    in the group's own coordinates), limits them to that outline (a shaped part's cut outline grown
    by the bleed); with both, to where they overlap.

    ``key`` marks reuse: every group of one document (a PDF; one SVG page) with the same key has the
    same ``children`` and ``clip`` (its own dx, dy, rotate, sx, sy may differ), so a backend may
    draw that content once and place it again (a PDF Form XObject, an SVG ``<symbol>``/``<use>``).
    Give a key only to content that repeats; a backend that ignores keys draws the same page."""
    children: tuple["Shape", ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    sx: float = 1.0
    sy: float = 1.0
    clip: tuple[float, float, float, float] | None = None
    layer: str | None = None
    key: str | None = None
    clip_path: tuple[tuple[float, float], ...] | None = None


@value
class Image:
    """A picture from a PNG, JPEG or SVG file (``src``, an absolute path checked by
    pnp.inputs.images.read_image before drawing) in the box (x, y, w, h) mm. ``fit``: "contain" (the
    whole picture, centred), "cover" (fills the box, centred and cropped) or "stretch" (to the box);
    always clipped to the box. Raster images are embedded once per document however often drawn.
    ``bleed``: the box reaches the trim, and grows past it by the kit's bleed like a Rect's.
    ``root``: the game folder the files SVG art references must stay inside (pnp.inputs.gamefolder);
    None: SVG art may reference no file."""
    x: float
    y: float
    w: float
    h: float
    src: str
    fit: str = "contain"
    bleed: bool = False
    root: str | None = None


Shape = Union[Rect, Circle, Polygon, Line, Text, Group, Image]
Drawing = tuple[Shape, ...]


@value
class Component:
    """A kind of physical part: a tile, card, counter or board.

    Attributes:
        name: short name, unique in its kit ("tile", "word card").
        width, height: trim size in mm.
        fronts: one Drawing per distinct face, in the component's local coordinates (0..width,
            0..height). May be a lazy sequence (only ``len`` and indexing are used).
        copies: how many of each front to print.
        back: a common back Drawing, or None when the part has no printed back.
        shape: "rect", "circle" (diameter = width = height), "rounded" (a rectangle with corners
            of ``radius`` mm) or "polygon" (the closed ``outline``); used for cut lines.
        board: True for a board that may be split over several pages (poster tiling).
        note: a short description for the bill of materials.
        variant: "" for the standard game, else the name of the optional extra that alone uses this
            part: a rules variant ("square variant") or an aid the game can do without ("setup
            sheet"). Its parts are printed on pages of their own.
        titles: optional, one title per front (a NetMatch card's word, a data-driven card's name
            column), for outputs that name each part (Tabletop Simulator's Nickname); () when the
            game gives none. Drawing never reads it.
        sources: optional, one PartSource per front (its key, data row and fields), set by the
            data-driven engine; () when the game gives none (pnp.pipeline.parts then keys the fronts
            by their titles, else by their numbers). Drawing never reads it.
        outline: for shape "polygon", the cut outline's vertices ((x, y) pairs, mm from the trim
            box's top-left corner, y down, inside 0..width x 0..height, closed implicitly); else ().
        folds: score (fold) lines ((x1, y1, x2, y2), mm, same frame) that a cutter creases rather
            than cuts (tuck boxes, dice nets, standees); () for a flat part. The fronts draw
            whatever fold marks a person sees; these are for cutter files and checks.
        inner: for a box, its inside (width, depth, height) in mm (the manifest's ``inner_mm``); else ().
    """
    name: str
    width: float
    height: float
    fronts: Sequence[Drawing]
    copies: int = 1
    back: Drawing | None = None
    shape: str = "rect"
    board: bool = False
    note: str = ""
    variant: str = ""
    radius: float = 0.0
    titles: tuple[str, ...] = ()
    sources: tuple["PartSource", ...] = ()
    outline: tuple[tuple[float, float], ...] = ()
    folds: tuple[tuple[float, float, float, float], ...] = ()
    inner: tuple[float, float, float] = ()

    @property
    def cut_shape(self) -> "CutShape":
        """The outline its parts are cut along, and their score lines."""
        return CutShape(self.shape, self.radius if self.shape == "rounded" else 0.0,
                        self.outline if self.shape == "polygon" else (), self.folds)

    @property
    def count(self) -> int:
        """Total number of physical parts: distinct fronts x copies."""
        return len(self.fronts) * self.copies


@value
class PartSource:
    """Where one front comes from, for telling which parts changed between two builds: its ``key``
    (stable across edits of the data: the spec's ``key:`` column, else the first column whose values
    all differ, else the row number), the 1-based data ``row`` (None without data), the ``fields``
    (column key, cell text) of that row, the ``group`` its keys are unique in (the spec's component
    name), the ``proof`` box (x, y, w, h) in mm where `--proof` stamps it (its template's
    ``proof:``; None: the default spot) and what the key is, ``keyed``: "declared" (``key:``),
    "column" (the first all-different column), "row" (the row number) or "" (a generator's own
    key). Without a declared key pnp.pipeline.pairing pairs parts across builds by their fields."""
    key: str
    row: int | None = None
    fields: tuple[tuple[str, str], ...] = ()
    group: str = ""
    proof: tuple[float, float, float, float] | None = None
    keyed: str = ""


class LazyFronts(Sequence):
    """A sequence of fronts drawn on demand from ``items`` by ``draw(item)``; keeps memory flat."""

    def __init__(self, items: Sequence, draw: Callable[[object], Drawing]) -> None:
        self._items = items
        self._draw = draw

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self._draw(item) for item in self._items[index]]
        return self._draw(self._items[index])


@value
class CutShape:
    """The outline a part is cut along: ``kind`` "rect", "circle" (the circle inscribed in the trim
    box), "rounded" (a rectangle whose corners are arcs of ``radius`` mm) or "polygon" (the closed
    outline through ``points``, (x, y) mm from the trim box's top-left corner, y down); ``folds``:
    score lines (x1, y1, x2, y2) in the same frame, creased, not cut."""
    kind: str = "rect"
    radius: float = 0.0
    points: tuple[tuple[float, float], ...] = ()
    folds: tuple[tuple[float, float, float, float], ...] = ()


@value
class Placement:
    """One trimmed part on a page: its component's ``name``, its trim box (``x``, ``y``, ``w``,
    ``h``, mm from the page's top-left corner), the ``cut`` outline and ``face``, the index of the
    component's front drawn there (None for a back or a board piece)."""
    name: str
    x: float
    y: float
    w: float
    h: float
    cut: CutShape = CutShape()
    face: int | None = None


@value
class Page:
    """One imposed sheet: size in mm, what is drawn, and the boxes a printer needs.

    ``trim_box`` / ``bleed_box`` are (x, y, w, h) in mm covering all parts on the page (per-part
    information for tools and tests; the PDF's TrimBox and BleedBox are the whole sheet).
    ``placements`` lists every trimmed part (Placement), for cut paths and the manifest. ``label`` names what is on the page for the footer (one component, or several joined with
    " + " on a mixed sheet); ``side`` is "front" or "back".
    """
    width: float
    height: float
    items: tuple[Shape, ...]
    label: str
    trim_box: tuple[float, float, float, float] | None = None
    bleed_box: tuple[float, float, float, float] | None = None
    placements: tuple[Placement, ...] = ()
    side: str = "front"
    tile: "TileInfo | None" = None


@value
class TileInfo:
    """Where a poster piece sits: ``name`` ("B2"), grid ``cols`` x ``rows``, the board window
    (bx, by, w, h) in board mm, and the page position (px, py) of that window's top-left corner."""
    name: str
    cols: int
    rows: int
    window: tuple[float, float, float, float]
    page_xy: tuple[float, float]

