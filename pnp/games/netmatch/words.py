"""NetMatch's declared input, the word list: where it comes from and reading it once per build."""
from __future__ import annotations

from pathlib import Path

from ...inputs.resources import builtin_folder
from .wordlist import WordList, WORD_LENGTH, read_words
from ...engine import KitContext
from .spec import NetMatchSpec


def word_list_path(spec: NetMatchSpec, ctx: KitContext) -> Path:
    """The list to print: ``--set words=FILE`` (or ``--words FILE``) if given, else the spec's
    ``words`` beside the spec file (falling back to pnp's own NetMatch folder, specs/netmatch/)."""
    return ctx.input_path("words", spec.words, builtin_folder("netmatch"))


def word_list(spec: NetMatchSpec, ctx: KitContext) -> WordList:
    """The checked word list, read once per build (the validator and the cards share it).

    Raises:
        WordListError: the list breaks a rule (see pnp.games.netmatch.wordlist.read_words).
    """
    return ctx.once("words", lambda: read_words(word_list_path(spec, ctx), WORD_LENGTH))
