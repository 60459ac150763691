"""Decision data and LearnedBot: decisions recorded a minute, compiled and Python routes;
LearnedBot's milliseconds per decision and its paired gain over StrongBot.

Run as a script::

    python benchmarks/bench_decisions.py                      # rates, ExpertBot, 4 players
    python benchmarks/bench_decisions.py --policy StrongBot   # another policy
    python benchmarks/bench_decisions.py --only time          # LearnedBot, ms per decision
    python benchmarks/bench_decisions.py --only gain --games 2000 --seed 3 --jobs 2
    python benchmarks/bench_decisions.py --only gain --players 2 --weights FILE.npz

``rate`` times, in one run on the same games, (a) the engine alone playing the games
(:func:`fivecrowns.rollout.play_games`), (b) :func:`fivecrowns.decisions.record_decisions`
(the same games, every decision noted and encoded), both on every core, and (c) the Python
route: :class:`~fivecrowns.game.Game` stepped with the Python bots, each decision's
``encode_observation`` and ``legal_action_mask`` taken (one core; ``--python-games``
games). ``--policy`` is a bot's name in :mod:`fivecrowns.registry` that the engine plays
as a policy, other than ``random`` (whose engine policy draws from the engine's generator,
so the Python route would play other games). Decisions a minute are given by the wall
clock and by the process's CPU time times two cores: on a machine shared with other work
the wall clock says more about the others' load than about the code. ``time`` is
LearnedBot's CPU time per decision in ``--timing-games`` games against three StrongBots;
``gain`` a duplicate match with StrongBots (``duplicate_match(LearnedBot, StrongBot,
...)``; ``--players`` at the table, ``--weights`` other weights than the shipped), deals
seeded from ``--seed``, beside ExpertBot's gain on the same deals and seats
(compiled, as ``bench_expert.py``) and the two bots' difference deal by deal.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from _harness import core_line, decision_summary, decision_times, parser
from bench_expert import compiled_duplicate
from fivecrowns import (
    Game,
    LearnedBot,
    StrongBot,
    duplicate_match,
    player_action,
)
from fivecrowns.decisions import record_decisions
from fivecrowns.duplicate import paired_gains
from fivecrowns.envs.encoding import encode_observation
from fivecrowns.registry import engine_policy, parse_bot
from fivecrowns.rollout import play_games
from fivecrowns.seeding import game_seeds, play_seeds
from fivecrowns.stats import mean_interval

#: The cores the figures a minute are projected to (the project's machine).
CORES = 2
#: The engine's policies the Python route plays the same games of (not its own random).
_NOT_PYTHON = ("random",)


def python_route(games: int, seed: int, policy: str, n_players: int) -> tuple[int, float]:
    """Decisions and seconds of the Python route over the first ``games`` games, played by
    the bots the registry makes of ``policy`` (an unknown name is its error)."""
    make = parse_bot(policy).factory()
    start = time.perf_counter()
    n = 0
    for s in game_seeds(seed, games):
        game = Game(n_players, seed=s)
        bots = [make(k) for k in play_seeds(s, 0, n_players)]
        while not game.is_over:
            p = game.current_player
            obs = game.observation(p)
            encode_observation(obs)
            game.legal_action_mask()
            game.apply_action(player_action(bots[p], obs))
            n += 1
    return n, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, games=400, seed=0, jobs=2)
    p.add_argument("--policy", default="expert", type=_policy,
                   help="a bot the engine plays: greedy, strong or expert (default expert)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--threads", type=int, default=None, help="engine threads")
    p.add_argument("--python-games", type=int, default=4)
    p.add_argument("--timing-games", type=int, default=8)
    p.add_argument("--only", choices=["rate", "time", "gain"], action="append")
    p.add_argument("--weights", help="LearnedBot's weights for time and gain (default the "
                                     "shipped ones)")
    args = p.parse_args(argv)
    parts = args.only or ["rate", "time"]
    print(core_line(), flush=True)
    if "rate" in parts:
        wall, cpu = time.perf_counter(), time.process_time()
        play_games(args.games, seed=args.seed, n_players=args.players,
                   policy=args.policy, threads=args.threads)
        engine = (time.perf_counter() - wall, time.process_time() - cpu)
        wall, cpu = time.perf_counter(), time.process_time()
        d = record_decisions(args.games, seed=args.seed, n_players=args.players,
                             policy=args.policy, threads=args.threads)
        recorded = (time.perf_counter() - wall, time.process_time() - cpu)
        cpu = time.process_time()
        n_py, t_py = python_route(args.python_games, args.seed, args.policy, args.players)
        python = (t_py, time.process_time() - cpu)
        print(f"{args.policy}, {args.players} players, {args.games} games, "
              f"{len(d):,} decisions ({len(d) / args.games:.0f} a game); decisions a "
              f"minute: by the wall clock, and by CPU time times {CORES} cores (what "
              f"{CORES} idle cores would do)")
        for name, n, (w, c) in (("engine alone (play_games)", len(d), engine),
                                ("record_decisions", len(d), recorded),
                                (f"Python route ({args.python_games} games)", n_py,
                                 python)):
            print(f"  {name:28s} wall {w:7.2f} s {n / w * 60:11,.0f}   CPU {c:7.2f} s "
                  f"{n / c * 60 * CORES:11,.0f}")
        print(f"  record_decisions / Python route, CPU time: "
              f"{len(d) / recorded[1] / (n_py / python[1]):.1f}x a core", flush=True)
    if "time" in parts:
        ts = np.array(decision_times(lambda s: LearnedBot(weights=args.weights),
                                     args.timing_games,
                                     args.seed)) * 1e3
        p95 = float(np.percentile(ts, 95))
        print(f"LearnedBot: ms per decision (CPU, one core, {ts.size} decisions): "
              f"{decision_summary(ts, 2)}; target p95 <= 5: "
              f"{'met' if p95 <= 5 else 'NOT met'}", flush=True)
    if "gain" in parts:
        start = time.perf_counter()
        learned = LearnedBot if args.weights is None else f"learned:weights={args.weights}"
        report = duplicate_match(learned, StrongBot, [StrongBot] * (args.players - 1),
                                 args.games, seed=args.seed, jobs=args.jobs)
        print(report.table())
        lo, hi = report.gain_ci
        print(f"LearnedBot's paired gain over StrongBot, {args.players} players, "
              f"{args.games} deals, seed "
              f"{args.seed}: {report.gain:+.2f} ({lo:+.2f}..{hi:+.2f}) in "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        # ExpertBot on the same deals and seats, in the compiled engine (bench_expert's)
        expert = paired_gains(*compiled_duplicate("expert", "strong", args.players,
                                                  args.games, args.seed, args.threads))
        e, (elo, ehi) = mean_interval(expert)
        diff, (dlo, dhi) = mean_interval(report.gains - expert)
        print(f"ExpertBot's on the same deals: {e:+.2f} ({elo:+.2f}..{ehi:+.2f}); "
              f"LearnedBot less ExpertBot, deal by deal: {diff:+.2f} ({dlo:+.2f}..{dhi:+.2f})",
              flush=True)
    return 0


def _policy(name: str) -> str:
    """``--policy``: a registry name of a bot the engine plays, as the engine names it."""
    try:
        return engine_policy(name, what="--policy", exclude=_NOT_PYTHON,
                             user="the Python route")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


if __name__ == "__main__":
    sys.exit(main())
