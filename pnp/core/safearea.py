"""The safe area: the line ``safe`` mm inside a part's trim that text (and art that does not bleed)
keeps inside, so a slightly off cut takes nothing that matters (docs/print.md). The one rule, for a
designer's template text boxes (pnp.custom.checks) and for the drawn parts a print service takes
(pnp.checks.safearea).
"""
from __future__ import annotations

from .outline import box_inset

SAFE_MM = 3.0  # text keeps this far inside the trim unless a print service says otherwise (docs/print.md)
EDGE_EPS = 1e-6  # mm: a box this little past the safe line is on it


def insets(box: tuple[float, float, float, float], width: float, height: float,
           round_part: bool = False, outline: tuple = ()) -> dict[str, float]:
    """How far inside the trim of a ``width`` x ``height`` mm part the box (x0, y0, x1, y1), mm in the
    part's coordinates, keeps at each edge (negative: past the trim): {"left", "top", "right",
    "bottom"}; for a round part (a circle of diameter ``width``) {"rim": from its farthest corner};
    for a shaped part (its cut ``outline``, pnp.core.outline) {"outline": the least distance from the
    box to the outline, negative when the box reaches past it}."""
    if outline:
        return {"outline": box_inset(box, outline)}
    x0, y0, x1, y1 = box
    if round_part:
        r = width / 2
        far = max(((x - r) ** 2 + (y - height / 2) ** 2) ** 0.5 for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))
        return {"rim": r - far}
    return {"left": x0, "top": y0, "right": width - x1, "bottom": height - y1}


def past_safe_line(edges: dict[str, float], safe: float) -> tuple[str, float] | None:
    """Of ``edges`` (insets(), or some of them), the edge where a box reaches farthest past the line
    ``safe`` mm inside the trim and by how many mm; None when it stays inside the safe area."""
    if not edges:
        return None
    edge = min(edges, key=edges.get)
    by = safe - edges[edge]
    return (edge, by) if by > EDGE_EPS else None
