"""Many Five Crowns games stepped in one call: a Gymnasium vector environment
(needs ``fivecrowns[rl]``).

:class:`FiveCrownsVectorEnv` holds ``num_envs`` games, each one seat of
:class:`~fivecrowns.envs.FiveCrownsEnv` (the learner's) against bots named from the
registry, and steps all of them with one array of actions. Game ``i`` plays, episode after
episode, exactly what the single environment plays after ``reset(seed=s)`` with
``s = env.episode_seed(i, k)`` for its ``k``-th episode (a test checks it decision by
decision), so every deal is reproducible from the vector environment's seed alone.

- Observations: ``{"observation": float32 (num_envs, size), "action_mask": int8
  (num_envs, 114)}``; rewards, terminations and truncations: arrays of ``(num_envs,)``.
  The arrays are the environment's own buffers, handed out without a copy and rewritten
  by the next :meth:`~FiveCrownsVectorEnv.step`: copy what you keep.
- Auto-reset in the same step (``gymnasium.vector.AutoresetMode.SAME_STEP``, as
  Stable-Baselines3 expects): a game whose episode ends is dealt its next episode at
  once; the observation returned is the new episode's first, the last one of the ended
  episode is ``infos["final_obs"][i]`` (and its info ``infos["final_info"][i]``), with
  ``infos["_final_obs"][i]`` True.
- An illegal action ends that game's episode with the single environment's reward (-100,
  ``infos["final_info"]["illegal_action"]``); the other games go on.
- :meth:`~FiveCrownsVectorEnv.action_masks`: every game's legal actions as a
  ``(num_envs, 114)`` bool array, for sb3-contrib's ``MaskablePPO``
  (:func:`fivecrowns.envs.sb3.to_sb3` adapts the environment to Stable-Baselines3).

Two routes play the games, the same decisions on the same seeds:

- ``"compiled"`` (chosen when it can be): every game in C, the opponents played there
  between the learner's decisions, the games split over ``threads`` threads with the GIL
  released. It takes the opponents the engine plays (``random``, ``greedy``, ``strong``,
  ``expert`` with their default options).
- ``"python"``: each game a :class:`~fivecrowns.envs.FiveCrownsEnv`, so its opponents may
  be any registry bot (``learned``, ``search``, your own).

``infos["totals"]`` holds every game's running totals, ``(num_envs, n_players)`` int64 (a
buffer too), and ``infos["seat"]`` whose observation each game's row is.

- ``seat``: the learner's seat in every game, or one seat per game (``seat=np.arange(n) %
  4`` rotates the seats, so one policy learns them all).
- ``self_play=True``: every seat of every game is a learner's (``n_players`` of them, no
  bots). A step's action is played by the seat to move in each game, and the observation
  given back is the next mover's (``infos["seat"]``); once an episode has ended (its
  final observation), the mover's. ``rewards[i]`` is the mover's reward, and
  ``infos["seat_rewards"]`` (``(num_envs, n_players)``) what the step gave every seat:
  a round that one seat ends scores them all. The specification is
  :class:`~fivecrowns.envs._self_play.SelfPlayGame`, FiveCrownsEnv without its bots.

Examples
--------
>>> from fivecrowns.envs.vector import FiveCrownsVectorEnv
>>> envs = FiveCrownsVectorEnv(4, opponents=("greedy", "greedy"), rounds=[1])
>>> obs, infos = envs.reset(seed=7)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 372), (4, 114))
>>> actions = envs.action_masks().argmax(axis=1)   # the first legal action of each game
>>> obs, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, terminations.dtype
((4,), dtype('bool'))
>>> envs.close()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("rl", "fivecrowns.envs.vector (the Gymnasium vector environment)"):
    import gymnasium
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

from .._checks import check_int
from .._state import vector_core as _core
from ..actions import N_ACTIONS
from ..rules import Rules
from ..seeding import int_seed
from ._common import compiled_policies
from ._self_play import SelfPlayGame
from ._vector_games import (
    Buffers,
    CompiledGames,
    Ended,
    PythonGames,
    Single,
)
from .gym import FiveCrownsEnv

__all__ = ["FiveCrownsVectorEnv", "MAX_ENVS"]

#: The most games one vector environment holds.
MAX_ENVS = 1 << 20

_Obs = dict[str, npt.NDArray[Any]]
_IMPLEMENTATIONS = ("auto", "compiled", "python")


class FiveCrownsVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of a learner's seat against bots (or of learners in every seat),
    stepped together (see the module).

    Parameters
    ----------
    num_envs : int
        How many games, 1 to :data:`MAX_ENVS`.
    opponents : sequence of str, optional
        One bot spec of the registry per opponent (:mod:`fivecrowns.registry`:
        ``"strong"``, ``"expert"``, ``"search:worlds=8"``...); each game makes its own,
        seeded from its episode's seed. The games have ``len(opponents) + 1`` players.
        Default: three ``"strong"``.
    seat : int or sequence of int, optional
        The learner's seat (default 0), or each game's (``num_envs`` of them).
    self_play : bool
        Every seat a learner's (see the module): no ``opponents`` and no ``seat``.
    n_players : int, optional
        The table's size in self-play (default 4).
    rounds, rules, max_turns, solver_features, normalize
        As for :class:`~fivecrowns.envs.FiveCrownsEnv`, the same for every game.
    max_episode_steps : int, optional
        Truncate an episode after this many steps, as ``gymnasium.make``'s time limit
        does (``gymnasium.make_vec`` passes the registered one, which never cuts a game
        short under the default rules).
    implementation : {"auto", "compiled", "python"}
        The route (see the module): ``"auto"`` takes the compiled one where it can;
        ``"compiled"`` where it cannot is a ``ValueError`` that says why.
    threads : int, optional
        Threads of the compiled route (default: one below 256 games, else every core).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, opponents: Sequence[str] | None = None,
                 rounds: Sequence[int] | None = None, *,
                 seat: int | Sequence[int] | None = None, self_play: bool = False,
                 n_players: int | None = None, rules: Rules | None = None,
                 max_turns: int | None = None, solver_features: bool = False,
                 normalize: bool = False, max_episode_steps: int | None = None,
                 implementation: str = "auto", threads: int | None = None) -> None:
        num_envs = check_int(num_envs, "num_envs", 1)
        self.max_episode_steps = (None if max_episode_steps is None else
                                  check_int(max_episode_steps, "max_episode_steps", 1))
        if num_envs > MAX_ENVS:
            raise ValueError(f"num_envs must be at most {MAX_ENVS:,}, got {num_envs:,}")
        if implementation not in _IMPLEMENTATIONS:
            raise ValueError(f"implementation must be one of {', '.join(_IMPLEMENTATIONS)}, "
                             f"got {implementation!r}")
        if not isinstance(self_play, bool):
            raise TypeError(f"self_play must be a bool, got {self_play!r}")
        options: dict[str, Any] = dict(rules=rules, max_turns=max_turns,
                                       solver_features=solver_features, normalize=normalize)
        singles: Callable[[int], Single]
        if self_play:
            if opponents is not None or seat is not None:
                raise ValueError("self_play=True: every seat is a learner's, so neither "
                                 "opponents nor seat is taken (n_players sets the table)")
            table = 4 if n_players is None else check_int(n_players, "n_players", 2)
            seats = np.full(num_envs, -1, dtype=np.int64)

            def singles(i: int) -> Single:
                return SelfPlayGame(table, rounds, **options)
        else:
            if n_players is not None:
                raise ValueError("n_players is for self_play=True; against bots the "
                                 "opponents set the table's size")
            opponents = ("strong", "strong", "strong") if opponents is None else opponents
            if isinstance(opponents, str) or not isinstance(opponents, Sequence) or not all(
                    isinstance(o, str) for o in opponents):
                raise TypeError(f"opponents must be a sequence of bot specs (str), one per "
                                f"opponent, got {opponents!r}")
            seats = _check_seats(seat, num_envs)
            bots = tuple(opponents)

            def singles(i: int) -> Single:
                return FiveCrownsEnv(bots, rounds, seat=int(seats[i]), **options)

        # the first game validates every option, with the single environment's messages
        first = singles(0)
        max_steps = self.max_episode_steps or 0
        why = _why_not_compiled(first)
        if implementation == "compiled" and why:
            raise ValueError(f"implementation='compiled' cannot play these games: {why}")
        self.implementation = "python" if why or implementation == "python" else "compiled"
        self._games: PythonGames | CompiledGames
        if self.implementation == "compiled":
            policies = (compiled_policies(first.opponents) if isinstance(first, FiveCrownsEnv)
                        else [])
            assert policies is not None
            self._games = CompiledGames(num_envs, first, seats, policies, threads, max_steps)
        else:
            self._games = PythonGames([first] + [singles(i) for i in range(1, num_envs)],
                                      max_steps)
        self.num_envs = num_envs
        self.self_play = self_play
        #: The opponents' specs (``()`` in self-play).
        self.opponents: tuple[Any, ...] = (first.opponents if isinstance(first, FiveCrownsEnv)
                                           else ())
        self.n_players = first.n_players
        #: Each game's learner's seat (-1 in self-play: every seat); :attr:`seat` the
        #: one seat of them all, or None where they differ.
        self.seats = seats
        first_seat = int(seats[0])
        self.seat = first_seat if (seats == first_seat).all() and first_seat >= 0 else None
        self.single_observation_space = first.observation_space
        self.single_action_space = gymnasium.spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._out = Buffers.empty(num_envs, first._encode.low.shape[0], first.n_players)
        self._obs: _Obs = {"observation": self._out.obs, "action_mask": self._out.masks}
        self._episodes = np.zeros(num_envs, dtype=np.int64)
        self._everyone = np.ones(num_envs, dtype=np.bool_)
        self._seed: int | None = None

    # -- seeds ------------------------------------------------------------------------------

    def episode_seed(self, i: int, k: int) -> int:
        """The seed of game ``i``'s ``k``-th episode (from 0): the single environment's
        ``reset(seed=...)`` for it. Set by :meth:`reset`'s ``seed``."""
        if self._seed is None:
            raise RuntimeError("call reset() before asking for an episode's seed")
        i = check_int(i, "i", 0)
        k = check_int(k, "k", 0)
        if i >= self.num_envs:
            raise ValueError(f"i must be 0..{self.num_envs - 1}, got {i}")
        return self._seed_of(i, k)

    def _seed_of(self, i: int, k: int) -> int:
        state = np.random.SeedSequence(self._seed, spawn_key=(i, k)).generate_state(
            2, np.uint32)
        return (int(state[0]) | int(state[1]) << 32) >> 1

    # -- the Gymnasium API ------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[_Obs, dict[str, Any]]:
        """Deal every game its first episode. ``seed``: an int >= 0 (the run's seed, from
        which every episode's deal follows); ``None`` draws one at random (readable as
        :attr:`seed`)."""
        if options:
            raise ValueError(f"reset takes no options, got {options!r}")
        # None: a fresh seed from the OS's entropy, kept (self.seed) so the run can be redone
        self._seed = (int_seed(np.random.default_rng().integers(2**63)) if seed is None
                      else int_seed(seed))
        self._episodes[:] = 0
        self._games.start(self._seed_of, self._out, self._seed)
        return self._obs, self._infos()

    @property
    def seed(self) -> int | None:
        """The seed of the last :meth:`reset` (``None`` before the first)."""
        return self._seed

    def step(self, actions: npt.ArrayLike) -> tuple[_Obs, npt.NDArray[np.float64],
                                                    npt.NDArray[np.bool_],
                                                    npt.NDArray[np.bool_], dict[str, Any]]:
        """Apply ``actions[i]`` in game ``i`` for every game; see the module for what comes
        back. ``actions``: integers of shape ``(num_envs,)``."""
        if self._seed is None:
            raise RuntimeError("call reset() before step()")
        acts = _check_actions(actions, self.num_envs)
        ended = self._games.step(acts, self._out, self._seed_of, self._episodes)
        infos = self._infos()
        if ended:
            infos.update(_final_infos(ended, self.num_envs))
            for e in ended:
                self._episodes[e.game] += 1
        out = self._out
        return self._obs, out.rewards, out.terminations, out.truncations, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions now, a ``(num_envs, 114)`` bool array (a view of the
        observation's masks)."""
        if self._seed is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._obs["action_mask"].view(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        self._games.close()

    # -- internals --------------------------------------------------------------------------

    def _infos(self) -> dict[str, Any]:
        infos = {"totals": self._out.totals, "_totals": self._everyone,
                 "seat": self._out.seats, "_seat": self._everyone}
        if self.self_play:
            infos.update(seat_rewards=self._out.seat_rewards, _seat_rewards=self._everyone)
        return infos


def _final_infos(ended: Sequence[Ended], n: int) -> dict[str, Any]:
    """``final_obs`` and ``final_info`` of the games whose episodes ended, with their
    masks, as Gymnasium's ``VectorEnv._add_info`` builds them game by game (an object
    array of observations; an array per info key, by the value's type, with a ``_key``
    mask), in one pass."""
    final_obs = np.full(n, None, dtype=object)
    final_info: dict[str, Any] = {}
    for e in ended:
        final_obs[e.game] = e.obs
        for key, value in e.info.items():
            if key not in final_info:
                if type(value) in (int, float, bool) or isinstance(value, np.number):
                    final_info[key] = np.zeros(n, dtype=type(value))
                elif isinstance(value, np.ndarray):
                    final_info[key] = np.zeros((n, *value.shape), dtype=value.dtype)
                else:
                    final_info[key] = np.full(n, None, dtype=object)
                final_info[f"_{key}"] = np.zeros(n, dtype=np.bool_)
            final_info[key][e.game] = value
            final_info[f"_{key}"][e.game] = True
    games = np.zeros(n, dtype=np.bool_)
    games[[e.game for e in ended]] = True
    return {"final_obs": final_obs, "_final_obs": games, "final_info": final_info,
            "_final_info": games.copy()}


def _check_seats(seat: int | Sequence[int] | None, n: int) -> npt.NDArray[np.int64]:
    """Each game's learner's seat: one for all (default 0), or one per game. (The single
    environment checks each against the table.)"""
    if seat is None:
        return np.zeros(n, dtype=np.int64)
    if isinstance(seat, (int, np.integer)) and not isinstance(seat, bool):
        return np.full(n, int(seat), dtype=np.int64)
    seats = np.asarray(seat)
    if seats.dtype == np.bool_ or not np.issubdtype(seats.dtype, np.integer):
        raise TypeError(f"seat must be an int or a sequence of ints (one per game), "
                        f"got {seat!r}")
    if seats.shape != (n,):
        raise ValueError(f"seat: one per game, {n} of them, got shape {seats.shape}")
    return seats.astype(np.int64)


def _why_not_compiled(env: Single) -> str:
    """Why the compiled route cannot play ``env``'s games ("" if it can)."""
    if _core is None:
        return "the compiled core is not in use (fivecrowns.IMPLEMENTATION is 'python')"
    if isinstance(env, FiveCrownsEnv) and compiled_policies(env.opponents) is None:
        return (f"the engine plays random, greedy, strong and expert with their default "
                f"options; the opponents are {', '.join(map(repr, env.opponents))}")
    return ""


def _check_actions(actions: npt.ArrayLike, n: int) -> npt.NDArray[np.int64]:
    """``actions`` as ``n`` int64s, or a clear error: integers only (a bool or float array
    is a TypeError), of shape ``(n,)``. A value that is no legal move is left to the
    game, which ends its episode with the illegal-action reward."""
    a = np.asarray(actions)
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"actions must be an integer array, got dtype {a.dtype}")
    if a.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), one per game, got {a.shape}")
    return a.astype(np.int64, copy=False)
