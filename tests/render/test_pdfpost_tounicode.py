"""pnp.render.pdfpost's ToUnicode repair: reportlab writes a character beyond U+FFFF in a subset's
ToUnicode map as five hex digits (``<1F4E6>``), which a reader takes as U+1F4E and a "6"; the pass
writes it as UTF-16BE, a surrogate pair (ISO 32000-1, 9.10.3). The whole build is read back in
tests/custom/test_new_real_shapes.py (📦 copied out of the PDF as itself)."""
from __future__ import annotations

from pnp.render.pdfpost import astral_utf16

CMAP = b"""3 beginbfchar
<00> <0000>
<01> <1F4E6>
<02> <2665>
<03> <1F0A1>
endbfchar"""


def test_an_astral_entry_becomes_a_surrogate_pair_and_the_others_stay():
    got = astral_utf16(CMAP).decode().splitlines()
    assert got[2] == "<01> <D83DDCE6>"  # U+1F4E6 PACKAGE
    assert got[4] == "<03> <D83CDCA1>"  # U+1F0A1 PLAYING CARD ACE OF SPADES
    assert got[:2] + got[3:4] + got[5:] == CMAP.decode().splitlines()[:2] + ["<02> <2665>", "endbfchar"]
    pair = bytes.fromhex(got[2].split()[1].strip("<>")).decode("utf-16-be")
    assert pair == "\U0001f4e6"


def test_a_map_of_the_basic_plane_is_left_byte_for_byte():
    plain = b"1 beginbfchar\n<00> <0041>\nendbfchar"
    assert astral_utf16(plain) == plain
