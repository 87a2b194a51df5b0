"""A Tabletop Simulator saved object for a whole kit: ``tts/<stem>.json`` plus the images it names.

The JSON is TTS's own save format (a SaveState whose ``ObjectStates`` are the kit's parts; see
docs/print.md, "Tabletop Simulator", for the fields and their sources), so it loads as it is from
TTS's "Saved Objects" folder:

- rectangular parts with more than one copy (cards, square tiles) become one ``DeckCustom`` whose
  ``CustomDeck`` maps a deck key to one card sheet (FaceURL: a grid of at most 10 x 7 faces and 4096
  px a side; BackURL: one back image, ``UniqueBack`` false). ``BackIsHidden`` is true, so a hidden
  card shows its back and all 70 slots hold cards; a sheet with a free slot also carries the hidden
  face (the back) in its last slot, as TTS's sheet templates do, so the deck looks the same with
  BackIsHidden turned off. Each card in ``ContainedObjects`` has ``CardID`` = key x 100 + slot
  (TTS reads the sheet from the hundreds), and ``DeckIDs`` lists them in order;
- boards become locked ``Custom_Tile`` objects of type 0 (box) that keep their image's aspect
  (``Stretch`` false), so they are scaled by the same rule as every tile (a ``Custom_Board`` is
  sized from its image's pixels, which says nothing of its size in mm);
- round parts become ``Custom_Tile`` objects of type 2 (circle), one per physical part, gathered in
  a ``Bag`` per component; a single rectangular part (a reference card) is a ``Custom_Tile`` of type
  0 (box) that keeps its image's aspect (``Stretch`` false);
- shaped parts (``Component.shape`` "polygon": hexes, polygons, a die's net, a standee's strip and
  base, a tuck box's net) become box ``Custom_Tile`` objects (type 0, aspect kept), one per physical
  part in a ``Bag`` per component, whose images are RGBA PNG, transparent outside the part's cut
  outline (its back's outline mirrored left to right, as the part turned over shows it). Never a
  deck: TTS would give a hexagon a card's rectangle. TTS documents a hex tile (Tabletop Simulator API,
  "Custom Game Objects", Custom Tile ``type`` "1: Hex"; Knowledge Base, "Custom Tile": "Type ... The
  shape the tile will be"), but not how it maps the image onto the hexagon (which way its points lie,
  whether the hexagon touches the image's sides or its corners), so a hexagon is a box tile too;
  neither does it say that a tile's transparent pixels show the table (only a Custom Token is
  documented to "cut out" the transparency of its image, Knowledge Base, "Custom Token"), so the
  transparent corners of a box tile may show as the tile's colour there.

Each card's ``Nickname`` is its title (``Component.titles``: a NetMatch word, a data-driven card's
name column), else "<component> N". Every object's ``Transform`` scale is its trim height in mm over
the height TTS gives that kind of object at scale 1 (CARD_NATIVE_MM, TILE_NATIVE_MM; the width
follows the image's aspect), so parts keep their physical sizes relative to each other; objects are
laid out in a row along x, each at its width in TTS units (about an inch) plus a gap.

Image URLs are ``file:///`` absolute paths to the files under OUT/<game>/tts (they stay valid when a
later build replaces the kit) or ``<base>/<file name>`` with ``settings.tts_url`` for images the
user hosts. Every image is RGB PNG (a shaped part's RGBA), at most MAX_PIXELS a side and MAX_DPI.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import quote

from PIL import Image, ImageDraw

from ..core.ir import Component, Drawing
from . import imagepool, png
from .raster import drawings_to_images
from .tts import hidden_face
from ..core.errors import SpecError

MAX_COLUMNS, MAX_ROWS, MAX_PIXELS = 10, 7, 4096
MAX_DPI = 300.0
CARDS_PER_SHEET = MAX_COLUMNS * MAX_ROWS          # BackIsHidden: every slot may hold a card
TILE_TYPE = {"box": 0, "hex": 1, "circle": 2, "rounded": 3}  # CustomTile.Type
TILE_THICKNESS = 0.1                               # TTS units (about an inch): a card-stock counter
GAP = 1.0                                          # TTS units between objects laid out in a row
MM_PER_UNIT = 25.4                                 # a TTS unit is "about an inch" (TTS Knowledge Base, Custom Tile)
# The height (z extent) of an object at Transform scale 1, its width following the image's aspect.
# TTS documents no size for custom objects; these are the sizes measured by F. Liu's tts-tools
# (github.com/frankieliu/tts-tools, docs/TTS_SCALING_SOLVED.md: "For Cards ... Physical Height =
# 3.500" x Transform.scaleZ", "For Tiles/Boards/Tokens ... Physical Height = 1.318" x
# Transform.scaleZ", fitted to a published game's cards and 20 x 29 in boards to 0.15 %). Only their
# ratio matters for parts' relative sizes. A sideways card is sized by its height too (a landscape
# card at scale 1 is 1.4 times a portrait one: tokeeto/shoggoth, shoggoth/tts_lib.py, scales its
# horizontal cards by 0.714).
CARD_NATIVE_MM = 3.5 * 25.4                        # a custom card (deck) at scale 1: 88.9 mm high
TILE_NATIVE_MM = 1.318 * 25.4                      # a Custom_Tile at scale 1: 33.48 mm high


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: the slots it fills (``faces``, in order), its grid and each card's pixels."""
    faces: tuple[Drawing, ...]
    cols: int
    rows: int
    card_px: tuple[int, int]


def sheet_grid(cards: int) -> tuple[int, int]:
    """(columns, rows) of a sheet holding ``cards`` (1..70) cards: at most 10 columns and 7 rows,
    as few rows as hold them.

    Raises:
        ValueError: ``cards`` outside 1..70.
    """
    if not 1 <= cards <= CARDS_PER_SHEET:
        raise ValueError(f"a deck sheet holds 1 to {CARDS_PER_SHEET} cards, not {cards}")
    cols = min(MAX_COLUMNS, max(cards, 2))  # TTS cuts a sheet of at least 2 x 2 cells
    return cols, max(2, math.ceil(cards / cols))


def card_pixels(width: float, height: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixels (w, h) of one card of ``width`` x ``height`` mm on a ``cols`` x ``rows`` sheet: as
    large as fits MAX_PIXELS a side, at most MAX_DPI."""
    px_per_mm = min(MAX_PIXELS / (cols * width), MAX_PIXELS / (rows * height), MAX_DPI / 25.4)
    return max(1, int(width * px_per_mm)), max(1, int(height * px_per_mm))


def deck_sheets(comp: Component) -> list[Sheet]:
    """The sheets of a deck: every physical card (fronts x copies, in order), 70 to a sheet."""
    faces = [comp.fronts[i // comp.copies] for i in range(comp.count)]
    sheets = []
    for start in range(0, len(faces), CARDS_PER_SHEET):
        chunk = tuple(faces[start:start + CARDS_PER_SHEET])
        cols, rows = sheet_grid(len(chunk))
        sheets.append(Sheet(chunk, cols, rows, card_pixels(comp.width, comp.height, cols, rows)))
    return sheets


def kind(comp: Component) -> str:
    """How TTS holds ``comp``: "board", "deck" (rectangular, more than one), "tile" (one
    rectangular part), "round" (circles) or "shaped" (a polygon outline: box tiles cut out)."""
    if comp.board:
        return "board"
    if comp.shape in ("circle", "polygon"):
        return "round" if comp.shape == "circle" else "shaped"
    return "deck" if comp.count > 1 else "tile"


SUPERSAMPLE_MAX = 8192  # px: the outline's mask is drawn this large at most, then scaled down (smooth edges)


def cut_out(image: Image.Image, outline, width: float, height: float, mirrored: bool = False) -> Image.Image:
    """``image`` (the part's ``width`` x ``height`` mm) as RGBA, opaque inside ``outline`` (mm from its
    top-left corner; mirrored left to right for the back) and transparent outside, the edge anti-aliased."""
    w, h = image.size
    k = max(1, min(4, SUPERSAMPLE_MAX // max(w, h)))
    sx, sy = w * k / width, h * k / height
    points = [((width - x if mirrored else x) * sx, y * sy) for x, y in outline]
    mask = Image.new("L", (w * k, h * k), 0)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    out = image.convert("RGBA")
    out.putalpha(mask.resize((w, h), Image.BOX) if k > 1 else mask)
    return out


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


def kit_folder(staging: Path) -> Path:
    """OUT/<game> of a kit being staged in ``staging`` (OUT/.pnp/<game>.stage.…, see
    pnp.store.kitstore), as an absolute path that is not resolved: the link pnp keeps, so URLs
    stay valid when a later build replaces the kit."""
    game = staging.name.split(".stage.")[0]
    return Path(os.path.abspath(staging.parent.parent)) / game


def url_maker(folder: Path, base: str | None) -> Callable[[str], str]:
    """file name -> URL: ``base/<name>`` when a base URL is given, else a ``file:///`` URL of
    ``folder/<name>`` (``folder`` absolute)."""
    if base:
        return lambda name: f"{base.rstrip('/')}/{quote(name)}"
    return lambda name: (folder / name).as_uri()


class _Images:
    """Writes the PNGs of one save into ``folder`` and remembers them."""

    def __init__(self, folder: Path, stem: str, url: Callable[[str], str], workers: int | None = None) -> None:
        self.folder, self.stem, self.url, self.workers = folder, stem, url, workers
        self.written: list[Path] = []

    def save(self, image: Image.Image, suffix: str) -> str:
        """Save ``image`` as ``<stem>-<suffix>.png`` (RGB, or RGBA when it has an alpha channel,
        pnp.render.png); return its URL."""
        path = self.folder / f"{self.stem}-{suffix}.png"
        path.write_bytes(png.encode_image(image if image.mode == "RGBA" else image.convert("RGB"), level=SHEET_LEVEL))
        self.written.append(path)
        return self.url(path.name)

    def render(self, drawings: Sequence[Drawing], width: float, height: float, px: tuple[int, int]):
        """Each drawing as an image of exactly ``px`` pixels, in order, FACES_PER_TASK at a time on
        ``workers`` processes (None: every core; pnp.render.imagepool; the images do not depend on the
        number of workers)."""
        dpi = max(px[0] / width, px[1] / height) * 25.4
        starts = range(0, len(drawings), FACES_PER_TASK)
        tasks = ((tuple(drawings[i:i + FACES_PER_TASK]), width, height, dpi, px) for i in starts)
        with closing(imagepool.stream(tasks, _render_faces, imagepool.workers_for(len(starts), self.workers))) as results:
            for images in results:
                yield from images


SHEET_LEVEL = 3
"""zlib level of the saved images (pnp.render.png): the deck sheets are uploaded, so a little smaller
files are worth a little more time."""
FACES_PER_TASK = 4
"""Faces a worker renders at a time (fixed, so the images do not depend on the number of workers)."""


def _render_faces(task) -> list[Image.Image]:
    """(drawings, width, height, dpi, px) -> each drawing as an image of exactly ``px`` pixels."""
    drawings, width, height, dpi, px = task
    return [img if img.size == px else img.resize(px, Image.LANCZOS)
            for img in drawings_to_images(drawings, width, height, dpi)]


def _guid(*parts) -> str:
    """A stable 6-hex-digit GUID (TTS's form) from ``parts``: the same kit gives the same file."""
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, flipped: bool = False, scale: float = 1.0) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if flipped else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def card_scale(comp: Component) -> float:
    """Transform scale of every card of ``comp``'s deck: its trim height over CARD_NATIVE_MM."""
    return comp.height / CARD_NATIVE_MM


def tile_scale(comp: Component) -> float:
    """Transform scale of a tile (or board) of ``comp``: its trim height over TILE_NATIVE_MM."""
    return comp.height / TILE_NATIVE_MM


def title(comp: Component, index: int) -> str:
    """The title of ``comp``'s physical part ``index`` (0-based, fronts x copies in order): its front's
    entry of ``comp.titles``, "" when the component gives none."""
    titles = comp.titles
    return titles[index // comp.copies] if len(titles) == len(comp.fronts) else ""


def _object(name: str, nickname: str, guid: str, x: float, **extra) -> dict:
    obj = {"GUID": guid, "Name": name, "Transform": _transform(x, extra.pop("flipped", False),
                                                                 extra.pop("scale", 1.0)),
           "Nickname": nickname, "Description": extra.pop("description", ""),
           "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
           "Autoraise": True, "Sticky": True, "Tooltip": True}
    obj.update(extra)
    return obj


def _back_drawing(comp: Component) -> Drawing:
    return tuple(hidden_face(comp))


def deck_object(comp: Component, images: _Images, first_key: int, x: float, name: str) -> tuple[dict, int]:
    """A DeckCustom of every card of ``comp`` (images named after ``name``); returns it and the next
    free deck key."""
    sheets = deck_sheets(comp)
    back_px = sheets[0].card_px
    back_img = next(images.render([_back_drawing(comp)], comp.width, comp.height, back_px))
    back_url = images.save(back_img, f"{name}-back")
    custom, cards, ids = {}, [], []
    scale = card_scale(comp)
    for n, sheet in enumerate(sheets):
        key = first_key + n
        cw, ch = sheet.card_px
        canvas = Image.new("RGB", (sheet.cols * cw, sheet.rows * ch), (255, 255, 255))
        for i, img in enumerate(images.render(sheet.faces, comp.width, comp.height, sheet.card_px)):
            canvas.paste(img, ((i % sheet.cols) * cw, (i // sheet.cols) * ch))
        if len(sheet.faces) < sheet.cols * sheet.rows:  # the hidden face in the last slot, as TTS's templates
            canvas.paste(back_img.resize((cw, ch), Image.LANCZOS), ((sheet.cols - 1) * cw, (sheet.rows - 1) * ch))
        deck = {"FaceURL": images.save(canvas, f"{name}-sheet{n + 1}"), "BackURL": back_url,
                "NumWidth": sheet.cols, "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": False,
                "Type": 0}
        custom[str(key)] = deck
        for slot in range(len(sheet.faces)):
            card_id = key * 100 + slot
            ids.append(card_id)
            cards.append(_object("Card", title(comp, len(ids) - 1) or f"{comp.name} {len(ids)}",
                                 _guid(images.stem, name, card_id), x, flipped=True, scale=scale, CardID=card_id,
                                 SidewaysCard=comp.width > comp.height, CustomDeck={str(key): deck}))
    obj = _object("DeckCustom", comp.name, _guid(images.stem, name, "deck"), x, flipped=True, scale=scale,
                  description=comp.note, SidewaysCard=comp.width > comp.height, DeckIDs=ids, CustomDeck=custom,
                  ContainedObjects=cards)
    return obj, first_key + len(sheets)


def _single_px(comp: Component) -> tuple[int, int]:
    px_per_mm = min(MAX_PIXELS / comp.width, MAX_PIXELS / comp.height, MAX_DPI / 25.4)
    return max(1, int(comp.width * px_per_mm)), max(1, int(comp.height * px_per_mm))


def _tile_image(front: str, back: str, shape: str) -> dict:
    return {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0,
            "CustomTile": {"Type": TILE_TYPE[shape], "Thickness": TILE_THICKNESS, "Stackable": shape == "circle",
                           "Stretch": shape == "circle"}}


def board_object(comp: Component, images: _Images, x: float, name: str) -> dict:
    """A locked Custom_Tile (box, aspect kept) of the board's (first) face (its image named after ``name``)."""
    img = next(images.render([comp.fronts[0]], comp.width, comp.height, _single_px(comp)))
    url = images.save(img, name)
    return _object("Custom_Tile", comp.name, _guid(images.stem, comp.name, "board"), x, description=comp.note,
                   scale=tile_scale(comp), Locked=True, CustomImage=_tile_image(url, url, "box"))


def tile_objects(comp: Component, images: _Images, x: float, name: str) -> list[dict]:
    """One Custom_Tile per physical part: circles (type 2) for round parts, a box (type 0, aspect kept)
    for a single rectangular part or a shaped part (its images transparent outside its outline,
    cut_out); the back image on the bottom when the part has a printed back."""
    px = _single_px(comp)
    shape = "circle" if comp.shape == "circle" else "box"
    outline = comp.cut_shape.points

    def shaped(img, mirrored=False):
        return cut_out(img, outline, comp.width, comp.height, mirrored) if outline else img
    urls = [images.save(shaped(img), f"{name}-{i + 1:02d}" if len(comp.fronts) > 1 else name)
            for i, img in enumerate(images.render(comp.fronts, comp.width, comp.height, px))]
    back = ""
    if comp.back is not None:
        back = images.save(shaped(next(images.render([comp.back], comp.width, comp.height, px)), True),
                           f"{name}-back")
    tiles = []
    for i in range(comp.count):
        front = urls[i // comp.copies]
        tiles.append(_object("Custom_Tile", title(comp, i) or comp.name, _guid(images.stem, name, i), x,
                             description=comp.note, scale=tile_scale(comp),
                             CustomImage=_tile_image(front, back or front, shape)))
    return tiles


def save_state(name: str, objects: list[dict]) -> dict:
    """A TTS SaveState holding ``objects``, with the outer fields of a saved object left empty."""
    return {"SaveName": name, "GameMode": "", "Date": "", "VersionNumber": "", "GameType": "",
            "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "TabStates": {},
            "ObjectStates": objects}


def write_save(components: Sequence[Component], folder: Path, stem: str, title: str,
               url: Callable[[str], str], workers: int | None = None) -> list[Path]:
    """Write ``folder/<stem>.json`` (a TTS saved object of every component) and its images, drawn on
    ``workers`` processes (None: every core); return every path written. ``url(file name)`` gives the
    URL TTS opens for an image in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    images = _Images(folder, stem, url, workers)
    objects, key, x = [], 1, 0.0
    for comp, name in zip(components, part_names(components)):
        k = kind(comp)
        x += comp.width / MM_PER_UNIT / 2 + (GAP if objects else 0.0)
        if k == "deck":
            obj, key = deck_object(comp, images, key, x, name)
            objects.append(obj)
        elif k == "board":
            objects.append(board_object(comp, images, x, name))
        else:
            tiles = tile_objects(comp, images, x, name)
            objects.append(tiles[0] if len(tiles) == 1 else
                           _object("Bag", f"{comp.name} \u00d7{comp.count}", _guid(stem, comp.name, "bag"), x,
                                   description=comp.note, ContainedObjects=tiles))
        x += comp.width / MM_PER_UNIT / 2
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(save_state(title, objects), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return images.written + [path]


MAX_URL = 2000


def check_base_url(value: str) -> str:
    """``--tts-url``: an http(s) or file URL of the folder holding the images, without spaces or
    control characters, at most MAX_URL characters.

    Raises:
        SpecError: naming the option, what is wrong and an example.
    """
    hint = "give the address of the folder you upload OUT/<game>/tts/<game>-<paper> to, e.g. --tts-url https://example.org/kits/nooks-a4"
    if len(value) > MAX_URL:
        raise SpecError(f"--tts-url is {len(value)} characters long (at most {MAX_URL}).", field="--tts-url", hint=hint)
    if not re.fullmatch(r"(https?://[^/\s]+|file://)(/[^\s]*)?", value) or not value.isprintable():
        raise SpecError(f"--tts-url {value!r} is not an http(s):// or file:// address without spaces.",
                        field="--tts-url", hint=hint)
    return value
