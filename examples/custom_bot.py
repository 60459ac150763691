"""A bot of your own: two methods and a decision rule, then a few games against the
built-in bots.

A player is any object with ``choose_draw(obs)`` and ``choose_discard(obs)``
(:class:`fivecrowns.Player`); it sees only its :class:`~fivecrowns.Observation`. This one,
``WildHunter``, takes the top discard only when it is a wild card (a joker or the round's
wild rank), never throws a wild away, and otherwise discards the card that leaves the
least deadwood, going out as soon as that deadwood is 0.

    python examples/custom_bot.py [--games 40] [--seed 1] [--jobs 1]
"""

from __future__ import annotations

import argparse

import numpy as np

import fivecrowns as fc


class WildHunter:
    """Takes wild cards from the discard pile and never discards them."""

    name = "WildHunter"

    def choose_draw(self, obs: fc.Observation) -> str:
        top = obs.top_discard
        if top is not None and top.is_wild(obs.wild):
            return "discard"
        if obs.draw_size == 0 and obs.discard_size <= 1:
            return "discard"   # no deck to draw from, and nothing to reshuffle into one
        return "deck"

    def choose_discard(self, obs: fc.Observation) -> tuple[fc.Card, bool]:
        hand = np.asarray(obs.counts, dtype=np.uint8)
        held = [fc.Card.from_index(int(t)) for t in np.flatnonzero(hand)]
        # The card just taken from the discard pile may not go straight back (obs.must_keep).
        allowed = [c for c in held if c != obs.must_keep]
        candidates = [c for c in allowed if not c.is_wild(obs.wild)] or allowed
        # Score every candidate discard at once: one row per hand left after it.
        rest = np.repeat(hand[None, :], len(candidates), axis=0)
        rest[np.arange(len(candidates)), [c.index for c in candidates]] -= 1
        left = fc.deadwood_many(rest, obs.wild, decks=obs.decks)
        best = int(np.argmin(left))
        return candidates[best], bool(left[best] == 0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    p.add_argument("--seed", type=int, default=1, help="seed of the games (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = p.parse_args()
    assert isinstance(WildHunter(), fc.Player)   # the protocol is all it takes
    report = fc.simulate_games([WildHunter, fc.GreedyBot, fc.RandomBot], args.games,
                               seed=args.seed, jobs=args.jobs)
    print(f"{args.games} games of 3 players, seats rotated, from seed {args.seed}")
    print(report.table())


if __name__ == "__main__":
    main()
