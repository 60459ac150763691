"""Soak: peak memory of the long calls at 10**5 to 10**7 games or rows; Ctrl-C at random.

    python benchmarks/soak_memory.py [--sizes 100000,1000000] [--only play_games,...]
                                     [--quick] [--interrupt K] [--seed S]

Memory: each (workload, size) runs in a fresh Python process, which reports its peak
resident memory (``ru_maxrss``) before the call (inputs made, modules imported) and after
it, and the size of the call's result. A call whose memory is bounded in n grows by its
result and a working set that does not depend on n.

- ``play_games``: ``play_games(n, seed=S)``, greedy, one thread per core; the result is
  32 bytes a game. ``--rounds 1`` plays one-round games: the memory does not depend on a
  game's length, and 10**7 games take minutes instead of an hour.
- ``play_out``: ``play_out(rounds)`` over n rounds (11 cards, 4 players: a thousand
  distinct rounds repeated, since the rounds are the caller's and only read); 16 bytes a
  round. The list of n rounds (8 bytes each) is made before the baseline.
- ``score_file``: ``score_file`` from a ``.npy`` of n random 11-card hands to a ``.npy``
  with ``deadwood`` (written first, by another process); the result is on disk.

Interrupts (``--interrupt K``): every long call of ``tests/helpers/interrupt_target.py`` is started
K times and sent SIGINT (to its process group, as a terminal's Ctrl-C) at a random moment
0.2 to 4 s after it is ready; each must exit 130 with no thread or worker process left and
no output that looks complete. The table gives the time from the signal to the exit. The
scoring calls get 10**7 rows here (seconds of work on an idle machine, where the suite's
2 * 10**6 can end before the signal); a call that still ends first is counted apart, as
neither clean nor failed.

Sizes are not run in the unit tests: ``--quick`` is 10**4 and 10**5 and two interrupts a
call; the full soak (10**5, 10**6, 10**7) takes most of an hour on 2 cores.
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from _harness import SEED, parser, table

WORKLOADS = ("play_games", "play_out", "score_file")
HERE = Path(__file__).resolve().parent
TARGET = HERE.parent / "tests" / "helpers" / "interrupt_target.py"


def _rss_mb() -> float:
    # ru_maxrss is in kilobytes on Linux (bytes on macOS)
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20


def _write_hands(path: Path, n: int, seed: int, block: int = 100_000) -> None:
    """A .npy of n random 11-card hands, written block by block."""
    from numpy.lib.format import open_memmap

    from fivecrowns.dealing import random_hands

    out = open_memmap(path, mode="w+", dtype=np.uint8, shape=(n, 56))
    for i, start in enumerate(range(0, n, block)):
        stop = min(n, start + block)
        out[start:stop] = random_hands(stop - start, 11, seed=seed + i)
    out.flush()
    del out


def child(workload: str, n: int, seed: int, folder: Path,
          rounds: list[int] | None = None) -> dict[str, object]:
    """Run one workload here (a fresh process) and report its memory."""
    import fivecrowns  # noqa: F401 - imported before the baseline
    from fivecrowns.files import score_file
    from fivecrowns.rollout import deal_rounds, play_games, play_out

    call: object
    result_mb = 0.0
    if workload == "play_games":
        play_games(10, seed=seed)  # the engine and threads warmed up before the baseline

        def call() -> object:
            return play_games(n, seed=seed, rounds=rounds)
        result_mb = n * 4 * 8 / 2**20
    elif workload == "play_out":
        base = deal_rounds(1000, seed=seed, round_number=11)
        many = (base * (-(-n // 1000)))[:n]

        def call() -> object:
            return play_out(many)
        result_mb = n * 4 * 4 / 2**20
    elif workload == "score_file":
        src, dst = folder / "hands.npy", folder / "scored.npy"

        def call() -> object:
            return score_file(src, dst, wild=13)
    else:
        raise ValueError(f"unknown workload {workload!r}")
    before = _rss_mb()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    return {"workload": workload, "n": n, "before": before, "peak": _rss_mb(),
            "result": result_mb, "seconds": seconds}


def measure(workload: str, n: int, seed: int, rounds: str | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="soak-") as name:
        folder = Path(name)
        if workload == "score_file":  # the input, made by another process
            subprocess.run([sys.executable, __file__, "--write-hands", str(n), str(folder),
                            "--seed", str(seed)], check=True)
        extra = [] if rounds is None else ["--rounds", rounds]
        done = subprocess.run([sys.executable, __file__, "--child", workload, str(n),
                               str(folder), "--seed", str(seed), *extra], check=True,
                              capture_output=True, text=True)
        return json.loads(done.stdout.strip().splitlines()[-1])


#: Sizes of the calls the soak interrupts, where interrupt_target.py's default is too short.
INTERRUPT_SIZES = {"score_file": 10**7, "cli_score": 10**7}


def interrupt(call: str, after: float) -> dict[str, Any]:
    """Start ``call`` of interrupt_target.py, SIGINT its group ``after`` seconds after it
    is ready, and check how it stopped."""
    size = INTERRUPT_SIZES.get(call)
    extra = [] if size is None else ["--size", str(size)]
    with tempfile.TemporaryDirectory(prefix="soak-int-") as name:
        child_p = subprocess.Popen([sys.executable, str(TARGET), call, name, *extra],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        assert child_p.stdout is not None
        ready = child_p.stdout.readline().strip()
        if ready != "READY":
            raise RuntimeError(f"{call} did not start: {child_p.communicate()[1]}")
        time.sleep(after)
        sent = time.perf_counter()
        os.killpg(child_p.pid, signal.SIGINT)
        try:
            out, err = child_p.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            child_p.kill()
            child_p.communicate()
            return {"ok": False, "why": "did not stop within 300 s", "stop": 300.0}
        stop = time.perf_counter() - sent
        report = json.loads(out.strip().splitlines()[-1])
        files = set(report["files"]) - {"hands.npy", "games.jsonl.part"}
        if child_p.returncode == 0 and not report["interrupted"]:  # done before the signal
            return {"ok": True, "first": True, "why": "", "stop": stop}
        problems = []
        if child_p.returncode != 130 or not report["interrupted"]:
            problems.append(f"exit {child_p.returncode}, interrupted={report['interrupted']}")
        if report["threads"] or report["children"]:
            problems.append(f"left {report['threads']} {report['children']}")
        if files:
            problems.append(f"output left: {sorted(files)}")
        return {"ok": not problems, "why": "; ".join(problems), "stop": stop}


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, quick=False, seed=SEED)
    p.add_argument("--sizes", default="100000,1000000,10000000",
                   help="games or rows, comma-separated (default 10**5, 10**6, 10**7)")
    p.add_argument("--only", default=",".join(WORKLOADS),
                   help=f"workloads, comma-separated ({', '.join(WORKLOADS)})")
    p.add_argument("--rounds", default=None, metavar="R,R,...",
                   help="play_games: the rounds of each game (default all 11)")
    p.add_argument("--interrupt", type=int, default=None, metavar="K",
                   help="interrupts per long call (0: none; default 5, 2 with --quick)")
    p.add_argument("--child", nargs=3, metavar=("WORKLOAD", "N", "FOLDER"),
                   help=argparse_hidden())
    p.add_argument("--write-hands", nargs=2, metavar=("N", "FOLDER"), help=argparse_hidden())
    args = p.parse_args(argv)
    if args.child:
        workload, n, folder = args.child
        rounds = None if args.rounds is None else [int(r) for r in args.rounds.split(",")]
        print(json.dumps(child(workload, int(n), args.seed, Path(folder), rounds)))
        return 0
    if args.write_hands:
        n, folder = args.write_hands
        _write_hands(Path(folder) / "hands.npy", int(n), args.seed)
        return 0
    sizes = [10**4, 10**5] if args.quick and "--sizes" not in (argv or sys.argv) else [
        int(float(s)) for s in args.sizes.split(",") if s]
    workloads = [w for w in args.only.split(",") if w]
    for w in workloads:
        if w not in WORKLOADS:
            p.error(f"unknown workload {w!r}: expected {', '.join(WORKLOADS)}")
    rows = []
    for w in workloads:
        for n in sizes:
            r = measure(w, n, args.seed, args.rounds)
            grown = r["peak"] - r["before"]
            rows.append([w, n, r["before"], r["peak"], grown, r["result"], grown - r["result"],
                         r["seconds"]])
            print(f"  {w} {n:,}: peak {r['peak']:.0f} MB ({r['seconds']:.0f} s)",
                  file=sys.stderr, flush=True)
    if rows:
        games = "" if args.rounds is None else f"; games of rounds {args.rounds}"
        print(f"peak RSS (MB) of each call in a fresh process; machine: {os.cpu_count()} "
              f"cores, shared{games}")
        print(table(["call", "n", "before", "peak", "grown", "result", "grown - result",
                     "seconds"], rows, ["", ",", ".0f", ".0f", ".0f", ".1f", ".0f", ".0f"]))
    k = args.interrupt if args.interrupt is not None else (2 if args.quick else 5)
    if k > 0:
        sys.path.insert(0, str(TARGET.parent))
        from interrupt_target import CALLS  # type: ignore[import-not-found]

        rng = random.Random(args.seed)
        out_rows = []
        failed = False
        for call in sorted(CALLS):
            results = [interrupt(call, rng.uniform(0.2, 4.0)) for _ in range(k)]
            bad = [r["why"] for r in results if not r["ok"]]
            first = sum(bool(r.get("first")) for r in results)
            failed |= bool(bad)
            stops = [float(r["stop"]) for r in results if not r.get("first")] or [0.0]
            out_rows.append([call, k, k - len(bad) - first, first, statistics.median(stops),
                             max(stops), "; ".join(str(b) for b in bad[:1]) or "-"])
        print(f"\nSIGINT at random moments (0.2-4 s after start), {k} per call")
        print(table(["call", "runs", "clean", "ended first", "median stop (s)",
                     "max stop (s)", "problem"],
                    out_rows, ["", "", "", "", ".2f", ".2f", ""]))
        return 1 if failed else 0
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    sys.exit(main())
