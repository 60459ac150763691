"""Players, one game between them (:func:`play_game`), a player's move as an action code
(:func:`player_action`), and how an entrant of a simulation becomes a player
(:func:`entrant_factory`).

A player is any object with the two methods of :class:`Player`. It sees only an
:class:`~fivecrowns.records.Observation`. A player that raises, or returns a move the
rules do not allow, stops the game with :class:`~fivecrowns.BotError` naming the
game's seed, so the game can be replayed; there is no silent fallback. Many games at
once are :func:`fivecrowns.simulate.simulate_games`' job.

Wherever a player or an entrant is taken, a bot may also be given by its spec in
:mod:`fivecrowns.registry`: ``"strong"``, ``"StrongBot"``, ``"search:worlds=8"``,
``"mybots:MyBot"``.

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

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Union

from . import _bot_games, registry
from ._checks import check_game
from ._deprecation import moved_names, takes_seed
from ._player import Player, player_action
from .errors import BotError
from .game import Game, GameResult
from .records import Phase
from .rules import Rules
from .seeding import SeedLike, int_seed, play_seeds

__all__ = [
    "Player",
    "PlayerFactory",
    "play_game",
    "player_action",
    "entrant_factory",
    "Entrant",
]


__getattr__ = moved_names(__name__, {"game_seeds": "fivecrowns.seeding"})

#: Makes a fresh player for one game from an int seed (see :func:`entrant_factory`).
PlayerFactory = Callable[[int], Player]

#: An entrant of a simulation (:func:`entrant_factory`): a bot's registry spec
#: (``"strong"``, ``"search:worlds=8"``, ``"mybots:MyBot"``), a Player class, or a callable
#: returning a Player. (Not ``Callable[..., Player]``: a list of two bot classes has no
#: common type that is a Player to a type checker.)
Entrant = Union[str, Callable[..., Any]]


def _bot_name(bot: object) -> str:
    return getattr(bot, "name", None) or type(bot).__name__


def play_game(players: Sequence[Player | str], *, seed: SeedLike, rules: Rules | None = None,
              rounds: Sequence[int] | None = None, first_dealer: int = 0) -> GameResult:
    """Play one game between ``players`` (seat i is ``players[i]``).

    Parameters
    ----------
    players : sequence of Player or str
        2 to 7 players (14 with ``Rules(decks=4)``); the same object may fill several seats.
        A str is a bot's spec in :mod:`fivecrowns.registry` (``"strong"``, ``"StrongBot"``,
        ``"search:worlds=8"``, ``"mybots:MyBot"``): seat ``s`` gets a new such bot made
        with the seed ``play_seeds(seed, 0, len(players))[s]``
        (:func:`~fivecrowns.seeding.play_seeds`, as ``fivecrowns play`` seeds its bots),
        so the game is the same as with that bot object in the seat.
    seed : int, numpy SeedSequence or numpy Generator
        Shuffles the game; the same seed and players give the same game. Keyword-only.
    rules : Rules, optional
    rounds : sequence of int, optional
        Round numbers to play (default all 11).
    first_dealer : int

    Returns
    -------
    GameResult
        Totals, winners, round results and the :class:`~fivecrowns.replay.GameRecord`
        (``result.record``), which :meth:`Game.replay` plays again.

    Notes
    -----
    When every seat is a built-in bot with its default parameters
    (:class:`~fivecrowns.bots.RandomBot` with ``go_out=1``,
    :class:`~fivecrowns.bots.GreedyBot`, :class:`~fivecrowns.bots.StrongBot`,
    :class:`~fivecrowns.expert.ExpertBot`), the game is played on the compiled engine,
    which makes the very moves of the Python bots (a RandomBot's generator advances as
    it would): the same result and record, 15 to 90 times faster. Any other player in
    any seat, or ``solver.use_implementation("python")``, plays it on
    :class:`~fivecrowns.game.Game` with the bots' own methods.

    Raises
    ------
    TypeError
        A seat that is neither a player nor a str (a player class is refused: it names
        the instance or the name to give instead).
    ValueError
        A str that is no bot's spec (:func:`fivecrowns.registry.parse_bot`'s message).
    BotError
        A player raised, or chose an illegal move; the message names the seed, round and
        seat.

    Examples
    --------
    >>> from fivecrowns.bots import GreedyBot
    >>> res = play_game([GreedyBot()] * 3, seed=9, rounds=[1])
    >>> sum(s == 0 for s in res.rounds[0].scores) >= 1
    True

    Bots by name: the same game as with the objects the names make.

    >>> from fivecrowns.bots import RandomBot
    >>> from fivecrowns.seeding import play_seeds
    >>> by_name = play_game(["greedy", "RandomBot"], seed=4, rounds=[1, 2])
    >>> by_name == play_game([GreedyBot(), RandomBot(seed=play_seeds(4, 0, 2)[1])], seed=4,
    ...                      rounds=[1, 2])
    True
    """
    if isinstance(players, (str, bytes)):
        raise TypeError(f"players must be a sequence of players or bot names (one a seat), "
                        f"got {type(players).__name__} {players!r}")
    players, seed = _named_players(players, seed)
    engine = _bot_games.available() and _bot_games.seat_policies(players) is not None
    for i, bot in enumerate(players):
        if not engine and not isinstance(bot, Player):  # built-in bots are Players
            raise TypeError(f"players[{i}] ({bot!r}) is not a Player or a bot's name: a "
                            f"player needs choose_draw() and choose_discard() methods")
    if engine:
        rules, plan, number, first_dealer = check_game(len(players), seed, rules, rounds,
                                                       first_dealer)
        (game,) = _bot_games.play_logged([(number, players)], rules=rules, plan=plan,
                                         first_dealer=first_dealer, hands=True)
        return _bot_games.game_result(game, len(players), rules, plan, first_dealer)
    return _play_on_game(players, seed=seed, rules=rules, rounds=rounds,
                         first_dealer=first_dealer)


def _named_players(players: Sequence[Player | str], seed: SeedLike
                   ) -> tuple[list[Player], SeedLike]:
    """The players of a game, each str seat made into its registry bot, and the seed to
    deal from: the int drawn from a Generator or SeedSequence once a bot is seeded from
    it (the game deals from that same int, the one its record keeps)."""
    out: list[Player] = []
    own: list[int] | None = None
    factories: dict[str, registry.BotFactory] = {}
    for i, bot in enumerate(players):
        if isinstance(bot, str):
            if own is None:
                seed = int_seed(seed)
                own = play_seeds(seed, 0, len(players))
            if bot not in factories:
                factories[bot] = registry.parse_bot(bot).factory()
            bot = factories[bot](own[i])
        elif isinstance(bot, type) and inspect.isfunction(
                inspect.getattr_static(bot, "choose_draw", None)):
            # The class passes the Player check (its methods are there, unbound) and
            # would fail only at its first move, with "missing argument 'obs'".
            raise TypeError(f"players[{i}] is the class {bot.__name__}, not a player: give "
                            f"an instance ({bot.__name__}(...)) or a bot's name")
        out.append(bot)
    return out, seed


def _play_on_game(players: Sequence[Player], *, seed: SeedLike, rules: Rules | None = None,
                  rounds: Sequence[int] | None = None, first_dealer: int = 0) -> GameResult:
    """:func:`play_game` on :class:`~fivecrowns.game.Game`, each move asked of the
    players' own methods (the Python route)."""
    game = Game(len(players), seed=seed, rules=rules, rounds=rounds,
                first_dealer=first_dealer)
    while not game.is_over:
        seat = game.current_player
        bot = players[seat]
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
                game.discard(choice[0], go_out=choice[1], player=seat)
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


_EXPECTED = ("an entrant must be a Player class or a picklable callable that returns a "
             "Player, called with seed=<int> when it takes a 'seed' parameter and with no "
             "argument otherwise, or a bot's spec in the registry (a str: 'strong', "
             "'search:worlds=8', 'mybots:MyBot')")


def _takes_seed(entrant: Callable[..., Any]) -> bool | None:
    """True if ``entrant`` can be called with ``seed=``, False if with no argument,
    None if with neither."""
    try:
        sig = inspect.signature(entrant)
    except (TypeError, ValueError):
        return None
    if takes_seed(sig):
        return True
    try:
        sig.bind()
    except TypeError:
        return None
    return False


class _Entrant:
    """A picklable factory: ``entrant(seed=seed)`` or ``entrant()``, checked to be a
    Player."""

    __slots__ = ("entrant", "seeded")

    def __init__(self, entrant: Callable[..., Any], seeded: bool) -> None:
        self.entrant = entrant
        self.seeded = seeded

    def __call__(self, seed: int) -> Player:
        player = self.entrant(seed=seed) if self.seeded else self.entrant()
        if not isinstance(player, Player):
            raise TypeError(f"{_EXPECTED}; {self.entrant!r} returned {player!r}, which has "
                            f"no choose_draw() and choose_discard() methods")
        return player

    def __getstate__(self) -> tuple[Callable[..., Any], bool]:
        return self.entrant, self.seeded

    def __setstate__(self, state: tuple[Callable[..., Any], bool]) -> None:
        self.entrant, self.seeded = state

    def __repr__(self) -> str:
        return f"entrant_factory({self.entrant!r})"


def entrant_factory(entrant: object) -> PlayerFactory:
    """A factory ``f(seed) -> Player`` for an entrant of a simulation.

    An entrant is a Player class or any callable returning a Player: it is called with
    ``seed=<int>`` when it accepts a ``seed`` parameter, else with no argument. The
    factory pickles when the entrant does (classes and module-level functions do).

    An entrant may also be a bot's spec, a str (``"strong"``, ``"StrongBot"``,
    ``"search:worlds=8"``, ``"mybots:MyBot"``): its factory is
    ``parse_bot(entrant).factory()`` (:func:`fivecrowns.registry.parse_bot`), which makes
    players as the class itself as an entrant does (the same games), and which the
    simulators see through to play the built-in bots on the compiled engine.

    Raises
    ------
    TypeError
        If ``entrant`` is not such a callable or a str (the message says what is
        expected).
    ValueError
        A str that is no bot's spec (:func:`fivecrowns.registry.parse_bot`'s message).

    Examples
    --------
    >>> from fivecrowns.bots import RandomBot
    >>> class Lazy:
    ...     def choose_draw(self, obs): return "deck"
    ...     def choose_discard(self, obs): return obs.hand[-1], False
    >>> type(entrant_factory(Lazy)(5)).__name__, type(entrant_factory(RandomBot)(5)).__name__
    ('Lazy', 'RandomBot')
    >>> entrant_factory("StrongBot")(5)
    StrongBot(lookahead=3)
    """
    if isinstance(entrant, _Entrant):
        return entrant
    if isinstance(entrant, str):
        return registry.parse_bot(entrant).factory()
    if not callable(entrant):
        raise TypeError(f"{_EXPECTED}; got {type(entrant).__name__} {entrant!r}")
    seeded = _takes_seed(entrant)
    if seeded is None:
        raise TypeError(f"{_EXPECTED}; {entrant!r} needs other arguments")
    return _Entrant(entrant, seeded)
