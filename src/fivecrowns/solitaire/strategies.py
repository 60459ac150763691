"""Solitaire strategies: the :class:`SolitaireStrategy` protocol and three players.

- :class:`RandomSolitaire` plays a uniformly random legal move: the baseline.
- :class:`GreedySolitaire` puts the card where a pile's best-discard deadwood drops most.
- :class:`StrongSolitaire` looks one card ahead and counts each pile's outs among the
  cards it has not seen.

:func:`make_strategy` turns a name from :data:`STRATEGIES` into a strategy object;
``"planner"``, the strongest, is :class:`~fivecrowns.solitaire.search.PlannerSolitaire`
(it builds on :class:`StrongSolitaire`).

>>> from fivecrowns.solitaire import Solitaire
>>> game = Solitaire(seed=7)
>>> pile, card = make_strategy("greedy").choose(game.observation(), np.random.default_rng(0))
>>> game.can_play(pile, card)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..cards import Card, card_value
from ..outs import SolverMemo
from ..solver import discard_deadwood_many
from ._strong import StrongSolitaire, _MemoStrategy
from .game import SolitaireObservation
from .search import PlannerSolitaire

__all__ = [
    "SolitaireStrategy",
    "RandomSolitaire",
    "GreedySolitaire",
    "StrongSolitaire",
    "STRATEGIES",
    "make_strategy",
]


@runtime_checkable
class SolitaireStrategy(Protocol):
    """A solitaire player: picks ``(pile, discard)`` from what it sees.

    ``rng`` is a generator of the game's own stream, for strategies that randomise;
    a strategy must not keep state that changes its answers from one game to the next.
    """

    name: str

    def choose(self, observation: SolitaireObservation,
               rng: np.random.Generator) -> tuple[int, Card]:
        """The move for this turn: a pile size and the card to discard from it."""
        ...




class RandomSolitaire:
    """Plays a uniformly random legal move: the baseline.

    >>> from fivecrowns.solitaire import play_solitaire
    >>> play_solitaire(RandomSolitaire(), seed=3).won
    False
    """

    name = "random"

    def choose(self, observation: SolitaireObservation,
               rng: np.random.Generator) -> tuple[int, Card]:
        top = observation.top
        assert top is not None
        piles = observation.open_piles
        size = piles[int(rng.integers(len(piles)))]
        row = observation.pile_counts[size - 3].copy()
        row[top.index] += 1
        cards = [t for t in np.flatnonzero(row) for _ in range(int(row[t]))]
        return size, Card.from_index(int(cards[int(rng.integers(len(cards)))]))


class GreedySolitaire(_MemoStrategy):
    """Puts the card where the pile's best-discard deadwood drops most.

    In order: close a pile that needed this card; else lower some pile's deadwood the most;
    else close a pile that was already complete (any card closes it); else throw the card
    away on the largest open pile. The discard is the pile's best discard.

    >>> GreedySolitaire().name
    'greedy'
    """

    name = "greedy"

    def __init__(self) -> None:
        self._memo: SolverMemo | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._memo = None

    def choose(self, observation: SolitaireObservation,
               rng: np.random.Generator) -> tuple[int, Card]:
        top = observation.top
        assert top is not None
        decks = observation.rules.decks
        memo = self._memo_for(decks)
        sizes = observation.open_piles
        rows = np.array([observation.pile_counts[n - 3] for n in sizes], dtype=np.uint8)
        before = [memo.deadwood(rows[i], n) for i, n in enumerate(sizes)]
        rows[:, top.index] += 1
        after = discard_deadwood_many(rows, np.array(sizes, dtype=np.int8), decks=decks, threads=1)
        best_key: tuple[int, int, int] | None = None
        best_i = 0
        for i, n in enumerate(sizes):
            gain = before[i] - int(after[i])
            if after[i] == 0 and before[i] > 0:
                key = (3, before[i], n)
            elif gain > 0:
                key = (2, gain, n)
            elif after[i] == 0:
                key = (1, 0, n)
            else:
                key = (0, 0, n)
            if best_key is None or key > best_key:
                best_key, best_i = key, i
        assert best_key is not None
        size = sizes[best_i]
        if best_key[0] == 0:
            return size, top
        return size, _best_discard_card(rows[best_i], size, memo)


def _best_discard_card(row: npt.NDArray[np.uint8], wild: int, memo: SolverMemo) -> Card:
    """The discard leaving the least deadwood; ties go to the highest-value card."""
    types = [int(t) for t in np.flatnonzero(row)]
    rest = np.repeat(row[None, :], len(types), axis=0)
    rest[np.arange(len(types)), types] -= 1
    values = memo.deadwood_many(rest, wild)
    best = min(values)
    choices = [t for t, v in zip(types, values) if v == best]
    return Card.from_index(max(choices, key=lambda t: (card_value(Card.from_index(t), wild), t)))


#: The strategies known by name (``solitaire --strategy``).
STRATEGIES: dict[str, Callable[[], SolitaireStrategy]] = {
    "random": RandomSolitaire,
    "greedy": GreedySolitaire,
    "strong": StrongSolitaire,
    "planner": PlannerSolitaire,
}


def make_strategy(strategy: str | SolitaireStrategy) -> SolitaireStrategy:
    """A strategy object from its name (``random``, ``greedy``, ``strong``, ``planner``: see
    :class:`~fivecrowns.solitaire.search.PlannerSolitaire`), or as given.

    Raises ``ValueError`` for an unknown name and ``TypeError`` for an object without a
    ``choose`` method.

    >>> make_strategy(" Strong")
    StrongSolitaire(step=25.0, ready=0.6, width=3, dead_weight=0.2)
    """
    if isinstance(strategy, str):
        try:
            return STRATEGIES[strategy.strip().lower()]()
        except KeyError:
            raise ValueError(f"unknown solitaire strategy {strategy!r}: expected one of "
                             f"{', '.join(STRATEGIES)}") from None
    if not callable(getattr(strategy, "choose", None)):
        raise TypeError(f"a strategy must be a name or have a choose(observation, rng) method, "
                        f"got {type(strategy).__name__}")
    return strategy
