"""`pnp validate --preflight`: a kit's drawn pages checked as a print shop and a player would check
them (ink coverage, small text, thin lines, low-resolution pictures, colour spaces, fonts, safe area,
bleed, text contrast, colour-vision deficiency), each finding naming the component, card, page and
place in mm. Reads what pnp.render wrote; no renderer imports it.
"""
