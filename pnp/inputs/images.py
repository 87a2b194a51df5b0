"""Image files a kit draws (PNG, JPEG, SVG), checked before any page is drawn.

``read_image(path)`` refuses, with the file and field named: a missing or non-regular file, a file
over MAX_IMAGE_BYTES, an unknown format, a raster over MAX_IMAGE_PIXELS (the header is read first, so
a decompression bomb is refused before it is decoded), a truncated or corrupt raster, and an SVG that
does not parse or has no size. What it returns is what the renderers and the print-quality check
need: the kind, the intrinsic size (pixels for rasters, mm for SVG) and the file's bytes' hash.

SVG art is parsed with its references confined (``references``): an ``href`` (``<image>``, ``<use>``,
any element but ``<a>``) must be a same-document ``#id``, a PNG or JPEG ``data:`` URL (its pixels
counted against MAX_IMAGE_PIXELS like a picture's), or, with a game folder ``root``, a file inside it
by the rule of pnp.inputs.gamefolder, itself checked here (a picture's limits; an SVG it names may
reference no file in turn). Anything else (another URL, a file outside, a FIFO) is refused before
svglib reads the file, and svglib is told the same root. A size that is not finite or beyond
MAX_SVG_PT is refused as bad input.

Print quality (docs/print.md): a raster printed at ``w`` x ``h`` mm has an effective resolution of
``pixels / (mm / 25.4)`` dots per inch; below WARN_DPI a print shows it, below FAIL_DPI it is blurred.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import io
import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SpecError
from ..core.fontbook import current
from ..core.memo import active, memoised
from .gamefolder import inside
from .safefile import read_regular

MAX_IMAGE_BYTES = 32 * 1024 * 1024   # one image file
MAX_IMAGE_PIXELS = 40_000_000        # 40 MP: a 300 dpi A3 sheet is 17 MP
MAX_SVG_BYTES = 4 * 1024 * 1024
MIN_SVG_PT, MAX_SVG_PT = 0.01, 100_000.0  # SVG art's intrinsic size, each side (100,000 pt: 35 m)
WARN_DPI, FAIL_DPI = 300.0, 150.0
MM_PER_INCH = 25.4
DPI_DIGITS = 6  # a resolution is exact to a millionth of a dot per inch; float noise is below it


@dataclass(frozen=True)
class ImageFacts:
    """A checked image: ``kind`` "png", "jpeg" or "svg"; ``size`` its intrinsic size (pixels for a
    raster, mm for SVG); ``sha256`` of its bytes (images are embedded once per document by it)."""
    path: Path
    kind: str
    size: tuple[float, float]
    sha256: str
    root: str | None = None

    @property
    def raster(self) -> bool:
        return self.kind != "svg"

    def dpi_at(self, w_mm: float, h_mm: float) -> float | None:
        """Effective resolution when printed at ``w_mm`` x ``h_mm`` (the smaller of the two axes), or
        None for vector art (SVG), which has none. Rounded to DPI_DIGITS decimals: a picture of
        exactly 300 dpi at its size (750 px over 63.5 mm, 1050 px over 88.9 mm) is 300, where the
        float division alone leaves 299.99999999999994, under a 300 dpi threshold."""
        if not self.raster or w_mm <= 0 or h_mm <= 0:
            return None
        return round(min(self.size[0] * MM_PER_INCH / w_mm, self.size[1] * MM_PER_INCH / h_mm), DPI_DIGITS)


def _refuse(message: str, path: Path, field: str | None, hint: str) -> SpecError:
    return SpecError(message, file=path, field=field, hint=hint)


def read_image(path: Path, field: str | None = "image", root: Path | None = None) -> ImageFacts:
    """Check the image at ``path`` (see the module docstring); cached per file and modification time
    in the build's book (pnp.core.fontbook: what a build checked goes with it).
    ``root``: the game folder the files SVG art references must stay inside (None: it may reference
    no file).

    Raises:
        SpecError: naming the file and ``field``.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise _refuse(f"cannot read the image: {exc.strerror}.", path, field,
                      "check the file name (relative paths are beside the spec)") from None
    if not stat.S_ISREG(st.st_mode):
        raise _refuse("the image is not a regular file.", path, field, "name a PNG, JPEG or SVG file")
    if st.st_size > MAX_IMAGE_BYTES:
        raise _refuse(f"the image is {st.st_size / 2 ** 20:.0f} MiB (limit {MAX_IMAGE_BYTES // 2 ** 20} MiB).",
                      path, field, "save it smaller: 300 dpi at its printed size is enough")
    path = path if isinstance(path, Path) else Path(path)  # a LinkFree path stays one: read without links
    root_s = str(root) if root is not None else None
    if active() is not None:  # `pnp watch`: a raster is checked once per content, whatever its stamps say
        data = _bytes(path, field)
        digest = hashlib.sha256(data).hexdigest()
        if _is_raster(data):
            return memoised("picture facts", (str(path), digest),
                            lambda: _raster(path, data, digest, field), lambda _facts: 512)
        return _parse(path, data, digest, field, root_s)
    checked = current().images  # (path, modification time, size, root) -> facts, oldest first
    key = (path, st.st_mtime_ns, st.st_size, root_s)
    facts = checked.get(key)
    if facts is None:  # checked once per file, whichever field names it first (a refusal is not kept)
        data = _bytes(path, field)
        facts = _parse(path, data, hashlib.sha256(data).hexdigest(), field, root_s)
        if len(checked) >= MAX_CHECKED:
            del checked[next(iter(checked))]
        checked[key] = facts
    return facts


MAX_CHECKED = 256
"""The facts of at most this many files that passed read_image are kept (the oldest go first)."""


def _bytes(path: Path, field: str | None) -> bytes:
    try:
        return read_regular(path, MAX_IMAGE_BYTES)
    except OSError as exc:
        raise _refuse(f"cannot read the image: {exc.strerror or exc}.", path, field,
                      "name a PNG, JPEG or SVG file saved on disk") from None


def _is_raster(data: bytes) -> bool:
    return data[:8] == b"\x89PNG\r\n\x1a\n" or data[:3] == b"\xff\xd8\xff"


def _parse(path: Path, data: bytes, digest: str, field: str | None, root: str | None) -> ImageFacts:
    if _is_raster(data):
        return _raster(path, data, digest, field)
    head = data[:512].lstrip().lower()
    if head.startswith(b"<?xml") or head.startswith(b"<svg") or b"<svg" in data[:4096].lower():
        return _svg(path, data, digest, field, root)
    raise _refuse("the file is not a PNG, JPEG or SVG image.", path, field, "export the art as PNG, JPEG or SVG")


def _raster(path: Path, data: bytes, digest: str, field: str | None, what: str = "the image") -> ImageFacts:

    from PIL import Image  # Pillow: imported when first needed, never at start-up
    try:
        with Image.open(io.BytesIO(data)) as im:  # reads the header only
            kind = {"PNG": "png", "JPEG": "jpeg"}.get(im.format or "")
            w, h = im.size
            if kind is None:
                raise _refuse(f"{what}: unsupported image format {im.format}.", path, field, "use PNG or JPEG")
            if w * h > MAX_IMAGE_PIXELS:
                raise _refuse(f"{what} is {w:,} x {h:,} pixels ({w * h / 1e6:.0f} MP; limit "
                              f"{MAX_IMAGE_PIXELS / 1e6:.0f} MP).", path, field,
                              "scale it down: 300 dpi at its printed size is enough")
            im.load()  # decodes: a truncated or corrupt file fails here
    except SpecError:
        raise
    except Image.DecompressionBombError:  # Pillow's own guard, met before ours for the largest files
        raise _refuse(f"{what} has more pixels than Pillow will open (limit {MAX_IMAGE_PIXELS / 1e6:.0f} MP).",
                      path, field, "scale it down: 300 dpi at its printed size is enough") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise _refuse(f"{what} cannot be decoded ({exc}).", path, field,
                      "the file is truncated or damaged: export it again") from None
    return ImageFacts(path, kind, (float(w), float(h)), digest)


def _svg(path: Path, data: bytes, digest: str, field: str | None, root: str | None) -> ImageFacts:
    if len(data) > MAX_SVG_BYTES:
        raise _refuse(f"the SVG is {len(data) / 2 ** 20:.1f} MiB (limit {MAX_SVG_BYTES // 2 ** 20} MiB).", path, field,
                      "simplify the drawing")
    references(path, data, field, root)
    drawing = _drawing(path, data, root)
    if drawing is None or not (drawing.width > 0 and drawing.height > 0):
        raise _refuse("the SVG cannot be read or has no size (width, height or viewBox).", path, field,
                      "give the <svg> element a viewBox, or export it again")
    if not (MIN_SVG_PT <= drawing.width <= MAX_SVG_PT and MIN_SVG_PT <= drawing.height <= MAX_SVG_PT):
        raise _refuse(f"the SVG's size is {drawing.width:g} x {drawing.height:g} pt (each side must be "
                      f"{MIN_SVG_PT:g} to {MAX_SVG_PT:,.0f} pt).", path, field,
                      "give the <svg> element a real width and height, or a viewBox, and export it again")
    pt = MM_PER_INCH / 72.0
    return ImageFacts(path, "svg", (drawing.width * pt, drawing.height * pt), digest, root)


_RASTER_URL = re.compile(r"^data:image/(jpe?g|png);base64")  # the data: URLs svglib draws (its own pattern)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_HREFS = ("{http://www.w3.org/1999/xlink}href", "href")


def references(path: Path, data: bytes, field: str | None, root: str | None) -> None:
    """Check every reference of the SVG art ``data`` (the file ``path``) as the module docstring says.

    Raises:
        SpecError: naming the SVG file, ``field`` and the reference; never what a refused file holds.
    """
    from lxml import etree  # lxml: imported when first needed, never at start-up
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True,
                             recover=True)  # as svglib parses it, so both see the same references
    try:
        top = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError):
        return  # svglib cannot read it either: refused as unreadable
    if top is None:
        return
    for el in top.iter():
        if not isinstance(el.tag, str) or etree.QName(el).localname == "a":
            continue
        href = next((el.get(a) for a in _HREFS if el.get(a)), None)
        if href is None or href.startswith("#"):
            continue
        tag = f"<{etree.QName(el).localname}> href {href[:40]!r}{'...' if len(href) > 40 else ''}"
        hint = "embed the picture in the SVG (a PNG or JPEG data: URL), or keep the file in the game's folder"
        found = _RASTER_URL.match(href)
        if found:
            try:
                raw = base64.b64decode(href[found.end() + 1:], validate=False)
            except (ValueError, binascii.Error):
                raise _refuse(f"the SVG's {tag} is not a readable data: URL.", path, field, hint) from None
            _raster(path, raw, "", field, f"the picture in the SVG's {tag}")
            continue
        if _SCHEME.match(href):
            raise _refuse(f"the SVG's {tag} must be a PNG or JPEG data: URL, an #id in the same SVG or a file in "
                          "the game folder.", path, field, hint)
        if root is None:
            raise _refuse(f"the SVG's {tag} names a file; SVG art that other art references may name no file.",
                          path, field, hint)
        name = href.split("#", 1)[0]
        try:
            ref = inside(name, Path(root), base=path.parent, what=f"the SVG's <{etree.QName(el).localname}> href",
                         file=path, field=field,
                         limit=MAX_IMAGE_BYTES)
        except SpecError as exc:
            raise _refuse(exc.message, path, field, hint) from None
        read_image(ref, field, None)


def picture_bytes(facts: ImageFacts) -> bytes:
    """The bytes of the checked picture ``facts``, read again for drawing (a game folder's file
    without following links, pnp.inputs.safefile.LinkFree) and the same bytes that were checked.

    Raises:
        SpecError: the file cannot be read any more, or changed since it was checked (its sha256).
    """
    try:
        data = read_regular(facts.path, MAX_IMAGE_BYTES)
    except OSError as exc:
        raise _refuse(f"cannot read the image: {exc.strerror or exc}.", facts.path, None,
                      "do not change the game folder while a build runs") from None
    if hashlib.sha256(data).hexdigest() != facts.sha256:
        raise _refuse("the image changed while the build ran.", facts.path, None,
                      "do not change the game folder while a build runs, then build again")
    return data


def svg_drawing(facts: ImageFacts):
    """The SVG art ``facts`` as a reportlab Drawing (svglib, LGPL-3.0), in points, from its checked
    bytes (picture_bytes); None when it cannot be read (see _drawing). Kept in the build's book (64).

    Raises:
        SpecError: see picture_bytes.
    """
    return current().remember("svg drawings", facts, lambda: (_drawing(facts.path, picture_bytes(facts), facts.root),),
                              64)[0]


def _drawing(path: Path, data: bytes, root: str | None):
    """SVG bytes as a reportlab Drawing, None when they cannot be read (the same bytes are parsed
    once per build: the check and each drawing of a build share it, kept in the build's book). Entities are not resolved and
    no network is used (lxml's parser as svglib sets it up); external references outside ``root``
    (else the SVG's own folder) are not followed (svglib's ``external_reference_root``; read_image
    has checked every reference before)."""

    return current().remember("svg parsed", (path, data, root), lambda: (_parse_drawing(path, data, root),), 64)[0]


def _parse_drawing(path: Path, data: bytes, root: str | None):
    from svglib.svglib import SvgRenderer, load_svg_file  # svglib and lxml: only a kit with SVG art
    logging.getLogger("svglib").setLevel(logging.ERROR)
    try:
        tree = load_svg_file(io.BytesIO(data), resolve_entities=False)
        if tree is None:
            return None
        return SvgRenderer(str(path), external_reference_root=root or str(path.parent)).render(tree)
    except Exception:  # svglib raises many kinds of errors on bad input; all mean "cannot be read"
        return None
