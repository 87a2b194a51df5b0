"""A component's tuck box (``box: tuck``): its inside from the deck, its net drawn as a part.

The inside holds the component's cards with a clearance of BOX_CLEARANCE: width and height are the
card's (or its sleeve's, ``sleeves:``) plus 1 mm, the depth is the number of cards times one card's
thickness (``thickness:``, else the card stock's CARD_THICKNESS, plus the sleeve's own when sleeved)
plus 1 mm. The net (pnp.geometry.tuckbox) is one part whose cut line is its outline (shape
"polygon") and whose score lines are its folds; its drawing shows the deck's back (or the
``box_template:``) on the front and back panels, the kit's title along the sides, the cut line and
the fold lines dashed. When the net does not fit the build's paper (KitContext.paper) it is made
in two pieces that glue with a joining tab; when neither fits, the build is refused naming the
paper the box needs.
"""
from __future__ import annotations

from ..core.errors import SpecError
from ..text.wrapping import wrap
from ..core.ir import BLACK, Component, Drawing, Group, Line, Polygon, Rect, Text
from ..core.units import MM_PER_PT, fmt_mm
from ..core.words import Words, english, words
from ..engine import KitContext
from ..geometry.tuckbox import Inside, Net, halves, net
from ..inputs.textcheck import line_width_mm
from .spec import CARD_THICKNESS, ComponentSpec

BOX_CLEARANCE = 1.0        # mm added to the deck's width, height and depth
FOLD_INK, CUT_INK, BOX_PAPER = "#6b6b6b", BLACK, "#f1ede4"
FOLD_DASH = (2.0, 1.5)     # mm on, mm off: the dashed fold lines printed on the net
FOLD_WIDTH, CUT_WIDTH = 0.2, 0.25
SPINE_PT = (4.0, 11.0)     # smallest and largest size of the title along a side panel


def inside_of(comp: ComponentSpec, cards: int) -> Inside:
    """The inside of the box holding ``cards`` of ``comp`` (see the module docstring)."""
    w, h = comp.size
    per_card = comp.thickness if comp.thickness is not None else CARD_THICKNESS
    if comp.sleeves is not None:
        w, h, film = comp.sleeves
        per_card += film
    return Inside(w + BOX_CLEARANCE, cards * per_card + BOX_CLEARANCE, h + BOX_CLEARANCE)


def box_parts(comp: ComponentSpec, cards: int, art: Drawing | None, art_size: tuple[float, float], title: str,
              ctx: KitContext, where: tuple) -> list[Component]:
    """The tuck box of ``cards`` cards of ``comp``: one Component (the whole net) or two (its halves)
    when the whole does not fit ``ctx.paper``. ``art`` is drawn on the front and back panels, scaled
    from ``art_size`` (mm) to cover them (None: no art); ``title`` runs along the sides. ``where``:
    (spec file, line, field) of the component's ``box:``, for the message. The box's name, note and
    printed words are pnp's in the kit's language (pnp.core.words, ``ctx.language``).

    Raises:
        SpecError: neither the net nor its halves fit the build's paper (naming the paper it needs).
    """
    inside = inside_of(comp, cards)
    whole = net(inside)
    nets = [whole]
    paper = ctx.paper
    if paper is not None and paper.fits(*comp.size) and not paper.fits(whole.width, whole.height):  # a card that
        # does not fit is refused as such (pnp.layout.partfit), before its box
        nets = list(halves(inside))
        if not all(paper.fits(n.width, n.height) for n in nets):
            need_w, need_h = max(n.width for n in nets), max(n.height for n in nets)
            needed = paper.needed(need_w, need_h)
            file, line, field = where
            raise SpecError(f"the tuck box of {comp.name!r} (inside {_size(inside)} mm) does not fit {paper.name}: "
                            f"its net is {fmt_mm(whole.width)} x {fmt_mm(whole.height)}, and each of its two halves "
                            f"up to {fmt_mm(need_w)} x {fmt_mm(need_h)}, where parts may take "
                            f"{fmt_mm(paper.width)} x {fmt_mm(paper.height)}.", file=file, line=line, field=field,
                            hint=(f"build with --paper {needed}" if needed else "no shipped paper holds it")
                            + ", or remove box: (or fewer cards, thinner ones, smaller sleeves)")
    _ = words(ctx.language)
    note = _("inside {size} mm").format(size=_size(inside))
    out = []
    for n in nets:
        piece = _(n.piece) if n.piece else ""  # "1 of 2"
        name = _("{name} box").format(name=comp.name) + (f" ({piece})" if piece else "")
        drawing = draw_net(n, art, art_size, title, _)
        out.append(Component(name, n.width, n.height, [drawing], 1, None, "polygon", note=note
                             + (_(", piece {piece}").format(piece=piece) if piece else ""),
                             outline=n.outline, folds=n.folds, inner=(inside.width, inside.depth, inside.height)))
    return out


def _size(inside: Inside) -> str:
    return f"{inside.width:g} x {inside.depth:g} x {inside.height:g}"


def draw_net(n: Net, art: Drawing | None, art_size: tuple[float, float], title: str,
             _: Words = english) -> Drawing:
    """The printed net: paper tone over the net's box with ``bleed`` (the part is clipped to its
    outline grown by the kit's bleed, pnp.layout.impose, so the tone fills the outline and its bleed),
    ``art`` on the front and back panels, the title along the sides, a label on each glue tab, how to
    make it on the bottom lid, the fold lines dashed and the cut line (pnp's words in ``_``)."""
    items: list = [Rect(0, 0, n.width, n.height, fill=BOX_PAPER, stroke=None, bleed=True)]
    for name in ("front", "back"):
        if name in n.panels and art is not None:
            items.append(_cover(art, art_size, n.panels[name]))
    for name in ("left side", "right side"):
        if name in n.panels:
            items += _spine(title, n.panels[name])
    for name, (x, y, w, h) in n.tabs.items():
        label = _("glue") if name == "glue tab" else _("glue under the back")
        if line_width_mm(label, 6.0) <= h - 2 * w:
            items.append(Text(x + w / 2, y + h / 2, label, size_pt=6.0, anchor="middle", valign="middle",
                              fill=FOLD_INK, rotate=90))
    items += _steps(n, _)
    if n.piece:
        x, y, w, h = n.panels["left side" if "left side" in n.panels else "right side"]
        items.append(Text(x + w / 2, y + h - 3, _("box {piece}").format(piece=_(n.piece)), size_pt=6.0,
                          anchor="middle", fill=FOLD_INK))
    items += [Line(*f, stroke=FOLD_INK, stroke_width=FOLD_WIDTH, dash=FOLD_DASH) for f in n.folds]
    items.append(Polygon(n.outline, fill=None, stroke=CUT_INK, stroke_width=CUT_WIDTH))
    return tuple(items)


STEPS = ("1 Cut the solid line. 2 Fold every dashed line away from the print. 3 Glue the tab under the last "
         "side{piece}. 4 Fold the dust flaps in and tuck the lids in.")
STEPS_PT = 6.0  # the smallest size preflight passes (pnp.preflight.sizes.MIN_TEXT_PT)


def _steps(n: Net, _: Words = english) -> list:
    """How to make the box, printed small on its bottom lid when it has room there (in the words ``_``)."""
    lid = next((box for name, box in n.panels.items() if name.startswith("bottom lid")), None)
    if lid is None:
        return []
    x, y, w, h = lid
    text = _(STEPS).format(piece=_(" (first, piece 1's end tab under piece 2's back)") if n.piece else "")
    lines = wrap(text, STEPS_PT, w - 4.0)
    lead = STEPS_PT * MM_PER_PT * 1.25
    if len(lines) * lead > h - 2.0:
        return []
    top = y + (h - len(lines) * lead) / 2 + STEPS_PT * MM_PER_PT * 0.85
    return [Text(x + 2.0, top + i * lead, line, size_pt=STEPS_PT, fill=FOLD_INK) for i, line in enumerate(lines)]


def _cover(art: Drawing, size: tuple[float, float], panel: tuple[float, float, float, float]) -> Group:
    """``art`` (``size`` mm) scaled to cover ``panel`` (x, y, w, h), centred, clipped to the panel."""
    x, y, w, h = panel
    aw, ah = size
    s = max(w / aw, h / ah)
    ox, oy = (w - aw * s) / 2, (h - ah * s) / 2
    return Group(tuple(art), dx=x + ox, dy=y + oy, sx=s, sy=s, clip=(-ox / s, -oy / s, w / s, h / s))


def _spine(title: str, panel: tuple[float, float, float, float]) -> list:
    """The title along a side panel, read from bottom to top, as large as the panel allows."""
    x, y, w, h = panel
    size = min(SPINE_PT[1], 0.55 * w / MM_PER_PT)
    while size >= SPINE_PT[0] and line_width_mm(title, size, True) > h - 8.0:
        size -= 0.5
    if size < SPINE_PT[0]:
        return []
    return [Text(x + w / 2, y + h / 2, title, size_pt=size, anchor="middle", valign="middle", bold=True,
                 rotate=270)]
