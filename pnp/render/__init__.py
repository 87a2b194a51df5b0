"""Backends that turn imposed Pages (pnp.ir) into files: PDF (reportlab), SVG (svgwrite), PNG (pypdfium2), registered as writers."""
