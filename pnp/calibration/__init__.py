"""Duplex calibration: the sheet's machine-readable marks (targets), finding them in a photo or two
scans (measure), and the printers whose offsets were measured (printers)."""
