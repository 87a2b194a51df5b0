"""Make the static bold faces shipped in this folder from the variable Noto Sans of fontpkg-noto-sans.

``python3 -m pnp.fonts.make_bold`` writes ``NotoSans-Bold.ttf`` and ``NotoSans-BoldItalic.ttf``
here: fontTools' instancer at wght 700, wdth 100 (the named Bold instance), names updated from the
font's STAT/fvar ("Noto Sans" / "Bold"), and the PostScript name (what PDFs name the font by) set
to the file's stem (the instancer makes "NotoSansItalic-BoldItalic" of the italic). It takes about 15 s a face, so it runs once, by a
developer, and the files are committed and shipped as package data (SIL Open Font License 1.1,
OFL.txt beside them; the font has no Reserved Font Name). pnp never runs it at build time.
"""
from __future__ import annotations

import io
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOLD_FILES = {"NotoSans-Bold.ttf": "NotoSans[[]*.ttf", "NotoSans-BoldItalic.ttf": "NotoSans-Italic[[]*.ttf"}
"""Shipped file name -> glob of the variable source file in fontpkg-noto-sans's files folder."""
WEIGHT = 700


def source(pattern: str) -> Path:
    """The variable font of fontpkg-noto-sans matching ``pattern``.

    Raises:
        FileNotFoundError: the installed package has no such file.
    """
    import fontpkg_noto_sans
    files = sorted((Path(fontpkg_noto_sans.ROOT) / "files").glob(pattern))
    if not files:
        raise FileNotFoundError(f"fontpkg-noto-sans has no {pattern} file")
    return files[0]


def make(name: str) -> bytes:
    """The TrueType bytes of the shipped file ``name`` (a key of :data:`BOLD_FILES`): the wght 700,
    wdth 100 static instance of its source, PostScript name ``name``'s stem (same bytes each run:
    the head timestamps are kept from the source)."""
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer
    font = TTFont(source(BOLD_FILES[name]), recalcTimestamp=False)
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
