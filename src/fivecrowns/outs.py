"""Solver-level analysis of a hand: which draws complete it, how far it is from complete,
the order in which discards are tried, and a memo of solver answers.

These sit on top of :mod:`fivecrowns.solver` and know nothing about a game: the solitaire
strategies use them for their piles, and a bot can use them for its hand.

- :func:`completing_types`: the card types whose draw completes a hand (one discard
  allowed), the zeros of :func:`~fivecrowns.draw_table`, found faster.
- :func:`joker_distance`: how many of a hand's cards must be swapped for jokers to
  complete it.
- :func:`discard_order`: the card types worth trying as a discard, in the tie-break order
  of :func:`~fivecrowns.best_discard`.
- :class:`SolverMemo`: deadwood, best discards, draw tables and completing types of hands
  already seen.

>>> from fivecrowns import hand_counts
>>> memo = SolverMemo(decks=2)
>>> row = hand_counts("5C 6C 9D")
>>> memo.deadwood(row, 13), joker_distance(row, 13, memo=memo)
(20, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import check_decks, check_int, check_wild
from ._deprecation import renamed_parameters
from .cards import JOKER_INDEX, N_RANKS, N_TYPES, Card, HandLike, Suit, card_value, type_index
from .deck import full_counts
from .rules import Rules
from .solver import best_discard, deadwood, deadwood_many, draw_table, hand_counts

__all__ = ["completing_types", "joker_distance", "discard_order", "SolverMemo"]

_N_SUITS = len(Suit)
#: For each wild rank: its card types, suits in index order.
_WILD_TYPES = {w: [type_index(s, w) for s in range(_N_SUITS)] for w in range(3, 14)}
#: For each wild rank: the natural card types from the highest rank down, suits in index
#: order within a rank (the joker and the wild rank left out).
_NATURAL_ORDER = {w: [type_index(s, r) for r in range(13, 2, -1) if r != w
                      for s in range(_N_SUITS)]
                  for w in range(3, 14)}


@renamed_parameters(row="hand")
def discard_order(hand: npt.NDArray[np.uint8] | Sequence[int], wild: int) -> list[int]:
    """The card types worth trying as a discard, in tie-break order.

    This is the one statement of :func:`fivecrowns.best_discard`'s order: a joker if held
    (otherwise the first wild-rank card held: discarding one wild is as good as another),
    then natural cards from the highest rank down, suits in index order. The first best
    card in this order is the one ``best_discard`` returns.

    Parameters
    ----------
    hand : ndarray of shape (56,) or sequence of 56 ints
        The hand's counts (see :func:`~fivecrowns.hand_counts`); not validated.
    wild : int
        The wild rank, 3..13.

    Returns
    -------
    list of int
        Card type indices, each held at least once.

    Examples
    --------
    >>> from fivecrowns import hand_counts
    >>> [str(Card.from_index(t)) for t in discard_order(hand_counts("5C 5D KH 9S 9S JK"), 9)]
    ['JK', 'KH', '5C', '5D']
    """
    r = hand.tolist() if isinstance(hand, np.ndarray) else hand
    order: list[int] = []
    if r[JOKER_INDEX]:
        order.append(JOKER_INDEX)
    else:
        for t in _WILD_TYPES[wild]:
            if r[t]:
                order.append(t)
                break
    order.extend([t for t in _NATURAL_ORDER[wild] if r[t]])
    return order


def _key(row: npt.NDArray[np.uint8], wild: int) -> bytes:
    return row.tobytes() + bytes((wild,))


class SolverMemo:
    """A memo of solver answers for hands that change one card at a time.

    Piles and hands in play are solved again and again (before and after a draw, for
    every candidate discard); the memo answers a repeated question from a dictionary keyed
    on the row's bytes and the wild rank. Each table is emptied when it outgrows its share
    of ``limit``, so memory stays bounded over many games. The rows are not validated:
    they come from a game, which keeps them legal.

    Parameters
    ----------
    decks : int
        2, or 4 in party mode: the deck the hands come from.
    limit : int
        Most deadwood answers kept, and most best discards; draw tables keep a twentieth
        of it and completing types a quarter.

    Examples
    --------
    >>> from fivecrowns import hand_counts
    >>> memo = SolverMemo(decks=2)
    >>> memo.deadwood(hand_counts("5C 6C 7C 9D"), 13)
    9
    >>> rows = np.array([hand_counts("5C 6C 7C"), hand_counts("5C 6C 9D")])
    >>> memo.deadwood_many(rows, 13)
    [0, 20]
    """

    __slots__ = ("decks", "limit", "deck_counts", "_dead", "_discards", "_tables", "_outs")

    def __init__(self, decks: int = 2, *, limit: int = 200_000) -> None:
        self.decks = check_decks(decks)
        #: Copies of each card type in the whole deck (read-only).
        self.deck_counts = full_counts(Rules(decks=self.decks))
        self.deck_counts.flags.writeable = False
        limit = check_int(limit, "limit", 20)
        self.limit = int(limit)
        self._dead: dict[bytes, int] = {}
        self._discards: dict[bytes, tuple[int, int]] = {}
        self._tables: dict[bytes, npt.NDArray[np.int32]] = {}
        self._outs: dict[bytes, npt.NDArray[np.bool_]] = {}

    def __repr__(self) -> str:
        return f"SolverMemo(decks={self.decks}, limit={self.limit})"

    def __getstate__(self) -> dict[str, Any]:
        # A memo travels empty: it is cheap to refill and may be large.
        return {"decks": self.decks, "limit": self.limit}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["decks"], limit=state["limit"])  # type: ignore[misc]

    def clear(self) -> None:
        """Forget every answer."""
        self._dead.clear()
        self._discards.clear()
        self._tables.clear()
        self._outs.clear()

    def _trim(self) -> None:
        if len(self._dead) > self.limit:
            self._dead.clear()
        if len(self._discards) > self.limit:
            self._discards.clear()
        if len(self._tables) > self.limit // 20:
            self._tables.clear()
        if len(self._outs) > self.limit // 4:
            self._outs.clear()

    @renamed_parameters(row="hand")
    def deadwood(self, hand: npt.NDArray[np.uint8], wild: int) -> int:
        """:func:`~fivecrowns.deadwood` of ``hand``, remembered."""
        key = _key(hand, wild)
        got = self._dead.get(key)
        if got is None:
            self._trim()
            got = self._dead[key] = int(deadwood(hand, wild, decks=self.decks))
        return got

    @renamed_parameters(rows="counts")
    def deadwood_many(self, counts: npt.NDArray[np.uint8], wild: int) -> list[int]:
        """The deadwood of each row of an (N, 56) array, one solver call for the new ones."""
        self._trim()
        keys = [_key(r, wild) for r in counts]
        missing = [i for i, key in enumerate(keys) if key not in self._dead]
        if missing:
            values = deadwood_many(np.ascontiguousarray(counts[missing]), wild, decks=self.decks,
                                   threads=1)
            for i, v in zip(missing, values):
                self._dead[keys[i]] = int(v)
        return [self._dead[key] for key in keys]

    @renamed_parameters(row="hand")
    def best_discard_choice(self, hand: npt.NDArray[np.uint8], wild: int) -> tuple[int, int]:
        """``(deadwood, card type)`` of :func:`~fivecrowns.best_discard` of ``hand`` (a hand
        of at least one card), remembered."""
        key = _key(hand, wild)
        got = self._discards.get(key)
        if got is None:
            self._trim()
            found = best_discard(hand, wild, decks=self.decks)
            got = self._discards[key] = (found.deadwood, found.card.index)
        return got

    @renamed_parameters(row="hand")
    def draw_table(self, hand: npt.NDArray[np.uint8], wild: int) -> npt.NDArray[np.int32]:
        """:func:`~fivecrowns.draw_table` of ``hand``, remembered (do not modify it)."""
        key = _key(hand, wild)
        got = self._tables.get(key)
        if got is None:
            self._trim()
            got = self._tables[key] = draw_table(hand, wild, decks=self.decks)
        return got

    @renamed_parameters(row="hand")
    def completing_types(self, hand: npt.NDArray[np.uint8],
                         wild: int) -> npt.NDArray[np.bool_]:
        """:func:`completing_types` of ``hand``, remembered (do not modify it)."""
        key = _key(hand, wild)
        got = self._outs.get(key)
        if got is None:
            self._trim()
            got = self._outs[key] = _completing_types(hand, wild, self)
        return got


def _memo_for(memo: SolverMemo | None, decks: int) -> SolverMemo:
    decks = check_decks(decks)
    if memo is None:
        return SolverMemo(decks)
    if not isinstance(memo, SolverMemo):
        raise TypeError(f"memo must be a SolverMemo, got {type(memo).__name__}")
    if memo.decks != decks:
        raise ValueError(f"the memo holds answers for {memo.decks} decks, but decks={decks}")
    return memo


@renamed_parameters(row="hand")
def joker_distance(hand: HandLike | npt.NDArray[np.uint8], wild: int, *, decks: int = 2,
                   memo: SolverMemo | None = None, limit: int = 4) -> int:
    """How many of a hand's cards, swapped one at a time for a joker, complete it.

    Greedy: each swap adds a wild the deck still has room for (a joker if it can, else a
    card of the wild rank) and throws out the natural card whose loss leaves the least
    deadwood (ties: the highest-value card, then the highest type index).

    Parameters
    ----------
    hand : hand or ndarray of shape (56,), uint8
        The hand (see :func:`~fivecrowns.hand_counts`).
    wild : int
        The wild rank, 3..13.
    decks : int
        2, or 4 in party mode.
    memo : SolverMemo, optional
        Answers to reuse; it must be for ``decks`` decks.
    limit : int
        Most swaps tried.

    Returns
    -------
    int
        The number of swaps, 1..``limit``, or ``limit + 1`` when ``limit`` swaps are not
        enough.

    Examples
    --------
    >>> joker_distance("5C 6C 9D", 13)     # 9D -> JK: 5C 6C JK
    1
    >>> joker_distance("3C 5D 9H", 13)     # two swaps: 3C JK JK
    2
    """
    memo = _memo_for(memo, decks)
    counts = hand_counts(hand, decks=memo.decks)
    wild = check_wild(wild)
    limit = check_int(limit, "limit", 1)
    return _joker_distance(counts, wild, memo, int(limit))


def _joker_distance(row: npt.NDArray[np.uint8], wild: int, memo: SolverMemo,
                    limit: int = 4) -> int:
    cur = row.copy()
    wilds = [JOKER_INDEX] + _WILD_TYPES[wild]
    room = [int(memo.deck_counts[t]) for t in wilds]
    for away in range(1, limit + 1):
        free = [t for t, most in zip(wilds, room) if cur[t] < most]
        if not free:
            return limit + 1
        cur[free[0]] += 1  # a wild the deck still has room for: a joker if it can
        types = [int(t) for t in np.flatnonzero(cur) if t not in wilds]
        if not types:
            return away
        rest = np.repeat(cur[None, :], len(types), axis=0)
        rest[np.arange(len(types)), types] -= 1
        values = memo.deadwood_many(rest, wild)
        best = min(values)
        pick = max((t for t, v in zip(types, values) if v == best),
                   key=lambda t: (card_value(Card.from_index(t), wild), t))
        cur[pick] -= 1
        if best == 0:
            return away
    return limit + 1


@renamed_parameters(row="hand")
def completing_types(hand: HandLike | npt.NDArray[np.uint8], wild: int, *, decks: int = 2,
                     memo: SolverMemo | None = None) -> npt.NDArray[np.bool_]:
    """Which card types complete a hand when drawn: ``draw_table(hand, wild) == 0``, faster.

    Entry ``t`` is True when adding a card of type ``t`` to the hand and discarding one
    card can leave no deadwood. A hand that is already complete is completed by any card
    the deck still has.

    The search is cut down by two exact facts. A joker can stand for any card, so a
    discard ``d`` can only work if ``hand - d + joker`` has no deadwood. And a natural card
    ``t`` that completes ``hand - d`` (which is not complete itself) melds with a natural
    of ``hand - d``: one of the same rank, or one of its suit at most ``w + 1`` ranks away,
    where ``w`` counts the wilds; otherwise ``d`` could take its place.

    Parameters
    ----------
    hand : hand or ndarray of shape (56,), uint8
        The hand (see :func:`~fivecrowns.hand_counts`).
    wild : int
        The wild rank, 3..13.
    decks : int
        2, or 4 in party mode.
    memo : SolverMemo, optional
        Answers to reuse; it must be for ``decks`` decks.

    Returns
    -------
    ndarray of shape (56,), bool

    Examples
    --------
    >>> from fivecrowns import Card
    >>> outs = completing_types("5C 6C 9D", 13)
    >>> sorted(str(Card.from_index(t)) for t in np.flatnonzero(outs))[:6]
    ['4C', '7C', 'JK', 'KC', 'KD', 'KH']
    """
    memo = _memo_for(memo, decks)
    counts = hand_counts(hand, decks=memo.decks)
    return memo.completing_types(counts, check_wild(wild)).copy()


def _completing_types(row: npt.NDArray[np.uint8], wild: int,
                      memo: SolverMemo) -> npt.NDArray[np.bool_]:
    decks = memo.decks
    room = row < memo.deck_counts
    if memo.deadwood(row, wild) == 0:
        return room.copy()
    out = np.zeros(N_TYPES, dtype=np.bool_)
    w = wild - 3
    wild_types = _WILD_TYPES[wild] + [JOKER_INDEX]
    types = [int(t) for t in np.flatnonzero(row)]
    # Discards that leave a hand a joker would complete.
    rest = np.repeat(row[None, :], len(types), axis=0)
    rest[np.arange(len(types)), types] -= 1
    with_joker = rest.copy()
    with_joker[:, JOKER_INDEX] += 1
    if not room[JOKER_INDEX]:  # no room for the test joker
        return draw_table(row, wild, decks=decks) == 0
    ok = [i for i, v in enumerate(memo.deadwood_many(with_joker, wild)) if v == 0]
    if not ok:
        return out
    for t in wild_types:
        out[t] = room[t]
    for i in ok:
        base = rest[i]
        reach = int(base[wild_types].sum()) + 1
        cand = np.zeros(N_TYPES, dtype=np.bool_)
        for held in np.flatnonzero(base).tolist():
            if held == JOKER_INDEX or held % N_RANKS == w:
                continue
            suit, pos = divmod(held, N_RANKS)
            cand[pos:JOKER_INDEX:N_RANKS] = True  # the same rank, any suit
            lo, hi = max(0, pos - reach), min(N_RANKS - 1, pos + reach)
            cand[suit * N_RANKS + lo: suit * N_RANKS + hi + 1] = True
        cand[wild_types] = False
        cand &= room & ~out
        cands = [int(t) for t in np.flatnonzero(cand)]
        if not cands:
            continue
        trial = np.repeat(base[None, :], len(cands), axis=0)
        trial[np.arange(len(cands)), cands] += 1
        for t, v in zip(cands, memo.deadwood_many(trial, wild)):
            if v == 0:
                out[t] = True
    return out
