"""Players, and running them: one game (:func:`play_game`) or many (:func:`tournament`).

A player is any object with the two methods of :class:`Player`. It sees only an
:class:`~fivecrowns.round.Observation`. A player that raises, or returns a move the
rules do not allow, stops the game with :class:`~fivecrowns.BotError` naming the
game's seed, so the game can be replayed; there is no silent fallback.

Examples
--------
>>> from fivecrowns.bots import GreedyBot, RandomBot
>>> res = play_game([GreedyBot(), RandomBot(seed=1)], seed=4, rounds=[1, 2])
>>> len(res.rounds), len(res.totals)
(2, 2)
>>> res.winners[0] in (0, 1)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import BotError
from .game import Game, GameResult
from .round import CardArg, Observation, Phase, SourceLike
from .rules import Rules
from .runner import Backend, run_in_order
from .seeding import bot_seeds, game_seeds
from .stats import mean_interval, wilson_interval

__all__ = [
    "Player",
    "PlayerFactory",
    "play_game",
    "tournament",
    "TournamentResult",
    "EntrantStats",
    "game_seeds",
]


@runtime_checkable
class Player(Protocol):
    """What the game asks of a player.

    Both methods get the player's :class:`~fivecrowns.round.Observation`. A player may
    keep state between calls, but the observation holds all it may know.
    """

    def choose_draw(self, obs: Observation) -> SourceLike:
        """Where to draw from: ``Source.DECK``/``0``/``"deck"`` or
        ``Source.DISCARD``/``1``/``"discard"``."""
        ...

    def choose_discard(self, obs: Observation) -> tuple[CardArg, bool]:
        """``(card, go_out)``: the card to discard from the n + 1 cards of
        ``obs.counts``, and whether to go out (lay all the others down)."""
        ...


#: Makes a fresh player from an int seed, e.g. a bot class: ``RandomBot(seed)``.
PlayerFactory = Callable[[int], Player]


def _bot_name(bot: object) -> str:
    return getattr(bot, "name", None) or type(bot).__name__


def play_game(bots: Sequence[Player], seed: int, rules: Rules | None = None,
              rounds: Sequence[int] | None = None, *, first_dealer: int = 0) -> GameResult:
    """Play one game between ``bots`` (seat i is ``bots[i]``).

    Parameters
    ----------
    bots : sequence of Player
        2 to 7 players (14 with ``Rules(decks=4)``); the same object may fill several seats.
    seed : int
        Shuffles the game; the same seed and bots give the same game.
    rules : Rules, optional
    rounds : sequence of int, optional
        Round numbers to play (default all 11).
    first_dealer : int

    Returns
    -------
    GameResult
        Totals, winners, round results and the :class:`~fivecrowns.game.GameRecord`
        (``result.record``), which :meth:`Game.replay` plays again.

    Raises
    ------
    BotError
        A bot raised, or chose an illegal move; the message names the seed, round and seat.

    Examples
    --------
    >>> from fivecrowns.bots import GreedyBot
    >>> res = play_game([GreedyBot()] * 3, seed=9, rounds=[1])
    >>> sum(s == 0 for s in res.rounds[0].scores) >= 1
    True
    """
    bots = list(bots)
    for i, bot in enumerate(bots):
        if not isinstance(bot, Player):
            raise TypeError(f"bots[{i}] ({bot!r}) is not a Player: it needs choose_draw() "
                            f"and choose_discard() methods")
    game = Game(len(bots), seed, rules=rules, rounds=rounds, first_dealer=first_dealer)
    while not game.is_over:
        seat = game.current_player
        bot = bots[seat]
        obs = game.observation(seat)
        drawing = game.phase is Phase.DRAW
        try:
            if drawing:
                choice: Any = bot.choose_draw(obs)
            else:
                choice = bot.choose_discard(obs)
        except Exception as exc:
            raise BotError(f"{_where(game, seat, bot)} raised {type(exc).__name__}: {exc}") \
                from exc
        try:
            if drawing:
                game.draw(choice, player=seat)
            else:
                if not isinstance(choice, tuple) or len(choice) != 2:
                    raise TypeError(f"choose_discard must return (card, go_out), "
                                    f"got {choice!r}")
                game.discard(choice[0], choice[1], player=seat)
        except (ValueError, TypeError) as exc:
            raise BotError(f"{_where(game, seat, bot)} made an illegal move "
                           f"({choice!r}): {exc}") from exc
    result = game.result
    assert result is not None
    return result


def _where(game: Game, seat: int, bot: object) -> str:
    rnd = "the tie-break round" if game.round_number is None else f"round {game.round_number}"
    return (f"in the game with seed {game.seed}, {rnd}, turn {game.round.turn + 1}, "
            f"seat {seat} ({_bot_name(bot)})")


@dataclass(frozen=True)
class EntrantStats:
    """One entrant's tournament numbers, with 95% intervals (Wilson for the win rate,
    normal approximation for the mean score).

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
class TournamentResult:
    """The outcome of :func:`tournament`.

    Attributes
    ----------
    entrants : tuple of EntrantStats
        One per factory, in the order given.
    seeds : tuple of int
        The game seeds; game g seated entrant ``(s + g) % k`` at seat ``s``.
    scores : ndarray of shape (games, k)
        Each entrant's total in each game.
    wins : ndarray of shape (games, k)
        Each entrant's share of victory in each game.
    hit_max_turns : int
        Rounds, over all games, stopped by ``Rules.max_turns``.
    """

    entrants: tuple[EntrantStats, ...]
    seeds: tuple[int, ...]
    scores: np.ndarray
    wins: np.ndarray
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


def _play_seated(args: tuple[Sequence[PlayerFactory], int, int, int, Rules | None,
                             Sequence[int] | None, Sequence[str] | None]
                 ) -> tuple[list[int], list[float], int, dict[str, Any] | None]:
    factories, g, game_seed, seed, rules, rounds, record_names = args
    k = len(factories)
    # seat s holds entrant (s + g) % k
    entrant_at = [(s + g) % k for s in range(k)]
    own = bot_seeds(seed, g, k)
    bots = [factories[e](own[e]) for e in entrant_at]
    res = play_game(bots, game_seed, rules, rounds)
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


def tournament(bot_factories: Sequence[PlayerFactory], games: int, seed: int, *,
               jobs: int = 1, progress: Callable[[int], Any] | None = None,
               rules: Rules | None = None, rounds: Sequence[int] | None = None,
               names: Sequence[str] | None = None,
               on_record: Callable[[dict[str, Any]], Any] | None = None,
               backend: Backend = "local", ray_address: str | None = None
               ) -> TournamentResult:
    """Play ``games`` seeded games between the entrants and summarise them.

    Each entrant takes one seat; seats rotate from game to game so that every entrant
    sits everywhere equally often. Game seeds come from :func:`game_seeds`, and each
    bot is made by ``factory(bot_seed)`` with a seed derived from ``seed`` too, so the
    whole tournament is reproducible and does not depend on ``jobs``.

    Parameters
    ----------
    bot_factories : sequence of callables
        One per entrant (2 to 7); each is called with an int seed and returns a Player
        (a bot class such as ``GreedyBot`` works as is). With ``jobs > 1`` they must
        pickle (classes and module-level functions do).
    games : int
    seed : int
    jobs : int
        Worker processes.
    progress : callable, optional
        Called with the number of games just finished (e.g. ``tqdm(total=games).update``).
    rules : Rules, optional
    rounds : sequence of int, optional
        Round numbers of every game (default all 11).
    names : sequence of str, optional
        Entrant names (default: the factories' names).
    on_record : callable, optional
        Called, in game order, with each game's record as a JSON-ready dict
        (:meth:`GameRecord.to_dict`, plus ``game``, its number, and ``players``, the
        entrant's name in each seat); it replays with :meth:`Game.replay`.

    Examples
    --------
    >>> from fivecrowns.bots import GreedyBot, RandomBot
    >>> t = tournament([GreedyBot, RandomBot], games=4, seed=0, rounds=[1],
    ...                rules=Rules(max_turns=40))
    >>> [e.name for e in t.entrants], t.scores.shape
    (['GreedyBot', 'RandomBot'], (4, 2))
    """
    factories = list(bot_factories)
    if not 2 <= len(factories) <= (rules or Rules()).max_players:
        raise ValueError(f"a tournament needs 2 to {(rules or Rules()).max_players} "
                         f"entrants, got {len(factories)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive int, got {jobs!r}")
    if names is None:
        names = [getattr(f, "name", None) or getattr(f, "__name__", None) or repr(f)
                 for f in factories]
    elif len(names) != len(factories):
        raise ValueError(f"names has {len(names)} entries for {len(factories)} entrants")
    seeds = game_seeds(seed, games)
    record_names = [str(n) for n in names] if on_record is not None else None
    work = [(factories, g, seeds[g], seed, rules, rounds, record_names) for g in range(games)]

    def emit(outcome: tuple[list[int], list[float], int, dict[str, Any] | None]) -> None:
        if on_record is not None:
            assert outcome[3] is not None
            on_record(outcome[3])

    outcomes = run_in_order(_play_seated, work, jobs=jobs, progress=progress,
                            backend=backend, ray_address=ray_address, on_result=emit)
    scores = np.array([o[0] for o in outcomes], dtype=np.int64)
    wins = np.array([o[1] for o in outcomes], dtype=np.float64)
    entrants = []
    for e, name in enumerate(names):
        w = float(wins[:, e].mean())
        wci = wilson_interval(float(wins[:, e].sum()), int(wins.shape[0]))
        m, mci = mean_interval(scores[:, e].astype(np.float64), floor=0.0)
        entrants.append(EntrantStats(str(name), games, w, wci, m, mci))
    return TournamentResult(tuple(entrants), tuple(seeds), scores, wins,
                            sum(o[2] for o in outcomes))
