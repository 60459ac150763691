"""The look-ahead solitaire player, :class:`StrongSolitaire`, and the solver memo that the
strategies share.

They sit below :mod:`~fivecrowns.solitaire.search`, whose planner falls back on
:class:`StrongSolitaire`, and :mod:`~fivecrowns.solitaire.strategies`, which re-exports it
and names every strategy, the planner included: strategies imports search, never the
reverse.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..outs import SolverMemo, _joker_distance
from .game import SolitaireObservation

__all__ = ["StrongSolitaire"]


class _MemoStrategy:
    """A strategy's memo of solver answers, rebuilt when the number of decks changes and
    dropped when the strategy is pickled (see the strategies' ``__setstate__``)."""

    _memo: SolverMemo | None

    def _memo_for(self, decks: int) -> SolverMemo:
        if self._memo is None or self._memo.decks != decks:
            self._memo = SolverMemo(decks)
        return self._memo



class StrongSolitaire(_MemoStrategy):
    """A look-ahead player that counts its outs in the cards it has not seen.

    Every open pile gets an estimate of the draws it still needs:

    - a pile that is complete but open (only possible as dealt) needs one card, any card:
      ``ready``;
    - a pile that one card would complete needs about ``1 + (U + 1) / (k + 1)`` draws,
      where ``k`` of the ``U`` unseen cards complete it
      (:func:`~fivecrowns.outs.completing_types`, the zeros of
      :func:`~fivecrowns.draw_table`);
    - a pile ``j`` cards from complete (``j``: how many of its cards must be swapped for
      jokers, found greedily), or one card away with every out already seen, needs
      ``1 + step * j + dead_weight * deadwood``.

    Each candidate move (a pile, and one of its ``width`` discards that leave the least
    deadwood) is scored by how much it lowers its pile's estimate; a move that closes a
    pile gains the pile's whole estimate. A card that helps no pile is thrown away. The
    defaults were tuned on seeds 100000.. and 200000.., apart from the reported ones.

    Parameters
    ----------
    step : float
        Draws charged per missing card for a pile more than one card away.
    ready : float
        Estimate for a pile that is complete but not yet closed.
    width : int
        How many of a pile's lowest-deadwood discards are scored with look-ahead.
    dead_weight : float
        Draws charged per point of deadwood of a pile more than one card away.

    >>> StrongSolitaire().name
    'strong'
    """

    # Its public home: pickles, reprs of the class and the docs name the module users
    # import it from (as numpy's set_module does), not this private one.
    __module__ = "fivecrowns.solitaire.strategies"

    name = "strong"

    def __init__(self, step: float = 25.0, ready: float = 0.6, width: int = 3,
                 dead_weight: float = 0.2) -> None:
        self.step = float(step)
        self.ready = float(ready)
        self.width = int(width)
        self.dead_weight = float(dead_weight)
        self._memo: SolverMemo | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"step": self.step, "ready": self.ready, "width": self.width,
                "dead_weight": self.dead_weight}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._memo = None

    def __repr__(self) -> str:
        return (f"StrongSolitaire(step={self.step}, ready={self.ready}, width={self.width}, "
                f"dead_weight={self.dead_weight})")

    # The estimate of the draws a pile still needs.
    def _estimate(self, row: npt.NDArray[np.uint8], wild: int,
                  unseen: npt.NDArray[np.int64], total: int, memo: SolverMemo) -> float:
        dead = memo.deadwood(row, wild)
        if dead == 0:
            return self.ready
        away = _joker_distance(row, wild, memo)
        if away == 1:
            outs = int(unseen[memo.completing_types(row, wild)].sum())
            if outs > 0:
                return 1.0 + (total + 1) / (outs + 1)
            away = 2
        return 1.0 + self.step * away + self.dead_weight * dead

    def choose(self, observation: SolitaireObservation,
               rng: np.random.Generator) -> tuple[int, Card]:
        best, move = self._scored_move(observation, observation.open_piles)
        if best <= 0.0:
            # Nothing helps: prefer closing a complete pile, else throw the card away.
            top = observation.top
            assert top is not None
            return max(observation.open_piles), top
        return move

    def _scored_move(self, observation: SolitaireObservation,
                     sizes: tuple[int, ...]) -> tuple[float, tuple[int, Card]]:
        """The best move on one of the open piles ``sizes`` and its gain in estimated
        draws (0 or less: no move on them helps)."""
        top = observation.top
        assert top is not None
        decks = observation.rules.decks
        memo = self._memo_for(decks)
        unseen = observation.unseen
        total = int(unseen.sum())
        best: tuple[float, int, int] | None = None
        move: tuple[int, Card] | None = None
        for n in sizes:
            row = observation.pile_counts[n - 3]
            now = self._estimate(row, n, unseen, total, memo)
            plus = row.copy()
            plus[top.index] += 1
            types = [int(t) for t in np.flatnonzero(plus)]
            rest = np.repeat(plus[None, :], len(types), axis=0)
            rest[np.arange(len(types)), types] -= 1
            values = memo.deadwood_many(rest, n)
            ranked = sorted(range(len(types)), key=lambda i: (values[i], -types[i]))
            for i in ranked[:self.width]:
                if values[i] == 0:
                    gain = now  # closes the pile now
                elif types[i] == top.index:
                    gain = 0.0
                else:
                    gain = now - self._estimate(rest[i], n, unseen, total, memo)
                key = (gain, -values[i], n)
                if best is None or key > best:
                    best, move = key, (n, Card.from_index(types[i]))
        assert move is not None and best is not None
        return best[0], move
