"""Make the static bold faces shipped in this folder from the variable Noto fonts pnp depends on.

``python3 -m pnp.fonts.make_bold`` writes ``NotoSans-Bold.ttf`` and ``NotoSans-BoldItalic.ttf``
(from fontpkg-noto-sans), ``NotoSansArabic-Bold.ttf`` (fontpkg-noto-sans-arabic) and
``NotoSansDevanagari-Bold.ttf`` (fontpkg-noto-sans-devanagari) here: fontTools' instancer at wght 700, wdth 100 (the named Bold instance), names updated from the
font's STAT/fvar ("Noto Sans" / "Bold"), and the PostScript name (what PDFs name the font by) set
to the file's stem (the instancer makes "NotoSansItalic-BoldItalic" of the italic). It takes about 15 s a face, so it runs once, by a
developer, and the files are committed and shipped as package data (SIL Open Font License 1.1,
OFL.txt beside them; the font has no Reserved Font Name). pnp never runs it at build time.
"""
from __future__ import annotations

import importlib
import io
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOLD_FILES = {"NotoSans-Bold.ttf": ("fontpkg_noto_sans", "NotoSans[[]*.ttf"),
              "NotoSans-BoldItalic.ttf": ("fontpkg_noto_sans", "NotoSans-Italic[[]*.ttf"),
              "NotoSansArabic-Bold.ttf": ("fontpkg_noto_sans_arabic", "NotoSansArabic[[]*.ttf"),
              "NotoSansDevanagari-Bold.ttf": ("fontpkg_noto_sans_devanagari", "NotoSansDevanagari[[]*.ttf")}
"""Shipped file name -> (the fontpkg package, glob of the variable source file in its files folder)."""
WEIGHT = 700


def source(package: str, pattern: str) -> Path:
    """The variable font of the fontpkg ``package`` matching ``pattern``.

    Raises:
        FileNotFoundError: the installed package has no such file.
    """
    files = sorted((Path(importlib.import_module(package).ROOT) / "files").glob(pattern))
    if not files:
        raise FileNotFoundError(f"{package} has no {pattern} file")
    return files[0]


def make(name: str) -> bytes:
    """The TrueType bytes of the shipped file ``name`` (a key of :data:`BOLD_FILES`): the wght 700,
    wdth 100 static instance of its source, PostScript name ``name``'s stem (same bytes each run:
    the head timestamps are kept from the source)."""
    from fontTools.ttLib import TTFont  # fontTools: imported when first needed, never at start-up
    from fontTools.varLib import instancer  # fontTools: imported when first needed, never at start-up
    font = TTFont(source(*BOLD_FILES[name]), recalcTimestamp=False)
    bold = instancer.instantiateVariableFont(font, {"wght": WEIGHT, "wdth": 100}, updateFontNames=True)
    bold["name"].setName(Path(name).stem, 6, 3, 1, 0x409)
    bold["name"].removeNames(nameID=6, platformID=1)  # no Macintosh record left disagreeing
    buf = io.BytesIO()
    bold.save(buf)
    return buf.getvalue()


def main() -> None:
    for name in BOLD_FILES:
        (HERE / name).write_bytes(make(name))
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
