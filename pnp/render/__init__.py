"""Backends that turn imposed Pages (pnp.core.ir) into files: PDF (reportlab), SVG (svgwrite), PNG (pypdfium2), registered as output formats (pnp.render.formats)."""
