"""Backends that turn imposed Pages (pnp.ir) into files: PDF (reportlab) and SVG (svgwrite)."""
