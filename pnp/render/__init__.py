"""Backends that turn imposed Pages (pnp.core.ir) into files: PDF (reportlab), SVG (svgwrite), PNG (pypdfium2), registered as writers."""

from . import showcase  # noqa: E402,F401  the writers' registry: --format showcase (pnp.render.showcase) registers itself
