"""A long comparison of the compiled core with its pure-Python twin, for before a release
or after a change to the core's search (the test suite runs a smaller, faster share).

    python tests/soak.py [--rounds N] [--seed S]

Each round deals seeded hands of every size from 1 to 16 cards, from two decks and from
four (party mode), each with a random wild rank, plus a share of the adversarial set of
``fivecrowns.bench``, and compares both cores' ``deadwood_many``, ``discard_deadwood_many``
and ``draw_table_row`` answers. The compiled core runs its bulk paths on two threads.
A round is about 19,000 hands, most of the time spent in the twin. Exits 1
and prints the first differing hand of each workload that differs.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import numpy.typing as npt

from fivecrowns import _solver_py as twin
from fivecrowns.bench import adversarial_hands
from fivecrowns.dealing import random_hands

try:
    from fivecrowns import _solver as compiled  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - nothing to compare without it
    compiled = None

HANDS_PER_SIZE = 300
TABLES_PER_SIZE = 3


class Soak:
    def __init__(self) -> None:
        self.hands = 0
        self.differences = 0

    def compare(self, what: str, counts: npt.NDArray[np.uint8], wilds: npt.NDArray[np.int8],
                ours: npt.NDArray[np.int32], theirs: npt.NDArray[np.int32]) -> None:
        self.hands += counts.shape[0]
        differ = np.nonzero(ours != theirs)[0]
        if differ.size:
            self.differences += int(differ.size)
            i = int(differ[0])
            print(f"DIFFERENT {what}: {differ.size} hands, first {counts[i].tolist()} "
                  f"wild {int(wilds[i])}: compiled {ours[i]}, twin {theirs[i]}", flush=True)

    def bulk(self, what: str, counts: npt.NDArray[np.uint8], wilds: npt.NDArray[np.int8],
             decks: int, discard: bool) -> None:
        name = "discard_deadwood_many" if discard else "deadwood_many"
        ours = getattr(compiled, name)(counts, wilds, decks, 2)
        theirs = getattr(twin, name)(counts, wilds, decks, 1)
        self.compare(f"{name}, {what}", counts, wilds, ours, theirs)

    def tables(self, what: str, counts: npt.NDArray[np.uint8], wilds: npt.NDArray[np.int8],
               decks: int) -> None:
        for row, wild in zip(counts, wilds):
            self.hands += 1
            ours = compiled.draw_table_row(row, int(wild), decks)
            theirs = twin.draw_table_row(row, int(wild), decks)
            if not np.array_equal(ours, theirs):
                self.differences += 1
                print(f"DIFFERENT draw_table, {what}: {row.tolist()} wild {int(wild)}: "
                      f"compiled {ours.tolist()}, twin {theirs.tolist()}", flush=True)

    def round(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        for decks in (2, 4):
            for size in range(1, 17):
                counts = random_hands(HANDS_PER_SIZE, size, seed=seed * 100 + size, decks=decks)
                wilds = rng.integers(3, 14, size=HANDS_PER_SIZE).astype(np.int8)
                what = f"{size} cards, {decks} decks, seed {seed}"
                self.bulk(what, counts, wilds, decks, discard=False)
                if size >= 2:
                    self.bulk(what, counts, wilds, decks, discard=True)
                if size <= 15:
                    self.tables(what, counts[:TABLES_PER_SIZE], wilds[:TABLES_PER_SIZE], decks)
        counts, wilds = adversarial_hands(HANDS_PER_SIZE, seed=seed)
        what = f"adversarial, seed {seed}"
        self.bulk(what, counts, wilds, 2, discard=False)
        self.bulk(what, counts, wilds, 2, discard=True)
        small = counts.sum(axis=1) <= 15
        self.tables(what, counts[small][:TABLES_PER_SIZE], wilds[small][:TABLES_PER_SIZE], 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds of hands (default 40)")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first round")
    args = parser.parse_args(argv)
    if compiled is None:
        print("the compiled core is not built: nothing to compare", file=sys.stderr)
        return 2
    soak = Soak()
    start = time.perf_counter()
    for k in range(args.rounds):
        soak.round(args.seed + k)
        print(f"round {k + 1}/{args.rounds}: {soak.hands:,} hands compared, "
              f"{soak.differences} different, {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if soak.differences else 0


if __name__ == "__main__":
    sys.exit(main())
