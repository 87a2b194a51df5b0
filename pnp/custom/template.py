"""Card templates: YAML layouts of layers (rect, circle, polygon, line, text, image) in mm or % of the part.

A template file holds ``layers:`` (drawn in order, later on top) and may ``include:`` other template
files, whose layers are drawn first; ``proof: {x, y, w, h}`` sets where `--proof` stamps its parts. A layer may have a ``name`` and a later layer may ``extends:``
it, taking every field it does not set itself (a box moved, a colour changed). A template file name
resolves beside the including file, then beside the spec, then in pnp's shipped templates folder.
Every string may hold ``{column}`` placeholders (``{{`` and ``}}`` are literal braces); see
docs/templates.md for every field, unit and default.

Limits: includes nest at most MAX_DEPTH deep and a template (with its includes) has at most MAX_LAYERS
layers; a template including itself, directly or not, is refused naming the file and line. A build
expands template files at most MAX_LOADS times in all (each include counts every time it is reached,
so six templates that each include the next twenty times are refused after MAX_LOADS, not after
20^6); each file is read and parsed once per build (Loads).
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from ..core.errors import SpecError
from ..core.units import parse_length
from ..inputs.gamefolder import HINT, exists_inside, inside, name_problem, within
from ..inputs.resources import sheets_dir
from ..inputs.specfields import (BoundedFloat, FieldError, Flag, Items, Length, OptionalLength, SpecModel, load_yaml,
                                 validate_model)

MAX_DEPTH = 8
MAX_TEMPLATE_BYTES = 1024 * 1024  # one template file (the YAML reader's own bound)
MAX_LAYERS = 500
MAX_LOADS = 1000  # template files expanded per build, includes counted every time they are reached
PCT_RANGE = (-100.0, 200.0)


def shipped_dir() -> Path:
    """pnp's shared templates folder (templates/ beside templates/sheets)."""
    return sheets_dir().parent


@dataclass(frozen=True)
class Dim:
    """A coordinate: ``value`` mm, or ``value`` percent of the part's width or height when ``pct``,
    plus ``offset`` mm (written "50% - 0.1mm")."""
    value: float
    pct: bool = False
    offset: float = 0.0

    def mm(self, ref: float) -> float:
        """The coordinate in mm, for a part ``ref`` mm along this axis."""
        return (self.value * ref / 100.0 + self.offset) if self.pct else self.value


def _dim(value: Any) -> Dim:
    if isinstance(value, Dim):
        return value
    if isinstance(value, str) and "%" in value and not value.strip().endswith("%"):  # "P% + L" or "P% - L"
        pct, _, rest = value.partition("%")
        sign, length = rest.strip()[:1], rest.strip()[1:]
        if sign not in "+-" or not sign:
            raise FieldError("is not a percentage plus or minus a length", "write e.g. 50% - 0.1mm")
        offset = _dim(length.strip())
        if offset.pct:
            raise FieldError("adds two percentages", "write e.g. 50% - 0.1mm")
        return replace(_dim(pct.strip() + "%"), offset=offset.value if sign == "+" else -offset.value)
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            number = float(value.strip()[:-1])
        except ValueError:
            raise FieldError("is not a percentage", "write e.g. 50%") from None
        lo, hi = PCT_RANGE
        if not lo <= number <= hi:
            raise FieldError(f"must be between {lo:g}% and {hi:g}% of the part", "write e.g. 50%")
        return Dim(number, True)
    try:
        mm = parse_length(value)
    except ValueError as exc:
        raise FieldError(str(exc), "write a length in mm (e.g. 12, 12mm, 0.5in) or a percentage of the part (50%)")
    if abs(mm) > 2000:
        raise FieldError(f"{mm:g} mm is absurdly large (limit 2000 mm)", "write a length on the part")
    return Dim(mm)


D = Annotated[Dim, BeforeValidator(_dim)]
FULL = Dim(100.0, True)
ZERO = Dim(0.0)
HALF = Dim(50.0, True)

When = str | dict


class WhenSpec(SpecModel):
    """Show a layer when ``column`` is non-empty, equals one of ``equals``, or is none of ``not``."""
    column: str
    equals: str | list[str] | None = None
    not_: str | list[str] | None = Field(None, alias="not")


class _Layer(SpecModel):
    name: str | None = None
    extends: str | None = None
    when: str | WhenSpec | None = None


class _Paint(_Layer):
    fill: str | None = None
    stroke: str | None = None
    stroke_width: OptionalLength = 0.3
    bleed: Flag = False


class RectLayer(_Paint):
    """A rectangle, optionally with rounded corners (``radius`` mm); default: the whole part."""
    type: Literal["rect", "rounded"]
    x: D = ZERO
    y: D = ZERO
    w: D = FULL
    h: D = FULL
    radius: OptionalLength = 0.0


class CircleLayer(_Paint):
    """A circle: centre (cx, cy), radius r (% of the part's width); default: centred, touching the sides."""
    type: Literal["circle"]
    cx: D = HALF
    cy: D = HALF
    r: D = HALF


class PolygonLayer(_Paint):
    """A closed polygon through ``points`` ([x, y] pairs)."""
    type: Literal["polygon"]
    points: Items(tuple[tuple[D, D], ...], 3, 200, "a polygon has 3 to 200 points")


class LineLayer(_Layer):
    """A straight line from (x1, y1) to (x2, y2); ``dash`` is an on/off pattern in mm."""
    type: Literal["line"]
    x1: D
    y1: D
    x2: D
    y2: D
    stroke: str = "#000000"
    stroke_width: OptionalLength = 0.3
    dash: Items(tuple[Length, ...], 2, 8, "dash: on/off lengths in mm, e.g. [2, 1]") | None = None


class TextLayer(_Layer):
    """Text set in the box (x, y, w, h): ``size`` pt, shrunk down to ``min_size`` with ``fit: shrink``,
    broken on word boundaries with ``wrap: true``; with ``fit: box`` as large as the box allows (any
    size up to ``size``, one line per ``\\n``, pnp.text.fit_box). ``valign: cap-middle`` puts
    the middle of the capitals (first line's cap height to last line's baseline) on the box's middle;
    ``underline: true`` rules every line. ``rotate`` turns the box about its centre. With
    ``markup`` (the default) the text may hold ``**bold**``, ``*italic*``, ``\\n`` line breaks and
    ``:icon:`` pictures (pnp.text); ``markup: false`` prints every character as typed."""
    type: Literal["text"]
    text: str
    x: D = ZERO
    y: D = ZERO
    w: D = FULL
    h: D = FULL
    size: BoundedFloat(2, 400, "font size in points, e.g. 10") = 10.0
    min_size: BoundedFloat(2, 400, "smallest font size in points, e.g. 6") | None = None
    fit: Literal["none", "shrink", "box"] = "none"
    wrap: Flag = False
    align: Literal["start", "left", "center", "right", "end"] = "start"
    """start: left, or right in a right-to-left paragraph (Arabic, Hebrew); end: the other side."""
    valign: Literal["top", "middle", "bottom", "cap-middle"] = "top"
    bold: Flag = False
    underline: Flag = False
    colour: str = "#000000"
    rotate: Literal[0, 90, 180, 270] = 0
    line_spacing: BoundedFloat(1.0, 3.0, "line spacing as a multiple of the font size, e.g. 1.2") = 1.2
    markup: Flag = True
    font: str | None = None
    """A font the spec declares in ``fonts:``, by name; default: the built-in Noto Sans."""
    italic_font: str | None = None
    """A declared font for ``*italic*`` runs; default: Noto Sans italic, or none with ``font:``."""
    bold_font: str | None = None
    """A declared font for ``**bold**`` runs and ``bold: true``; default: Noto Sans Bold, or none with
    ``font:``."""
    bold_italic_font: str | None = None
    """A declared font for runs both bold and italic; default: Noto Sans Bold Italic, or none with ``font:``."""


class _Boxed(_Layer):
    """A layer drawn in the box (x, y, w, h); default: the whole part."""
    x: D = ZERO
    y: D = ZERO
    w: D = FULL
    h: D = FULL


class ImageLayer(_Boxed):
    """A picture file (PNG, JPEG or SVG; ``src`` beside the spec, may hold placeholders) in the box
    (x, y, w, h): ``fit`` contain, cover or stretch, always clipped to the box; ``rotate`` turns the
    box's contents clockwise about its centre. A raster printed below ``min_dpi`` dots per inch fails
    the build (below 300 it is a warning); see pnp.custom.imagecheck. ``missing``: ``error`` refuses
    a picture that is not there; ``placeholder`` prints a labelled placeholder instead (for it and for
    a web address), which `pnp build` warns of and `pnp validate` fails (pnp.custom.placeholder)."""
    type: Literal["image"]
    src: str
    fit: Literal["contain", "cover", "stretch"] = "contain"
    rotate: Literal[0, 90, 180, 270] = 0
    min_dpi: BoundedFloat(1, 300, "the lowest resolution to accept, dots per inch, e.g. 100") = 150.0
    bleed: Flag = False
    missing: Literal["error", "placeholder"] = "error"


LAYER_TYPES: dict[str, type[_Layer]] = {"rect": RectLayer, "rounded": RectLayer, "circle": CircleLayer,
                                        "polygon": PolygonLayer, "line": LineLayer, "text": TextLayer,
                                        "image": ImageLayer}


class ProofBox(SpecModel):
    """Where `pnp build --proof` stamps the kit's version on parts this template draws (pnp.layout.proof)."""
    x: D
    y: D
    w: D
    h: D

    def box(self, width: float, height: float) -> tuple[float, float, float, float]:
        """(x, y, w, h) in mm on a part ``width`` x ``height`` mm."""
        return (self.x.mm(width), self.y.mm(height), self.w.mm(width), self.h.mm(height))


class _TemplateFile(SpecModel):
    include: Items(tuple[str, ...], 0, 20, "include at most 20 templates") = ()
    layers: Items(tuple[dict, ...], 0, MAX_LAYERS, f"a template has at most {MAX_LAYERS} layers") = ()
    proof: ProofBox | None = None


@dataclass(frozen=True, eq=False)
class Placed:
    """A validated layer and where it was written: ``file`` and ``line``, ``index`` (1-based) in its file."""
    layer: Any
    file: Path
    line: int | None
    index: int
    lines: dict
    raw: dict

    def line_of(self, key: str) -> int | None:
        """The line of field ``key`` of this layer (else the layer's line)."""
        return self.lines.get((key,), self.line)

    @property
    def label(self) -> str:
        """'front.yaml layer 3 (text)'."""
        return f"{self.file.name} layer {self.index} ({self.layer.type})"


def resolve(name: str, beside: Path, spec_dir: Path, file: Path | None = None, line: int | None = None,
            field: str = "front", cell: bool = False) -> Path:
    """The template file ``name``: beside the including file, then beside the spec, then (a name
    under ``shared/``) in pnp's shared templates; each inside its own folder by the rule for every
    file a game folder names (pnp.inputs.gamefolder). A name a data cell chose (``cell``) must be
    one of the game folder's own templates.

    Raises:
        SpecError: no such template, its name is not .yaml/.yml, or it leads outside the folder,
            is not a regular file or is over MAX_TEMPLATE_BYTES.
    """
    if not name.lower().endswith((".yaml", ".yml")):
        raise SpecError(f"template {name!r} is not a .yaml file.", file=file, line=line, field=field,
                        hint="name a template file such as front.yaml")
    problem = name_problem(name)
    if problem is not None:
        raise SpecError(f"template {name!r} must name a file inside the game folder {spec_dir}; {problem}.",
                        file=file, line=line, field=field, hint=HINT)
    shared = shipped_dir()
    places = [(beside, shared if within(beside, shared) else spec_dir), (spec_dir, spec_dir)]
    if cell:
        places = [(spec_dir, spec_dir)]
    elif name.replace("\\", "/").startswith("shared/"):
        places.append((shared, shared))
    for folder, root in dict.fromkeys(places):
        if exists_inside(name, folder):
            return inside(name, root, base=folder, what="template", file=file, line=line, field=field,
                          limit=MAX_TEMPLATE_BYTES)
    if cell:
        raise SpecError(f"template {name!r} not found in the game folder {spec_dir} (a template a data cell "
                        "chooses must be one of the folder's own templates).", file=file, line=line, field=field,
                        hint="put the template in the game's folder, or name it in the spec instead of a cell")
    raise SpecError(f"template {name!r} not found beside {file.name if file else 'the spec'}"
                    f"{'' if beside == spec_dir else ' or beside the spec'}"
                    " or in pnp's shared templates (shared/...).",
                    file=file, line=line, field=field,
                    hint="check the file name, or run `pnp new` to see a working folder")


class Loads:
    """A build's template files: each parsed once (``parsed``: resolved path -> validated top level
    and its line map) and ``count``, how many times templates were expanded (at most MAX_LOADS)."""

    def proof(self, path: Path) -> ProofBox | None:
        """The ``proof:`` box of the template at ``path`` (loaded), None when it sets none. Each path
        is resolved once (a deck asks for every part)."""
        real = self._real.get(path)
        if real is None:
            real = self._real[path] = path.resolve()
        got = self.parsed.get(real)
        return got[0].proof if got else None

    def proof_box(self, path: Path, width: float, height: float) -> tuple[float, float, float, float] | None:
        """The ``proof:`` box of the template at ``path`` on a part ``width`` x ``height`` mm, as (x, y, w, h)
        mm; None when it sets none.

        Raises:
            SpecError: the box has no area or reaches outside the part (naming the template, line and field):
                the stamp would be drawn nowhere, or on the neighbouring part.
        """
        box = self.proof(path)
        if box is None:
            return None
        x, y, w, h = box.box(width, height)
        lines = self.parsed[self._real[path]][1]
        for name, bad, what in (("w", w <= 0, f"is {w:g} mm wide"), ("h", h <= 0, f"is {h:g} mm high"),
                                ("x", x < 0 or x + w > width + 1e-9,
                                 f"spans x {x:g} to {x + w:g} mm on a part {width:g} mm wide"),
                                ("y", y < 0 or y + h > height + 1e-9,
                                 f"spans y {y:g} to {y + h:g} mm on a part {height:g} mm high")):
            if bad:
                raise SpecError(f"the proof box {what}; the stamp must sit inside the part.", file=path,
                                line=lines.get(("proof", name), lines.get(("proof",))), field=f"proof.{name}",
                                hint=f"give a box inside the part's {width:g} x {height:g} mm, w and h greater "
                                     "than zero (or leave proof: out)")
        return x, y, w, h

    def __init__(self) -> None:
        self.parsed: dict[Path, tuple[_TemplateFile, dict]] = {}
        self._real: dict[Path, Path] = {}  # a template path as asked for -> resolved
        self.count = 0

    def take(self, path: Path, real: Path, where: tuple | None) -> tuple[_TemplateFile, dict]:
        """Count one expansion of ``path`` and return its parsed top level (read on first use).

        Raises:
            SpecError: the build's MAX_LOADS expansions are spent (naming the including file, line and
                field ``include``), or the file is malformed.
        """
        self.count += 1
        if self.count > MAX_LOADS:
            file, line = where or (path, None)
            raise SpecError(f"templates are loaded more than {MAX_LOADS:,} times in this build (each include counts "
                            f"every time it is reached; {path.name} was next).", file=file, line=line,
                            field="include", hint="include each template once, not many times over, and nest fewer "
                                                  "levels")
        got = self.parsed.get(real)
        if got is None:
            data, lines = load_yaml(path)
            got = self.parsed[real] = (validate_model(_TemplateFile, data, path, lines), lines)
        return got


def load_template(path: Path, spec_dir: Path, files: list[Path] | None = None, loads: Loads | None = None,
                  _chain: tuple[Path, ...] = (), _line: tuple | None = None) -> list[Placed]:
    """Every layer of the template at ``path``, includes first, validated; every file read (the
    template and its includes) is appended to ``files``. ``loads`` is the build's (one per build, so
    MAX_LOADS bounds the build); without it the bound is per call.

    Raises:
        SpecError: malformed YAML, unknown key or type, bad value (file, line and field), an include
            cycle, includes deeper than MAX_DEPTH, more than MAX_LAYERS layers, more than MAX_LOADS
            template expansions.
    """
    loads = Loads() if loads is None else loads
    real = path.resolve()
    if real in _chain:
        where = _line or (None, None)
        raise SpecError(f"template {path.name} includes itself (through {' -> '.join(p.name for p in _chain)}).",
                        file=where[0], line=where[1], field="include", hint="remove the include that loops back")
    if len(_chain) >= MAX_DEPTH:
        raise SpecError(f"templates are included more than {MAX_DEPTH} deep.", file=path, field="include",
                        hint="include fewer levels of templates")
    if files is not None and real not in loads.parsed:
        files.append(path)
    top, lines = loads.take(path, real, _line)
    out: list[Placed] = []
    for i, name in enumerate(top.include):
        line = lines.get(("include", i))
        child = resolve(name, path.parent, spec_dir, path, line, "include")
        out += load_template(child, spec_dir, files, loads, _chain + (real,), (path, line))
        _check_layers(path, out)
    named = {p.layer.name: p for p in out if p.layer.name}
    for i, raw in enumerate(top.layers):
        sub = {k[2:]: v for k, v in lines.items() if k[:2] == ("layers", i) and len(k) > 2}
        line = lines.get(("layers", i))
        raw = _extended(raw, named, path, sub.get(("extends",), line), i)
        kind = raw.get("type")
        model = LAYER_TYPES.get(kind) if isinstance(kind, str) else None
        if model is None:
            raise SpecError(f"layer {i + 1} has type {kind!r}.", file=path, line=line, field=f"layers.{i}.type",
                            hint=f"use one of: {', '.join(LAYER_TYPES)}")
        try:
            layer = validate_model(model, raw, path, sub)
        except SpecError as exc:
            exc.field = f"layers.{i}.{exc.field}" if exc.field else f"layers.{i}"
            raise
        out.append(Placed(layer, path, line, i + 1, sub, raw))
        if layer.name:
            named[layer.name] = out[-1]
    _check_layers(path, out)
    return out


def _check_layers(path: Path, out: list[Placed]) -> None:
    if len(out) > MAX_LAYERS:
        raise SpecError(f"template {path.name} has {len(out)} layers with its includes (limit {MAX_LAYERS}).",
                        file=path, field="layers", hint="split the design or include fewer templates")


def _extended(raw: dict, named: dict[str, Placed], path: Path, line: int | None, i: int) -> dict:
    """``raw`` with the fields of the layer it ``extends`` (named earlier, here or in an include) filled
    in: its own keys win; the name is not inherited.

    Raises:
        SpecError: no earlier layer has that name.
    """
    base = raw.get("extends")
    if base is None:
        return raw
    if not isinstance(base, str) or base not in named:
        names = ", ".join(named) or "none (add name: to a layer)"
        raise SpecError(f"layer {i + 1} extends {base!r}, but no earlier layer has that name.", file=path,
                        line=line, field=f"layers.{i}.extends", hint=f"name one of: {names}")
    merged = {k: v for k, v in named[base].raw.items() if k not in ("name", "extends")}
    merged.update(raw)
    return merged


_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def parse_placeholders(text: str) -> list[str | tuple[str]]:
    """``text`` as parts: literal strings and 1-tuples (column name) for each ``{column}``.

    Raises:
        ValueError: an unmatched brace or an empty placeholder (the caller names file and line).
    """
    parts: list[str | tuple[str]] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        parts.append(text[pos:m.start()])
        token = m.group(0)
        if token in ("{{", "}}"):
            parts.append(token[0])
        elif m.group(1) is not None:
            if not m.group(1).strip():
                raise ValueError("an empty placeholder {}")
            parts.append((m.group(1).strip(),))
        else:
            raise ValueError(f"an unmatched {token!r} (write {token * 2} for a literal brace)")
        pos = m.end()
    parts.append(text[pos:])
    return [p for p in parts if p != ""]
