"""Solitaire benchmarks: dealing, one turn, the strategies' analysis, whole games per strategy.

With pytest-benchmark (outside the unit-test paths)::

    pytest benchmarks/bench_solitaire.py --benchmark-only

or as a script, which prints a small table of games per second and win rates with 95%
Wilson intervals, every strategy on the same seeded deals::

    python benchmarks/bench_solitaire.py [--games 200] [--seed 1] [--jobs 1]
        [--strategies random,greedy,strong,planner]

With ``--jobs 2`` the games per second are wall-clock over two worker processes. The
best possible win rate is bracketed by ``benchmarks/solitaire_bound.py``.

The solver core in use (compiled or pure Python, see ``FIVECROWNS_IMPLEMENTATION``) is
printed with the table, since it sets the speed of everything here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import fivecrowns
from _harness import WALL, core_line, table
from _harness import parser as harness_parser
from fivecrowns.outs import SolverMemo, completing_types, joker_distance
from fivecrowns.solitaire import (
    GreedySolitaire,
    Solitaire,
    StrongSolitaire,
    play_solitaire,
    simulate_solitaire,
)
from fivecrowns.solitaire.search import PlannerSolitaire

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


def test_completing_types(benchmark: Any) -> None:
    # A cold memo each call: the search itself, not a dictionary lookup.
    benchmark.group = "solitaire analysis"
    row = fivecrowns.hand_counts("5C 6C 9D 9H JK 3S 7T")
    benchmark(lambda: completing_types(row, 13, memo=SolverMemo()))


def test_joker_distance(benchmark: Any) -> None:
    benchmark.group = "solitaire analysis"
    row = fivecrowns.hand_counts("3C 5D 7H 9S JT 4D 6H 8S")
    benchmark(lambda: joker_distance(row, 13, memo=SolverMemo()))


def test_greedy_game(benchmark: Any) -> None:
    benchmark.group = "solitaire games"
    seeds = iter(range(10**9))
    benchmark(lambda: play_solitaire("greedy", seed=next(seeds)))


def test_planner_choice(benchmark: Any) -> None:
    benchmark.group = "solitaire strategies"
    obs = Solitaire(seed=2).observation()
    rng = np.random.default_rng(0)
    benchmark.pedantic(lambda: PlannerSolitaire().choose(obs, rng), rounds=5, iterations=1)


def test_strong_game(benchmark: Any) -> None:
    benchmark.group = "solitaire games"
    seeds = iter(range(10**9))
    benchmark.pedantic(lambda: play_solitaire("strong", seed=next(seeds)), rounds=5, iterations=1)


# -- the script --------------------------------------------------------------------------------


def strategies_table(games: int, seed: int, strategies: list[str], jobs: int = 1) -> str:
    """Games per second and win rate of each strategy over the same seeded deals."""
    rows = []
    for name in strategies:
        start = WALL()
        report = simulate_solitaire(name, games, seed=seed, jobs=jobs)
        took = WALL() - start
        lo, hi = report.win_ci
        rows.append([name, games / took, 1000 * took / games, f"{100 * report.win_rate:.2f}%",
                     f"({100 * lo:5.2f}..{100 * hi:5.2f}%)", report.mean_piles_closed])
    return "\n".join([f"{core_line()}; {games} games from seed {seed}, {jobs} job(s)",
                      table(["strategy", "games/s", "ms/game", "win rate", "95% CI", "piles"],
                            rows, ["", ".1f", ".2f", "", "", ".2f"])])


if __name__ == "__main__":
    parser = harness_parser(__doc__, games=200, seed=1, jobs=1)
    parser.add_argument("--strategies", default="random,greedy,strong,planner")
    args = parser.parse_args()
    print(strategies_table(args.games, args.seed, args.strategies.split(","), args.jobs))
