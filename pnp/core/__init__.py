"""pnp.core"""
