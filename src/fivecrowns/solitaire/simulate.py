"""Playing solitaire with a strategy: one game, or many seeded games with a report.

:func:`play_solitaire` plays one game on the deal of a seed; :func:`simulate_solitaire`
plays ``games`` games, game ``i`` dealt from seed ``game_seeds(seed, games)[i]`` (as the
other simulators deal theirs, :mod:`fivecrowns.seeding`), on this process, a local
process pool or a Ray cluster (:func:`fivecrowns.runner.run_in_order`), and returns a
:class:`SolitaireReport` with 95% intervals. Results depend on the seeds alone, never on
the number of workers.

>>> report = simulate_solitaire("greedy", 3, seed=5)
>>> report.games, len(report.results), 0.0 <= report.win_rate <= 1.0
(3, 3, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import BotError
from ..rules import Rules
from ..runner import Backend, ProgressCallback, check_fits, check_jobs, run_in_order
from ..seeding import GameSeeds, SeedLike, int_seed, solitaire_streams
from ..stats import mean_interval, wilson_interval
from .game import Solitaire, SolitaireResult, _check_rules
from .strategies import SolitaireStrategy, make_strategy

__all__ = ["play_solitaire", "simulate_solitaire", "SolitaireReport"]


def _seed_text(seed: SeedLike) -> str:
    if isinstance(seed, np.random.Generator):
        return "a numpy Generator"
    if isinstance(seed, np.random.SeedSequence):
        return f"SeedSequence(entropy={seed.entropy})"
    return str(int(seed))


def _strategy_name(player: object) -> str:
    return str(getattr(player, "name", type(player).__name__))


def play_solitaire(strategy: str | SolitaireStrategy, *, seed: SeedLike,
                   rules: Rules | None = None) -> SolitaireResult:
    """Play one whole game with ``strategy`` on the deal of ``seed``.

    The seed is spawned into two streams (:func:`fivecrowns.seeding.solitaire_streams`):
    one deals the game, the other is the strategy's ``rng``, so the result depends on the
    seed alone.

    Parameters
    ----------
    strategy : str or SolitaireStrategy
        ``"random"``, ``"greedy"``, ``"strong"`` or an object with ``choose``.
    seed : int, numpy SeedSequence or numpy Generator
        Keyword-only.
    rules : Rules, optional

    Returns
    -------
    SolitaireResult

    Raises
    ------
    BotError
        The strategy raised, or chose an illegal move; the message names the strategy,
        the seed and the turn.

    Examples
    --------
    >>> play_solitaire("greedy", seed=11) == play_solitaire("greedy", seed=11)
    True
    """
    player = make_strategy(strategy)
    deal, rng = solitaire_streams(seed)
    game = Solitaire(seed=deal, rules=rules)
    name = _strategy_name(player)
    while not game.is_over:
        where = f"on turn {game.turn + 1} of the game seeded {_seed_text(seed)}"
        try:
            move: Any = player.choose(game.observation(), rng)
        except Exception as exc:
            raise BotError(f"strategy {name!r} raised {type(exc).__name__} {where}: {exc}") \
                from exc
        try:
            if not isinstance(move, tuple) or len(move) != 2:
                raise TypeError(f"choose must return (pile, discard), got {move!r}")
            game.play(*move)
        except (ValueError, TypeError) as exc:
            raise BotError(f"strategy {name!r} made an illegal move {where}: {exc}") from exc
    return game.result


@dataclass(frozen=True)
class SolitaireReport:
    """Summary of many games of solitaire.

    Attributes
    ----------
    strategy : str
        The strategy's name.
    games, wins : int
    win_rate : float
    win_ci : tuple of float
        95% Wilson interval of the win rate.
    mean_piles_closed : float
    piles_closed_ci : tuple of float
        95% normal-approximation interval of the mean.
    mean_turns : float
    turns_ci : tuple of float
        95% normal-approximation interval of the mean.
    seed : int
        The run's seed: game ``i`` was dealt from ``game_seeds(seed, games)[i]``.
    results : tuple of SolitaireResult
        Every game's result, in game order.
    """

    strategy: str
    games: int
    wins: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_piles_closed: float
    piles_closed_ci: tuple[float, float]
    mean_turns: float
    turns_ci: tuple[float, float]
    seed: int
    results: tuple[SolitaireResult, ...] = field(repr=False)

    def describe(self) -> str:
        """A short human-readable report."""
        lo, hi = self.win_ci
        return "\n".join([
            f"strategy      {self.strategy}",
            f"games         {self.games} (seed {self.seed})",
            f"wins          {self.wins}",
            f"win rate      {100 * self.win_rate:.2f}%  (95% CI {100 * lo:.2f}% .. "
            f"{100 * hi:.2f}%)",
            f"piles closed  {self.mean_piles_closed:.3f} mean  (95% CI "
            f"{self.piles_closed_ci[0]:.3f} .. {self.piles_closed_ci[1]:.3f})",
            f"turns         {self.mean_turns:.2f} mean  (95% CI {self.turns_ci[0]:.2f} .. "
            f"{self.turns_ci[1]:.2f})",
        ])


#: Bytes a game keeps in a report: its SolitaireResult (about 100 with its tuple slot),
#: the list the runner collects, and the lists of piles and turns of the intervals.
_REPORT_BYTES = 160


def _play_seed(player: SolitaireStrategy, rules: Rules, seed: int) -> SolitaireResult:
    return play_solitaire(player, seed=seed, rules=rules)


def simulate_solitaire(strategy: str | SolitaireStrategy, games: int, *, seed: SeedLike,
                       jobs: int = 1, progress: ProgressCallback | None = None,
                       rules: Rules | None = None, backend: Backend = "local",
                       ray_address: str | None = None) -> SolitaireReport:
    """Play ``games`` games with ``strategy``; game ``i`` is dealt from seed
    ``game_seeds(seed, games)[i]`` (:func:`fivecrowns.seeding.game_seeds`).

    Before 0.4 game ``i`` was dealt from ``seed + i``; the other simulators already
    derived their games' seeds with ``game_seeds``, and now every simulator does, so the
    same seed gives other solitaire deals than 0.3 did.

    Parameters
    ----------
    strategy : str or SolitaireStrategy
        ``"random"``, ``"greedy"``, ``"strong"`` or an object with ``choose``; it must be
        picklable when ``jobs > 1`` or on Ray.
    games : int
        At least 1.
    seed : int, numpy SeedSequence or numpy Generator
        Keyword-only; the run's seed (a SeedSequence or Generator gives an int,
        :func:`~fivecrowns.seeding.int_seed`).
    jobs : int
        Worker processes. The results do not depend on it.
    progress : callable, optional
        Called with the number of games just finished (the command line shows a bar).
    rules : Rules, optional
    backend : ``"local"`` or ``"ray"``
        Where the games run (see :func:`fivecrowns.runner.run_in_order`).
    ray_address : str, optional
        With ``backend="ray"``: the cluster to join.

    Returns
    -------
    SolitaireReport

    Raises
    ------
    TypeError
        An argument of the wrong type.
    ValueError
        ``games`` or ``jobs`` below 1, a negative ``seed``, an unknown strategy name or
        backend, or :class:`~fivecrowns.runner.TooManyGames`: more games than this
        machine's memory holds the report of (the seeds are made as the games are played).
    BotError
        The strategy raised or chose an illegal move.

    Examples
    --------
    >>> ticks = []
    >>> report = simulate_solitaire("greedy", 4, seed=10, progress=ticks.append)
    >>> from fivecrowns.seeding import game_seeds
    >>> sum(ticks), report.results[2] == play_solitaire("greedy", seed=game_seeds(10, 4)[2])
    (4, True)
    """
    player = make_strategy(strategy)
    games = check_jobs(games, "games")
    seed = int_seed(seed)
    jobs = check_jobs(jobs)
    rules = _check_rules(rules)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable taking the number of games just "
                        f"finished, or None, got {type(progress).__name__}")
    check_fits(games, _REPORT_BYTES)
    work: Callable[[int], SolitaireResult] = functools.partial(_play_seed, player, rules)
    # each game's seed made as it is played: memory is the report's alone
    results = run_in_order(work, GameSeeds(seed, games), jobs=jobs, progress=progress,
                           backend=backend, ray_address=ray_address)
    wins = sum(r.won for r in results)
    piles_mean, piles_ci = mean_interval([r.piles_closed for r in results], floor=0.0)
    turns_mean, turns_ci = mean_interval([r.turns for r in results], floor=0.0)
    return SolitaireReport(_strategy_name(player), games, wins, wins / games,
                           wilson_interval(wins, games), piles_mean, piles_ci, turns_mean,
                           turns_ci, seed, tuple(results))
