"""A duplicate match: is a bot better than a reference bot, on the very same deals?

Win rates need thousands of games to separate two close bots, because the cards decide
most games. A duplicate match removes most of that luck: every deal is played twice, once
with the bot under test in a seat and once with the reference bot in the same seat, the
opponents unchanged. The bot's *gain* is how many points a game further below its
opponents' mean it finishes than the reference does, deal by deal.

Here the pairing is done by hand with two ordinary runs of
:func:`fivecrowns.simulate_games`: the same ``seed`` gives the same deals and the same
seat rotation, so game ``g`` of both runs is the same deal with the bot and the reference
in the same seat.

    python examples/duplicate_match.py [--games 200] [--seed 1] [--players 4] [--jobs 1]
"""

# TODO(integrator): once simulate_games(..., duplicate=reference) lands (the duplicate
# mode of fivecrowns.simulate), show it here next to the pairing by hand.

from __future__ import annotations

import argparse

import numpy as np

import fivecrowns as fc
from fivecrowns.stats import mean_interval


def edges(report: fc.GamesReport) -> np.ndarray:
    """Per game: the opponents' mean total less entrant 0's (positive: entrant 0 ahead)."""
    scores = report.scores.astype(np.float64)
    return scores[:, 1:].mean(axis=1) - scores[:, 0]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    bot, reference, opponent = fc.StrongBot, fc.GreedyBot, fc.GreedyBot
    others = [opponent] * (args.players - 1)
    runs = {entrant: fc.simulate_games([entrant, *others], args.games, seed=args.seed,
                                       jobs=args.jobs)
            for entrant in (bot, reference)}
    assert runs[bot].seeds == runs[reference].seeds   # the same deals, paired
    gain = edges(runs[bot]) - edges(runs[reference])
    mean, (lo, hi) = mean_interval(gain)
    print(f"{args.games} deals, {args.players} players, each played twice from seed "
          f"{args.seed}: StrongBot, then GreedyBot, in the same seat against GreedyBots")
    for run in runs.values():
        e = run.entrants[0]
        print(f"  {e.name:<10} win rate {e.win_rate:6.1%}  mean score {e.mean_score:6.1f}")
    print(f"StrongBot's gain over GreedyBot: {mean:+.1f} points a game "
          f"(95% CI {lo:+.1f} to {hi:+.1f})")


if __name__ == "__main__":
    main()
