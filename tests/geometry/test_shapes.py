"""Outlines of shaped parts: a hex in its box, a designer's polygon checked, the outline grown by the
bleed and a text box's distance inside an outline, measured with plain geometry."""
import math

import pytest

from pnp.core.outline import box_inset, contains, grow, hex_in_box, signed_area
from pnp.core.safearea import insets
from pnp.geometry.dicenet import D6Net
from pnp.geometry.shapes import hex_problem, polygon_problem
from pnp.geometry.standee import PLAY, StandeeNet


def _line_distance(p, a, b):
    """Distance from p to the infinite line through a and b."""
    return abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / math.dist(a, b)


@pytest.mark.parametrize("w, h", [(40, 46), (46, 40), (30, 34.64)])
def test_hex_in_box_is_regular_and_touches_every_side(w, h):
    pts = hex_in_box(w, h)
    sides = [math.dist(pts[i], pts[(i + 1) % 6]) for i in range(6)]
    assert max(sides) / min(sides) < 1.02  # a regular hexagon within the box's tolerance
    assert {min(x for x, _ in pts), max(x for x, _ in pts), min(y for _, y in pts), max(y for _, y in pts)} == {0, w, h}
    pointy = h > w
    tops = [p for p in pts if p[1] == 0]
    assert len(tops) == (1 if pointy else 2)


def test_hex_box_tolerance():
    assert hex_problem(40, 46) is None and hex_problem(46, 40) is None
    message = hex_problem(40, 40)
    assert "[40, 46.19]" in message and "[46.19, 40]" in message
    assert hex_problem(40, 48) is not None  # 1.2: 4 % off


@pytest.mark.parametrize("points, words", [
    (((0, 0), (30, 30), (30, 0), (0, 30)), "crosses itself"),
    (((0, 0), (31, 0), (0, 30)), "point 2 [31, 0] lies outside"),
    (((0, 0), (10, 0)), "at least 3 points"),
    (((0, 0), (10, 0), (10, 0), (0, 10)), "same point"),
    (((0, 0), (10, 10), (20, 20)), "crosses itself"),  # three points on a line fold back on themselves
    (((0, 0), (20, 0), (20, 20), (10, 0), (0, 20)), "crosses itself"),  # a vertex touching an edge
])
def test_bad_polygons_are_named(points, words):
    assert words in polygon_problem(points, 30, 30)


def test_a_concave_polygon_is_fine():
    assert polygon_problem(((0, 0), (30, 0), (30, 30), (15, 10), (0, 30)), 30, 30) is None


@pytest.mark.parametrize("points", [hex_in_box(40, 46), ((0, 0), (30, 0), (30, 30), (15, 10), (0, 30)),
                                    D6Net(18).outline, StandeeNet(30, 50, 0.3).outline])
def test_grown_outline_keeps_every_edge_the_bleed_away(points):
    by = 2.0
    grown = grow(points, by)
    assert abs(signed_area(grown)) > abs(signed_area(points))
    for p in points:
        assert contains(grown, p)
    # every original edge has a grown edge parallel to it, by mm outside
    n = len(points)
    for i in range(n):
        a, b = points[i], points[(i + 1) % n]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        normal = ((b[1] - a[1]) / math.dist(a, b), -(b[0] - a[0]) / math.dist(a, b))  # outward: clockwise outlines
        out = (mid[0] + normal[0] * by, mid[1] + normal[1] * by)
        m = len(grown)
        assert min(_line_distance(out, grown[j], grown[(j + 1) % m]) for j in range(m)) < 1e-6


def test_box_inset_inside_an_outline():
    hexagon = hex_in_box(40, 46)
    assert box_inset((10, 18, 30, 28), hexagon) == pytest.approx(10.0)  # 10 mm from the vertical sides
    assert box_inset((0, 0, 5, 5), hexagon) < 0  # the box's corner is outside the hex
    assert insets((10, 18, 30, 28), 40, 46, outline=hexagon) == {"outline": pytest.approx(10.0)}
    notched = StandeeNet(30, 50, 0.3).outline  # the slot cuts into a box across the strip's end
    assert box_inset((5, 1, 25, 4), notched) <= 0


def test_standee_slots_lock_in_the_base():
    net = StandeeNet(30, 50, 0.3)
    strip, base = net.outline, net.base_outline
    depth_strip = max(y for x, y in strip if y < net.length / 2)  # the slot from the strip's top end
    depth_base = max(y for x, y in base if 0 < x < net.base_size[0] and y < net.base_size[1])
    assert depth_strip + depth_base == pytest.approx(net.stand) == pytest.approx(net.base_size[1])
    xs = sorted({x for x, y in strip if 0 < x < net.width})
    assert xs[-1] - xs[0] == pytest.approx(0.3 + PLAY)  # takes the fin: one layer
    bx = sorted({x for x, y in base if 0 < x < net.base_size[0]})
    assert bx[-1] - bx[0] == pytest.approx(2 * 0.3 + PLAY)  # takes the folded stands: two layers
