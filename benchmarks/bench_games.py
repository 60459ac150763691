"""Full 4-player games per second, with GreedyBots and with RandomBots; raw engine steps
(``Round.legal_actions()`` + ``apply_action()``, the reinforcement-learning path) per second.

Both solver cores play the very same seeded games (the compiled one is skipped when it is
not built). Run with::

    python -m pytest benchmarks/bench_games.py --benchmark-only --benchmark-group-by=group

or as a script for a small table (``--quick`` for a short run; ``--bots`` the bots to
time, names of :mod:`fivecrowns.registry`, default ``greedy,random``)::

    python benchmarks/bench_games.py [--quick] [--bots greedy,random,strong]

The script reports games per second of CPU time of this process (one core), so other
programs running on the machine disturb it less than wall-clock time.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np
import pytest

from _harness import CORE_NAMES, core_line, core_params, parser, rate_for, table
from fivecrowns.bench import core
from fivecrowns.players import play_game
from fivecrowns.registry import BotFactory, parse_bot
from fivecrowns.round import Round
from fivecrowns.rules import Rules
from fivecrowns.solver import use_implementation

PLAYERS = 4
#: Games per timed batch: enough for a stable figure, few enough for the Python core.
GAMES = {("compiled", "greedy"): 50, ("compiled", "random"): 5,
         ("python", "greedy"): 3, ("python", "random"): 1}


#: The bots' seeds, by seat (the seeded ones, RandomBot among them, play the same games).
BOT_SEED = 1000


def _factory(kind: str) -> BotFactory:
    """The bots of a registry name or spec (an unknown one is the registry's error)."""
    return parse_bot(kind).factory()


def play_batch(kind: str, games: int, first_seed: int = 0) -> int:
    """Play ``games`` seeded games of the bots named ``kind`` (``"greedy"``,
    ``"RandomBot"``, ``"search:worlds=8"``...); returns the turns played (a checksum of
    sorts)."""
    make = _factory(kind)
    turns = 0
    for seed in range(first_seed, first_seed + games):
        res = play_game([make(BOT_SEED + i) for i in range(PLAYERS)], seed=seed)
        turns += sum(r.turns for r in res.rounds)
    return turns


@pytest.mark.parametrize("impl", core_params())
@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_full_games(benchmark: Any, impl: str, kind: str) -> None:
    games = GAMES[impl, kind]
    benchmark.group = f"full {PLAYERS}-player games, {kind} bots ({games} per round)"
    benchmark.extra_info["games"] = games
    with use_implementation(impl):  # the bots and the engine too
        turns = benchmark.pedantic(play_batch, args=(kind, games), rounds=3, iterations=1)
    assert turns > 0
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["games_per_s"] = round(games / stats.stats.min, 2)


#: Rounds per timed batch of raw steps, and the turn limit that keeps random play finite.
STEP_ROUNDS = 40
STEP_RULES = Rules(max_turns=300)


def raw_steps(rounds: int = STEP_ROUNDS, first_seed: int = 0) -> int:
    """Play ``rounds`` seeded 3-player rounds by uniformly random legal action codes, as an
    RL environment would; returns the steps taken."""
    steps = 0
    for seed in range(first_seed, first_seed + rounds):
        pick = np.random.default_rng(seed)
        r = Round(3, seed % 11 + 1, seed=seed, rules=STEP_RULES)
        while not r.is_over:
            acts = r.legal_actions()
            r.apply_action(acts[int(pick.integers(len(acts)))])
            steps += 1
    return steps


@pytest.mark.parametrize("impl", core_params())
def test_raw_steps(benchmark: Any, impl: str) -> None:
    rounds = STEP_ROUNDS if impl == "compiled" else 2
    benchmark.group = f"raw steps: legal_actions + apply_action ({rounds} rounds)"
    with use_implementation(impl):  # the bots and the engine too
        steps = benchmark.pedantic(raw_steps, args=(rounds,), rounds=3, iterations=1)
    assert steps > 0
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["steps_per_s"] = round(steps / stats.stats.min)


def measure_steps(impl: str, seconds: float) -> float:
    """Raw steps per CPU second over at least ``seconds`` of CPU time."""
    with use_implementation(impl):  # the bots and the engine too
        return rate_for(lambda i: raw_steps(1, first_seed=i), seconds).per_s


def measure(impl: str, kind: str, seconds: float) -> tuple[float, float]:
    """(games per CPU second, mean turns per game) over at least ``seconds`` of CPU time."""
    with use_implementation(impl):  # the bots and the engine too
        run = rate_for(lambda i: play_batch(kind, 1, first_seed=i), seconds)
    return run.calls_per_s, run.units / run.calls


def main(argv: list[str]) -> int:
    p = parser(__doc__, quick=False)
    p.add_argument("--bots", default="greedy,random", type=_bots,
                   help="bots to time, comma-separated registry names (default greedy,random)")
    args = p.parse_args(argv)
    seconds = 2.0 if args.quick else 10.0
    print(f"full {PLAYERS}-player games per CPU second (one core); {core_line()}")
    rows: list[list[object]] = []
    for impl in CORE_NAMES:
        if core(impl) is None:
            rows.append([impl, "(not built)", "", ""])
            continue
        for kind in args.bots:
            rate, turns = measure(impl, kind, seconds if impl == "compiled" else seconds / 2)
            rows.append([impl, kind, rate, turns])
    print(table(["core", "bots", "games/s", "turns/game"], rows, ["", "", ".2f", ".0f"]))
    print("raw steps (legal_actions + apply_action) per CPU second, 3-player random rounds")
    steps = [[impl, measure_steps(impl, seconds / 2 if impl == "compiled" else seconds / 4)]
             for impl in CORE_NAMES if core(impl) is not None]
    print(table(["core", "steps/s"], steps, ["", ",.0f"]))
    return 0


def _bots(text: str) -> list[str]:
    """``--bots``: the registry's names, each checked (its message for an unknown one)."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    for kind in kinds:
        try:
            _factory(kind)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return kinds


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
