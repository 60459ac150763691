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
from functools import partial
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from . import _bot_games
from ._checks import available_cores, check_game, check_int
from ._deprecation import RENAMED, warn_deprecated
from .duplicate import DuplicateReport
from .errors import Interrupted
from .players import Entrant, PlayerFactory, entrant_factory, play_game
from .replay import GameRecord
from .rules import Rules
from .runner import Backend, ProgressCallback, check_fits, run_in_order
from .seeding import GameSeeds, SeedLike, bot_seeds, int_seed

if TYPE_CHECKING:
    from typing_extensions import deprecated as _deprecated
else:
    def _deprecated(message: str) -> Callable[[Any], Any]:
        """typing_extensions.deprecated for type checkers only (the call warns itself)."""
        return lambda function: function
from .stats import _mean_text, _rate_text, mean_interval, wilson_interval

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
        """A small text table of the results: win rates in percent, mean scores, each with
        its 95% interval (the command line's ``simulate`` prints this table)."""
        width = max(12, *(len(e.name) for e in self.entrants))
        lines = [f"{'entrant':<{width}} {'games':>6} {'win rate (95% CI)':>26} "
                 f"{'mean score (95% CI)':>28}"]
        for e in self.entrants:
            lines.append(f"{e.name:<{width}} {e.games:>6} {_rate_text(e.win_rate, e.win_ci)} "
                         f"{_mean_text(e.mean_score, e.score_ci)}")
        lines.append("win rate: mean share of victory (a tie for the lowest total shares it)")
        if self.hit_max_turns:
            lines.append(f"{self.hit_max_turns} round(s) were stopped by the max_turns safety "
                         f"limit")
        return "\n".join(lines)


_Outcome = tuple[list[int], list[float], int, "dict[str, Any] | None"]


# One game to play: the entrants' factories (entrant 0 first), the game's number and
# seed, and the names its record gives the entrants (None: no record).
_Spec = tuple[Sequence[PlayerFactory], int, int, "Sequence[str] | None"]


def _seated(spec: _Spec, seed: int) -> tuple[list[int], list[Any]]:
    """Which entrant sits where in a game (seat s holds entrant ``(s + g) % k``) and
    their players, each made from the entrant's own seed."""
    factories, g, _, _ = spec
    k = len(factories)
    entrant_at = [(s + g) % k for s in range(k)]
    own = bot_seeds(seed, g, k)
    return entrant_at, [factories[e](own[e]) for e in entrant_at]


def _outcome(spec: _Spec, entrant_at: list[int], totals: Sequence[int],
             winners: Sequence[int], hit_max_turns: int,
             record: Callable[[], GameRecord]) -> _Outcome:
    """A game's outcome by entrant (and its record, if the spec names the entrants)."""
    k = len(entrant_at)
    scores = [0] * k
    wins = [0.0] * k
    for s, e in enumerate(entrant_at):
        scores[e] = totals[s]
        if s in winners:
            wins[e] = 1.0 / len(winners)
    out = None
    names = spec[3]
    if names is not None:
        out = record().to_dict()
        out["game"] = spec[1]
        out["players"] = [names[e] for e in entrant_at]
    return scores, wins, hit_max_turns, out


def _play_specs(specs: Sequence[_Spec], seed: int, rules: Rules | None,
                rounds: Sequence[int] | None, threads: int) -> list[_Outcome]:
    """Play the games of ``specs``, in order: those whose every seat is a built-in bot on
    the compiled engine (all at once, on ``threads`` threads), the others with
    :func:`~fivecrowns.players.play_game`. Both give the same outcomes and records."""
    seated = [_seated(spec, seed) for spec in specs]
    engine = [i for i, (_, players) in enumerate(seated)
              if _bot_games.available() and _bot_games.seat_policies(players) is not None]
    logged: dict[int, Any] = {}
    if engine:
        checked, plan, _, _ = check_game(len(specs[0][0]), 0, rules, rounds, 0)
        games = _bot_games.play_logged(
            [(specs[i][2], seated[i][1]) for i in engine], rules=checked, plan=plan,
            moves=any(specs[i][3] is not None for i in engine), threads=threads)
        logged = dict(zip(engine, games))
    out = []
    for i, spec in enumerate(specs):
        entrant_at, players = seated[i]
        if i in logged:
            game, k = logged[i], len(players)
            s = _bot_games.summary(game, k, plan, 0, checked.tie_break)
            out.append(_outcome(spec, entrant_at, s.totals, s.winners, s.hit_max_turns,
                                partial(_bot_games.record, game, s, k, checked, plan, 0)))
        else:
            res = play_game(players, seed=spec[2], rules=rules, rounds=rounds)
            out.append(_outcome(spec, entrant_at, res.totals, res.winners,
                                res.hit_max_turns, partial(getattr, res, "record")))
    return out


# Games per block of work, by the engine's policy numbers (_bot_games): a block's games
# run on the compiled engine at once, and progress and Ctrl-C are seen between blocks,
# so a block is kept to about a quarter of a second of one core (see rollout's
# _GAMES_PER_PIECE; RandomBot's games also make a generator each).
_BLOCK_GAMES = {0: 1024, 2: 128, 3: 4, 4: 256}


def _block_size(factories: Sequence[PlayerFactory], games: int, jobs: int,
                backend: str) -> int:
    """Games per block: one unless every entrant makes built-in bots the engine plays
    (each game is then a task, as the runner has always had them), else as many as a
    quarter of a second holds, but enough blocks for every worker."""
    if not _bot_games.available():
        return 1
    codes = [_bot_games.entrant_policy(f) for f in factories]
    if None in codes:
        return 1
    workers = jobs if backend == "local" else max(jobs, 2)
    spread = games // (workers * 4)  # as the runner cuts its chunks
    return max(1, min(min(_BLOCK_GAMES[c] for c in codes if c is not None), spread))


def _engine_threads(jobs: int, backend: str) -> int:
    """Threads of the compiled engine in a block: one per core in this process (as
    :func:`~fivecrowns.rollout.play_games`), one in each worker process or Ray task."""
    return 1 if backend != "local" or jobs > 1 else available_cores()


def _play_block(args: tuple[Sequence[PlayerFactory], int, int, Sequence[int], int,
                            Rules | None, Sequence[int] | None, Sequence[str] | None, int]
                ) -> list[_Outcome]:
    factories, a, b, seeds, seed, rules, rounds, record_names, threads = args
    specs = [(factories, g, seeds[g - a], record_names) for g in range(a, b)]
    return _play_specs(specs, seed, rules, rounds, threads)


def _name(entrant: object) -> str:
    if isinstance(entrant, str):  # a bot's spec: the registry's label of it
        entrant = entrant_factory(entrant)
    inner = getattr(entrant, "func", None)  # a functools.partial: its function's name
    return str(getattr(entrant, "name", None) or getattr(entrant, "__name__", None)
               or (_name(inner) if callable(inner) else None) or repr(entrant))


_OLD_DUPLICATE = "simulate_games(..., duplicate=reference)"
RENAMED[_OLD_DUPLICATE] = "duplicate_match(bot, reference, field, games, seed=...)"


@overload
def simulate_games(entrants: Sequence[Entrant], games: int, *, seed: SeedLike, jobs: int = 1,
                   progress: ProgressCallback | None = None, rules: Rules | None = None,
                   rounds: Sequence[int] | None = None, names: Sequence[str] | None = None,
                   on_record: Callable[[dict[str, Any]], Any] | None = None,
                   backend: Backend = "local", ray_address: str | None = None,
                   duplicate: None = None) -> GamesReport: ...


@overload
@_deprecated("simulate_games(..., duplicate=reference) is deprecated: use "
            "duplicate_match(bot, reference, field, games, seed=...)")
def simulate_games(entrants: Sequence[Entrant], games: int, *, seed: SeedLike, jobs: int = 1,
                   progress: ProgressCallback | None = None, rules: Rules | None = None,
                   rounds: Sequence[int] | None = None, names: Sequence[str] | None = None,
                   on_record: Callable[[dict[str, Any]], Any] | None = None,
                   backend: Backend = "local", ray_address: str | None = None,
                   duplicate: Entrant) -> DuplicateReport: ...


def simulate_games(entrants: Sequence[Entrant], games: int, *, seed: SeedLike, jobs: int = 1,
                   progress: ProgressCallback | None = None, rules: Rules | None = None,
                   rounds: Sequence[int] | None = None, names: Sequence[str] | None = None,
                   on_record: Callable[[dict[str, Any]], Any] | None = None,
                   backend: Backend = "local", ray_address: str | None = None,
                   duplicate: Entrant | None = None) -> GamesReport | DuplicateReport:
    """Play ``games`` seeded games between the entrants and summarise them.

    Each entrant takes one seat; seats rotate from game to game so that every entrant
    sits everywhere equally often. The whole simulation is reproducible from ``seed`` and
    does not depend on ``jobs`` or ``backend``.

    Parameters
    ----------
    entrants : sequence
        One per seat (2 to 7, or 14 with ``Rules(decks=4)``). Each is a Player class or
        any callable returning a Player, called once per game with ``seed=<int>`` when it
        accepts a ``seed`` parameter, else with no argument, or a bot's spec in
        :mod:`fivecrowns.registry`, a str (``"strong"``, ``"StrongBot"``,
        ``"search:worlds=8"``, ``"mybots:MyBot"``), which plays as its class does (see
        :func:`~fivecrowns.players.entrant_factory`). With ``jobs > 1`` or on Ray they
        must pickle (classes, module-level functions and specs do).
    games : int
    seed : int, numpy SeedSequence or numpy Generator
        Keyword-only. Game ``g`` is dealt from ``game_seeds(seed, games)[g]``
        (:mod:`fivecrowns.seeding`; a SeedSequence or Generator first gives an int,
        :func:`~fivecrowns.seeding.int_seed`).
    jobs : int
        Worker processes. Games whose every seat is a built-in bot with its defaults
        (RandomBot, GreedyBot, StrongBot, ExpertBot) run on the compiled engine, the same
        games as on :class:`~fivecrowns.game.Game`: with ``jobs=1`` on one thread per
        core in this process, as :func:`~fivecrowns.rollout.play_games`, else on one
        thread in each worker.
    progress : callable, optional
        Called with the number of games just finished (e.g. ``tqdm(total=games).update``).
    rules : Rules, optional
    rounds : sequence of int, optional
        Round numbers of every game (default all 11).
    names : sequence of str, optional
        Entrant names (default: each entrant's ``name`` or ``__name__``; a spec's label,
        the registry's name with its options: ``"strong"`` for ``"StrongBot"``).
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
        An entrant that is not a Player class, a callable as described or a str.
    ValueError
        An unknown bot's name (the registry's message: :func:`~fivecrowns.registry.parse_bot`),
        fewer than 2 or too many entrants, ``games`` below 1, or
        :class:`~fivecrowns.runner.TooManyGames`: more games than this machine's memory
        holds the report of (each game's seed is made as it is played; the report keeps
        every game's seed, scores and wins).
    BotError
        A player raised or chose an illegal move (the message names the game's seed).
    Interrupted
        Ctrl-C (a ``KeyboardInterrupt``): its ``partial`` is the report of the games (or
        deals) finished before it, or ``None``.

    Examples
    --------
    >>> from fivecrowns.bots import GreedyBot, RandomBot
    >>> report = simulate_games([GreedyBot, RandomBot, GreedyBot], 3, seed=1, rounds=[2])
    >>> [e.name for e in report.entrants], report.scores.shape
    (['GreedyBot', 'RandomBot', 'GreedyBot'], (3, 3))

    The same games, the bots given by name:

    >>> by_name = simulate_games(["greedy", "random", "GreedyBot"], 3, seed=1, rounds=[2])
    >>> [e.name for e in by_name.entrants], by_name.scores.tolist() == report.scores.tolist()
    (['greedy', 'random', 'greedy'], True)
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


def _checked(entrants: Sequence[Entrant], games: object, rules: Rules | None,
             names: Sequence[str] | None) -> tuple[list[PlayerFactory], int, list[str]]:
    """The entrants' factories, the number of games and the names, checked."""
    if isinstance(entrants, (str, bytes)):  # else each of its letters would be an entrant
        raise TypeError(f"entrants must be a sequence of entrants (one a seat), got "
                        f"{type(entrants).__name__} {entrants!r}")
    entrants = list(entrants)
    factories = [entrant_factory(e) for e in entrants]
    limit = (rules or Rules()).max_players
    if not 2 <= len(factories) <= limit:
        raise ValueError(f"a simulation needs 2 to {limit} entrants, got {len(factories)}")
    games = check_int(games, "games", 1)
    if names is None:
        # a spec's factory carries its label: the spec is not parsed twice
        names = [_name(f if isinstance(e, str) else e) for e, f in zip(entrants, factories)]
    elif len(names) != len(factories):
        raise ValueError(f"names has {len(names)} entries for {len(factories)} entrants")
    return factories, games, [str(n) for n in names]


#: Bytes a game keeps in a report besides its scores and wins (8 + 8 an entrant, twice
#: that in a duplicate match): its seed, a Python int in a tuple, and the float copy of one
#: entrant's scores made for its interval.
_REPORT_BYTES = 56


def _simulate(entrants: Sequence[Entrant], games: int, *, seed: SeedLike, jobs: int,
              progress: ProgressCallback | None, rules: Rules | None,
              rounds: Sequence[int] | None, names: Sequence[str] | None,
              on_record: Callable[[dict[str, Any]], Any] | None, backend: Backend,
              ray_address: str | None) -> GamesReport:
    factories, games, names = _checked(entrants, games, rules, names)
    seed = int_seed(seed)
    check_fits(games, _REPORT_BYTES + 16 * len(factories))
    seeds = GameSeeds(seed, games)  # each block's made as it is played
    record_names = names if on_record is not None else None
    size = _block_size(factories, games, jobs, backend)
    threads = _engine_threads(jobs, backend)
    work = _Blocks(games, size, lambda a, b: (factories, a, b, seeds[a:b], seed, rules,
                                              rounds, record_names, threads))
    # Each outcome goes into the arrays as it comes, in order: no list of every game's
    # outcome (about 500 bytes a game) is kept.
    scores = np.zeros((games, len(factories)), dtype=np.int64)
    wins = np.zeros((games, len(factories)), dtype=np.float64)
    done = [0, 0]  # games, rounds stopped by max_turns

    def emit(block: list[_Outcome]) -> None:
        for outcome in block:
            g = done[0]
            scores[g], wins[g] = outcome[0], outcome[1]
            done[0] += 1
            done[1] += outcome[2]
            if on_record is not None:
                assert outcome[3] is not None
                on_record(outcome[3])
        if progress is not None:
            progress(len(block))

    try:
        run_in_order(_play_block, work, jobs=jobs, backend=backend, ray_address=ray_address,
                     on_result=emit, keep=False, chunk_size=1 if size > 1 else None)
    except KeyboardInterrupt as exc:  # Ctrl-C: keep the report of the games finished
        g = done[0]
        raise Interrupted(_games_report(names, seeds[:g], scores[:g], wins[:g], done[1])
                          if g else None) from exc
    return _games_report(names, seeds[:games], scores, wins, done[1])


def _games_report(names: Sequence[str], seeds: Sequence[int], scores: npt.NDArray[np.int64],
                  wins: npt.NDArray[np.float64], hit_max_turns: int) -> GamesReport:
    games = len(seeds)
    reports = []
    for e, name in enumerate(names):
        rate = float(wins[:, e].mean())
        rate_ci = wilson_interval(float(wins[:, e].sum()), games)
        mean, mean_ci = mean_interval(scores[:, e].astype(np.float64), floor=0.0)
        reports.append(EntrantReport(str(name), games, rate, rate_ci, mean, mean_ci))
    return GamesReport(tuple(reports), tuple(seeds), scores, wins, hit_max_turns)


class _Blocks(Sequence[Any]):
    """The work items of a simulation: blocks of ``size`` consecutive games (deals),
    each made when the runner reads it."""

    def __init__(self, n: int, size: int, item: Callable[[int, int], Any]) -> None:
        self.n, self.size, self.item = n, size, item

    def __len__(self) -> int:
        return -(-self.n // self.size)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        a = (i % len(self)) * self.size
        return self.item(a, min(a + self.size, self.n))


# ---------------------------------------------------------------------------------------------
# Duplicate matches: every deal played twice, the reference in the bot's seat the second time

_DuplicateWork = tuple[Sequence[PlayerFactory], PlayerFactory, str, int, int, Sequence[int],
                       int, "Rules | None", "Sequence[int] | None", "Sequence[str] | None",
                       int]


def _play_duplicate(args: _DuplicateWork) -> list[tuple[_Outcome, _Outcome]]:
    """The bot's game and the reference's game of each deal of a block: the same seeds,
    the same seats (entrant 0 is the bot, then the reference), the same field."""
    factories, reference, reference_name, a, b, seeds, seed, rules, rounds, names, \
        threads = args
    ref_names = None if names is None else [reference_name, *names[1:]]
    against = [reference, *factories[1:]]
    specs: list[_Spec] = []
    for g in range(a, b):
        specs += [(factories, g, seeds[g - a], names), (against, g, seeds[g - a], ref_names)]
    outcomes = _play_specs(specs, seed, rules, rounds, threads)
    for i, outcome in enumerate(outcomes):
        if outcome[3] is not None:
            outcome[3]["duplicate"] = "reference" if i % 2 else "bot"
    return [(outcomes[i], outcomes[i + 1]) for i in range(0, len(outcomes), 2)]


def duplicate_match(bot: Entrant, reference: Entrant, field: Sequence[Entrant], games: int, *,
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
        The bot under test and the bot it is measured against: a Player class, a
        callable returning a Player or a bot's spec in :mod:`fivecrowns.registry`
        (``"strong"``, ``"search:worlds=8"``), as :func:`simulate_games` takes.
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
        ``__name__``, a spec's label).
    on_record : callable, optional
        Gets both games of each deal, the bot's first, each with a ``"duplicate"``
        field, ``"bot"`` or ``"reference"``.

    Returns
    -------
    DuplicateReport

    Raises
    ------
    TypeError
        An entrant that is not a Player class, a callable as described or a str.
    ValueError
        An unknown bot's name (the registry's message), an empty field, too many seats
        for the rules, or
        :class:`~fivecrowns.runner.TooManyGames` (as for :func:`simulate_games`).
    BotError
        A player raised or chose an illegal move (the message names the game's seed).
    Interrupted
        Ctrl-C (a ``KeyboardInterrupt``): its ``partial`` is the report of the deals
        finished before it, or ``None``.

    Examples
    --------
    GreedyBot against RandomBot in the same seat, with one GreedyBot in the field:

    >>> from fivecrowns.bots import GreedyBot, RandomBot
    >>> m = duplicate_match(GreedyBot, RandomBot, [GreedyBot], 6, seed=1, rounds=[1, 2])
    >>> m.bot, m.reference, m.games, m.gain > 0
    ('GreedyBot', 'RandomBot', 6, True)
    >>> duplicate_match("greedy", "random", ["greedy"], 6, seed=1, rounds=[1, 2]).gain == m.gain
    True
    """
    if isinstance(field, (str, bytes)) or not isinstance(field, Sequence):
        raise TypeError(f"field must be a sequence of entrants, got {type(field).__name__}")
    if not field:
        raise ValueError("field must hold 1 or more entrants (the other seats)")
    reference_name = None
    if names is not None:
        names = list(names)
        if len(names) != len(field) + 2:
            raise ValueError(f"names has {len(names)} entries for the bot, the reference "
                             f"and {len(field)} in the field")
        reference_name = str(names.pop(1))
    factories, games, names = _checked([bot, *field], games, rules, names)
    reference_factory = entrant_factory(reference)
    if reference_name is None:
        reference_name = _name(reference_factory if isinstance(reference, str) else reference)
    seed = int_seed(seed)
    check_fits(games, _REPORT_BYTES + 32 * len(factories))
    seeds = GameSeeds(seed, games)  # each block's made as it is played
    record_names = names if on_record is not None else None
    n, k = len(seeds), len(factories)
    size = _block_size([*factories, reference_factory], n, jobs, backend)
    threads = _engine_threads(jobs, backend)
    work = _Blocks(n, size, lambda a, b: (factories, reference_factory, reference_name, a,
                                          b, seeds[a:b], seed, rules, rounds, record_names,
                                          threads))
    scores = np.zeros((2, n, k), dtype=np.int64)   # the bot's games, the reference's
    wins = np.zeros((2, n, k), dtype=np.float64)
    done = [0, 0]

    def emit(block: list[tuple[_Outcome, _Outcome]]) -> None:
        for pair in block:
            g = done[0]
            for which, outcome in enumerate(pair):
                scores[which, g], wins[which, g] = outcome[0], outcome[1]
                done[1] += outcome[2]
                if on_record is not None:
                    assert outcome[3] is not None
                    on_record(outcome[3])
            done[0] += 1
        if progress is not None:
            progress(len(block))

    def report(g: int) -> DuplicateReport:
        return DuplicateReport.from_games(names, reference_name, seeds[:g], scores[0, :g],
                                          scores[1, :g], wins[0, :g], wins[1, :g], done[1])

    try:
        run_in_order(_play_duplicate, work, jobs=jobs, backend=backend,
                     ray_address=ray_address, on_result=emit, keep=False,
                     chunk_size=1 if size > 1 else None)
    except KeyboardInterrupt as exc:  # Ctrl-C: keep the report of the deals finished
        raise Interrupted(report(done[0]) if done[0] else None) from exc
    return report(n)
