"""Bracket the best possible solitaire win rate over seeded deals.

The draw pile's cards are known from the start (the deck less the 88 pile cards); only
their order is hidden, and a plan that gives every pile a completion set wins in any
order (see :mod:`fivecrowns.solitaire.search`). So a clairvoyant player, who also knows
the order, wins exactly the deals that have a plan, and no player wins more. For each deal
:func:`~fivecrowns.solitaire.search.plan_bound` answers two questions at the deal:

- *proved won*: a plan exists with completion sets of at most ``--max-set`` cards;
- *not proved lost*: a plan exists when any pile may instead take ``max(max_set + 1,
  wilds_needed)`` cards of any types (a relaxation: every completion set left out is at
  least that large).

The clairvoyant's win rate lies between the two rates; the upper one bounds every real
strategy. Run::

    python benchmarks/solitaire_bound.py [--deals 300] [--seed 1] [--max-set 2]
"""

from __future__ import annotations

from _harness import WALL, seeds, table
from _harness import parser as harness_parser
from fivecrowns.outs import SolverMemo
from fivecrowns.seeding import solitaire_streams
from fivecrowns.solitaire import Solitaire, wilson_interval
from fivecrowns.solitaire.search import plan_bound


def bracket(deals: int, seed: int, max_set: int) -> str:
    """The table: deals proved won and deals not proved lost, with 95% intervals."""
    memo = SolverMemo(2)
    won = possible = 0
    start = WALL()
    for s in seeds(seed, deals):
        deal, _ = solitaire_streams(s)  # the deal play_solitaire plays for this seed
        game = Solitaire(seed=deal)
        pool = game.unseen_counts()
        top = game.draw_top
        assert top is not None
        pool[top.index] += 1
        piles = [(game.pile_counts[n - 3], n) for n in game.open_piles]
        exact, relaxed = plan_bound(piles, pool.tolist(), memo, max_set=max_set)
        won += exact
        possible += relaxed
    took = WALL() - start
    rows = []
    for label, k in (("proved won (lower)", won), ("not proved lost (upper)", possible)):
        lo, hi = wilson_interval(k, deals)
        rows.append([label, k, f"{100 * k / deals:6.2f}%",
                     f"(95% CI {100 * lo:.2f}% .. {100 * hi:.2f}%)"])
    return "\n".join([f"{deals} deals from seed {seed}, completion sets of at most {max_set} "
                      f"cards, {took / deals:.2f} s/deal",
                      table(["bound", "deals", "rate", "interval"], rows)])


if __name__ == "__main__":
    parser = harness_parser(__doc__, seed=1)
    parser.add_argument("--deals", type=int, default=300, help="deals (default 300)")
    parser.add_argument("--max-set", type=int, default=2)
    args = parser.parse_args()
    print(bracket(args.deals, args.seed, args.max_set))
