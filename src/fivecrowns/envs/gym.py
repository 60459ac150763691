"""Five Crowns as a single-agent Gymnasium environment (needs ``fivecrowns[rl]``).

The agent holds one seat of a game against built-in bots; the bots move between the
agent's actions. Importing :mod:`fivecrowns.envs` registers it as
``"fivecrowns/FiveCrowns-v0"``.

- Observation: ``{"observation": float32 vector, "action_mask": int8 (114,)}``, the
  vector of :func:`fivecrowns.envs.encoding.encode_observation` for the agent's seat.
- Action: an action code 0..113 of :mod:`fivecrowns.round`; use the mask.
- Reward: minus the agent's round score, at the end of each round (0 otherwise); the sum
  over an episode is minus the agent's game total.
- ``terminated`` when the game ends; ``truncated`` after ``max_turns`` of the agent's turns;
  an illegal action ends the episode (``terminated``) with reward -100.
- ``info``: ``totals`` (the running totals by seat) and ``seat``.
- :meth:`FiveCrownsEnv.action_masks`: the legal actions as a bool array, the method
  sb3-contrib's ``MaskablePPO`` looks for.
- Registered with ``max_episode_steps`` = :func:`~fivecrowns.envs._common.max_agent_steps`
  (11,022): the most steps the agent can take in an 11-round game under the default
  rules, so the time limit never cuts a game short.
- Speed: against bots the engine plays (random, greedy, strong, expert with their
  defaults) the whole game steps in C, one call a step (:attr:`FiveCrownsEnv.compiled_game`);
  :attr:`FiveCrownsEnv.game` is then replayed from the agent's moves when it is read.
- Options: ``solver_features=True`` appends the solver features
  (:mod:`fivecrowns.envs.features`); ``normalize=True`` scales the vector to about
  [-1, 1] (:func:`~fivecrowns.envs.encoding.observation_scale`).

Examples
--------
>>> import gymnasium
>>> import fivecrowns.envs
>>> env = gymnasium.make("fivecrowns/FiveCrowns-v0", opponents=("greedy",), rounds=[1])
>>> obs, info = env.reset(seed=0)
>>> obs["action_mask"].shape
(114,)
>>> env.close()
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("rl", "fivecrowns.envs.gym (the Gymnasium environment)"):
    import gymnasium
    from gymnasium import spaces

from .._bot_games import _RANDOM_BOT, seat_policy
from .._checks import check_seat
from .._deprecation import RENAMED, warn_deprecated
from .._player import player_action
from .._state import vector_core as _core
from ..actions import ACTION_DISCARD, N_ACTIONS
from ..game import Game
from ..players import Player
from ..registry import BotFactory, parse_bot
from ..rules import N_ROUNDS, Rules
from ._common import (
    ILLEGAL_REWARD,
    Encoder,
    check_options,
    compiled_policies,
    episode_generators,
    episode_seeds,
    render_game,
)

__all__ = ["FiveCrownsEnv", "OpponentLike"]

OpponentLike = Union[str, Player]

# 0.4's table of the opponents' names; the registry (fivecrowns.registry) names them now.
_OLD_BOTS = ("random", "greedy", "strong")
RENAMED["fivecrowns.envs.gym.BOTS"] = "fivecrowns.registry.bot_names()"


def __getattr__(name: str) -> Any:
    if name == "BOTS":
        warn_deprecated("fivecrowns.envs.gym.BOTS", "fivecrowns.registry.bot_names()")
        return {n: parse_bot(n).cls for n in _OLD_BOTS}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class FiveCrownsEnv(gymnasium.Env):
    """One seat of a Five Crowns game against bots.

    Parameters
    ----------
    opponents : sequence of str or Player
        One entry per opponent: a bot spec of the registry (:mod:`fivecrowns.registry`:
        ``"strong"``, ``"expert"``, ``"learned"``, ``"search:worlds=16"``,
        ``"mybots:MyBot"``...), made afresh, seeded from the episode's seed, at every
        reset; or any object with the :class:`~fivecrowns.players.Player` methods. The
        game has ``len(opponents) + 1`` players.
    rounds : sequence of int, optional
        Round numbers to play (default 1..11).
    seat : int
        The agent's seat (0 deals the first round); the opponents take the other seats
        in order.
    rules : Rules, optional
    render_mode : {None, "ansi", "human"}
        ``"ansi"``: :meth:`render` returns the table as text (every hand shown);
        ``"human"``: it prints that text.
    max_turns : int, optional
        Truncate the episode after this many of the agent's turns.
    solver_features : bool
        Append the solver features of :mod:`fivecrowns.envs.features` (62 entries: the
        deadwood each discard leaves, the deadwood after taking the top discard, the
        deadwood now, the unseen cards that complete or improve the hand) to the
        observation vector.
    normalize : bool
        Scale the observation vector to about [-1, 1]
        (:func:`~fivecrowns.envs.encoding.observation_scale`: card counts by the copies in
        the deck, sizes by their largest values, totals by 500); ``observation_space``
        has the scaled bounds.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}
    #: Whether the built-in bots the engine plays (``random``, ``greedy``, ``strong``,
    #: ``expert`` with their defaults) choose their moves in C (the same moves as their
    #: Python classes, far faster); False plays every bot's Python methods.
    compiled_bots: bool = True
    #: Whether a game whose opponents are all bots the engine plays is stepped whole in C
    #: (the vector environment's engine, one game: the agent's move, the bots' moves,
    #: the round ends and the observation in one call): the same observations, rewards
    #: and games as a Python ``Game`` stepped each move (False, which the vector
    #: environment's Python route keeps: the specification), far faster. Reading
    #: :attr:`game` replays the episode into a ``Game`` and plays the rest of the episode
    #: on it, so that the ``Game`` read stays the game being played.
    compiled_game: bool = True

    def __init__(self, opponents: Sequence[OpponentLike] = ("greedy", "greedy", "greedy"),
                 rounds: Sequence[int] | None = None, *, seat: int = 0,
                 rules: Rules | None = None, render_mode: str | None = None,
                 max_turns: int | None = None, solver_features: bool = False,
                 normalize: bool = False) -> None:
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise TypeError(f"opponents must be a sequence of bot names or players, "
                            f"got {opponents!r}")
        factories: list[BotFactory | None] = []
        for opp in opponents:
            if isinstance(opp, str):
                try:
                    factories.append(parse_bot(opp).factory())
                except ValueError as exc:
                    raise ValueError(f"opponent {opp!r}: {exc}") from None
                continue
            factories.append(None)
            if not (callable(getattr(opp, "choose_draw", None))
                      and callable(getattr(opp, "choose_discard", None))):
                raise TypeError(f"an opponent must be a bot name or have choose_draw and "
                                f"choose_discard, got {type(opp).__name__}")
        n = len(opponents) + 1
        self._rounds, self._rules = check_options(n, rounds, rules, render_mode, max_turns,
                                                  self.metadata["render_modes"])
        seat = check_seat(seat, n, "seat")
        self.n_players = n
        self.seat = seat
        self.opponents = tuple(opponents)
        self._factories = tuple(factories)
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.solver_features = solver_features
        self.normalize = normalize
        self._encode = Encoder(n, solver_features, normalize, self._rules.decks)
        self.observation_space = self._encode.space()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._game: Game | None = None
        self._bots: dict[int, Any] = {}
        # The seats of the bots the engine plays, whose moves are chosen in C (the same
        # moves, tests/test_envs_gym.py), and by seat their policy and RandomBot
        # generator (None for the others), as Game._run_policies takes them.
        self._compiled: frozenset[int] = frozenset()
        self._policies: tuple[int | None, ...] = ()
        self._choices: tuple[Any, ...] = ()
        self._turns = 0
        # The engine route (compiled_game): the opponents' policies (None: a bot the
        # engine does not play), the one game in C (made at the first reset that uses
        # it) and its row buffers; the episode's seeds and the agent's legal moves, from
        # which `game` replays the episode into self._game when it is read.
        self._engine_policies = compiled_policies(self.opponents) if _core else None
        self._engine: Any = None
        self._engine_key: tuple[int, int | None] = (seat, max_turns)
        # Held across each use of the engine's game and the moves beside it: two threads
        # stepping one environment take turns, and `game` replays the moves in the
        # engine's order.
        self._lock = threading.Lock()
        self._vobs = np.zeros(self._encode.low.shape[0], dtype=np.float32)
        self._vmask = np.zeros(N_ACTIONS, dtype=np.int8)
        self._on_engine = False
        self._seeds: tuple[int, tuple[int, ...]] = (0, ())
        self._moves: list[int] = []

    @property
    def game(self) -> Game:
        """The :class:`~fivecrowns.game.Game` being played (after :meth:`reset`)."""
        if self._on_engine:
            self._leave_engine()
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def _leave_engine(self) -> None:
        """Replay the engine's episode into a Python ``Game`` (the episode's table made
        from its seeds, then the agent's moves, each followed by the bots': the engine's
        moves, tests/test_envs_gym.py), and play the rest of the episode on it."""
        with self._lock:
            if not self._on_engine:
                return
            self._new_table()
            self._play_bots()
            self._turns = 0   # the engine counts them itself: the replay counts them here
            for a in self._moves:
                self._move(a)
            self._on_engine = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        super().reset(seed=seed)
        self._turns = 0
        self._game = None
        self._moves = []
        policies = self._engine_policies
        self._on_engine = False
        self._seeds = episode_seeds(self.np_random, len(self.opponents))
        if policies is not None and self.compiled_bots and self.compiled_game:
            game_rng, choices = episode_generators(self._seeds, self.seat, policies,
                                                   self.n_players)
            with self._lock:
                engine = self._engine_game()
                engine.provide(0, game_rng, choices)
                engine.begin_one(0, self._vobs, self._vmask)
                self._on_engine = True
                return self._obs(), self._info()
        self._new_table()
        self._play_bots()  # no round can end before the agent's first turn
        return self._obs(), self._info()

    def __getstate__(self) -> dict[str, Any]:
        """What ``copy``, ``deepcopy`` and ``pickle`` take: the engine's game is C memory,
        so an episode in play there is replayed into a ``Game`` first (the rest of it is
        then played in Python, here and in the copy); the copy makes its own engine game
        at its next reset."""
        if self._on_engine:
            self._leave_engine()
        state = self.__dict__.copy()
        state["_engine"] = state["_lock"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _engine_game(self) -> Any:
        """The one game the engine steps (made at its first use, and again if the seat
        or ``max_turns`` were changed since)."""
        key = (self.seat, self.max_turns)
        if self._engine is None or key != self._engine_key:
            assert _core is not None and self._engine_policies is not None
            rules = self._rules
            plan = self._rounds if self._rounds is not None else range(1, N_ROUNDS + 1)
            self._engine = _core.VectorGames(
                1, self.n_players, [self.seat], self._engine_policies, rules.decks,
                rules.max_turns, rules.return_discard, list(plan), self.max_turns or 0, 0,
                self._encode.scale, self.solver_features)
            self._engine_key = key
        return self._engine

    def _new_table(self) -> None:
        """The episode's game and bots, made from its seeds, and which bots the engine
        plays (by seat, their policies and RandomBot generators)."""
        game_seed, bot_seeds = self._seeds
        self._game = Game(self.n_players, seed=game_seed, rules=self._rules,
                          rounds=self._rounds)
        others = [s for s in range(self.n_players) if s != self.seat]
        self._bots = {}
        for s, opp, factory, seed in zip(others, self.opponents, self._factories,
                                         bot_seeds):
            self._bots[s] = opp if factory is None else factory(seed)
        policies: list[int | None] = [None] * self.n_players
        choices: list[Any] = [None] * self.n_players
        if _core is not None and self.compiled_bots:
            for s, bot in self._bots.items():
                policies[s] = code = seat_policy(bot)
                if code == _RANDOM_BOT:
                    choices[s] = bot.rng.bit_generator
        self._policies, self._choices = tuple(policies), tuple(choices)
        self._compiled = frozenset(s for s, code in enumerate(policies) if code is not None)

    def _play_bots(self) -> float:
        """Let the bots move until it is the agent's turn; the agent's reward meanwhile."""
        game = self._game
        assert game is not None
        reward = 0.0
        while not game.is_over and game.current_player != self.seat:
            s = game.current_player
            done = game.round_index
            if s in self._compiled:
                # the engine's bots move in C until the agent's turn, a Python bot's or
                # the round's end
                game._run_policies(self.seat, self._policies, self._choices)
            else:
                game.apply_action(player_action(self._bots[s], game.observation(s)),
                                  player=s)
            if game.round_index > done:
                reward -= game.results[-1].scores[self.seat]
        return reward

    def _obs(self) -> dict[str, npt.NDArray[Any]]:
        if self._on_engine:
            return {"observation": self._vobs.copy(), "action_mask": self._vmask.copy()}
        game = self.game
        vec = self._encode(game, self.seat)
        if game.is_over:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        else:
            mask = game.legal_action_mask().view(np.int8)
        return {"observation": vec, "action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent now, a (114,) bool array (all False once the
        game is over): the mask of ``obs["action_mask"]``, for sb3-contrib's
        ``MaskablePPO``, which calls this method of the environment.

        >>> env = FiveCrownsEnv(opponents=("greedy",), rounds=[1])
        >>> _ = env.reset(seed=0)
        >>> env.action_masks()[:2].tolist()    # draw from the deck or the discard pile
        [True, True]
        """
        if self._on_engine:
            return self._vmask.astype(np.bool_)
        game = self.game
        if game.is_over:
            return np.zeros(N_ACTIONS, dtype=np.bool_)
        return game.legal_action_mask()

    def _info(self) -> dict[str, Any]:
        if self._on_engine:
            return {"totals": self._engine.totals(0), "seat": self.seat}
        return {"totals": self.game.totals, "seat": self.seat}

    def step(self, action: int) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool,
                                         dict[str, Any]]:
        if self._on_engine:
            with self._lock:
                if self._on_engine:   # not left for a Python Game meanwhile
                    return self._engine_step(int(action))
        game = self.game
        if game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        if not (0 <= a < N_ACTIONS and game.legal_action_mask()[a]):
            info = self._info()
            info["illegal_action"] = a
            return self._obs(), ILLEGAL_REWARD, True, False, info
        reward = self._move(a)
        truncated = (self.max_turns is not None and self._turns >= self.max_turns
                     and not game.is_over)
        return self._obs(), reward, game.is_over, truncated, self._info()

    def _move(self, a: int) -> float:
        """The agent's legal move ``a`` in the Python game, and the bots' after it; the
        agent's reward."""
        game = self._game
        assert game is not None
        done = game.round_index
        if self._compiled:
            # the agent's move and the engine's bots after it, in one call
            game._run_policies(self.seat, self._policies, self._choices, first=a)
        else:
            game.apply_action(a, player=self.seat)
        reward = 0.0
        if game.round_index > done:
            reward -= game.results[-1].scores[self.seat]
        if a >= ACTION_DISCARD:   # a legal discard: the agent's turn is over
            self._turns += 1
        return reward + self._play_bots()

    def _engine_step(self, a: int) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool,
                                           dict[str, Any]]:
        """``step`` on the engine's game: the same outcome in one call."""
        # a code out of range is no move: -1 is refused as illegal like any other
        reward, terminated, truncated, illegal = self._engine.play_one(
            0, a if 0 <= a < N_ACTIONS else -1, self._vobs, self._vmask)
        info = self._info()
        if illegal:
            info["illegal_action"] = a
            return self._obs(), ILLEGAL_REWARD, True, False, info
        self._moves.append(a)
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_game(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text
