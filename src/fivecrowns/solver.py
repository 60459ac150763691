"""The public solver API: deadwood, partitions, best discards, draw tables, bulk scoring.

Every function takes a hand as a string (``"3C 4C JK"``), a sequence of cards or
card strings, or a row of 56 ``uint8`` counts, and a wild rank 3..13 (an int or a
:class:`~fivecrowns.Rank`). ``decks=4`` admits party-mode hands (4 copies of each
card, 12 jokers). Rows of counts take the fastest path.

The work is done by the compiled core (``fivecrowns._solver``) or, where it is not
built or ``FIVECROWNS_IMPLEMENTATION=python`` is set, by its pure-Python twin
(``fivecrowns._solver_py``); :data:`IMPLEMENTATION` says which.

Examples
--------
>>> import fivecrowns as fc
>>> fc.deadwood("5C 6C 7C 9D 9H", wild=13)
18
>>> fc.deadwood("5C 6C 7C 9D 9H JK", wild=13)
0
>>> d = fc.best_discard("3S 4S 5S KD KH 8C", wild=8)
>>> str(d.card), d.deadwood
('5S', 7)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _solver_py
from ._validate import MAX_HAND_SIZE, check_decks, check_row, check_wild, check_wild_array
from .cards import Card, HandLike, Rank, Suit, to_counts
from .errors import HandError
from .melds import Discard, Meld, MeldKind, Solution

__all__ = [
    "IMPLEMENTATION",
    "MAX_HAND_SIZE",
    "solve",
    "deadwood",
    "best_discard",
    "can_go_out",
    "draw_table",
    "deadwood_many",
    "best_discard_many",
    "hand_counts",
]


def _load_core() -> tuple[Any, str]:
    wanted = os.environ.get("FIVECROWNS_IMPLEMENTATION", "").strip().lower()
    if wanted not in ("", "compiled", "python"):
        raise ImportError(f"FIVECROWNS_IMPLEMENTATION must be 'compiled' or 'python', "
                          f"got {wanted!r}")
    if wanted == "python":
        return _solver_py, "python"
    try:
        from . import _solver
    except ImportError:
        if wanted == "compiled":
            raise
        return _solver_py, "python"
    return _solver, "compiled"


_core, _implementation = _load_core()
#: ``"compiled"`` when the Cython core is in use, ``"python"`` for the pure-Python twin.
IMPLEMENTATION: str = _implementation


def hand_counts(hand: HandLike | npt.NDArray[np.uint8], decks: int = 2) -> npt.NDArray[np.uint8]:
    """A hand as a validated row of 56 ``uint8`` counts.

    Raises :class:`~fivecrowns.HandError` (a ``ValueError``) for more copies of a card than
    ``decks`` decks hold or more than :data:`MAX_HAND_SIZE` cards.
    """
    decks = check_decks(decks)
    if isinstance(hand, np.ndarray):
        if hand.dtype != np.uint8:
            if not np.issubdtype(hand.dtype, np.integer):
                raise TypeError(f"counts must have dtype uint8, got {hand.dtype}")
            if hand.shape == (56,) and ((hand < 0) | (hand > 255)).any():
                raise HandError("counts must be 0..255")
            hand = hand.astype(np.uint8)
        row = np.ascontiguousarray(hand)
    else:
        row = to_counts(hand)
    check_row(row, decks)
    return row


_UINT8 = np.dtype(np.uint8)
_NDARRAY = np.ndarray


def _row(hand: Any, decks: int) -> npt.NDArray[np.uint8]:
    # The fast path: a uint8 array goes straight to the core, which checks its shape,
    # counts and layout (and raises the same messages as hand_counts).
    if type(hand) is _NDARRAY and hand.dtype is _UINT8:
        return hand
    if isinstance(hand, np.ndarray):
        return hand_counts(hand, decks)
    return to_counts(hand)  # cards of the deck, in any number: the core checks copies


def deadwood(hand: HandLike | npt.NDArray[np.uint8], wild: int, *, decks: int = 2) -> int:
    """Least total value of the cards left out of melds.

    Parameters
    ----------
    hand : str, sequence of Card or str, or ndarray
        The cards; a (56,) ``uint8`` row of counts is fastest.
    wild : int or Rank
        The round's wild rank, 3..13.
    decks : int
        2, or 4 for party-mode hands.

    Examples
    --------
    >>> deadwood("KS KD KH KH", wild=3)
    0
    >>> deadwood("8S QS QT", wild=8)
    0
    >>> deadwood("3C 5D JK", wild=9)
    58
    """
    # _row's first test, inlined: bots call this in their loops, and the call to _row was
    # a sixth of the time of a call on a uint8 row (326 -> 274 ns in the benchmark report).
    if type(hand) is not _NDARRAY or hand.dtype is not _UINT8:
        hand = _row(hand, decks)
    return _core.deadwood_row(hand, wild, decks)


# Cards, suits and ranks by number: _assemble runs in bots' loops, and these skip the
# argument checks of Card.from_index, Suit(...) and Rank(...).
_CARDS: tuple[Card, ...] = tuple(Card.from_index(t) for t in range(56))
_SUITS: tuple[Suit, ...] = tuple(Suit(s) for s in range(5))
_RANKS: dict[int, Rank] = {r: Rank(r) for r in range(3, 14)}


def _assemble(row: npt.NDArray[np.uint8], wild: int, dead: int,
              runs: Sequence[tuple[int, int, int]], books: Sequence[int]) -> Solution:
    """Lay out the melds of a plan (runs by span, booked ranks) with the hand's cards."""
    left: list[int] = row.tolist()
    w = wild - 3
    # Leftover wilds should be the cheap ones, so melds take jokers last.
    wilds = [_CARDS[s * 11 + w] for s in range(5) for _ in range(left[s * 11 + w])]
    wilds += [Card.JOKER] * left[55]
    for s in range(5):
        left[s * 11 + w] = 0
    left[55] = 0

    def take_wild() -> Card:
        return wilds.pop(0)

    run_cards: list[list[Card]] = []
    run_specs: list[tuple[int, int]] = []  # (suit, first rank) of each laid-out run
    for suit, lo, hi in runs:
        cards: list[Card] = []
        for rank in range(lo, hi + 1):
            t = suit * 11 + rank - 3
            if left[t] > 0:
                left[t] -= 1
                cards.append(_CARDS[t])
            else:
                cards.append(take_wild())
        start = lo
        while len(cards) < 3:  # a short run is padded on whichever side has room
            if start + len(cards) <= 13:
                cards.append(take_wild())
            else:
                start -= 1
                cards.insert(0, take_wild())
        run_cards.append(cards)
        run_specs.append((suit, start))
    book_cards: list[list[Card]] = []
    for rank in books:
        cards = []
        for s in range(5):
            t = s * 11 + rank - 3
            cards.extend([_CARDS[t]] * left[t])
            left[t] = 0
        while len(cards) < 3:
            cards.append(take_wild())
        book_cards.append(cards)
    wild_book: list[Card] = []
    if wilds and (run_cards or book_cards):
        _place_spare_wilds(wilds, run_cards, run_specs, book_cards, wild_book)
    elif len(wilds) >= 3:
        wild_book, wilds = wilds, []
    melds = [Meld(MeldKind.RUN, tuple(c), _SUITS[s], _RANKS[start])
             for c, (s, start) in zip(run_cards, run_specs)]
    melds += [Meld(MeldKind.BOOK, tuple(c), None, _RANKS[r]) for c, r in zip(book_cards, books)]
    if wild_book:
        melds.append(Meld(MeldKind.BOOK, tuple(wild_book), None, None))
    # Cards sort by their index: sort the numbers, then look the cards up.
    kept = [t for t in range(56) if left[t] for _ in range(left[t])]
    kept += [c.index for c in wilds]
    leftover = tuple([_CARDS[t] for t in sorted(kept)])
    return Solution(dead, tuple(melds), leftover, wild)


def _place_spare_wilds(wilds: list[Card], runs: list[list[Card]], specs: list[tuple[int, int]],
                       books: list[list[Card]], wild_book: list[Card]) -> None:
    """Put wilds that no meld needs into melds (RULES: spare wilds cost nothing)."""
    if books:
        books[0].extend(wilds)
    elif len(wilds) >= 3:
        wild_book.extend(wilds)
    else:
        while wilds:
            for k, cards in enumerate(runs):
                if len(cards) < 11:
                    suit, start = specs[k]
                    if start + len(cards) <= 13:
                        cards.append(wilds.pop())
                    else:
                        cards.insert(0, wilds.pop())
                        specs[k] = (suit, start - 1)
                    break
            else:
                # Every run spans 3..K: split one into 3..8 and 9..K, which both have room.
                suit, _ = specs[0]
                runs.append(runs[0][6:])
                specs.append((suit, 9))
                runs[0] = runs[0][:6]
    wilds.clear()


def solve(hand: HandLike | npt.NDArray[np.uint8], wild: int, *, decks: int = 2) -> Solution:
    """An optimal partition of the hand into melds and leftover cards.

    Examples
    --------
    >>> s = solve("5C 7C JK 9D 9H 9S 4H", wild=13)
    >>> s.deadwood
    4
    >>> [m.describe(13, symbols=False) for m in s.melds]
    ['5C JK(6C) 7C', '9D 9H 9S']
    """
    row = _row(hand, decks)
    dead, runs, books = _core.plan_row(row, wild, decks)
    return _assemble(row, int(wild), dead, runs, books)


def best_discard(hand: HandLike | npt.NDArray[np.uint8], wild: int, *,
                 decks: int = 2) -> Discard:
    """The discard that leaves the least deadwood (RULES.md: going out).

    The hand is the n + 1 cards held after drawing. Ties go to the highest-value card.

    Examples
    --------
    >>> d = best_discard("5C 6C 7C KD", wild=13)
    >>> str(d.card), d.deadwood
    ('KD', 0)
    """
    row = _row(hand, decks)
    dead, index = _core.best_discard_row(row, wild, decks)
    rest = row.copy()
    rest[index] -= 1
    return Discard(Card.from_index(index), dead, partial(solve, rest, wild, decks=decks))


def can_go_out(hand: HandLike | npt.NDArray[np.uint8], wild: int, *, decks: int = 2) -> bool:
    """True if the hand (n + 1 cards after drawing) can lay down n cards and discard one.

    >>> can_go_out("3H 4H 5H 9C", wild=4)
    True
    """
    row = _row(hand, decks)
    return bool(_core.best_discard_row(row, wild, decks)[0] == 0)


def draw_table(hand: HandLike | npt.NDArray[np.uint8], wild: int, *,
               decks: int = 2) -> npt.NDArray[np.int32]:
    """For each of the 56 card types, the best-discard deadwood after drawing it.

    Entry ``t`` is ``best_discard(hand + card t).deadwood``; it is -1 where the hand
    already holds every copy of ``t`` the deck has, so that card cannot be drawn.

    Examples
    --------
    >>> t = draw_table("5C 6C 9D", wild=13)
    >>> int(t[Card.parse("7C").index]), int(t[Card.parse("QD").index])
    (0, 20)
    """
    return _core.draw_table_row(_row(hand, decks), wild, decks)


def _batch(counts: Any, wild: Any, decks: int) -> tuple[npt.NDArray[np.uint8], Any]:
    decks = check_decks(decks)
    if isinstance(counts, np.ndarray):
        if counts.dtype != np.uint8:
            raise TypeError(f"counts must have dtype uint8, got {counts.dtype}")
        if counts.ndim != 2 or counts.shape[1] != 56:
            raise ValueError(f"counts must have shape (N, 56), got {counts.shape}")
        arr = np.ascontiguousarray(counts)
    else:
        if isinstance(counts, (str, bytes)):
            raise TypeError("counts must be a (N, 56) uint8 array or a list of hands, "
                            "got a str")
        hands = list(counts)
        arr = np.zeros((len(hands), 56), dtype=np.uint8)
        for i, h in enumerate(hands):
            arr[i] = hand_counts(h, decks)
    if isinstance(wild, np.ndarray):
        check_wild_array(wild, arr.shape[0])
        wilds = wild.astype(np.int8)
    else:
        wilds = np.full(arr.shape[0], check_wild(wild), dtype=np.int8)
    return arr, wilds


def _threads(threads: int | None, n: int) -> int:
    if threads is None:
        if n < 20_000:
            return 1
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, got {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return threads


def deadwood_many(counts: npt.NDArray[np.uint8] | Sequence[HandLike], wild: Any, *,
                  threads: int | None = None, decks: int = 2) -> npt.NDArray[np.int32]:
    """Deadwood of many hands at once, with the GIL released.

    Parameters
    ----------
    counts : ndarray of shape (N, 56) and dtype uint8, or a list of hands
    wild : int, Rank, or ndarray of shape (N,)
        One wild rank for all hands, or one per hand.
    threads : int or None
        Worker threads; ``None`` uses every available core for large batches (20,000
        hands and more) and one thread otherwise. Results do not depend on it.
    decks : int
        2, or 4 for party-mode hands.

    Returns
    -------
    ndarray of shape (N,) and dtype int32

    Examples
    --------
    >>> deadwood_many(["5C 6C 7C", "5C 6C 8D"], wild=13).tolist()
    [0, 19]
    """
    arr, wilds = _batch(counts, wild, decks)
    return _core.deadwood_many(arr, wilds, decks, _threads(threads, arr.shape[0]))


def best_discard_many(counts: npt.NDArray[np.uint8] | Sequence[HandLike], wild: Any, *,
                      threads: int | None = None, decks: int = 2) -> npt.NDArray[np.int32]:
    """Best-discard deadwood of many hands (each with at least one card).

    Same arguments as :func:`deadwood_many`; entry i is ``best_discard(counts[i]).deadwood``.

    >>> best_discard_many(["5C 6C 7C KD", "5C 6C 8D 3H"], wild=13).tolist()
    [0, 14]
    """
    arr, wilds = _batch(counts, wild, decks)
    return _core.best_discard_many(arr, wilds, decks, _threads(threads, arr.shape[0]))
