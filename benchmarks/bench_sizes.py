"""The solver's speed by hand size: hands per second of ``deadwood_many`` (the bulk path,
one thread) and of ``deadwood`` called once per hand, for every hand size from 3 to 16
cards, against the plain bulk rate of the README (random 13-card hands, Kings wild).

    python benchmarks/bench_sizes.py [--quick] [--json docs/figures/solver_sizes.json]

A hand of n cards (3 to 13) has the wild rank of its round, n; 14 to 16 cards (a hand
after drawing, party hands) have Kings wild. The hands are random (``random_hands``, one
seed per size); each rate is the best of three runs, in CPU time of this process.
``benchmarks/figures.py`` draws the figure of the docs from the JSON.
"""

from __future__ import annotations

import sys

from _harness import core_line, parser, rate, table, write_json
from fivecrowns import deadwood, deadwood_many
from fivecrowns.dealing import random_hands

SIZES = range(3, 17)


def wild_of(size: int) -> int:
    """The wild rank of a hand of ``size`` cards: its round's, or Kings."""
    return size if size <= 13 else 13


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, quick=False, seed=1)
    p.add_argument("--json", metavar="PATH", help="also write the rates to PATH (for "
                   "benchmarks/figures.py)")
    args = p.parse_args(argv)
    n_bulk, n_call = (20_000, 1_000) if args.quick else (200_000, 10_000)
    print(f"{core_line()}; {n_bulk:,} hands a size in bulk, {n_call:,} one call at a time",
          flush=True)
    rows = []
    for size in SIZES:
        hands = random_hands(n_bulk, size, seed=args.seed + size)
        wild = wild_of(size)
        bulk = rate(lambda n, h=hands, w=wild: deadwood_many(h[:n], w, threads=1), n_bulk)
        calls = [hands[i] for i in range(n_call)]
        one = rate(lambda n, c=calls, w=wild: [deadwood(r, w) for r in c[:n]], n_call)
        rows.append([size, wild, bulk, one])
    plain_hands = random_hands(n_bulk, 13, seed=args.seed)
    plain = rate(lambda n: deadwood_many(plain_hands[:n], 13, threads=1), n_bulk)
    print(table(["cards", "wild", "bulk hands/s", "one call/s"], rows,
                ["d", "d", ",.0f", ",.0f"]))
    print(f"plain bulk rate (random 13-card hands, Kings wild): {plain:,.0f} hands/s")
    if args.json:
        write_json(args.json, "solver speed by hand size", {
            "hands_bulk": n_bulk, "hands_one_call": n_call, "seed": args.seed,
            "plain_bulk_rate": plain,
            "sizes": [{"cards": s, "wild": w, "bulk_per_s": b, "one_call_per_s": o}
                      for s, w, b, o in rows]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
