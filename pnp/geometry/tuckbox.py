"""The net of a reverse-tuck-end box for a deck of cards, as pure geometry in millimetres (y down).

A box of inside width W, depth D and height H (``Inside``) unfolds into a row of four panels,
``front`` (W) | ``side`` (D) | ``back`` (W) | ``side`` (D), each H tall, with a glue tab (TAB wide,
its ends cut at 45 degrees) on the left of the front, glued under the last side. The top lid (D tall)
hangs above the back panel and ends in a tuck flap (``tuck_height``, chamfered corners) that slides
into the front, whose top edge has a half-round thumb cut; the bottom lid and its tuck flap hang
below the front, tucking into the back (a "reverse tuck end"). Each side panel carries a dust flap
at both ends (``dust_height``, tapered so it clears the lids' folds). Panels are exactly the inside
size: a fold in card of 0.3 mm takes no more than the clearance a deck is given.

``net(inside)`` is the whole net; ``halves(inside)`` the same box in two pieces, front | side with a
joining tab (JOIN_TAB wide) on the right of the first side, and back | side: glue the joining tab
under the back panel's left edge, then the glue tab as usual. Every ``Net`` holds its cut
``outline`` (a closed polygon, no collinear vertices), its score lines ``folds`` (x1, y1, x2, y2),
its ``panels`` by name as (x, y, w, h) rectangles and its ``tabs`` (glue areas, (x, y, w, h)), all
from the net's top-left corner (the bounding box of the outline), ``width`` x ``height``.

Sources: the construction is the common straight/reverse tuck end carton (ECMA code A20, "reverse
tuck end", in the ECMA Code of Folding Carton Styles); tab widths and the thumb cut follow the
print-and-play tuck box templates published for card games (a 7-10 mm glue tab, a thumb cut about
a fifth of the panel's width).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

TAB = 8.0          # mm: glue tab width, its ends cut at 45 degrees
JOIN_TAB = 8.0     # mm: the tab that joins the two halves of a split net
ARC_SEGMENTS = 16  # straight segments of the thumb cut's half circle
LID_GAP = 0.0      # mm: the tuck flap is as wide as its lid


@dataclass(frozen=True, eq=False)
class Inside:
    """The inside of a box, mm: ``width`` (W, across the cards' face), ``depth`` (D, the stack) and
    ``height`` (H, along the cards' long side)."""
    width: float
    depth: float
    height: float

    def as_list(self) -> list[float]:
        """[W, D, H] rounded to 0.01 mm, as the manifest lists it (``inner_mm``)."""
        return [round(self.width, 2), round(self.depth, 2), round(self.height, 2)]


def tuck_height(inside: Inside) -> float:
    """The tuck flap's height, mm: three quarters of the depth, at least 10 and at most 18 mm, and
    never more than half the box's height."""
    return min(max(0.75 * inside.depth, 10.0), 18.0, inside.height / 2)


def dust_height(inside: Inside) -> float:
    """A dust flap's height, mm: the depth, at most half the width less 1 mm (two flaps meet
    inside the opening without overlapping)."""
    return max(min(inside.depth, inside.width / 2 - 1.0), 1.0)


def thumb_radius(inside: Inside) -> float:
    """The thumb cut's radius, mm: a fifth of the width, at most 10 mm and a quarter of the height."""
    return min(inside.width / 5, 10.0, inside.height / 4)


@dataclass(frozen=True, eq=False)
class Column:
    """One vertical strip of a net: ``kind`` "front", "side", "back" or "tab" (glue tab at ``end``
    "left" or "right" of the row), its ``width`` and what hangs above (``top``) and below
    (``bottom``) it: "lid" (lid and tuck flap), "dust" (dust flap), "thumb" (a cut edge with the
    thumb cut) or "" (a plain cut edge)."""
    kind: str
    width: float
    top: str = ""
    bottom: str = ""
    end: str = ""
    name: str = ""


@dataclass(frozen=True, eq=False)
class Net:
    """A flat net (see the module docstring), every length mm from the outline's top-left corner."""
    width: float
    height: float
    outline: tuple[tuple[float, float], ...]
    folds: tuple[tuple[float, float, float, float], ...]
    panels: dict[str, tuple[float, float, float, float]]
    tabs: dict[str, tuple[float, float, float, float]]
    inside: Inside
    piece: str = ""


def columns(inside: Inside) -> list[Column]:
    """The whole net's columns, left to right."""
    w, d = inside.width, inside.depth
    return [Column("tab", TAB, end="left", name="glue tab"),
            Column("front", w, top="thumb", bottom="lid", name="front"),
            Column("side", d, top="dust", bottom="dust", name="left side"),
            Column("back", w, top="lid", name="back"),
            Column("side", d, top="dust", bottom="dust", name="right side")]


def net(inside: Inside) -> Net:
    """The whole net of a box with this inside."""
    return _build(columns(inside), inside)


def halves(inside: Inside) -> tuple[Net, Net]:
    """The net in two pieces that glue (module docstring): ``piece`` "1 of 2" and "2 of 2"."""
    cols = columns(inside)
    first = cols[:3] + [Column("tab", JOIN_TAB, end="right", name="joining tab")]
    return _build(first, inside, "1 of 2"), _build(cols[3:], inside, "2 of 2")


def _build(cols: list[Column], inside: Inside, piece: str = "") -> Net:
    d, h = inside.depth, inside.height
    tuck, dust, r = tuck_height(inside), dust_height(inside), thumb_radius(inside)
    lid = d + tuck
    top_reach = max((lid if c.top == "lid" else dust if c.top == "dust" else 0.0) for c in cols)
    bottom_reach = max((lid if c.bottom == "lid" else dust if c.bottom == "dust" else 0.0) for c in cols)
    y2, y3 = top_reach, top_reach + h  # the main row's top and bottom
    top: list[tuple[float, float]] = []
    bottom: list[tuple[float, float]] = []
    folds: list[tuple[float, float, float, float]] = []
    panels: dict[str, tuple[float, float, float, float]] = {}
    tabs: dict[str, tuple[float, float, float, float]] = {}
    x = 0.0
    for i, col in enumerate(cols):
        xl, xr = x, x + col.width
        if col.kind == "tab":
            cut = min(col.width, h / 4)  # the 45 degree ends
            outer = xl if col.end == "left" else xr
            top.append((outer, y2 + cut))
            bottom.append((outer, y3 - cut))
            tabs[col.name] = (xl, y2, col.width, h)
        else:
            panels[col.name] = (xl, y2, col.width, h)
            top += _edge(col.top, xl, xr, y2, -1, d, tuck, dust, r)
            bottom += _edge(col.bottom, xl, xr, y3, 1, d, tuck, dust, r)
            for edge, y, sign in ((col.top, y2, -1), (col.bottom, y3, 1)):
                if edge in ("lid", "dust"):
                    folds.append((xl, y, xr, y))
                    reach = d if edge == "lid" else dust
                    where = "top" if sign < 0 else "bottom"
                    name = f"{where} {'lid' if edge == 'lid' else 'dust flap'} ({col.name})"
                    panels[name] = (xl, min(y, y + sign * reach), col.width, reach)
                if edge == "lid":
                    folds.append((xl, y + sign * d, xr, y + sign * d))
                    flap = (xl, min(y + sign * d, y + sign * (d + tuck)), col.width, tuck)
                    panels[f"{'top' if sign < 0 else 'bottom'} tuck flap ({col.name})"] = flap
        if i > 0:
            folds.append((xl, y2, xl, y3))
        x = xr
    outline = _clean(top + bottom[::-1])
    panels = {k: tuple(round(v, 6) for v in box) for k, box in panels.items()}
    return Net(x, y3 + bottom_reach, outline, tuple(folds), panels, tabs, inside, piece)


def _edge(kind: str, xl: float, xr: float, y: float, sign: int, d: float, tuck: float, dust: float,
          r: float) -> list[tuple[float, float]]:
    """The outline along one end of a panel, left to right; ``sign`` -1 above the row, 1 below."""
    if kind == "lid":
        c = min(tuck / 2, 5.0, (xr - xl) / 4)  # chamfered corners of the tuck flap
        far = y + sign * (d + tuck)
        return [(xl, y), (xl, far - sign * c), (xl + c, far), (xr - c, far), (xr, far - sign * c), (xr, y)]
    if kind == "dust":
        k = min(dust / 3, (xr - xl) / 4)
        far = y + sign * dust
        return [(xl, y), (xl + k, far), (xr - k, far), (xr, y)]
    if kind == "thumb":
        cx = (xl + xr) / 2
        arc = [(cx - r * math.cos(math.pi * j / ARC_SEGMENTS), y - sign * r * math.sin(math.pi * j / ARC_SEGMENTS))
               for j in range(ARC_SEGMENTS + 1)]
        return [(xl, y), *arc, (xr, y)]
    return [(xl, y), (xr, y)]


def _clean(points: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """The polygon without repeated and collinear vertices, rounded to 1 micrometre."""
    pts = [(round(x, 6) + 0.0, round(y, 6) + 0.0) for x, y in points]
    out: list[tuple[float, float]] = []
    for p in pts:
        if not out or p != out[-1]:
            out.append(p)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    changed = True
    while changed and len(out) > 3:
        changed = False
        for i in range(len(out)):
            a, b, c = out[i - 1], out[i], out[(i + 1) % len(out)]
            if abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-9:
                out.pop(i)
                changed = True
                break
    return tuple(out)
