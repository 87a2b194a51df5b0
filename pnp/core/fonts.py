"""The font registry: every face text may be set in, by name, with the metrics layout measures.

A face is a name (``"NotoSans"``, ``"NotoSans-Italic"``) for one TrueType file; the name is what
``pnp.core.ir.Text.font`` holds, what reportlab registers the font under, and what the SVG backend
derives its ``@font-face`` family from. Two faces are built in, both from fontpkg-noto-sans (Latin,
Greek and Cyrillic): Noto Sans regular (:data:`DEFAULT_FACE`, every text's default) and its italic
(:data:`ITALIC_FACE`), variable fonts of which reportlab, the SVG subsets and the cutter outlines
all use the default instance (wght 400, wdth 100); and their bold (:data:`BOLD_FACE`,
:data:`BOLD_ITALIC_FACE`), static wght 700 instances of the same files shipped in pnp/fonts
(made once by pnp/fonts/make_bold.py). Bold text (``Text.bold``) is set in the bold face of its
face (:func:`styled_face`): nothing is stroked to look bold. :func:`register_face` adds a face
(a designer's own TTF or OTF), from a file or from bytes already checked (``data``: no copy of
a declared font is ever written to disk), into the font book in use (pnp.core.fontbook: one per
build, so a face a build registers is gone when it ends). The built-in and fallback faces are the
same for every book: their files are installed with pnp and its font packages.

Glyph coverage and text widths are measured here per face, so a word with a glyph the face lacks is
caught before anything is drawn. Widths are in mm for a size in points, kept in the book's tables.
Line breaking is pnp.text.wrapping's.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .fontbook import current, kept
from .shaping import Glyph, ink_extent, needs_shaping, shape
from .units import pt_to_mm

FONT_NAME = "NotoSans"
FONT_FAMILY = "Noto Sans"
CAP_HEIGHT = 0.714  # Noto Sans cap height, as a fraction of the em
DEFAULT_FACE = FONT_NAME
ITALIC_FACE = "NotoSans-Italic"
BOLD_FACE = "NotoSans-Bold"
BOLD_ITALIC_FACE = "NotoSans-BoldItalic"
_BOLD_OF = {DEFAULT_FACE: BOLD_FACE, ITALIC_FACE: BOLD_ITALIC_FACE}
_FACE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,62}")
_FAMILY = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]{0,62}")  # written into SVG font-family values as is


@lru_cache(maxsize=1)
def _noto_files() -> Path:
    import fontpkg_noto_sans  # the font package: imported when first needed, never at start-up
    return Path(fontpkg_noto_sans.ROOT) / "files"


def _noto(pattern: str) -> Path:
    files = sorted(_noto_files().glob(pattern))
    if not files:
        raise RuntimeError(f"fontpkg-noto-sans is installed but has no {pattern} file")
    return files[0]


def font_path() -> Path:
    """Path of the Noto Sans (regular) TrueType file shipped by fontpkg-noto-sans."""
    return face(DEFAULT_FACE).path


@dataclass(eq=False)
class Face:
    """One registered face: ``name`` (the registry key and reportlab font name), the TrueType file
    ``path``, ``family`` (a human family name, e.g. "Noto Sans") and ``style`` ("normal" or
    "italic"; the SVG ``font-style`` of the face), ``weight`` (its CSS ``font-weight``: 400, or 700 for the bold
    faces); ``data``, when given, is the TrueType file's bytes
    as they were checked, used instead of reading ``path`` (then only the name messages show). Metrics are read on first use: ``ttfont`` (the
    reportlab TTFont, registered with pdfmetrics), ``cmap`` (code points it draws), ``cap_height``,
    ``ascent`` and ``descent`` (fractions of the em, descent positive), ``widths`` (code point ->
    advance in 1/1000 em) and ``default_width``."""
    name: str
    path: Path
    family: str
    style: str = "normal"
    weight: int = 400
    data: bytes | None = field(default=None, repr=False)
    _font: object = field(default=None, repr=False)
    _cmap: frozenset | None = field(default=None, repr=False)
    _ascii_ok: bool | None = field(default=None, repr=False)

    @property
    def ttfont(self):
        if self._font is None:  # registered in reportlab's own registry too: its canvas finds fonts by name
            from reportlab.pdfbase import pdfmetrics  # reportlab: imported when first measured, not at start-up
            from reportlab.pdfbase.ttfonts import TTFont
            if self.data is None:
                font = TTFont(self.name, str(self.path))
            else:
                source = io.BytesIO(self.data)
                source.name = self.path.name  # reportlab names the font program after it
                font = TTFont(self.name, source)
            pdfmetrics.registerFont(font)
            self._font = font
        return self._font

    def font_bytes(self) -> bytes:
        """The TrueType file's bytes: ``data``, else the content of ``path`` (read each call).

        Raises:
            OSError: ``path`` cannot be read.
        """
        return self.data if self.data is not None else self.path.read_bytes()

    @property
    def cmap(self) -> frozenset[int]:
        if self._cmap is None:
            self._cmap = frozenset(self.ttfont.face.charToGlyph)
        return self._cmap

    @property
    def ascii_ok(self) -> bool:
        """The face draws every printable ASCII character (so such texts need no per-character check)."""
        if self._ascii_ok is None:
            cmap = self.cmap
            self._ascii_ok = all(c in cmap for c in range(0x20, 0x7f))
        return self._ascii_ok

    @property
    def label(self) -> str:
        """How messages name the face: "Noto Sans", "Noto Sans italic", a script's fallback face by its
        family ("Noto Sans Arabic"), or a registered face's name with its file."""
        if self.name in _FALLBACK_NAMES:
            return self.family + (" bold" if self.weight >= 700 else "")
        if self.family == FONT_FAMILY:
            return FONT_FAMILY + (" bold" if self.weight >= 700 else "") + (" italic" if self.style == "italic" else "")
        return f"{self.name} ({self.path.name})"

    @property
    def cap_height(self) -> float:
        return self.ttfont.face.capHeight / 1000.0

    @property
    def ascent(self) -> float:
        return self.ttfont.face.ascent / 1000.0

    @property
    def descent(self) -> float:
        return -self.ttfont.face.descent / 1000.0

    @property
    def widths(self) -> dict[int, float]:
        return self.ttfont.face.charWidths

    @property
    def default_width(self) -> float:
        return self.ttfont.face.defaultWidth


_INSTALLED: dict[str, Face] = {}
"""The built-in and fallback faces, made on first use and kept for the process: their files are installed
with pnp and its font packages (they cannot change under a running process, so nothing here is stale)
and parsing one costs tens of ms, which every build would pay again in a book of its own. A face a spec
registers goes into the font book in use instead (pnp.core.fontbook)."""
_BUILTIN = {DEFAULT_FACE: ("NotoSans[[]*.ttf", "normal", 400), ITALIC_FACE: ("NotoSans-Italic[[]*.ttf", "italic", 400),
            BOLD_FACE: ("NotoSans-Bold.ttf", "normal", 700), BOLD_ITALIC_FACE: ("NotoSans-BoldItalic.ttf", "italic", 700)}
_SHIPPED = Path(__file__).resolve().parent.parent / "fonts"
"""pnp/fonts: the static bold faces pnp ships (SIL Open Font License 1.1, OFL.txt there)."""


def styled_face(font: str, bold: bool) -> str:
    """The face a text in ``font`` is drawn and measured in: with ``bold``, the built-in bold of a
    built-in face (Noto Sans -> :data:`BOLD_FACE`, its italic -> :data:`BOLD_ITALIC_FACE`) or of a
    script's fallback face that has one (:func:`bold_of`: Noto Sans Arabic and Devanagari); else,
    and for a face with no bold of its own (a registered face, Noto Sans Hebrew), ``font`` itself."""
    if not bold:
        return font
    got = _BOLD_OF.get(font)
    if got is None and font in _FALLBACK_NAMES:
        got = bold_of(font)
    return got or font


def register_face(name: str, path: Path, family: str | None = None, style: str = "normal",
                  data: bytes | None = None) -> Face:
    """Register the TrueType file ``path`` (or, with ``data``, those bytes, read from ``path`` and
    checked by the caller) in the font book in use (pnp.core.fontbook.current) as the face ``name`` (letters, digits, ``-`` and ``_``,
    starting with a letter, at most 63 characters; ``family``, the name the face is known by where
    it is installed, letters, digits, spaces, ``-`` and ``_``; default ``name``) and return it. Registering the same name with
    the same file (or the same bytes) again returns the face registered first.

    Raises:
        ValueError: a bad name, family or style, a name already registered for another file, or ``path`` is
            not a file (callers that read a spec turn this into a SpecError naming the spec line).
    """
    if not _FACE_NAME.fullmatch(name or ""):
        raise ValueError(f"a font name is letters, digits, - and _, starting with a letter, not {name!r}")
    if style not in ("normal", "italic"):
        raise ValueError(f"a font style is normal or italic, not {style!r}")
    if family is not None and not _FAMILY.fullmatch(family):
        raise ValueError(f"a font family is letters, digits, spaces, - and _ (at most 63), not {family!r}")
    path = Path(path)
    book = current().faces
    got = book.get(name) or _installed(name)
    if got is not None:
        if data is not None or got.data is not None:
            same = got.data == data
        else:
            same = got.path.resolve() == path.resolve()
        if same:
            return got
        raise ValueError(f"the font name {name!r} is already used for {got.path.name}")
    if data is None and not path.is_file():
        raise ValueError(f"the font file {path} does not exist")
    got = book[name] = Face(name, path, family or name, style, data=data)
    return got


def _builtin(name: str) -> Face:
    got = _INSTALLED.get(name)
    if got is None:
        pattern, style, weight = _BUILTIN[name]
        path = _SHIPPED / pattern if weight == 700 else _noto(pattern)
        got = _INSTALLED[name] = Face(name, path, FONT_FAMILY, style, weight)
    return got


def _installed(name: str) -> Face | None:
    """The built-in or available fallback face called ``name``, or None."""
    got = _INSTALLED.get(name)
    if got is not None:
        return got
    if name in _BUILTIN:
        return _builtin(name)
    if name in _FALLBACK_NAMES and name in fallback_faces():
        return _INSTALLED[name]
    if name in _FALLBACK_BOLD and bold_of(name[:-len("-Bold")]) == name:
        return _INSTALLED[name]
    return None


def face(name: str = DEFAULT_FACE) -> Face:
    """The face called ``name``: a built-in or fallback face, or one registered in the font book in use.

    Raises:
        KeyError: no face has that name (the message lists the faces there are).
    """
    got = _INSTALLED.get(name) or current().faces.get(name) or _installed(name)
    if got is not None:
        return got
    raise KeyError(f"no font called {name!r} (fonts: {', '.join(face_names())})")


def face_names() -> list[str]:
    """The names of every face: the built-in ones, the fallback faces made so far, then those registered
    in the font book in use, in order."""
    return list(_BUILTIN) + [n for n in _INSTALLED if n not in _BUILTIN] + list(current().faces)


def ttfont(name: str = DEFAULT_FACE):
    """The reportlab TTFont of the face ``name`` (Noto Sans by default), registered under that name."""
    return face(name).ttfont


def cap_height(name: str = DEFAULT_FACE) -> float:
    """Cap height of the face ``name`` as a fraction of the em (:data:`CAP_HEIGHT` for Noto Sans)."""
    return CAP_HEIGHT if name == DEFAULT_FACE else face(name).cap_height


def missing_glyphs(text: str, font: str = DEFAULT_FACE) -> list[str]:
    """The characters of ``text`` (other than spaces) that the face ``font`` cannot draw, in order."""
    f = face(font)
    if text.isascii() and text.isprintable() and f.ascii_ok:
        return []
    cmap = f.cmap
    return [ch for ch in dict.fromkeys(text) if not ch.isspace() and ord(ch) not in cmap]


_SYMBOLS = "\u2100-\u2bff\U0001d400-\U0001d7ff\U0001f000-\U0001fbff"
"""The symbol blocks (letterlike symbols to miscellaneous symbols and arrows: arrows, mathematical
operators, technical symbols, geometric shapes, card suits, dingbats...; mathematical letters;
playing cards, chess and other pictographs): three faces share them, each character set in the
first that draws it."""
FALLBACKS = (
    ("NotoSansArabic", "Noto Sans Arabic", "fontpkg_noto_sans_arabic", "NotoSansArabic",
     "\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufefe"),
    ("NotoSansHebrew", "Noto Sans Hebrew", None, "NotoSansHebrew", "\u0590-\u05ff\ufb1d-\ufb4f"),
    ("NotoSansDevanagari", "Noto Sans Devanagari", "fontpkg_noto_sans_devanagari", "NotoSansDevanagari",
     "\u0900-\u097f\ua8e0-\ua8ff"),
    ("NotoSansMath", "Noto Sans Math", None, "NotoSansMath", _SYMBOLS),
    ("NotoSansSymbols", "Noto Sans Symbols", None, "NotoSansSymbols", _SYMBOLS),
    ("NotoSansSymbols2", "Noto Sans Symbols 2", None, "NotoSansSymbols2", _SYMBOLS),
)
"""The faces a text falls back to for a script or symbol its own face lacks: (face name, family, the
Python package that ships the font (fontpkg, SIL Open Font License 1.1) or None, the file name's stem,
the characters it is the fallback for, as a regular-expression class: its script's blocks; the
symbol faces share theirs, in this order: Noto Sans Math for ≤ ≥ ≠ and arrows, Noto Sans Symbols
for ♀ ♂ ⚔ ♪, Noto Sans Symbols 2 for ♠ ♥ ★ ✓ ✈). A face is taken from its package when that is
installed (Arabic, Devanagari: pnp depends on both), else from pnp/fonts (Noto Sans Hebrew, Math,
Symbols and Symbols 2, which no package ships: 27, 591, 258 and 657 KB, OFL-1.1),
else from the system's Noto fonts (SYSTEM_FONT_DIRS: Debian's fonts-noto-core), else it is not
available and a character only it draws is refused as any character no font has."""
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts/truetype/noto"), Path("/usr/share/fonts/opentype/noto"),
                    Path("/usr/local/share/fonts"), Path("/usr/share/fonts/noto"))
_FALLBACK_BOLD = frozenset(f[0] + "-Bold" for f in FALLBACKS)
"""The names of the fallback faces' bold faces: ``<face>-Bold``, a static wght 700 instance shipped in
pnp/fonts (made by pnp/fonts/make_bold.py from the package's variable font; Arabic and Devanagari)."""
_FALLBACK_NAMES = frozenset(f[0] for f in FALLBACKS) | _FALLBACK_BOLD
SYMBOL_FACES = frozenset(f[0] for f in FALLBACKS if f[4] == _SYMBOLS)
"""The fallback faces of symbols (Noto Sans Math, Symbols, Symbols 2): only the symbols themselves are
set in them, never the spaces and digits beside (pnp.text.markup.fallback); those stay in the text's face."""
_SCRIPTS = tuple((f[0], re.compile(f"[{f[4]}]")) for f in FALLBACKS)


def _fallback_file(package: str | None, stem: str) -> Path | None:
    if package is not None:
        try:
            module = __import__(package)
        except ImportError:
            module = None
        if module is not None:
            files = sorted((Path(module.ROOT) / "files").glob(f"{stem}[[-]*.ttf"))
            regular = [f for f in files if "[" in f.name or f.name.endswith("-Regular.ttf")]
            if regular:
                return regular[0]
    for folder in (_SHIPPED, *SYSTEM_FONT_DIRS):
        path = folder / f"{stem}-Regular.ttf"
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=1)  # once a process: which installed files there are (see _INSTALLED)
def fallback_faces() -> tuple[str, ...]:
    """The names of the fallback faces available here (FALLBACKS), each made on first use."""
    out = []
    for name, family, package, stem, _ in FALLBACKS:
        path = _fallback_file(package, stem)
        if path is not None:
            _INSTALLED.setdefault(name, Face(name, path, family))
            out.append(name)
    return tuple(out)


@lru_cache(maxsize=None)  # once a process, as fallback_faces
def bold_of(name: str) -> str | None:
    """The bold face of the fallback face ``name`` (``<name>-Bold``, registered on first use) when
    pnp ships one and ``name`` is available; None when it has none (Noto Sans Hebrew: its bold text
    is set regular, and pnp.custom says so in the build note)."""
    if name not in fallback_faces():
        return None
    path = _SHIPPED / f"{name}-Bold.ttf"
    if not path.is_file():
        return None
    bold = name + "-Bold"
    if bold not in _INSTALLED:
        _INSTALLED[bold] = Face(bold, path, face(name).family, "normal", 700)
    return bold


def fallback_for(ch: str) -> str | None:
    """The first fallback face for ``ch``'s script or symbol block (FALLBACKS) that is available and
    draws ``ch``; None for a character of another script (Latin, Greek, Cyrillic: its own face must
    draw it) or one no fallback face draws."""
    if ord(ch) < 0x590:
        return None
    for name, script in _SCRIPTS:
        if script.match(ch) and name in fallback_faces() and ord(ch) in face(name).cmap:
            return name
    return None


def unprintable(text: str, font: str = DEFAULT_FACE) -> list[str]:
    """The characters of ``text`` (other than spaces) that neither the face ``font`` nor their script's
    fallback face (:func:`fallback_for`) draws, in order: what pnp cannot print at all."""
    return [ch for ch in missing_glyphs(text, font) if fallback_for(ch) is None]


def is_fallback(name: str) -> bool:
    """True for the name of a script's fallback face (FALLBACKS)."""
    return name in _FALLBACK_NAMES


def shaped(text: str, font: str = DEFAULT_FACE) -> tuple[Glyph, ...]:
    """``text`` (one run) shaped by HarfBuzz in the face ``font`` (pnp.core.shaping.shape): glyph ids,
    advances and offsets in 1/1000 em, left to right as seen."""
    return shape(text, font, face(font).font_bytes)


def ink(text: str, font: str = DEFAULT_FACE) -> tuple[float, float]:
    """How far the glyphs of ``text`` (one run, shaped in the face ``font``) draw above and below the
    baseline, fractions of the em (below positive; pnp.core.shaping.ink_extent). Kept in the font
    book's ``ink`` table (4,096 entries, then it starts over)."""
    table = current().ink
    key = (text, font)
    got = table.get(key)
    if got is None:
        got = kept(table, key, ink_extent(shaped(text, font), font, face(font).font_bytes), 4096)
    return got


_MM_PER_PT = pt_to_mm(1.0)  # pnp.core.units.MM_PER_PT: pt_to_mm(x) is x * this
_WIDTH_ENTRIES = 8192
"""The text widths kept (:func:`text_width_mm`): a text is measured while its layout tries sizes and
its width goes on with it (pnp.core.ir.Text.width), so the backends do not measure it again; the
table holds the widths of the texts being fitted and those that repeat (footers, labels), under
2 MiB, before it starts over."""


def text_width_mm(text: str, size_pt: float, font: str = DEFAULT_FACE) -> float:
    """Advance width of ``text`` set in the face ``font`` (Noto Sans by default) at ``size_pt``
    points, in millimetres.

    Memoised in a plain table emptied when it reaches 8,192 entries: layouts that try sizes measure
    the same texts again and again, while a deck's words each come once, so an LRU cache (the bookkeeping of which cost
    more than reportlab's C-accelerated sum) only thrashed there and this table just starts over.
    The table is the font book's (pnp.core.fontbook: one per build)."""
    widths = current().widths
    key = (text, size_pt) if font == DEFAULT_FACE else (text, size_pt, font)
    got = widths.get(key)
    if got is None:
        if not text.isascii() and needs_shaping(text):  # HarfBuzz's advances (pnp.core.shaping), 1/1000 em
            got = pt_to_mm(sum(g.advance for g in shaped(text, font)) * size_pt / 1000.0)
        else:  # reportlab's C-accelerated sum of advance widths, in points (pt_to_mm's product)
            got = face(font).ttfont.stringWidth(text, size_pt) * _MM_PER_PT
        if len(widths) >= _WIDTH_ENTRIES:  # pnp.core.fontbook.kept, in line: a deck measures every word
            widths.clear()
        widths[key] = got
    return got
