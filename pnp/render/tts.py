"""What Tabletop Simulator shows for a hidden card (pnp.render.tts_save writes the save file)."""
from __future__ import annotations

from ..core.ir import Component, Rect, Text


def hidden_face(comp: Component):
    """The face TTS shows for a hidden card: the component's back, or a grey card with a '?'."""
    if comp.back is not None:
        return comp.back
    return (Rect(0, 0, comp.width, comp.height, fill="#777777", stroke=None),
            Text(comp.width / 2, comp.height / 2, "?", size_pt=comp.height, anchor="middle", valign="middle",
                 fill="#ffffff"))
