"""Games per second on Ray against the local process pool, through the same runner.

    python benchmarks/bench_ray.py [--games 2000] [--jobs 2] [--players 3] [--repeat 3]

Plays ``--games`` whole games (rounds 1 to 11) of GreedyBots with
:func:`fivecrowns.runner.run_in_order`, on the local pool (``jobs`` processes, started
for each run, as the simulators do) and on a local Ray of ``jobs`` CPUs (started once,
before timing, as a cluster would be), alternately, ``--repeat`` times each, and prints
the best rate of each and their ratio. The results of both backends are checked equal.
"""

from __future__ import annotations

import argparse
import functools
import time


def play(players: int, seed: int) -> tuple[int, ...]:
    """One seeded game of GreedyBots: the totals."""
    from fivecrowns.bots import GreedyBot
    from fivecrowns.players import play_game

    return tuple(play_game([GreedyBot() for _ in range(players)], seed=seed).totals)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()

    import ray

    from fivecrowns.runner import run_in_order

    ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False)
    fn = functools.partial(play, args.players)
    seeds = list(range(args.games))
    run_in_order(fn, seeds[: 4 * args.jobs], backend="ray", chunk_size=1)  # workers up
    best = {"local": 0.0, "ray": 0.0}
    results = {}
    for _ in range(args.repeat):
        for backend in ("local", "ray"):
            started = time.perf_counter()
            results[backend] = run_in_order(fn, seeds, jobs=args.jobs, backend=backend)
            rate = args.games / (time.perf_counter() - started)
            best[backend] = max(best[backend], rate)
            print(f"  {backend:5} {rate:7.1f} games/s")
    assert results["local"] == results["ray"], "the backends disagree"
    ray.shutdown()
    print(f"{args.games} games, {args.players} GreedyBots, {args.jobs} workers: "
          f"local pool {best['local']:.1f} games/s, Ray {best['ray']:.1f} games/s "
          f"(Ray/local = {best['ray'] / best['local']:.2f})")


if __name__ == "__main__":
    main()
