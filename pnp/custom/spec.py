"""The spec of a data-driven game: its header, its components and its declared rules checks.

A data-driven spec has no ``game:`` key (or ``game: custom``); see docs/templates.md for every field.
Lengths are mm (any ``Length``: 63, "63mm", "2.5in"); a component's ``size`` may also be a named
standard size (STANDARD_SIZES). Strings that name a template or a number of copies may hold
``{column}`` placeholders, filled from each data row.

Limits (checked when the spec is read): at most MAX_COMPONENTS components, MAX_CHECKS checks and
MAX_FONTS declared fonts.
"""
# Annotations are evaluated where written (no `from __future__ import annotations`): pydantic builds
# each model from them without eval()-ing one string per field.

import re
from pathlib import PurePath
from typing import Annotated, Any, Literal, Union

from pydantic import BeforeValidator, Field, model_validator

from ..engine.declared import MAX_CHECKS, CountCheck, DeclaredCheck as _Check
from ..inputs.delimiters import DELIMITERS
from ..inputs.weburl import url_problem
from ..inputs.specfields import (BoundedLength, Count, FieldError, Flag, Items, Length, OptionalLength, SpecBase,
                                 SpecModel)
from ..core.units import parse_length
from ..geometry.shapes import hex_problem, polygon_problem
from ..geometry.standee import PLAY
from .languages import LANGUAGE, MAX_LANGUAGES

MAX_COMPONENTS = 50
MAX_COPIES = 1000  # copies of one row (or of a component without data)
MAX_FONTS = 16  # fonts one spec declares

STANDARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "mini-us": (41.0, 63.0), "mini-euro": (44.0, 68.0),
    "tarot": (70.0, 120.0), "square": (70.0, 70.0),
}
"""Named card sizes (width, height) in mm: poker 2.5 x 3.5 in and bridge 2.25 x 3.5 in (the sizes print
services' templates are made for, e.g. The Game Crafter's 825 x 1125 px poker card at 300 dpi with
1/8 in bleed), mini-US, mini-Euro and tarot as the print-and-play field names them (shared/PRINT.md)."""

SLEEVES: dict[str, tuple[float, float]] = {
    "standard": (66.0, 91.0), "bridge": (59.0, 91.0), "mini-us": (44.0, 67.0), "mini-euro": (47.0, 71.0),
    "tarot": (73.0, 123.0), "square": (73.0, 73.0),
}
"""Named card sleeves by their outer size (width, height) in mm, as sleeve makers sell them for the
named card sizes above (a sleeve is 2 to 3 mm wider and taller than its card); any other is [w, h]."""
SLEEVE_THICKNESS = 0.1  # mm a sleeve adds to a card's thickness: two films of about 50 micrometres
CARD_THICKNESS = 0.3    # mm: a card of the card stock pnp asks for (200-300 g/m2 is 0.25-0.35 mm thick)
MIN_THICKNESS, MAX_THICKNESS = 0.05, 3.0  # mm: thin paper to thick greyboard

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,40}$")
BUILT_IN_FONT = "Noto Sans"  # the face a text layer without font: is set in (pnp.core.fonts)


def _size(value: Any) -> Any:
    """A named size, one length (a square, or a circle's diameter) or [width, height]."""
    if isinstance(value, str) and value.strip().lower() in STANDARD_SIZES:
        return STANDARD_SIZES[value.strip().lower()]
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise FieldError("must be [width, height]", "write e.g. size: [63mm, 88mm], or a name: "
                             + ", ".join(STANDARD_SIZES))
        return tuple(value)
    try:
        side = parse_length(value)
    except ValueError:
        raise FieldError("is neither a length nor a named size", "write a length such as 30mm, [63mm, 88mm], "
                         f"or one of: {', '.join(STANDARD_SIZES)}") from None
    return (side, side)


def _sleeves(value: Any) -> Any:
    """A named sleeve (SLEEVES) or [width, height] (or [width, height, thickness added]) in mm."""
    if isinstance(value, str) and value.strip().lower() in SLEEVES:
        return (*SLEEVES[value.strip().lower()], SLEEVE_THICKNESS)
    if isinstance(value, (list, tuple)) and len(value) in (2, 3):
        return tuple(value) if len(value) == 3 else (*value, SLEEVE_THICKNESS)
    raise FieldError("is neither a named sleeve nor [width, height]",
                     "write e.g. sleeves: standard, or sleeves: [66mm, 91mm] (the sleeve's outer size), or "
                     f"[66mm, 91mm, 0.2mm] with the thickness it adds; the names: {', '.join(SLEEVES)}")


def _inside(value: Any) -> Any:
    """A folder inside the spec's folder: a relative path with no ``..`` part."""
    if not isinstance(value, str) or not value.strip() or len(value) > 255 or any(ord(c) < 32 for c in value):
        raise FieldError("must be a folder name", "write a folder beside the spec, e.g. icons")
    path = PurePath(value)
    if path.is_absolute() or value.startswith("~") or ".." in path.parts:
        raise FieldError("must be a folder inside the spec's folder (no absolute path, no ..)",
                         "keep the icons beside the spec, e.g. icons: icons")
    return value


def _column_name(value: Any) -> Any:
    if not isinstance(value, str) or not value.strip() or len(value) > 100 or re.search(r"[{}\x00-\x1f]", value):
        raise FieldError("must be a column name of 1 to 100 characters, without braces or control characters",
                         "write e.g. columns: [name, text, copies]")
    return value.strip()


def _component_name(value: Any) -> Any:
    if not isinstance(value, str) or not _NAME.match(value):
        raise FieldError("must be 1 to 41 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
                         "name the component e.g. card or word card")
    return value


def _copies(value: Any) -> Any:
    """A whole number 0..MAX_COPIES, or one placeholder naming the column that holds it."""
    if isinstance(value, str) and re.fullmatch(r"\s*\{[^{}]+\}\s*", value):
        return value.strip()
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COPIES:
        raise FieldError(f"must be a whole number from 0 to {MAX_COPIES} or a placeholder such as '{{copies}}'",
                         "write how many of each part to print, or name the column holding it: copies: '{copies}'")
    return value


_FONTS_EXAMPLE = "fonts: {Title: fonts/Title.ttf}"


def _fonts(value: Any) -> Any:
    """``{Name: path}`` with at most MAX_FONTS entries (each checked by _font_name and _font_path)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FieldError("must map font names to font files", f"write e.g. {_FONTS_EXAMPLE}")
    if len(value) > MAX_FONTS:
        raise FieldError(f"declares {len(value)} fonts (limit {MAX_FONTS})", "declare only the fonts the templates use",
                         quote=False)
    return value


def _font_name(value: Any) -> Any:
    """A declared font's name: 1 to 41 letters, digits, spaces, '.', '_' or '-', not the built-in font's."""
    if not isinstance(value, str) or not _NAME.match(value):
        raise FieldError("a font name must be 1 to 41 letters, digits, spaces, '.', '_' or '-', starting with a "
                         "letter or digit", f"write e.g. {_FONTS_EXAMPLE}")
    if value.strip().lower() == BUILT_IN_FONT.lower():
        raise FieldError(f"{value!r} is the built-in font's name", "give your font another name, e.g. Body",
                         quote=False)
    return value


def _font_path(value: Any) -> Any:
    """A font file's path, relative to the spec (the file is read by pnp.inputs.fontfile)."""
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise FieldError("must name a .ttf or .otf file", f"write e.g. {_FONTS_EXAMPLE}")
    return value.strip()


Fonts = Annotated[dict[Annotated[str, BeforeValidator(_font_name)], Annotated[str, BeforeValidator(_font_path)]],
                  BeforeValidator(_fonts)]


Size = Annotated[tuple[Length, Length], BeforeValidator(_size)]

SHAPES = ("rect", "circle", "rounded", "hex", "polygon", "d6", "standee")
NETS = ("d6", "standee")  # shapes whose part is a folded net of several faces (pnp.custom.shaped)
D6_FACES = 6


def _languages(value: Any) -> Any:
    """A list of language codes (pnp.custom.languages.LANGUAGE), none twice."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_LANGUAGES:
        raise FieldError(f"must list 1 to {MAX_LANGUAGES} language codes", "write e.g. languages: [en, de, ar]")
    for code in value:
        if not isinstance(code, str) or not LANGUAGE.fullmatch(code):
            raise FieldError(f"holds {code!r}, which is not a language code", "write codes such as en, de, ar, hi or "
                             "pt-BR (lower-case language, as BCP 47 writes them)", quote=False)
        if value.count(code) > 1:
            raise FieldError(f"lists {code} twice", "list each language once", quote=False)
    return tuple(value)


def _url(value: Any) -> Any:
    """The web address ``pnp pull`` downloads ``data:`` from (pnp.inputs.weburl's rule)."""
    problem = url_problem(value)
    if problem is not None:
        raise FieldError(f"must be an https:// address of the sheet; {problem}",
                         "paste the sheet's share link, e.g. url: https://docs.google.com/spreadsheets/d/ID/edit#gid=0 "
                         "(docs/pull.md)")
    return value.strip()


def _delimiter(value: Any) -> Any:
    """A delimiter by its character or its name (comma, semicolon, tab, pipe) -> the character."""
    if isinstance(value, str):
        names = {v: k for k, v in DELIMITERS.items()}
        value = names.get(value.strip().lower(), value)
        if value in DELIMITERS:
            return value
    raise FieldError("must be one of comma, semicolon, tab or pipe (or the character itself: ',' ';' '|')",
                     "write e.g. delimiter: semicolon")


class ComponentSpec(SpecModel):
    """One kind of part. ``front``/``back`` name template files (placeholders choose one per row);
    ``copies`` is a whole number or a placeholder naming the column that holds it."""
    name: Annotated[str, BeforeValidator(_component_name)]
    size: Size
    shape: Literal[SHAPES] = "rect"
    radius: OptionalLength = 3.0
    """Corner radius of a rounded part, mm."""
    points: Items(tuple[tuple[OptionalLength, OptionalLength], ...], 3, 200, "a polygon has 3 to 200 points") | None = None
    """The cut outline of a ``polygon`` part: [x, y] vertices in mm from its top-left corner, in order."""
    faces: Literal["rows"] | Items(tuple[str, ...], D6_FACES, D6_FACES, "faces: names six columns") = "rows"
    """Where a ``d6``'s six faces come from: ``rows`` (each six data rows in order are one die, faces 1
    to 6) or six column names (each row is one die; face k is drawn with ``{face}`` set to the cell of
    the k-th column)."""
    data: str | None = None
    url: Annotated[str, BeforeValidator(_url)] | None = None
    """Where ``pnp pull`` downloads ``data:`` from (a Google Sheets link, or the https address of a
    .csv, .tsv, .xlsx or .ods file; pnp.pull); ``pnp build`` reads only the file."""
    sheet: str | None = None
    header_row: Count(1, 1000, "the row number of the header in its sheet (1 is the top row)") | None = None
    delimiter: Annotated[str, BeforeValidator(_delimiter)] | None = None
    """The cell separator of a .csv or .tsv (detected when absent): one of DELIMITERS."""
    columns: Items(tuple[Annotated[str, BeforeValidator(_column_name)], ...], 1, 500,
                   "columns: names 1 to 500 columns") | None = None
    """The names of the columns of a table with no header row, in order (every row is then data);
    not with header_row:."""
    copies: Annotated[int | str, BeforeValidator(_copies)] = 1
    key: str | tuple[str, ...] | None = None
    """The column (or columns, their cells joined by a space) that names each row's part across builds
    (`pnp diff`, `--reprint`); no two rows may share a key."""
    title: str | None = None
    """The column whose cell is each card's name (Tabletop Simulator's nickname, `pnp diff`'s label);
    default: a column headed ``name`` or ``title``, else the first column."""
    front: str
    back: str | None = None
    board: Flag = False
    note: str = ""
    box: Literal["tuck"] | None = None
    """``tuck``: a tuck box for the component's cards is a part of the kit (pnp.custom.tuckbox)."""
    sleeves: Annotated[tuple[Length, Length, OptionalLength], BeforeValidator(_sleeves)] | None = None
    """The sleeves the boxed cards wear: outer width, height and the thickness each adds, mm."""
    thickness: BoundedLength(MIN_THICKNESS, MAX_THICKNESS, f"write one layer of the card, e.g. thickness: "
                             f"0.3mm (card stock; {MIN_THICKNESS:g} to {MAX_THICKNESS:g} mm)") | None = None
    """One card's thickness, mm (default CARD_THICKNESS, the card stock's): with ``box: tuck`` the
    boxed cards' (the box's depth), with ``shape: standee`` the stock the figure and its base are cut
    from (the slots' widths, pnp.geometry.standee)."""
    box_template: str | None = None
    """A template drawn on the box's front and back panels (default: the component's back)."""

    @model_validator(mode="after")
    def _consistent(self):
        w, h = self.size
        if self.box is None and (self.sleeves or self.box_template or (self.thickness and self.shape != "standee")):
            raise ValueError("sleeves:, thickness: and box_template: size and print a box (thickness: also sizes a "
                             "standee's slots); add box: tuck")
        if self.box is not None and (self.board or self.shape == "circle"):
            raise ValueError("box: tuck holds a deck of cards, not a board or round parts; remove box:")
        if self.sleeves is not None and (self.sleeves[0] < w or self.sleeves[1] < h):
            raise ValueError(f"sleeves of {self.sleeves[0]:g} x {self.sleeves[1]:g} mm are smaller than the "
                             f"{w:g} x {h:g} mm card; give the sleeve's outer size")
        if self.shape == "circle" and abs(w - h) > 1e-9:
            raise ValueError(f"a circle needs one diameter, got {w:g} x {h:g} mm; write size: {w:g}mm")
        if self.shape == "rounded" and not 0 < self.radius <= min(w, h) / 2:
            raise ValueError(f"radius {self.radius:g} mm must be above 0 and at most half the shorter side "
                             f"({min(w, h) / 2:g} mm)")
        self._shaped(w, h)
        if self.data is None and (self.sheet or self.header_row or self.delimiter or self.columns or self.title
                                  or self.url):
            raise ValueError("sheet:, header_row:, delimiter:, columns:, title: and url: need data:")
        if self.url is not None and self.data.startswith("generator:"):
            raise ValueError("url: downloads a data file; a generator's table is computed, remove url:")
        if self.columns is not None and self.header_row is not None:
            raise ValueError("columns: names the columns of a table with no header row; remove header_row: or "
                             "columns:")
        if self.columns is not None and len({c.strip().casefold() for c in self.columns}) < len(self.columns):
            raise ValueError("columns: names one column twice; give each column its own name")
        if self.data is None and self.key is not None:
            raise ValueError("key: names a column of data:; add data: or remove key:")
        if self.board and self.back:
            raise ValueError("a board has no printed back; remove back:")
        return self

    def _shaped(self, w: float, h: float) -> None:
        """The checks of shape: hex, polygon, d6 and standee (pnp.geometry.shapes)."""
        problem = None
        if self.shape == "hex":
            problem = hex_problem(w, h)
        if self.shape == "polygon":
            problem = ("a polygon part needs points: its outline as [x, y] pairs in mm, e.g. points: [[0, 0], "
                       f"[{w:g}, 0], [{w / 2:g}, {h:g}]]" if self.points is None else polygon_problem(self.points, w, h))
        elif self.points is not None:
            problem = f"points: is the outline of shape: polygon, not of shape: {self.shape}; remove it"
        if self.shape == "d6" and abs(w - h) > 1e-9:
            problem = f"a d6's size is the edge of its cube, one length; got {w:g} x {h:g} mm: write size: {w:g}mm"
        if self.faces != "rows" and self.shape != "d6":
            problem = "faces: says where a d6's six faces come from; remove it, or write shape: d6"
        if self.shape == "d6" and self.back:
            problem = "a d6 has no back: its net prints its six faces on one side; remove back:"
        if self.shape == "standee" and self.thickness is not None and 2 * (2 * self.thickness + PLAY) > w:
            problem = (f"a standee's base slot takes the folded figure: 2 x thickness + {PLAY:g} mm = "
                       f"{2 * self.thickness + PLAY:g} mm, more than half the {w:g} mm figure; "
                       "give the card's own thickness or a wider figure")
        if self.board and self.shape in ("hex", "polygon") + NETS:
            problem = f"a board is cut in rectangles; shape: {self.shape} is for parts, remove board: true"
        if problem:
            raise ValueError(problem)


class PerValueCheck(_Check):
    """Each value of ``column`` (or each of ``values``) occurs on ``equals`` parts."""
    check: Literal["per_value"]
    column: str
    equals: Count(0, 10_000_000)
    values: Items(tuple[str, ...], 1, 1000) | None = None


class UniqueCheck(_Check):
    """No two rows share the values of ``columns`` (together)."""
    check: Literal["unique"]
    columns: Items(tuple[str, ...], 1, 20)


class AllowedCheck(_Check):
    """Every non-empty value of ``column`` is one of ``values``."""
    check: Literal["allowed"]
    column: str
    values: Items(tuple[str, ...], 1, 1000)


class RequiredCheck(_Check):
    """Every row has a non-empty value in each of ``columns``."""
    check: Literal["required"]
    columns: Items(tuple[str, ...], 1, 100)


class GlyphCheck(_Check):
    """Every character of every cell the component prints is in the font of the layer printing it."""
    check: Literal["glyphs"]


CheckSpec = Annotated[Union[CountCheck, PerValueCheck, UniqueCheck, AllowedCheck, RequiredCheck, GlyphCheck],
                      Field(discriminator="check")]


class CustomSpec(SpecBase):
    """A data-driven game's spec (``game:`` absent or ``custom``)."""
    game: Literal["custom"] = "custom"
    rules: str = "rules.md"
    """Rules quick-reference file (Markdown) beside the spec."""
    icons: Annotated[str, BeforeValidator(_inside)] = "icons"
    """Folder of inline icons (``:name:`` in text layers: name.svg or name.png), beside the spec."""
    name: str | None = None
    """Name of the kit folder (lower-case letters, digits, - and _); default: the spec file's name."""
    components: Items(tuple[ComponentSpec, ...], 1, MAX_COMPONENTS,
                      f"a game declares 1 to {MAX_COMPONENTS} components")
    checks: Items(tuple[CheckSpec, ...], 0, MAX_CHECKS, f"at most {MAX_CHECKS} checks") = ()
    languages: Annotated[tuple[str, ...], BeforeValidator(_languages)] = ()
    """One kit per language (pnp.custom.languages); the first keeps the kit's own folder and file names."""
    fonts: Fonts = Field(default_factory=dict)
    """Fonts by name, ``{Name: path}``: TrueType or OpenType files (paths relative to the spec) that
    text layers choose with ``font: Name``."""

    @model_validator(mode="after")
    def _names(self):
        names = [c.name for c in self.components]
        for n in names:
            if names.count(n) > 1:
                raise ValueError(f"two components are named {n!r}; give each its own name")
        for chk in self.checks:
            if chk.component not in names:
                raise ValueError(f"a {chk.check} check names component {chk.component!r}; the components are "
                                 f"{', '.join(names)}")
        return self
