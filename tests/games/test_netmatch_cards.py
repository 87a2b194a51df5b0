"""NetMatch word cards: every word found in the PDF text, card size measured, Unicode lists."""
import pypdf

from conftest import REPO, filled_rects, open_pdf, pdf_of
from pnp.pipeline.execute import build_kit


def _seed_words():
    return [w for w in (REPO / "specs" / "netmatch" / "netmatch-words.txt").read_text(encoding="utf-8").split()
            if w.isalpha() and w.isupper() and len(w) == 4]


def test_every_word_is_printed(built):
    words = _seed_words()
    assert len(words) == 75
    reader = pypdf.PdfReader(pdf_of(built("netmatch")))
    text = "\n".join(p.extract_text() for p in reader.pages[1:])
    for w in words:
        assert w in text, w


def test_card_trim_44_by_68(built):
    result = built("netmatch")
    pages = next(c["pages"] for c in result.manifest["components"] if c["name"] == "word card")
    with open_pdf(pdf_of(result)) as pdf:  # the card sheets (the board's card boxes are 44 x 68 too)
        per_page = [len([r for r in filled_rects(pdf.pages[n - 1], (1.0, 1.0, 1.0))
                         if abs(r[2] - 44) < 0.1 and abs(r[3] - 68) < 0.1]) for n in pages]
    # every one of the 75 words of specs/netmatch-words.txt on a 44 x 68 card; butted, at least 4 x 3 of
    # them fit A4's 200 x 287 mm printable area (176 x 204 mm), so a card sheet holds 12 or more
    assert sum(per_page) == 75
    assert all(n >= 12 for n in per_page if n)


def test_unicode_words_embed_the_font(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("# mixed scripts\nΛΟΓΟ\nЖИЗН\ncafé\nÑAND\n\nüber\n", encoding="utf-8")
    result = build_kit("netmatch", out=tmp_path / "o", overrides={"words": words})
    reader = pypdf.PdfReader(pdf_of(result))
    text = "\n".join(p.extract_text() for p in reader.pages)
    for w in ("ΛΟΓΟ", "ЖИЗН", "café", "ÑAND", "über"):
        assert w in text
    fonts = [f.get_object() for f in reader.pages[1]["/Resources"]["/Font"].values()]
    assert fonts and all("NotoSans" in str(f["/BaseFont"]) for f in fonts)  # no unembedded Helvetica
    descriptor = fonts[0]["/FontDescriptor"] if "/FontDescriptor" in fonts[0] else None
    assert descriptor is not None and "/FontFile2" in descriptor  # the TrueType program is embedded
    assert result.manifest["components"][0]["count"] == 5


def test_decomposed_accent_counts_as_one_letter(tmp_path):
    from pnp.games.netmatch.wordlist import read_words
    p = tmp_path / "w.txt"
    p.write_text("cafe\u0301\n", encoding="utf-8")  # 'é' as e + combining acute: 5 code points, 4 letters
    assert read_words(p).words == ("café",)


def test_word_list_cache_sees_an_edited_file(tmp_path):
    from pnp.games.netmatch.wordlist import read_words
    p = tmp_path / "w.txt"
    p.write_text("TEST\nWITH\n", encoding="utf-8")
    assert read_words(p).words == ("TEST", "WITH")
    p.write_text("BIRD\nCORN\n", encoding="utf-8")  # same size, possibly the same mtime tick
    assert read_words(p).words == ("BIRD", "CORN")
