"""Parts told apart only by colour: each component's distinct faces, as drawn (the rendered trim box,
averaged over CELL_MM cells), compared in pairs in CAM02-UCS under normal vision and under simulated
protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, full severity, through
colorspacious, MIT). Two faces that differ under normal vision (somewhere by more than DIFFER) but
nowhere by more than COLLAPSE under a simulation are told apart only by colours that collapse for
players with that deficiency."""
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
COLLAPSE = 5.0    # ΔE: everywhere under this, two faces look the same (a just-noticeable difference is about 1-2)
MAX_FACES = 400   # faces compared per component (the first in kit order)
KINDS = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}
RULE = ("a component's parts are told apart by more than colour: simulated protanopia, deuteranopia and "
        "tritanopia (Machado et al. 2009, colorspacious) keep every two faces apart by at least "
        f"{COLLAPSE:g} ΔE CAM02-UCS (docs/print.md, Preflight)")


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
            crop = raster.crop((p.x, p.y, p.x + p.w, p.y + p.h))
            if crop.size == 0:
                continue
            size = (max(1, round(p.w / CELL_MM)), max(1, round(p.h / CELL_MM)))
            cells = np.asarray(Image.fromarray(crop).resize(size, Image.Resampling.BOX))
            faces[p.face] = (cells, sc.where(p.x, p.y, i), card_label(comp, p, "front"))


def collapsed(faces: Faces) -> list[Finding]:
    """A FAIL for each pair of faces of one component that differ under normal vision and collapse
    under a simulated deficiency (see the module docstring)."""
    from colorspacious import cspace_convert
    found = []
    for name, got in faces.by_component.items():
        shapes: dict[tuple, list[int]] = {}
        for k, (cells, _w, _l) in got.items():
            shapes.setdefault(cells.shape, []).append(k)
        for keys in shapes.values():
            if len(keys) < 2:
                continue
            rgb = np.stack([got[k][0] for k in keys]).astype(np.float64) / 255.0
            normal = cspace_convert(rgb, "sRGB1", "CAM02-UCS")
            for kind, cvd in KINDS.items():
                sim = np.clip(cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1"),
                              0, 1)
                seen = cspace_convert(sim, "sRGB1", "CAM02-UCS")
                for i in range(len(keys) - 1):
                    ds = _max_delta(seen[i + 1:], seen[i])
                    for j in np.nonzero(ds < COLLAPSE)[0]:
                        dn = float(_max_delta(normal[i + 1 + j][None], normal[i])[0])
                        if dn > DIFFER:
                            a, b = got[keys[i]], got[keys[i + 1 + j]]
                            found.append((FAIL, a[1], f"{name}: {a[2]} and {b[2]} ({b[1].describe()}) differ only in "
                                                      f"colours that collapse under {kind}: ΔE {dn:.0f} for normal "
                                                      f"vision, at most {ds[j]:.1f} simulated"))
    return listed(found, RULE, "no two faces of a component are told apart only by colours that collapse under "
                               "simulated protanopia, deuteranopia or tritanopia")


def _max_delta(many: np.ndarray, one: np.ndarray) -> np.ndarray:
    """The largest ΔE (Euclidean in CAM02-UCS) over the cells of each of ``many`` against ``one``."""
    d = np.sqrt(((many - one) ** 2).sum(axis=-1))
    return d.reshape(len(many), -1).max(axis=1)
