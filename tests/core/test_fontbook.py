"""The font book (pnp.core.fontbook): one per build owns the faces it registers and its type tables.

Two builds in one process of the same deck, whose declared font ``Title`` is another file the second
time, each embed their own font (read back from the PDF's font program and the SVG's @font-face), and
after each build its registered face is gone: not in the library book, not found by name.
"""
from __future__ import annotations

import base64
import hashlib
import re
from io import BytesIO
from pathlib import Path

import pypdf
import pytest
from fontTools.ttLib import TTFont

from pnp.core import fonts
from pnp.core.fontbook import LIBRARY, FontBook, current, entered
from pnp.core.ir import Text
from pnp.pipeline.execute import build_kit, execute_target
from pnp.pipeline.plan import Request, load_paper, plan
from pnp.render.base import place_text
from pnp.text.wrapping import wrap

from test_custom_fonts import _game, make_font
from test_font_cache_trust import _small

RULE = re.compile(r"font-family: 'pnp (Title-[0-9a-f]+)';.*?base64,([A-Za-z0-9+/=]+)\)")


def _tallest(font: TTFont) -> int:
    """The highest point of any outline of ``font`` (font units)."""
    glyf = font["glyf"]
    return max(glyf[name].yMax for name in font.getGlyphOrder() if glyf[name].numberOfContours > 0)


def _pdf_title_fonts(pdf: Path) -> list[TTFont]:
    """The embedded TrueType programs of the PDF's declared fonts (every font but Noto Sans; font
    descriptors anywhere in the file, named by the font's PostScript name)."""
    reader = pypdf.PdfReader(pdf)
    found = []
    for number in range(1, len(reader.xref_objStm) + sum(len(v) for v in reader.xref.values()) + 1):
        try:
            obj = reader.get_object(number)
        except Exception:  # a free or unused object number
            continue
        if isinstance(obj, dict) and obj.get("/Type") == "/FontDescriptor" and "NotoSans" not in str(obj["/FontName"]):
            found.append(TTFont(BytesIO(obj["/FontFile2"].get_object().get_data())))
    return found


def _svg_title_fonts(kit: Path) -> dict[str, TTFont]:
    """face name -> the Title-* subset embedded in the kit's SVG pages."""
    found = {}
    for page in sorted((kit / "svg").glob("*.svg")):
        for name, data in RULE.findall(page.read_text(encoding="utf-8")):
            found[name] = TTFont(BytesIO(base64.b64decode(data)))
    return found


def _face_name(font_file: Path) -> str:
    return f"Title-{hashlib.sha256(font_file.read_bytes()).hexdigest()[:10]}"


def test_two_builds_with_different_fonts_of_one_name_each_draw_their_own(tmp_path, monkeypatch):
    monkeypatch.delenv("PNP_CACHE_DIR", raising=False)
    spec = _game(tmp_path / "deck")
    font_file = tmp_path / "deck" / "fonts" / "title.ttf"
    tall = {}
    for round_, out in enumerate((tmp_path / "one", tmp_path / "two")):
        if round_:
            _small(font_file)  # the same declared name, another file: every outline half as tall
        name = _face_name(font_file)
        tall[round_] = _tallest(TTFont(str(font_file)))
        result = build_kit(str(spec), formats=("pdf", "svg"), out=out)
        pdf = next(p for p in result.files if p.suffix == ".pdf")
        embedded = _pdf_title_fonts(pdf)
        assert embedded and all(_tallest(f) == tall[round_] for f in embedded)
        svg = _svg_title_fonts(out / "deck")
        assert set(svg) == {name} and _tallest(svg[name]) == tall[round_]
        assert name not in fonts.face_names() and name not in LIBRARY.faces  # gone with its build
        with pytest.raises(KeyError, match="no font called"):
            fonts.face(name)
    assert tall[1] < tall[0]


def test_a_plan_carries_its_book_and_execute_writes_in_it(tmp_path):
    spec = _game(tmp_path / "deck")
    name = _face_name(tmp_path / "deck" / "fonts" / "title.ttf")
    request = Request(load_paper("a4"), ("pdf",))
    (tp,) = plan([str(spec)], request).targets
    assert name in tp.book.faces and not entered()       # registered in the target's book only
    with pytest.raises(KeyError):
        fonts.face(name)
    execute_target(tp, request, tmp_path / "out")
    assert tp.book.widths and tp.book.placed              # measured and placed in it while writing
    assert current() is LIBRARY


def test_outside_any_book_the_functions_use_the_library_book():
    book = FontBook()
    text = Text(0, 0, "Library and book", size_pt=11)
    with book.in_use():
        inside = (fonts.text_width_mm(text.text, 11), place_text(text), wrap("one two three", 9, 12))
        assert current() is book and entered()
    outside = (fonts.text_width_mm(text.text, 11), place_text(text), wrap("one two three", 9, 12))
    assert inside == outside                              # the same answers, from other tables
    assert ("Library and book", 11) in book.widths and len(book.placed) == 1 and len(book.wrapped) == 1
    assert current() is LIBRARY and ("Library and book", 11) in LIBRARY.widths


def test_a_face_registered_in_a_book_is_gone_after_it(tmp_path):
    font_file = make_font(tmp_path / "own.ttf")
    with FontBook().in_use() as book:
        got = fonts.register_face("OwnFace", font_file)
        assert fonts.face("OwnFace") is got and "OwnFace" in fonts.face_names()
        assert fonts.text_width_mm("AB", 10, "OwnFace") > 0
    assert book.faces == {"OwnFace": got}
    assert "OwnFace" not in fonts.face_names()
    with pytest.raises(KeyError, match="no font called 'OwnFace'"):
        fonts.face("OwnFace")
    with FontBook().in_use():  # another book may give the name to another file
        other = fonts.register_face("OwnFace", fonts.font_path())
        assert other is not got and fonts.face("OwnFace").path == fonts.font_path()


def test_an_editor_read_owns_its_book_and_every_redraw_enters_it(tmp_path):
    """pnp edit: the deck's declared font is registered in the book of its read, each card drawn in it."""
    from pnp.edit.card import Deck
    spec = _game(tmp_path / "deck")
    name = _face_name(tmp_path / "deck" / "fonts" / "title.ttf")
    deck = Deck(spec)
    card = deck.card(0, "front", 0)
    assert f"'pnp {name}'" in card["svg"] and not any(layer["error"] for layer in card["layers"])
    book = deck.load().book
    assert name in book.faces and name not in LIBRARY.faces and current() is LIBRARY
    assert deck.card(0, "front", 1)["svg"] and deck.load().book is book  # the same read, the same book
    _small(tmp_path / "deck" / "fonts" / "title.ttf")                      # a changed file: a new read
    assert deck.load().book is not book and _face_name(tmp_path / "deck" / "fonts" / "title.ttf") in deck.load().book.faces
