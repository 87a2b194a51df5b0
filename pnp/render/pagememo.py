"""Finished SVG pages kept between builds of `pnp watch` (pnp.core.memo), keyed by what they are made of.

A page's key is the sha256 of: its full description (``repr`` of the frozen IR page: every shape, text,
size, colour, key and picture path), the sha256 of each raster picture's bytes it draws (read and
checked again, in drawing order), the bytes of each font face its texts are set in, and the writer's options
(title, description, cut, outlines). A page drawing SVG art is never kept (the art may reference other
files). Without a memo in use (a plain build) the text is made afresh.
"""
from __future__ import annotations

import hashlib
from typing import Callable, Iterator

from ..core.fonts import DEFAULT_FACE, face, styled_face
from ..core.ir import Group, Image, Page, Text
from ..core.memo import active, digest, memoised
from .base import place_image


class FontStamps:
    """sha256 of each face's TrueType bytes by face name (pnp.core.fonts), each read once: one per build."""

    def __init__(self) -> None:
        self._shas: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        if name not in self._shas:
            self._shas[name] = hashlib.sha256(face(name).font_bytes()).hexdigest()
        return self._shas[name]


def _faces(items) -> set[str]:
    """The faces the texts of ``items`` are set in (pnp's own regular face always: it is the default)."""
    out = {DEFAULT_FACE}
    for s in items:
        if isinstance(s, Text):
            out.update((s.font, styled_face(s.font, s.bold)))
        elif isinstance(s, Group):
            out |= _faces(s.children)
    return out


def _images(items) -> Iterator[Image]:
    for s in items:
        if isinstance(s, Image):
            yield s
        elif isinstance(s, Group):
            yield from _images(s.children)


def page_key(page: Page, fonts: Callable[[str], str], *options: str) -> str | None:
    """The content key of ``page`` drawn with the faces whose bytes' sha256 ``fonts`` gives (a
    FontStamps) and ``options``, or None when it draws SVG art (not kept).

    Raises:
        SpecError: a picture it draws is bad (pnp.inputs.images.read_image).
        KeyError: a text's face is not registered.
    """
    shas = []
    for s in _images(page.items):
        facts, _ = place_image(s)
        if not facts.raster:
            return None
        shas.append(facts.sha256)
    faces = sorted(_faces(page.items))
    return digest(repr(page), *faces, *map(fonts, faces), *shas, *options)


def page_text(page: Page, fonts: Callable[[str], str], options: tuple[str, ...], make: Callable[[], str]) -> str:
    """``make()``, the SVG text of ``page``, or the same text kept from an earlier build of the same
    content (see the module docstring and page_key)."""
    if active() is None:
        return make()
    key = page_key(page, fonts, *options)
    return make() if key is None else memoised("svg page", key, make, lambda text: 2 * len(text) + 64)
