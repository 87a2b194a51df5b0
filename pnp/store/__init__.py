"""pnp.store"""
