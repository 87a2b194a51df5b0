"""Shared board geometry: hex grids (axial coordinates) and square grids."""
