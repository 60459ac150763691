"""Computer players: :class:`RandomBot`, :class:`GreedyBot` and :class:`StrongBot`.

Every bot follows the :class:`~fivecrowns.players.Player` protocol, sees only its
:class:`~fivecrowns.records.Observation`, and uses the public solver API for meld
questions. Each class is itself an entrant of :func:`~fivecrowns.simulate.simulate_games`:
the random one takes a ``seed`` (the simulators give each game's bot its own), the
deterministic ones take none. None of them throws
back a card it has just taken from the discard pile (``obs.must_keep``).

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

from . import _compiled_bots, solver
from ._deprecation import RENAMED, UNSET, dropped_parameter, moved_names
from ._rows import row_core
from .actions import Source
from .cards import N_TYPES, Card
from .outs import discard_order as _discard_order
from .records import Observation
from .seeding import SeedLike, make_rng

__all__ = [
    "RandomBot",
    "GreedyBot",
    "StrongBot",
    "best_discard_choice",
    "unseen_counts",
    "discard_pile_counts",
    "picked_up",
]

__getattr__ = moved_names(__name__, {"discard_order": "fivecrowns.outs"})


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
    # best_discard's answer without its Discard record (a copy of the hand, a Card and a
    # deferred solve), which the bots never read. A uint8 array goes straight to the
    # core, which checks it and raises hand_counts' messages; anything else is made one.
    if type(row) is not np.ndarray or row.dtype != np.uint8:
        row = solver.hand_counts(row, decks=decks)
    dead, index = row_core().best_discard_row(row, wild, decks)
    return dead, index


def _deck_drawable(obs: Observation) -> bool:
    return obs.draw_size > 0 or obs.discard_size > 1


def _hand_row(obs: Observation) -> npt.NDArray[np.uint8]:
    return np.array(obs.counts, dtype=np.uint8)  # a writable copy


class RandomBot:
    """Any legal move, uniformly: a random draw source, a random card type to discard;
    it goes out when the chosen discard allows it (with probability ``go_out``).

    Parameters
    ----------
    seed : int, numpy SeedSequence or numpy Generator
        Its own random source (see :doc:`/conventions`); ``0`` when not given, so
        ``RandomBot()`` plays the same moves every time.
    go_out : float
        Probability of going out when the chosen discard allows it.
    """

    name = "RandomBot"

    def __init__(self, seed: SeedLike = 0, go_out: float = 1.0) -> None:
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
        kept = _must_keep_index(obs)
        if kept >= 0:
            held = held[held != kept]
        t = int(held[int(self.rng.integers(held.size))])
        row[t] -= 1
        out = (solver.deadwood(row, obs.wild, decks=obs.decks) == 0
               and (self.go_out >= 1.0 or self.rng.random() < self.go_out))
        return Card.from_index(t), bool(out)

    def __repr__(self) -> str:
        return "RandomBot()"


RENAMED["GreedyBot(seed=...)"] = "GreedyBot()"  # deterministic: a seed meant nothing


class GreedyBot:
    """Takes the top discard when that lowers its best-discard deadwood, else draws
    blind; discards to leave the least deadwood; goes out whenever it can.

    Parameters
    ----------
    seed
        Deprecated (the bot is deterministic, a seed means nothing to it): giving one
        warns, and 1.0 removes the parameter.
    """

    name = "GreedyBot"

    def __init__(self, seed: object = UNSET) -> None:
        dropped_parameter("GreedyBot", "seed", seed, "GreedyBot()")
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
        if type(self) is GreedyBot:  # the engine's policy: the same choice, in C
            source = _compiled_bots.compiled_draw(_compiled_bots.GREEDY, obs)
            if source is not None:
                return source
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
        """The best discard (the best other than ``obs.must_keep``); go out if it leaves
        deadwood 0."""
        if type(self) is GreedyBot:
            choice = _compiled_bots.compiled_discard(_compiled_bots.GREEDY, obs)
            if choice is not None:
                return choice
        row = _hand_row(obs)
        dead, t = self._choice(row, obs.wild, obs.decks)
        if t == _must_keep_index(obs):  # the best discard is the card just taken: the next best
            order = _allowed_order(row, obs.wild, t)
            deads = _candidate_deadwoods(row, obs.wild, obs.decks, order)
            k = int(np.argmin(deads))
            dead, t = int(deads[k]), order[k]
        row[t] -= 1
        self._kept = (row.tobytes() + bytes((obs.wild,)), dead)
        return Card.from_index(t), dead == 0

    def __repr__(self) -> str:
        return "GreedyBot()"


# -- what a player can know from the public state --

def discard_pile_counts(obs: Observation) -> npt.NDArray[np.int64]:
    """The discard pile's cards, a 56-count row (``obs.discard_counts`` as int64).

    >>> from fivecrowns.round import Round
    >>> r = Round(2, round_number=1, seed=0)
    >>> int(discard_pile_counts(r.observation(0)).sum())
    1
    """
    return obs.discard_counts.astype(np.int64)


def picked_up(obs: Observation) -> list[npt.NDArray[np.int64]]:
    """For each player, the cards known to be in their hand: those they took from the
    discard pile and have not discarded since (``obs.taken_counts`` as int64 rows)."""
    return [row.astype(np.int64) for row in obs.taken_counts]


def unseen_counts(obs: Observation) -> npt.NDArray[np.int64]:
    """Cards whose place the player cannot know: the whole deck less their own hand, the
    discard pile, and what opponents are known to hold (``obs.unseen_counts`` as int64).

    >>> from fivecrowns.round import Round
    >>> r = Round(2, round_number=1, seed=0)
    >>> int(unseen_counts(r.observation(0)).sum())   # 116 - 3 in hand - 1 turned up
    112
    """
    return obs.unseen_counts.astype(np.int64)


def _must_keep_index(obs: Observation) -> int:
    """The card type that may not be discarded now (just taken from the pile), or -1."""
    return -1 if obs.must_keep is None else obs.must_keep.index


def _allowed_order(row: npt.NDArray[np.uint8], wild: int, kept: int) -> list[int]:
    """:func:`discard_order` of the cards that may be discarded (all but type ``kept``)."""
    if kept < 0:
        return _discard_order(row, wild)
    other = row.copy()
    other[kept] = 0
    return _discard_order(other, wild)


def _discard_candidates(obs: Observation) -> tuple[npt.NDArray[np.uint8], int, list[int]]:
    """(hand row, index of the card that must be kept or -1, candidate discards): the
    candidates of :func:`discard_order`, or the allowed ones when the only candidate is
    the card just taken, which the rules forbid throwing back."""
    row = _hand_row(obs)
    kept = _must_keep_index(obs)
    order = _discard_order(row, obs.wild)
    if kept >= 0 and order == [kept]:
        order = _allowed_order(row, obs.wild, kept)
    return row, kept, order


RENAMED["StrongBot(seed=...)"] = "StrongBot()"  # deterministic: a seed meant nothing


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
    seed
        Deprecated (the bot is deterministic, a seed means nothing to it): giving one
        warns, and 1.0 removes the parameter.
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

    def __init__(self, seed: object = UNSET, lookahead: int = 3,
                 now_weight: float = 0.35) -> None:
        dropped_parameter("StrongBot", "seed", seed, "StrongBot()")
        self.lookahead = int(lookahead)
        self.now_weight = float(now_weight)

    def _as_engine(self) -> bool:
        """Whether the engine's strong policy is this bot: its defaults, its class."""
        return type(self) is StrongBot and self.lookahead == 3 and self.now_weight == 0.35

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
        if self._as_engine():  # the engine's policy: the same choice, in C
            source = _compiled_bots.compiled_draw(_compiled_bots.STRONG, obs)
            if source is not None:
                return source
        top = obs.top_discard
        if top is None:
            return Source.DECK
        if not _deck_drawable(obs):
            return Source.DISCARD
        row = _hand_row(obs)
        if top.is_wild(obs.wild):
            return Source.DISCARD
        row[top.index] += 1
        taken, t = best_discard_choice(row, obs.wild, obs.decks)
        if t == top.index and not obs.return_discard:
            # the best is to throw the card back, which the rules forbid: the next best
            order = _allowed_order(row, obs.wild, t)
            if order:
                taken = int(_candidate_deadwoods(row, obs.wild, obs.decks, order).min())
        if taken == 0:
            return Source.DISCARD
        row[top.index] -= 1
        blind = self._expected(row, obs.wild, obs.decks, unseen_counts(obs))
        return Source.DISCARD if taken < blind else Source.DECK

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible, else the discard with the best look-ahead score."""
        if self._as_engine():
            choice = _compiled_bots.compiled_discard(_compiled_bots.STRONG, obs)
            if choice is not None:
                return choice
        row, kept, order = _discard_candidates(obs)
        wild, decks = obs.wild, obs.decks
        # every natural type held, and one wild, are candidates; the card just taken from
        # the pile stays in the ranking (so the others rank as they would without the
        # rule) but is never chosen
        dead = _candidate_deadwoods(row, wild, decks, order)
        barred = np.array([t == kept for t in order])
        best = int(np.argmin(np.where(barred, np.iinfo(np.int32).max, dead)))
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
        scores[barred] = np.inf
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
