"""A bot's strength on duplicate deals and its time per decision (SearchBot by default).

Run as a script::

    python benchmarks/bench_search.py                        # SearchBot, 2,000 deals a match-up
    python benchmarks/bench_search.py --bot search:worlds=256 --games 4000 --jobs 2
    python benchmarks/bench_search.py --bot expert --only strong --only duel

``--bot`` takes any bot spec of ``fivecrowns simulate --bots`` (a registered name with
options, or ``module:Class``; see ``fivecrowns simulate --list-bots``). Each match-up is a
*duplicate match* (``duplicate_match(bot, reference, field, games)``): every deal is played once
with the bot and once with the reference bot (``--reference``, StrongBot by default) in its
seat, seats rotated, and the bot's *paired gain* is the points a game it scores below the
field, less what the reference scores below it on the same deals, with a 95% interval. The
targets of 0.3 (issue 25) are in that unit:

==========================================  ========
bot + 3 StrongBots (4 players)              >= +3.0
bot vs StrongBot (2 players)                >= +4.0
bot + 3 GreedyBots (4 players)              reported
ms per decision, p95, one core              <= 100
==========================================  ========

The time per decision is CPU time of this process (one core) over every decision the bot
makes in ``--timing-games`` 4-player games against StrongBots. ``--only worlds`` measures
SearchBot's inner loop: play-outs per second of :func:`fivecrowns.rollout.play_worlds`
against the same worlds sampled in Python. ``--only edges`` translates 0.2's win-rate targets
(32% with three StrongBots, 55% with three GreedyBots, 60% heads-up) into game points, from
40,000 games of the opponents' policy in every seat (about 20 s).

With pytest-benchmark::

    python -m pytest benchmarks/bench_search.py --benchmark-only
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from _harness import CPU, WALL, core_line, decision_summary, parser, table
from _harness import decision_times as harness_decision_times
from fivecrowns import GreedyBot, Round, StrongBot, duplicate_match, player_action
from fivecrowns.records import Phase
from fivecrowns.registry import parse_bot
from fivecrowns.rollout import ROLLOUT_IMPLEMENTATION, play_games, play_out, play_worlds
from fivecrowns.search import win_chances

#: key -> (title, field, target paired gain or None)
MATCHES: dict[str, tuple[str, list[Any], float | None]] = {
    "strong": ("+ 3 StrongBots", [StrongBot] * 3, 3.0),
    "duel": ("vs StrongBot", [StrongBot], 4.0),
    "greedy": ("+ 3 GreedyBots", [GreedyBot] * 3, None),
}

#: 0.2's win-rate targets (title, opponents' policy, players, win rate), for ``--only edges``.
WIN_RATE_TARGETS = [("+ 3 StrongBots", "strong", 4, 0.32),
                    ("+ 3 GreedyBots", "greedy", 4, 0.55),
                    ("vs StrongBot", "strong", 2, 0.60)]

#: Decisions slower than this at p95 miss the target (ms of CPU time, one core).
MAX_P95_MS = 100.0


def decision_times(spec: str, games: int, seed: int) -> np.ndarray:
    """Seconds of CPU time of each decision of the bot ``spec`` in ``games`` games against
    three StrongBots (:func:`_harness.decision_times`)."""
    return np.array(harness_decision_times(parse_bot(spec).factory(), games, seed))


def _positions(n: int, seed: int) -> list[Round]:
    """Rounds of every size StrongBots have played some turns into, at a player's draw."""
    rng = np.random.default_rng(seed)
    out: list[Round] = []
    while len(out) < n:
        r = Round(4, int(rng.integers(1, 12)), seed=int(rng.integers(2**31)))
        bot = StrongBot()
        for _ in range(int(rng.integers(1, 8)) * 2):
            if r.is_over or r.went_out is not None:
                break
            r.apply_action(player_action(bot, r.observation(r.current_player)))
        if not r.is_over and r.went_out is None and r.phase is Phase.DRAW:
            out.append(r)
    return out


def world_rates(positions: int = 40, worlds: int = 64, seed: int = 1) -> dict[str, float]:
    """Play-outs (world x move) per second of CPU time: ``rollout.play_worlds`` against
    the same work with the worlds sampled in Python (``Round.determinize``, clones, each
    move made) and played out by the compiled ``rollout.play_out``."""
    rounds = _positions(positions, seed)
    rng = np.random.default_rng(seed)
    rates = {}
    for policy in ("greedy", "strong"):
        start = CPU()
        for r in rounds:
            play_worlds(r, [0, 1], worlds=worlds, seed=seed, policy=policy,  # type: ignore[arg-type]
                        threads=1)
        rates[f"play_worlds, {policy}"] = 2 * worlds * len(rounds) / (CPU() - start)
        start = CPU()
        for r in rounds:
            batch = []
            for _ in range(worlds):
                world = r.determinize(r.current_player, rng)
                for a in (0, 1):
                    c = world.clone()
                    c.apply_action(a)
                    batch.append(c)
            play_out(batch, policy=policy, threads=1)  # type: ignore[arg-type]
        rates[f"Python worlds + play_out, {policy}"] = 2 * worlds * len(rounds) / (
            CPU() - start)
    return rates


def shifted_win_rate(totals: np.ndarray, shift: float) -> float:
    """The win rate of a player whose game total is ``shift`` points below its seat's
    actual total, each seat in turn (ties for the lowest total shared: ``win_chances``
    with no round left)."""
    rates = []
    for s in range(totals.shape[1]):
        t = totals.astype(np.float64)
        t[:, s] -= shift
        rates.append(float(win_chances(t, s, 0).mean()))
    return float(np.mean(rates))


def target_edges(games: int = 40000, seed: int = 1) -> list[tuple[str, float, float]]:
    """0.2's win-rate targets in game points: ``(title, points, mean total)`` for each of
    :data:`WIN_RATE_TARGETS`: how many points a game a player must score below the
    opponents' policy, in games where every seat plays it (``rollout.play_games``), to win
    at the target rate, and that policy's mean game total. Found by bisection on the
    shift (the win rate grows with it)."""
    out = []
    for title, policy, players, target in WIN_RATE_TARGETS:
        totals = play_games(games, seed=seed, n_players=players,
                            policy=policy)  # type: ignore[arg-type]
        lo, hi = 0.0, 200.0
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if shifted_win_rate(totals, mid) < target else (lo, mid)
        out.append((title, hi, float(totals.mean())))
    return out


def test_decision_time(benchmark: Any) -> None:  # pragma: no cover - pytest-benchmark
    benchmark.pedantic(decision_times, args=("search", 1, 12345), rounds=1, iterations=1)


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, games=2000, seed=0, jobs=1)
    p.add_argument("--bot", default="search",
                   help="the bot under test, a spec of `fivecrowns simulate --bots` "
                        "(default search)")
    p.add_argument("--reference", default="strong",
                   help="the bot played in its seat on the same deals (default strong)")
    p.add_argument("--timing-games", type=int, default=5,
                   help="games whose decisions are timed (one core)")
    p.add_argument("--only", choices=[*MATCHES, "time", "worlds", "edges"], action="append",
                   help="run only these parts (repeatable)")
    args = p.parse_args(argv)
    parts = args.only or [*MATCHES, "time", "worlds"]
    try:
        bot, reference = parse_bot(args.bot), parse_bot(args.reference)
    except ValueError as exc:
        p.error(str(exc))
    print(f"{core_line()}; SearchBot's rollouts: {ROLLOUT_IMPLEMENTATION}; bot {bot.label}, "
          f"reference {reference.label}; seed {args.seed}; {args.games} deals a match-up; "
          f"jobs {args.jobs}", flush=True)
    ok = True
    rows = []
    for key, (title, field, target) in MATCHES.items():
        if key not in parts:
            continue
        start = WALL()
        names = [bot.label] + [o.name for o in field]
        ref = reference.factory()
        report = duplicate_match(bot.factory(), ref, field, args.games, seed=args.seed,
                                 jobs=args.jobs, names=[names[0], ref.name, *names[1:]])
        met = target is None or report.gain >= target
        ok &= met
        lo, hi = report.gain_ci
        rows.append([f"{bot.label} {title}", f"{report.gain:+.2f}", f"{lo:+.2f}..{hi:+.2f}",
                     f"{100 * report.win_rate:.2f}%", f"{100 * report.reference_win_rate:.2f}%",
                     "" if target is None else f">= {target:+.1f}: {'met' if met else 'NOT met'}",
                     f"{WALL() - start:.0f}"])
        print(f"\n{report.table()}", flush=True)
    if rows:
        print("\npaired gain over the reference, points a game (95% CI), duplicate deals:")
        print(table(["match-up", "gain", "95% CI", "win rate", "reference's", "target", "s"],
                    rows, indent="  "))
    if "time" in parts:
        ts = decision_times(args.bot, args.timing_games, args.seed) * 1e3
        p95 = float(np.percentile(ts, 95))
        met = p95 <= MAX_P95_MS
        ok &= met
        print(f"\nms per decision of {bot.label} (CPU, one core, {ts.size} decisions): "
              f"{decision_summary(ts)}; target p95 <= {MAX_P95_MS:.0f}: "
              f"{'met' if met else 'NOT met'}", flush=True)
    if "worlds" in parts:
        rates = world_rates()
        print("\nplay-outs (world x move) per second, CPU, one core, 4 players, mid-round:")
        print(table(["", "per s"], [[k, v] for k, v in rates.items()], [",.0f", ",.0f"],
                    indent="  "))
        for policy in ("greedy", "strong"):
            ratio = rates[f"play_worlds, {policy}"] / rates[f"Python worlds + play_out, {policy}"]
            print(f"  ratio play_worlds / Python worlds, {policy}: x{ratio:.1f}")
    if "edges" in parts:
        print("\n0.2's win-rate targets in points (40,000 games of the opponents' policy in "
              "every seat, compiled engine):")
        for title, points, mean in target_edges(seed=args.seed + 1):
            print(f"  {title:<16} {points:5.1f} points a game below the opponents' "
                  f"(their mean total {mean:.1f}: {points / mean:.0%})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
