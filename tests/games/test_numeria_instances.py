"""Numeria's trope instances come from per-type generators (arithmetic runs, powers, sequence
windows); they must be exactly what filtering every subset of 1..n through the definitions gives."""
from __future__ import annotations

import pytest

from pnp.games.numeria.tropes import instances, instances_brute


@pytest.mark.parametrize("length, top", [(2, 40), (3, 40), (4, 40), (5, 24)])
def test_generated_instances_equal_the_brute_force(length, top):
    for n in range(1, top + 1):
        assert instances(n, length) == instances_brute(n, length), (n, length)


def test_the_standard_game():
    found = instances(36, 4)
    assert found == instances_brute(36, 4)
    assert found["power"] == ((1, 2, 4, 8), (1, 3, 9, 27), (2, 4, 8, 16), (4, 8, 16, 32))
    assert found["plus123"][:2] == ((1, 2, 4, 7), (2, 3, 5, 8))
