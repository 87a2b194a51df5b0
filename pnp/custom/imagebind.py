"""An image layer bound to a data table (pnp.custom.draw.BoundLayer): its ``src`` filled in per
row, each picture file checked once per build (pnp.custom.imagecheck), drawn in its box (or a
placeholder for a picture not there yet). Lengths in mm.
"""
from __future__ import annotations

from pathlib import Path

from ..core.errors import SpecError
from ..core.ir import Group, Image
from ..inputs.images import ImageFacts
from .layers import BoundLayer, Context, Filler
from .imagecheck import Absent, load_picture
from .placeholder import placeholder
from .table import Row
from .template import Placed


class BoundImage(BoundLayer):
    """``type: image``: the picture's Filler (``src``) and the pictures checked so far, by file name.

    Raises:
        SpecError: ``bleed: true`` on a turned picture.
    """

    def __init__(self, place: Placed, ctx: Context):
        super().__init__(place, ctx)
        layer = place.layer
        self.src = Filler(layer.src, place.file, place.line_of("src"), "src", ctx.columns, self.data)
        self.reads.update(self.src.columns)
        self._pictures: dict[str, ImageFacts] = {}
        if layer.bleed and layer.rotate:
            raise SpecError(f"{place.label}: bleed: true grows an unturned picture past the trim; this one is "
                            f"turned {layer.rotate} degrees.", file=place.file, line=place.line_of("bleed"),
                            field="bleed", hint="save the picture turned and drop rotate:, or drop bleed:")

    def picture(self, values: dict, row: Row | None) -> ImageFacts | Absent | None:
        """The checked picture file an image layer draws for ``row`` (None when a column its ``src``
        names is empty, or it fills in empty: no picture on that part; an Absent, drawn as a
        placeholder, for one not there yet with ``missing: placeholder``); each file is checked once per build.

        Raises:
            SpecError, DataError: see pnp.custom.imagecheck.load_picture, naming the data file, row,
                column and this layer; its ``inputs`` holds the picture's path, which `pnp watch`
                then watches, so adding the missing file rebuilds.
        """
        text = self.src.fill(values).strip()
        if not text or any(not values.get(c, "").strip() for c in self.src.columns):
            return None
        facts = self._pictures.get(text)
        if facts is None:
            column = self.src.columns[0] if self.src.columns else None
            try:
                facts = self._pictures[text] = load_picture(text, self.ctx.spec_dir or Path("."), self.ctx.record,
                                                            self.place.layer.missing)
            except SpecError as exc:
                err = self._data_error(None if column is None else row, column, exc.message, exc.hint, "src")
                err.inputs = (Path(exc.file),) if exc.file else ()  # `pnp watch` waits for the file too
                raise err from None
        return facts

    def draw(self, values, row, out) -> None:
        facts = self.picture(values, row)
        if facts is None:
            return
        L, (x, y, w, h) = self.place.layer, self.box
        bw, bh = (h, w) if L.rotate in (90, 270) else (w, h)
        bx, by = (x, y) if L.rotate == 0 else (-bw / 2, -bh / 2)  # a turned box is drawn about its centre
        drawn = (placeholder(bx, by, bw, bh, facts.label) if isinstance(facts, Absent)
                 else (Image(bx, by, bw, bh, str(facts.path), L.fit, bleed=L.bleed, root=facts.root),))
        if L.rotate == 0:
            out.extend(drawn)
        else:
            out.append(Group(drawn, dx=x + w / 2, dy=y + h / 2, rotate=float(L.rotate)))
