"""Score a Parquet file of hands: every row gets its deadwood, and bad rows are set aside.

    python examples/score_parquet.py [hands.parquet] [--wild 13] [--out scored.parquet]

Without an input file it writes a small one first (random hands of 3 to 13 cards in a
text column ``hand``, and one row that is not a hand), so the example runs as it is.
Needs the ``fivecrowns[io]`` extra (pyarrow). The same job from the command line is
``fivecrowns score IN OUT --wild 13``; files of millions of rows stream in batches, with
flat memory.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import fivecrowns as fc
from fivecrowns.files import score_file


def demo_file(path: Path, rows: int, seed: int) -> None:
    """``rows`` random hands of 3 to 13 cards as text, and one bad row at the end."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(3, 14, rows)
    hands = [fc.format_cards(fc.from_counts(fc.random_hands(1, int(n), seed=rng)[0]))
             for n in sizes]
    table = pa.table({"id": np.arange(rows + 1), "hand": hands + ["3C 9Z"]})
    pq.write_table(table, path)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("src", nargs="?", type=Path, help="a Parquet file with a 'hand' column")
    p.add_argument("--wild", type=int, default=13, help="the wild rank, 3..13 (13: Kings)")
    p.add_argument("--out", type=Path, help="where to write (default: beside the input)")
    p.add_argument("--rows", type=int, default=1000, help="rows of the demo file")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = args.src
        if src is None:
            src = Path(tmp) / "hands.parquet"
            demo_file(src, args.rows, args.seed)
        dst = args.out or src.with_name(src.stem + "-scored.parquet")
        bad = dst.with_name(dst.stem + "-bad.csv")
        summary = score_file(src, dst, wild=args.wild, discard=True, skip_bad=bad)
        print(summary)
        scored = pq.read_table(dst)
        dead = scored.column("deadwood").to_numpy()
        out = (scored.column("discard_deadwood").to_numpy() == 0).mean()
        print(f"mean deadwood {dead.mean():.2f}; {100 * out:.1f}% of the hands can go out "
              f"after one discard")
        for row in scored.slice(0, 3).to_pylist():
            print(f"  {row['hand']:<40} deadwood {row['deadwood']:>3}")
        if summary.skipped:
            print(f"bad rows ({bad.name}: the input's columns and the problem):")
            for line in bad.read_text(encoding="utf-8").strip().splitlines()[1:]:
                print(f"  {line}")


if __name__ == "__main__":
    main()
