"""The font book: the one owner of a build's type state, with the build's lifetime.

A :class:`FontBook` holds what setting text makes and registers while one build runs: the faces a
spec declares (pnp.core.fonts.register_face), the measuring tables (text widths, wrapped lines and
word widths: pnp.core.fonts, pnp.text.wrapping), placed texts (pnp.render.base.place_text), shaped
runs and the HarfBuzz fonts that shape them (pnp.core.shaping), ink extents, the SVG font subsets
made in memory (pnp.render.fontcache, pnp.render.svgfont), the glyph outlines drawn for cutter
SVGs, the build's checked pictures (pnp.inputs.images) and the layouts a game keeps
(:meth:`FontBook.table`). Nothing of it outlives the book: a face a build registers is gone when
the build ends.

Who owns a book, and so how long it lives:

* ``pnp build`` (and validate, preview, watch): one per target. pnp.pipeline.plan makes it
  (:func:`for_build`) and plans the target in it; the TargetPlan carries it and
  pnp.pipeline.execute writes the kit in it. Each `pnp watch` round plans again: a new book.
* ``pnp edit``: one per read of the deck (pnp.edit.card.Deck.load); every redraw of that read
  enters it, a changed file makes a new read and a new book.
* Anyone else (a library caller, a test calling a function directly): outside any entered book the
  functions use the *library book*, one per process (:data:`LIBRARY`): what such calls register
  stays there, as a library's registry would. Enter a book of your own
  (``with FontBook().in_use(): ...``) for a lifetime of your own; a build planned inside an
  entered book uses that book (the caller who entered it owns the lifetime).

The module functions keep their signatures (``text_width_mm(text, size, face)``, ``face(name)``,
``wrap(...)``, ``place_text(t)``): they find the book in use through a context variable
(:func:`current`), set and reset by :meth:`FontBook.in_use`, so a thread (the editor's request
handlers) sees only the book it entered.

Kept process-wide, outside any book, because they can never be stale: the faces of the font files
installed with pnp and its font packages (Noto Sans and its fallbacks: pnp.core.fonts), the shipped
SVG chunk files read for them (pnp.render.fontchunks, keyed by the folder read), and the facts of a
font file keyed by the sha256 of its bytes (pnp.inputs.fontfile).
"""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

TABLE_ENTRIES = 8192
"""A named table (:meth:`FontBook.table`) starts over when it holds this many entries."""


class FontBook:
    """The type state of one build (see the module docstring). ``chunk_folder``: where the shipped
    SVG font chunks of the built-in faces are read from (None: pnp.render, where pnp ships them; a
    folder without them makes every SVG page subset its fonts, as with another version of the font
    package).

    Attributes (each a plain dict, emptied when it reaches its limit by the module that fills it):
    ``faces`` (name -> pnp.core.fonts.Face registered in this book), ``widths`` (text widths, mm),
    ``word_pt`` and ``wrapped`` (pnp.text.wrapping), ``placed`` (pnp.render.base), ``shaped``
    and ``hb_fonts`` (pnp.core.shaping), ``ink``, ``css`` (SVG @font-face rules by face and
    characters), ``images`` (pnp.inputs.images); ``made`` counts things made in it by kind
    ("subset": an SVG font subset made with fontTools)."""

    def __init__(self, chunk_folder: Path | None = None) -> None:
        self.chunk_folder = Path(chunk_folder) if chunk_folder is not None else None
        self.faces: dict[str, object] = {}
        self.widths: dict[tuple, float] = {}
        self.word_pt: dict[tuple, dict[str, float]] = {}
        self.wrapped: dict[tuple, tuple[str, ...]] = {}
        self.placed: dict[tuple, object] = {}
        self.shaped: dict[tuple, tuple] = {}
        self.hb_fonts: dict[str, tuple] = {}
        self.ink: dict[tuple, tuple[float, float]] = {}
        self.css: dict = {}
        self.images: dict[tuple, object] = {}
        self.made: Counter[str] = Counter()
        self._tables: dict[str, dict] = {}

    def table(self, name: str) -> dict:
        """The book's table called ``name`` (made empty on first use), for a module's own memo of
        what it computes from text metrics (a game's laid-out card). Emptied when it reaches
        :data:`TABLE_ENTRIES` entries, as :func:`kept` does."""
        got = self._tables.get(name)
        if got is None:
            got = self._tables[name] = {}
        return got

    def remember(self, name: str, key, make: Callable[[], T], limit: int = TABLE_ENTRIES) -> T:
        """The entry ``key`` of the table ``name`` (:meth:`table`), made with ``make()`` (which must
        not return None) and kept when absent; the table starts over when it holds ``limit`` entries.
        Exceptions of ``make`` pass through and nothing is kept."""
        table = self.table(name)
        got = table.get(key)
        if got is None:
            got = kept(table, key, make(), limit)
        return got

    def run(self, fn: Callable[..., T], *args, **kwargs) -> T:
        """``fn(*args, **kwargs)`` with this book in use (drawing a planned target's parts after its
        plan: pnp.pipeline.plan.TargetPlan.book)."""
        with self.in_use():
            return fn(*args, **kwargs)

    @contextmanager
    def in_use(self) -> Iterator["FontBook"]:
        """Make this the book the module functions use for the duration (nested: the outer one
        comes back; per thread and per asyncio task, through a context variable)."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)


LIBRARY = FontBook()
"""The library book: what calls outside any entered book use (see the module docstring)."""
_CURRENT: ContextVar[FontBook] = ContextVar("pnp_font_book", default=LIBRARY)

current = _CURRENT.get
"""``current() -> FontBook``: the book in use (:data:`LIBRARY` outside any entered book). A bound
ContextVar.get, the cheapest lookup there is: text_width_mm calls it for every text it measures."""


def entered() -> bool:
    """True when a book other than the library book is in use (a build, an editor read, a caller's own)."""
    return _CURRENT.get() is not LIBRARY


def for_build() -> FontBook:
    """The book a build is planned and written in: the one in use when a caller entered one
    (it owns the lifetime), else a new book."""
    got = _CURRENT.get()
    return got if got is not LIBRARY else FontBook()


def kept(table: dict, key, value, limit: int = TABLE_ENTRIES):
    """``value``, stored under ``key`` in ``table``, which is emptied first when it holds ``limit`` entries."""
    if len(table) >= limit:
        table.clear()
    table[key] = value
    return value
