"""Games of built-in bots on the compiled engine: the route of :func:`~fivecrowns.play_game`
and :func:`~fivecrowns.simulate_games` when every seat is a bot the engine plays exactly.

The engine (``_rollout._logged_games_range``) plays :class:`~fivecrowns.bots.RandomBot`
(``go_out=1``, its choices drawn from the bot's own generator with numpy's own
``Generator.integers`` routine, so the generator ends where the Python bot leaves it),
:class:`~fivecrowns.bots.GreedyBot`, :class:`~fivecrowns.bots.StrongBot` (its default
``lookahead`` and ``now_weight``) and :class:`~fivecrowns.expert.ExpertBot` move for move
as the Python bots do on :class:`~fivecrowns.game.Game`: the same deals, reshuffles,
tie-break rounds, scores and records (tests/test_bot_games.py plays both routes).
Anything else (a subclass, other parameters, a custom player) takes the Python route.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from . import _state, rollout, solver
from ._game_state_py import TIE_BREAK
from .actions import N_ACTIONS
from .bots import GreedyBot, RandomBot, StrongBot
from .cards import N_TYPES, Card
from .expert import ExpertBot
from .game import TIE_BREAK_HAND_SIZE, GameResult
from .records import RoundResult
from .replay import GameRecord, action_token
from .rules import Rules

__all__ = ["seat_policies", "available", "play_logged", "LoggedGame"]

# The engine's numbers of the policies that play these bots exactly (the registry's,
# rollout.POLICIES), and of RandomBot itself (_policies.pxd's RANDOM_BOT, past the policies:
# the bot's own generator, which the "random" policy does not draw from).
_GREEDY, _STRONG, _EXPERT = (rollout.POLICIES.index(n) for n in ("greedy", "strong", "expert"))
_RANDOM_BOT = 4
_MAX_PLAYERS = 14
# The columns of a logged round (_rollout.pyx, L_*).
_WENT_OUT, _HIT, _TURNS, _RESHUFFLES, _DEALER, _MOVES, _SCORES = range(7)
_N_LOG = 6 + _MAX_PLAYERS
# The class constants a bot's moves depend on, and the values the engine plays.
_STRONG_DEFAULTS = {"lookahead": 3, "now_weight": 0.35, "WILD_PENALTY": 100.0,
                    "FEED_RANK_PENALTY": 4.0, "FEED_RUN_PENALTY": 2.5}
_EXPERT_DEFAULTS = {"WILD_PENALTY": 400, "OUT_BONUS": 40, "LOOKED_AHEAD": 5}


def available() -> bool:
    """True when the rollout engine is the compiled one (:data:`fivecrowns.rollout.
    IMPLEMENTATION`) and the solver runs on the compiled core (under
    ``solver.use_implementation("python")`` the Python route is the one asked for)."""
    return _state.rollout_core is not None and solver.active_implementation() == "compiled"


def _defaults(bot: object, defaults: Mapping[str, object]) -> bool:
    return all(getattr(bot, name, None) == value for name, value in defaults.items())


def seat_policy(bot: object) -> int | None:
    """The engine's policy number of a built-in bot it plays exactly, else None."""
    kind = type(bot)
    if kind is GreedyBot:
        return _GREEDY
    if kind is StrongBot:
        return _STRONG if _defaults(bot, _STRONG_DEFAULTS) else None
    if kind is ExpertBot:
        return _EXPERT if _defaults(bot, _EXPERT_DEFAULTS) else None
    if kind is RandomBot:
        return _RANDOM_BOT if bot.go_out >= 1.0 else None  # type: ignore[attr-defined]
    return None


def seat_policies(players: Sequence[object]) -> list[int] | None:
    """Each seat's policy number when the engine plays every seat exactly, else None."""
    codes = []
    for bot in players:
        code = seat_policy(bot)
        if code is None:
            return None
        codes.append(code)
    return codes


_CLASSES = {GreedyBot: _GREEDY, StrongBot: _STRONG, ExpertBot: _EXPERT,
            RandomBot: _RANDOM_BOT}


def _default_options(cls: type, options: Mapping[str, object]) -> bool:
    """True when every option is the default of ``cls``'s argument of that name: the
    players are those of ``cls()``."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False
    return all(k in params and params[k].default == v for k, v in options.items())


def entrant_policy(entrant: object) -> int | None:
    """The policy number of an entrant of a simulation that makes built-in bots with
    their defaults (the class itself, or a factory of it whose options are its
    defaults, as ``"strong"`` or ``"strong:lookahead=3"`` give: the simulator's and the
    registry's wrappers are looked into), without calling it; None when that cannot be
    told. Only a guess of what its players will be: each game still checks its players
    with :func:`seat_policies`."""
    for _ in range(3):  # the simulator's wrapper, then the registry's
        if isinstance(entrant, type):
            return _CLASSES.get(entrant)
        inner = getattr(entrant, "entrant", None)
        if inner is None:
            cls, options = getattr(entrant, "cls", None), getattr(entrant, "options", None)
            if isinstance(cls, type) and isinstance(options, Mapping) and \
                    _default_options(cls, options):
                inner = cls
        if inner is None:
            return None
        entrant = inner
    return None


@dataclass
class LoggedGame:
    """One game played by the engine: what :func:`play_logged` gives back."""

    seed: int
    log: npt.NDArray[np.int32]                  # (rounds + 1, _N_LOG)
    moves: npt.NDArray[np.int16] | None
    hands: npt.NDArray[np.uint8] | None         # (rounds + 1, 14, 56)


def play_logged(games: Sequence[tuple[int, Sequence[object]]], *, rules: Rules,
                plan: Sequence[int], first_dealer: int = 0, moves: bool = True,
                hands: bool = False, threads: int = 1) -> list[LoggedGame]:
    """Play each ``(seed, players)`` game on the engine (every player one that
    :func:`seat_policies` accepts, all games with the same number of players).

    A RandomBot's generator is advanced as the Python bot's would be; no other player
    is touched.
    """
    from ._threads import run_threaded

    core = _state.rollout_core
    assert core is not None
    n = len(games)
    if n == 0:
        return []
    k = len(games[0][1])
    policies = np.zeros((n, k), dtype=np.int32)
    choices = np.zeros((n, k), dtype=np.uint64)
    generators: list[np.random.BitGenerator] = []
    for i, (seed, players) in enumerate(games):
        codes = seat_policies(players)
        assert codes is not None and len(codes) == k
        policies[i] = codes
        for q, bot in enumerate(players):
            if codes[q] == _RANDOM_BOT:
                choices[i, q] = core._bitgens([bot.rng.bit_generator], 1)[0]  # type: ignore[attr-defined]
        generators.append(np.random.PCG64(int(seed)))  # Game's default_rng(seed)
    rngs = core._bitgens(generators, n)
    log = np.zeros((n, len(plan) + 1, _N_LOG), dtype=np.int32)
    final = np.zeros((n, len(plan) + 1, _MAX_PLAYERS, 56), dtype=np.uint8) if hands else None
    traces: list[npt.NDArray[np.int16] | None] | None = [None] * n if moves else None
    rounds = np.array(plan, dtype=np.int8)
    no_return = not rules.return_discard

    def piece(a: int, b: int) -> None:
        core._logged_games_range(rngs, choices, k, rules.decks, rules.max_turns, no_return,
                                 rules.tie_break, rounds, first_dealer, policies, log,
                                 final, traces, a, b)

    # the players (and their generators) stay referenced by ``games`` until this returns
    run_threaded(piece, n, threads, 64)
    return [LoggedGame(int(seed), log[i], None if traces is None else traces[i],
                       None if final is None else final[i])
            for i, (seed, _) in enumerate(games)]


@dataclass(frozen=True)
class Summary:
    """A logged game's outcome by seat."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break_seats: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    hit_max_turns: int


def summary(game: LoggedGame, n_players: int, plan: tuple[int, ...], first_dealer: int,
            tie_break: bool) -> Summary:
    """Totals, winners and tie-break seats of a logged game: its rounds' scores handed to
    a game state as :class:`~fivecrowns.game.Game` hands them to its own."""
    g = _state.GameState(n_players, plan, first_dealer, tie_break)
    rows = game.log.tolist()
    for row in rows[:len(plan)]:
        g.end_round(row[_SCORES:_SCORES + n_players], row[_WENT_OUT])
    if g.stage == TIE_BREAK:
        tie = rows[len(plan)]
        g.end_round(tie[_SCORES:_SCORES + len(g.seats)], tie[_WENT_OUT])
    scores = tuple(tuple(row[_SCORES:_SCORES + n_players]) for row in rows[:len(plan)])
    return Summary(g.totals, g.winners, g.tie_break_seats, scores,
                   sum(row[_HIT] for row in rows[:len(plan)]))


def record(game: LoggedGame, s: Summary, n_players: int, rules: Rules,
           plan: tuple[int, ...], first_dealer: int) -> GameRecord:
    """The game's :class:`~fivecrowns.replay.GameRecord`, as ``Game.record()`` gives it."""
    core = _state.rollout_core
    assert game.moves is not None and core is not None
    played = len(plan) + (1 if s.tie_break_seats else 0)
    actions = []
    start = 0
    for k in range(played):
        stop = start + int(game.log[k, _MOVES])
        actions.append(core._tokens(game.moves, start, stop, _TOKENS))
        start = stop
    return GameRecord(n_players=n_players, seed=game.seed, rules=rules, rounds=plan,
                      first_dealer=first_dealer, actions=tuple(actions),
                      round_scores=s.round_scores, totals=s.totals, winners=s.winners,
                      tie_break_seats=s.tie_break_seats)


_CARDS = tuple(Card.from_index(t) for t in range(N_TYPES))
_TOKENS = tuple(action_token(a) for a in range(N_ACTIONS))


def _round_result(row: npt.NDArray[np.int32], hands: npt.NDArray[np.uint8], k: int,
                  round_number: int | None, hand_size: int, wild: int) -> RoundResult:
    core = _state.rollout_core
    assert core is not None
    out = int(row[_WENT_OUT])
    return RoundResult(
        scores=tuple(row[_SCORES:_SCORES + k].tolist()), went_out=None if out < 0 else out,
        hit_max_turns=bool(row[_HIT]), turns=int(row[_TURNS]),
        final_hands=core._hands_cards(hands, k, _CARDS),
        round_number=round_number, hand_size=hand_size, wild=wild,
        dealer=int(row[_DEALER]), reshuffles=int(row[_RESHUFFLES]))


def game_result(game: LoggedGame, n_players: int, rules: Rules, plan: tuple[int, ...],
                first_dealer: int) -> GameResult:
    """The :class:`~fivecrowns.game.GameResult` of a game logged with its moves and
    hands, equal to the one :class:`~fivecrowns.game.Game` gives."""
    assert game.hands is not None
    s = summary(game, n_players, plan, first_dealer, rules.tie_break)
    rounds = tuple(_round_result(game.log[k], game.hands[k], n_players, r, Rules.hand_size(r),
                                 Rules.wild_rank(r))
                   for k, r in enumerate(plan))
    tie = None
    if s.tie_break_seats:
        tie = _round_result(game.log[len(plan)], game.hands[len(plan)],
                            len(s.tie_break_seats), None, TIE_BREAK_HAND_SIZE,
                            TIE_BREAK_HAND_SIZE)
    return GameResult(totals=s.totals, winners=s.winners, rounds=rounds, seed=game.seed,
                      tie_break=tie, tie_break_seats=s.tie_break_seats,
                      record=record(game, s, n_players, rules, plan, first_dealer))
