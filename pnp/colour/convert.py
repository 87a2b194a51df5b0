"""sRGB to DeviceCMYK through a press profile (LittleCMS, Pillow's ImageCms): colours and pictures.

- **Neutral colours are black ink only.** A colour whose red, green and blue are equal (black, the
  greys) becomes C0 M0 Y0 K(1 - value): black text and thin black lines are 100 % K, never the
  four-colour black of about 290 % every press profile makes of #000000 (which misregisters on small
  type; docs/print.md). Large black areas stay K only too (a rich black is allowed there, not needed).
- **Other colours** go through the profile with relative colorimetric intent and black-point
  compensation, each distinct colour once (kept per profile).
- **Pictures** go through the same transform (an embedded RGB ICC profile is honoured as the source,
  else sRGB is assumed); greyscale pictures become black ink only. The alpha channel is returned
  apart, to be kept as the image's soft mask (pnp.render.pdfpost), so a transparent picture is
  composited by the viewer or RIP onto whatever is really behind it.
"""
from __future__ import annotations

import io

from reportlab.lib.colors import CMYKColor, toColor

from .press import Press

INTENT_NAME = "relative colorimetric, black-point compensation"


def _transform(press: Press, source: bytes | None = None):
    """The sRGB (or ``source`` ICC bytes, an RGB profile) to CMYK transform for ``press``, built once."""
    key = ("transform", source)
    cache = press._cache
    if key not in cache:
        from PIL import ImageCms  # Pillow: imported when first needed, never at start-up
        src = ImageCms.createProfile("sRGB") if source is None else ImageCms.ImageCmsProfile(io.BytesIO(source))
        cache[key] = ImageCms.buildTransform(src, press.cms_profile(), "RGB", "CMYK",
                                             renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                             flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return cache[key]


def cmyk_of(press: Press, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
    """The CMYK (0 to 1 each) of an sRGB colour (0 to 255 each): K only for neutrals, else through
    the profile; each colour computed once per profile."""
    colours = press._cache.setdefault("colours", {})
    got = colours.get(rgb)
    if got is None:
        r, g, b = rgb
        if r == g == b:
            got = (0.0, 0.0, 0.0, round(1 - r / 255, 4))
        else:
            from PIL import Image, ImageCms  # Pillow: imported when first needed, never at start-up
            px = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _transform(press)).getpixel((0, 0))
            got = tuple(round(v / 255, 4) for v in px)
        colours[rgb] = got
    return got


def colour_enforcer(press: Press):
    """A callable for reportlab's public ``Canvas(enforceColorSpace=...)``: every colour the canvas
    (and its text objects, and svglib drawings drawn on it) is asked to set, returned as CMYK.
    CMYK colours pass unchanged; a colour object keeps its alpha (as reportlab's own colours do)."""

    def enforce(value):
        if isinstance(value, CMYKColor) or (isinstance(value, (tuple, list)) and len(value) == 4):
            return value
        if isinstance(value, (tuple, list)):
            r, g, b, alpha = *value, None
        else:
            c = toColor(value)
            if isinstance(c, CMYKColor):
                return c
            r, g, b, alpha = c.red, c.green, c.blue, getattr(c, "alpha", None)
        cmyk = cmyk_of(press, (round(r * 255), round(g * 255), round(b * 255)))
        return cmyk if alpha is None else CMYKColor(*cmyk, alpha=alpha)
    return enforce


def cmyk_picture(press: Press, image):
    """``image`` (a PIL image of any mode) as (a mode "CMYK" image, its alpha as a mode "L" image or
    None). Greyscale becomes K only; RGB goes through the profile (from the image's own ICC profile
    when it has an RGB one, else from sRGB); CMYK is kept as it is."""
    from PIL import Image, ImageChops, ImageCms  # Pillow: imported when first needed, never at start-up
    alpha, source = None, image.info.get("icc_profile")
    mode = image.mode
    if mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    elif mode in ("1", "I", "I;16", "F"):
        image = image.convert("L")
    elif mode not in ("L", "LA", "RGB", "RGBA", "CMYK"):
        image = image.convert("RGBA" if "A" in mode else "RGB")
    if image.mode in ("LA", "RGBA"):
        alpha = image.getchannel("A")
        image = image.convert(image.mode[:-1])
    if image.mode == "CMYK":
        return image, alpha
    if image.mode == "L":
        zero = Image.new("L", image.size, 0)
        return Image.merge("CMYK", (zero, zero, zero, ImageChops.invert(image))), alpha
    if source and source[16:20] != b"RGB ":
        source = None
    try:
        transform = _transform(press, source)
    except (OSError, ImageCms.PyCMSError):  # an embedded profile LittleCMS cannot read: assume sRGB
        transform = _transform(press)
    return ImageCms.applyTransform(image, transform), alpha
