"""Checks of drawn parts, run by plan() before anything is written: what a renderer must never decide.

``safearea``: the text and pictures of the parts a print service takes, against its safe area
(`pnp validate --service`, and the notes of `pnp build --format pod`). pnp.checks imports pnp.core,
pnp.inputs and pnp.layout only; plan() calls it, no renderer does (tests/test_layering.py).
"""
