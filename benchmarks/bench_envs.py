"""Agent steps per second through each framework adapter, and through the raw engine.

Every loop plays random legal actions, 4 players, whole 11-round games; the adapters build
the observation every step (PettingZoo: ``env.last()``; OpenSpiel: the observation
tensor and the legal actions). The raw row is :class:`fivecrowns.round.Round`'s own
``legal_actions`` + ``apply_action`` loop, with no observation. Run with::

    python -m pytest benchmarks/bench_envs.py --benchmark-only

or as a script for a small table (``--quick`` for a short run)::

    python benchmarks/bench_envs.py

The script reports steps per second of CPU time of this process (one core). It needs
``fivecrowns[rl]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

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


def aec_steps(games: int, seed: int = 0, *, wrapped: bool = True) -> int:
    """Random legal actions through the PettingZoo env (``aec_env``, or ``raw_env``
    without PettingZoo's wrappers); the agent steps played."""
    from fivecrowns.envs import aec_env, raw_env

    rng = np.random.default_rng(seed)
    env = aec_env(PLAYERS) if wrapped else raw_env(PLAYERS)
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
    return aec_steps(games, seed, wrapped=False)


LOOPS: dict[str, Callable[[int, int], int]] = {
    "raw Round": raw_steps, "PettingZoo aec_env": aec_steps,
    "PettingZoo raw_env": raw_aec_steps, "OpenSpiel": openspiel_steps}


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
        t0 = time.process_time()
        steps = loop(games, 0)
        dt = time.process_time() - t0
        print(f"{name:<20} {steps:>8} {steps / dt:>10,.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
