"""The two routes of :class:`~fivecrowns.envs.vector.FiveCrownsVectorEnv`: the games it
holds and how one call steps them all.

- :class:`PythonGames`, the specification: each game a
  :class:`~fivecrowns.envs.FiveCrownsEnv`, any opponent the registry names (in self-play,
  a :class:`~fivecrowns.envs._self_play.SelfPlayGame`).
- :class:`CompiledGames`: every game in C (``_vecgames.VectorGames``), the opponents played
  there between the learner's decisions, the games split over threads with the GIL
  released. It takes opponents the engine plays (``_bot_games.seat_policy``); it plays
  what :class:`PythonGames` plays, decision by decision
  (tests/test_envs_vector.py).

Both write into the environment's buffers (:class:`Buffers`) and give back, for each game
whose episode ended in the step, its last observation and info.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .._optional import requires

with requires("rl", "fivecrowns.envs.vector (the Gymnasium vector environment)"):
    from gymnasium.utils.seeding import np_random

from .._checks import default_threads
from .._state import vector_core as _core
from ..actions import N_ACTIONS
from ..rules import N_ROUNDS, Rules
from ._common import episode_generators, episode_seeds
from ._self_play import SelfPlayGame
from .gym import FiveCrownsEnv

__all__ = ["Buffers", "Ended", "PythonGames", "CompiledGames"]

# Below this many games one thread steps them all (starting threads would cost more).
_SERIAL_GAMES = 256


@dataclass
class Buffers:
    """The arrays a step writes, one row per game, handed out without a copy."""

    obs: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    rewards: npt.NDArray[np.float64]
    terminations: npt.NDArray[np.bool_]
    truncations: npt.NDArray[np.bool_]
    totals: npt.NDArray[np.int64]
    seats: npt.NDArray[np.int64]            # whose observation each row is
    seat_rewards: npt.NDArray[np.float64]   # what the step gave each seat (self-play)

    @classmethod
    def empty(cls, n: int, size: int, n_players: int) -> Buffers:
        return cls(np.zeros((n, size), dtype=np.float32), np.zeros((n, N_ACTIONS), np.int8),
                   np.zeros(n, np.float64), np.zeros(n, np.bool_), np.zeros(n, np.bool_),
                   np.zeros((n, n_players), np.int64), np.zeros(n, np.int64),
                   np.zeros((n, n_players), np.float64))


@dataclass
class Ended:
    """A game whose episode ended in a step: its last observation and info."""

    game: int
    obs: dict[str, npt.NDArray[Any]]
    info: dict[str, Any] = field(default_factory=dict)


SeedOf = Callable[[int, int], int]
Single = FiveCrownsEnv | SelfPlayGame


class PythonGames:
    """Each game a :class:`~fivecrowns.envs.FiveCrownsEnv` (in self-play a
    :class:`SelfPlayGame`); ``max_steps``: the vector env's time limit (0: none)."""

    def __init__(self, games: list[Single], max_steps: int) -> None:
        for game in games:
            if isinstance(game, FiveCrownsEnv):
                # the specification steps a Python Game, not the engine's game
                game.compiled_game = False
        self.games = games
        self.max_steps = max_steps
        self.steps = np.zeros(len(games), dtype=np.int64)

    def start(self, seed_of: SeedOf, out: Buffers, run_seed: int) -> None:
        """Deal every game its first episode (``run_seed``: ``seed_of``'s, unused here)."""
        for i in range(len(self.games)):
            self._begin(i, seed_of(i, 0), out)

    def _begin(self, i: int, seed: int, out: Buffers) -> None:
        obs, info = self.games[i].reset(seed=seed)
        self.steps[i] = 0
        out.obs[i] = obs["observation"]
        out.masks[i] = obs["action_mask"]
        out.totals[i] = info["totals"]
        out.seats[i] = info["seat"]

    def step(self, actions: npt.NDArray[np.int64], out: Buffers, seed_of: SeedOf,
             episodes: npt.NDArray[np.int64]) -> list[Ended]:
        """Step every game; a game whose episode ends is dealt its next one
        (``seed_of(i, episodes[i] + 1)``)."""
        ended = []
        for i, game in enumerate(self.games):
            obs, reward, terminated, truncated, info = game.step(int(actions[i]))
            self.steps[i] += 1
            if self.max_steps and self.steps[i] >= self.max_steps:
                truncated = True
            out.rewards[i] = reward
            if "seat_rewards" in info:
                out.seat_rewards[i] = info["seat_rewards"]
            out.seats[i] = info["seat"]
            out.terminations[i] = terminated
            out.truncations[i] = truncated
            out.totals[i] = info["totals"]
            out.obs[i] = obs["observation"]
            out.masks[i] = obs["action_mask"]
            if terminated or truncated:
                if isinstance(game, SelfPlayGame):  # the vector's time limit: the mover's
                    info["seat"] = info["actor"]
                    obs = game.observe(info["actor"])
                ended.append(Ended(i, obs, _final_info(info)))
                self._begin(i, seed_of(i, int(episodes[i]) + 1), out)
        return ended

    def close(self) -> None:
        self.games = []


def _final_info(info: dict[str, Any]) -> dict[str, Any]:
    final = dict(info)
    final["totals"] = np.array(info["totals"], dtype=np.int64)
    if "seat_rewards" in final:
        final["seat_rewards"] = np.array(info["seat_rewards"], dtype=np.float64)
    return final


class CompiledGames:
    """Every game in C: game ``i`` is ``env``'s with the learner in ``seats[i]`` against
    the opponents ``policies`` (engine numbers, in seat order), or in self-play (no
    policies, every seat -1) a :class:`SelfPlayGame`'s; ``max_steps``: the vector env's
    time limit (0: none)."""

    def __init__(self, n: int, env: Single, seats: npt.NDArray[np.int64],
                 policies: Sequence[int], threads: int | None, max_steps: int) -> None:
        assert _core is not None
        rules: Rules = env._rules
        plan = env._rounds if env._rounds is not None else tuple(range(1, N_ROUNDS + 1))
        scale = env._encode.scale
        self.n_players = env.n_players
        self.self_play = not policies
        self.seats = seats
        self._policies = list(policies)
        self.threads = default_threads(threads, n, _SERIAL_GAMES)
        # The same threads every step: the engine's memos of solved hands are per thread,
        # and a thread made afresh each step would start with them empty.
        self._pool = (ThreadPoolExecutor(self.threads, thread_name_prefix="fivecrowns-vec")
                      if self.threads > 1 else None)
        # a few pieces a thread, so that a slow piece does not hold the others up
        pieces = min(n, 4 * self.threads)
        self._pieces = [(k * n // pieces, (k + 1) * n // pieces) for k in range(pieces)]
        self.games = _core.VectorGames(
            n, env.n_players, seats.tolist(), list(policies), rules.decks, rules.max_turns,
            rules.return_discard, list(plan), env.max_turns or 0, max_steps, scale,
            env.solver_features)
        size = self.games.size
        self._actions = np.zeros(n, dtype=np.int64)
        self._illegal = np.zeros(n, dtype=np.int32)
        self._actors = np.zeros(n, dtype=np.int32)
        self._derived = False
        self._ended = np.zeros(n, dtype=np.uint8)
        self._final_obs = np.zeros((n, size), dtype=np.float32)
        self._final_masks = np.zeros((n, N_ACTIONS), dtype=np.int8)

    def provide(self, i: int, seed: int) -> None:
        """Game ``i``'s generators for the episode that ``FiveCrownsEnv.reset(seed=seed)``
        deals: the game's (``Game``'s ``default_rng``), then each opponent's seed in seat
        order, drawn whether it is used or not, a RandomBot's generator kept."""
        rng, _ = np_random(seed)
        seeds = episode_seeds(rng, len(self._policies))
        game, choices = episode_generators(seeds, int(self.seats[i]), self._policies,
                                           self.n_players)
        self.games.provide(i, game, choices)

    def start(self, seed_of: SeedOf, out: Buffers, run_seed: int) -> None:
        """Deal every game its first episode. The engine derives every episode's
        generators from ``run_seed`` itself, as :meth:`provide` does from ``seed_of``
        (its words bounded: a seed past 2**2048 has them given here, episode by
        episode)."""
        games = self.games
        self._derived = run_seed < 1 << 2048
        if self._derived:
            games.seed(run_seed)
        else:
            for i in range(games.n):
                self.provide(i, seed_of(i, 0))

        def piece(a: int, b: int) -> None:
            games.begin(out.obs, out.masks, out.seats, a, b)

        self._run(piece)
        out.totals[:] = 0
        if not self._derived:
            for i in range(games.n):
                self.provide(i, seed_of(i, 1))

    def step(self, actions: npt.NDArray[np.int64], out: Buffers, seed_of: SeedOf,
             episodes: npt.NDArray[np.int64]) -> list[Ended]:
        """Step every game; a game whose episode ends is dealt its next one in C (from
        the generators given ahead), and given the generators of the one after."""
        np.copyto(self._actions, actions)
        games = self.games
        terms = out.terminations.view(np.uint8)
        truncs = out.truncations.view(np.uint8)

        def piece(a: int, b: int) -> None:
            games.step(self._actions, out.obs, out.masks, out.rewards, out.seat_rewards,
                       terms, truncs, self._illegal, self._actors, out.seats,
                       self._final_obs, self._final_masks, self._ended, out.totals, a, b)

        self._run(piece)
        ended = []
        for i in np.flatnonzero(self._ended).tolist():
            actor = int(self._actors[i])
            info: dict[str, Any] = {"totals": out.totals[i].copy(), "seat": actor}
            if self._illegal[i] >= 0:
                info["illegal_action"] = int(self._illegal[i])
            if self.self_play:
                info["actor"] = actor
                info["seat_rewards"] = out.seat_rewards[i].copy()
            obs = {"observation": self._final_obs[i].copy(),
                   "action_mask": self._final_masks[i].copy()}
            ended.append(Ended(i, obs, info))
            out.totals[i] = 0  # the next episode's
            if not self._derived:
                self.provide(i, seed_of(i, int(episodes[i]) + 2))
        return ended

    def _run(self, piece: Callable[[int, int], None]) -> None:
        """``piece`` over every game: on the pool's threads (each piece releases the GIL
        in C), or here."""
        if self._pool is None:
            piece(0, self.games.n)
            return
        futures = [self._pool.submit(piece, a, b) for a, b in self._pieces]
        for f in futures:
            f.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
