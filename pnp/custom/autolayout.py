"""A card front laid out from a table's column roles (pnp.custom.roles), sized from the data read.

`pnp new` calls ``front_layout(roles, cells, size)``: a template dict (the layers of front.yaml) for
a card ``size`` (w, h mm), or None when the data cannot fit that card with every text at MIN_PT or
more (the caller then tries a larger card). Top to bottom, inside a CONTENT_INSET mm margin (the
safe area is 3 mm):

- a category: a band across the top (bleed) in one colour per value (``when:`` layers, one per
  value, ready to become one template per value) with the value as its label;
- the key: small, at the top right (a long one, a slug, up to 0.6 of the line); the title: bold, up to
  TITLE_PT, at most two lines;
- pictures and web-address pictures: side by side in one box (a labelled placeholder while the file
  is missing: ``missing: placeholder``);
- short fields: label and value side by side, in two columns when every value fits half the width;
- flags: a chip with the column's name on the cards whose cell is a yes;
- long texts: the rest of the card, shared by what each needs, one size for all;
- colours: a band across the bottom edge (bleed), one segment per colour column.

Every text box is as tall as the tallest of its column's cells needs at the size chosen (measured
with the face's own metrics, pnp.core.fonts), and layers set ``fit: shrink`` with ``min_size:
MIN_PT`` so an edit that lengthens a cell still shrinks before it fails. Labels pnp writes (headers,
category values) set ``markup: false``; a data column is read as markup only when every cell of it
parses (Column.markup).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.fonts import BOLD_FACE, DEFAULT_FACE, face, text_width_mm
from ..text.wrapping import wrap
from ..core.units import MM_PER_PT
from .roles import YES, Column, Roles

MIN_PT = 6.0
TITLE_PT = 14.0
BODY_PT = 10.0
FIELD_PT = 8.0
LABEL_PT = 6.5
CONTENT_INSET = 4.0
BAND = 10.5  # the category band's height from the top edge, mm
COLOUR_BAND = 4.0  # the colour band's height at the bottom edge, mm
GAP = 1.2
LABEL_GAP = 0.8  # mm between a field's label and its value, however long the label
SPACING = 1.2  # line spacing (templates' default)
PALETTE = ("#1f4e79", "#9c4a00", "#2e6b1f", "#8b1a1a", "#5b3f8c", "#0f5560", "#6b5600", "#444444")
"""Category band colours: dark enough that white 9 pt bold text on them keeps a contrast of 4.5:1 or more."""
LABEL_COLOUR = "#555555"  # 7.5:1 on white
PLACEHOLDER = {"missing": "placeholder"}  # an image layer's field: a missing picture is drawn as a labelled box


def _r(x: float) -> float:
    return round(x, 2)


def _esc(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _ph(col: str) -> str:
    return "{" + col + "}"


@dataclass(frozen=True)
class Measure:
    """Heights of texts in boxes, in mm, with Noto Sans's metrics (pnp.core.fonts)."""

    def height(self, texts: list[str], size_pt: float, w: float, bold: bool = False,
               lines_most: int | None = None) -> float | None:
        """The height the tallest of ``texts`` needs wrapped at ``size_pt`` in a box ``w`` mm wide, or
        None when a word is wider than ``w`` or a text takes more than ``lines_most`` lines."""
        font = BOLD_FACE if bold else DEFAULT_FACE
        f = face(font)
        most = 0
        for text in set(texts):
            count = 0
            for para in text.split("\n"):
                got = wrap(para, size_pt, w, font) if para.strip() else [""]
                if any(text_width_mm(line, size_pt, font) > w + 1e-6 for line in got):
                    return None
                count += max(1, len(got))
            if lines_most is not None and count > lines_most:
                return None
            most = max(most, count)
        size = size_pt * MM_PER_PT
        return (f.ascent + f.descent) * size + (max(most, 1) - 1) * SPACING * size

    def width(self, texts: list[str], size_pt: float, bold: bool = False) -> float:
        """The widest of ``texts`` on one line, mm."""
        font = BOLD_FACE if bold else DEFAULT_FACE
        return max((text_width_mm(t, size_pt, font) for t in set(texts)), default=0.0)


def shown_text(value: str, markup: bool) -> str:
    """A cell as measured: with markup, ``\\n`` breaks the line and the ``*`` marks take no room."""
    if not markup:
        return value
    return value.replace("\\n", "\n").replace("**", "").replace("*", "")


def _sizes(top: float, low: float = MIN_PT):
    s = top
    while s >= low - 1e-9:
        yield s
        s -= 0.5


def _text(col: str, x, y, w, h, size, *, bold=False, markup=True, colour=None, align=None, valign=None,
          wrap_=True, static: str | None = None) -> dict:
    layer = {"type": "text", "text": _esc(static) if static is not None else _ph(col), "x": _r(x), "y": _r(y),
             "w": _r(w), "h": _r(h), "size": size, "min_size": MIN_PT, "fit": "shrink"}
    if wrap_:
        layer["wrap"] = True
    if bold:
        layer["bold"] = True
    if colour:
        layer["colour"] = colour
    if align:
        layer["align"] = align
    if valign:
        layer["valign"] = valign
    if not markup:
        layer["markup"] = False
    return layer


def front_layout(roles: Roles, cells: dict[str, list[str]], size: tuple[float, float],
                 measure: Measure = Measure()) -> dict | None:
    """The front template (``{"layers": [...]}``) for a card ``size`` (w, h mm) showing every column
    of ``roles`` but empty ones and copies (``cells`` by header), or None when the texts cannot all
    fit at MIN_PT or more."""
    W, H = size
    M = CONTENT_INSET
    CW = W - 2 * M
    vals = {c.header: [shown_text(v.strip(), c.markup) for v in cells[c.header] if v.strip()] for c in roles.columns}
    layers: list[dict] = [{"type": "rect", "fill": "#ffffff", "bleed": True}]
    cat, key, title = roles.one("category"), roles.one("key"), roles.one("title")
    y = M
    on_band = cat is not None
    if cat is not None:
        for i, value in enumerate(cat.values):
            layers.append({"type": "rect", "x": 0, "y": 0, "w": "100%", "h": BAND, "fill": PALETTE[i % len(PALETTE)],
                           "bleed": True, "when": {"column": cat.header, "equals": value}})
    key_w = 0.0
    if key is not None:
        key_w = measure.width(vals[key.header], 7.0) + 0.6
        if key_w > 0.4 * CW:  # a long key (a slug) takes up to 0.6 of the line, as wide as it is at MIN_PT
            key_w = max(0.4 * CW, min(0.6 * CW, measure.width(vals[key.header], MIN_PT) + 0.6))
        kh = measure.height(["0"], 7.0, key_w)
        layers.append(_text(key.header, W - M - key_w, M + (5.5 - kh) / 2 if on_band else M, key_w, kh + 0.2, 7.0,
                            markup=False, colour="#ffffff" if on_band else LABEL_COLOUR, align="right", wrap_=False))
    if cat is not None:
        lw = CW - (key_w + 1.0 if key_w else 0.0)
        layers.append(_text(cat.header, M, M, lw, 5.5, 9.0, bold=True, markup=False, colour="#ffffff",
                            valign="middle", wrap_=False))
        y = BAND + GAP + 0.5
    if title is not None:
        tw = CW - (key_w + 1.0 if key_w and not on_band else 0.0)
        got = next(((s, h) for s in _sizes(TITLE_PT, 8.0)
                    if (h := measure.height(vals[title.header], s, tw, bold=True, lines_most=2)) is not None), None)
        if got is None:
            got = next(((s, h) for s in _sizes(8.0) if (h := measure.height(vals[title.header], s, tw, True)) is not None),
                       None)
        if got is None:
            return None
        s, h = got
        layers.append(_text(title.header, M, y, tw, h + 0.3, s, bold=True, markup=title.markup))
        y += h + 0.3 + GAP
    elif key is not None and not on_band:
        y += measure.height(["0"], 7.0, key_w) + GAP
    pictures = roles.of("picture") + roles.of("url")
    colours = roles.of("colour")
    bottom = H - M - (COLOUR_BAND if colours else 0.0)
    if pictures:
        ph = max(14.0, 0.3 * H)
        pw = (CW - GAP * (len(pictures) - 1)) / len(pictures)
        for i, col in enumerate(pictures):
            layers.append({"type": "image", "src": _ph(col.header), "x": _r(M + i * (pw + GAP)), "y": _r(y),
                           "w": _r(pw), "h": _r(ph), **PLACEHOLDER})
        y += ph + GAP
    fields = roles.of("field")
    flags = roles.of("flag")
    bodies = roles.of("body")
    placed = _fields(fields, vals, M, y, CW, bottom - y, measure)
    if placed is None:
        return None
    more, y = placed
    layers += more
    got = _flags(flags, cells, M, y, CW, bottom)
    if got is None:
        return None
    chips, y = got
    layers += chips
    body = _bodies(bodies, vals, M, y, CW, bottom - y, measure)
    if body is None:
        return None
    layers += body
    if colours:
        seg = W / len(colours)
        for i, col in enumerate(colours):
            layers.append({"type": "rect", "x": _r(i * seg), "y": _r(H - COLOUR_BAND), "w": _r(seg),
                           "h": COLOUR_BAND, "fill": _ph(col.header), "bleed": True})
    layers.append({"type": "rect", "x": 2.5, "y": 2.5, "w": _r(W - 5), "h": _r(H - 5), "radius": 2,
                   "stroke": "#bbbbbb", "stroke_width": 0.25})
    return {"layers": layers}


def _fields(fields: list[Column], vals: dict, x: float, y: float, w: float, room: float,
            measure: Measure) -> tuple[list[dict], float] | None:
    """Label and value pairs from ``y`` down, two to a line when every value fits half the width."""
    if not fields:
        return [], y
    for s in _sizes(FIELD_PT):
        label_h = measure.height(["Ag"], LABEL_PT, w)
        for cols in (2, 1):
            if cols == 2 and len(fields) < 4:
                continue
            cw = (w - GAP * (cols - 1)) / cols
            lw = min(0.45 * cw, max(measure.width([f.header + ":"], LABEL_PT) for f in fields) + LABEL_GAP)
            vw = cw - lw  # the value from lw on; the label in the lw - LABEL_GAP before it
            heights = []
            for f in fields:
                hv = measure.height(vals[f.header], s, vw, lines_most=1 if cols == 2 else None)
                if hv is None:
                    break
                hl = measure.height([f.header + ":"], LABEL_PT, lw - LABEL_GAP)
                if hl is None:
                    break
                heights.append(max(hv, hl, label_h))
            else:
                rows = [max(heights[i:i + cols]) for i in range(0, len(heights), cols)]
                if sum(rows) + GAP * 0.5 * len(rows) > room:
                    continue
                layers, top = [], y
                for i, f in enumerate(fields):
                    r = i // cols
                    fx = x + (i % cols) * (cw + GAP)
                    fy = top + sum(rows[:r]) + GAP * 0.5 * r
                    label = _text("", fx, fy + max(0.0, (s - LABEL_PT) * MM_PER_PT * 0.8), lw - LABEL_GAP, rows[r],
                                  LABEL_PT, markup=False, colour=LABEL_COLOUR, static=f.header + ":")
                    layers.append({**label, "when": f.header})  # no label beside an empty cell
                    layers.append(_text(f.header, fx + lw, fy, vw, rows[r] + 0.2, s, markup=f.markup))
                return layers, y + sum(rows) + GAP * 0.5 * len(rows) + GAP * 0.5
    return None


def _flags(flags: list[Column], cells: dict, x: float, y: float, w: float,
           bottom: float) -> tuple[list[dict], float] | None:
    """A chip per flag column, shown on the rows whose cell is a yes; chips flow left to right (None
    when they reach below ``bottom``)."""
    if not flags:
        return [], y
    layers, cx, cy, chip_h = [], x, y, 4.2
    for f in flags:
        cw = min(w, text_width_mm(f.header, LABEL_PT, BOLD_FACE) + 2.4)
        if cx + cw > x + w + 1e-6:
            cx, cy = x, cy + chip_h + 0.8
        yes = sorted({v.strip() for v in cells[f.header] if v.strip().casefold() in YES})
        when = {"column": f.header, "equals": yes if len(yes) > 1 else yes[0]}
        layers.append({"type": "rect", "x": _r(cx), "y": _r(cy), "w": _r(cw), "h": chip_h, "radius": 1.2,
                       "fill": "#e8e8e8", "when": when})
        layers.append({**_text("", cx + 0.4, cy, cw - 0.8, chip_h, LABEL_PT, bold=True, markup=False,
                               align="center", valign="middle", wrap_=False, static=f.header), "when": when})
        cx += cw + 1.0
    if cy + chip_h > bottom:
        return None
    return layers, cy + chip_h + GAP


def _bodies(bodies: list[Column], vals: dict, x: float, y: float, w: float, room: float,
            measure: Measure) -> list[dict] | None:
    """The long texts in the ``room`` mm left, one size for all, each box as tall as it needs plus a
    share of what is left over."""
    if not bodies:
        return []
    labelled = len(bodies) > 1
    label_h = (measure.height(["Ag"], LABEL_PT, w) + 0.3) if labelled else 0.0
    for s in _sizes(BODY_PT):
        needs = [measure.height(vals[b.header], s, w) for b in bodies]
        if any(n is None for n in needs):
            continue
        total = sum(needs) + len(bodies) * (label_h + GAP)
        if total > room:
            continue
        spare = (room - total) / len(bodies)
        layers, top = [], y
        for b, need in zip(bodies, needs):
            if labelled:
                layers.append({**_text("", x, top, w, label_h, LABEL_PT, markup=False, colour=LABEL_COLOUR,
                                       static=b.header, wrap_=False), "when": b.header})
                top += label_h
            layers.append(_text(b.header, x, top, w, need + spare + 0.2, BODY_PT, markup=b.markup))  # a short
            # text is set larger than the longest, which the box holds at ``s``
            top += need + spare + GAP
        return layers
    return None
