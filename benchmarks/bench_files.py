"""Scoring a large Parquet file of hands end to end, on one core, with its peak memory.

    python benchmarks/bench_files.py [--rows 10000000] [--layout text|counts] [--discard]
        [--seed 0]

Makes the file once (random hands of 3 to 13 cards, as the rounds deal them; kept in
``--dir``), then times :func:`fivecrowns.files.score_file` from Parquet to Parquet in a
fresh process pinned to one core (pyarrow's thread pools set to one thread, the solver on
one thread), and prints hands per second and that process's peak resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from _harness import CPU, WALL, core_line, parser, table


def make_file(path: Path, rows: int, layout: str, seed: int = 0) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from fivecrowns.files import CARD_COLUMNS

    rng = np.random.default_rng(seed)
    codes = pa.array(CARD_COLUMNS)
    block = 1_000_000
    writer = None
    tmp = path.with_name(path.name + ".part")
    for start in range(0, rows, block):
        n = min(block, rows - start)
        sizes = rng.integers(3, 14, n)
        # Cards drawn from the 116 of two decks; a card type drawn more often than the
        # decks hold is dropped, so a few hands come out a card short.
        cards = rng.integers(0, 116, (n, 13))
        types = np.where(cards >= 110, 55, cards // 2).astype(np.int64)
        held = np.arange(13)[None, :] < sizes[:, None]
        counts = np.zeros((n, 56), dtype=np.int64)
        np.add.at(counts, (np.repeat(np.arange(n), 13)[held.ravel()], types[held]), 1)
        counts[:, :55] = np.minimum(counts[:, :55], 2)
        counts[:, 55] = np.minimum(counts[:, 55], 6)
        counts8 = counts.astype(np.uint8)
        if layout == "counts":
            table = pa.table({c: counts8[:, j] for j, c in enumerate(CARD_COLUMNS)})
        else:
            per_row = counts8.sum(axis=1)
            idx = np.repeat(np.tile(np.arange(56), n), counts8.ravel())
            offsets = np.concatenate([[0], np.cumsum(per_row, dtype=np.int32)])
            lists = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()),
                                             codes.take(pa.array(idx)))
            table = pa.table({"id": pa.array(np.arange(start, start + n)),
                              "hand": pc.binary_join(lists, " ")})
        if writer is None:
            writer = pq.ParquetWriter(tmp, table.schema)
        writer.write_table(table, row_group_size=256 * 1024)
    assert writer is not None
    writer.close()
    os.replace(tmp, path)


def run(src: Path, dst: Path, discard: bool, batch_size: int) -> dict[str, float]:
    """Score src into dst here, pinned to one core; the numbers as a dict."""
    import pyarrow as pa

    from fivecrowns.files import score_file

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    started, cpu = WALL(), CPU()
    summary = score_file(src, dst, wild=9, discard=discard, batch_size=batch_size)
    seconds, cpu = WALL() - started, CPU() - cpu
    # VmHWM, not getrusage's ru_maxrss: Linux carries the latter over from the parent
    # process across exec.
    with open("/proc/self/status") as f:
        peak_kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM"))
    return {"rows": summary.rows, "seconds": seconds, "per_s": summary.rows / seconds,
            "cpu_s": cpu, "per_cpu_s": summary.rows / cpu, "peak_mb": peak_kb / 1024}


def main() -> None:
    p = parser(__doc__, seed=0)
    p.add_argument("--rows", type=int, default=10_000_000)
    p.add_argument("--layout", choices=["text", "counts"], default="text")
    p.add_argument("--discard", action="store_true")
    p.add_argument("--batch-size", type=int, default=65536)
    p.add_argument("--dir", type=Path, default=Path("/tmp/fivecrowns-bench"))
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    name = f"{args.layout}-{args.rows}" + (f"-seed{args.seed}" if args.seed else "")
    src = args.dir / f"hands-{name}.parquet"
    dst = args.dir / f"scored-{name}.parquet"
    if args.child:
        print(json.dumps(run(src, dst, args.discard, args.batch_size)))
        return
    args.dir.mkdir(parents=True, exist_ok=True)
    if not src.exists():
        t = WALL()
        make_file(src, args.rows, args.layout, args.seed)
        print(f"made {src} ({src.stat().st_size / 1e6:.0f} MB) in {WALL() - t:.0f} s")
    out = subprocess.run([sys.executable, __file__, "--child", *sys.argv[1:]], check=True,
                         capture_output=True, text=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{core_line()}; scored on one core, wild 9")
    print(table(["layout", "discard", "hands", "seconds", "M hands/s", "M per CPU-s",
                 "peak RSS MB"],
                [[args.layout, str(args.discard), r["rows"], r["seconds"], r["per_s"] / 1e6,
                  r["per_cpu_s"] / 1e6, r["peak_mb"]]],
                ["", "", ",d", ".2f", ".2f", ".2f", ".0f"]))
    dst.unlink()


if __name__ == "__main__":
    main()
