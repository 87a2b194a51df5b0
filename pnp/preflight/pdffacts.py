"""Facts only the PDF file holds, read from its objects and content streams with pikepdf (MPL-2.0):
whether the kit is CMYK (an OutputIntent, or any DeviceCMYK colour or picture), RGB colours and
pictures in it (forms included), every font that is not embedded (the base-14 fonts among them),
the CMYK colours it paints and the ink of every CMYK picture it places (for pnp.preflight.ink).
Places are where the colour, font or picture is first used: the content stream's current point (a
picture's top-left corner) mapped through its transformation matrices, in page mm."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.units import MM_PER_PT

BASE14 = {"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica", "Helvetica-Bold",
          "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold", "Times-Italic",
          "Times-BoldItalic", "Symbol", "ZapfDingbats"}
MAX_OPS = 5_000_000  # content-stream operators read in one kit (forms counted once each)
MAX_TAC = 400        # % : four inks at 100 %; a picture's coverage histogram has one bin per whole percent


@dataclass
class Use:
    """Something used at page ``page`` (1-based), (``x``, ``y``) mm from the top-left corner: ``what``;
    for a font, ``shown``: it sets glyphs (a font only selected, with no text shown, prints nothing)."""
    page: int
    x: float
    y: float
    what: str
    shown: bool = True


@dataclass
class PictureInk:
    """A CMYK picture placed at ``use`` (its top-left corner), ``area_mm2`` on the page, and
    ``histogram``: how many of its pixels have each total area coverage, 0..MAX_TAC % in whole percent
    (a numpy int array of MAX_TAC + 1 bins)."""
    use: Use
    area_mm2: float
    histogram: object


@dataclass
class PdfFacts:
    """What a kit's PDF holds: ``cmyk`` and ``why`` (the OutputIntent or the first CMYK colour),
    ``rgb`` (RGB colours and pictures, each first use per page and form), ``fonts`` (fonts not
    embedded, first use per page), ``cmyk_colours`` (every CMYK colour painted, 0..1 each),
    ``pictures`` (every placement of a CMYK picture, with its ink)."""
    cmyk: bool = False
    why: str = ""
    rgb: list[Use] = field(default_factory=list)
    fonts: list[Use] = field(default_factory=list)
    cmyk_colours: set[tuple[float, float, float, float]] = field(default_factory=set)
    pictures: list[PictureInk] = field(default_factory=list)
    inks: dict = field(default_factory=dict)  # an image object's (objgen) coverage histogram, made once


def read_facts(pdf: Path) -> PdfFacts:
    """The facts of ``pdf`` (see PdfFacts)."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    facts = PdfFacts()
    with pikepdf.open(pdf) as doc:
        intents = doc.Root.get("/OutputIntents")
        if intents:
            facts.cmyk, facts.why = True, "the PDF has an OutputIntent"
        budget = [MAX_OPS]
        for number, page in enumerate(doc.pages, 1):
            height = float(page.mediabox[3]) - float(page.mediabox[1])
            _Reader(facts, number, height, budget).read(page.obj, page.Resources if "/Resources" in page.obj else {},
                                                        (1, 0, 0, 1, 0, 0), set())
    return facts


def _mul(m, n):
    """The matrix ``m`` (a PDF cm: [a b c d e f]) applied after ``n``."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


class _Reader:
    def __init__(self, facts: PdfFacts, page: int, height: float, budget: list[int]) -> None:
        self.facts, self.page, self.height, self.budget = facts, page, height, budget
        self.fonts_seen: dict[object, Use | None] = {}
        self.rgb_seen: set[str] = set()

    def mm(self, m, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = m
        px, py = a * x + c * y + e, b * x + d * y + f
        return px * MM_PER_PT, (self.height - py) * MM_PER_PT

    def rgb(self, key: str, m, x: float, y: float, what: str) -> None:
        if key not in self.rgb_seen:
            self.rgb_seen.add(key)
            self.facts.rgb.append(Use(self.page, *self.mm(m, x, y), what))

    def cmyk(self, values, what: str) -> None:
        if values is not None:
            self.facts.cmyk_colours.add(tuple(float(v) for v in values))
        if not self.facts.cmyk:
            self.facts.cmyk, self.facts.why = True, f"{what} on page {self.page}"

    def read(self, obj, resources, ctm, forms: set) -> None:
        import pikepdf  # pikepdf: imported when first needed, never at start-up
        stack, m = [], ctm
        pending_rgb: str | None = None   # an RGB colour set, placed at the next path or text
        font: Use | None = None  # the font selected, when it is not embedded
        spaces = {"fill": "DeviceGray", "stroke": "DeviceGray"}
        tm = (1, 0, 0, 1, 0, 0)
        for ins in pikepdf.parse_content_stream(obj):
            self.budget[0] -= 1
            if self.budget[0] < 0:
                return
            op, args = str(ins.operator), list(ins.operands)
            if op == "q":
                stack.append(m)
            elif op == "Q" and stack:
                m = stack.pop()
            elif op == "cm":
                m = _mul(tuple(float(v) for v in args), m)
            elif op in ("rg", "RG"):
                pending_rgb = f"RGB colour {op} {' '.join(f'{float(v):g}' for v in args)}"
            elif op in ("k", "K"):
                self.cmyk(args, f"CMYK colour {op}")
            elif op in ("cs", "CS"):
                spaces["fill" if op == "cs" else "stroke"] = self._space(resources, args[0])
            elif op in ("sc", "scn", "SC", "SCN"):
                space = spaces["fill" if op in ("sc", "scn") else "stroke"]
                if space == "DeviceRGB":
                    pending_rgb = f"RGB colour {op} {' '.join(f'{float(v):g}' for v in args)}"
                elif space == "DeviceCMYK" and len(args) == 4:
                    self.cmyk(args, f"CMYK colour {op}")
            elif op in ("re", "m") and pending_rgb:
                self.rgb(pending_rgb + f"@{id(obj)}", m, float(args[0]), float(args[1]), pending_rgb)
                pending_rgb = None
            elif op == "Tf":
                font = self._font(resources, str(args[0]), _mul(tm, m))
            elif op == "Tm":
                tm = tuple(float(v) for v in args)
            elif op in ("Tj", "TJ", "'", '"'):
                at = _mul(tm, m)
                if pending_rgb:
                    self.rgb(pending_rgb + f"@{id(obj)}", at, 0, 0, pending_rgb + " (text)")
                    pending_rgb = None
                if font is not None and not font.shown:
                    font.shown, (font.x, font.y) = True, self.mm(at, 0, 0)
            elif op == "Do":
                self._xobject(resources, str(args[0]), m, forms)

    def _space(self, resources, name) -> str:
        """The family of colour space ``name``: DeviceRGB (an RGB space: device or ICC with 3
        components), DeviceCMYK, or another."""
        text = str(name)
        if text in ("/DeviceRGB", "/DeviceCMYK"):
            return text[1:]
        space = (resources.get("/ColorSpace") or {}).get(text) if hasattr(resources, "get") else None
        return _family(space)

    def _font(self, resources, name: str, at) -> Use | None:
        """The font ``name`` selected at ``at``, recorded (not yet shown) when it is not embedded."""
        fonts = resources.get("/Font") if hasattr(resources, "get") else None
        font = fonts.get(name) if fonts is not None else None
        if font is None:
            return None
        key = font.objgen if font.is_indirect else name
        if key in self.fonts_seen:
            return self.fonts_seen[key]
        self.fonts_seen[key] = None
        base = str(font.get("/BaseFont", "?")).lstrip("/")
        descriptor = font.get("/FontDescriptor")
        if font.get("/Subtype") == "/Type0" and font.get("/DescendantFonts"):
            descriptor = font.DescendantFonts[0].get("/FontDescriptor")
        embedded = descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        if embedded:
            return None
        kind = "a base-14 font, " if base.split("+")[-1] in BASE14 else ""
        use = Use(self.page, *self.mm(at, 0, 0), f"font {base} ({kind}not embedded)", shown=False)
        self.facts.fonts.append(use)
        self.fonts_seen[key] = use
        return use

    def _xobject(self, resources, name: str, m, forms: set) -> None:
        xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
        x = xobjects.get(name) if xobjects is not None else None
        if x is None:
            return
        if x.get("/Subtype") == "/Form":
            key = (x.objgen, m)
            if key in forms:
                return
            forms.add(key)
            matrix = tuple(float(v) for v in x.get("/Matrix", (1, 0, 0, 1, 0, 0)))
            self.read(x, x.get("/Resources", resources), _mul(matrix, m), forms)
        elif x.get("/Subtype") == "/Image":
            family = _family(x.get("/ColorSpace"))
            if family == "DeviceRGB":
                size = f"{x.get('/Width')} x {x.get('/Height')} px"
                self.rgb(f"image {x.objgen}", m, 0, 1, f"RGB picture {name} ({size})")
            elif family == "DeviceCMYK":
                self.cmyk(None, f"CMYK picture {name}")
                self.picture(x, name, m)

    def picture(self, x, name: str, m) -> None:
        """Record a CMYK picture drawn with the matrix ``m`` (the unit square onto the page)."""
        hist = self.facts.inks.get(x.objgen)
        if hist is None:
            hist = self.facts.inks[x.objgen] = _ink_histogram(x)
        if hist is None:
            return
        a, b, c, d = m[:4]
        what = f"CMYK picture {name} ({x.get('/Width')} x {x.get('/Height')} px)"
        self.facts.pictures.append(PictureInk(Use(self.page, *self.mm(m, 0, 1), what),
                                              abs(a * d - b * c) * MM_PER_PT ** 2, hist))


def _ink_histogram(x):
    """The coverage histogram of the CMYK image XObject ``x`` (see PictureInk), decoded with pikepdf
    (a /Decode of 1 0 inverts the inks, as Adobe's CMYK JPEGs have it); None when it cannot be decoded."""
    import numpy as np  # numpy: imported when first needed, never at start-up
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    try:
        image = pikepdf.PdfImage(x).as_pil_image()
    except Exception:  # pikepdf's decoders raise several types; an undecodable picture is not measured
        return None
    if image.mode != "CMYK":
        return None
    inks = np.asarray(image, dtype=np.uint16).reshape(-1, 4)
    decode = x.get("/Decode")
    if decode is not None and len(decode) >= 2 and float(decode[0]) > float(decode[1]):
        inks = 255 - inks
    tac = (inks.sum(axis=1) * 100 + 127) // 255
    return np.bincount(np.minimum(tac, MAX_TAC), minlength=MAX_TAC + 1)


def _family(space) -> str:
    """DeviceRGB, DeviceCMYK, DeviceGray or Other for a colour space object (a name, an ICCBased
    array by its component count, an Indexed array by its base)."""
    import pikepdf  # pikepdf: imported when first needed, never at start-up
    if space is None:
        return "Other"
    if isinstance(space, pikepdf.Name):
        return {"/DeviceRGB": "DeviceRGB", "/DeviceCMYK": "DeviceCMYK", "/DeviceGray": "DeviceGray"}.get(str(space),
                                                                                                     "Other")
    if isinstance(space, pikepdf.Array) and len(space) >= 2:
        kind = str(space[0])
        if kind == "/ICCBased":
            return {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}.get(int(space[1].get("/N", 0)), "Other")
        if kind == "/Indexed":
            return _family(space[1])
    return "Other"
