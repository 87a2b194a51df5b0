"""The cover speaks to players: no command lines or project words on any page, paper advice for
every part, what to print, credits and years, whole notes, and Nonaga's rules as the designer wrote
them. Everything is read back from the built PDFs."""
from __future__ import annotations

import re

import pytest

from pnp.pipeline.plan import Request, load_paper, load_target, plan
from pnp.engine import registry
from pnp.layout.options import ImposeOptions

from conftest import open_pdf, pdf_of

GAMES = sorted(registry())
# what a player must never read: command-line options, project words, file names (case-sensitive:
# a NetMatch word card may read SEED, and Numeria's squares are named c4, d4)
DEVELOPER = [r"--[a-z]", r"\b[Ss]eed\b", r"\b[Kk]it\b", r"\bC4\b", r"\bD4\b", r"\b[Rr]ebuild\b", r"\b[Ss]pec\b",
             r"\b[\w-]+\.(md|yaml|yml|txt|csv|json|svg|pdf)\b", r"\bpnp (build|validate|preview)\b"]
BUILDS = {"a4": {}, "letter": {}, "a4-shop": {"opts": ImposeOptions(bleed=3.0, duplex="long")}}


def _planned(game: str):
    """The game's plan on A4 (its components, checked)."""
    return plan([game], Request(load_paper("a4"))).targets[0]


def _pages_text(result) -> list[str]:
    with open_pdf(pdf_of(result)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def _build(built, game, build):
    return built(game, build.split("-")[0], formats=("pdf",), **BUILDS[build])


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("build", sorted(BUILDS))
@pytest.mark.parametrize("game", GAMES)
def test_no_page_speaks_to_developers(built, game, build):
    pages = _pages_text(_build(built, game, build))
    assert pages and all(pages)
    found = [(n, m.group(0)) for n, text in enumerate(pages, 1) for pattern in DEVELOPER
             for m in re.finditer(pattern, text)]
    assert found == [], f"{game} {build}: developer words on the pages: {found}"


def test_the_word_list_catches_what_the_old_cover_said():
    """The patterns find the sentences the cover printed before (so the test above can fail)."""
    old = ["One-sided print. The tile have printable backs: rebuild with --duplex long to get them.",
           "3x3 cells, 4 black, distinct under C4", "Edit nonads.md (beside the spec, or --set rules=FILE)",
           "Kit reading where the seed is silent", "Nonads \u2014 print-and-play kit"]
    for line in old:
        assert any(re.search(p, line) for p in DEVELOPER), line


def _cover(result):
    """(page, words) of page 1: pdfplumber words with their positions."""
    pdf = open_pdf(pdf_of(result))
    return pdf, pdf.pages[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_bill_of_materials_gives_paper_for_every_part_and_whole_notes(built, game, paper):
    comps = _planned(game).components
    pdf, page = _cover(built(game, paper, formats=("pdf",)))
    with pdf:
        words = page.extract_words(keep_blank_chars=False)
        head = next(w for w in words if w["text"] == "paper" and any(
            v["text"] == "component" and abs(v["top"] - w["top"]) < 1 for v in words))
        note_x = next(w["x0"] for w in words if w["text"] == "what" and abs(w["top"] - head["top"]) < 1)
        guide = next(w["top"] for w in words if w["text"] == "Print" and w["top"] > head["top"]
                     and any(v["text"] == "cut" and abs(v["top"] - w["top"]) < 1 for v in words))
        paper_col = _flat(page.crop((head["x0"] - 1, head["bottom"] + 1, note_x - 1, guide - 1)).extract_text())
        notes = _flat(page.crop((note_x - 1, head["bottom"] + 1, page.width, guide - 1)).extract_text())
    cards = sum(1 for c in comps if not c.board)
    boards = sum(1 for c in comps if c.board)
    assert paper_col.count("card stock 200\u2013300 g/m\u00b2") == cards
    assert paper_col.count("plain 80\u2013120 g/m\u00b2, glued onto card") == boards
    for comp in comps:  # every note printed whole, wrapped inside its column rather than cut
        assert _flat(comp.note) in notes, f"{game}: note {comp.note!r} not whole on the cover"


@pytest.mark.parametrize("game", GAMES)
def test_cover_says_what_to_print_credits_and_year(built, game):
    loaded = load_target(game)
    text = _flat(_pages_text(built(game, "a4", formats=("pdf",)))[0])
    assert loaded.spec.year, f"specs/{game}.yaml has no year"
    assert f"designed by {loaded.spec.designer} ({loaded.spec.year})" in text
    assert re.search(r"Print one copy of pages? [0-9\u2013, ]+: that is the whole game\.", text)
    assert "card stock" in text and "Print at 100 %" in text
    expected = loaded.game.credits(loaded.spec)
    for credit in expected:
        assert credit in text
    if game == "netmatch":  # the network is the kit's own layout: the figure of the rules is not published
        assert "board layout: pnp" in expected


def _bullets(result) -> list[str]:
    """The rules text of the cover, column by column, split into paragraphs at the bullets."""
    with open_pdf(pdf_of(result)) as pdf:
        text = ""
        for page in pdf.pages:
            if "cover" not in (page.extract_text() or "").splitlines()[-1]:
                continue
            w, h = float(page.width), float(page.height)
            text += " ".join(page.crop(box).extract_text() for box in ((0, 0, w / 2, h), (w / 2, 0, w, h)))
    return [_flat(b) for b in text.split("\u2022")]


def test_nonaga_does_not_forbid_splitting_the_island_as_a_rule(built):
    bullets = _bullets(built("nonaga", "a4", formats=("pdf",)))
    limits = [b for b in bullets if re.search(r"split|one group|separate groups", b, flags=re.IGNORECASE)]
    assert limits, "the cover says nothing about splitting the island"
    forbidding = [b for b in limits if re.search(r"must (never|not)|may not|may only|keep the discs", b)]
    assert forbidding, "the optional house rule is missing"
    for b in forbidding:
        assert re.search(r"optional house rule, not the designer", b, flags=re.IGNORECASE), b
    assert not any("must never split" in b or "published game" in b for b in bullets)


@pytest.mark.parametrize("game", GAMES)
def test_rules_texts_label_every_reading_as_a_house_rule(built, game):
    """A rule the designer's text does not state is printed only as a house rule: no "kit reading"
    or "seed" wording that passes a reading off as the designer's."""
    bullets = _bullets(built(game, "a4", formats=("pdf",)))
    for b in bullets:
        assert not re.search(r"kit reading|the kit follows|seed omits", b, flags=re.IGNORECASE), b
        if re.search(r"silent|not the designer", b):
            assert "house rule" in b.lower(), b


@pytest.mark.parametrize("build", sorted(BUILDS))
@pytest.mark.parametrize("game", GAMES)
def test_no_rule_line_crosses_the_cover_text(built, game, build):
    """The header grows with its page lists (wrapped in duplex); the rule under it stays below it."""
    with open_pdf(pdf_of(_build(built, game, build))) as pdf:
        page = pdf.pages[0]
        rules = [ln for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 0.5 and ln["x1"] - ln["x0"] > 100 / 0.352778]
        assert rules
        crossed = [(c["text"], round(ln["top"] * 0.352778, 1)) for ln in rules for c in page.chars
                   if c["text"].strip() and c["top"] + 0.5 < ln["top"] < c["bottom"] - 0.5]
    assert crossed == [], f"{game} {build}: text struck through by a rule line: {crossed[:5]}"
