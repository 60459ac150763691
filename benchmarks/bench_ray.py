"""Games per second on Ray against the local process pool, through the same runner.

    python benchmarks/bench_ray.py [--games 2000] [--jobs 2] [--players 3] [--repeat 3]

Plays ``--games`` whole games (rounds 1 to 11) of GreedyBots with
:func:`fivecrowns.runner.run_in_order`, on the local pool (``jobs`` processes, started
for each run, as the simulators do) and on a local Ray of ``jobs`` CPUs (started once,
before timing, as a cluster would be), alternately, ``--repeat`` times each, and prints
the best rate of each and their ratio. The results of both backends are checked equal.
"""

from __future__ import annotations

import functools

from _harness import WALL, core_line, parser, seeds, table


def play(players: int, seed: int) -> tuple[int, ...]:
    """One seeded game of GreedyBots: the totals."""
    from fivecrowns.bots import GreedyBot
    from fivecrowns.players import play_game

    return tuple(play_game([GreedyBot() for _ in range(players)], seed=seed).totals)


def main() -> None:
    p = parser(__doc__, games=2000, jobs=2, repeat=3)
    p.add_argument("--players", type=int, default=3)
    args = p.parse_args()

    import ray

    from fivecrowns.runner import run_in_order

    ray.init(num_cpus=args.jobs, include_dashboard=False, log_to_driver=False)
    fn = functools.partial(play, args.players)
    games = list(seeds(0, args.games))
    run_in_order(fn, games[: 4 * args.jobs], backend="ray", chunk_size=1)  # workers up
    best = {"local": 0.0, "ray": 0.0}
    results = {}
    rows = []
    for i in range(args.repeat):
        for backend in ("local", "ray"):
            started = WALL()
            results[backend] = run_in_order(fn, games, jobs=args.jobs, backend=backend)
            rate = args.games / (WALL() - started)
            best[backend] = max(best[backend], rate)
            rows.append([i + 1, backend, rate])
    assert results["local"] == results["ray"], "the backends disagree"
    ray.shutdown()
    print(f"{args.games} games, {args.players} GreedyBots, {args.jobs} workers; {core_line()}")
    print(table(["run", "backend", "games/s"], rows, ["d", "", ".1f"], "  "))
    print(f"local pool {best['local']:.1f} games/s, Ray {best['ray']:.1f} games/s "
          f"(Ray/local = {best['ray'] / best['local']:.2f})")


if __name__ == "__main__":
    main()
