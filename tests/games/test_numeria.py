"""Numeria: board squares and tile numbers read back from the PDF, the trope card against an
independent enumeration, and the validator's errata found by checking the seed's examples."""
import json
import re
import subprocess
import sys

import pytest

from boardread import inside_any, placements
from conftest import PT, REPO, filled_rects, open_pdf, pdf_of
from pnp.core.findings import FAIL, PASS, WARN
from pnp.engine import KitContext
from pnp.games.numeria import GAME, NumeriaSpec
from pnp.pipeline.plan import load_target

TILE_FILL = "#fffdf5"  # the tile field of specs/numeria/tile.yaml


def _pages(result, name):
    return next(c["pages"] for c in result.manifest["components"] if c["name"] == name)


def _independent_tropes(n=36):
    """The trope types of docs/games/numeria.md built constructively (no predicates)."""
    primes = [p for p in range(2, n + 1) if all(p % q for q in range(2, p))]
    fib = [1, 2]
    while fib[-1] + fib[-2] <= n:
        fib.append(fib[-1] + fib[-2])
    squares = [i * i for i in range(1, 7) if i * i <= n]
    tri = [i * (i + 1) // 2 for i in range(1, 9) if i * (i + 1) // 2 <= n]

    def windows(seq):
        return {tuple(seq[i:i + 4]) for i in range(len(seq) - 3)}

    arith = {(a, a + d, a + 2 * d, a + 3 * d) for d in range(1, n) for a in range(1, n + 1) if a + 3 * d <= n}
    powers = set()
    for b in range(2, n + 1):
        seq = [b ** k for k in range(0, 7) if b ** k <= n]
        powers |= windows(seq)
    return {
        "Consecutive": {t for t in arith if t[1] - t[0] == 1},
        "Multiples": {t for t in arith if t[1] - t[0] >= 2 and t[0] % (t[1] - t[0]) == 0},
        "Irregular repeating": {t for t in arith if t[1] - t[0] >= 2 and t[0] % (t[1] - t[0])},
        "Plus 1 Plus 2 Plus 3": {(a, a + 1, a + 3, a + 6) for a in range(1, n - 5)},
        "Prime": windows(primes),
        "Power": powers,
        "Squares": windows(squares),
        "Triangular": windows(tri),
        "Fibonacci": windows(fib),
    }


def test_board_has_64_labelled_squares_on_one_page(built):
    for paper in ("a4", "letter"):
        result = built("numeria", paper)
        pages = _pages(result, "board")
        assert len(pages) == 1, paper
    with open_pdf(pdf_of(built("numeria"))) as pdf:
        words = pdf.pages[pages[0] - 1].extract_words()
    labels = {w["text"] for w in words if re.fullmatch(r"[a-h][1-8]", w["text"])}
    assert len(labels) == 64


def test_36_distinct_numbers_on_the_tiles(built):
    result = built("numeria")
    with open_pdf(pdf_of(result)) as pdf:
        words = [w for index, boxes in placements("numeria", "a4", "tile").items()  # tiles share sheets
                 for w in pdf.pages[index].extract_words(extra_attrs=["size"])
                 if inside_any((w["x0"] + w["x1"]) / 2 * PT, (w["top"] + w["bottom"]) / 2 * PT, boxes)]
    numbers = [int(w["text"]) for w in words if w["size"] > 8 and w["upright"]]  # the large centre number (copies: 6 pt)
    assert sorted(numbers) == list(range(1, 37))


def test_only_6_and_9_are_underlined(built):
    result = built("numeria")
    fill = tuple(round(int(TILE_FILL[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))  # specs/numeria/tile.yaml
    underlined = set()
    with open_pdf(pdf_of(result)) as pdf:
        for p in _pages(result, "tile"):
            page = pdf.pages[p - 1]
            tiles = filled_rects(page, fill)
            words = page.extract_words(extra_attrs=["size"])
            for x, y, w, h in tiles:
                rules = [l for l in page.lines if x < l["x0"] * PT < x + w and y < l["top"] * PT < y + h]
                if rules:
                    underlined |= {int(t["text"]) for t in words if t["size"] > 8
                                   and x < t["x0"] * PT < x + w and y < t["top"] * PT < y + h}
    assert underlined == {6, 9}


def test_trope_card_matches_an_independent_enumeration(built):
    result = built("numeria")
    (page_no,) = _pages(result, "trope card")
    with open_pdf(pdf_of(result)) as pdf:
        text = pdf.pages[page_no - 1].extract_text()
    expected = _independent_tropes()
    found, current = {}, None
    for line in text.splitlines():
        head = re.match(r"(.+?) \u2014 .* \u2014 (\d+)$", line.strip())
        if head and head.group(1) in expected:
            current = head.group(1)
            found[current] = set()
            declared = int(head.group(2))
            continue
        if current:
            for m in re.findall(r"\d+, \d+, \d+, \d+", line):
                found[current].add(tuple(map(int, m.split(", "))))
    assert set(found) == set(expected)
    for name, sets in expected.items():
        assert found[name] == sets, name
    union = set().union(*expected.values())
    assert len(union) == 252  # docs/games/numeria.md
    assert f"{len(union)} distinct sets" in text
    assert declared == len(expected["Fibonacci"])


def test_trope_card_text_is_at_least_7_pt(built):
    result = built("numeria")
    (page_no,) = _pages(result, "trope card")
    with open_pdf(pdf_of(result)) as pdf:
        page = pdf.pages[page_no - 1]
        boxes = placements("numeria", "a4", "trope card")[page_no - 1]  # the card only: tiles share its sheet
        sizes = [c["size"] * 1.0 for c in page.chars if inside_any(c["x0"] * PT, c["top"] * PT, boxes)]
    assert min(sizes) >= 7 * 0.9  # the intro line is 0.9 x the card size


def _findings(data=None):
    spec = load_target("numeria").spec if data is None else NumeriaSpec.model_validate(data)
    return GAME.check(spec, KitContext(load_target("numeria").path))


def test_errata_are_found_by_the_check():
    findings = _findings()
    warnings = [f.check for f in findings if f.status == WARN]
    assert not [f for f in findings if f.status == FAIL]
    assert any("1, 2, 3, 5" in w and "1 is not prime" in w and "Fibonacci" in w for w in warnings)
    assert any("23, 29, 31, 33" in w and "33 = 3 \u00d7 11" in w and "19, 23, 29, 31" in w for w in warnings)
    assert any("\"2 5\" read as 25" in w for w in warnings)
    assert len(warnings) == 3


def test_corrected_examples_give_no_warnings():
    data = load_target("numeria").spec.model_dump()
    line, text = data["examples"]["prime"]
    data["examples"]["prime"] = (line, text.replace("1, 2, 3, 5,", "2, 3, 5, 7").replace("23, 29, 31, 33", "19, 23, 29, 31"))
    line, text = data["examples"]["irregular"]
    data["examples"]["irregular"] = (line, text.replace("21,2 5", "21, 25"))
    assert [f.check for f in _findings(data) if f.status != PASS] == []
    data["examples"]["squares"] = (30, "Squares Run--- Example: 1, 4, 9, 15")
    assert any("15 = 3 \u00d7 5 is not a square" in f.check for f in _findings(data) if f.status == WARN)


def test_counts_per_type_match_the_independent_enumeration():
    text = " ".join(f.check for f in _findings())
    for name, sets in _independent_tropes().items():
        assert f"{name} {len(sets)}" in text


@pytest.mark.parametrize("field,value,needle", [("tiles", 35, "35 tiles"), ("setup_area", ["b2", "g6"], "30 squares"),
                                                 ("centre", ["a1", "e4", "d5", "e5"], "central")])
def test_broken_setup_fails(field, value, needle):
    data = load_target("numeria").spec.model_dump()
    data[field] = value
    assert any(needle in f.check for f in _findings(data) if f.status == FAIL)


# Six Numeria specs that lay the trope card out differently (card size, tile count, smallest size),
# each card's (card_size_pt, draw_card) as repr, in the order given by argv[1] ("forward" or "back").
ORDER_SCRIPT = """
import json, sys
from pnp.games.numeria import NumeriaSpec, drawing
from pnp.pipeline.plan import load_target
base = load_target("numeria").spec.model_dump()
cases = (({"width": 165.0, "height": 220.0}, 36, 7.0), ({"width": 165.0, "height": 180.0}, 36, 7.0),
         ({"width": 165.0, "height": 180.0}, 36, 4.0), ({"width": 200.0, "height": 220.0}, 36, 4.0),
         ({"width": 165.0, "height": 220.0}, 25, 7.0), ({"width": 90.0, "height": 120.0}, 36, 4.0))
variants = [NumeriaSpec.model_validate({**base, "card": c, "tiles": t, "min_card_pt": m}) for c, t, m in cases]
order = range(len(variants)) if sys.argv[1] == "forward" else reversed(range(len(variants)))
got = {i: [drawing.card_size_pt(variants[i]), repr(drawing.draw_card(variants[i]))] for i in order}
print(json.dumps([got[i] for i in range(len(variants))]))
"""


def _answers(order: str) -> list:
    """ORDER_SCRIPT's answers from a fresh interpreter: nothing kept from another card."""
    proc = subprocess.run([sys.executable, "-c", ORDER_SCRIPT, order], capture_output=True, text=True,
                          timeout=300, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_trope_card_size_is_the_same_asked_in_any_order():
    """card_size_pt and the card layout are kept per spec value (the checks and the drawing share
    them): every field that changes the answer must be part of what they are kept by, so asking
    for other cards first changes no answer. Each order runs in a fresh interpreter, so the
    second order does not read what the first kept."""
    first, again = _answers("forward"), _answers("back")
    assert first == again
    sizes = [size for size, _ in first]
    assert len(set(sizes)) >= 3, sizes          # the variants do lay out differently
    assert sizes[1] is None or sizes[1] < sizes[0]   # a shorter card: smaller text
