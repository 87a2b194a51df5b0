"""pnp's own generators, one plug-in per game: each module or package pnp/games/<game> defines
``GAME = Game(...)`` (pnp.engine.Game), found by name by pnp.engine.plugins, so adding a game means
one module and one spec folder (copy pnp/games/_template.py).

A game never imports pnp.layout or pnp.render: it describes parts (pnp.core.ir) and checks rules; how the
parts land on paper, and whether a board fits a sheet, is layout's business (tests/test_layering.py).
"""
