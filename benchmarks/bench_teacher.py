"""Issue 39's teacher: :class:`~fivecrowns.SearchBot` with ExpertBot's policy in its
rollouts, measured against ExpertBot itself on duplicate deals.

Each deal is a whole game dealt by :func:`fivecrowns.duplicate_match`: the searcher in one
seat and three StrongBots, then ExpertBot in that seat on the same deal (the reference);
the gain is the searcher's points a game below the field's mean less ExpertBot's, with a
95% interval (positive: the searcher is stronger). The seats rotate with the deals.

Run::

    python benchmarks/bench_teacher.py --worlds 64 --confidence 1.0 --games 240 --seed 39001

Every run made is recorded, in order, in docs/bots.rst (issue 39 asks that tuning and
evaluation seeds stay apart: a setting chosen on one seed is reported on others). A
deal takes seconds to tens of seconds (the searcher's every decision plays ``--worlds``
worlds per candidate move with ExpertBot in every seat), so ``--json`` keeps each deal's
gain for later pooling.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time

from fivecrowns import SearchBot, duplicate_match


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--worlds", type=int, default=64)
    p.add_argument("--confidence", type=float, default=1.0)
    p.add_argument("--games", type=int, default=240, help="duplicate deals")
    p.add_argument("--seed", type=int, required=True, help="the deals' seed")
    p.add_argument("--json", help="write the report and each deal's gain here")
    args = p.parse_args(argv)
    bot = functools.partial(SearchBot, worlds=args.worlds, policy="expert",
                            confidence=args.confidence)
    start = time.perf_counter()
    rep = duplicate_match(bot, "expert", ["strong"] * 3, args.games, seed=args.seed)
    seconds = time.perf_counter() - start
    low, high = rep.gain_ci
    print(f"SearchBot(policy='expert', worlds={args.worlds}, confidence={args.confidence}) "
          f"over ExpertBot, 3 StrongBots, {args.games} deals, seed {args.seed}: "
          f"{rep.gain:+.2f} ({low:+.2f}..{high:+.2f}) points a game; {seconds:,.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"worlds": args.worlds, "confidence": args.confidence,
                       "games": args.games, "seed": args.seed, "gain": rep.gain,
                       "gain_ci": rep.gain_ci, "seconds": seconds,
                       "scores": rep.scores.tolist(),
                       "reference_scores": rep.reference_scores.tolist()}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
