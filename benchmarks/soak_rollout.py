"""A long comparison of the compiled rollout engine with the Python engine and bots, for
before a release or after a change to the engine (``test_rollout.py`` runs a share).

    python benchmarks/soak_rollout.py [--rounds N] [--games N] [--seed S]

Each round is a random table (2 to 7 players, or up to 14 in party mode), size, rules
(``return_discard`` on or off, short ``max_turns``) and state (fresh, mid-way in either
phase, long enough to reshuffle, final turns, a tie-break round), played to its end by
both, with the greedy, the strong and the expert policy; moves and scores must agree.
Then whole games against ``play_game``, with one policy in every seat and with a policy
per seat. Exits 1 at the first difference.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# the rounds of every kind are the tests' own (tests/helpers/rollout_twins.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from fivecrowns import ExpertBot, GreedyBot, StrongBot, play_game
from fivecrowns.rollout import play_games
from fivecrowns.seeding import game_seeds
from helpers.rollout_twins import check_twin, varied_round


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20_000,
                        help="random rounds, each with every policy (default 20000)")
    parser.add_argument("--games", type=int, default=200,
                        help="whole games against play_game (default 200)")
    parser.add_argument("--seed", type=int, default=1_000_000,
                        help="seed of the first round (default 1000000)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    reshuffled = 0
    for k in range(args.rounds):
        for policy in ("greedy", "strong", "expert"):
            try:
                reshuffled += check_twin(varied_round(args.seed + k), policy) > 0
            except AssertionError as exc:
                print(f"round seed {args.seed + k} differs under the {policy} policy: {exc}")
                return 1
    print(f"{args.rounds} rounds agree under the three policies ({reshuffled} reshuffled in "
          f"the engine), {time.perf_counter() - start:.0f} s")
    totals = play_games(args.games, seed=args.seed, n_players=4)
    for g, seed in enumerate(game_seeds(args.seed, args.games)):
        want = play_game([GreedyBot()] * 4, seed=seed).totals
        if tuple(totals[g].tolist()) != want:
            print(f"game {g} (seed {seed}) differs: {totals[g].tolist()} != {list(want)}")
            return 1
    seats = ["expert", "strong", "greedy", "strong"]
    bots = {"expert": ExpertBot, "strong": StrongBot, "greedy": GreedyBot}
    totals = play_games(args.games, seed=args.seed + 1, n_players=4,
                        policy=seats)  # type: ignore[arg-type]
    for g, seed in enumerate(game_seeds(args.seed + 1, args.games)):
        want = play_game([bots[p]() for p in seats], seed=seed).totals
        if tuple(totals[g].tolist()) != want:
            print(f"seated game {g} (seed {seed}) differs: {totals[g].tolist()} != "
                  f"{list(want)}")
            return 1
    print(f"{args.games} games agree, and {args.games} with a policy per seat, "
          f"{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
