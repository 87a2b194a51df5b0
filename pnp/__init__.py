"""pnp: a print-and-play kit compiler. YAML specs plus code in, print-ready PDF and SVG sheets out."""
__version__ = "0.1.0"
