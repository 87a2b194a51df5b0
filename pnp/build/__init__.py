"""pnp.build"""
