"""Agent steps per second through each framework adapter, and through the raw engine.

Every loop plays random legal actions, 4 players, whole 11-round games; the adapters build
the observation every step (PettingZoo: ``env.last()``; Gymnasium: ``step``'s
observation; OpenSpiel: the observation tensor and the legal actions). The rows:

- ``raw Round``: :class:`fivecrowns.round.Round`'s own ``legal_actions`` +
  ``apply_action`` loop, with no observation;
- ``PettingZoo aec_env``: what :func:`fivecrowns.envs.aec_env` returns (``raw_env``
  with the wrappers' guarantees built in);
- ``PettingZoo raw_env``: ``raw_env`` constructed directly (the same class);
- ``PettingZoo wrapped``: ``raw_env`` inside PettingZoo's ``TerminateIllegalWrapper``,
  ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (what ``aec_env`` returned
  before 0.2), for comparison;
- ``Gymnasium``: :class:`~fivecrowns.envs.gym.FiveCrownsEnv` against three ``"random"``
  bots, counting the agent's steps (the bots' moves are in the time);
- ``OpenSpiel``: ``python_five_crowns``, counting player steps (chance nodes in the time).

Run with::

    python -m pytest benchmarks/bench_envs.py --benchmark-only

or as a script for a small table (``--quick`` for a short run)::

    python benchmarks/bench_envs.py

The script reports steps per second of CPU time of this process (one core), the best of
three timings of each loop. It needs ``fivecrowns[rl]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from fivecrowns.round import Round

PLAYERS = 4


def raw_steps(games: int, seed: int = 0) -> int:
    """Random legal actions on Rounds 1..11 (no observation); the steps played."""
    rng = np.random.default_rng(seed)
    steps = 0
    for g in range(games):
        for r in range(1, 12):
            rnd = Round(PLAYERS, r, seed=seed * 1000 + g * 11 + r, dealer=(r - 1) % PLAYERS)
            while not rnd.is_over:
                acts = rnd.legal_actions()
                rnd.apply_action(acts[int(rng.integers(len(acts)))])
                steps += 1
    return steps


def _pettingzoo_wrapped(n: int) -> object:
    from pettingzoo.utils import wrappers

    from fivecrowns.envs import raw_env

    env = wrappers.TerminateIllegalWrapper(raw_env(n), illegal_reward=-100.0)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def aec_steps(games: int, seed: int = 0, *, make: str = "aec_env") -> int:
    """Random legal actions through the PettingZoo env (``aec_env``, ``raw_env``, or
    ``wrapped``: raw_env in PettingZoo's standard wrappers); the agent steps played."""
    from fivecrowns.envs import aec_env, raw_env

    rng = np.random.default_rng(seed)
    env: Any = {"aec_env": aec_env, "raw_env": raw_env,
                "wrapped": _pettingzoo_wrapped}[make](PLAYERS)
    steps = 0
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.integers(legal.size))]))
            steps += 1
    return steps


def openspiel_steps(games: int, seed: int = 0) -> int:
    """Random legal actions (and chance outcomes) on ``python_five_crowns``; player steps."""
    import pyspiel

    import fivecrowns.envs.openspiel  # noqa: F401

    rng = np.random.default_rng(seed)
    game = pyspiel.load_game("python_five_crowns", {"players": PLAYERS})
    steps = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                acts = [a for a, _ in outcomes]
                probs = np.array([p for _, p in outcomes])
                state.apply_action(acts[int(rng.choice(len(acts), p=probs / probs.sum()))])
                continue
            state.observation_tensor()
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
            steps += 1
    return steps


def raw_aec_steps(games: int, seed: int = 0) -> int:
    """:func:`aec_steps` on ``raw_env``."""
    return aec_steps(games, seed, make="raw_env")


def wrapped_aec_steps(games: int, seed: int = 0) -> int:
    """:func:`aec_steps` on ``raw_env`` in PettingZoo's three standard wrappers."""
    return aec_steps(games, seed, make="wrapped")


def gym_steps(games: int, seed: int = 0) -> int:
    """Random legal actions of the agent (seat 0) against three random bots; agent steps."""
    from fivecrowns.envs.gym import FiveCrownsEnv

    rng = np.random.default_rng(seed)
    env = FiveCrownsEnv(("random",) * (PLAYERS - 1))
    steps = 0
    for g in range(games):
        obs, _info = env.reset(seed=seed * 1000 + g)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _reward, terminated, truncated, _info = env.step(
                int(legal[int(rng.integers(legal.size))]))
            done = terminated or truncated
            steps += 1
    return steps


LOOPS: dict[str, Callable[[int, int], int]] = {
    "raw Round": raw_steps, "PettingZoo aec_env": aec_steps,
    "PettingZoo raw_env": raw_aec_steps, "PettingZoo wrapped": wrapped_aec_steps,
    "Gymnasium": gym_steps, "OpenSpiel": openspiel_steps}


@pytest.mark.parametrize("name", list(LOOPS))
def test_steps(benchmark: object, name: str) -> None:
    pytest.importorskip("pettingzoo", reason="needs fivecrowns[rl]")
    pytest.importorskip("pyspiel", reason="needs fivecrowns[rl]")
    benchmark.group = "envs"  # type: ignore[attr-defined]
    benchmark.pedantic(LOOPS[name], args=(1, 0), rounds=3, iterations=1)  # type: ignore[attr-defined]


def main(argv: list[str]) -> None:
    games = 1 if "--quick" in argv else 3
    print(f"{'loop':<20} {'steps':>8} {'steps/s':>10}")
    for name, loop in LOOPS.items():
        loop(1, 99)  # warm up
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            steps = loop(games, 0)
            best = min(best, time.process_time() - t0)
        print(f"{name:<20} {steps:>8} {steps / best:>10,.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])


# -- The cost of the solver features (fivecrowns.envs.features) --------------------------


def _feature_positions(seed: int = 0) -> list[tuple[Round, int]]:
    """(round, player to act) at every move of random legal play, 4 players, rounds
    1..11: a copy of each position, half of them in the discard phase."""
    rng = np.random.default_rng(seed)
    out = []
    for r in range(1, 12):
        rnd = Round(PLAYERS, r, seed=seed * 1000 + r)
        while not rnd.is_over:
            out.append((rnd.clone(), rnd.current_player))
            acts = rnd.legal_actions()
            rnd.apply_action(acts[int(rng.integers(len(acts)))])
    return out


def feature_encoding_cost(seed: int = 0) -> dict[str, float]:
    """Microseconds of CPU per call, over the positions of :func:`_feature_positions`
    (best of three): the observation, the encoding without and with the features, and the
    features alone from the observation and from the round."""
    from fivecrowns.envs.encoding import encode_observation
    from fivecrowns.envs.features import observation_features, round_features

    positions = _feature_positions(seed)
    observations = [rnd.observation(p) for rnd, p in positions]
    calls: dict[str, Callable[[], object]] = {
        "observation()": lambda: [rnd.observation(p) for rnd, p in positions],
        "encode": lambda: [encode_observation(o) for o in observations],
        "encode features=True": lambda: [encode_observation(o, features=True)
                                         for o in observations],
        "observation_features": lambda: [observation_features(o) for o in observations],
        "round_features": lambda: [round_features(rnd, p) for rnd, p in positions],
    }
    out = {}
    for name, call in calls.items():
        call()  # warm up (and the observations' lazy counts)
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            call()
            best = min(best, time.process_time() - t0)
        out[name] = best / len(positions) * 1e6
    return out


def gym_feature_steps(games: int = 3, seed: int = 0) -> dict[str, float]:
    """Agent steps per CPU second of the Gymnasium env against three GreedyBots, random
    legal actions, without and with ``solver_features=True, normalize=True``."""
    from fivecrowns.envs.gym import FiveCrownsEnv

    out = {}
    for label, on in (("Gymnasium vs greedy", False), ("  + features, normalize", True)):
        env = FiveCrownsEnv(("greedy",) * (PLAYERS - 1), solver_features=on, normalize=on)
        rng = np.random.default_rng(seed)
        steps = 0
        t0 = time.process_time()
        for g in range(games):
            obs, _info = env.reset(seed=seed * 1000 + g)
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, _r, terminated, truncated, _info = env.step(
                    int(legal[int(rng.integers(legal.size))]))
                done = terminated or truncated
                steps += 1
        out[label] = steps / (time.process_time() - t0)
    return out


def test_feature_encoding(benchmark: object) -> None:
    from fivecrowns.envs.encoding import encode_observation

    observations = [rnd.observation(p) for rnd, p in _feature_positions(1)]
    benchmark.group = "features"  # type: ignore[attr-defined]
    benchmark(lambda: [encode_observation(o, features=True)  # type: ignore[operator]
                       for o in observations])


if __name__ == "__main__":
    print(f"\n{'per call (4 players)':<24} {'us':>8}")
    for name, us in feature_encoding_cost().items():
        print(f"{name:<24} {us:>8.1f}")
    print(f"\n{'agent steps/s':<24} {'':>8}")
    for name, rate in gym_feature_steps().items():
        print(f"{name:<24} {rate:>8,.0f}")
