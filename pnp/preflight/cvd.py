"""Parts told apart only by colour: each component's distinct faces, as drawn (the rendered trim box,
averaged over CELL_MM cells), compared in pairs in CAM02-UCS under normal vision and under simulated
protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, full severity, through
colorspacious, MIT). Two faces that differ under normal vision (somewhere by more than DIFFER) but,
over the cells where they differ, by less than COLLAPSE on average and EDGE_COLLAPSE at most under a
simulation are told apart only by colours that collapse for players with that deficiency (a
difference of shape or text stays far apart under every simulation)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from ..core.findings import FAIL, Finding
from .pixels import Raster
from .report import listed
from .scene import PageScene, Where, card_label

CELL_MM = 1.0     # faces compared on a grid of 1 mm cells
DIFFER = 10.0     # ΔE (CAM02-UCS): two faces visibly differ somewhere
COLLAPSE = 5.0    # ΔE: on average over the cells where they differ, under this two faces look the same
EDGE_COLLAPSE = 10.0  # ΔE: and nowhere over this (anti-aliased edges mix each colour with the background,
                      # which sets such cells up to about twice the solid colours' distance apart)
MAX_FACES = 400   # faces compared per component (the first in kit order)
KINDS = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}
RULE = ("a component's parts are told apart by more than colour: simulated protanopia, deuteranopia and "
        "tritanopia (Machado et al. 2009, colorspacious) keep every two faces apart by at least "
        f"{COLLAPSE:g} ΔE CAM02-UCS on average where they differ (docs/print.md, Preflight)")


@dataclass
class Faces:
    """The faces collected so far: per component, face index -> (cells (h, w, 3) uint8, where, label)."""
    by_component: dict[str, dict[int, tuple[np.ndarray, Where, str]]] = field(default_factory=dict)

    def add(self, sc: PageScene, raster: Raster) -> None:
        """Collect the front faces of this page not seen yet."""
        if sc.page.side != "front":
            return
        for i, p in enumerate(sc.placements):
            comp = sc.component(i)
            if comp is None or comp.board or p.face is None or len(comp.fronts) < 2:
                continue
            faces = self.by_component.setdefault(p.name, {})
            if p.face in faces or len(faces) >= MAX_FACES:
                continue
            crop = raster.part(p)
            if crop.size == 0:
                continue
            size = (max(1, round(p.w / CELL_MM)), max(1, round(p.h / CELL_MM)))
            cells = np.asarray(Image.fromarray(crop).resize(size, Image.Resampling.BOX))
            faces[p.face] = (cells, sc.where(p.x, p.y, i), card_label(comp, p, "front"))


def collapsed(faces: Faces) -> list[Finding]:
    """A FAIL for each pair of faces of one component that differ under normal vision and collapse
    under a simulated deficiency (see the module docstring)."""
    from colorspacious import cspace_convert  # colorspacious: imported when first needed, never at start-up
    found = []
    for name, got in faces.by_component.items():
        shapes: dict[tuple, list[int]] = {}
        for k, (cells, _w, _l) in got.items():
            shapes.setdefault(cells.shape, []).append(k)
        for keys in shapes.values():
            if len(keys) < 2:
                continue
            rgb = np.stack([got[k][0] for k in keys]).astype(np.float64) / 255.0
            normal = cspace_convert(rgb, "sRGB1", "CAM02-UCS").reshape(len(keys), -1, 3)
            seen = {kind: cspace_convert(np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd,
                                                                      "severity": 100}, "sRGB1"), 0, 1),
                                         "sRGB1", "CAM02-UCS").reshape(len(keys), -1, 3) for kind, cvd in KINDS.items()}
            for i in range(len(keys) - 1):
                dn = _delta(normal[i + 1:], normal[i])
                differ = dn > DIFFER                      # the cells where the two faces visibly differ
                count = differ.sum(axis=1)
                for kind, sim in seen.items():
                    ds = np.where(differ, _delta(sim[i + 1:], sim[i]), 0.0)
                    mean = ds.sum(axis=1) / np.maximum(count, 1)
                    for j in np.nonzero((count > 0) & (mean < COLLAPSE) & (ds.max(axis=1) < EDGE_COLLAPSE))[0]:
                        a, b = got[keys[i]], got[keys[i + 1 + j]]
                        found.append((FAIL, a[1], f"{name}: {a[2]} and {b[2]} ({b[1].describe()}) differ only in "
                                                  f"colours that collapse under {kind}: ΔE {dn[j].max():.0f} for "
                                                  f"normal vision, {mean[j]:.1f} on average simulated"))
    return listed(found, RULE, "no two faces of a component are told apart only by colours that collapse under "
                               "simulated protanopia, deuteranopia or tritanopia")


def _delta(many: np.ndarray, one: np.ndarray) -> np.ndarray:
    """ΔE (Euclidean in CAM02-UCS) of every cell of each of ``many`` (m, cells, 3) against ``one``."""
    return np.sqrt(((many - one) ** 2).sum(axis=-1))
