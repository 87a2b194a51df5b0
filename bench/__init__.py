"""pnp benchmarks: `python -m bench`. Never part of the test suite."""
