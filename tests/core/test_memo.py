"""pnp.core.memo: the byte budget is never exceeded, least recently used entries of earlier rounds go
first, entries of the current round stay, a kind's share is a cap, and a failed make keeps nothing."""
from __future__ import annotations

import pytest

from pnp.core.memo import Memo, active, digest, memoised


def _put(memo: Memo, key, nbytes: int, share: float = 1.0):
    return memo.get("thing", key, lambda: f"value {key}", lambda _v: nbytes, share)


def test_budget_is_never_exceeded_and_the_oldest_round_goes_first():
    memo = Memo(budget=1000)
    with memo.in_use():
        for k in range(4):
            _put(memo, k, 200)
    with memo.in_use():
        _put(memo, 0, 200)           # a hit: now the most recently used
        for k in range(10, 13):      # 600 more bytes: only 200 fit beside the 800 held
            _put(memo, k, 200)
            assert memo.used <= memo.budget
    assert memo.used <= memo.budget
    with memo.in_use():
        before = memo.made["thing"]
        _put(memo, 0, 200)           # kept: used in the last round
        assert memo.made["thing"] == before
        _put(memo, 1, 200)           # dropped first (least recently used in an earlier round)
        assert memo.made["thing"] == before + 1


def test_entries_of_the_current_round_are_not_dropped_for_new_ones():
    memo = Memo(budget=500)
    with memo.in_use():
        for k in range(5):
            _put(memo, k, 200)       # the third does not fit: made, not kept
        assert memo.used == 400 and len(memo) == 2
    with memo.in_use():
        made = memo.made["thing"]
        _put(memo, 0, 200)
        _put(memo, 1, 200)
        assert memo.made["thing"] == made  # what the last round kept is still there


def test_a_share_caps_one_kind_and_an_oversized_entry_is_not_kept():
    memo = Memo(budget=1000)
    with memo.in_use():
        for k in range(5):
            _put(memo, k, 200, share=0.5)
        assert memo.held["thing"] <= 500
        memo.get("big", 1, lambda: b"x", lambda _v: 5000)
        assert ("big" not in memo.held or memo.held["big"] == 0) and memo.used <= 1000


def test_a_failed_make_keeps_nothing_and_no_memo_means_no_keeping():
    memo = Memo(budget=1000)

    def boom():
        raise ValueError("bad input")
    with memo.in_use():
        with pytest.raises(ValueError):
            memo.get("thing", 1, boom, len)
        assert len(memo) == 0 and memo.used == 0
    assert active() is None
    calls = []
    for _ in range(2):
        memoised("thing", 1, lambda: calls.append(1), lambda _v: 1)
    assert len(calls) == 2


def test_digest_parts_do_not_run_together():
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("ab", "c") == digest("ab", "c")


def test_keep_replaces_an_entry_and_find_reads_it_without_making():
    memo = Memo(budget=100)
    with memo.in_use():
        assert memo.find("pdf kit", "a") is None
        memo.keep("pdf kit", "a", "first", 60)
        memo.keep("pdf kit", "a", "second", 70)  # replaces: the first one's bytes are given back
        assert memo.used == 70 and memo.held["pdf kit"] == 70 and len(memo) == 1
        assert memo.find("pdf kit", "a") == "second"
        memo.keep("pdf kit", "b", "too big", 101)  # over the budget: not kept
    assert memo.find("pdf kit", "b") is None
    assert memo.made["pdf kit"] == 3 and memo.reused["pdf kit"] == 1 and memo.used == 70
