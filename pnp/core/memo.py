"""What a long-lived process (`pnp watch`) keeps between builds: an in-memory LRU with a byte budget.

Each entry is keyed by what it was made from (content hashes: the picture's bytes, the drawn page's
full description with the fonts' bytes), never by a file's name or modification time, so a changed
input can only miss. Nothing is read from or written to disk. A build outside `pnp watch` has no
memo (``active()`` is None) and makes everything afresh.

Use::

    memo = Memo(budget=512 * 2**20)
    with memo.in_use():
        ...  # builds: memoised() calls consult memo
    memo.made["picture"]   # how many pictures were made (misses) while it was in use

Single-threaded: the watch loop builds in one thread (the preview server reads only files). The memo
in use is a context variable set by ``in_use`` (per thread and per asyncio task), not a module global.
"""
from __future__ import annotations

import hashlib
from collections import Counter, OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Hashable, Iterator, TypeVar

T = TypeVar("T")

DEFAULT_BUDGET = 1536 * 2 ** 20  # bytes: 400 decoded 660 x 660 pictures (about 3 MB each) and their pages fit

_ACTIVE: 'ContextVar["Memo | None"]' = ContextVar("pnp_memo", default=None)


class Memo:
    """An LRU of made things with a ``budget`` in bytes (each entry's size is the caller's estimate,
    at least 1). ``made[kind]`` counts entries made (misses), ``reused[kind]`` hits; ``used`` is the
    bytes held, never above ``budget``.

    Eviction drops the least recently used entries, but never one used since the memo was last put
    in use (``in_use``, once per round of builds): a new entry that fits only by dropping those is
    made and not kept. A round that needs more than the budget so keeps what it made first, instead of
    dropping every entry before the next round asks for it (cyclic access defeats a plain LRU). A
    ``share`` (0 to 1) given to ``get`` caps the bytes of that kind, so large entries (decoded
    pictures) leave room for the rest."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        if budget < 0:
            raise ValueError("a memo's budget is a number of bytes, 0 or more")
        self.budget = budget
        self.used = 0
        self._entries: OrderedDict[Hashable, list] = OrderedDict()  # (kind, key) -> [value, bytes, round]
        self._round = 0
        self.held: Counter[str] = Counter()  # bytes per kind
        self.made: Counter[str] = Counter()
        self.reused: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, kind: str, key: Hashable, make: Callable[[], T], size: Callable[[T], int],
            share: float = 1.0) -> T:
        """The entry ``(kind, key)``, made with ``make()`` (and kept, ``size(value)`` bytes, when it fits:
        see the class) when absent. Exceptions of ``make`` pass through and nothing is kept."""
        if (kind, key) in self._entries:
            return self.find(kind, key)  # type: ignore[return-value]
        value = make()
        self.keep(kind, key, value, size(value), share)
        return value

    def find(self, kind: str, key: Hashable):
        """The entry ``(kind, key)`` (counted as reused), or None when absent."""
        got = self._entries.get((kind, key))
        if got is None:
            return None
        self._entries.move_to_end((kind, key))
        got[2] = self._round
        self.reused[kind] += 1
        return got[0]

    def count(self, kind: str, made: int = 0, reused: int = 0) -> None:
        """Count things of ``kind`` made and reused that are not entries (e.g. pages drawn and reused)."""
        self.made[kind] += made
        self.reused[kind] += reused

    def keep(self, kind: str, key: Hashable, value, size: int, share: float = 1.0) -> None:
        """Hold ``value`` (``size`` bytes) as the entry ``(kind, key)`` in place of the one there, when it
        fits (see the class; counted as made)."""
        old = self._entries.pop((kind, key), None)
        if old is not None:
            self.used -= old[1]
            self.held[kind] -= old[1]
        self.made[kind] += 1
        nbytes = max(1, int(size))
        if self._room(kind, nbytes, share * self.budget):
            self._entries[(kind, key)] = [value, nbytes, self._round]
            self.used += nbytes
            self.held[kind] += nbytes

    def _room(self, kind: str, nbytes: int, cap: float) -> bool:
        """Drop entries of earlier rounds, least recently used first (those of ``kind`` only while just its
        ``cap`` is short), until ``nbytes`` more fit in the budget and in the cap; False when they cannot."""
        if nbytes > cap:
            return False
        for full in list(self._entries):  # least recently used first; the current round's come last
            over = self.used + nbytes > self.budget
            if not over and self.held[kind] + nbytes <= cap:
                return True
            _, size, used_in = self._entries[full]
            if used_in == self._round:
                return False
            if over or full[0] == kind:
                del self._entries[full]
                self.used -= size
                self.held[full[0]] -= size
        return self.used + nbytes <= self.budget and self.held[kind] + nbytes <= cap

    def clear(self) -> None:
        """Drop every entry (the counters stay)."""
        self._entries.clear()
        self.held.clear()
        self.used = 0

    @contextmanager
    def in_use(self) -> Iterator["Memo"]:
        """Make this the memo that ``memoised`` consults for the duration (nested: the outer one comes back)."""
        token = _ACTIVE.set(self)
        self._round += 1
        try:
            yield self
        finally:
            _ACTIVE.reset(token)


def active() -> Memo | None:
    """The memo in use, or None (a plain build)."""
    return _ACTIVE.get()


def memoised(kind: str, key: Hashable, make: Callable[[], T], size: Callable[[T], int], share: float = 1.0) -> T:
    """``make()`` itself without a memo in use, else the memo's entry (see Memo.get)."""
    memo = _ACTIVE.get()
    return make() if memo is None else memo.get(kind, key, make, size, share)


def digest(*parts: str | bytes) -> str:
    """sha256 (hex) of ``parts``, each length-prefixed (no two different lists of parts collide by joining)."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "big"))
        h.update(b)
    return h.hexdigest()
