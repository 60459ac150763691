"""Score many random hands at once with NumPy: how often can the deal go out, round by round?

Hands in bulk are rows of 56 ``uint8`` counts (one per card type, the joker last);
:func:`fivecrowns.random_hands` deals them and :func:`fivecrowns.deadwood_many` scores
them exactly, with the GIL released and the work split over threads. For each of the 11
rounds (hand size 3..13, that rank wild) this deals ``--hands`` hands and prints the mean
deadwood, the share of hands dealt already complete, and the share that would go out
with the best discard after one more card (the dealt hand plus one random card).

    python examples/bulk_scoring.py [--hands 100000] [--seed 1] [--threads 2]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import fivecrowns as fc


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=None, help="default: every core")
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{args.hands:,} random hands a round, seed {args.seed}")
    print(f"{'round':>5} {'cards':>5} {'wild':>4} {'mean deadwood':>14} {'complete':>9} "
          f"{'out after a draw':>17}")
    start, scored = time.perf_counter(), 0
    for rnd in range(1, 12):
        size, wild = fc.Rules.hand_size(rnd), fc.Rules.wild_rank(rnd)
        # deal one card more than the hand: the last card dealt plays the draw
        drawn = fc.random_hands(args.hands, size + 1, seed=rng)
        # take one card back out, uniformly among those held: the card types by running
        # count, and the first type whose running count passes a uniform position
        pick = rng.integers(size + 1, size=args.hands)
        card = (drawn.cumsum(axis=1) > pick[:, None]).argmax(axis=1)
        dealt = drawn.copy()
        dealt[np.arange(args.hands), card] -= 1
        dead = fc.deadwood_many(dealt, wild, threads=args.threads)
        after = fc.discard_deadwood_many(drawn, wild, threads=args.threads)
        scored += 2 * args.hands
        print(f"{rnd:>5} {size:>5} {fc.Rank(wild).label:>4} {dead.mean():>14.2f} "
              f"{(dead == 0).mean():>9.2%} {(after == 0).mean():>17.2%}")
    took = time.perf_counter() - start
    print(f"dealt and scored {scored:,} hands in {took:.1f} s")


if __name__ == "__main__":
    main()
