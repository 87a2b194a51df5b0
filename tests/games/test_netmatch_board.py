"""NetMatch board, pawns and letter tokens, read back from the PDF; broken networks fail the validator."""
from collections import Counter

import pytest

from conftest import PT, REPO, filled_rects, open_pdf, pdf_of
from pnp.core.findings import FAIL
from pnp.engine import KitContext
from pnp.games.netmatch import GAME, NetMatchSpec, network_of
from pnp.pipeline.plan import load_target

SPEC = REPO / "specs" / "netmatch" / "netmatch.yaml"


def _pages(result, name):
    return next(c["pages"] for c in result.manifest["components"] if c["name"] == name)


def _rgb(hex_colour):
    return tuple(round(int(hex_colour[i:i + 2], 16) / 255, 3) for i in (1, 3, 5))


def _curves(page, diameter, tol=0.15):
    """Filled curves (circles and polygons) about ``diameter`` mm wide, with their fill colour."""
    return [tuple(round(c, 3) for c in (k.get("non_stroking_color") or ())) for k in page.curves
            if k.get("fill") and abs((k["x1"] - k["x0"]) * PT - diameter) < tol]


@pytest.fixture(scope="module")
def spec():
    return load_target("netmatch").spec


def test_board_is_one_a3_page_with_a_circle_per_node(built, spec):
    result = built("netmatch", "a3")
    pages = _pages(result, "board")
    assert len(pages) == 1
    nodes = len(network_of(spec).nodes)
    assert nodes == 85  # docs/games/netmatch.md: the default graph
    with open_pdf(pdf_of(result)) as pdf:
        page = pdf.pages[pages[0] - 1]
        circles = [k for k in page.curves if abs((k["x1"] - k["x0"]) * PT - (spec.pawn.diameter + 2)) < 0.15
                   and abs((k["bottom"] - k["top"]) * PT - (spec.pawn.diameter + 2)) < 0.15]
        assert len(circles) == nodes
        text = page.extract_text()
    for c in spec.colours:
        assert f"{c.letter} \u2014 {c.name} card box" in text


def test_board_is_tiled_on_a4(built):
    result = built("netmatch")
    assert len(_pages(result, "board")) > 1  # larger than A4: split into poster pieces
    with open_pdf(pdf_of(result)) as pdf:
        for p in _pages(result, "board"):
            assert " of 2\u00d72" in pdf.pages[p - 1].extract_text() or " of 2x2" in pdf.pages[p - 1].extract_text()


def test_pawn_and_token_counts_from_the_drawing(built, spec):
    result = built("netmatch", "a3")
    pawns, tokens = Counter(), Counter()
    symbols = Counter()
    with open_pdf(pdf_of(result)) as pdf:
        for p in _pages(result, "pawn"):
            page = pdf.pages[p - 1]
            pawns.update(_curves(page, spec.pawn.diameter))
            # the symbols on the pawns (other card-stock parts may share the sheet): white shapes
            # whose centre lies on a pawn
            discs = [(k["x0"], k["top"], k["x1"], k["bottom"]) for k in page.curves
                     if k.get("fill") and abs((k["x1"] - k["x0"]) * PT - spec.pawn.diameter) < 0.15]

            def on_pawn(x0, y0, x1, y1):
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                return any(a <= cx <= c and b <= cy <= d for a, b, c, d in discs)
            symbols.update(round((k["x1"] - k["x0"]) * PT, 1) for k in page.curves
                           if k.get("fill") and tuple(k.get("non_stroking_color") or ()) == (1.0, 1.0, 1.0)
                           and on_pawn(k["x0"], k["top"], k["x1"], k["bottom"]))
            symbols["square"] += len([r for r in filled_rects(page, (1.0, 1.0, 1.0)) if 4 < r[2] < 9
                                      and on_pawn(r[0] / PT, r[1] / PT, (r[0] + r[2]) / PT, (r[1] + r[3]) / PT)])
        for p in _pages(result, "letter token"):
            for c in spec.colours:
                tokens[_rgb(c.hex)] += len([r for r in filled_rects(pdf.pages[p - 1], _rgb(c.hex))
                                            if abs(r[2] - spec.token_size) < 0.1 and abs(r[3] - spec.token_size) < 0.1])
    palette = {_rgb(c.hex) for c in spec.colours}
    tokens = +tokens
    assert sum(pawns.values()) == 64 and set(pawns) == palette
    assert all(n == 16 for n in pawns.values())  # 4 symbols x 4 copies per colour
    assert sorted(symbols.values()) == [16, 16, 16, 16]  # each symbol: 4 colours x 4 copies
    assert sum(tokens.values()) == 16 and set(tokens) == palette
    assert all(n == 4 for n in tokens.values())


# -- broken networks -----------------------------------------------------------------------------------

def _explicit(spec):
    """The default network written out as explicit nodes and edges (generator: null)."""
    net = network_of(spec)
    data = spec.model_dump()
    data["network"].update(generator=None, edges=[list(e) for e in net.edges],
                           nodes=[{"id": n.id, "kind": n.kind, "x": n.x, "y": n.y, "side": n.side, "symbol": n.symbol}
                                  for n in net.nodes])
    return data


def _fails(data):
    spec = NetMatchSpec.model_validate(data)
    return [f.check for f in GAME.check(spec, KitContext(SPEC)) if f.status == FAIL]


def test_explicit_copy_of_the_default_passes(spec):
    assert _fails(_explicit(spec)) == []


def test_disconnected_hub_fails(spec):
    data = _explicit(spec)
    data["network"]["edges"] = [e for e in data["network"]["edges"] if "hub" not in e]
    failed = _fails(data)
    assert any("not connected" in f and "hub" in f for f in failed), failed


def test_side_with_one_symbol_twice_fails(spec):
    data = _explicit(spec)
    node = next(n for n in data["network"]["nodes"] if n["side"] == 3 and n["symbol"] == "triangle")
    node["symbol"] = "square"
    failed = _fails(data)
    assert any("side 3 carries square twice" in f for f in failed), failed


def test_side_with_five_start_nodes_fails(spec):
    data = _explicit(spec)
    nodes = data["network"]["nodes"]
    last = [n for n in nodes if n["side"] == 5][-1]
    extra = dict(last, id="s5.extra", x=last["x"] * 0.9, y=last["y"] * 0.9, symbol="circle")
    nodes.append(extra)
    data["network"]["edges"].append([last["id"], "s5.extra"])
    failed = _fails(data)
    assert any("side 5 has 5" in f for f in failed), failed
    assert any("side 5 carries circle twice" in f for f in failed), failed


def test_three_fold_network_fails_symmetry(spec):
    data = spec.model_dump()
    data["network"]["sides"] = 9
    data["side_colours"] = ["A", "B", "C"]
    spec9 = NetMatchSpec.model_validate(data)
    findings = {f.check: f.status for f in GAME.check(spec9, KitContext(SPEC))}
    assert any("9-fold rotational symmetry" in c for c in findings)  # computed, not assumed
    data["network"]["sides"] = 3
    spec3 = NetMatchSpec.model_validate(data)
    assert any("3-fold" in f.check and f.status == FAIL for f in GAME.check(spec3, KitContext(SPEC)))
