"""A duplicate match: is a bot better than a reference bot, on the very same deals?

Win rates need thousands of games to separate two close bots, because the cards decide
most games. A duplicate match removes most of that luck: every deal is played twice, once
with the bot under test in a seat and once with the reference bot in the same seat, the
opponents unchanged. The bot's *gain* is how many points a game further below its
opponents' mean it finishes than the reference does, deal by deal
(:mod:`fivecrowns.duplicate` defines it).

``fivecrowns.duplicate_match(bot, reference, field, games)`` does all of it; the same
match on the command line is
``fivecrowns simulate --bots strong,greedy,greedy,greedy --duplicate greedy``.

    python examples/duplicate_match.py [--games 200] [--seed 1] [--players 4] [--jobs 1]
"""

from __future__ import annotations

import argparse

import fivecrowns as fc


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    field = [fc.GreedyBot] * (args.players - 1)
    report = fc.duplicate_match(fc.StrongBot, fc.GreedyBot, field, args.games,
                                seed=args.seed, jobs=args.jobs)
    print(f"{report.games} deals, {args.players} players, each played twice from seed "
          f"{args.seed}: StrongBot, then GreedyBot, in the same seat against GreedyBots")
    print(report.table())
    lo, hi = report.gain_ci
    print(f"StrongBot's gain over GreedyBot: {report.gain:+.1f} points a game "
          f"(95% CI {lo:+.1f} to {hi:+.1f})")


if __name__ == "__main__":
    main()
