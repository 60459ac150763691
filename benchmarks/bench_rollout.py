"""Whole 11-round 4-player games per second with GreedyBots (and StrongBots): the
compiled rollout engine (:func:`fivecrowns.rollout.play_games`) against the Python engine
(:func:`fivecrowns.play_game`), on the very same seeded games, measured in the same run.

Run as a script for the table (``--quick`` for a short run)::

    python benchmarks/bench_rollout.py

or under pytest-benchmark::

    python -m pytest benchmarks/bench_rollout.py --benchmark-only

One-thread figures are games per second of CPU time of this process (one core), so other
programs on the machine disturb them less than wall-clock time; the threaded figure is
wall-clock. The script first checks that both engines give the same totals.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import numpy as np

from fivecrowns.bots import GreedyBot, StrongBot
from fivecrowns.players import play_game
from fivecrowns.rollout import play_games
from fivecrowns.seeding import game_seeds

PLAYERS = 4
SEED = 2026


BOTS = {"greedy": GreedyBot, "strong": StrongBot}


def python_games(games: int, seed: int = SEED, policy: str = "greedy") -> np.ndarray:
    """Totals of ``games`` games played by the Python engine and the policy's bots."""
    bot = BOTS[policy]
    return np.array([play_game([bot()] * PLAYERS, seed=s).totals
                     for s in game_seeds(seed, games)], dtype=np.int64)


def test_rollout_games(benchmark: Any) -> None:
    benchmark.group = f"whole {PLAYERS}-player games, greedy"
    totals = benchmark.pedantic(play_games, args=(200,), kwargs=dict(seed=SEED, threads=1),
                                rounds=3, iterations=1)
    assert totals.shape == (200, PLAYERS)


def test_python_games(benchmark: Any) -> None:
    benchmark.group = f"whole {PLAYERS}-player games, greedy"
    totals = benchmark.pedantic(python_games, args=(10,), rounds=3, iterations=1)
    assert totals.shape == (10, PLAYERS)


def _rate(fn: Any, games: int, repeats: int, clock: Any = time.process_time) -> float:
    """Best games per second over ``repeats`` runs of ``fn(games)``."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        fn(games)
        best = min(best, clock() - start)
    return games / best


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    c_games, py_games, repeats = (500, 10, 2) if quick else (4000, 60, 3)
    check = min(py_games, 20)
    assert (play_games(check, seed=SEED) == python_games(check)).all(), "the twins differ"
    c_rate = _rate(lambda n: play_games(n, seed=SEED, threads=1), c_games, repeats)
    py_rate = _rate(python_games, py_games, repeats)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    wall = _rate(lambda n: play_games(n, seed=SEED, threads=cores), c_games, repeats,
                 time.perf_counter)
    print(f"whole 11-round {PLAYERS}-player games, GreedyBot in every seat "
          f"(same seeded games, checked equal)")
    print(f"  {'engine':<44}{'games/s':>12}")
    print(f"  {'Python: play_game, GreedyBots (CPU, 1 core)':<44}{py_rate:>12,.0f}")
    print(f"  {'C: rollout.play_games, threads=1 (CPU)':<44}{c_rate:>12,.0f}")
    print(f"  {f'C: rollout.play_games, threads={cores} (wall)':<44}{wall:>12,.0f}")
    print(f"  ratio C / Python, one core: x{c_rate / py_rate:,.1f}")
    # StrongBot: a draw table or four per turn, so the solver takes a larger share
    strong_c, strong_py = (60, 2) if quick else (400, 8)
    assert (play_games(2, seed=SEED, policy="strong")
            == python_games(2, policy="strong")).all(), "the strong twins differ"
    sc = _rate(lambda n: play_games(n, seed=SEED, policy="strong", threads=1), strong_c,
               repeats)
    sp = _rate(lambda n: python_games(n, policy="strong"), strong_py, repeats)
    print(f"the same with StrongBot (policy='strong'): Python {sp:,.0f} games/s, "
          f"C {sc:,.0f} games/s, x{sc / sp:,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
