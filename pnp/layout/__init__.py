"""Imposition: placing components on sheets (N-up grids, crop marks, duplex backs, poster tiling)."""
