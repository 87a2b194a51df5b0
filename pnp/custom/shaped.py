"""Shaped and folded parts of a data-driven game: hex and polygon outlines, d6 nets and standees.

A ``hex`` or ``polygon`` part is a Component of shape "polygon" with its cut ``outline``; a ``d6`` or
``standee`` is a net (pnp.geometry.dicenet, pnp.geometry.standee) whose faces the templates draw at
the face's size (a d6's edge; a standee's figure), placed in the net with dashed fold lines a
person sees and the net's ``folds`` for a cutter's score layer. Lengths in mm, y down.
"""
from __future__ import annotations

from dataclasses import replace

from ..core.ir import Component, Drawing, Group, Line, Polygon, Rect
from ..core.outline import Outline
from ..geometry.dicenet import TAB_SIDES, D6Net
from ..geometry.shapes import hex_outline
from ..geometry.standee import StandeeNet
from .spec import CARD_THICKNESS, ComponentSpec
from .table import Row, Table, key

FACE_COLUMN = "face"  # the placeholder a d6 template reads when faces: names six columns
FOLD_COLOUR = "#777777"
FOLD_WIDTH = 0.2      # mm
FOLD_DASH = (2.0, 1.5)  # mm on, mm off: the fold lines a person sees on the print
TAB_FILL = "#e6e6e6"  # glue tabs and a standee's stands and base: a light grey that says "not art"


def outline_of(comp: ComponentSpec) -> Outline:
    """The cut outline of a hex or polygon component, mm from its top-left corner; () for other shapes."""
    w, h = comp.size
    if comp.shape == "hex":
        return hex_outline(w, h)
    if comp.shape == "polygon":
        return tuple((float(x), float(y)) for x, y in comp.points)
    return ()


def fold_lines(folds) -> Drawing:
    """The dashed fold lines printed on a net."""
    return tuple(Line(x1, y1, x2, y2, stroke=FOLD_COLOUR, stroke_width=FOLD_WIDTH, dash=FOLD_DASH)
                 for x1, y1, x2, y2 in folds)


def expand_faces(table: Table, faces: tuple[str, ...]) -> Table:
    """A d6 table whose faces are six columns of each row, as six rows per die: each the row's
    cells plus ``face``, the cell of the k-th column (its row number kept, so errors name it)."""
    cols = [key(c) for c in faces]
    rows = [Row(row.number, {**row.values, FACE_COLUMN: row.values.get(c, "")}) for row in table.rows for c in cols]
    return replace(table, rows=rows, position={**table.position, FACE_COLUMN: table.position[cols[0]]})


def d6_drawing(net: D6Net, faces: list[Drawing]) -> Drawing:
    """A die's net: grey glue tabs, the six faces (face k's drawing, edge x edge mm, clipped to its
    square) and the dashed fold lines.

    With bleed (pnp.layout.bleed, given the net's outline) a face grows past its sides on the cut,
    a tab past its outer edge and 45 degree ends, neither past a fold; where a face's side meets the
    end of a tab in a notch of the cross, the face's bleed covers that corner of the tab, which is
    glued out of sight."""
    e = net.edge
    out: list = [Polygon(net.tab_points(f, s), fill=TAB_FILL, stroke=None) for f, s in TAB_SIDES]
    for number, face in enumerate(faces, start=1):
        x, y = net.face_origin(number)
        out.append(Group(tuple(face), dx=x, dy=y, clip=(0.0, 0.0, e, e)))
    return tuple(out) + fold_lines(net.folds)


def d6_component(name: str, comp: ComponentSpec, dice: list[list[Drawing]], copies: list[int], note: str,
                 titles: tuple[str, ...], sources: tuple) -> Component:
    """One Component of shape "polygon" for the dice of a d6 component: one front per die (its net)."""
    net = D6Net(comp.size[0])
    fronts: list = []
    for faces, n in zip(dice, copies):
        fronts.extend([d6_drawing(net, faces)] * n)
    note = note or f"a d6 net: folds to a {net.edge:g} mm cube"
    return Component(name, net.width, net.height, fronts, 1, None, "polygon", note=note, titles=titles,
                     sources=sources, outline=net.outline, folds=net.folds)


def standee_drawing(net: StandeeNet, front: Drawing, back: Drawing | None) -> Drawing:
    """A standee's strip: grey stands, the back panel turned 180 degrees (``back``, else the front
    mirrored: the figure seen from behind), the front panel upright, the dashed fold at its head.
    With bleed the stands grow past the strip's ends and sides, and each panel past its two long
    sides (pnp.layout.bleed), not past the fold or the seam with its stand."""
    w, h, s = net.width, net.height, net.stand
    behind = tuple(back) if back is not None else (Group(tuple(front), dx=w, sx=-1.0),)
    return (Rect(0.0, 0.0, w, s, fill=TAB_FILL, stroke=None, bleed=True),
            Rect(0.0, s + 2 * h, w, s, fill=TAB_FILL, stroke=None, bleed=True),
            Group(behind, dx=w, dy=s + h, rotate=180.0, clip=(0.0, 0.0, w, h)),
            Group(tuple(front), dx=0.0, dy=s + h, clip=(0.0, 0.0, w, h))) + fold_lines((net.fold,))


def standee_components(comp: ComponentSpec, name: str, fronts: list[Drawing], titles: tuple[str, ...],
                       sources: tuple) -> list[Component]:
    """The strips (one front each) and as many slotted base fins, "<name> base"."""
    net = standee_net(comp)
    bw, bh = net.base_size
    note = comp.note or f"a standee: a {net.width:g} x {net.height:g} mm figure, folded, in its base"
    strips = Component(name, net.width, net.length, fronts, 1, None, "polygon", note=note, titles=titles,
                       sources=sources, outline=net.outline, folds=(net.fold,))
    base = Component(f"{name} base", bw, bh, [(Polygon(net.base_outline, fill=TAB_FILL, stroke=None),)],
                     len(fronts), None, "polygon", note=f"slotted base of {name}", outline=net.base_outline)
    return [strips, base]


def standee_net(comp: ComponentSpec) -> StandeeNet:
    """The net of a ``standee`` component: its figure's size, cut from card ``thickness:`` mm thick
    (default CARD_THICKNESS, the card stock's)."""
    return StandeeNet(*comp.size, comp.thickness if comp.thickness is not None else CARD_THICKNESS)


def safe_frame(comp: ComponentSpec) -> tuple[float, float, Outline]:
    """The frame a template's text boxes keep inside: (width, height, outline): a hex's or polygon's
    outline in its box, else the trim (a d6's face, a standee's figure) with no outline."""
    w, h = comp.size
    return (w, h, outline_of(comp))

