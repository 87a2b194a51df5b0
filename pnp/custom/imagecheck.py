"""The pictures of template ``image`` layers: each file found inside the spec's folder and checked
before anything is drawn, and their print quality at the size they are printed.

A layer's ``src`` (after its placeholders are filled) is a path relative to the spec's folder, kept
inside it by the rule for every file a game folder names (pnp.inputs.gamefolder): a spec someone
sends you cannot make pnp read (and print) a file elsewhere on your computer. The file itself is then
checked by pnp.inputs.images.read_image (missing, not a regular file, too large, too many pixels,
truncated, not PNG/JPEG/SVG).

Print quality (docs/templates.md, "Images"): a raster picture printed at ``w`` x ``h`` mm has
``pixels / (mm / 25.4)`` dots per inch along each axis, the smaller of the two counting. Below
WARN_DPI (300) a print shows soft edges: a warning. Below the layer's ``min_dpi`` (default FAIL_DPI,
150) the picture prints visibly blurred: a failed check, which stops `pnp build`. SVG art has no dpi.
Raster icons in text (``:name:``) count too, at the cap height of their layer's largest text size.

Pictures not there yet: a layer with ``missing: placeholder`` forgives only absence (nothing at all
at the name inside the folder; a file that is there is checked as any other) and a ``src`` that is a
web address, which a build never fetches (``Absent``; pnp.custom.placeholder draws it). `pnp build`
notes them as a warning, `pnp validate` fails on them (``absent``), so no placeholder reaches a print
shop unnoticed. Without the field a web address is refused, and a missing file as read_image says.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable
from urllib.parse import unquote, urlsplit

from .. import text as typeset
from ..core.errors import SpecError
from ..core.findings import FAIL, PASS, WARN, Finding
from ..inputs.gamefolder import inside
from ..inputs.images import FAIL_DPI, WARN_DPI, ImageFacts, read_image

RULE = "docs/templates.md, Images: pictures at 300 dpi or more at their printed size, never below the layer's min_dpi"
SHOWN = 5        # pictures named in one finding
ROWS_SHOWN = 3   # rows named per picture
MAX_SRC_CHARS = 1024  # a picture's path
MAX_PICTURE_BYTES = 1024 ** 3  # the distinct picture files of one component, together: each is embedded once
ABSENT_SHOWN = 3  # pictures not there yet named in one finding
WEB = re.compile(r"https?://", re.IGNORECASE)  # from here on a src is a web address (a cell may be one), never fetched
ABSENT_RULE = ("docs/templates.md, Images: missing: placeholder prints a placeholder until the picture is in the "
               "game folder; a kit for a print shop has none")


def resolve_src(text: str, spec_dir: Path) -> Path:
    """The file ``text`` names, inside ``spec_dir`` by the rule for every file a game folder names
    (pnp.inputs.gamefolder.inside); a missing file is returned for read_image to report.

    Raises:
        SpecError: control characters or over MAX_SRC_CHARS characters, an absolute path, a ``..``
            part, a path that leads out of ``spec_dir`` (through a symlink) or a symlink loop, or not a
            regular file; the caller adds where ``text`` came from.
    """
    if len(text) > MAX_SRC_CHARS:
        raise SpecError(f"image {text[:40]!r}... is not a file name (over {MAX_SRC_CHARS} characters).",
                        hint="name the picture relative to the spec, e.g. art/x.png")
    return inside(text, spec_dir, what="image", must_exist=False)


@dataclass(frozen=True)
class Absent:
    """A picture a ``missing: placeholder`` layer names that is not there: ``shown`` (the src as
    filled in), ``label`` (what its placeholder prints: the file's name, or a web address's last
    path part) and ``web`` (True for a web address)."""
    shown: str
    label: str
    web: bool = False


def web_label(url: str) -> str:
    """The last part of a web address's path ('https://x.org/art/card-12.png?v=2' -> 'card-12.png'),
    percent-escapes decoded; the host when the path has none; '' when neither can be read."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    name = unquote(parts.path.rstrip("/").rsplit("/", 1)[-1])
    return (name or parts.hostname or "").strip()


def load_picture(text: str, spec_dir: Path, record: Callable[[Path], None] | None = None,
                 missing: str = "error") -> ImageFacts | Absent:
    """The checked picture ``text`` names (resolve_src, then read_image, the files SVG art references
    kept inside ``spec_dir``); its path is passed to ``record`` before it is read, so `pnp watch`
    rebuilds when a missing or broken file is fixed. With ``missing`` "placeholder", an Absent for a
    web address and for a name with nothing at it inside the folder (every other file is checked
    as without it).

    Raises:
        SpecError: a web address (without ``missing`` "placeholder": a build never downloads); see
            resolve_src and pnp.inputs.images.read_image (the message names the file).
    """
    web = WEB.search(text) if len(text) <= MAX_SRC_CHARS else None
    if web is not None:
        url = text[web.start():]
        if missing == "placeholder":
            return Absent(url, web_label(url), web=True)
        raise SpecError(f"image {url!r} is a web address, and pnp never downloads during a build.",
                        field="src", hint="download the picture into the game folder and name it relative to the "
                        "spec (e.g. art/card-12.png), or set missing: placeholder on the layer until then")
    path = resolve_src(text, spec_dir)
    if record is not None:
        record(path)
    if missing == "placeholder" and not os.path.lexists(path):  # only absence: a dangling link is read below
        return Absent(text, PurePosixPath(text).name)
    try:
        return read_image(path, field="src", root=spec_dir)
    except SpecError as exc:
        raise SpecError(f"image {text!r}: {exc.message}", file=path, field="src", hint=exc.hint) from None


def printed_size(size: tuple[float, float], box_w: float, box_h: float, fit: str) -> tuple[float, float]:
    """The size in mm a picture of intrinsic ``size`` (any unit) is printed at in a box_w x box_h mm
    box: ``contain`` fits it inside, ``cover`` fills the box (the overflow is clipped off), ``stretch``
    is the box."""
    if fit == "stretch":
        return box_w, box_h
    iw, ih = size
    scale = (min if fit == "contain" else max)(box_w / iw, box_h / ih)
    return iw * scale, ih * scale


@dataclass
class PictureUse:
    """One picture file drawn by one layer: ``shown`` (the src as filled in), the printed ``size`` in
    mm, its ``dpi`` (None for SVG), the layer's ``min_dpi`` and the data ``rows`` that draw it."""
    label: str
    shown: str
    facts: ImageFacts
    size: tuple[float, float]
    dpi: float | None
    min_dpi: float
    rows: list[int] = field(default_factory=list)

    def describe(self, least: bool = False) -> str:
        """'art/x.png printed 40.0 x 30.0 mm at 120 dpi (front.yaml layer 3 (image), rows 2, 5)';
        with ``least``, the layer's minimum after the dpi."""
        rows = _rows(self.rows)
        return (f"{self.shown} printed {self.size[0]:.1f} x {self.size[1]:.1f} mm at {self.dpi:.0f} dpi"
                f"{f' (min_dpi {self.min_dpi:g})' if least else ''} ({self.label}{rows})")


@dataclass
class AbsentUse:
    """One picture not there yet (``absent``, an Absent), the ``layers`` that name it (their labels),
    through the data ``column`` (None: the first layer's own src), in the data ``rows``."""
    absent: Absent
    column: str | None
    layers: list[str] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)

    def describe(self) -> str:
        """'art/x.png (front.yaml layer 3 (image), column picture, rows 2, 5)'; a web address says so."""
        where = ", ".join(self.layers) + (f", column {self.column}" if self.column else "") + _rows(self.rows)
        if self.absent.web:
            return f"{self.absent.shown} (a web address: download it into the game folder and name the file; {where})"
        return f"{self.absent.shown} ({where})"


def _rows(rows: list[int]) -> str:
    if not rows:
        return ""
    more = f" and {len(rows) - ROWS_SHOWN} more" if len(rows) > ROWS_SHOWN else ""
    return f", row{'s' if len(rows) > 1 else ''} {', '.join(map(str, rows[:ROWS_SHOWN]))}{more}"


def scan(rows, paths, faces) -> tuple[list[PictureUse], list[AbsentUse]]:
    """Every picture each row draws (``rows``: Row or None; ``paths``: each row's (front, back)
    template; ``faces``: template path -> bound Face), checked before anything is drawn; and the
    pictures not there yet that ``missing: placeholder`` layers print placeholders for.

    Raises:
        SpecError, DataError: a bad ``src`` or picture file, naming the data file, row, column and
            layer; the distinct files together over MAX_PICTURE_BYTES, naming the row that passed it.
    """
    uses: dict[tuple[int, Path], PictureUse] = {}
    absent: dict[str, AbsentUse] = {}
    sizes: dict[Path, int] = {}
    # the layers that may print a picture: image layers, and text layers that read :icon: marks
    drawing = {path: [layer for layer in face.layers if layer.src is not None or (
        layer.text is not None and layer.place.layer.markup and layer.ctx.icons is not None)]
        for path, face in faces.items()}
    if not any(drawing.values()):  # no layer of any template prints a picture: no row is read
        return [], []
    for row, pair in zip(rows, paths):
        values = row.values if row is not None else {}
        for path in pair:
            if path is None:
                continue
            for layer in drawing[path]:
                if layer.show is not None and not layer.show(values):
                    continue
                if layer.text is not None:
                    _icons(layer, values, row, uses)
                    continue
                if layer.src is None:
                    continue
                facts = layer.picture(values, row)
                if facts is None:
                    continue
                if isinstance(facts, Absent):
                    _absent(layer, facts, row, absent)
                    continue
                if facts.path not in sizes:
                    sizes[facts.path] = facts.path.stat().st_size
                    if sum(sizes.values()) > MAX_PICTURE_BYTES:
                        _too_much(layer, row, len(sizes))
                use = uses.get((id(layer), facts.path))
                if use is None:
                    L = layer.place.layer
                    _x, _y, w, h = layer.box
                    size = printed_size(facts.size, *((h, w) if L.rotate in (90, 270) else (w, h)), L.fit)
                    use = uses[id(layer), facts.path] = PictureUse(layer.place.label, layer.src.fill(values).strip(),
                                                                   facts, size, facts.dpi_at(*size), L.min_dpi)
                if row is not None and row.number not in use.rows:
                    use.rows.append(row.number)
    return list(uses.values()), list(absent.values())


def _absent(layer, got: Absent, row, absent: dict[str, AbsentUse]) -> None:
    """Add that ``layer`` prints a placeholder for ``got`` on ``row`` to ``absent`` (by the picture)."""
    use = absent.get(got.shown)
    if use is None:
        use = absent[got.shown] = AbsentUse(got, layer.src.columns[0] if layer.src.columns else None)
    if layer.place.label not in use.layers:
        use.layers.append(layer.place.label)
    if row is not None and row.number not in use.rows:
        use.rows.append(row.number)


def _icons(layer, values: dict, row, uses: dict) -> None:
    """Add the raster icons (``:name:``, pnp.custom.icons) a text layer prints for ``row`` to
    ``uses``, each at its largest printed size: the cap height of the layer's ``size`` (fitting only
    shrinks text, so the real dpi is this or more). The text's markup is parsed as drawing parses it,
    so a bad mark or unknown icon stops here too, before anything is drawn."""
    L, icons = layer.place.layer, layer.ctx.icons
    if icons is None or layer.unmarked:
        return
    text = layer.text.fill(values)
    if not text.strip() or not typeset.has_markup(text, True):
        return
    column = layer.text.columns[0] if layer.text.columns else None
    for para in layer.rich(text, row, column, icons):
        for span in para:
            if span.icon is None:
                continue
            facts = read_image(Path(span.icon.src), field="icons",
                               root=Path(span.icon.root) if span.icon.root else None)
            if not facts.raster:
                continue
            _adv, w, h = typeset.icon_size(span, L.size)
            use = uses.get((id(layer), facts.path))
            if use is None:
                use = uses[id(layer), facts.path] = PictureUse(f"{layer.place.label}, icon :{span.icon.name}:",
                                                               f"{facts.path.name}", facts, (w, h),
                                                               facts.dpi_at(w, h), FAIL_DPI)
            if row is not None and row.number not in use.rows:
                use.rows.append(row.number)


def _too_much(layer, row, count: int) -> None:
    message = (f"the {count:,} picture files named so far hold over {MAX_PICTURE_BYTES // 1024 ** 3} GiB "
               f"(limit for one component; {layer.place.label}).")
    hint = "save the pictures smaller: 300 dpi at their printed size is enough"
    table = layer.ctx.table
    if row is None or table is None:
        raise SpecError(message, file=layer.place.file, line=layer.place.line_of("src"), field="src", hint=hint)
    column = layer.src.columns[0] if layer.src.columns else None
    raise table.error(row.number, column, message, hint, field="src")


def _named(uses: list[PictureUse], least: bool = False) -> str:
    more = f"; and {len(uses) - SHOWN} more" if len(uses) > SHOWN else ""
    return "; ".join(u.describe(least) for u in uses[:SHOWN]) + more


def quality(component: str, uses: list[PictureUse]) -> list[Finding]:
    """The print-quality findings of one component's pictures: a FAIL naming each raster below its
    layer's min_dpi, a WARN naming each below WARN_DPI, else one PASS; none without pictures."""
    if not uses:
        return []
    rasters = sorted((u for u in uses if u.dpi is not None), key=lambda u: u.dpi)
    low = [u for u in rasters if u.dpi < u.min_dpi]
    soft = [u for u in rasters if u.min_dpi <= u.dpi < WARN_DPI]
    out = []
    if low:
        out.append(Finding(FAIL, f"{component}: pictures below the lowest resolution their layer accepts (min_dpi, "
                                 f"{FAIL_DPI:g} dpi unless the layer sets it), which print blurred: "
                                 f"{_named(low, True)}", RULE))
    if soft:
        out.append(Finding(WARN, f"{component}: pictures below {WARN_DPI:g} dpi at their printed size, which a "
                                 f"print shows as soft: {_named(soft)}", RULE, build_note=True))
    if not out:
        files = len({u.facts.path for u in rasters})
        vectors = len({u.facts.path for u in uses if u.dpi is None})
        parts = []
        if rasters:
            parts.append(f"{files} raster picture{'s' if files != 1 else ''} at {WARN_DPI:g} dpi or "
                         f"more (lowest {rasters[0].dpi:.0f} dpi, {rasters[0].shown})")
        if vectors:
            parts.append(f"{vectors} SVG picture{'s' if vectors != 1 else ''} (vectors: any size)")
        out.append(Finding(PASS, f"{component}: {', '.join(parts)} at their printed size", RULE))
    return out


def absent(component: str, missing: list[AbsentUse], fail: bool) -> list[Finding]:
    """The finding naming the pictures not there yet that ``component`` prints placeholders for (the
    first ABSENT_SHOWN, with layers, column and rows): a FAIL with ``fail`` (`pnp validate`), else a
    warning `pnp build` prints as a note; none when every picture is there."""
    if not missing:
        return []
    count, web = len(missing), sum(u.absent.web for u in missing)
    more = f"; and {count - ABSENT_SHOWN} more" if count > ABSENT_SHOWN else ""
    what = (f"{component}: {count} picture{'s' if count != 1 else ''} not in the game folder"
            f"{'' if not web else ' (1 a web address)' if web == 1 else f' ({web} web addresses)'}, printed as "
            "placeholders: " + "; ".join(u.describe() for u in missing[:ABSENT_SHOWN]) + more)
    return [Finding(FAIL, what, ABSENT_RULE) if fail else Finding(WARN, what, ABSENT_RULE, build_note=True)]
