"""Imposition: parts and board pieces on sheets (pnp/layout/packing.py), with gutters, crop marks,
a footer and scale bar on every page, the cover first, and duplex backs mirrored per sheet, or
fold-over backs beside their fronts (pnp/layout/fold.py).

Sheets may hold parts of several components. Where each part goes is planned first (cheap: no
drawing); the pages themselves are drawn lazily (a generator), so a deck of any size is written as
a stream.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator, Sequence

from ..core.ir import Circle, Component, CutShape, Drawing, Group, Page, Placement, Polygon, Rect, Text
from ..core.outline import grow
from ..core.words import Words
from . import marks
from .bleed import extend_for_bleed
from .cover import BomCover, Cover
from .fold import FoldSheet
from .kitpacking import Packing, pack_kit
from .options import ImposeOptions
from .packing import BoardBlock, PartBlock, SheetPlan
from .paper import Sheet
from .tiling import Tiling, cut_rect, piece_items

CUT_GUIDE = "#9a9a9a"
CUT_GUIDE_WIDTH = 0.15  # mm: heavier than any decorative ring a round part draws near its edge


def effective_options(components: Sequence[Component], opts: ImposeOptions) -> ImposeOptions:
    """``opts`` with duplex turned off when no component has a back: such a kit must not ask the
    printer for two-sided printing (board pieces would land back to back)."""
    if opts.duplex != "none" and not any(c.back is not None for c in components):
        return replace(opts, duplex="none")
    return opts


def _sides(opts: ImposeOptions) -> int:
    """Pages per sheet of paper: 2 when printed two-sided (every front is followed by its back or a
    blank); 1 one-sided, fold-over backs included."""
    return 2 if opts.duplex in ("long", "short") else 1


@dataclass(frozen=True, eq=False)
class Imposition:
    """An imposed kit: ``total`` pages (cover included), the ``plan`` (per component, in kit order,
    the 1-based numbers of the pages it is printed on) and the ``pages`` themselves, a lazy iterator
    that draws each page when it is asked for (a deck of any size is written as a stream)."""
    total: int
    plan: list[tuple[int, ...]]
    pages: Iterator[Page]


def page_plan(packing: Packing, count: int, opts: ImposeOptions, front_pages: int = 1) -> list[tuple[int, ...]]:
    """Per component (``count`` of them), the 1-based numbers of the pages it is printed on (in
    duplex mode a sheet's back page too), after ``front_pages`` cover pages. Pages may be shared by
    components."""
    sides = _sides(opts)
    pages: list[list[int]] = [[] for _ in range(count)]
    for i, s in enumerate(packing.sheets):
        number = 1 + (front_pages + i) * sides
        for c in s.components():
            pages[c].extend(range(number, number + sides))
    return [tuple(p) for p in pages]


def impose(title: str, components: Sequence[Component], sheet: Sheet,
           opts: ImposeOptions = ImposeOptions(), cover: Cover | None = None, packing: Packing | None = None,
           proof: str | None = None) -> Imposition:
    """Impose a kit: its page count, its plan (per component the page numbers it is printed on, see
    page_plan) and its pages, drawn lazily. ``packing`` is the kit packed by the plan
    (pack_kit, made here when None). With duplex "fold" the parts with backs
    are printed one-sided, each back beside its front across a fold line (pnp/layout/fold.py).

    The ``cover`` pages come first (default: a bill-of-materials page); then every sheet. Each page
    has a footer "<title> — <components> — page i of n" and the 50 mm scale check. In duplex mode
    every page is followed by its back: the mirrored backs of the sheet's parts that have one, else
    a blank, so that fronts and backs always share a sheet of paper. ``opts`` are the effective
    options (see effective_options, applied once by pnp.pipeline.plan). ``proof``: a version stamped
    in every page's footer band (pnp.layout.proof.sheet_stamp; the parts are stamped by the caller).

    Raises:
        LayoutError: a component does not fit (checked before any page is made).
    """
    _ = opts.words
    cover = cover or BomCover(title)
    packing = packing or pack_kit(components, sheet, opts)
    sheets, tilings = packing.sheets, packing.tilings
    plan = page_plan(packing, len(components), opts, cover.count)
    sides = _sides(opts)
    total = (cover.count + len(sheets)) * sides

    def blank(number: int) -> Page:
        x, y, w, h = sheet.printable
        text = marks.footer_text(title, _("back of page {page}").format(page=number - 1), number, total, _)
        return Page(sheet.width, sheet.height, (Text(x + w / 2, y + h / 2, _("this side intentionally left blank"),
                                                     size_pt=9, anchor="middle", fill="#888888"),)
                    + marks.footer(sheet, text, _), _("blank"), side="back")

    def stamped(page: Page, paper: Sheet) -> Page:
        if proof is None:
            return page
        from .proof import sheet_stamp  # only a build with --proof
        return replace(page, items=page.items + (sheet_stamp(paper, proof, _),))

    def pages() -> Iterator[Page]:
        for page in _pages():
            yield stamped(*page)

    def _pages() -> Iterator[tuple[Page, Sheet]]:
        number = 1
        for page in cover.pages(components, plan, sheet, opts, total):
            yield page, sheet
            number += 1
            if sides == 2:
                yield blank(number), sheet
                number += 1
        for plan_ in sheets:
            paper = plan_.sheet or sheet  # the sheet with its footer placed (bottom or side)
            if isinstance(plan_, FoldSheet):
                front = _folded(plan_, components, paper, opts)
                names = _("{parts} (fronts and backs: fold)").format(parts=_names(plan_, components))
            else:
                front = _front(plan_, components, tilings, paper, opts)
                names = _names(plan_, components)
            yield _finish(front, paper, marks.footer_text(title, names, number, total, _), names, _), paper
            number += 1
            if sides == 2:
                back = _back(plan_, components, paper, opts)
                if back is None:
                    yield blank(number), sheet
                else:
                    with_backs = ", ".join(dict.fromkeys(p.name for p in back.placements))
                    yield _finish(back, paper, marks.footer_text(title, _("{parts} (backs)").format(parts=with_backs),
                                                                 number, total, _), with_backs, _), paper
                number += 1

    return Imposition(total, plan, pages())


def _names(plan: SheetPlan, components: Sequence[Component]) -> str:
    return ", ".join(components[c].name for c in plan.components())


def _finish(page: Page, sheet: Sheet, footer: str, label: str, _: Words) -> Page:
    return replace(page, items=page.items + marks.footer(sheet, footer, _), label=label)


def _union(boxes: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float] | None:
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return (x0, y0, max(b[0] + b[2] for b in boxes) - x0, max(b[1] + b[3] for b in boxes) - y0)


def _grow(box, b: float):
    return (box[0] - b, box[1] - b, box[2] + 2 * b, box[3] + 2 * b)


def _front(plan: SheetPlan, components: Sequence[Component], tilings: dict[int, Tiling], sheet: Sheet,
           opts: ImposeOptions) -> Page:
    """The front page of one sheet: every block's parts with their crop marks, and board pieces."""
    b = opts.bleed
    offset, _ = sheet.mark_reserve(b)
    cm = sheet.crop_marks
    items: list = []
    placements: list = []
    trims, bleeds = [], []
    cuts: dict[int, CutShape] = {}
    tile = None
    for block in plan.blocks:
        if isinstance(block, BoardBlock):
            comp = components[block.comp]
            tiling = tilings[block.comp]
            drawn, info = piece_items(tiling, block.col, block.row, block.x, block.y, sheet)
            items.extend(drawn)
            tile = info or tile
            kept = cut_rect(tiling, block.col, block.row, block.x, block.y)
            placements.append(Placement(comp.name, *kept))
            trims.append(kept)
            bleeds.append(block.trim)  # a strip cut off along a join line is the piece's bleed
            continue
        xs, ys = set(), set()
        guides: list = []
        shaped = False
        for (ci, k), x, y in block.slots():
            comp = components[ci]
            cut = cuts.get(ci)
            if cut is None:  # one CutShape a component a page (Component.cut_shape makes one each time)
                cut = cuts[ci] = comp.cut_shape
            face = comp.fronts[k // comp.copies] if len(comp.fronts) else ()
            key = f"{comp.name}\x1ffront {k // comp.copies}" if comp.copies > 1 else None  # keyed: drawn once
            outline = cut.points
            items.append(_place(extend_for_bleed(face, comp.width, comp.height, b, outline), x, y, comp, b, key,
                                cut_lines=opts.cut_lines and not b, outline=outline))
            placements.append(Placement(comp.name, x, y, comp.width, comp.height, cut, k // comp.copies))
            xs |= {x, x + block.w}
            ys |= {y, y + block.h}
            if outline:
                shaped = True
                if not b:  # with bleed nothing is drawn on a cut: the cutter SVG or the die has the outline
                    guides.append(cut_guide(outline, x, y))
        if shaped:  # a shaped part is cut along its outline, printed over every part's art (no crop marks)
            items.extend(guides)
        else:
            items.extend(marks.crop_marks(sorted(xs), sorted(ys), block.trim, offset, cm.length, cm.width))
        trims.append(block.trim)
        bleeds.append(_grow(block.trim, b))
    return Page(sheet.width, sheet.height, tuple(items), "", trim_box=_union(trims),
                bleed_box=_union(bleeds) if b > 0 else None, placements=tuple(placements), tile=tile)


def _folded(plan: FoldSheet, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> Page:
    """A fold-over sheet: every front with its back at the mirror place across the fold line, crop
    marks on each block's three outer sides, and the dashed fold line. Next to the fold, a front's
    art and its back's each run up to the line (FoldSheet.fold_clip), neither over it."""
    b = opts.bleed
    offset, _ = sheet.mark_reserve(b)
    cm = sheet.crop_marks
    backs: dict[tuple[int, bool], Drawing] = {}
    reach = plan.gap  # (at least the bleed: fold_gap); next to the fold, each side's art runs to the fold line (clipped there)
    items: list = []
    placements: list = []
    trims: list = []
    for block in plan.blocks:
        cuts = {False: (set(), set()), True: (set(), set())}  # front / back: cut xs, cut ys
        for (ci, k), x, y in block.slots():
            comp = components[ci]
            w, h = plan.size(ci, comp)
            laid = replace(comp, width=w, height=h)
            bx, by = plan.mirror(x, y, w, h)
            inner = plan.next_to_fold(bx, by, w, h)
            if (ci, inner) not in backs:
                backs[ci, inner] = plan.back_face(extend_for_bleed(comp.back, comp.width, comp.height,
                                                                   reach if inner else b), ci, comp)
            face = plan.front_face(extend_for_bleed(comp.fronts[k // comp.copies], comp.width, comp.height,
                                                    reach if inner else b), ci, comp)
            for back, (px, py), drawing in ((False, (x, y), face), (True, (bx, by), backs[ci, inner])):
                clip = plan.fold_clip(w, h, b, back) if inner else None
                items.append(_place(drawing, px, py, laid, b, clip=clip, cut_lines=opts.cut_lines and not b))
                placements.append(Placement(comp.name, px, py, w, h, comp.cut_shape,
                                            None if back else k // comp.copies))
                cuts[back][0].update((px, px + block.w))
                cuts[back][1].update((py, py + block.h))
        for back, trim in ((False, block.trim), (True, plan.mirror_rect(block.trim))):
            items.extend(marks.crop_marks(sorted(cuts[back][0]), sorted(cuts[back][1]), trim, offset, cm.length,
                                          cm.width, sides=plan.outer_sides(back)))
            trims.append(trim)
    cx, cy, cw, ch = sheet.content_area
    k = 1 if plan.axis == "x" else 0  # along the line
    busy = [(t[k] - b, t[k] + t[k + 2] + b) for t in trims]  # where art meets the line: no label there
    if plan.axis == "x":
        items.extend(marks.fold_line(plan.line, cy, plan.line, cy + ch, opts.words, busy))
    else:
        items.extend(marks.fold_line(cx, plan.line, cx + cw, plan.line, opts.words, busy))
    trim = _union(trims)
    return Page(sheet.width, sheet.height, tuple(items), "", trim_box=trim,
                bleed_box=_grow(trim, b) if b > 0 else None, placements=tuple(placements))


def _back(plan: SheetPlan, components: Sequence[Component], sheet: Sheet, opts: ImposeOptions) -> Page | None:
    """The back page of one sheet: the backs of its parts that have one, mirrored for the flip edge
    (columns for the long edge, rows for the short edge) and shifted by the back offset; None when
    no part on the sheet has a back."""
    dx, dy = opts.back_offset
    b = opts.bleed
    backs: dict[int, Drawing] = {}
    items, placements, trims = [], [], []
    for block in plan.blocks:
        if not isinstance(block, PartBlock):
            continue
        for (ci, _), x, y in block.slots():
            comp = components[ci]
            if comp.back is None:
                continue
            if ci not in backs:
                backs[ci] = extend_for_bleed(comp.back, comp.width, comp.height, b)
            if opts.duplex == "long":
                x = sheet.width - x - comp.width
            else:
                y = sheet.height - y - comp.height
            x, y = x + dx, y + dy
            cut = _mirrored(comp, opts.duplex)
            items.append(_place(backs[ci], x, y, comp, b, f"{comp.name}\x1fback", cut_lines=opts.cut_lines and not b,
                                outline=cut.points))
            placements.append(Placement(comp.name, x, y, comp.width, comp.height, cut))
            trims.append((x, y, comp.width, comp.height))
    if not items:
        return None
    trim = _union(trims)
    return Page(sheet.width, sheet.height, tuple(items), "", trim_box=trim,
                bleed_box=_grow(trim, b) if b > 0 else None, placements=tuple(placements), side="back")


def _mirrored(comp: Component, duplex: str) -> CutShape:
    """A part's cut shape as its back sees it: a polygon mirrored left to right for a long-edge flip,
    top to bottom for a short-edge flip."""
    cut = comp.cut_shape
    if not cut.points:
        return cut
    w, h = comp.width, comp.height
    flip = (lambda p: (w - p[0], p[1])) if duplex == "long" else (lambda p: (p[0], h - p[1]))
    return replace(cut, points=tuple(map(flip, cut.points)),
                   folds=tuple((*flip((a, b)), *flip((c, d))) for a, b, c, d in cut.folds))


def cut_guide(outline, x: float, y: float) -> Group:
    """The thin grey line along a shaped part's cut outline, at (x, y) on the page: its cut guide,
    printed instead of crop marks (a hexagon's or a net's slanted and notched edges have no straight
    run to mark), on a home print without bleed only: with bleed nothing is drawn on a cut."""
    return Group((Polygon(tuple(outline), fill=None, stroke=CUT_GUIDE, stroke_width=CUT_GUIDE_WIDTH),), dx=x, dy=y)


def _place(drawing: Drawing, x: float, y: float, comp: Component, bleed: float, key: str | None = None,
           clip: tuple[float, float, float, float] | None = None, cut_lines: bool = False, outline=()) -> Group:
    """The drawing at (x, y), clipped to trim + bleed (or to ``clip``, in the part's coordinates);
    with an ``outline`` (a shaped part's cut polygon, part coordinates), to that outline grown by the
    bleed (pnp.core.outline.grow): the art follows the cut.
    With ``cut_lines`` (``pnp build --cut-lines``, honoured without bleed only), round and rounded parts
    get a grey line at the trim, drawn last and heavier than any decorative ring near the edge; by default none: the crop
    marks outside the trim (at the part's bounding square) are the guides, and no line is printed
    over the artwork, where an off cut would show it. ``key``: the reuse key of a face that repeats
    in the kit (pnp.core.ir.Group)."""
    children = tuple(drawing)
    if cut_lines and comp.shape == "circle":
        children += (Circle(comp.width / 2, comp.height / 2, comp.width / 2, fill=None, stroke=CUT_GUIDE,
                            stroke_width=CUT_GUIDE_WIDTH),)
    elif cut_lines and comp.shape == "rounded":
        children += (Rect(0, 0, comp.width, comp.height, fill=None, stroke=CUT_GUIDE, stroke_width=CUT_GUIDE_WIDTH,
                          r=comp.radius),)
    if outline and clip is None:
        return Group(children, dx=x, dy=y, key=key, clip_path=grow(outline, bleed))
    clip = clip or (-bleed, -bleed, comp.width + 2 * bleed, comp.height + 2 * bleed)
    return Group(children, dx=x, dy=y, clip=clip, key=key)
