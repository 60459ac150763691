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

This is the environment's pure-Python implementation: each game is a
:class:`~fivecrowns.envs.FiveCrownsEnv`, so its opponents may be any registry bot.

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

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("rl", "fivecrowns.envs.vector (the Gymnasium vector environment)"):
    import gymnasium
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

from .._checks import check_int
from ..actions import N_ACTIONS
from ..rules import Rules
from ..seeding import int_seed
from .gym import FiveCrownsEnv

__all__ = ["FiveCrownsVectorEnv", "MAX_ENVS"]

#: The most games one vector environment holds.
MAX_ENVS = 1 << 20

_Obs = dict[str, npt.NDArray[Any]]


class FiveCrownsVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one seat against bots, stepped together (see the module).

    Parameters
    ----------
    num_envs : int
        How many games, 1 to :data:`MAX_ENVS`.
    opponents : sequence of str
        One bot spec of the registry per opponent (:mod:`fivecrowns.registry`:
        ``"strong"``, ``"expert"``, ``"search:worlds=8"``...); each game makes its own,
        seeded from its episode's seed. The games have ``len(opponents) + 1`` players.
    rounds, seat, rules, max_turns, solver_features, normalize
        As for :class:`~fivecrowns.envs.FiveCrownsEnv`, the same for every game.
    max_episode_steps : int, optional
        Truncate an episode after this many steps, as ``gymnasium.make``'s time limit
        does (``gymnasium.make_vec`` passes the registered one, which never cuts a game
        short under the default rules).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, opponents: Sequence[str] = ("strong", "strong", "strong"),
                 rounds: Sequence[int] | None = None, *, seat: int = 0,
                 rules: Rules | None = None, max_turns: int | None = None,
                 solver_features: bool = False, normalize: bool = False,
                 max_episode_steps: int | None = None) -> None:
        num_envs = check_int(num_envs, "num_envs", 1)
        self.max_episode_steps = (None if max_episode_steps is None else
                                  check_int(max_episode_steps, "max_episode_steps", 1))
        if num_envs > MAX_ENVS:
            raise ValueError(f"num_envs must be at most {MAX_ENVS:,}, got {num_envs:,}")
        if isinstance(opponents, str) or not isinstance(opponents, Sequence) or not all(
                isinstance(o, str) for o in opponents):
            raise TypeError(f"opponents must be a sequence of bot specs (str), one per "
                            f"opponent, got {opponents!r}")
        # the first game validates every option, with the single environment's messages
        self._games = [FiveCrownsEnv(tuple(opponents), rounds, seat=seat, rules=rules,
                                     max_turns=max_turns, solver_features=solver_features,
                                     normalize=normalize) for _ in range(num_envs)]
        first = self._games[0]
        self.num_envs = num_envs
        self.opponents = first.opponents
        self.n_players, self.seat = first.n_players, first.seat
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size = first._encode.low.shape[0]
        self._obs: _Obs = {"observation": np.zeros((num_envs, size), dtype=np.float32),
                           "action_mask": np.zeros((num_envs, N_ACTIONS), dtype=np.int8)}
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._episodes = np.zeros(num_envs, dtype=np.int64)
        self._steps = np.zeros(num_envs, dtype=np.int64)
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
        self._steps[:] = 0
        infos: dict[str, Any] = {}
        for i, game in enumerate(self._games):
            obs, info = game.reset(seed=self.episode_seed(i, 0))
            self._put(i, obs)
            infos = self._add_info(infos, info, i)
        return self._obs, infos

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
        infos: dict[str, Any] = {}
        for i, game in enumerate(self._games):
            obs, reward, terminated, truncated, info = game.step(int(acts[i]))
            self._steps[i] += 1
            if self.max_episode_steps is not None and self._steps[i] >= self.max_episode_steps:
                truncated = True
            self._rewards[i] = reward
            self._terminations[i] = terminated
            self._truncations[i] = truncated
            if terminated or truncated:
                infos = self._add_info(infos, {"final_obs": obs, "final_info": info}, i)
                self._episodes[i] += 1
                self._steps[i] = 0
                obs, info = game.reset(seed=self.episode_seed(i, int(self._episodes[i])))
            self._put(i, obs)
            infos = self._add_info(infos, info, i)
        return self._obs, self._rewards, self._terminations, self._truncations, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal actions now, a ``(num_envs, 114)`` bool array (a view of the
        observation's masks)."""
        if self._seed is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._obs["action_mask"].view(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        self._games = []

    # -- internals --------------------------------------------------------------------------

    def _put(self, i: int, obs: _Obs) -> None:
        self._obs["observation"][i] = obs["observation"]
        self._obs["action_mask"][i] = obs["action_mask"]


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
