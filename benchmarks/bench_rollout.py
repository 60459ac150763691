"""Whole 11-round 4-player games per second with GreedyBots (and StrongBots): the
compiled rollout engine (:func:`fivecrowns.rollout.play_games`) against the Python engine
(:class:`fivecrowns.Game` stepped with the bots' own methods), on the very same seeded
games, measured in the same run.

Run as a script for the table (``--quick`` for a short run; ``--policy`` the bot of the
second comparison, any name of :mod:`fivecrowns.registry` with a compiled policy)::

    python benchmarks/bench_rollout.py [--quick] [--seed 2026] [--policy strong]

or under pytest-benchmark::

    python -m pytest benchmarks/bench_rollout.py --benchmark-only

One-thread figures are games per second of CPU time of this process (one core), so other
programs on the machine disturb them less than wall-clock time; the threaded figure is
wall-clock. The script first checks that both engines give the same totals.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import numpy as np

from _harness import WALL, core_line, parser, rate, table
from fivecrowns import Game, player_action
from fivecrowns.registry import engine_policy, parse_bot
from fivecrowns.rollout import play_games
from fivecrowns.seeding import game_seeds, play_seeds

PLAYERS = 4
SEED = 2026


def python_games(games: int, seed: int = SEED, policy: str = "greedy") -> np.ndarray:
    """Totals of ``games`` games played on :class:`~fivecrowns.Game` by the bots that the
    registry makes of ``policy`` (``"greedy"``, ``"StrongBot"``, ...; an unknown name is
    the registry's error), seeded as ``play_game`` seeds bots by name.

    Not ``play_game`` itself: it hands games of built-in bots to the compiled engine,
    which is the other side of the comparison."""
    make = parse_bot(policy).factory()
    out = []
    for s in game_seeds(seed, games):
        bots = [make(k) for k in play_seeds(s, 0, PLAYERS)]
        game = Game(PLAYERS, seed=s)
        while not game.is_over:
            seat = game.current_player
            game.apply_action(player_action(bots[seat], game.observation(seat)))
        out.append(game.totals)
    return np.array(out, dtype=np.int64)


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
    p = parser(__doc__, quick=False, seed=SEED)
    p.add_argument("--policy", default="strong", type=_policy,
                   help="the bot of the second comparison (default strong)")
    args = p.parse_args(argv)
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
        ["Python: Game, GreedyBots (CPU, 1 core)", py_rate],
        ["C: rollout.play_games, threads=1 (CPU)", c_rate],
        [f"C: rollout.play_games, threads={cores} (wall)", wall]], ["", ",.0f"], "  "))
    print(f"  ratio C / Python, one core: x{c_rate / py_rate:,.1f}")
    # StrongBot: a draw table or four per turn, so the solver takes a larger share
    policy = args.policy
    strong_c, strong_py = (60, 2) if args.quick else (400, 8)
    if policy != "random":  # the engine's random draws from its own generator, not the bot's
        assert (play_games(2, seed=seed, policy=policy)
                == python_games(2, seed, policy=policy)).all(), f"the {policy} twins differ"
    sc = rate(lambda n: play_games(n, seed=seed, policy=policy, threads=1), strong_c,
              repeats)
    sp = rate(lambda n: python_games(n, seed, policy=policy), strong_py, repeats)
    print(f"the same with {parse_bot(policy).cls.__name__} (policy={policy!r}): Python "
          f"{sp:,.0f} games/s, C {sc:,.0f} games/s, x{sc / sp:,.1f}")
    return 0


def _policy(name: str) -> str:
    """``--policy``: a registry name of a bot the engine plays, as the engine names it."""
    try:
        return engine_policy(name, what="--policy")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
