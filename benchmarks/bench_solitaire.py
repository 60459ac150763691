"""Solitaire benchmarks: dealing, one turn, and whole games per strategy.

With pytest-benchmark (outside the unit-test paths)::

    pytest benchmarks/bench_solitaire.py --benchmark-only

or as a script, which prints a small table of games per second and win rates::

    python benchmarks/bench_solitaire.py [--games 200] [--seed 1]

The solver core in use (compiled or pure Python, see ``FIVECROWNS_IMPLEMENTATION``) is
printed with the table, since it sets the speed of everything here.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import fivecrowns
from fivecrowns.solitaire import (
    GreedySolitaire,
    Solitaire,
    StrongSolitaire,
    play_solitaire,
    solitaire_many,
)

# -- pytest-benchmark --------------------------------------------------------------------------


def test_deal(benchmark: Any) -> None:
    benchmark.group = "solitaire"
    seeds = iter(range(10**9))
    benchmark(lambda: Solitaire(seed=next(seeds)))


def test_one_play(benchmark: Any) -> None:
    benchmark.group = "solitaire"
    game = Solitaire(seed=1)

    def play() -> None:
        g = game.clone()
        top = g.draw_top
        assert top is not None
        g.play(13, top)

    benchmark(play)


def test_greedy_choice(benchmark: Any) -> None:
    benchmark.group = "solitaire strategies"
    obs = Solitaire(seed=2).observation()
    rng = np.random.default_rng(0)
    benchmark(lambda: GreedySolitaire().choose(obs, rng))


def test_strong_choice(benchmark: Any) -> None:
    benchmark.group = "solitaire strategies"
    obs = Solitaire(seed=2).observation()
    rng = np.random.default_rng(0)
    benchmark(lambda: StrongSolitaire().choose(obs, rng))


def test_greedy_game(benchmark: Any) -> None:
    benchmark.group = "solitaire games"
    seeds = iter(range(10**9))
    benchmark(lambda: play_solitaire("greedy", next(seeds)))


def test_strong_game(benchmark: Any) -> None:
    benchmark.group = "solitaire games"
    seeds = iter(range(10**9))
    benchmark.pedantic(lambda: play_solitaire("strong", next(seeds)), rounds=5, iterations=1)


# -- the script --------------------------------------------------------------------------------


def table(games: int, seed: int, strategies: list[str]) -> str:
    """Games per second and win rate of each strategy over the same seeded deals."""
    lines = [f"solver core: {fivecrowns.IMPLEMENTATION}; {games} games from seed {seed}",
             f"{'strategy':<10} {'games/s':>9} {'ms/game':>9} {'win rate':>9} "
             f"{'95% CI':>17} {'piles':>6}"]
    for name in strategies:
        start = time.perf_counter()
        stats = solitaire_many(name, games, seed)
        took = time.perf_counter() - start
        lo, hi = stats.win_ci
        lines.append(f"{name:<10} {games / took:>9.1f} {1000 * took / games:>9.2f} "
                     f"{100 * stats.win_rate:>8.2f}% ({100 * lo:5.2f}..{100 * hi:5.2f}%) "
                     f"{stats.mean_piles_closed:>6.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategies", default="random,greedy,strong")
    args = parser.parse_args()
    print(table(args.games, args.seed, args.strategies.split(",")))
