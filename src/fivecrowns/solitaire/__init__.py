"""Five Crowns solitaire (docs/rules.rst, Solitaire): the game, its strategies and a simulator.

- :mod:`fivecrowns.solitaire.game`: :class:`Solitaire`, its records :class:`PlayRecord` and
  :class:`SolitaireResult`, and :class:`SolitaireObservation`, what a player sees.
- :mod:`fivecrowns.solitaire.strategies`: the :class:`SolitaireStrategy` protocol,
  :class:`RandomSolitaire`, :class:`GreedySolitaire`, :class:`StrongSolitaire`,
  :data:`STRATEGIES` and :func:`make_strategy`.
- :mod:`fivecrowns.solitaire.simulate`: :func:`play_solitaire`, :func:`simulate_solitaire`
  and its :class:`SolitaireReport`.

Every name is importable from here.

Examples
--------
>>> from fivecrowns.solitaire import Solitaire, GreedySolitaire, play_solitaire
>>> game = Solitaire(seed=7)
>>> len(game.piles), game.draw_remaining
(11, 28)
>>> result = play_solitaire(GreedySolitaire(), seed=7)
>>> result.turns <= 28 and 0 <= result.piles_closed <= 11
True
"""

from __future__ import annotations

from ..outs import completing_types as completing_types
from ..seeding import SeedLike as SeedLike
from ..stats import wilson_interval as wilson_interval
from .game import PILE_SIZES, PlayRecord, Solitaire, SolitaireObservation, SolitaireResult
from .search import PlannerSolitaire
from .simulate import SolitaireReport, play_solitaire, simulate_solitaire
from .strategies import (
    STRATEGIES,
    GreedySolitaire,
    RandomSolitaire,
    SolitaireStrategy,
    StrongSolitaire,
    make_strategy,
)

__all__ = [
    "PILE_SIZES",
    "Solitaire",
    "PlayRecord",
    "SolitaireResult",
    "SolitaireObservation",
    "SolitaireStrategy",
    "RandomSolitaire",
    "GreedySolitaire",
    "StrongSolitaire",
    "STRATEGIES",
    "PlannerSolitaire",
    "make_strategy",
    "play_solitaire",
    "simulate_solitaire",
    "SolitaireReport",
]
