"""Computer players: :class:`RandomBot`, :class:`GreedyBot` and :class:`StrongBot`.

Every bot follows the :class:`~fivecrowns.players.Player` protocol, sees only its
:class:`~fivecrowns.round.Observation`, and uses the public solver API for meld
questions. Each class takes an int ``seed`` as its first argument, so a class is
itself a factory for :func:`~fivecrowns.players.tournament`.

Examples
--------
>>> from fivecrowns.players import play_game
>>> res = play_game([StrongBot(), GreedyBot(), RandomBot(seed=2)], seed=6, rounds=[1])
>>> len(res.totals)
3
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import solver
from .cards import JOKER_INDEX, N_TYPES, Card
from .deck import SeedLike, full_counts, make_rng
from .round import EventKind, Observation, Source
from .rules import Rules

__all__ = [
    "RandomBot",
    "GreedyBot",
    "StrongBot",
    "best_discard_choice",
    "discard_order",
    "unseen_counts",
    "discard_pile_counts",
    "picked_up",
]

def discard_order(row: npt.NDArray[np.uint8] | list[int], wild: int) -> list[int]:
    """The card types worth trying as a discard, in tie-break order.

    The order is :func:`fivecrowns.best_discard`'s: a joker if held (otherwise the first
    wild-rank card held: discarding one wild is as good as another), then natural cards
    from the highest rank down, suits in index order. The first best card in this order
    is the one ``best_discard`` returns.

    >>> from fivecrowns import hand_counts
    >>> [str(Card.from_index(t)) for t in discard_order(hand_counts("5C 5D KH 9S 9S JK"), 9)]
    ['JK', 'KH', '5C', '5D']
    """
    r = row.tolist() if isinstance(row, np.ndarray) else row
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


# For each wild rank: the wild-rank card types, and the natural types from the highest
# rank down, suits in order (the joker and the wild rank left out).
_WILD_TYPES = {w: [s * 11 + w - 3 for s in range(5)] for w in range(3, 14)}
_NATURAL_ORDER = {w: [s * 11 + i for i in range(10, -1, -1) if i != w - 3 for s in range(5)]
                  for w in range(3, 14)}


def _candidate_deadwoods(row: npt.NDArray[np.uint8], wild: int, decks: int,
                         order: list[int]) -> npt.NDArray[np.int32]:
    """Deadwood of the hand without each card of ``order`` (one batched solver call)."""
    batch = np.repeat(row.reshape(1, N_TYPES), len(order), axis=0)
    batch[np.arange(len(order)), order] -= 1
    return solver.deadwood_many(batch, wild, decks=decks)


def best_discard_choice(row: npt.NDArray[np.uint8], wild: int,
                        decks: int = 2) -> tuple[int, int]:
    """``(deadwood, card type)`` of the best discard from a hand of n + 1 cards: the
    answer of :func:`fivecrowns.best_discard`, as two ints for the bots' hot loops.

    >>> from fivecrowns import hand_counts
    >>> best_discard_choice(hand_counts("5C 6C 7C KD"), 13)
    (0, 21)
    """
    choice = solver.best_discard(row, wild, decks=decks)
    return choice.deadwood, choice.card.index


def _deck_drawable(obs: Observation) -> bool:
    return obs.draw_size > 0 or obs.discard_size > 1


def _hand_row(obs: Observation) -> npt.NDArray[np.uint8]:
    return np.array(obs.counts, dtype=np.uint8)  # a writable copy


class RandomBot:
    """Any legal move, uniformly: a random draw source, a random card type to discard;
    it goes out when the chosen discard allows it (with probability ``go_out``).

    Parameters
    ----------
    seed : int or Generator
        Its own random source (required).
    go_out : float
        Probability of going out when the chosen discard allows it.
    """

    name = "RandomBot"

    def __init__(self, seed: SeedLike, go_out: float = 1.0) -> None:
        self.rng = make_rng(seed)
        self.go_out = float(go_out)

    def choose_draw(self, obs: Observation) -> Source:
        """A random legal source."""
        sources = [s for s, ok in ((Source.DECK, _deck_drawable(obs)),
                                   (Source.DISCARD, obs.top_discard is not None)) if ok]
        return sources[int(self.rng.integers(len(sources)))]

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """A random card type held; go out if that discard leaves deadwood 0."""
        row = _hand_row(obs)
        held = np.flatnonzero(row)
        t = int(held[int(self.rng.integers(held.size))])
        row[t] -= 1
        out = (solver.deadwood(row, obs.wild, decks=obs.decks) == 0
               and (self.go_out >= 1.0 or self.rng.random() < self.go_out))
        return Card.from_index(t), bool(out)

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """Takes the top discard when that lowers its best-discard deadwood, else draws
    blind; discards to leave the least deadwood; goes out whenever it can.

    Parameters
    ----------
    seed : int, optional
        Ignored (the bot is deterministic); accepted so the class is a factory.
    """

    name = "GreedyBot"

    def __init__(self, seed: SeedLike | None = None) -> None:
        # (hand bytes + wild, best deadwood, best discard) of the last hand solved, to reuse
        # it: the hand after taking the top discard is solved again in the discard phase
        self._cache: tuple[bytes, int, int] | None = None
        self._kept: tuple[bytes, int] | None = None  # hand left after our last discard

    def _choice(self, row: npt.NDArray[np.uint8], wild: int, decks: int) -> tuple[int, int]:
        key = row.tobytes() + bytes((wild,))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1], self._cache[2]
        dead, t = best_discard_choice(row, wild, decks)
        self._cache = (key, dead, t)
        return dead, t

    def choose_draw(self, obs: Observation) -> Source:
        """The discard pile if its top card lowers the deadwood, else the deck."""
        top = obs.top_discard
        if top is None:
            return Source.DECK
        if not _deck_drawable(obs):
            return Source.DISCARD
        row = _hand_row(obs)
        key = row.tobytes() + bytes((obs.wild,))
        if self._kept is not None and self._kept[0] == key:
            now = self._kept[1]
        else:
            now = solver.deadwood(row, obs.wild, decks=obs.decks)
        row[top.index] += 1
        taken, _ = self._choice(row, obs.wild, obs.decks)
        return Source.DISCARD if taken < now else Source.DECK

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """The best discard; go out if it leaves deadwood 0."""
        row = _hand_row(obs)
        dead, t = self._choice(row, obs.wild, obs.decks)
        row[t] -= 1
        self._kept = (row.tobytes() + bytes((obs.wild,)), dead)
        return Card.from_index(t), dead == 0

    def __repr__(self) -> str:
        return "GreedyBot()"


# -- what a player can work out from the public history --

def discard_pile_counts(obs: Observation) -> npt.NDArray[np.int64]:
    """The discard pile's cards, rebuilt from the public history (a 56-count row).

    >>> from fivecrowns.round import Round
    >>> r = Round(2, round_number=1, seed=0)
    >>> int(discard_pile_counts(r.observation(0)).sum())
    1
    """
    pile: list[int] = []
    for ev in obs.history:
        if ev.kind is EventKind.TURN_UP or ev.kind is EventKind.DISCARD \
                or ev.kind is EventKind.GO_OUT:
            assert ev.card is not None
            pile.append(ev.card.index)
        elif ev.kind is EventKind.DRAW_DISCARD:
            pile.pop()
        elif ev.kind is EventKind.RESHUFFLE:
            pile = pile[-1:]
    return np.bincount(np.asarray(pile, dtype=np.intp), minlength=N_TYPES)


def picked_up(obs: Observation) -> list[npt.NDArray[np.int64]]:
    """For each player, the cards known to be in their hand: those they took from the
    discard pile and have not discarded since (a 56-count row each)."""
    known = [np.zeros(N_TYPES, dtype=np.int64) for _ in range(obs.n_players)]
    for ev in obs.history:
        if ev.kind is EventKind.DRAW_DISCARD:
            assert ev.card is not None
            known[ev.player][ev.card.index] += 1
        elif (ev.kind is EventKind.DISCARD or ev.kind is EventKind.GO_OUT) \
                and ev.card is not None and known[ev.player][ev.card.index] > 0:
            known[ev.player][ev.card.index] -= 1
    return known


def unseen_counts(obs: Observation) -> npt.NDArray[np.int64]:
    """Cards whose place the player cannot know: the whole deck less their own hand, the
    discard pile, and what opponents are known to hold (a 56-count row).

    >>> from fivecrowns.round import Round
    >>> r = Round(2, round_number=1, seed=0)
    >>> int(unseen_counts(r.observation(0)).sum())   # 116 - 3 in hand - 1 turned up
    112
    """
    rules = Rules(decks=obs.decks)
    out = full_counts(rules).astype(np.int64) - obs.counts - discard_pile_counts(obs)
    known = picked_up(obs)
    for p in range(obs.n_players):
        if p != obs.player:
            out -= known[p]
    return np.maximum(out, 0)


class StrongBot:
    """A bot that uses what it can see.

    - **Draw**: takes the top discard when the deadwood that leaves (after its best
      discard) is lower than the *expected* deadwood of a blind draw, computed with
      :func:`fivecrowns.draw_table` weighted by the cards it has not seen (the deck less
      its hand, the discard pile and the cards opponents took from it).
    - **Discard**: goes out whenever it can. Otherwise it looks one draw ahead for its
      ``lookahead`` most promising discards (expected best-discard deadwood after a blind
      draw, mixed with the deadwood now), never throws a wild away unless going out, and
      avoids feeding the next player a card matching one they took from the pile. On a
      final turn it simply keeps the least deadwood.

    Parameters
    ----------
    seed : int, optional
        Ignored (the bot is deterministic); accepted so the class is a factory.
    lookahead : int
        How many discards to examine one draw ahead (each costs one ``draw_table``);
        0 ranks them by deadwood only.
    now_weight : float
        Weight of the deadwood now against the expected deadwood after the next draw.
    """

    name = "StrongBot"

    WILD_PENALTY = 100.0
    FEED_RANK_PENALTY = 4.0
    FEED_RUN_PENALTY = 2.5

    def __init__(self, seed: SeedLike | None = None, lookahead: int = 3,
                 now_weight: float = 0.35) -> None:
        self.lookahead = int(lookahead)
        self.now_weight = float(now_weight)

    @staticmethod
    def _expected(row: npt.NDArray[np.uint8], wild: int, decks: int,
                  unseen: npt.NDArray[np.int64]) -> float:
        table = solver.draw_table(row, wild, decks=decks)
        weights = np.where(table >= 0, unseen, 0)
        total = weights.sum()
        if total <= 0:
            return float(solver.deadwood(row, wild, decks=decks))
        return float((weights * table).sum() / total)

    def choose_draw(self, obs: Observation) -> Source:
        """The pile's top card if it beats a blind draw on expected deadwood."""
        top = obs.top_discard
        if top is None:
            return Source.DECK
        if not _deck_drawable(obs):
            return Source.DISCARD
        row = _hand_row(obs)
        if top.is_wild(obs.wild):
            return Source.DISCARD
        row[top.index] += 1
        taken, _ = best_discard_choice(row, obs.wild, obs.decks)
        if taken == 0:
            return Source.DISCARD
        row[top.index] -= 1
        blind = self._expected(row, obs.wild, obs.decks, unseen_counts(obs))
        return Source.DISCARD if taken < blind else Source.DECK

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible, else the discard with the best look-ahead score."""
        row = _hand_row(obs)
        wild, decks = obs.wild, obs.decks
        order = discard_order(row, wild)
        # every natural type held, and one wild, are candidates
        dead = _candidate_deadwoods(row, wild, decks, order)
        best = int(np.argmin(dead))
        if dead[best] == 0:
            return Card.from_index(order[best]), True
        if obs.final_turn or obs.sudden_death and obs.went_out is not None:
            return Card.from_index(order[best]), False
        scores = dead.astype(np.float64)
        scores += self._penalties(obs, order)
        if self.lookahead > 0 and len(order) > 1:
            unseen = unseen_counts(obs)
            picks = np.argsort(scores, kind="stable")[:self.lookahead]
            ahead = np.full(len(order), np.inf)
            for k in picks.tolist():
                row[order[k]] -= 1
                ahead[k] = self._expected(row, wild, decks, unseen)
                row[order[k]] += 1
            mixed = self.now_weight * dead + (1 - self.now_weight) * ahead
            scores = mixed + self._penalties(obs, order)
        k = int(np.argmin(scores))
        return Card.from_index(order[k]), False

    def _penalties(self, obs: Observation, order: list[int]) -> npt.NDArray[np.float64]:
        pen = np.zeros(len(order), dtype=np.float64)
        nxt = (obs.player + 1) % obs.n_players
        known = picked_up(obs)[nxt] if nxt != obs.player else None
        for k, t in enumerate(order):
            card = Card.from_index(t)
            if card.is_wild(obs.wild):
                pen[k] += self.WILD_PENALTY
                continue
            if known is None or not known.any():
                continue
            rank, suit = t % 11, t // 11
            same_rank = known[[s * 11 + rank for s in range(5)]].sum()
            near_run = sum(int(known[suit * 11 + r]) for r in (rank - 2, rank - 1, rank + 1,
                                                                rank + 2) if 0 <= r < 11)
            if same_rank:
                pen[k] += self.FEED_RANK_PENALTY
            if near_run:
                pen[k] += self.FEED_RUN_PENALTY
        return pen

    def __repr__(self) -> str:
        return f"StrongBot(lookahead={self.lookahead})"
