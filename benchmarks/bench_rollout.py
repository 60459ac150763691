"""Whole 11-round 4-player games per second with GreedyBots (and StrongBots): the
compiled rollout engine (:func:`fivecrowns.rollout.play_games`) against the Python engine
(:func:`fivecrowns.play_game`), on the very same seeded games, measured in the same run.

Run as a script for the table (``--quick`` for a short run)::

    python benchmarks/bench_rollout.py [--quick] [--seed 2026]

or under pytest-benchmark::

    python -m pytest benchmarks/bench_rollout.py --benchmark-only

One-thread figures are games per second of CPU time of this process (one core), so other
programs on the machine disturb them less than wall-clock time; the threaded figure is
wall-clock. The script first checks that both engines give the same totals.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

from _harness import WALL, core_line, parser, rate, table
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


def main(argv: list[str]) -> int:
    args = parser(__doc__, quick=False, seed=SEED).parse_args(argv)
    seed = args.seed
    c_games, py_games, repeats = (500, 10, 2) if args.quick else (4000, 60, 3)
    check = min(py_games, 20)
    assert (play_games(check, seed=seed) == python_games(check, seed)).all(), \
        "the twins differ"
    c_rate = rate(lambda n: play_games(n, seed=seed, threads=1), c_games, repeats)
    py_rate = rate(lambda n: python_games(n, seed), py_games, repeats)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    wall = rate(lambda n: play_games(n, seed=seed, threads=cores), c_games, repeats, WALL)
    print(f"whole 11-round {PLAYERS}-player games, GreedyBot in every seat "
          f"(same seeded games, checked equal); {core_line()}")
    print(table(["engine", "games/s"], [
        ["Python: play_game, GreedyBots (CPU, 1 core)", py_rate],
        ["C: rollout.play_games, threads=1 (CPU)", c_rate],
        [f"C: rollout.play_games, threads={cores} (wall)", wall]], ["", ",.0f"], "  "))
    print(f"  ratio C / Python, one core: x{c_rate / py_rate:,.1f}")
    # StrongBot: a draw table or four per turn, so the solver takes a larger share
    strong_c, strong_py = (60, 2) if args.quick else (400, 8)
    assert (play_games(2, seed=seed, policy="strong")
            == python_games(2, seed, policy="strong")).all(), "the strong twins differ"
    sc = rate(lambda n: play_games(n, seed=seed, policy="strong", threads=1), strong_c,
              repeats)
    sp = rate(lambda n: python_games(n, seed, policy="strong"), strong_py, repeats)
    print(f"the same with StrongBot (policy='strong'): Python {sp:,.0f} games/s, "
          f"C {sc:,.0f} games/s, x{sc / sp:,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
