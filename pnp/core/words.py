"""pnp's own words in a kit's language: message catalogues (gettext, read with Babel) for the cover's
headings, print guide and bill of materials.

The catalogues are the ``.po`` files in ``pnp/locale/<code>/LC_MESSAGES/pnp.po`` (shipped with the
package; each read with ``babel.messages.pofile.read_po`` and compiled in memory with
``babel.messages.mofile.write_mo`` the first time a build asks for its language, so a fresh install
needs no compile step). The English text is the message id itself: English needs no catalogue. A
language with no catalogue gets the English words, and :func:`has_words` says so for the build note.
"""
from __future__ import annotations

import gettext
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Callable

LOCALE = Path(__file__).resolve().parent.parent / "locale"
"""pnp/locale: one folder per language code with LC_MESSAGES/pnp.po."""
DOMAIN = "pnp"

Words = Callable[[str], str]
"""A message id (pnp's English sentence, ``{name}`` placeholders and all) -> its translation."""


def english(message: str) -> str:
    """The identity: the English words."""
    return message


def _catalogue_file(language: str) -> Path | None:
    for code in (language, language.split("-")[0]):
        path = LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.is_file():
            return path
    return None


def has_words(language: str | None) -> bool:
    """True when pnp's words exist in ``language``: English (None, ``en``, ``en-GB``) or a catalogue."""
    return not language or language.split("-")[0] == "en" or _catalogue_file(language) is not None


@lru_cache(maxsize=16)
def words(language: str | None) -> Words:
    """The translation function of ``language`` (a language code; a regional code such as ``de-AT``
    falls back to ``de``): :func:`english` for English and for a language without a catalogue."""
    if has_words(language) and language and language.split("-")[0] != "en":
        from babel.messages.mofile import write_mo  # Babel: imported when first needed, never at start-up
        from babel.messages.pofile import read_po  # Babel: imported when first needed, never at start-up
        with open(_catalogue_file(language), "rb") as f:
            catalog = read_po(f, locale=language.split("-")[0].replace("-", "_"), domain=DOMAIN)
        compiled = BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        return gettext.GNUTranslations(compiled).gettext
    return english
