"""A part too large for the sheet, blamed on the spec field that sizes it.

A game's components do not say which spec field made their size, so ``spec_field_for`` looks for it
in the spec: the field whose length equals the part's width or height (a field named after the part,
``tile_size`` for the part "tile", is preferred), else the nearest length within NEAR of it (a tile
cut from a square less its margins is blamed on the square). ``check_parts_fit`` refuses a non-board part that
does not fit a sheet's usable area, naming the spec file, that field and its line, and the largest
part that fits.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..core.errors import LayoutError, PnpError
from ..core.ir import Component
from ..core.units import fmt_mm, parse_length
from ..inputs.yamlfile import load_yaml
from .paper import Sheet

NEAR = 0.25  # a length within 25 % of the part's size is taken as the one that sizes it, if none is equal


def room_for_parts(sheet: Sheet, bleed: float = 0.0) -> tuple[float, float]:
    """(w, h) in mm a non-board part may take on ``sheet``: the part area (Sheet.part_area) less the
    crop-mark reserve and bleed on each side (as pnp.layout.impose.grid_for computes it)."""
    _, _, cw, ch = sheet.part_area(bleed)
    _, reserve = sheet.mark_reserve(bleed)
    return cw - 2 * reserve - 2 * bleed, ch - 2 * reserve - 2 * bleed


def _leaves(data: Any, path: tuple = ()):
    """(key path, value) of every scalar in a spec's data, iteratively, in document order."""
    stack = [(path, data)]
    while stack:
        loc, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((loc + (k,), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((loc + (i,), v) for i, v in reversed(list(enumerate(value))))
        else:
            yield loc, value


def spec_field_for(comp: Component, file: str | Path | None) -> tuple[str | None, int | None]:
    """(dotted field, line) of the spec field whose length is ``comp``'s width or height (else the
    nearest within NEAR), or (None, None) when the spec cannot be read or no field matches."""
    if file is None:
        return None, None
    try:
        data, lines = load_yaml(Path(file))
    except PnpError:
        return None, None
    hits, near = [], []
    for loc, value in _leaves(data):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            continue
        try:
            mm = parse_length(value)
        except Exception:  # noqa: BLE001 - not a length
            continue
        named = any(word in str(part) for part in loc for word in comp.name.lower().split())
        off = min(abs(mm - size) / size for size in (comp.width, comp.height))
        if off < 1e-9:
            hits.append((not named, len(hits), loc))
        elif off <= NEAR and not isinstance(value, int):  # a size the part is derived from (less a margin)
            near.append((off, len(near), loc))
    if not hits and not near:
        return None, None
    loc = min(hits)[2] if hits else min(near)[2]
    return ".".join(str(p) for p in loc), lines.get(loc)


def check_parts_fit(components: Sequence[Component], sheet: Sheet, bleed: float = 0.0,
                    file: str | Path | None = None) -> None:
    """Refuse the first non-board part larger than ``room_for_parts`` on ``sheet``.

    Raises:
        LayoutError: naming the spec ``file``, the field that sizes the part and its line (when found,
            else the part's name), the part's size, the room and the largest part that fits.
    """
    aw, ah = room_for_parts(sheet, bleed)
    for comp in components:
        if comp.board or (comp.width <= aw + 1e-9 and comp.height <= ah + 1e-9):
            continue
        field, line = spec_field_for(comp, file)
        if comp.shape == "circle" or comp.width == comp.height:
            largest = f"a {'round' if comp.shape == 'circle' else 'square'} {comp.name} of at most " \
                      f"{fmt_mm(min(aw, ah))}"
        else:
            largest = f"a {comp.name} of at most {fmt_mm(aw)} x {fmt_mm(ah)}"
        size = f"diameter {fmt_mm(comp.width)}" if comp.shape == "circle" else \
            f"{fmt_mm(comp.width)} x {fmt_mm(comp.height)}"
        bled = f", {fmt_mm(bleed)} bleed" if bleed else ""
        raise LayoutError(f"the {comp.name} ({size}) does not fit the printable area of {sheet.name}: parts there "
                          f"may take {fmt_mm(aw)} x {fmt_mm(ah)} (after margins, footer, crop marks{bled}); the largest that "
                          f"fits is {largest}.", file=file, line=line, field=field or comp.name,
                          hint=f"make {field or 'the part'} smaller in the spec, or use a larger --paper (a3, tabloid)")
