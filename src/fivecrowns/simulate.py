"""Many seeded games between entrants (:func:`simulate_games`), and their report.

Seats rotate from game to game; each game is dealt from its own seed
(:func:`fivecrowns.seeding.game_seeds`) and each entrant's player is made afresh for each
game with its own seed (:func:`fivecrowns.seeding.bot_seeds`), so a simulation gives the
same numbers whatever the number of workers or the backend. :func:`duplicate_match` plays
every deal twice to measure one bot against a reference on the same cards (a duplicate
match: :mod:`fivecrowns.duplicate`).

>>> from fivecrowns.bots import GreedyBot, RandomBot
>>> from fivecrowns.rules import Rules
>>> report = simulate_games([GreedyBot, RandomBot], 4, seed=0, rounds=[1],
...                         rules=Rules(max_turns=40))
>>> [e.name for e in report.entrants], report.scores.shape
(['GreedyBot', 'RandomBot'], (4, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from ._checks import check_int
from ._deprecation import RENAMED, warn_deprecated
from .duplicate import DuplicateReport
from .players import PlayerFactory, entrant_factory, play_game
from .rules import Rules
from .runner import Backend, ProgressCallback, run_in_order
from .seeding import SeedLike, bot_seeds, game_seeds, int_seed

if TYPE_CHECKING:
    from typing_extensions import deprecated as _deprecated
else:
    def _deprecated(message: str) -> Callable[[Any], Any]:
        """typing_extensions.deprecated for type checkers only (the call warns itself)."""
        return lambda function: function
from .stats import mean_interval, wilson_interval

__all__ = ["simulate_games", "duplicate_match", "GamesReport", "EntrantReport"]


@dataclass(frozen=True)
class EntrantReport:
    """One entrant's numbers, with 95% intervals (Wilson for the win rate, normal
    approximation for the mean score, clipped at 0).

    Attributes
    ----------
    name : str
    games : int
    win_rate : float
        Mean share of victory: 1 for an outright win, 1/k when k players share it.
    win_ci : tuple of float
    mean_score : float
        Mean game total (lower is better).
    score_ci : tuple of float
    """

    name: str
    games: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_score: float
    score_ci: tuple[float, float]


@dataclass(frozen=True, eq=False)
class GamesReport:
    """The outcome of :func:`simulate_games`.

    Attributes
    ----------
    entrants : tuple of EntrantReport
        One per entrant, in the order given.
    seeds : tuple of int
        The game seeds; game g seated entrant ``(s + g) % k`` at seat ``s``.
    scores : ndarray of shape (games, k)
        Each entrant's total in each game.
    wins : ndarray of shape (games, k)
        Each entrant's share of victory in each game.
    hit_max_turns : int
        Rounds, over all games, stopped by ``Rules.max_turns``.
    """

    entrants: tuple[EntrantReport, ...]
    seeds: tuple[int, ...]
    scores: npt.NDArray[np.int64]
    wins: npt.NDArray[np.float64]
    hit_max_turns: int

    def table(self) -> str:
        """A small text table of the results."""
        lines = [f"{'entrant':<16} {'games':>6} {'win rate (95% CI)':>24} "
                 f"{'mean score (95% CI)':>28}"]
        for e in self.entrants:
            lines.append(f"{e.name:<16} {e.games:>6} "
                         f"{e.win_rate:>8.3f} ({e.win_ci[0]:.3f}..{e.win_ci[1]:.3f}) "
                         f"{e.mean_score:>10.1f} ({e.score_ci[0]:.1f}..{e.score_ci[1]:.1f})")
        if self.hit_max_turns:
            lines.append(f"{self.hit_max_turns} round(s) stopped by max_turns")
        return "\n".join(lines)


_Outcome = tuple[list[int], list[float], int, "dict[str, Any] | None"]


def _play_seated(args: tuple[Sequence[PlayerFactory], int, int, int, Rules | None,
                             Sequence[int] | None, Sequence[str] | None]) -> _Outcome:
    factories, g, game_seed, seed, rules, rounds, record_names = args
    k = len(factories)
    # seat s holds entrant (s + g) % k
    entrant_at = [(s + g) % k for s in range(k)]
    own = bot_seeds(seed, g, k)
    players = [factories[e](own[e]) for e in entrant_at]
    res = play_game(players, seed=game_seed, rules=rules, rounds=rounds)
    scores = [0] * k
    wins = [0.0] * k
    for s, e in enumerate(entrant_at):
        scores[e] = res.totals[s]
        if s in res.winners:
            wins[e] = 1.0 / len(res.winners)
    record = None
    if record_names is not None:
        record = res.record.to_dict()
        record["game"] = g
        record["players"] = [record_names[e] for e in entrant_at]
    return scores, wins, res.hit_max_turns, record


def _name(entrant: object) -> str:
    inner = getattr(entrant, "func", None)  # a functools.partial: its function's name
    return str(getattr(entrant, "name", None) or getattr(entrant, "__name__", None)
               or (_name(inner) if callable(inner) else None) or repr(entrant))


_OLD_DUPLICATE = "simulate_games(..., duplicate=reference)"
RENAMED[_OLD_DUPLICATE] = "duplicate_match(bot, reference, field, games, seed=...)"


@overload
def simulate_games(entrants: Sequence[Any], games: int, *, seed: SeedLike, jobs: int = 1,
                   progress: ProgressCallback | None = None, rules: Rules | None = None,
                   rounds: Sequence[int] | None = None, names: Sequence[str] | None = None,
                   on_record: Callable[[dict[str, Any]], Any] | None = None,
                   backend: Backend = "local", ray_address: str | None = None,
                   duplicate: None = None) -> GamesReport: ...


@overload
@_deprecated("simulate_games(..., duplicate=reference) is deprecated: use "
            "duplicate_match(bot, reference, field, games, seed=...)")
def simulate_games(entrants: Sequence[Any], games: int, *, seed: SeedLike, jobs: int = 1,
                   progress: ProgressCallback | None = None, rules: Rules | None = None,
                   rounds: Sequence[int] | None = None, names: Sequence[str] | None = None,
                   on_record: Callable[[dict[str, Any]], Any] | None = None,
                   backend: Backend = "local", ray_address: str | None = None,
                   duplicate: Any) -> DuplicateReport: ...


def simulate_games(entrants: Sequence[Any], games: int, *, seed: SeedLike, jobs: int = 1,
                   progress: ProgressCallback | None = None, rules: Rules | None = None,
                   rounds: Sequence[int] | None = None, names: Sequence[str] | None = None,
                   on_record: Callable[[dict[str, Any]], Any] | None = None,
                   backend: Backend = "local", ray_address: str | None = None,
                   duplicate: Any = None) -> GamesReport | DuplicateReport:
    """Play ``games`` seeded games between the entrants and summarise them.

    Each entrant takes one seat; seats rotate from game to game so that every entrant
    sits everywhere equally often. The whole simulation is reproducible from ``seed`` and
    does not depend on ``jobs`` or ``backend``.

    Parameters
    ----------
    entrants : sequence
        One per seat (2 to 7, or 14 with ``Rules(decks=4)``). Each is a Player class or
        any callable returning a Player, called once per game with ``seed=<int>`` when it
        accepts a ``seed`` parameter, else with no argument (see
        :func:`~fivecrowns.players.entrant_factory`). With ``jobs > 1`` or on Ray they
        must pickle (classes and module-level functions do).
    games : int
    seed : int, numpy SeedSequence or numpy Generator
        Keyword-only. Game ``g`` is dealt from ``game_seeds(seed, games)[g]``
        (:mod:`fivecrowns.seeding`; a SeedSequence or Generator first gives an int,
        :func:`~fivecrowns.seeding.int_seed`).
    jobs : int
        Worker processes.
    progress : callable, optional
        Called with the number of games just finished (e.g. ``tqdm(total=games).update``).
    rules : Rules, optional
    rounds : sequence of int, optional
        Round numbers of every game (default all 11).
    names : sequence of str, optional
        Entrant names (default: each entrant's ``name`` or ``__name__``).
    on_record : callable, optional
        Called, in game order, with each game's record as a JSON-ready dict
        (:meth:`GameRecord.to_dict`, plus ``game``, its number, and ``players``, the
        entrant's name in each seat); it replays with :meth:`Game.replay`.
    backend : ``"local"`` or ``"ray"``
    ray_address : str, optional
        The Ray cluster to join with ``backend="ray"``.
    duplicate : entrant, optional
        Deprecated (removed in 1.0): ``simulate_games([bot, *field], games,
        duplicate=reference, ...)`` is ``duplicate_match(bot, reference, field, games,
        ...)`` and returns its :class:`~fivecrowns.duplicate.DuplicateReport`.

    Returns
    -------
    GamesReport

    Raises
    ------
    TypeError
        An entrant that is not a Player class or a callable as described.
    BotError
        A player raised or chose an illegal move (the message names the game's seed).

    Examples
    --------
    >>> from fivecrowns.bots import GreedyBot, RandomBot
    >>> report = simulate_games([GreedyBot, RandomBot, GreedyBot], 3, seed=1, rounds=[2])
    >>> [e.name for e in report.entrants], report.scores.shape
    (['GreedyBot', 'RandomBot', 'GreedyBot'], (3, 3))
    """
    if duplicate is not None:
        warn_deprecated(_OLD_DUPLICATE, RENAMED[_OLD_DUPLICATE])
        entrants = list(entrants)
        if not entrants:
            raise ValueError("a duplicate match needs the bot and a field of 1 or more")
        return duplicate_match(
            entrants[0], duplicate, entrants[1:], games, seed=seed, jobs=jobs,
            progress=progress, rules=rules, rounds=rounds, on_record=on_record,
            names=None if names is None else [names[0], _name(duplicate), *names[1:]],
            backend=backend, ray_address=ray_address)
    return _simulate(entrants, games, seed=seed, jobs=jobs, progress=progress, rules=rules,
                     rounds=rounds, names=names, on_record=on_record, backend=backend,
                     ray_address=ray_address)


def _checked(entrants: Sequence[Any], games: object, rules: Rules | None,
             names: Sequence[str] | None) -> tuple[list[PlayerFactory], int, list[str]]:
    """The entrants' factories, the number of games and the names, checked."""
    factories = [entrant_factory(e) for e in entrants]
    limit = (rules or Rules()).max_players
    if not 2 <= len(factories) <= limit:
        raise ValueError(f"a simulation needs 2 to {limit} entrants, got {len(factories)}")
    games = check_int(games, "games", 1)
    if names is None:
        names = [_name(e) for e in entrants]
    elif len(names) != len(factories):
        raise ValueError(f"names has {len(names)} entries for {len(factories)} entrants")
    return factories, games, [str(n) for n in names]


def _simulate(entrants: Sequence[Any], games: int, *, seed: SeedLike, jobs: int,
              progress: ProgressCallback | None, rules: Rules | None,
              rounds: Sequence[int] | None, names: Sequence[str] | None,
              on_record: Callable[[dict[str, Any]], Any] | None, backend: Backend,
              ray_address: str | None) -> GamesReport:
    factories, games, names = _checked(entrants, games, rules, names)
    seed = int_seed(seed)
    seeds = game_seeds(seed, games)
    record_names = names if on_record is not None else None
    work = _Items(seeds, lambda g: (factories, g, seeds[g], seed, rules, rounds,
                                    record_names))
    # Each outcome goes into the arrays as it comes, in order: no list of every game's
    # outcome (about 500 bytes a game) is kept.
    scores = np.zeros((games, len(factories)), dtype=np.int64)
    wins = np.zeros((games, len(factories)), dtype=np.float64)
    done = [0, 0]  # games, rounds stopped by max_turns

    def emit(outcome: _Outcome) -> None:
        g = done[0]
        scores[g], wins[g] = outcome[0], outcome[1]
        done[0] += 1
        done[1] += outcome[2]
        if on_record is not None:
            assert outcome[3] is not None
            on_record(outcome[3])

    run_in_order(_play_seated, work, jobs=jobs, progress=progress, backend=backend,
                 ray_address=ray_address, on_result=emit, keep=False)
    reports = []
    for e, name in enumerate(names):
        rate = float(wins[:, e].mean())
        rate_ci = wilson_interval(float(wins[:, e].sum()), games)
        mean, mean_ci = mean_interval(scores[:, e].astype(np.float64), floor=0.0)
        reports.append(EntrantReport(str(name), games, rate, rate_ci, mean, mean_ci))
    return GamesReport(tuple(reports), tuple(seeds), scores, wins, done[1])


class _Items(Sequence[Any]):
    """The work items of a simulation, made when the runner reads them (one chunk at a
    time), not all up front."""

    def __init__(self, seeds: Sequence[int], item: Callable[[int], Any]) -> None:
        self.seeds, self.item = seeds, item

    def __len__(self) -> int:
        return len(self.seeds)

    def __getitem__(self, g: Any) -> Any:
        if isinstance(g, slice):
            return [self.item(i) for i in range(*g.indices(len(self)))]
        if not -len(self) <= g < len(self):
            raise IndexError(g)
        return self.item(g % len(self))


# ---------------------------------------------------------------------------------------------
# Duplicate matches: every deal played twice, the reference in the bot's seat the second time

_DuplicateWork = tuple[Sequence[PlayerFactory], PlayerFactory, str, int, int, int,
                       "Rules | None", "Sequence[int] | None", "Sequence[str] | None"]


def _play_duplicate(args: _DuplicateWork) -> tuple[_Outcome, _Outcome]:
    """The bot's game and the reference's game of one deal: the same seeds, the same
    seats (entrant 0 is the bot, then the reference), the same field."""
    factories, reference, reference_name, g, game_seed, seed, rules, rounds, names = args
    bot = _play_seated((factories, g, game_seed, seed, rules, rounds, names))
    ref_names = None if names is None else [reference_name, *names[1:]]
    ref = _play_seated(([reference, *factories[1:]], g, game_seed, seed, rules, rounds,
                        ref_names))
    for outcome, which in ((bot, "bot"), (ref, "reference")):
        if outcome[3] is not None:
            outcome[3]["duplicate"] = which
    return bot, ref


def duplicate_match(bot: Any, reference: Any, field: Sequence[Any], games: int, *,
                    seed: SeedLike, jobs: int = 1, progress: ProgressCallback | None = None,
                    rules: Rules | None = None, rounds: Sequence[int] | None = None,
                    names: Sequence[str] | None = None,
                    on_record: Callable[[dict[str, Any]], Any] | None = None,
                    backend: Backend = "local", ray_address: str | None = None
                    ) -> DuplicateReport:
    """A *duplicate match* of ``bot`` against ``reference`` (:mod:`fivecrowns.duplicate`):
    every deal is played twice, once with ``bot`` in a seat and once with ``reference`` in
    that seat (same deal, same seeds, the same ``field`` in the other seats); the report
    gives the bot's paired gain over the reference with a 95% interval.

    The deals, seats and seeds are those of ``simulate_games([bot, *field], games,
    seed=seed)``: the bot's games are exactly that simulation's games.

    Parameters
    ----------
    bot, reference : entrant
        The bot under test and the bot it is measured against: a Player class or a
        callable returning a Player, as :func:`simulate_games` takes.
    field : sequence of entrants
        The other seats (1 or more), the same in both games of a deal.
    games : int
        Deals (each played twice).
    seed : int, numpy SeedSequence or numpy Generator
        Keyword-only, as for :func:`simulate_games`.
    jobs, progress, rules, rounds, backend, ray_address
        As for :func:`simulate_games`; ``progress`` is called with deals finished.
    names : sequence of str, optional
        Names of ``[bot, reference, *field]`` (default: each one's ``name`` or
        ``__name__``).
    on_record : callable, optional
        Gets both games of each deal, the bot's first, each with a ``"duplicate"``
        field, ``"bot"`` or ``"reference"``.

    Returns
    -------
    DuplicateReport

    Raises
    ------
    TypeError
        An entrant that is not a Player class or a callable as described.
    ValueError
        An empty field, or too many seats for the rules.
    BotError
        A player raised or chose an illegal move (the message names the game's seed).

    Examples
    --------
    GreedyBot against RandomBot in the same seat, with one GreedyBot in the field:

    >>> from fivecrowns.bots import GreedyBot, RandomBot
    >>> m = duplicate_match(GreedyBot, RandomBot, [GreedyBot], 6, seed=1, rounds=[1, 2])
    >>> m.bot, m.reference, m.games, m.gain > 0
    ('GreedyBot', 'RandomBot', 6, True)
    """
    if isinstance(field, (str, bytes)) or not isinstance(field, Sequence):
        raise TypeError(f"field must be a sequence of entrants, got {type(field).__name__}")
    if not field:
        raise ValueError("field must hold 1 or more entrants (the other seats)")
    reference_name = _name(reference)
    if names is not None:
        names = list(names)
        if len(names) != len(field) + 2:
            raise ValueError(f"names has {len(names)} entries for the bot, the reference "
                             f"and {len(field)} in the field")
        reference_name = str(names.pop(1))
    factories, games, names = _checked([bot, *field], games, rules, names)
    reference_factory = entrant_factory(reference)
    seed = int_seed(seed)
    seeds = game_seeds(seed, games)
    record_names = names if on_record is not None else None
    work = _Items(seeds, lambda g: (factories, reference_factory, reference_name, g,
                                    seeds[g], seed, rules, rounds, record_names))
    n, k = len(seeds), len(factories)
    scores = np.zeros((2, n, k), dtype=np.int64)   # the bot's games, the reference's
    wins = np.zeros((2, n, k), dtype=np.float64)
    done = [0, 0]

    def emit(pair: tuple[_Outcome, _Outcome]) -> None:
        g = done[0]
        for which, outcome in enumerate(pair):
            scores[which, g], wins[which, g] = outcome[0], outcome[1]
            done[1] += outcome[2]
            if on_record is not None:
                assert outcome[3] is not None
                on_record(outcome[3])
        done[0] += 1

    run_in_order(_play_duplicate, work, jobs=jobs, progress=progress, backend=backend,
                 ray_address=ray_address, on_result=emit, keep=False)
    return DuplicateReport.from_games(names, reference_name, seeds, scores[0], scores[1],
                                      wins[0], wins[1], done[1])
