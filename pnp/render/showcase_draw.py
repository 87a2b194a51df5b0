"""The showcase pictures drawn (pnp.render.showcase): each face rendered from pnp's own PDF of it
(pnp.render.pdf, PDFium; the same path as ``--format pod``), cut to the component's outline with
antialiased edges, turned, shadowed and composited onto a transparent picture with Pillow.

Faces are rendered BATCH at a time on ``workers`` processes (pnp.render.imagepool), each at the size
it takes in its picture; a grid picture is written as soon as its faces are in, so memory holds one
picture at a time whatever the deck's length.
"""
from __future__ import annotations

import math
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw, ImageFilter

from ..core.ir import Component, Page
from ..core.safepath import open_write
from . import imagepool, png
from .pod import faces_pdf, render_exact
from .showcase_rows import FAN_DEFAULT, GRID_FACES, Card, ShowcaseOptions, cards_of
from .showcase_layout import (SHADOW_BLUR, SHADOW_DX, SHADOW_DY, SHADOW_OPACITY, Scene, card_scene, fan_scene,
                              grid_columns, grid_scene)
from .showcase_layout import check_pixels as _check_scene_pixels

BATCH = 16
"""Faces rendered per task (one in-memory PDF)."""
SUPERSAMPLE = 4
"""A card's outline is drawn at this many times its size, then reduced: smooth edges."""


def check_pixels(comp: Component, options: ShowcaseOptions, fan: int) -> None:
    """Refuse ``comp``'s pictures over the raster bound at ``options.width`` (see
    pnp.render.showcase_layout.check_pixels); draws nothing.

    Raises:
        SpecError: naming the component and the widest width that fits.
    """
    _check_scene_pixels(comp.name, comp.width, comp.height, options.width, fan, len(cards_of(comp)), GRID_FACES)


@dataclass(frozen=True)
class _Faces:
    """What a worker renders: ``pages`` (one face each), their ``labels`` (for errors), at ``px``."""
    pages: tuple[Page, ...]
    labels: tuple[str, ...]
    px: tuple[int, int]


def _render(task: _Faces) -> list[Image.Image]:
    """The task's faces as RGB images of exactly ``px`` pixels (run in a worker or in this process).

    Raises:
        PnpError: a face cannot be drawn, naming the part and card.
    """
    import pypdfium2 as pdfium  # PDFium: only a build that draws showcase pictures
    doc = pdfium.PdfDocument(faces_pdf(task.pages, task.labels))
    out = []
    try:
        for i in range(len(task.pages)):
            page = doc[i]
            img = render_exact(page, task.px).to_pil().convert("RGB")
            page.close()
            out.append(img if img.size == task.px else img.resize(task.px, Image.Resampling.LANCZOS))
    finally:
        doc.close()
    return out


def outline_mask(comp: Component, px: tuple[int, int]) -> Image.Image:
    """The component's cut outline (pnp.core.ir.Component.cut_shape) as an L mask of ``px`` pixels:
    255 inside, 0 outside, antialiased."""
    k = SUPERSAMPLE
    big = Image.new("L", (px[0] * k, px[1] * k), 0)
    draw = ImageDraw.Draw(big)
    sx, sy = px[0] * k / comp.width, px[1] * k / comp.height
    box = (0, 0, px[0] * k - 1, px[1] * k - 1)
    cut = comp.cut_shape
    if cut.kind == "circle":
        draw.ellipse(box, fill=255)
    elif cut.kind == "polygon" and cut.points:
        draw.polygon([(x * sx, y * sy) for x, y in cut.points], fill=255)
    elif cut.radius > 0:
        draw.rounded_rectangle(box, radius=cut.radius * min(sx, sy), fill=255)
    else:
        draw.rectangle(box, fill=255)
    return big.reduce(k)


class Picture:
    """One transparent picture of a Scene ``width_px`` wide; ``add()`` composites a card (its
    shadow first) at the scene's next spot, in order, so later cards lie on earlier ones."""

    def __init__(self, scene: Scene, width_px: int, comp: Component) -> None:
        self.scene = scene
        w, h, self.scale = scene.pixels(width_px)
        self.size = (w, h)
        self.image: Image.Image | None = None  # made when the first card comes: one picture in memory at a time
        self.card_px = (max(1, round(comp.width * self.scale)), max(1, round(comp.height * self.scale)))
        self.mask = outline_mask(comp, self.card_px)
        d = min(self.card_px)
        self.shadow = (SHADOW_DX * d, SHADOW_DY * d, SHADOW_BLUR * d)
        self.added = 0

    def add(self, face: Image.Image) -> None:
        """Composite ``face`` (RGB, ``card_px``) at the next spot: cut, turned, with its shadow."""
        spot = self.scene.spots[self.added]
        if self.image is None:
            self.image = Image.new("RGBA", self.size, (0, 0, 0, 0))
        card = face.convert("RGBA")
        card.putalpha(self.mask)
        if spot.angle:  # turned premultiplied, so the cut edge does not darken
            card = card.convert("RGBa").rotate(-spot.angle, resample=Image.Resampling.BICUBIC,
                                               expand=True).convert("RGBA")
        cx, cy = spot.cx * self.scale, spot.cy * self.scale
        x, y = round(cx - card.width / 2), round(cy - card.height / 2)
        dx, dy, blur = self.shadow
        pad = math.ceil(4 * blur) + 1
        alpha = Image.new("L", (card.width + 2 * pad, card.height + 2 * pad), 0)
        alpha.paste(card.getchannel("A").point(lambda v: round(v * SHADOW_OPACITY)), (pad, pad))
        alpha = alpha.filter(ImageFilter.GaussianBlur(blur))
        shadow = Image.new("RGBA", alpha.size, (0, 0, 0, 0))
        shadow.putalpha(alpha)
        _composite(self.image, shadow, x - pad + round(dx), y - pad + round(dy))
        _composite(self.image, card, x, y)
        self.added += 1

    def save(self, folder: Path, name: str) -> None:
        """Write the picture as an RGBA PNG ``folder/name`` (through pnp.core.safepath)."""
        with open_write(folder, name) as fh:
            fh.write(png.encode_image(self.image))
        self.image = None


def _composite(canvas: Image.Image, tile: Image.Image, x: int, y: int) -> None:
    """Alpha-composite ``tile`` onto ``canvas`` with its top-left at (x, y), cut where it leaves."""
    left, top = max(0, -x), max(0, -y)
    right, bottom = min(tile.width, canvas.width - x), min(tile.height, canvas.height - y)
    if right > left and bottom > top:
        canvas.alpha_composite(tile.crop((left, top, right, bottom)), (x + left, y + top))


def distinct_faces(comp: Component, cards: Sequence[Card]) -> list[Card]:
    """``cards`` less those that draw what an earlier one draws (equal drawings: the same shapes,
    texts, colours and pictures), in order. Draws each front (the IR only)."""
    seen: set = set()
    out = []
    for card in cards:
        drawing = tuple(comp.fronts[card.index])
        if drawing not in seen:
            seen.add(drawing)
            out.append(card)
    return out


def _label(comp: Component, card: Card) -> str:
    title = f" ({card.title})" if card.title else ""
    return f"{comp.name}, row {card.row}{title}"


def write_component(comp: Component, options: ShowcaseOptions, folder: Path, base: str,
                    picked: list[Card] | None, workers: int | None = None) -> list[str]:
    """Write ``comp``'s fan, card and grid pictures into ``folder`` as ``<base>-fan.png``,
    ``<base>-single.png`` and ``<base>-grid.png`` (``-grid-N.png``, GRID_FACES faces each, when there
    are more); return their names. ``picked``: the cards of the fan (None: the first FAN_DEFAULT
    distinct faces; empty: no fan and no single picture). A fan of one card and a grid of one face
    are not written: each would be the single picture again.

    Raises:
        PnpError: a face cannot be drawn (naming the part and row).
        OutputError: a file cannot be written.
    """
    faces = distinct_faces(comp, cards_of(comp))
    fan_cards = faces[:FAN_DEFAULT] if picked is None else list(picked)
    w, h, width = comp.width, comp.height, options.width
    pictures: list[tuple[str, Picture, list[Card]]] = []
    if len(fan_cards) > 1:  # a fan of one card would be the single picture again
        pictures.append((f"{base}-fan.png", Picture(fan_scene(w, h, len(fan_cards)), width, comp), fan_cards))
    if fan_cards:
        pictures.append((f"{base}-single.png", Picture(card_scene(w, h), width, comp), fan_cards[:1]))
    if len(faces) == 1 and fan_cards:  # so would a grid of one face
        faces = []
    chunks = [faces[i:i + GRID_FACES] for i in range(0, len(faces), GRID_FACES)]
    cols = grid_columns(w, h, len(chunks[0])) if chunks else 1
    for n, chunk in enumerate(chunks, start=1):
        name = f"{base}-grid.png" if len(chunks) == 1 else f"{base}-grid-{n:0{len(str(len(chunks)))}d}.png"
        pictures.append((name, Picture(grid_scene(w, h, len(chunk), cols), width, comp), chunk))

    def tasks():  # each picture's faces at its own size, drawn only when handed to a worker
        for _, picture, cards in pictures:
            for start in range(0, len(cards), BATCH):
                part = cards[start:start + BATCH]
                yield _Faces(tuple(Page(w, h, tuple(comp.fronts[c.index]), comp.name) for c in part),
                             tuple(_label(comp, c) for c in part), picture.card_px)

    count = sum(math.ceil(len(cards) / BATCH) for _, _, cards in pictures)
    order = iter([(name, picture, len(cards)) for name, picture, cards in pictures])
    name, picture, wanted = next(order, (None, None, 0))
    written: list[str] = []
    with closing(imagepool.stream(tasks(), _render, imagepool.workers_for(count, workers))) as results:
        for images in results:
            for image in images:
                picture.add(image)
                if picture.added == wanted:
                    picture.save(folder, name)
                    written.append(name)
                    name, picture, wanted = next(order, (None, None, 0))
    return written
