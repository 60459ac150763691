"""ExpertBot: StrongBot's policy with a look-ahead of two draws on the draw, every discard
looked ahead, and integer arithmetic throughout.

The policy, precisely (``u`` is the player's ``unseen_counts``; a hand's *table* is
:func:`fivecrowns.draw_table` of it, entry ``c`` the best-discard deadwood after drawing
``c``, -1 where no copy of ``c`` is left; the *weighted sums* of a table are
``N = sum(w[c] * table[c])`` and ``D = sum(w[c])`` over the ``c`` with ``table[c] >= 0``,
for card weights ``w``, so ``N / D`` is the expected best-discard deadwood after one blind
draw):

**Draw.** The top discard is taken at once when it is a wild, when the deck cannot be
drawn, or when taking it lets the bot go out (its best allowed discard then leaves no
deadwood). Otherwise, with ``A`` the hand after taking the top discard and making its
best allowed discard (:func:`fivecrowns.best_discard`'s card, or the next best when the
rules keep the card just taken), the bot compares two plans of two draws each:

- *take the top discard now, then draw blind next turn*: ``N_A / D_A``, the weighted sums
  of ``A``'s table with weights ``u``;
- *draw blind now, then again next turn*: for each first card ``c1`` (weight ``u[c1]``),
  ``B(c1)`` is the hand plus ``c1`` less its best discard, and the second card is drawn
  from what is left, ``u`` less one ``c1``: ``N_B = sum u[c1] * N(B(c1))`` and
  ``D_B = sum u[c1] * D(B(c1))``, the expectation over ordered pairs of cards drawn
  without replacement.

It takes the top discard when ``N_A / D_A < N_B / D_B``, compared exactly as
``N_A * D_B < N_B * D_A``. On a final turn (someone went out, or a tie-break round's
first discard ends it) there is no second draw, and it compares the deadwood ``A`` leaves
with the one-draw expectation of the hand now, as StrongBot does; so it does when fewer
than two unseen cards are left.

**Discard.** It goes out whenever it can, and keeps the least deadwood on a final turn.
Otherwise every allowed candidate of :func:`fivecrowns.outs.discard_order` (each natural
type held and one wild) is looked ahead one draw: its score is the expected best-discard
deadwood after a blind draw from the hand it leaves, ``N / D`` with weights ``u``, less
``OUT_BONUS`` (40) points times the chance ``Z / D`` that the draw lets the bot go out,
plus 100 points for throwing a wild away. Unlike StrongBot it gives the deadwood left now
no weight (only the hand after the next draw counts) and has no penalty for feeding the
next player (with three StrongBots the penalty cost points, heads-up it made no
difference: docs/notes/bot-strength.rst). Scores are compared as exact fractions,
``(4 * (N - OUT_BONUS * Z) + 4 * penalty * D) / (4 * D)`` (the wild penalty is kept in
quarter points, 400), the first candidate in ``discard_order`` winning ties.

Everything is integer arithmetic, so the compiled rollout engine's ``"expert"`` policy
(:mod:`fivecrowns.rollout`) makes exactly the same moves.

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

from . import solver
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
from .seeding import SeedLike

__all__ = ["ExpertBot"]


def _sums(table: npt.NDArray[np.int32],
          unseen: npt.NDArray[np.int64]) -> tuple[int, int, int]:
    """``(N, D, Z)`` of a draw table weighted by ``unseen``: the weighted deadwood, the
    total weight of the cards that can be drawn, and the weight of those that let the
    hand go out (entry 0)."""
    weights = np.where(table >= 0, unseen, 0)
    return (int(weights @ table.astype(np.int64)), int(weights.sum()),
            int(weights[table == 0].sum()))


class ExpertBot:
    """StrongBot re-tuned, with a two-draw look-ahead on the draw (the strongest policy
    of the 0.2 research, docs/notes/bot-strength.rst).

    - **Draw**: takes the top discard if it is wild or lets the bot go out; otherwise
      compares *take it, then draw blind next turn* with *draw blind now and next turn*,
      each as the expected best-discard deadwood after the two draws
      (:func:`fivecrowns.draw_table` weighted by the cards the bot has not seen, the
      second draw from what the first leaves), and takes it if that is lower. On a
      final turn, a one-draw comparison as StrongBot's.
    - **Discard**: goes out whenever it can (the least deadwood on a final turn);
      otherwise the discard whose hand has the lowest expected deadwood after the next
      blind draw (every candidate looked at; the deadwood now does not count), less a
      bonus for the chance of going out on that draw, plus StrongBot's penalty for
      throwing a wild (none for feeding the next player).

    The module's documentation states the rule exactly. All arithmetic is on integers,
    so the compiled rollout engine's ``"expert"`` policy makes the same moves.

    Parameters
    ----------
    seed : int, optional
        Ignored (the bot is deterministic); accepted so the class is a factory.
    """

    name = "ExpertBot"

    #: The penalty for throwing a wild away, in quarter points (100 points).
    WILD_PENALTY = 400
    #: Points taken off a discard's expected deadwood per unit of chance that the next
    #: draw lets the bot go out (a 10% chance is worth 4 points).
    OUT_BONUS = 40

    def __init__(self, seed: SeedLike | None = None) -> None:
        pass

    # -- the draw --

    def choose_draw(self, obs: Observation) -> Source:
        """The top discard if it is wild, lets the bot go out, or beats a blind draw over
        two draws (see the class)."""
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
            n_a, d_a, _ = _sums(solver.draw_table(row, wild, decks=decks), unseen)
            row[t] += 1
            row[top.index] -= 1        # the hand now
            n_b, d_b = self._two_blind_draws(row, wild, decks, unseen)
            if d_a > 0 and d_b > 0:
                return Source.DISCARD if n_a * d_b < n_b * d_a else Source.DECK
        else:
            row[t] += 1
            row[top.index] -= 1
        # one draw left (or too few unseen cards for two): StrongBot's comparison
        n, d, _ = _sums(solver.draw_table(row, wild, decks=decks), unseen)
        if d <= 0:
            return Source.DISCARD if taken < solver.deadwood(row, wild, decks=decks) \
                else Source.DECK
        return Source.DISCARD if taken * d < n else Source.DECK

    @staticmethod
    def _two_blind_draws(row: npt.NDArray[np.uint8], wild: int, decks: int,
                         unseen: npt.NDArray[np.int64]) -> tuple[int, int]:
        """``(N_B, D_B)``: the weighted sums of two blind draws from ``row`` (the hand
        now), the best discard made after the first."""
        n_b = d_b = 0
        # a hand's sums with weights ``unseen``, by the hand's bytes: a first card that
        # is thrown away again leaves the same hand for every such card
        seen: dict[bytes, tuple[npt.NDArray[np.int32], int, int]] = {}
        for c1 in np.flatnonzero(unseen > 0).tolist():
            row[c1] += 1
            _, d1 = best_discard_choice(row, wild, decks)
            row[d1] -= 1
            key = row.tobytes()
            hit = seen.get(key)
            if hit is None:
                table = solver.draw_table(row, wild, decks=decks)
                n, d, _ = _sums(table, unseen)
                hit = seen[key] = (table, n, d)
            row[d1] += 1
            row[c1] -= 1
            table, n, d = hit
            u = int(unseen[c1])
            # the second card comes from the unseen cards less the first one
            e = int(table[c1])
            if e >= 0:
                n -= e
                d -= 1
            n_b += u * n
            d_b += u * d
        return n_b, d_b

    # -- the discard --

    def choose_discard(self, obs: Observation) -> tuple[Card, bool]:
        """Go out if possible; else the discard with the best one-draw look-ahead score
        (see the class)."""
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
        # score k = (4 * (N - OUT_BONUS * Z) + pen * D) / (4 * D), compared exactly
        chosen, num, den = -1, 0, 1
        for k in allowed:
            row[order[k]] -= 1
            n, d, z = _sums(solver.draw_table(row, wild, decks=decks), unseen)
            row[order[k]] += 1
            if d <= 0:  # nothing left to draw: the deadwood now, as StrongBot's
                n, d, z = dead[k], 1, 0
            k_num = 4 * (n - self.OUT_BONUS * z) + pen[k] * d
            k_den = 4 * d
            if chosen < 0 or k_num * den < num * k_den:
                chosen, num, den = k, k_num, k_den
        return Card.from_index(order[chosen]), False

    def _penalties(self, obs: Observation, order: list[int]) -> list[int]:
        """The penalty of each candidate, in quarter points: a wild thrown away."""
        return [self.WILD_PENALTY if Card.from_index(t).is_wild(obs.wild) else 0
                for t in order]

    def __repr__(self) -> str:
        return "ExpertBot()"
