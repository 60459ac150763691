"""ExpertBot: StrongBot's policy with two-draw look-aheads on the draw and the discard,
and integer arithmetic throughout.

The policy, precisely (``u`` is the player's ``unseen_counts``; a hand's *table* is
:func:`fivecrowns.draw_table` of it, entry ``c`` the best-discard deadwood after drawing
``c``, -1 where no copy of ``c`` is left; the *one-draw sums* of a hand are
``N = sum(u[c] * table[c])``, ``D = sum(u[c])`` and ``Z = sum(u[c])`` over the ``c`` with
``table[c] >= 0`` (``Z``: with ``table[c] == 0``), so ``N / D`` is the expected
best-discard deadwood after one blind draw and ``Z / D`` the chance that the draw lets
the hand go out; ``B`` is ``OUT_BONUS``, 40 points per unit of chance):

*Two-draw sums.* Of a hand ``H``: for each first card ``c1`` (weight ``u[c1]``), ``H(c1)``
is ``H`` plus ``c1`` less its best discard, and the second card is drawn from what is
left, ``u`` less one ``c1``: ``N2 = sum u[c1] * N(H(c1))``, ``D2`` and ``Z2`` likewise
(each one-draw sum taken with weights ``u`` less one ``c1``), the sums over ordered pairs
of cards drawn without replacement. ``N2 / D2`` is the expected deadwood after two blind
draws, ``Z2 / D2`` the chance of being able to go out by then.

**Draw.** The top discard is taken at once when it is a wild, when the deck cannot be
drawn, or when taking it lets the bot go out (its best allowed discard then leaves no
deadwood). Otherwise, with ``A`` the hand after taking the top discard and making its
best allowed discard (:func:`fivecrowns.best_discard`'s card, or the next best when the
rules keep the card just taken), the bot compares two plans of two draws each: *take the
top discard now, then draw blind next turn*, ``(N_A - B * Z_A) / D_A`` with ``A``'s
one-draw sums, and *draw blind now, then again next turn*, ``(N2 - B * Z2) / D2`` with
the two-draw sums of the hand now. It takes the top discard when the first is lower,
compared exactly as ``(N_A - B * Z_A) * D2 < (N2 - B * Z2) * D_A``. On a final turn
(someone went out, or a tie-break round's first discard ends it) there is no second draw,
and it compares the deadwood ``A`` leaves with the one-draw expectation of the hand now,
as StrongBot does; so it does when fewer than two unseen cards are left.

**Discard.** It goes out whenever it can, and keeps the least deadwood on a final turn.
Otherwise every allowed candidate of :func:`fivecrowns.outs.discard_order` (each natural
type held and one wild) gets a *one-draw score* from the hand ``H`` it leaves:
``floor(2**20 * (4 * (N - B * Z) + p * D) / (4 * D))``, the expected deadwood after a
blind draw less the bonus for going out on it, plus ``p`` quarter points of penalty
(``WILD_PENALTY``, 400, for throwing a wild away; nothing for feeding the next player),
in units of ``2**-20`` points (when nothing can be drawn, ``N / D`` is the deadwood now
and ``Z`` is 0). The ``LOOKED_AHEAD`` (5) candidates with the lowest one-draw scores
(ties: the first in ``discard_order``) get a *two-draw score*, the same formula with the
two-draw sums of ``H`` (the one-draw score again if ``D2`` is 0), and the one with the
least ``(k - 1) * one-draw + two-draw`` wins, for ``k`` players, the first in
``discard_order`` winning ties. The weights are the chances, roughly, that the round ends
before the bot's second draw (more opponents, more likely). The deadwood left now has no
weight: if an opponent goes out, the bot still draws once before it scores. Unlike
StrongBot it has no penalty for feeding the next player (with three StrongBots the penalty
cost points, heads-up it made no difference: docs/notes/bot-strength.rst).

Everything is integer arithmetic (the scores' fixed point keeps the mix exact in 64
bits), so the compiled rollout engine's ``"expert"`` policy (:mod:`fivecrowns.rollout`)
makes exactly the same moves.

Examples
--------
>>> from fivecrowns import StrongBot, play_game
>>> res = play_game([ExpertBot(), StrongBot()], seed=4, rounds=[2, 3])
>>> len(res.totals)
2
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from . import _compiled_bots, solver
from ._deprecation import RENAMED, UNSET, dropped_parameter
from .actions import Source
from .bots import (
    _allowed_order,
    _candidate_deadwoods,
    _deck_drawable,
    _discard_candidates,
    _hand_row,
    best_discard_choice,
    unseen_counts,
)
from .cards import Card
from .records import Observation

__all__ = ["ExpertBot"]


def _sums(table: npt.NDArray[np.int32],
          unseen: npt.NDArray[np.int64]) -> tuple[int, int, int]:
    """``(N, D, Z)`` of a draw table weighted by ``unseen``: the weighted deadwood, the
    total weight of the cards that can be drawn, and the weight of those that let the
    hand go out (entry 0)."""
    weights = np.where(table >= 0, unseen, 0)
    return (int(weights @ table.astype(np.int64)), int(weights.sum()),
            int(weights[table == 0].sum()))


#: A hand's one-draw sums by its bytes, within one decision (one ``unseen``).
_Memo = dict[bytes, tuple[npt.NDArray[np.int32], int, int, int]]


def _memo_sums(row: npt.NDArray[np.uint8], wild: int, decks: int,
               unseen: npt.NDArray[np.int64], memo: _Memo
               ) -> tuple[npt.NDArray[np.int32], int, int, int]:
    """``row``'s draw table and its sums, computed once per hand and decision."""
    key = row.tobytes()
    hit = memo.get(key)
    if hit is None:
        table = solver.draw_table(row, wild, decks=decks)
        hit = memo[key] = (table, *_sums(table, unseen))
    return hit


def _two_blind_draws(row: npt.NDArray[np.uint8], wild: int, decks: int,
                     unseen: npt.NDArray[np.int64], memo: _Memo | None = None
                     ) -> tuple[int, int, int]:
    """``(N, D, Z)`` of two blind draws from ``row`` (restored): sums over the ordered
    pairs of unseen cards drawn without replacement, the best discard made after the
    first; ``Z`` weighs the pairs after which the hand can go out."""
    memo = {} if memo is None else memo
    n_b = d_b = z_b = 0
    for c1 in np.flatnonzero(unseen > 0).tolist():
        row[c1] += 1
        _, d1 = best_discard_choice(row, wild, decks)
        row[d1] -= 1
        table, n, d, z = _memo_sums(row, wild, decks, unseen, memo)
        row[d1] += 1
        row[c1] -= 1
        # the second card comes from the unseen cards less the first one
        e = int(table[c1])
        if e >= 0:
            n -= e
            d -= 1
            if e == 0:
                z -= 1
        u = int(unseen[c1])
        n_b += u * n
        d_b += u * d
        z_b += u * z
    return n_b, d_b, z_b


def _floor_score(n: int, d: int, z: int, penalty: int, bonus: int) -> int:
    """``(N - bonus * Z) / D + penalty / 4`` in units of ``2**-20`` points, rounded down
    (``d > 0``)."""
    return (_SCALE * (4 * (n - bonus * z) + penalty * d)) // (4 * d)


#: The fixed point of the discard's scores: integers in units of 2**-20 points, so that a
#: sum of two scores stays exact in 64 bits in the compiled twin.
_SCALE = 1 << 20


RENAMED["ExpertBot(seed=...)"] = "ExpertBot()"  # deterministic: a seed meant nothing


class ExpertBot:
    """StrongBot re-tuned, with two-draw look-aheads on the draw and the discard.

    - **Draw**: takes the top discard if it is wild or lets the bot go out; otherwise
      compares *take it, then draw blind next turn* with *draw blind now and next turn*,
      each as the expected best-discard deadwood after the two draws
      (:func:`fivecrowns.draw_table` weighted by the cards the bot has not seen, the
      second draw from what the first leaves) less a bonus for the chance of being able
      to go out by then, and takes it if that is lower. On a final turn, a one-draw
      comparison as StrongBot's.
    - **Discard**: goes out whenever it can (the least deadwood on a final turn);
      otherwise scores every candidate by the expected deadwood after the next blind
      draw (the deadwood now does not count) less a bonus for the chance of going out
      on that draw, plus StrongBot's penalty for throwing a wild (none for feeding the
      next player); the five best are scored again over two blind draws, and the one
      with the least weighted mix wins: the one-draw score ``k - 1`` times, the
      two-draw score once, for ``k`` players (the more opponents, the likelier the
      round ends before a second draw).

    The module's documentation states the rule exactly. All arithmetic is on integers,
    so the compiled rollout engine's ``"expert"`` policy makes the same moves.

    Parameters
    ----------
    seed
        Deprecated (the bot is deterministic, a seed means nothing to it): giving one
        warns, and 1.0 removes the parameter.
    """

    name = "ExpertBot"

    #: The penalty for throwing a wild away, in quarter points (100 points).
    WILD_PENALTY = 400
    #: Points taken off an expected deadwood per unit of chance that the draws it
    #: expects let the bot go out (a 10% chance is worth 4 points).
    OUT_BONUS = 40
    #: How many of the best discards by the one-draw score are looked at over two draws.
    LOOKED_AHEAD = 5

    def __init__(self, seed: object = UNSET) -> None:
        dropped_parameter("ExpertBot", "seed", seed, "ExpertBot()")

    # -- the draw --

    def choose_draw(self, obs: Observation) -> Source:
        """The top discard if it is wild, lets the bot go out, or beats a blind draw over
        two draws (see the class)."""
        if type(self) is ExpertBot:  # the engine's policy: the same choice, in C
            source = _compiled_bots.compiled_draw(_compiled_bots.EXPERT, obs)
            if source is not None:
                return source
        top = obs.top_discard
        if top is None:
            return Source.DECK
        if not _deck_drawable(obs):
            return Source.DISCARD
        if top.is_wild(obs.wild):
            return Source.DISCARD
        wild, decks = obs.wild, obs.decks
        row = _hand_row(obs)
        row[top.index] += 1
        taken, t = best_discard_choice(row, wild, decks)
        if t == top.index and not obs.return_discard:
            # the best is to throw the card back, which the rules forbid: the next best
            order = _allowed_order(row, wild, t)
            if order:
                deads = _candidate_deadwoods(row, wild, decks, order)
                k = int(np.argmin(deads))
                taken, t = int(deads[k]), order[k]
        if taken == 0:
            return Source.DISCARD
        unseen = unseen_counts(obs)
        row[t] -= 1                    # A: the hand after taking the top and discarding
        if not (obs.final_turn or obs.sudden_death and obs.went_out is not None):
            n_a, d_a, z_a = _sums(solver.draw_table(row, wild, decks=decks), unseen)
            row[t] += 1
            row[top.index] -= 1        # the hand now
            n_b, d_b, z_b = _two_blind_draws(row, wild, decks, unseen)
            if d_a > 0 and d_b > 0:
                bonus = self.OUT_BONUS
                return Source.DISCARD if (n_a - bonus * z_a) * d_b < \
                    (n_b - bonus * z_b) * d_a else Source.DECK
        else:
            row[t] += 1
            row[top.index] -= 1
        # one draw left (or too few unseen cards for two): StrongBot's comparison
        n, d, _ = _sums(solver.draw_table(row, wild, decks=decks), unseen)
        if d <= 0:
            return Source.DISCARD if taken < solver.deadwood(row, wild, decks=decks) \
                else Source.DECK
        return Source.DISCARD if taken * d < n else Source.DECK

    # -- the discard --

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible; else the discard with the best look-ahead score (see the
        class)."""
        if type(self) is ExpertBot:
            choice = _compiled_bots.compiled_discard(_compiled_bots.EXPERT, obs)
            if choice is not None:
                return choice
        row, kept, order = _discard_candidates(obs)
        wild, decks = obs.wild, obs.decks
        dead = _candidate_deadwoods(row, wild, decks, order).tolist()
        allowed = [k for k, t in enumerate(order) if t != kept]
        best = min(allowed, key=lambda k: (dead[k], k))
        if dead[best] == 0:
            return Card.from_index(order[best]), True
        if obs.final_turn or obs.sudden_death and obs.went_out is not None:
            return Card.from_index(order[best]), False
        if len(allowed) == 1:
            return Card.from_index(order[best]), False
        unseen = unseen_counts(obs)
        pen = self._penalties(obs, order)
        # one memo for the decision: a candidate's own table serves its two-draw sums too
        memo: _Memo = {}
        one = {}
        for k in allowed:
            row[order[k]] -= 1
            _, n, d, z = _memo_sums(row, wild, decks, unseen, memo)
            row[order[k]] += 1
            if d <= 0:  # nothing left to draw: the deadwood now, as StrongBot's
                n, d, z = dead[k], 1, 0
            one[k] = _floor_score(n, d, z, pen[k], self.OUT_BONUS)
        looked = sorted(sorted(allowed, key=lambda k: (one[k], k))[:self.LOOKED_AHEAD])
        chosen, chosen_score = -1, 0
        for k in looked:
            row[order[k]] -= 1
            n, d, z = _two_blind_draws(row, wild, decks, unseen, memo)
            row[order[k]] += 1
            two = _floor_score(n, d, z, pen[k], self.OUT_BONUS) if d > 0 else one[k]
            score = (obs.n_players - 1) * one[k] + two
            if chosen < 0 or score < chosen_score:
                chosen, chosen_score = k, score
        return Card.from_index(order[chosen]), False

    def _penalties(self, obs: Observation, order: list[int]) -> list[int]:
        """The penalty of each candidate, in quarter points: a wild thrown away."""
        return [self.WILD_PENALTY if Card.from_index(t).is_wild(obs.wild) else 0
                for t in order]

    def __repr__(self) -> str:
        return "ExpertBot()"
