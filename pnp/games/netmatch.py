"""NetMatch: the Game (Roberto Tron, 2018): 75 four-letter word cards from any word list.

Rules source: shared/games/netmatch.md and seed 003 ("75 word cards", "Pick a card and read the
four-letter word on it").
"""
from __future__ import annotations

import math
from functools import partial
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ..errors import SpecError
from ..findings import Finding, verdict
from ..fonts import text_width_mm
from ..ir import WHITE, Circle, Component, LazyFronts, Line, Polygon, Rect, Text
from ..resources import specs_dir
from ..spec import Colour, Length, SpecBase
from ..wordlist import WORD_LENGTH, anagram_groups, read_words
from . import Game, KitContext

RULE = "NetMatch rules (seed 003)"
SAFE = 3.0  # mm: text stays this far inside the trim


class CardSpec(BaseModel):
    """Word-card trim size (mini-Euro 44 x 68 mm by default)."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: Length = 44.0
    height: Length = 68.0


class NetMatchSpec(SpecBase):
    """specs/netmatch.yaml."""
    words: str = "netmatch-words.txt"
    expected_words: int | None = 75
    card: CardSpec = CardSpec()
    back_colour: Colour = "#1f3a5f"
    word_size_pt: float = 40.0


def word_list_path(spec: NetMatchSpec, ctx: KitContext) -> Path:
    """The list to print: ``--words`` if given, else the spec's ``words`` beside the spec file
    (falling back to the built-in specs folder)."""
    if ctx.words is not None:
        return Path(ctx.words)
    beside = ctx.spec_path.parent / spec.words
    return beside if beside.exists() else specs_dir() / spec.words


def fit_size(word: str, width: float, max_pt: float) -> float:
    """Largest font size (pt, at most ``max_pt``) at which ``word`` fits ``width`` mm."""
    w = text_width_mm(word, 10.0)
    return min(max_pt, 10.0 * width / w) if w > 0 else max_pt


def draw_card(word: str, spec: NetMatchSpec):
    """A word card front: the word large and centred, a small upside-down copy for the player opposite."""
    w, h = spec.card.width, spec.card.height
    size = fit_size(word, w - 2 * SAFE - 2, spec.word_size_pt)
    small = fit_size(word, w / 2, 11.0)
    return (Rect(0, 0, w, h, fill=WHITE, stroke=None, bleed=True),
            Rect(SAFE / 2, SAFE / 2, w - SAFE, h - SAFE, fill=None, stroke=spec.back_colour, stroke_width=0.5),
            Text(w / 2, h / 2, word, size_pt=size, anchor="middle", valign="middle", bold=True),
            Text(w / 2, SAFE + 4, word, size_pt=small, anchor="middle", valign="middle", rotate=180, fill="#555555"),
            Text(w / 2, h - SAFE - 3, "NetMatch", size_pt=6, anchor="middle", fill="#555555"))


def draw_back(spec: NetMatchSpec):
    """The common back: a full-bleed field with the dodecagonal network as a motif."""
    w, h = spec.card.width, spec.card.height
    cx, cy, r = w / 2, h / 2, min(w, h) * 0.36
    pts = tuple((cx + r * math.cos(math.radians(15 + 30 * i)), cy + r * math.sin(math.radians(15 + 30 * i)))
                for i in range(12))
    shapes = [Rect(0, 0, w, h, fill=spec.back_colour, stroke=None, bleed=True),
              Polygon(pts, fill=None, stroke=WHITE, stroke_width=0.4)]
    for x, y in pts:
        shapes.append(Line(cx, cy, x, y, stroke="#8fa9c9", stroke_width=0.25))
        shapes.append(Circle(x, y, 1.2, fill=WHITE, stroke=None))
    shapes.append(Circle(cx, cy, 2.0, fill=WHITE, stroke=None))
    shapes.append(Text(cx, h - SAFE - 4, "NetMatch", size_pt=9, anchor="middle", fill=WHITE, bold=True))
    return tuple(shapes)


def components(spec: NetMatchSpec, ctx: KitContext) -> list[Component]:
    """[word card]: one card per word of the list, card.width x card.height mm, common back."""
    words = read_words(word_list_path(spec, ctx), WORD_LENGTH).words
    return [Component("word card", spec.card.width, spec.card.height,
                      LazyFronts(words, partial(draw_card, spec=spec)), back=draw_back(spec),
                      note=f"one four-letter word each ({len(words)} words)")]


def check(spec: NetMatchSpec, ctx: KitContext) -> list[Finding]:
    """Word-list checks of shared/games/netmatch.md (reading the list raises on any bad word)."""
    path = word_list_path(spec, ctx)
    wl = read_words(path, WORD_LENGTH)
    n = len(wl.words)
    out = []
    if ctx.words is None and spec.expected_words is not None:
        out.append(verdict(n == spec.expected_words, f"{n} word cards (spec expects {spec.expected_words})",
                           f"{RULE}: \"75 word cards\""))
    else:
        out.append(verdict(n > 0, f"{n} word cards from {path.name}", f"{RULE}: word cards (user list)"))
    out.append(verdict(True, f"all {n} words have exactly {WORD_LENGTH} letters", f"{RULE}: \"four-letter word\""))
    out.append(verdict(True, f"no duplicates among {n} words (ignoring case)", "shared/games/netmatch.md: word list"))
    out.append(verdict(True, f"every glyph of the {n} words is in the embedded font (Noto Sans)",
                       "shared/PRINT.md: embed every font"))
    groups = anagram_groups(wl.words)
    shown = "; ".join("/".join(g) for g in groups[:5]) + (" ..." if len(groups) > 5 else "")
    out.append(verdict(not groups, f"{len(groups)} anagram groups" + (f": {shown}" if groups else ""),
                       "shared/games/netmatch.md: letter tokens reveal letters, not order", warn=True))
    return out


GAME = Game("netmatch", "NetMatch", NetMatchSpec, components, check, __doc__.strip().splitlines()[0])
