"""What each column of a designer's table is for, read from its header and its cells (`pnp new`).

One role per column, decided in this order (the first that applies):

- ``empty``: no filled cell; nothing to print. ``skipped``: a header with ``{`` or ``}``, which no
  placeholder can name; not printed, and the note says why.
- ``copies``: a count-like header (QUANTITY_WORDS in the languages pnp speaks, as a word of the
  header: ``item-count``, ``Anzahl``, ``#``, ``x``) over whole numbers 0..MAX_COPIES, never a column
  whose values are each row's number, a permutation of 1..n, all different (a rank, an id), or a
  tally far larger than a deck holds (MAX_TALLY cards, MAX_EACH of one card).
- ``url``: every filled cell is a web address (``http://``, ``https://``): never fetched in a build.
- ``picture``: every filled cell names a picture file (pnp.custom.columns.is_picture).
- ``colour``: every filled cell is a ``#rgb``/``#rrggbb`` colour: a fill, not text.
- ``flag``: every filled cell is one of two yes/no values (``0``/``1``, ``x``, ``TRUE``/``FALSE``,
  ``yes``/``no`` and the like) and at least one is a yes: shown as a chip on the cards that have it.
- ``key``: codes under an id-like header (at most KEY_NAMED_CHARS characters: a slug is an id too) or
  short codes holding a digit (at most KEY_CHARS), every cell filled, different and without spaces.
- ``title``: short text (at most TITLE_CHARS, TITLE_NAMED_CHARS under a name-like header), nearly
  unique (NEARLY_UNIQUE of the rows, NAMED_UNIQUE under a name-like header): the card's
  name on the card, in Tabletop Simulator and in `pnp diff`. A name-like header wins over position.
- ``category``: 2..MAX_CATEGORIES distinct short values, each on several rows: a colour band and
  label per value.
- ``body``: long text (a cell over LONG_CHARS characters): wrapped in a box of its own.
- ``field``: everything else, printed as a label and its value.

Only one column takes each of ``copies``, ``key``, ``title`` and ``category``; a second candidate
takes the next role that applies. Each decision carries the reason shown by `pnp new`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..text import MarkupError, parse
from .columns import is_picture, whole_count
from .spec import MAX_COPIES


MAX_TALLY = 20_000  # cards in a deck at most, for a column to be read as copies (a whole Dominion: 4,386)
MAX_EACH = 200  # copies of one card at most, likewise
TITLE_CHARS = 40
TITLE_NAMED_CHARS = 60  # under a name-like header (TITLE_WORDS): a long name is still the card's name (two lines)
LONG_CHARS = 60
NEARLY_UNIQUE = 0.8
NAMED_UNIQUE = 0.5  # under a name-like header (a card reprinted in several sets shares its name)
MAX_CATEGORIES = 8
KEY_CHARS = 16  # a column of short codes holding a digit (K01, 3-17B), under any header
KEY_NAMED_CHARS = 40  # under an id-like header (KEY_WORDS): a slug such as "continental_crush" is an id too
NUMBER_MEDIAN = 3  # under a header that may mean either (number, Nr), counts have half their values at most this
STRONG_ROWS = 10  # rows from which a copies column's values 1..n, each once, are a card number even so

QUANTITY_WORDS = frozenset({
    "copies", "copy", "count", "counts", "qty", "quantity", "quantities", "amount", "cards", "numcards", "x",
    "#", "n", "anzahl", "menge", "stuck", "stueck", "stk", "kopien", "exemplare", "cantidad", "copias", "cant",
    "nombre", "quantite", "exemplaires", "quantita", "copie", "darab", "db", "mennyiseg", "darabszam", "pocet",
    "ks", "kusu", "ilosc", "liczba", "szt", "sztuk", "kopie", "aantal", "antal", "quantidade", "copia",
})
"""Words of a header (case and accents folded) that name how many of each card: English, German,
Spanish, French, Italian, Hungarian, Czech, Polish, Dutch, Swedish/Danish, Portuguese."""
NUMBER_WORDS = frozenset({"number", "num", "nr", "no", "nummer", "numero", "szam", "cislo", "numer"})
"""Header words that may mean a count or a card's own number: read as copies only when the values
repeat like counts do."""
KEY_WORDS = frozenset({"id", "code", "key", "ref", "sku", "kod", "kodas", "azonosito", "kennung", "codigo",
                       "identifiant", "uid", "cardid"}) | NUMBER_WORDS
TITLE_WORDS = frozenset({"name", "title", "card", "cardname", "nev", "cim", "nombre", "titulo", "titre", "nom",
                         "titel", "nazev", "nazwa", "karte", "kartenname", "carta", "kartya", "karta", "word",
                         "wort", "palabra", "mot", "szo", "slovo"})
YES = frozenset({"1", "x", "true", "yes", "y", "ja", "j", "si", "sí", "oui", "igen", "ano", "tak", "wahr", "✓", "✔"})
NO = frozenset({"0", "false", "no", "n", "nein", "non", "nem", "ne", "nie", "falsch", "-"})
KIND_WORDS = frozenset({"type", "kind", "class", "faction", "suit", "colour", "color", "category", "typ", "tipo",
                        "tipus", "fajta", "druh", "rodzaj", "art", "sorte", "couleur", "farbe", "deck", "frakcio",
                        "frakce", "frakcja", "fraktion", "faccion", "clase", "klasse", "trida", "osztaly", "verso",
                        "side", "seite", "lado"})
"""Header words of a column that sorts cards into kinds (its values then colour the cards' bands)."""
NOT_APPLICABLE = frozenset({"n/a", "#n/a", "na", "\u2014", "\u2013"})
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_URL = re.compile(r"https?://\S+", re.IGNORECASE)


def words(header: str) -> list[str]:
    """A header's words, case and accents folded: 'Item-Count' -> ['item', 'count'], '#' -> ['#']."""
    h = "".join(c for c in unicodedata.normalize("NFKD", header.strip().casefold().replace("ł", "l").replace("ß", "ss"))
                if not unicodedata.combining(c))
    if h in ("#", "x", "@count"):
        return ["#" if h != "@count" else "count"]
    return [w for w in re.split(r"[^0-9a-z#]+", h) if w] + ([re.sub(r"[^0-9a-z]", "", h)] if " " in h or "_" in h
                                                            or "-" in h else [])


@dataclass(frozen=True, eq=False)
class Column:
    """One column: its ``header`` as written, its ``role`` (see the module), ``why`` in a few words,
    and for a category its ``values`` in order of first appearance."""
    header: str
    role: str
    why: str
    values: tuple[str, ...] = ()
    markup: bool = True  # False when a cell would be misread as markup (an unbalanced * or **)
    bad_count: bool = False  # a count-like header over mostly whole numbers with one that is not: a typo


@dataclass(eq=False)
class Roles:
    """The columns of a table in header order, each with its role."""
    columns: list[Column] = field(default_factory=list)

    def of(self, role: str) -> list[Column]:
        """The columns of one role, in header order."""
        return [c for c in self.columns if c.role == role]

    def one(self, role: str) -> Column | None:
        got = self.of(role)
        return got[0] if got else None


def _is_count_header(header: str) -> tuple[bool, bool]:
    """(a count-like header, one that may also mean a card's own number: a number word alone, as
    ``number`` or ``Nr.``; ``set_num`` or ``card no`` number something else)."""
    ws = words(header)
    return any(w in QUANTITY_WORDS for w in ws), len(ws) == 1 and ws[0] in NUMBER_WORDS


def _not_counts(values: list[str], strong: bool) -> str | None:
    """Why whole-number ``values`` (every row filled) are no copies counts, or None when they may be;
    under a ``strong`` header (copies, qty, Anzahl: never a card's number) a permutation or values
    all different tell only from STRONG_ROWS rows on."""
    nums = [whole_count(v, MAX_COPIES) for v in values]
    if any(n is None for n in nums):
        bad = next(v for v, n in zip(values, nums) if n is None)
        return f"{bad.strip() or 'an empty cell'!r} is no whole number of copies" if bad.strip() else "a cell is empty"
    n = len(nums)
    least = STRONG_ROWS if strong else 3
    if n >= least and sorted(nums) == list(range(1, n + 1)):
        return "its values are 1 to %d, each once: a card number" % n
    if n >= least and sorted(nums) == list(range(0, n)):
        return "its values are 0 to %d, each once: a card number" % (n - 1)
    if n >= max(6, least) and len(set(nums)) == n:
        return "every value differs, as a rank or a card number does"
    if not strong and sorted(nums)[n // 2] > NUMBER_MEDIAN:
        return f"its values run up to {max(nums)} (half of them above {NUMBER_MEDIAN}): card numbers, not counts"
    if sum(nums) > MAX_TALLY or max(nums) > MAX_EACH:
        return f"it adds up to {sum(nums):,} cards ({max(nums):,} of one), more than a deck holds"
    return None


def _balanced(value: str) -> bool:
    """True when ``value`` reads as pnp's rich text without an error (pnp.text)."""
    try:
        parse(value, None)
    except MarkupError:
        return False
    return True


def infer(headers: list[str], cells: dict[str, list[str]]) -> Roles:
    """The role of each column (``cells`` by header, one per data row).

    Raises nothing: every column gets a role."""
    roles = Roles()
    taken: set[str] = set()
    n = max((len(v) for v in cells.values()), default=0)
    best_category = _best_category(headers, cells)
    for h in headers:
        values = [_blank(v) for v in cells[h]]
        filled = [v for v in values if v]
        markup = all(_balanced(v) for v in set(filled)) if any(c in v for v in filled for c in "*\\:") else True

        bad_count = False

        def put(role: str, why: str, vals: tuple[str, ...] = ()) -> None:
            roles.columns.append(Column(h, role, why, vals, markup, bad_count))
            if role in ("copies", "key", "title", "category"):
                taken.add(role)

        if not filled:
            put("empty", "no cell of it is filled")
            continue
        if "{" in h or "}" in h:
            put("skipped", "its name holds { or }, which a placeholder cannot name: rename the column to print it")
            continue
        count, number = _is_count_header(h)
        if (count or number) and "copies" not in taken:
            why = _not_counts(values, count and not number)
            if why is None:
                put("copies", f"its header says how many and its cells are whole numbers ({sum(int(v) for v in values):,} "
                              f"cards from {len(values):,} rows)")
                continue
            note = f"not read as copies: {why}"
            wholes = sum(whole_count(v, MAX_COPIES) is not None for v in values)
            bad_count = count and not number and wholes and 2 * wholes >= len(values) and wholes < len(values)
        else:
            note = ""
        if all(_URL.fullmatch(v) for v in filled):
            put("url", "its cells are web addresses (never fetched during a build)")
            continue
        if all(is_picture(v) for v in filled):
            put("picture", "its cells name picture files")
            continue
        if all(_HEX.fullmatch(v) for v in filled):
            put("colour", "its cells are colours (#rrggbb): a fill, not text")
            continue
        folded = {v.casefold() for v in filled}
        if folded <= YES | NO and folded & YES and len(folded) <= 2 and not (folded <= NO):
            put("flag", "its cells are yes/no marks: a chip on the cards that have it")
            continue
        distinct = list(dict.fromkeys(filled))
        unique = len(filled) == len(values) and len(distinct) == len(values)
        longest = max(len(v) for v in filled)
        ws = set(words(h))
        if "key" not in taken and unique and n >= 2 and " " not in "".join(filled) and (
                (ws & KEY_WORDS and longest <= KEY_NAMED_CHARS)
                or (longest <= KEY_CHARS and all(any(c.isdigit() for c in v) for v in filled))):
            put("key", (note + "; " if note else "") + "its cells are short codes, each row's own: it keys the cards")
            continue
        name_like = bool(ws & TITLE_WORDS)
        nearly = len(distinct) >= (NAMED_UNIQUE if name_like else NEARLY_UNIQUE) * len(values)
        if "title" not in taken and longest <= (TITLE_NAMED_CHARS if name_like else TITLE_CHARS) and nearly and \
                (name_like or "\n" not in "".join(filled)) \
                and not all(_number(v) for v in filled) and (name_like or not _title_later(headers, h, cells)):
            put("title", "short text, nearly every row its own: the card's name")
            continue
        if h == best_category:
            put("category", f"{len(distinct)} values ({', '.join(distinct[:4])}{', ...' if len(distinct) > 4 else ''}): "
                            "a colour band and label for each", tuple(distinct))
            continue
        if longest > LONG_CHARS or any("\n" in v for v in filled):
            put("body", "long text: wrapped in a box of its own")
            continue
        put("field", note or "printed as a label and its value")
    return roles


def _blank(value: str) -> str:
    """A cell as its role is read: 'N/A' and the like count as empty."""
    v = value.strip()
    return "" if v.casefold() in NOT_APPLICABLE else v


def _best_category(headers: list[str], cells: dict[str, list[str]]) -> str | None:
    """The column that best sorts the cards into kinds: 2..MAX_CATEGORIES short values, each on two
    rows or more on average; a kind-like header (KIND_WORDS) first, then the fewest values."""
    best = None
    for i, h in enumerate(headers):
        filled = [v for v in (_blank(c) for c in cells[h]) if v]
        distinct = set(filled)
        if not (2 <= len(distinct) <= MAX_CATEGORIES and len(cells[h]) >= 2 * len(distinct)
                and max(len(v) for v in filled) <= 24) or all(_number(v) for v in filled) \
                or {v.casefold() for v in filled} <= YES | NO or all(_HEX.fullmatch(v) for v in filled):
            continue
        rank = (not set(words(h)) & KIND_WORDS, len(filled) < len(cells[h]), len(distinct), i)
        if best is None or rank < best[0]:
            best = (rank, h)
    return best[1] if best else None


def _number(value: str) -> bool:
    return bool(re.fullmatch(r"[+-]?\d+([.,]\d+)?", value))


def _title_later(headers: list[str], h: str, cells: dict[str, list[str]]) -> bool:
    """True when a column after ``h`` has a name-like header (it should title the cards instead)."""
    later = headers[headers.index(h) + 1:]
    return any(set(words(o)) & TITLE_WORDS and any(v.strip() for v in cells[o]) for o in later)
