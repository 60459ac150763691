"""Each bot's paired gain over StrongBot, with three StrongBots in the field, and the spread
of its game totals: the numbers behind the bot figures of the docs.

    python benchmarks/bench_bots.py [--games 2000] [--seed 7] [--threads 2] [--json PATH]

The compiled policies (``random``, ``greedy``, ``expert``) play the duplicate deals of
``duplicate_match(bot, StrongBot, [StrongBot] * 3, games, seed=seed)`` in the rollout
engine (``bench_expert.compiled_duplicate``: the
same deals, seats and totals as the Python engine); StrongBot's own totals are those of
the reference games. SearchBot has no compiled policy and plays far slower, so its gain is
the one the docs record (docs/performance.rst), marked as such in the JSON; its totals
are not measured here.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from _harness import core_line, parser, table, write_json
from bench_expert import compiled_duplicate
from fivecrowns.duplicate import paired_gains
from fivecrowns.stats import mean_interval

#: (bot, its policy in the rollout engine)
POLICIES = [("RandomBot", "random"), ("GreedyBot", "greedy"), ("ExpertBot", "expert")]
#: Gains recorded in the docs, for bots not measured here: (bot, gain, low, high, deals,
#: where it is recorded and the command that measured it).
RECORDED = [
    ("SearchBot", 1.19, 0.77, 1.62, 4000,
     "docs/performance.rst and README.md: python benchmarks/bench_search.py --bot search "
     "--only strong --games 4000 --jobs 2 --seed 1"),
    ("ExpertBot", 3.38, 3.15, 3.60, 24000,
     "docs/bots.rst: python benchmarks/bench_expert.py --only compiled --games 24000 "
     "--threads 2 --seed 3 --players 4"),
]
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def spread(totals: np.ndarray) -> dict[str, object]:
    """A game total's distribution, small enough for the JSON: mean, quantiles, extremes
    and a histogram in bins of 10 points."""
    top = int(totals.max()) // 10 * 10 + 10
    counts, _ = np.histogram(totals, bins=np.arange(0, top + 1, 10))
    return {"games": int(totals.size), "mean": float(totals.mean()),
            "quantiles": {str(q): float(np.quantile(totals, q)) for q in QUANTILES},
            "min": int(totals.min()), "max": int(totals.max()),
            "histogram": {"bin": 10, "counts": counts.tolist()}}


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, games=2000, seed=7)
    p.add_argument("--threads", type=int, default=None, help="engine threads")
    p.add_argument("--json", metavar="PATH", help="also write the results to PATH (for "
                   "benchmarks/figures.py)")
    args = p.parse_args(argv)
    print(f"{core_line()}; {args.games:,} deals from seed {args.seed}, 3 StrongBots in the "
          f"field", flush=True)
    gains, spreads, rows = [], {}, []
    for bot, policy in POLICIES:
        start = time.perf_counter()
        mine, ref = compiled_duplicate(policy, "strong", 4, args.games, args.seed,
                                       args.threads)
        gain, (lo, hi) = mean_interval(paired_gains(mine, ref))
        took = time.perf_counter() - start
        gains.append({"bot": bot, "gain": gain, "ci": [lo, hi], "deals": args.games,
                      "source": "measured by this run"})
        spreads[bot] = spread(mine[:, 0])
        spreads.setdefault("StrongBot", spread(ref[:, 0]))
        rows.append([bot, gain, f"{lo:+.2f}..{hi:+.2f}", spreads[bot]["mean"], took])
        print(table(["bot", "gain", "95% CI", "mean total", "s"], [rows[-1]],
                    ["", "+.2f", "", ".1f", ".0f"]), flush=True)
    for bot, gain, lo, hi, deals, source in RECORDED:
        gains.append({"bot": bot, "gain": gain, "ci": [lo, hi], "deals": deals,
                      "source": f"recorded in {source}"})
    if args.json:
        write_json(args.json, "each bot's paired gain over StrongBot and its game totals", {
            "deals": args.games, "seed": args.seed, "players": 4,
            "field": "3 StrongBots", "reference": "StrongBot",
            "gains": gains, "totals": spreads})
    return 0


if __name__ == "__main__":
    sys.exit(main())
