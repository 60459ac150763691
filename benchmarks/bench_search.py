"""SearchBot's strength and speed: win rates (seats rotated, 95% Wilson intervals, via
``simulate_games``) and milliseconds per decision at the default budget.

Run as a script::

    python benchmarks/bench_search.py                 # 2,000 games per match-up
    python benchmarks/bench_search.py --games 200 --jobs 2

The match-ups and their targets:

==========================================  ======
SearchBot + 3 StrongBots (4 players)        >= 32%
SearchBot + 3 GreedyBots (4 players)        >= 55%
SearchBot vs StrongBot (2 players)          >= 60%
ms per decision, default budget, one core   <= 100
==========================================  ======

``--only worlds`` measures the inner loop: play-outs per second of
:func:`fivecrowns.rollout.play_worlds` against the same worlds sampled in Python.
``--only edges`` says what each target asks for in game points: how far below the
opponents' own mean total a player must score to win that often (from 40,000 games of
the opponents' policy in every seat, shifted; about 20 s).

Each match-up also prints SearchBot's *gain*: the points a game it scores below its
opponents' mean, less what a StrongBot in its seat scores below them in the same games
(same seeds, so the same deals), with a 95% interval. Paired on the deals, it is far less
noisy than a win rate, and it is in the unit of ``--only edges``.

The time per decision is CPU time of this process (one core) over every SearchBot
decision of ``--timing-games`` 4-player games against StrongBots. The rollouts are those
of :func:`fivecrowns.search.play_out`: the compiled engine when it is installed, else the
(much slower) Python twin; the script prints which. With pytest-benchmark::

    python -m pytest benchmarks/bench_search.py --benchmark-only
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from typing import Any

import numpy as np

from fivecrowns import GreedyBot, Round, StrongBot, play_game, simulate_games
from fivecrowns.duplicate import paired_gain as library_paired_gain
from fivecrowns.records import Observation, Phase
from fivecrowns.rollout import play_games, play_out, play_worlds
from fivecrowns.search import ROLLOUT_IMPLEMENTATION, SearchBot, win_chances

#: (name, opponents, target win rate)
MATCHES: list[tuple[str, list[Any], float]] = [
    ("SearchBot + 3 StrongBots", [StrongBot] * 3, 0.32),
    ("SearchBot + 3 GreedyBots", [GreedyBot] * 3, 0.55),
    ("SearchBot vs StrongBot", [StrongBot], 0.60),
]


class TimedSearchBot(SearchBot):
    """A SearchBot that records the CPU time of each decision."""

    def __init__(self, seed: int, **kwargs: Any) -> None:
        super().__init__(seed, **kwargs)
        self.times: list[float] = []

    def choose_draw(self, obs: Observation) -> Any:
        start = time.process_time()
        try:
            return super().choose_draw(obs)
        finally:
            self.times.append(time.process_time() - start)

    def choose_discard(self, obs: Observation) -> Any:
        start = time.process_time()
        try:
            return super().choose_discard(obs)
        finally:
            self.times.append(time.process_time() - start)


def decision_times(games: int, seed: int, budget: int, **search: Any) -> np.ndarray:
    """Seconds of CPU time of each SearchBot decision in ``games`` games against three
    StrongBots (the bot in seat ``g % 4``)."""
    times: list[float] = []
    for g in range(games):
        bot = TimedSearchBot(seed + g, budget=budget, **search)
        players: list[Any] = [StrongBot(), StrongBot(), StrongBot()]
        players.insert(g % 4, bot)
        play_game(players, seed=seed + g)
        times += bot.times
    return np.array(times)


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
            obs = r.observation(r.current_player)
            if r.phase is Phase.DRAW:
                r.draw(bot.choose_draw(obs))
            else:
                r.discard(*bot.choose_discard(obs))
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
        start = time.process_time()
        for r in rounds:
            play_worlds(r, [0, 1], worlds=worlds, seed=seed, policy=policy,  # type: ignore[arg-type]
                        threads=1)
        rates[f"play_worlds, {policy}"] = 2 * worlds * len(rounds) / (
            time.process_time() - start)
        start = time.process_time()
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
            time.process_time() - start)
    return rates


def edges(report: Any) -> np.ndarray:
    """Entrant 0's points a game below the mean of the others' totals, per game of a
    :func:`simulate_games` report."""
    scores = report.scores.astype(np.float64)
    k = scores.shape[1]
    return scores[:, 1:].sum(axis=1) / (k - 1) - scores[:, 0]


def paired_gain(report: Any, baseline: Any) -> tuple[float, tuple[float, float]]:
    """The paired gain of entrant 0 of ``report`` over entrant 0 of ``baseline`` and its
    95% interval: :func:`fivecrowns.duplicate.paired_gain` of their scores (both runs with
    the same seed and number of games, so game g has the same deal and seats in both)."""
    if report.seeds != baseline.seeds:
        raise ValueError("the two reports must come from the same seed and games")
    return library_paired_gain(report.scores, baseline.scores)


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
    """What each target asks for in game points: for the match-ups of ``MATCHES`` whose
    opponents all play one policy, ``(title, points, mean total)``: how many points a game
    a player must score below the opponents' own policy, in games where every seat plays
    it (``rollout.play_games``), to win at the target rate, and that policy's mean game
    total. Found by bisection on the shift (the win rate grows with it)."""
    out = []
    for title, opponents, target in MATCHES:
        policy = "strong" if opponents[0] is StrongBot else "greedy"
        totals = play_games(games, seed=seed, n_players=len(opponents) + 1,
                            policy=policy)  # type: ignore[arg-type]
        lo, hi = 0.0, 200.0
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if shifted_win_rate(totals, mid) < target else (lo, mid)
        out.append((title, hi, float(totals.mean())))
    return out


def test_decision_time(benchmark: Any) -> None:  # pragma: no cover - pytest-benchmark
    benchmark.pedantic(decision_times, args=(1, 12345, SearchBot.DEFAULT_BUDGET),
                       rounds=1, iterations=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per match-up")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--budget", type=int, default=SearchBot.DEFAULT_BUDGET)
    parser.add_argument("--policy", default="strong",
                        help="rollout policy of the search (strong, greedy or expert)")
    parser.add_argument("--objective", default="own", choices=["own", "relative", "win"])
    parser.add_argument("--candidates", type=int, default=2)
    parser.add_argument("--confidence", type=float, default=1.0)
    parser.add_argument("--discard-weight", type=float, default=0.0)
    parser.add_argument("--replay-draws", type=int, default=0)
    parser.add_argument("--timing-games", type=int, default=5,
                        help="games whose decisions are timed (one core)")
    parser.add_argument("--only", choices=["strong", "greedy", "duel", "time", "worlds",
                                           "edges"],
                        action="append", help="run only these parts (repeatable)")
    args = parser.parse_args(argv)
    parts = args.only or ["strong", "greedy", "duel", "time", "worlds", "edges"]
    print(f"rollouts: {ROLLOUT_IMPLEMENTATION}, policy {args.policy}; budget {args.budget}; "
          f"objective {args.objective}; candidates {args.candidates}; confidence "
          f"{args.confidence}; discard weight {args.discard_weight}; replay draws "
          f"{args.replay_draws}; seed {args.seed}; "
          f"{args.games} games per match-up; jobs {args.jobs}", flush=True)
    search = functools.partial(SearchBot, budget=args.budget, policy=args.policy,
                               objective=args.objective, candidates=args.candidates,
                               confidence=args.confidence,
                               discard_weight=args.discard_weight,
                               replay_draws=args.replay_draws)
    ok = True
    for key, (title, opponents, target) in zip(("strong", "greedy", "duel"), MATCHES):
        if key not in parts:
            continue
        start = time.perf_counter()
        names = ["SearchBot"] + [getattr(o, "name", o.__name__) for o in opponents]
        report = simulate_games([search, *opponents], args.games, seed=args.seed,
                                jobs=args.jobs, names=names)
        e = report.entrants[0]
        met = e.win_rate >= target
        ok &= met
        print(f"\n{title}: win rate {e.win_rate:.3f} (95% CI {e.win_ci[0]:.3f}.."
              f"{e.win_ci[1]:.3f}), target >= {target:.2f}: {'met' if met else 'NOT met'}"
              f"  [{time.perf_counter() - start:.0f} s]")
        print(report.table(), flush=True)
        baseline = simulate_games([StrongBot, *opponents], args.games, seed=args.seed,
                                  jobs=args.jobs)
        gain, (lo, hi) = paired_gain(report, baseline)
        print(f"gain over a StrongBot in its seat, same deals: {gain:+.2f} points a game "
              f"(95% CI {lo:+.2f}..{hi:+.2f})", flush=True)
    if "time" in parts:
        ts = decision_times(args.timing_games, args.seed, args.budget, policy=args.policy,
                            objective=args.objective, candidates=args.candidates,
                            confidence=args.confidence,
                            discard_weight=args.discard_weight,
                            replay_draws=args.replay_draws) * 1e3
        met = float(np.percentile(ts, 95)) <= 100
        ok &= met
        print(f"\nms per decision (CPU, one core, {ts.size} decisions): mean "
              f"{ts.mean():.1f}, median {np.median(ts):.1f}, p95 "
              f"{np.percentile(ts, 95):.1f}, max {ts.max():.1f}; target p95 <= 100: "
              f"{'met' if met else 'NOT met'}", flush=True)
    if "worlds" in parts:
        rates = world_rates()
        print("\nplay-outs (world x move) per second, CPU, one core, 4 players, mid-round:")
        for name, rate in rates.items():
            print(f"  {name:<40}{rate:>12,.0f}")
        for policy in ("greedy", "strong"):
            ratio = rates[f"play_worlds, {policy}"] / rates[f"Python worlds + play_out, {policy}"]
            print(f"  ratio play_worlds / Python worlds, {policy}: x{ratio:.1f}")
    if "edges" in parts:
        print("\nwhat each target asks for (40,000 games of the opponents' policy in every "
              "seat, compiled engine):")
        for title, points, mean in target_edges(seed=args.seed + 1):
            print(f"  {title:<28} {points:5.1f} points a game below the opponents' "
                  f"(their mean total {mean:.1f}: {points / mean:.0%})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
