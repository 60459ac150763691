"""An exact planner for solitaire: the draw pile's cards are known, only their order is not.

The deck is dealt whole: the 88 pile cards are in sight, so the cards still to come (the
top card and :attr:`~fivecrowns.SolitaireObservation.unseen`) are a *known multiset*. And
the order in which they come does not matter to a player who has a plan:

- a pile closes as soon as its cards form melds, and needs a card played into it for that;
- so a pile with hand ``H`` closes once it has received some cards ``S`` of the draw pile
  for which ``H`` less ``|S|`` of its cards plus ``S`` is complete (each card of ``S`` goes
  in when it turns up, one of those ``|S|`` cards goes out; a pile complete as dealt needs
  one card, any card);
- every other card can be thrown away again on any open pile, which changes nothing.

A **plan** gives every open pile such a *completion set* ``S``, the sets disjoint within
the cards to come, with one spare card for each pile complete as dealt. A plan wins
whatever the order of the draw pile. Conversely, the cards each pile of a won game kept
form a plan; so a player who sees the order (the clairvoyant) wins exactly the deals that
have a plan at the deal, and a player who could find every plan would win as often: the
clairvoyant's win rate is the best possible. Finding plans is the hard part: piles often
need three cards or more at the deal, and :func:`completion_sets` enumerates sets of at
most two cards (three for the bound, slowly), so the planner plays heuristically until a
plan of small sets exists, and :func:`plan_bound` brackets the best rate from both sides.

- :func:`completion_sets`: a pile's minimal completion sets of up to ``max_set`` cards.
- :func:`find_plan`: a plan for all open piles, or ``None``.
- :func:`wilds_needed` and :func:`plan_bound`: the bracket of the best possible win rate
  (``benchmarks/solitaire_bound.py``).
- :class:`PlannerSolitaire` (``"planner"``): plays a plan when one exists, else a move
  that makes one, else as :class:`~fivecrowns.solitaire.StrongSolitaire`. It wins 75.2%
  of seeds 1..2000 (docs/performance.rst, Solitaire strategies).

>>> from fivecrowns.solitaire import play_solitaire
>>> play_solitaire("planner", seed=7).won
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from .._deprecation import keyword_only
from ..cards import JOKER_INDEX, N_TYPES, Card, card_value, type_index
from ..outs import SolverMemo
from ..solver import deadwood_many
from ._strong import StrongSolitaire, _MemoStrategy
from .game import SolitaireObservation

__all__ = ["CardSet", "completion_sets", "find_plan", "plan_bound", "wilds_needed",
           "PlannerSolitaire"]

#: A completion set: card type indices, sorted, repeated for copies.
CardSet = tuple[int, ...]


def _fits(cards: CardSet, pool: list[int]) -> bool:
    """True if the cards can all be taken from the pool (counts per type)."""
    if len(cards) == 2 and cards[0] == cards[1]:
        return pool[cards[0]] >= 2
    for t in cards:
        if pool[t] <= 0:
            return False
    if len(cards) > 2:
        need: dict[int, int] = {}
        for t in cards:
            need[t] = need.get(t, 0) + 1
        return all(pool[t] >= k for t, k in need.items())
    return True


def completion_sets(row: npt.NDArray[np.uint8], wild: int, pool: npt.NDArray[np.int64] |
                    Sequence[int], memo: SolverMemo, *, max_set: int = 2) -> list[CardSet]:
    """The minimal completion sets of a pile, of at most ``max_set`` cards (1..3), from
    ``pool``.

    A set ``S`` completes the pile ``row`` (wild rank ``wild``) when some ``|S|`` cards of
    the pile can give way to ``S`` leaving no deadwood; minimal: no smaller set inside it
    does. A complete pile has the one set ``()``.

    Sets of two cards are found from every pile one card ``a`` and one discard lead to,
    with :func:`~fivecrowns.outs.completing_types` of that pile; sets of three the same
    way one step further (slow: meant for the bound, not for play).

    Returns
    -------
    list of tuple of int
        Sorted card type indices, smallest sets first.

    >>> from fivecrowns import hand_counts
    >>> memo = SolverMemo(2)
    >>> pool = hand_counts("7C QD JK")
    >>> [[str(Card.from_index(t)) for t in s]
    ...  for s in completion_sets(hand_counts("5C 6C 9D"), 13, pool, memo)]
    [['7C'], ['JK']]
    """
    pool_list = [int(x) for x in pool]
    if memo.deadwood(row, wild) == 0:
        return [()]
    return _sets(row, wild, pool_list, memo, max_set)


def _sets(row: npt.NDArray[np.uint8], wild: int, pool: list[int], memo: SolverMemo,
          max_set: int) -> list[CardSet]:
    outs = memo.completing_types(row, wild)
    ones = [t for t in range(N_TYPES) if pool[t] > 0 and outs[t]]
    found: list[CardSet] = [(t,) for t in ones]
    if max_set < 2:
        return found
    one = set(ones)
    more: set[CardSet] = set()
    held = [int(t) for t in np.flatnonzero(row)]
    allowed = _first_discards(row, wild, pool, one, memo, max_set)
    for a in range(N_TYPES):
        if pool[a] <= 0 or a in one:
            continue
        if allowed is not None and a in allowed and not allowed[a]:
            continue
        plus = row.copy()
        plus[a] += 1
        pool[a] -= 1
        for d in held:
            if d == a or (allowed is not None and a in allowed and d not in allowed[a]):
                continue
            nxt = plus.copy()
            nxt[d] -= 1
            if max_set == 2:
                c = memo.completing_types(nxt, wild)
                for b in np.flatnonzero(c).tolist():
                    if pool[b] > 0 and b not in one:
                        more.add((a, b) if a <= b else (b, a))
            else:
                if memo.deadwood(nxt, wild) == 0:
                    continue
                for s in _sets(nxt, wild, pool, memo, max_set - 1):
                    if not one.intersection(s):
                        more.add(tuple(sorted((a,) + s)))
        pool[a] += 1
    # Keep the minimal ones: a set of three holding a set of two is not minimal.
    pairs = {s for s in more if len(s) == 2}
    for s in sorted(more, key=lambda s: (len(s), s)):
        if len(s) == 3 and any(p in pairs for p in combinations(s, 2)):
            continue
        found.append(s)
    return found


def _wild_fill(row: npt.NDArray[np.uint8], wild: int, k: int,
               memo: SolverMemo) -> npt.NDArray[np.uint8] | None:
    """``k`` wild cards the deck has room for beside ``row`` (jokers first), or None."""
    fill = np.zeros(N_TYPES, dtype=np.uint8)
    added = 0
    for t in [JOKER_INDEX] + [type_index(s, wild) for s in range(5)]:
        take = min(int(memo.deck_counts[t]) - int(row[t]), k - added)
        if take > 0:
            fill[t] = take
            added += take
    return fill if added == k else None


def _first_discards(row: npt.NDArray[np.uint8], wild: int, pool: list[int], one: set[int],
                    memo: SolverMemo, k: int = 2) -> dict[int, set[int]]:
    """For each first card ``a`` of a set of ``k`` cards, the discards worth trying with it.

    A set ``{a, b, ...}`` completes the pile with discards ``d, e, ...`` only if the pile
    plus ``a`` and wilds in place of the others, less ``d, e, ...``, is complete (a wild
    stands for any card): so only such ``d, e, ...`` can be the first discard. A card
    missing from the answer is not filtered (no room for the test wilds)."""
    cards = [t for t in np.flatnonzero(row).tolist() for _ in range(int(row[t]))]
    drops = sorted(set(combinations(cards, k)))
    if not drops:
        return {}
    base = np.repeat(row[None, :], len(drops), axis=0)
    for i, drop in enumerate(drops):
        for t in drop:
            base[i, t] -= 1
    fill_all = _wild_fill(row, wild, k, memo)
    if fill_all is not None:
        # k wilds: no set at all unless some k cards can give way to them.
        if min(deadwood_many(np.ascontiguousarray(base + fill_all), wild, decks=memo.decks,
                             threads=1)) > 0:
            return {a: set() for a in range(N_TYPES) if pool[a] > 0 and a not in one}
    firsts = [a for a in range(N_TYPES) if pool[a] > 0 and a not in one]
    fills = []
    for a in firsts:
        plus = row.copy()
        plus[a] += 1
        fills.append(_wild_fill(plus, wild, k - 1, memo))
    tested = [a for a, f in zip(firsts, fills) if f is not None]
    if not tested:
        return {}
    rows = np.concatenate([base + f[None, :] for f in fills if f is not None])
    for j, a in enumerate(tested):
        rows[j * len(drops):(j + 1) * len(drops), a] += 1
    values = deadwood_many(rows, wild, decks=memo.decks, threads=1)
    out: dict[int, set[int]] = {}
    for j, a in enumerate(tested):
        ok: set[int] = set()
        for i, drop in enumerate(drops):
            if values[j * len(drops) + i] == 0:
                ok.update(drop)
        out[a] = ok
    return out


def find_plan(families: Sequence[list[CardSet]], pool: Sequence[int], *,
              big: Sequence[int] | None = None,
              node_limit: int = 50_000) -> list[CardSet | None] | None:
    """A disjoint choice of one completion set per pile, or ``None`` if there is none.

    Parameters
    ----------
    families : sequence of lists of card sets
        Each open pile's completion sets (``[()]`` for a complete pile, which then takes one
        spare card of any type).
    pool : sequence of 56 ints
        The cards to come, counted by type (the top card included).
    big : sequence of int, optional
        The relaxation of :func:`plan_bound`: pile ``i`` may instead take ``big[i]`` cards
        of any types (``None`` in the answer).
    node_limit : int
        Most sets tried; past it the search gives up and answers ``None``.

    Returns
    -------
    list or None
        The chosen set of each pile, in the order of ``families``.
    """
    return _pack(families, pool, big, node_limit)[0]


def _pack(families: Sequence[list[CardSet]], pool: Sequence[int], big: Sequence[int] | None,
          node_limit: int) -> tuple[list[CardSet | None] | None, bool]:
    """:func:`find_plan`, and whether the search gave up (so that ``None`` proves nothing)."""
    n = len(families)
    left = [int(x) for x in pool]
    total = sum(left)
    order = sorted(range(n), key=lambda i: (len(families[i]), i))
    # The fewest cards each pile can cost (a complete pile takes one spare card), summed
    # over the piles still to place: a cut for the relaxed search, whose big choice
    # leaves no forward check.
    cheapest = []
    for i in order:
        costs = [max(1, len(f)) for f in families[i]]
        if big is not None:
            costs.append(big[i])
        cheapest.append(min(costs, default=total + 1))
    rest_cost = [sum(cheapest[d:]) if big is not None else 0 for d in range(n + 1)]
    chosen: list[CardSet | None] = [None] * n
    nodes = 0
    gave_up = False

    def go(depth: int, used: int) -> bool:
        nonlocal nodes, gave_up
        if used + rest_cost[depth] > total:
            return False
        if depth == n:
            return True
        i = order[depth]
        for s in families[i]:
            nodes += 1
            if nodes > node_limit:
                gave_up = True
                return False
            if not s:
                chosen[i] = s
                if go(depth + 1, used + 1):
                    return True
                continue
            if not _fits(s, left):
                continue
            for t in s:
                left[t] -= 1
            # Forward check: every later pile still has a set that fits.
            ok = big is not None or all(any(not f or _fits(f, left) for f in families[j])
                                        for j in order[depth + 1:])
            if ok:
                chosen[i] = s
                if go(depth + 1, used + len(s)):
                    return True
            for t in s:
                left[t] += 1
            if gave_up:
                return False
        if big is not None and not gave_up:
            chosen[i] = None
            if go(depth + 1, used + big[i]):
                return True
        return False

    found = go(0, 0)
    return (list(chosen) if found else None), gave_up and not found


def wilds_needed(row: npt.NDArray[np.uint8], wild: int, memo: SolverMemo, *,
                 limit: int = 6) -> int:
    """The fewest cards of a pile that must give way to wild cards for it to be complete.

    Exact (every choice of the cards to give way is tried), up to ``limit``: ``limit + 1``
    when more are needed. When the deck has too few wild cards left to try ``k``, the
    answer is ``k``, still a lower bound. A completion set can be no smaller: any card of
    it could be a wild instead.

    >>> from fivecrowns import hand_counts
    >>> wilds_needed(hand_counts("3C 5D 9H"), 13, SolverMemo(2))
    2
    """
    if memo.deadwood(row, wild) == 0:
        return 0
    wild_types = [JOKER_INDEX] + [type_index(s, wild) for s in range(5)]
    cards = [t for t in np.flatnonzero(row).tolist() for _ in range(int(row[t]))]
    for k in range(1, min(limit, len(cards)) + 1):
        drops = sorted(set(combinations(cards, k)))
        batch = np.repeat(row[None, :], len(drops), axis=0)
        for i, drop in enumerate(drops):
            for t in drop:
                batch[i, t] -= 1
        # k wilds the deck has room for, jokers first; too few: k is as far as we know
        fill = np.zeros(N_TYPES, dtype=np.uint8)
        added = 0
        for t in wild_types:
            room = int(memo.deck_counts[t]) - int(row[t])
            take = min(room, k - added)
            if take > 0:
                fill[t] = take
                added += take
        if added < k:
            return k
        rows = batch + fill[None, :]
        if min(memo.deadwood_many(np.ascontiguousarray(rows), wild)) == 0:
            return k
    return limit + 1


def plan_bound(piles: Sequence[tuple[npt.NDArray[np.uint8], int]], pool: Sequence[int],
               memo: SolverMemo, *, max_set: int = 2,
               node_limit: int = 200_000) -> tuple[bool, bool]:
    """Bracket whether a deal can be won: ``(a plan exists, a relaxed plan exists)``.

    The first answer is :func:`find_plan` over sets of at most ``max_set`` cards: True
    proves the deal winnable. The second lets any pile take, instead of one of its sets,
    ``max_set + 1`` cards of any types (every completion set left out has at least that
    many, and at least :func:`wilds_needed`): False proves the deal lost, for every player,
    the clairvoyant included. A search that gives up after ``node_limit`` sets proves
    nothing: ``(False, True)``.
    """
    families = [completion_sets(row, wild, pool, memo, max_set=max_set)
                for row, wild in piles]
    exact = find_plan(families, pool, node_limit=node_limit) is not None
    if exact:
        return True, True
    big = [max(max_set + 1, wilds_needed(row, wild, memo)) for row, wild in piles]
    relaxed, gave_up = _pack(families, pool, big, node_limit)
    return False, relaxed is not None or gave_up


class PlannerSolitaire(_MemoStrategy):
    """Plays a plan (:func:`find_plan`) when one exists, else as
    :class:`~fivecrowns.solitaire.StrongSolitaire`.

    Every turn it looks for a plan over the cards to come (the top card and the unseen
    cards: the draw pile's multiset, known exactly). With a plan, the top card goes to the
    pile whose set holds it, with a discard that keeps the rest of the set completing the
    pile; a card no set needs goes to a pile complete as dealt (closing it), else is
    thrown away on the largest open pile. A plan found is a won game, whatever the order
    of the draw pile.

    Without a plan (none of sets of at most ``max_set`` cards, or the search gave up after
    ``node_limit`` sets), it tries to *reach* one: when at most ``reach_piles`` piles have
    no completion set, it tries the top card on each of them with each discard (with
    ``contention``, when every pile has sets but they clash, on every pile), and plays a
    move after which the piles have a plan over the cards after the top one. Otherwise the
    turn is played by ``StrongSolitaire``, and the next turn looks again.

    The answers depend on the observation alone (the memos only remember solver answers
    and completion sets).

    Parameters
    ----------
    max_set : int
        Largest completion set enumerated, 1 or 2.
    node_limit : int
        Most sets the plan search tries per turn.
    reach : bool
        Look for a move that makes a plan when there is none.
    reach_piles : int
        Most piles without a set for which ``reach`` looks.
    contention : bool
        Also look when every pile has sets but no plan exists.
    deep : int
        With no plan and at most this many piles without a set of two cards, their sets
        of three are enumerated too.
    protect : int
        Experimental, off by default: with at most this many piles without a set, keep
        the cards of the other piles' sets for them (a relaxed plan) and play the rest
        on the piles without a set.

    >>> PlannerSolitaire().name
    'planner'
    """

    name = "planner"

    @keyword_only("reach", "reach_piles", "contention", "protect", "deep")
    def __init__(self, max_set: int = 2, node_limit: int = 20_000, *, reach: bool = True,
                 reach_piles: int = 2, contention: bool = True, protect: int = 0,
                 deep: int = 3) -> None:
        if max_set not in (1, 2):
            raise ValueError(f"max_set must be 1 or 2, got {max_set!r}")
        self.max_set = int(max_set)
        self.node_limit = int(node_limit)
        self.protect = int(protect)
        self.deep = int(deep)
        self.reach = bool(reach)
        self.reach_piles = int(reach_piles)
        self.contention = bool(contention)
        self._memo: SolverMemo | None = None
        self._fallback = StrongSolitaire()
        self._sets: dict[bytes, tuple[list[int], list[CardSet]]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"max_set": self.max_set, "node_limit": self.node_limit, "protect": self.protect,
                "reach": self.reach, "reach_piles": self.reach_piles,
                "contention": self.contention, "deep": self.deep}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def __repr__(self) -> str:
        return (f"PlannerSolitaire(max_set={self.max_set}, node_limit={self.node_limit}, "
                f"reach={self.reach}, reach_piles={self.reach_piles}, "
                f"contention={self.contention}, protect={self.protect}, deep={self.deep})")

    def _family(self, row: npt.NDArray[np.uint8], wild: int, pool: npt.NDArray[np.int64],
                memo: SolverMemo, max_set: int = 0) -> list[CardSet]:
        """:func:`completion_sets`, remembered: the sets found for a larger pool, less those
        that no longer fit, are the sets of a smaller one (minimality does not depend on
        the pool), so the answer depends on the arguments alone."""
        max_set = max_set or self.max_set
        key = row.tobytes() + bytes((wild, memo.decks, max_set))
        counts = pool.tolist()
        got = self._sets.get(key)
        if got is not None and all(a >= b for a, b in zip(got[0], counts)):
            return [s for s in got[1] if not s or _fits(s, counts)]
        fam = completion_sets(row, wild, pool, memo, max_set=max_set)
        if len(self._sets) > 20_000:
            self._sets.clear()
        self._sets[key] = (counts, fam)
        return fam

    def _reach(self, rows: list[npt.NDArray[np.uint8]], sizes: tuple[int, ...],
               families: list[list[CardSet]], pool: npt.NDArray[np.int64], t: int,
               memo: SolverMemo) -> tuple[int, Card] | None:
        """A move of the top card onto a pile with no set that leaves a plan, if any.

        With at most two such piles, each of the pile's discards is tried: if the pile
        then has a completion set and the piles together a plan over the cards after the
        top one, the move wins."""
        blocking = [i for i, f in enumerate(families) if not f]
        if len(blocking) > self.reach_piles:
            return None
        if not blocking and self.contention:
            blocking = list(range(len(families)))
        rest = pool.copy()
        rest[t] -= 1
        counts = rest.tolist()
        others = [[s for s in f if not s or _fits(s, counts)] for f in families]
        for i in blocking:
            wild = sizes[i]
            plus = rows[i].copy()
            plus[t] += 1
            for d in np.flatnonzero(plus).tolist():
                if d == t:
                    continue
                nxt = plus.copy()
                nxt[d] -= 1
                fam = self._family(nxt, wild, rest, memo)
                if not fam or fam == [()]:
                    if fam == [()]:
                        return sizes[i], Card.from_index(d)  # closes it now
                    continue
                trial = list(others)
                trial[i] = fam
                if find_plan(trial, counts, node_limit=self.node_limit) is not None:
                    return sizes[i], Card.from_index(d)
        return None

    def choose(self, observation: SolitaireObservation,
               rng: np.random.Generator) -> tuple[int, Card]:
        top = observation.top
        assert top is not None
        memo = self._memo_for(observation.rules.decks)
        pool = observation.unseen.astype(np.int64)
        pool[top.index] += 1
        sizes = observation.open_piles
        rows = [observation.pile_counts[n - 3] for n in sizes]
        families = [self._family(r, n, pool, memo) for r, n in zip(rows, sizes)]
        counts = pool.tolist()
        plan = find_plan(families, counts, node_limit=self.node_limit)
        if plan is None and 0 < sum(not f for f in families) <= self.deep:
            # Sets of three cards for the piles with none of two.
            families = [f if f else self._family(r, n, pool, memo, 3)
                        for f, r, n in zip(families, rows, sizes)]
            plan = find_plan(families, counts, node_limit=self.node_limit)
        if plan is None and self.reach:
            found = self._reach(rows, sizes, families, pool, top.index, memo)
            if found is not None:
                return found
        far: tuple[int, ...] = ()
        blocking = sum(not f for f in families)
        if plan is None and 0 < blocking <= self.protect:
            # Reserve sets for the piles that have them; the others take the rest.
            big = [self.max_set + 1 if not f else len(counts) + 1 for f in families]
            plan = find_plan(families, counts, big=big, node_limit=self.node_limit)
            if plan is not None:
                far = tuple(n for n, s in zip(sizes, plan) if s is None)
        if plan is None:
            return self._fallback.choose(observation, rng)
        t = top.index
        for i, s in enumerate(plan):
            if s and t in s:
                return sizes[i], _keeping(rows[i], sizes[i], t, s, memo)
        if far:
            gain, move = self._fallback._scored_move(observation, far)
            if gain > 0.0:
                return move
        for i, s in enumerate(plan):
            if s == ():
                return sizes[i], top  # any card closes a complete pile
        return max(sizes), top


def _keeping(row: npt.NDArray[np.uint8], wild: int, card: int, cards: CardSet,
             memo: SolverMemo) -> Card:
    """The discard after adding ``card`` to the pile that keeps the rest of ``cards``
    completing it (ties: the highest-value card)."""
    rest = list(cards)
    rest.remove(card)
    plus = row.copy()
    plus[card] += 1
    good: list[int] = []
    for d in np.flatnonzero(plus).tolist():
        if d == card:
            continue
        nxt = plus.copy()
        nxt[d] -= 1
        if not rest or memo.deadwood(nxt, wild) == 0:
            ok = memo.deadwood(nxt, wild) == 0
        elif len(rest) == 1:
            ok = bool(memo.completing_types(nxt, wild)[rest[0]])
        else:
            pool = [0] * N_TYPES
            for t in rest:
                pool[t] += 1
            ok = bool(_sets(nxt, wild, pool, memo, len(rest)))
        if ok:
            good.append(d)
    assert good, "a completion set always has a discard that keeps it"
    return Card.from_index(max(good, key=lambda d: (card_value(Card.from_index(d), wild), d)))
