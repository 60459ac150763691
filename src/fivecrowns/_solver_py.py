"""The exact meld solver in plain Python: the readable twin of ``_solver`` and ``_solver_core``.

Both modules implement the same algorithm on the same inputs (a validated list of
56 counts and a wild rank 3..13) and must give the same answers; this one is the
fallback when the extension is missing and documents how the compiled core works.

The algorithm rests on these facts (docs/performance.rst tells how they were found):

1. Wilds are interchangeable inside melds, so only their number ``W`` matters, and
   once any meld exists, spare wilds cost nothing (a book takes any number, a run
   up to 11 cards takes more, 3 spare wilds make a book). So we maximise the value
   of *natural* cards placed in melds using at most ``W`` wilds. If no meld is
   possible at all, every card, wilds included, is left over (unless ``W >= 3``,
   when the wilds alone make a book).
2. Given the runs, the naturals left in each rank are either all booked or all left
   over, and picking which ranks to book under the wild budget is a two-item-kind
   knapsack (a pair needs 1 wild, a single needs 2, three or more need none).
3. Runs are canonical: a run starts and ends on a natural and holds one copy of
   every natural of its suit in its span that no earlier run (by start rank) took.
   A run with one natural is never needed (a book of that card is as good), nor two
   runs of a suit where one ends just below where the other starts (merged, they
   hold the same naturals with no more wilds).
   Exchanging a wild in a run for a free natural of the same place never costs a
   wild, which is why this canonical form loses no optimum.

The search tries every canonical run set suit by suit and solves the books for each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import MAX_HAND_SIZE, check_batch, check_decks, check_row, check_wild
from .rules import deck_counts

N_RANKS = 11  # ranks 3..13 at positions 0..10
JOKER = 55


def rank_value(pos: int) -> int:
    """Deadwood value of a natural card at rank position ``pos`` (rank ``pos + 3``)."""
    return pos + 3


class _Hand:
    """A hand split into naturals per suit and a count of wilds."""

    def __init__(self, counts: Sequence[int], wild: int) -> None:
        w = wild - 3
        self.wild = wild
        self.jokers = counts[JOKER]
        self.rank_wilds = sum(counts[s * N_RANKS + w] for s in range(5))
        self.n_wilds = self.jokers + self.rank_wilds
        self.wild_value = 50 * self.jokers + 20 * self.rank_wilds
        # naturals[s][i]: copies of the natural card of suit s at rank position i
        self.naturals = [[0 if i == w else counts[s * N_RANKS + i] for i in range(N_RANKS)]
                         for s in range(5)]
        self.pool = [sum(self.naturals[s][i] for s in range(5)) for i in range(N_RANKS)]
        self.natural_value = sum(self.pool[i] * rank_value(i) for i in range(N_RANKS))


def book_savings(pool: Sequence[int], budget: int) -> tuple[int, list[int]]:
    """Best value of books from ``pool`` (naturals per rank) with at most ``budget`` wilds.

    Returns the value saved and the rank positions booked.
    """
    free = 0
    free_ranks: list[int] = []
    pairs: list[int] = []  # rank positions holding 2 naturals: 1 wild makes a book
    singles: list[int] = []  # rank positions holding 1 natural: 2 wilds make a book
    for i in reversed(range(N_RANKS)):  # high ranks first: each list is sorted by value
        k = pool[i]
        if k >= 3:
            free += k * rank_value(i)
            free_ranks.append(i)
        elif k == 2:
            pairs.append(i)
        elif k == 1:
            singles.append(i)
    best, best_j = -1, 0
    for j in range(min(len(singles), budget // 2) + 1):
        n_pairs = min(len(pairs), budget - 2 * j)
        value = (sum(2 * rank_value(i) for i in pairs[:n_pairs])
                 + sum(rank_value(i) for i in singles[:j]))
        if value > best:
            best, best_j = value, j
    n_pairs = min(len(pairs), budget - 2 * best_j)
    return free + best, free_ranks + pairs[:n_pairs] + singles[:best_j]


def _runs_in_suit(left: list[int], x: int, budget: int, max_end: int, chosen: list[tuple[int, int]],
                  out: list[tuple[list[tuple[int, int]], int]]) -> None:
    """Collect every canonical run set of one suit using at most ``budget`` wilds.

    ``left[i]`` counts the copies at rank position ``i`` that no run has taken yet;
    ranks below ``x`` are decided. Each result is (runs as (lo, hi) spans, wilds used).
    Several runs starting at one rank are generated with non-increasing ends, once each.
    """
    if left[x] == 0:  # runs starting higher up are not bound by the last run's end
        max_end = N_RANKS - 1
        while x < N_RANKS and left[x] == 0:
            x += 1
    if x >= N_RANKS - 1:  # no natural left above x to pair with
        out.append((list(chosen), 0))
        return
    # Either a(nother) run starts at x and ends at some b (longest first: it reads best) ...
    # A run starting right where another ends is never needed: the merged run holds the
    # same naturals with no more wilds, and it is tried when the first one starts.
    if any(hi == x - 1 for _, hi in chosen):
        max_end = x
    last, gaps = x, 0
    for b in range(x + 1, max_end + 1):
        if left[b] == 0:
            gaps += 1
            if gaps > budget:  # the gaps inside a run only grow with its end
                break
        else:
            last = b
    for b in range(last, x, -1):
        if left[b] == 0:
            continue
        span = b - x + 1
        taken = [i for i in range(x, b + 1) if left[i] > 0]
        need = max(3, span) - len(taken)
        if need > budget:
            continue
        for i in taken:
            left[i] -= 1
        chosen.append((x, b))
        before = len(out)
        _runs_in_suit(left, x, budget - need, b, chosen, out)
        for k in range(before, len(out)):
            runs, used = out[k]
            out[k] = (runs, used + need)
        chosen.pop()
        for i in taken:
            left[i] += 1
    # ... or the copies still at x stay out of runs.
    kept = left[x]
    left[x] = 0
    _runs_in_suit(left, x + 1, budget, N_RANKS - 1, chosen, out)
    left[x] = kept


def suit_run_options(naturals: Sequence[int],
                     budget: int) -> list[tuple[list[tuple[int, int]], int]]:
    """Every canonical run set of one suit's naturals with at most ``budget`` wilds."""
    out: list[tuple[list[tuple[int, int]], int]] = []
    _runs_in_suit(list(naturals), 0, budget, N_RANKS - 1, [], out)
    return out


def run_usage(naturals: Sequence[int], runs: Sequence[tuple[int, int]]) -> list[int]:
    """Copies per rank position that ``runs`` (in creation order) take from one suit."""
    left = list(naturals)
    used = [0] * N_RANKS
    for lo, hi in runs:
        for i in range(lo, hi + 1):
            if left[i] > 0:
                left[i] -= 1
                used[i] += 1
    return used


def plan(counts: Sequence[int], wild: int) -> tuple[int, list[tuple[int, int, int]], list[int]]:
    """Solve a hand: (deadwood, runs as (suit, lo_rank, hi_rank), booked ranks).

    Runs are listed in the order that takes their naturals (see :func:`run_usage`);
    booked ranks take every natural of the rank that no run took.
    """
    hand = _Hand(counts, wild)
    options = [suit_run_options(hand.naturals[s], hand.n_wilds) for s in range(5)]
    best_saved = 0
    best_runs: list[tuple[int, int, int]] = []
    best_books: list[int] = []
    pool = list(hand.pool)

    def over_suits(s: int, budget: int, saved: int, runs: list[tuple[int, int, int]]) -> None:
        nonlocal best_saved, best_runs, best_books
        if best_saved == hand.natural_value:  # everything melded: nothing can beat it
            return
        if s == 5:
            books_value, books = book_savings(pool, budget)
            if saved + books_value > best_saved:
                best_saved, best_runs, best_books = saved + books_value, list(runs), books
            return
        for spans, used in options[s]:
            if used > budget:
                continue
            taken = run_usage(hand.naturals[s], spans)
            for i in range(N_RANKS):
                pool[i] -= taken[i]
            value = sum(taken[i] * rank_value(i) for i in range(N_RANKS))
            over_suits(s + 1, budget - used, saved + value,
                       runs + [(s, lo + 3, hi + 3) for lo, hi in spans])
            for i in range(N_RANKS):
                pool[i] += taken[i]

    over_suits(0, hand.n_wilds, 0, [])
    if best_saved == 0:
        # No meld holds a natural: everything is left over, but 3+ wilds make a book.
        return hand.natural_value + (0 if hand.n_wilds >= 3 else hand.wild_value), [], []
    return hand.natural_value - best_saved, best_runs, sorted(i + 3 for i in best_books)


#: Hands already solved, as the compiled core's memo keeps them: the bots' look-ahead asks
#: for the same hands again and again (every draw of a table, every world of a search),
#: and each costs the search above about a millisecond here. Emptied when full.
_MEMO: dict[tuple[bytes, int], int] = {}
_MEMO_SIZE = 1 << 17


def deadwood(counts: Sequence[int], wild: int) -> int:
    """Least deadwood of the hand."""
    key = (bytes(counts), wild)
    value = _MEMO.get(key)
    if value is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        value = _MEMO[key] = plan(counts, wild)[0]
    return value


def discard_candidates(counts: Sequence[int], wild: int) -> list[int]:
    """Card types worth trying as the discard, most valuable first.

    Discarding a joker is never worse than discarding a wild-rank card (both leave the
    same melds, and a leftover joker costs more), so only one wild is tried.
    """
    w = wild - 3
    order: list[int] = []
    if counts[JOKER]:
        order.append(JOKER)
    else:
        order.extend(s * N_RANKS + w for s in range(5) if counts[s * N_RANKS + w])
        order = order[:1]
    for i in reversed(range(N_RANKS)):
        if i != w:
            order.extend(s * N_RANKS + i for s in range(5) if counts[s * N_RANKS + i])
    return order


def value_of(index: int, wild: int) -> int:
    """Deadwood value of card type ``index``."""
    if index == JOKER:
        return 50
    return 20 if index % N_RANKS + 3 == wild else index % N_RANKS + 3


def best_discard(counts: Sequence[int], wild: int) -> tuple[int, int]:
    """(least deadwood after one discard, the card type to discard); the hand is non-empty.

    Removing a card of value v lowers the deadwood by at most v, so once a discard
    reaching ``deadwood(hand) - v`` is known, no card worth v or less can beat it.
    (The compiled core's ``discard_deadwood_many`` and ``draw_table`` get the same values
    from a single search instead; see ``best_discard_search`` in ``_solver_core.pyx``.)
    """
    whole = deadwood(counts, wild)
    hand = list(counts)
    best, best_card = -1, -1
    for c in discard_candidates(counts, wild):
        if best_card >= 0 and whole - value_of(c, wild) >= best:
            continue
        hand[c] -= 1
        d = deadwood(hand, wild)
        hand[c] += 1
        if best_card < 0 or d < best:
            best, best_card = d, c
            if best == 0:
                break
    return best, best_card


def draw_table(counts: Sequence[int], wild: int, limits: Sequence[int]) -> list[int]:
    """For each card type: the best-discard deadwood of the hand plus that card, or -1
    where the hand already holds the deck's ``limits[t]`` copies of it."""
    table = []
    hand = list(counts)
    for t in range(56):
        if hand[t] >= limits[t]:
            table.append(-1)
            continue
        hand[t] += 1
        table.append(best_discard(hand, wild)[0])
        hand[t] -= 1
    return table


# -- The entry points the public API calls: same names and behaviour as in _solver.pyx. --

def deadwood_row(row: Any, wild: int, decks: int) -> int:
    """Validate a (56,) uint8 row, then solve it."""
    decks = check_decks(decks)
    wild = check_wild(wild)
    check_row(row, decks)
    return deadwood(row.tolist(), wild)


def plan_row(row: Any, wild: int, decks: int) -> tuple[int, list[tuple[int, int, int]], list[int]]:
    """Validate a row, then :func:`plan` it."""
    decks = check_decks(decks)
    wild = check_wild(wild)
    check_row(row, decks)
    return plan(row.tolist(), wild)


def best_discard_row(row: Any, wild: int, decks: int) -> tuple[int, int]:
    """Validate a non-empty row, then :func:`best_discard` it."""
    decks = check_decks(decks)
    wild = check_wild(wild)
    check_row(row, decks, min_cards=1)
    return best_discard(row.tolist(), wild)


def draw_table_row(row: Any, wild: int, decks: int) -> npt.NDArray[np.int32]:
    """Validate a row with room for one more card, then :func:`draw_table` it."""
    decks = check_decks(decks)
    wild = check_wild(wild)
    check_row(row, decks, max_cards=MAX_HAND_SIZE - 1)
    return np.array(draw_table(row.tolist(), wild, deck_counts(decks)), dtype=np.int32)


def discard_deadwood_row(row: Any, wild: int, decks: int) -> int:
    """Validate a non-empty row, then return its best-discard deadwood."""
    return best_discard_row(row, wild, decks)[0]


def deadwood_many(counts: Any, wilds: Any, decks: int, threads: int) -> npt.NDArray[np.int32]:
    """Validate a (N, 56) uint8 batch and (N,) int8 wilds, then solve every row (on up to
    ``threads`` threads where the core releases the GIL; the twin uses one)."""
    decks = check_decks(decks)
    counts, wilds = _own_batch(counts, wilds)
    check_batch(counts, wilds, decks)
    return np.array([deadwood(r, int(w)) for r, w in zip(counts.tolist(), wilds.tolist())],
                    dtype=np.int32)


def discard_deadwood_many(counts: Any, wilds: Any, decks: int,
                          threads: int) -> npt.NDArray[np.int32]:
    """Validate a batch of non-empty hands, then return every row's best-discard
    deadwood (threads as in :func:`deadwood_many`)."""
    decks = check_decks(decks)
    counts, wilds = _own_batch(counts, wilds)
    check_batch(counts, wilds, decks, min_cards=1)
    return np.array([best_discard(r, int(w))[0]
                     for r, w in zip(counts.tolist(), wilds.tolist())], dtype=np.int32)


def _own_batch(counts: Any, wilds: Any) -> tuple[Any, Any]:
    """Copies of a batch's arrays, so that what is checked is what is solved even while
    the caller's arrays change; other inputs are left for ``check_batch`` to refuse."""
    if isinstance(counts, np.ndarray) and not isinstance(counts, np.ma.MaskedArray):
        counts = counts.copy()
    if isinstance(wilds, np.ndarray) and not isinstance(wilds, np.ma.MaskedArray):
        wilds = wilds.copy()
    return counts, wilds
