"""Rules quick-reference texts (specs/<game>/rules.md): format, length, and no copying from the seeds.

Each file uses a tiny Markdown subset: line 1 ``# Title``, line 2 a one-line description, then the
five ``## `` sections below in order, holding short paragraphs and ``- `` bullets only. The texts must
summarise the original rules in the project's own words, so no run of OVERLAP_RUN or more consecutive
words (case-insensitive, punctuation stripped) may be shared with the game's seed text.

The seed texts are not part of the repository (they live in the project's shared folder, beside a
checkout as ../shared/seeds). The overlap check works without them: tests/reference/seed-runs/
<game>.txt holds a fingerprint (the first 8 hex digits of SHA-256) of every run of OVERLAP_RUN words
of the seed, which says whether a run of the rules text occurs in the seed without holding the
seed's words. Where the seeds are present, a second test checks the fingerprints against them;
``python3 -m tests.make_references --seeds DIR`` writes them again.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from pnp.core.fonts import missing_glyphs

REPO = Path(__file__).resolve().parents[2]
SPECS = REPO / "specs"  # each game's rules: specs/<game>/rules.md
SEEDS = REPO.parent / "shared" / "seeds"
FINGERPRINTS = REPO / "tests" / "reference" / "seed-runs"

SECTIONS = ["Components", "Setup", "A turn", "End and winner", "Fine points"]
MAX_WORDS = 420
MAX_DESCRIPTION = 110
OVERLAP_RUN = 8

# game -> (title, seed file prefix)
GAMES = {
    "nonads": ("Nonads", "000_"),
    "nooks": ("Nooks", "001_"),
    "numeria": ("Numeria", "002_"),
    "netmatch": ("NetMatch", "003_"),
    "nonaga": ("Nonaga", "004_"),
}

_WORD = re.compile(r"\w+")
_MARKUP = re.compile(r"\*|__|`|\[[^\]]*\]\(|^\s*[*+]\s|^\s*\d+[.)]\s|^\s{2,}-\s|\|")


def parse(text: str) -> dict:
    """Parse the rules subset: {"title", "description", "sections": [(heading, [blocks])]}.

    A block is ("p", text) for a paragraph (consecutive lines joined) or ("li", text) for a bullet.
    Raises ValueError on anything outside the subset.
    """
    lines = text.splitlines()
    if len(lines) < 3:
        raise ValueError("too short: need a title, a description and sections")
    if not lines[0].startswith("# ") or lines[0].startswith("## ") or not lines[0][2:].strip():
        raise ValueError(f"line 1 must be '# <title>', got {lines[0]!r}")
    desc = lines[1].strip()
    if not desc or desc.startswith(("#", "- ")):
        raise ValueError(f"line 2 must be a plain one-line description, got {lines[1]!r}")
    sections: list[tuple[str, list]] = []
    para: list[str] = []

    def flush():
        if para:
            sections[-1][1].append(("p", " ".join(para)))
            para.clear()

    for n, line in enumerate(lines[2:], start=3):
        if _MARKUP.search(line):
            raise ValueError(f"line {n}: markup outside the subset: {line!r}")
        if line.startswith("## "):
            flush()
            sections.append((line[3:].strip(), []))
        elif line.startswith("#"):
            raise ValueError(f"line {n}: only '# ' on line 1 and '## ' headings are allowed: {line!r}")
        elif not line.strip():
            if sections:
                flush()
        elif not sections:
            raise ValueError(f"line {n}: text before the first '## ' heading: {line!r}")
        elif line.startswith("- "):
            flush()
            sections[-1][1].append(("li", line[2:].strip()))
        elif line[0].isspace():
            raise ValueError(f"line {n}: indented text (nested lists are not allowed): {line!r}")
        else:
            para.append(line.strip())
    if sections:
        flush()
    return {"title": lines[0][2:].strip(), "description": desc, "sections": sections}


def words(text: str) -> list[str]:
    """Lower-case words with punctuation stripped (letters and digits of any script)."""
    return _WORD.findall(text.replace("_", " ").lower())


def shared_runs(a: str, b: str, n: int = OVERLAP_RUN) -> list[str]:
    """Every run of ``n`` consecutive words of ``a`` that also occurs in ``b``."""
    wa, wb = words(a), words(b)
    grams_b = {tuple(wb[i:i + n]) for i in range(len(wb) - n + 1)}
    return [" ".join(wa[i:i + n]) for i in range(len(wa) - n + 1) if tuple(wa[i:i + n]) in grams_b]


def runs(text: str, n: int = OVERLAP_RUN) -> list[str]:
    """Every run of ``n`` consecutive words of ``text``, as the words joined by single spaces."""
    w = words(text)
    return [" ".join(w[i:i + n]) for i in range(len(w) - n + 1)]


def fingerprint(run: str) -> str:
    """The first 8 hex digits of the SHA-256 of a run (UTF-8)."""
    return hashlib.sha256(run.encode("utf-8")).hexdigest()[:8]


def seed_fingerprints(seed_text: str) -> list[str]:
    """Sorted distinct fingerprints of every run of OVERLAP_RUN words of a seed text."""
    return sorted({fingerprint(r) for r in runs(seed_text)})


def stored_fingerprints(game: str) -> set[str]:
    """The fingerprints in tests/reference/seed-runs/<game>.txt (``#`` lines are comments)."""
    lines = (FINGERPRINTS / f"{game}.txt").read_text(encoding="utf-8").splitlines()
    return {tok for line in lines if not line.startswith("#") for tok in line.split()}


def copied_runs(text: str, fingerprints: set[str]) -> list[str]:
    """Every run of OVERLAP_RUN words of ``text`` whose fingerprint is among ``fingerprints``."""
    return [r for r in runs(text) if fingerprint(r) in fingerprints]


def seed_file(game: str) -> Path:
    """The game's seed text in SEEDS (one file named by its prefix)."""
    seeds = sorted(SEEDS.glob(GAMES[game][1] + "*.txt"))
    assert len(seeds) == 1, f"expected one seed {GAMES[game][1]}*.txt in {SEEDS}, found {seeds}"
    return seeds[0]


def rules_text(game: str) -> str:
    return (SPECS / game / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_format_and_length(game):
    doc = parse(rules_text(game))
    assert doc["title"] == GAMES[game][0]
    assert len(doc["description"]) <= MAX_DESCRIPTION, doc["description"]
    assert [h for h, _ in doc["sections"]] == SECTIONS
    for heading, blocks in doc["sections"]:
        assert blocks, f"{game}: section {heading!r} is empty"
    count = len(words(rules_text(game)))
    assert count <= MAX_WORDS, f"{game}: {count} words (limit {MAX_WORDS})"
    assert missing_glyphs(rules_text(game)) == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_long_runs_copied_from_seed(game):
    copied = copied_runs(rules_text(game), stored_fingerprints(game))
    assert not copied, f"{game}: {len(copied)} run(s) of {OVERLAP_RUN}+ words copied from the seed, e.g. {copied[0]!r}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seed_fingerprints_match_the_seed_texts(game):
    if not SEEDS.is_dir():
        pytest.skip("the original rule texts are not in this checkout (they live in the project's shared "
                    "folder, not in the repository); this test only checks that tests/reference/seed-runs/ "
                    "was made from them. The no-copying check itself ran from those fingerprints.")
    seed = seed_file(game).read_text(encoding="utf-8", errors="replace")
    assert sorted(stored_fingerprints(game)) == seed_fingerprints(seed), (
        f"tests/reference/seed-runs/{game}.txt is not made from {seed_file(game).name}: "
        f"run python3 -m tests.make_references --seeds {SEEDS}")
    assert copied_runs(rules_text(game), stored_fingerprints(game)) == [
        r for r in runs(rules_text(game)) if shared_runs(r, seed)]  # fingerprints find what the words find


# -- the checks themselves can fail -------------------------------------------------------------------

GOOD = "# T\nDescription.\n\n" + "".join(f"## {h}\nText.\n\n- Item.\n\n" for h in SECTIONS)


def test_parser_accepts_the_subset():
    doc = parse(GOOD)
    assert doc["title"] == "T" and [h for h, _ in doc["sections"]] == SECTIONS
    assert doc["sections"][0][1] == [("p", "Text."), ("li", "Item.")]


@pytest.mark.parametrize("bad", [
    GOOD.replace("# T\n", "T\n", 1),                  # no title line
    GOOD.replace("Text.", "**Text.**", 1),            # bold
    GOOD.replace("- Item.", "  - Item.", 1),          # nested list
    GOOD.replace("Text.", "See [x](http://x).", 1),   # link
    GOOD.replace("## Setup", "### Setup", 1),         # other heading level
])
def test_parser_rejects_markup_outside_the_subset(bad):
    with pytest.raises(ValueError):
        parse(bad)


def test_fingerprint_check_catches_a_copied_sentence():
    seed = "Tiles cannot overlap and cannot partially touch existing tiles; all tiles must follow a grid."
    prints = set(seed_fingerprints(seed))
    assert copied_runs("In short, TILES cannot overlap, and cannot partially touch existing tiles!", prints)
    assert not copied_runs("Tiles never overlap and never touch with a partial offset.", prints)


def test_overlap_check_catches_a_copied_sentence():
    seed = "Tiles cannot overlap and cannot partially touch existing tiles; all tiles must follow a grid."
    assert shared_runs("In short, TILES cannot overlap, and cannot partially touch existing tiles!", seed)
    assert not shared_runs("Tiles never overlap and never touch with a partial offset.", seed)
