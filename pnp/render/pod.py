"""Print-on-demand files (``--format pod --service NAME``): what a card printing service takes.

Per card-like component (rectangular, not a board), in ``pod/``:

- ``<stem>-<service>-<part>-NNN.png``: one RGB PNG per distinct face, and ``…-back.png`` for the
  common back, each at the service's resolution with its bleed included: (trim + 2 x bleed) x dpi
  pixels (a 63.5 x 88.9 mm poker card is 825 x 1125 px for The Game Crafter);
- ``<stem>-<service>-<part>.pdf``: one page per physical card (faces x copies), the page being the
  card plus its bleed, TrimBox = the card, BleedBox = the page (DriveThruCards: back then front of
  each card, the order its upload form asks for; the others: the faces, then the back once);
- ``<stem>-<service>-<part>-contact.png`` (``…-contact-N.png``, CONTACT_FACES faces each, when there
  are more): every distinct face and the back as thumbnails with the
  trim line (blue) and the service's safe area (green) drawn on them, to check by eye that nothing
  that matters crosses it.

Artwork marked ``bleed=True`` is extended into the bleed (pnp.layout.bleed). The services' figures
and their sources are in docs/print.md ("Print-on-demand services"); SERVICES holds them.
"""
from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from contextlib import closing
from typing import Callable

from PIL import Image, ImageDraw

from ..core.errors import PnpError, SpecError
from ..core.ir import Component, Drawing, Group, Page, Placement
from ..core.safepath import checked_path, open_write
from ..core.units import parse_length
from ..layout.bleed import extend_for_bleed
from . import imagepool, png
from .pdf import PdfWriter

MM_PER_IN = 25.4


@dataclass(frozen=True)
class Service:
    """A print service's card rules: ``dpi``, ``bleed`` past the trim and ``safe`` margin inside it
    (both mm, each side), and whether its PDF interleaves each card's back and front (``back_first``)."""
    name: str
    title: str
    dpi: int
    bleed: float
    safe: float
    back_first: bool = False

    def pixels(self, width: float, height: float) -> tuple[int, int]:
        """(w, h) pixels of a card of ``width`` x ``height`` mm with its bleed, at ``dpi``."""
        return (round((width + 2 * self.bleed) / MM_PER_IN * self.dpi),
                round((height + 2 * self.bleed) / MM_PER_IN * self.dpi))


SERVICES = {
    # 1/8 in bleed and 1/8 in safe margin at 300 dpi: TGC's poker-card template, 825 x 1125 px
    "tgc": Service("tgc", "The Game Crafter", 300, 3.175, 3.175),
    # 36 px at 300 dpi (0.12 in) bleed and a further 36 px safe margin: MPC's upload FAQ, 822 x 1122 px poker
    "mpc": Service("mpc", "MakePlayingCards", 300, 36 / 300 * MM_PER_IN, 36 / 300 * MM_PER_IN),
    # 1/8 in bleed, nothing important within 1/8 in of the trim, 300 dpi, back then front per card
    "drivethru": Service("drivethru", "DriveThruCards", 300, 3.175, 3.175, back_first=True),
    # PrinterStudio is MakePlayingCards' retail shop with the same upload sizes (see docs/print.md)
    "printerstudio": Service("printerstudio", "PrinterStudio", 300, 36 / 300 * MM_PER_IN, 36 / 300 * MM_PER_IN),
}
CUSTOM = re.compile(r"custom:([^,]+),([^,]+),([^,]+)\Z")


def parse_service(value: str) -> Service:
    """``--service``: a name in SERVICES, or ``custom:DPI,BLEED,SAFE`` (e.g. ``custom:300,3mm,2mm``;
    dpi 72-1200, bleed 0-10 mm, safe margin 0-20 mm).

    Raises:
        SpecError: naming the option, the bad part and the accepted forms.
    """
    hint = f"use {', '.join(SERVICES)}, or custom:DPI,BLEED,SAFE such as custom:300,3mm,3mm"
    text = value.strip().lower()
    if text in SERVICES:
        return SERVICES[text]
    m = CUSTOM.match(text)
    if not m and text.startswith("custom:"):
        raise SpecError(f"--service {value[:60]!r} is not custom:DPI,BLEED,SAFE (three values, separated by commas).",
                        field="--service", hint=hint)
    if not m:
        raise SpecError(f"unknown print service {value[:40]!r}.", field="--service", hint=hint)
    if not m.group(1).strip().isdigit():
        raise SpecError(f"--service {value[:60]!r}: the dpi {m.group(1).strip()[:20]!r} is not a whole number.",
                        field="--service", hint=hint)
    try:
        dpi = int(m.group(1))
        bleed, safe = parse_length(m.group(2).strip()), parse_length(m.group(3).strip())
    except ValueError as exc:
        raise SpecError(f"--service {value[:60]!r}: {exc}.", field="--service", hint=hint) from None
    if not 72 <= dpi <= 1200 or not 0 <= bleed <= 10 or not 0 <= safe <= 20:
        raise SpecError(f"--service {value[:60]!r}: dpi must be 72-1200, bleed 0-10 mm and safe margin 0-20 mm.",
                        field="--service", hint=hint)
    return Service("custom", f"custom ({dpi} dpi, {bleed:g} mm bleed, {safe:g} mm safe)", dpi, bleed, safe)


def why_not(comp: Component, service: Service | None = None) -> str | None:
    """Why a card service cannot take ``comp`` (None when it can): boards and round parts are not
    cards, nor are shaped parts (``shape`` "polygon": a hexagon or other outline, a die's or a
    standee's or a box's net), which a card service would cut as a rectangle: pnp writes only the
    services' card files (a card with rounded corners is a card: the services round the corners when
    they cut). ``service`` names the service in the reason."""
    if comp.board:
        return "a board, not a card"
    if comp.shape == "circle":
        return "round: card services print rectangular cards"
    if comp.shape == "polygon":
        who = service.title if service is not None else "a print service"
        what = ("a folded net, cut and scored along its outline" if comp.folds
                else f"cut along its outline of {len(comp.cut_shape.points)} sides")
        return f"{what}: pnp writes only {who}'s card files, and a card is cut as a rectangle"
    return None


MAX_PIXELS = 60_000_000  # one card image
CONTACT_FACES = 120
"""Faces on one contact sheet (6 x 20 thumbnails, about 1,500 x 7,000 px at most): a longer deck gets
several, so memory does not grow with the deck."""


def check_size(comp: Component, service: Service) -> None:
    """Refuse a card whose image would be absurdly large (a 2 m part at 1200 dpi).

    Raises:
        SpecError: naming the component, its size in pixels and the limit.
    """
    w, h = service.pixels(comp.width, comp.height)
    if w * h > MAX_PIXELS:
        raise SpecError(f"{comp.name}: {w} x {h} px at {service.dpi} dpi is over {MAX_PIXELS / 1e6:.0f} megapixels.",
                        field="--service", hint="use a lower dpi (custom:DPI,BLEED,SAFE)")


def card_page(drawing: Drawing, comp: Component, service: Service) -> Page:
    """One card as a page of card + bleed: artwork moved in by the bleed and extended into it,
    TrimBox = the card, BleedBox = the page."""
    b = service.bleed
    art = extend_for_bleed(tuple(drawing), comp.width, comp.height, b)
    w, h = comp.width + 2 * b, comp.height + 2 * b
    return Page(w, h, (Group(art, dx=b, dy=b),), comp.name, trim_box=(b, b, comp.width, comp.height),
                bleed_box=(0.0, 0.0, w, h), placements=(Placement(comp.name, b, b, comp.width, comp.height),))


BATCH = 16
"""Faces drawn per task: one in-memory PDF rendered by PDFium. Fixed, so the files do not depend on the
number of workers."""


@dataclass(frozen=True)
class _Faces:
    """What a worker needs to draw some faces: their pages, file names and labels (for errors), the
    image and thumbnail sizes in pixels, the folder and dpi written into the PNGs."""
    pages: tuple[Page, ...]
    names: tuple[str, ...]
    labels: tuple[str, ...]
    px: tuple[int, int]
    thumb: tuple[int, int]
    folder: Path
    dpi: int


def faces_pdf(pages, labels) -> bytes:
    """One in-memory PDF of ``pages`` (pnp.render.pdf), for PDFium to render.

    Raises:
        PnpError: a page cannot be drawn, the message starting with its label.
    """
    buf = io.BytesIO()
    writer = PdfWriter(buf)
    for page, label in zip(pages, labels):
        try:
            writer.add(page)
        except PnpError as exc:
            raise type(exc)(f"{label}: {exc.message}", file=exc.file, line=exc.line, field=exc.field,
                            hint=exc.hint) from None
    writer.close()
    return buf.getvalue()


def render_exact(page, px: tuple[int, int]):
    """A pypdfium2 page rendered at ``px`` pixels' width, bytes in R, G, B order (a pypdfium2 bitmap).
    PDFium's bitmap is ceil(size x scale) pixels, so the scale is set a hair under ``px``'s width: the
    bitmap is exactly ``px`` when the page's aspect is ``px``'s (a card with its bleed at the
    service's dpi); callers check the height."""
    return page.render(scale=(px[0] - 1e-6) / page.get_size()[0], may_draw_forms=True, rev_byteorder=True)


def _exact_image(page, px: tuple[int, int], crop: bool = False) -> Image.Image:
    """``page`` as an RGB PIL image of exactly ``px`` pixels: when PDFium's bitmap is a pixel off,
    resampled with LANCZOS, or with ``crop`` (thumbnails) cut or padded at the bottom."""
    img = render_exact(page, px).to_pil()
    if img.size == px:
        return img
    return img.crop((0, 0, *px)) if crop and abs(img.height - px[1]) <= 1 else img.resize(px, Image.LANCZOS)


def _draw_faces(task: _Faces) -> list[Image.Image]:
    """Render the task's pages, write each as an RGB PNG of exactly ``px`` pixels (pnp.render.png);
    return their thumbnails for the contact sheet, each rendered by PDFium at ``thumb`` pixels (run in
    a worker process or in this one).

    Raises:
        PnpError: a face cannot be drawn, the message naming the part and card first.
    """
    import pypdfium2 as pdfium  # pypdfium2: imported when first needed, never at start-up
    doc = pdfium.PdfDocument(faces_pdf(task.pages, task.labels))
    thumbs = []
    try:
        for i, name in enumerate(task.names):
            pg = doc[i]
            bitmap = render_exact(pg, task.px)
            if (bitmap.width, bitmap.height) == task.px:
                data = png.encode(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, 3, task.dpi)
            else:
                data = png.encode_image(_exact_image(pg, task.px), task.dpi)
            del bitmap
            with open_write(task.folder, name) as fh:  # through pnp.core.safepath: nothing below the folder is followed
                fh.write(data)
            thumbs.append(_exact_image(pg, task.thumb, crop=True))
            pg.close()
    finally:
        doc.close()
    return thumbs


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9_]+", "-", name.lower()).strip("-") or "part"


class ContactSheet:
    """The contact sheet of ``count`` faces of ``px`` pixels each, built as they are made: each face
    pasted as a thumbnail with the trim (blue) and safe area (green) drawn; none is kept."""

    def __init__(self, count: int, px: tuple[int, int], comp: Component, service: Service,
                 thumb_width: int = 240, columns: int = 6) -> None:
        w_px, h_px = px
        scale = thumb_width / w_px
        self.thumb = (thumb_width, max(1, round(h_px * scale)))
        self.pad, self.cols, self.added, self.count = 12, min(columns, count), 0, count
        rows = math.ceil(count / self.cols)
        self.sheet = Image.new("RGB", (self.pad + self.cols * (thumb_width + self.pad),
                                       self.pad + rows * (self.thumb[1] + self.pad)), (128, 128, 128))
        self.px_per_mm = w_px / (comp.width + 2 * service.bleed) * scale
        self.service = service

    def add(self, thumb: Image.Image) -> None:
        """Paste the next face's thumbnail (``self.thumb`` pixels: the face rendered at that size)."""
        (tw, th), pad, i = self.thumb, self.pad, self.added
        x, y = pad + (i % self.cols) * (tw + pad), pad + (i // self.cols) * (th + pad)
        self.sheet.paste(thumb, (x, y))
        draw = ImageDraw.Draw(self.sheet)
        service = self.service
        for inset, colour in ((service.bleed, (0, 90, 255)), (service.bleed + service.safe, (0, 170, 0))):
            d = inset * self.px_per_mm
            draw.rectangle((round(x + d), round(y + d), round(x + tw - d) - 1, round(y + th - d) - 1),
                           outline=colour, width=1)
        self.added += 1

    def save(self, fh) -> None:
        """Write the sheet as an RGB PNG to the binary file object ``fh``."""
        fh.write(png.encode_image(self.sheet))


def write_component(comp: Component, service: Service, folder: Path, stem: str, workers: int | None = None,
                    on_written: Callable[[Path], None] | None = None, press=None, pdfx: bool = False) -> list[Path]:
    """Write the PNGs, per-card PDF and contact sheet of one card-like component; return the paths.

    The faces are drawn in order, BATCH at a time, only as fast as ``workers`` processes (None: every
    core, pnp.render.imagepool) turn them into PNGs, each PNG written as soon as it is made
    (``on_written(path)`` is then called, in face order): memory stays flat in the number of cards,
    and the files are the same whatever the number of workers. ``press`` and ``pdfx``: the per-card
    PDF's colour (pnp.render.pdf.PdfWriter); the PNGs stay sRGB.

    Raises:
        SpecError: the image would be too large (check_size).
        PnpError: a face cannot be drawn, naming the part and card (nothing more is written).
    """
    check_size(comp, service)
    folder.mkdir(parents=True, exist_ok=True)
    base = f"{stem}-{service.name}-{_slug(comp.name)}"
    px = service.pixels(comp.width, comp.height)
    n = len(comp.fronts)
    digits = max(3, len(str(n)))
    names = [f"{base}-{i + 1:0{digits}d}.png" for i in range(n)] + [f"{base}-back.png"] * (comp.back is not None)
    sheets = math.ceil(len(names) / CONTACT_FACES)
    sheet_names = [f"{base}-contact.png"] if sheets == 1 else \
        [f"{base}-contact-{k + 1:0{len(str(sheets))}d}.png" for k in range(sheets)]
    contact = ContactSheet(min(CONTACT_FACES, len(names)), px, comp, service)

    def label(i: int) -> str:
        if i == n:
            return f"{comp.name}, back"
        title = f" ({comp.titles[i]})" if i < len(comp.titles) else ""
        return f"{comp.name}, card {i + 1}{title}"

    def tasks():  # each face drawn only when its batch is handed to a worker
        for start in range(0, len(names), BATCH):
            idx = range(start, min(start + BATCH, len(names)))
            yield _Faces(tuple(card_page(comp.fronts[i] if i < n else comp.back, comp, service) for i in idx),
                         tuple(names[i] for i in idx), tuple(label(i) for i in idx), px, contact.thumb, folder,
                         service.dpi)

    written: list[Path] = []
    workers = imagepool.workers_for(math.ceil(len(names) / BATCH), workers)
    with closing(imagepool.stream(tasks(), _draw_faces, workers)) as results:
        for thumbs in results:
            for thumb in thumbs:
                path = folder / names[len(written)]
                contact.add(thumb)
                written.append(path)
                if on_written:
                    on_written(path)
                if contact.added == contact.count:  # a full sheet is written, then dropped
                    with open_write(folder, sheet_names[(len(written) - 1) // CONTACT_FACES]) as fh:
                        contact.save(fh)
                    contact = ContactSheet(max(1, min(CONTACT_FACES, len(names) - len(written))), px, comp, service)
    back = card_page(comp.back, comp, service) if comp.back is not None else None
    pdf_path = checked_path(folder, f"{base}.pdf")
    pdf = PdfWriter(pdf_path, title=f"{comp.name} for {service.title}", part_boxes=True, press=press, pdfx=pdfx)
    for face in range(n):
        page = card_page(comp.fronts[face], comp, service)
        for _ in range(comp.copies):
            if service.back_first and back is not None:
                pdf.add(back)
            pdf.add(page)
    if back is not None and not service.back_first:
        pdf.add(back)
    pdf.close()
    written.append(pdf_path)
    return written + [folder / name for name in sheet_names]
