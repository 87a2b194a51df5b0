"""pnp.inputs"""
