"""Tabletop Simulator deck sheets: card faces in a grid of at most 10 x 7, at most 4096 px a side,
RGB PNG, with the hidden-card face in the last slot, plus a JSON giving what TTS's custom-deck
dialog asks for (face image, back image, columns, rows, card count).
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

from PIL import Image

from ..core.ir import Component, Rect, Text
from ..core.safepath import open_write, write_bytes
from .raster import drawings_to_images

MAX_COLUMNS, MAX_ROWS, MAX_PIXELS = 10, 7, 4096
MAX_DPI = 300.0


def eligible(comp: Component) -> bool:
    """Decks are made of rectangular, non-board parts with more than one card (cards and tiles)."""
    return comp.shape == "rect" and not comp.board and comp.count > 1


def deck_grid(count: int) -> tuple[int, int]:
    """(columns, rows) of one sheet for ``count`` cards plus the hidden face, within 10 x 7."""
    slots = min(count + 1, MAX_COLUMNS * MAX_ROWS)
    cols = min(MAX_COLUMNS, slots)
    return cols, min(MAX_ROWS, math.ceil(slots / cols))


def hidden_face(comp: Component):
    """The face TTS shows for a hidden card: the component's back, or a grey card with a '?'."""
    if comp.back is not None:
        return comp.back
    return (Rect(0, 0, comp.width, comp.height, fill="#777777", stroke=None),
            Text(comp.width / 2, comp.height / 2, "?", size_pt=comp.height, anchor="middle", valign="middle",
                 fill="#ffffff"))


def part_names(comps) -> list[str]:
    """One file-name part per component: its name in lower case with every run of other characters
    as "-", at most 36 characters, "part" if nothing is left, and "-2", "-3"... when two components
    would share a name: always a name pnp.store.names's safe-name rule accepts (tested)."""
    names: list[str] = []
    for comp in comps:
        base = re.sub(r"[^a-z0-9_]+", "-", comp.name.lower()).strip("-_")[:36].strip("-_") or "part"
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}-{n}"
        names.append(name)
    return names


def _save(root: Path, rel: str, image: Image.Image) -> None:
    with open_write(root, rel) as f:
        image.save(f, format="PNG")


def write_decks(comp: Component, root: Path, folder: str, name: str) -> list[Path]:
    """Write the deck sheets and JSON of ``comp`` as ``folder/<name>-…`` under ``root`` (through
    pnp.core.safepath); return the paths written, relative to ``root``. A card is at least 1 px a
    side however small its trim (a 0.05 mm tile gives 1 px images).

    Raises:
        OutputError: a symlink or special file in the way, or a write error.
    """
    cols, rows = deck_grid(comp.count)
    per_sheet = cols * rows - 1
    px_per_mm = min(MAX_PIXELS / (cols * comp.width), MAX_PIXELS / (rows * comp.height), MAX_DPI / 25.4)
    cw, ch = max(1, int(comp.width * px_per_mm)), max(1, int(comp.height * px_per_mm))
    dpi = max(px_per_mm * 25.4, 25.4 / min(comp.width, comp.height))  # at least 1 px a side when rendered
    written, sheets = [], []
    back_img = next(drawings_to_images([hidden_face(comp)], comp.width, comp.height, dpi))
    back_img = back_img.resize((cw, ch))
    back = f"{folder}/{name}-back.png"
    _save(root, back, back_img)
    written.append(Path(back))
    faces = [comp.fronts[i // comp.copies] for i in range(comp.count)]
    for s, start in enumerate(range(0, comp.count, per_sheet), start=1):
        chunk = faces[start:start + per_sheet]
        sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
        for i, img in enumerate(drawings_to_images(chunk, comp.width, comp.height, dpi)):
            sheet.paste(img.resize((cw, ch)), ((i % cols) * cw, (i // cols) * ch))
        sheet.paste(back_img, ((cols - 1) * cw, (rows - 1) * ch))
        rel = f"{folder}/{name}-sheet{s}.png"
        _save(root, rel, sheet)
        written.append(Path(rel))
        sheets.append({"FaceURL": Path(rel).name, "BackURL": Path(back).name, "NumWidth": cols, "NumHeight": rows,
                       "cards": len(chunk), "hidden_face_slot": cols * rows, "card_px": [cw, ch]})
    info = f"{folder}/{name}.json"
    write_bytes(root, info, (json.dumps({"component": comp.name, "cards": comp.count, "BackIsHidden": True,
                                         "sheets": sheets}, indent=2) + "\n").encode("utf-8"))
    written.append(Path(info))
    return written
