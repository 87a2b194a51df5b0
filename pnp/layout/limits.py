"""A kit's size, estimated before anything is drawn: pages and rough output bytes, and the limits.

check_budget() counts pages as if each component had sheets of its own (parts per page from its N-up
grid, poster pieces from the tiling grid, a back or blank after every page in duplex): an upper bound
on what impose, which may share sheets between components, prints. It estimates the output from the
number of shapes in a few sample faces, so it costs a few grid computations per component, never the
packing or imposition of a page. It refuses a kit above the limits with a LayoutError naming the
component and the numbers, before the first page is imposed or a file is written.

Limits (a real kit is a few dozen pages; the seed's largest, NetMatch, is 16 A4 pages):

* MAX_PAGES: 20,000 pages in one kit (40 reams, and about an hour of writing): above that the spec
  has a runaway count, not a game.
* MAX_POSTER_COLUMNS: poster pieces are named by a column letter A..Z and a row number ("B2"), so a
  board is cut into at most 26 columns; MAX_POSTER_PIECES: at most 26 x 26 pieces.
* MAX_OUTPUT_BYTES: 2 GiB of PDF and SVG together, estimated: every poster piece carries the whole
  board drawing (clipped), so a heavy board cut into many pieces is refused here too.
* MAX_SECONDS: 10 minutes of work, estimated from the faces, parts, pages and formats
  (estimate_seconds): a 150,000-word NetMatch deck is about a minute and a half as PDF and SVG, and is
  built with a progress line; as a TTS export (about 17 minutes) or cutter SVGs it is refused before
  any work starts.

* MAX_RASTER_PIXELS: 40 megapixels in one image a raster format renders (a preview page at --dpi on the
  paper; a Print Then Cut image, at most the cutter's area at 300 dpi): the pixels are counted from
  the paper and options here, and a build over the bound is refused naming the option and the paper.

Before a build starts the caller prints ``budget.describe()`` ("16,675 pages, about 2 min 50 s") when
the estimate is over 2 s, then a progress line with the time left.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, Sequence

from ..core.errors import LayoutError
from ..core.ir import Component, Drawing
from .packing import grid_for
from .options import ImposeOptions
from .fold import capacity, folds
from .paper import Sheet
from .partfit import check_parts_fit
from .tiling import piece_grid

MAX_PAGES = 20_000
MAX_POSTER_COLUMNS = 26
MAX_POSTER_PIECES = MAX_POSTER_COLUMNS * MAX_POSTER_COLUMNS
MAX_OUTPUT_BYTES = 2 * 1024 ** 3
MAX_RASTER_PIXELS = 40_000_000  # one rendered image (about 120 MB as RGB): A4 or Letter at 600 dpi
CRICUT_DPI = 300

# Rough PDF + SVG bytes per page (the SVG carries a font subset on every page) and per shape, fitted to
# the built-in kits: the estimate is within 1.5x of their real size, and errs high.
PAGE_BYTES = 20_000
SHAPE_BYTES = 120
PAGE_FURNITURE = 40  # shapes on every page: footer, scale bar, crop marks
SAMPLES = 3  # faces whose shapes are counted: the first, the middle and the last

# The cost of a build (estimate_seconds), fitted to the bench's cases (bench/estimates.py: NetMatch decks
# of 1,000 and 10,000 words, the 1,000-row data-driven deck and every built-in kit, each as PDF, SVG
# and both; CPU seconds, which a lone build on an idle machine takes as wall time).
MAX_SECONDS = 600.0  # a build estimated longer than 10 minutes is refused before it starts
STARTUP_SECONDS = 0.8  # a process's start: the interpreter, pnp's imports, fonts and svglib read once
SECONDS_FIXED = 0.03  # a kit's own: its spec, checks, cover and files
SECONDS_PER_FACE = 60e-6  # each distinct face drawn (a template or a game's code) and fingerprinted
SECONDS_PER_FIT_CHAR = 0.45e-6  # one character laid out once by shrink-to-fit (measured: 1,500-character texts
# shrinking from 400 pt, and the bench deck's 75-character clues)


class FormatCost(Protocol):
    """What the estimate asks of an output format (pnp.render.formats.KitWriter): its ``name``, its
    work on a kit, and the largest image it renders per sheet. ``settings`` is the build's
    pnp.render.formats.WriterSettings, passed through unread."""
    name: str

    def seconds(self, pages: int, components: Sequence[Component], settings: Any) -> float:
        """CPU seconds to write ``pages`` imposed pages of ``components``."""

    def pixels(self, sheet: Sheet, settings: Any) -> tuple[int, str, float]:
        """(pixels, the option that sets them, dpi) of the largest image rendered per ``sheet``."""


@dataclass(frozen=True, eq=False)
class ComponentBudget:
    """One component's share: ``pages`` (backs and blanks included), ``shapes`` drawn on them."""
    name: str
    pages: int
    shapes: int


@dataclass(frozen=True, eq=False)
class Budget:
    """The estimate for a kit: total ``pages`` (cover included), rough PDF + SVG ``bytes``, per component,
    and ``seconds``, roughly how long writing the ``formats`` asked for takes (see estimate_seconds)."""
    pages: int
    bytes: int
    components: tuple[ComponentBudget, ...]
    seconds: float = 0.0
    pixels: int = 0
    """The largest image a raster format of the build renders (raster_pixels), 0 without one."""

    def describe(self) -> str:
        """'16,675 pages, about 2 min 50 s' (and ', images up to 35 megapixels' when a raster format
        renders one over a megapixel): what the CLI prints before a long build starts."""
        images = f", images up to {self.pixels / 1e6:.0f} megapixels" if self.pixels >= 1_000_000 else ""
        return f"{self.pages:,} page{'s' if self.pages != 1 else ''}, about {duration(self.seconds)}{images}"


def raster_pixels(formats: Sequence[FormatCost], sheet: Sheet, settings: Any = None) -> tuple[int, str, float]:
    """The largest image (pixels) one output of ``formats`` renders on ``sheet`` with ``settings``,
    the option that sets it and the dpi (each format's ``pixels``); (0, "", 0) when none renders
    pixels per sheet."""
    return max([(0, "", 0.0)] + [f.pixels(sheet, settings) for f in formats])


def duration(seconds: float) -> str:
    """'40 s', '3 min 20 s', '1 h 5 min' (rounded to what an estimate can promise)."""
    s = max(1, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        m, r = divmod(s, 60)
        r = round(r / 5) * 5
        return f"{m} min" + (f" {r} s" if r and m < 10 else "")
    h, r = divmod(s, 3600)
    return f"{h} h" + (f" {r // 60} min" if r // 60 else "")


def shape_count(drawing: Drawing) -> int:
    """Shapes in a drawing, counting the children of groups (iterative)."""
    count, stack = 0, [drawing]
    while stack:
        for shape in stack.pop():
            count += 1
            children = getattr(shape, "children", None)
            if children:
                stack.append(children)
    return count


def _mean_face(comp: Component) -> float:
    """Mean shapes per front, from up to SAMPLES fronts (a lazy sequence draws only those)."""
    n = len(comp.fronts)
    if n == 0:
        return 0.0
    picks = sorted({0, n // 2, n - 1})[:SAMPLES]
    return sum(shape_count(comp.fronts[i]) for i in picks) / len(picks)


def _size(n: int) -> str:
    return f"{n / 1024 ** 3:.1f} GB" if n >= 1024 ** 3 else f"{max(1, round(n / 1024 ** 2))} MB"


def estimate_seconds(pages: int, components: Sequence[Component], formats: Sequence[FormatCost],
                     settings: Any = None) -> float:
    """Roughly how long (s) planning and writing one kit of ``pages`` pages in ``formats`` takes, the
    process's start-up (STARTUP_SECONDS) not included: SECONDS_FIXED, SECONDS_PER_FACE for each
    distinct face of ``components`` (drawn once, whatever the formats), and each format's own cost
    (``seconds``: per page and per part placed, a preview's raster growing with dpi squared, a TTS
    save per card and deck sheet). The constants are CPU times fitted to the bench's cases
    (docs/performance.md: every case's estimate is within 2x of its measured time); the preview,
    cutter and TTS ones are wall-clock times on a shared two-core machine, so they err high."""
    total = SECONDS_FIXED + SECONDS_PER_FACE * sum(len(c.fronts) for c in components)
    return total + sum(f.seconds(pages, components, settings) for f in formats)


def fit_seconds(fit_chars: float) -> float:
    """Roughly how long (s) laying out ``fit_chars`` characters to fit texts takes (Game.fit_work)."""
    return fit_chars * SECONDS_PER_FIT_CHAR


def check_fit_work(fit_chars: float, file: str | Path | None = None) -> float:
    """fit_seconds(fit_chars), refused above MAX_SECONDS before any text is fitted.

    Raises:
        LayoutError: naming the spec file and the characters to lay out.
    """
    seconds = fit_seconds(fit_chars)
    if seconds > MAX_SECONDS:
        raise LayoutError(f"fitting the kit's texts would lay out about {fit_chars:,.0f} characters, about "
                          f"{duration(seconds)} (the limit is {duration(MAX_SECONDS)}).", file=file, field="text",
                          hint="start shrink-to-fit texts nearer their fitting size (a smaller size:), or "
                               "shorten the texts or rows")
    return seconds


def estimate(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions = ImposeOptions(),
             cover_pages: int = 2, file: str | Path | None = None, formats: Sequence[FormatCost] = (),
             settings: Any = None, fit_chars: float = 0.0) -> Budget:
    """Pages, rough output size and rough build time of a kit in ``formats`` (with ``settings``;
    ``fit_chars`` characters laid out to fit texts, counted before the parts were drawn), without
    imposing a page. ``opts`` are the effective options (see
    pnp.layout.impose.effective_options).

    Raises:
        LayoutError: a part does not fit the sheet (naming the spec field that sizes it, see
            pnp.layout.partfit), or a board would be cut into more
            than MAX_POSTER_COLUMNS columns or MAX_POSTER_PIECES pieces (named in the message).
    """
    check_parts_fit(components, sheet, opts.bleed, file)
    sides = 2 if opts.duplex != "none" else 1
    parts = []
    if opts.duplex == "fold":  # fold-over backs are printed one-sided (pnp/layout/fold.py)
        sides = 1
    for comp in components:
        if comp.board:
            cols, rows = piece_grid(comp, sheet, opts.overlap)
            _check_poster(comp, sheet, cols, rows, file)
            shapes = cols * rows * round(_mean_face(comp))
            pages = cols * rows * sides
        else:
            per = grid_for(comp, sheet, opts.bleed).per_page
            if opts.duplex == "fold" and folds(comp):  # front and back side by side (pnp/layout/fold.py)
                per = max(capacity(comp, sheet, opts, axis) for axis in ("x", "y")) or per
            face = _mean_face(comp) + (shape_count(comp.back) if comp.back is not None and opts.duplex != "none" else 0)
            shapes = round(comp.count * face)
            pages = math.ceil(comp.count / per) * sides
        parts.append(ComponentBudget(comp.name, pages, shapes + pages * PAGE_FURNITURE))
    pages = cover_pages * sides + sum(p.pages for p in parts)
    size = pages * PAGE_BYTES + sum(p.shapes for p in parts) * SHAPE_BYTES
    pixels = raster_pixels(formats, sheet, settings)[0]
    return Budget(pages, size, tuple(parts),
                  estimate_seconds(pages, components, formats, settings) + fit_seconds(fit_chars), pixels)


def check_budget(components: Sequence[Component], sheet: Sheet, opts: ImposeOptions = ImposeOptions(),
                 cover_pages: int = 2, file: str | Path | None = None, formats: Sequence[FormatCost] = (),
                 settings: Any = None, fit_chars: float = 0.0) -> Budget:
    """estimate(), refused above MAX_PAGES pages, MAX_OUTPUT_BYTES estimated bytes, MAX_SECONDS
    estimated seconds or MAX_RASTER_PIXELS in one rendered image (raster_pixels). The Budget returned says how many pages and roughly how long
    (``budget.describe()``), for the caller to tell the user before the work starts.

    Call it after the game's components() and before the cover and impose(); ``cover_pages`` is the
    cover's page count if known (a KitCover has 1 or 2); ``file`` (the spec) is named in the error.

    Raises:
        LayoutError: naming the spec file, the largest component (field) and the kit's numbers; see
            estimate().
    """
    budget = estimate(components, sheet, opts, cover_pages, file, formats, settings, fit_chars)
    pixels, option, at = raster_pixels(formats, sheet, settings)
    if pixels > MAX_RASTER_PIXELS:
        fit = max(1, int(at * math.sqrt(MAX_RASTER_PIXELS / pixels)))
        raise LayoutError(f"{option} on {sheet.name} ({sheet.width:,.0f} x {sheet.height:,.0f} mm): a page at {at:g} "
                          f"dpi would be {pixels / 1e6:,.0f} megapixels (limit {MAX_RASTER_PIXELS / 1e6:.0f}).",
                          file=file, field="--dpi", hint=f"use at most --dpi {fit} for this paper, or smaller paper")
    if not budget.components:
        return budget
    big = max(budget.components, key=lambda p: (p.pages, p.shapes))
    comp = next(c for c in components if c.name == big.name)
    share = ", ".join(f"{p.name} {p.pages:,}" for p in sorted(budget.components, key=lambda p: -p.pages)[:3])
    if budget.pages > MAX_PAGES:
        what = (f"cut into {big.pages:,} pages" if comp.board else
                f"{comp.count:,} parts ({len(comp.fronts):,} faces x {comp.copies:,} copies) take {big.pages:,} pages")
        raise LayoutError(f"the kit would have {budget.pages:,} pages on {sheet.name} (limit {MAX_PAGES:,}): "
                          f"{comp.name!r}: {what}; pages by component: {share}.", file=file, field=comp.name,
                          hint="check the spec's counts (copies, tiles, stones, words): a real kit is a few "
                               "dozen pages")
    if budget.bytes > MAX_OUTPUT_BYTES:
        raise LayoutError(f"the kit would write about {_size(budget.bytes)} of PDF and SVG on {sheet.name} (limit "
                          f"{_size(MAX_OUTPUT_BYTES)}): {comp.name!r} draws about {big.shapes:,} shapes on "
                          f"{big.pages:,} pages.", file=file, field=comp.name,
                          hint="make the part simpler or fewer, or use larger paper so a board is cut into "
                               "fewer pieces")
    if budget.seconds > MAX_SECONDS:
        slow = ", ".join(f.name for f in formats)
        raise LayoutError(f"the kit would take about {duration(budget.seconds)} to write as {slow} on {sheet.name} "
                          f"({budget.pages:,} pages; the limit is {duration(MAX_SECONDS)}): {comp.name!r} has "
                          f"{comp.count:,} parts.", file=file, field=comp.name,
                          hint="build fewer parts (a shorter word list), fewer or lighter formats (pdf is the "
                               "quickest; tts and cut-svg the slowest), or a lower --dpi for previews")
    return budget


def _check_poster(comp: Component, sheet: Sheet, cols: int, rows: int, file: str | Path | None) -> None:
    if cols <= MAX_POSTER_COLUMNS and cols * rows <= MAX_POSTER_PIECES:
        return
    limit = (f"poster pieces are named by a column letter A..Z, so at most {MAX_POSTER_COLUMNS} columns"
             if cols > MAX_POSTER_COLUMNS else f"at most {MAX_POSTER_PIECES} pieces")
    raise LayoutError(f"board {comp.name!r} ({comp.width:,.0f} x {comp.height:,.0f} mm) would be cut into {cols:,} "
                      f"columns x {rows:,} rows = {cols * rows:,} pieces on {sheet.name}; {limit}.", file=file,
                      field=comp.name,
                      hint="make the board smaller in the spec, or use larger paper (--paper a3)")


MAX_PREFLIGHT_PAGES = 1_000  # pages `pnp validate --preflight` renders at PREFLIGHT_DPI (about 1 s each)
PREFLIGHT_DPI = 300


def check_preflight(pages: int, sheet: Sheet, file: str | Path | None = None) -> None:
    """Refuse a preflight of more than MAX_PREFLIGHT_PAGES pages, or of pages over MAX_RASTER_PIXELS at
    PREFLIGHT_DPI, before anything is drawn.

    Raises:
        LayoutError: naming the spec ``file``, the pages or the paper, and the limit.
    """
    if pages > MAX_PREFLIGHT_PAGES:
        raise LayoutError(f"the kit has {pages:,} pages on {sheet.name}; a preflight renders at most "
                          f"{MAX_PREFLIGHT_PAGES:,} (each at {PREFLIGHT_DPI} dpi).", file=file, field="--preflight",
                          hint="preflight a smaller kit (fewer copies or words), or check it without --preflight")
    pixels = (sheet.width / 25.4 * PREFLIGHT_DPI) * (sheet.height / 25.4 * PREFLIGHT_DPI)
    if pixels > MAX_RASTER_PIXELS:
        raise LayoutError(f"a {sheet.width:,.0f} x {sheet.height:,.0f} mm page at {PREFLIGHT_DPI} dpi would be "
                          f"{pixels / 1e6:,.0f} megapixels (limit {MAX_RASTER_PIXELS / 1e6:.0f}).", file=file,
                          field="--paper", hint="preflight on a smaller paper (a4, letter or a3)")
