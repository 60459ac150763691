"""ExpertBot's strength and speed: its paired gain over StrongBot on duplicate deals, and
milliseconds per decision.

Run as a script::

    python benchmarks/bench_expert.py --games 8000              # compiled duplicate matches
    python benchmarks/bench_expert.py --only python --games 400 # the same on the Python engine
    python benchmarks/bench_expert.py --only time               # ms per decision, one core
    python benchmarks/bench_expert.py --only search --games 200 # SearchBot(policy="expert")

The gain is :mod:`fivecrowns.duplicate`'s: the bot's points a game below the field's mean,
less a StrongBot's in the same seat of the same deals, with a 95% interval. ``compiled``
plays the deals of ``duplicate_match(bot, StrongBot, field, games,
seed=seed)`` (game ``g`` dealt from ``game_seeds(seed, games)[g]``, the bot in
seat ``-g mod k``) in the compiled rollout engine with one policy per seat
(``rollout.play_games(policy=[...])``): the bot's seat is played once per seat and the
games where it sits there are kept. ``python`` runs that ``duplicate_match`` call itself
and checks that every deal's gain equals the compiled engine's, which the twin tests
promise. The two match-ups are the issue's targets: ExpertBot with three StrongBots
(+3 points a game) and heads-up against one (+4).

``time`` is CPU time of this process (one core) over every decision of the bot in
``--timing-games`` 4-player games against three StrongBots, the bot in seat ``g % 4``.
"""

from __future__ import annotations

import functools
import sys
import time
from typing import Any

import numpy as np

from _harness import core_line, decision_summary, decision_times, parser, table
from fivecrowns import ExpertBot, SearchBot, StrongBot, duplicate_match
from fivecrowns.duplicate import paired_gains
from fivecrowns.rollout import play_games
from fivecrowns.stats import mean_interval

#: (name, the field's policy, players)
MATCHES = [("ExpertBot + 3 StrongBots", "strong", 4), ("ExpertBot vs StrongBot", "strong", 2)]
TARGETS = {4: 3.0, 2: 4.0}


def compiled_duplicate(policy: str, field: str, n_players: int, games: int, seed: int,
                       threads: int | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """The totals of the bot's games and of the reference's (StrongBot's) games of
    ``duplicate_match``'s deals, entrant order (the bot first): (games, k)
    each."""
    ref_totals = play_games(games, seed=seed, n_players=n_players, policy="strong",
                            threads=threads)
    bot = np.zeros((games, n_players), dtype=np.int64)
    ref = np.zeros((games, n_players), dtype=np.int64)
    g = np.arange(games)
    for seat in range(n_players):
        seats = [field] * n_players
        seats[seat] = policy
        totals = play_games(games, seed=seed, n_players=n_players,
                            policy=seats, threads=threads)  # type: ignore[arg-type]
        mine = (-g) % n_players == seat
        # entrant e sits at seat (seat + e) % k in these games
        order = [(seat + e) % n_players for e in range(n_players)]
        bot[mine] = totals[mine][:, order]
        ref[mine] = ref_totals[mine][:, order]
    return bot, ref


def _gain_row(title: str, games: int, gains: np.ndarray, target: float | None,
              seconds: float) -> list[Any]:
    gain, (lo, hi) = mean_interval(gains)
    met = "" if target is None else ("yes" if lo >= target else
                                     ("no" if hi < target else "not decided"))
    return [title, games, gain, f"{lo:+.2f}..{hi:+.2f}",
            "" if target is None else f"+{target:.0f}", met, seconds]


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__, games=8000, seed=0, jobs=1)
    p.add_argument("--threads", type=int, default=None, help="engine threads")
    p.add_argument("--timing-games", type=int, default=8,
                   help="games whose decisions are timed (one core)")
    p.add_argument("--worlds", type=int, default=SearchBot.DEFAULT_WORLDS,
                   help="SearchBot's worlds per decision (--only search, time)")
    p.add_argument("--players", type=int, action="append", choices=[2, 4],
                   help="only these match-ups (repeatable)")
    p.add_argument("--only", choices=["compiled", "python", "time", "search"],
                   action="append", help="run only these parts (repeatable)")
    args = p.parse_args(argv)
    parts = args.only or ["compiled", "time"]
    players = args.players or [4, 2]
    print(f"{core_line()}; seed {args.seed}; {args.games} deals per match-up", flush=True)
    rows = []
    ok = True
    for title, field, n in MATCHES:
        if n not in players:
            continue
        if "compiled" in parts or "python" in parts:
            start = time.perf_counter()
            bot, ref = compiled_duplicate("expert", field, n, args.games, args.seed,
                                          args.threads)
            gains = paired_gains(bot, ref)
            row = _gain_row(f"{title}, compiled", args.games, gains, TARGETS[n],
                            time.perf_counter() - start)
            ok &= row[5] == "yes"
            rows.append(row)
            print(table(["match-up", "deals", "gain", "95% CI", "target", "met", "s"],
                        [row], ["", ",d", "+.2f", "", "", "", ".0f"]), flush=True)
        if "python" in parts:
            start = time.perf_counter()
            report = duplicate_match(ExpertBot, StrongBot, [StrongBot] * (n - 1),
                                     args.games, seed=args.seed, jobs=args.jobs)
            same = bool((report.gains == gains).all())
            ok &= same
            rows.append(_gain_row(f"{title}, Python engine", args.games, report.gains,
                                  None, time.perf_counter() - start))
            print(report.table())
            print(f"every deal's gain equal to the compiled engine's: {same}", flush=True)
        if "search" in parts:
            start = time.perf_counter()
            search = functools.partial(SearchBot, worlds=args.worlds, policy="expert")
            report = duplicate_match(search, StrongBot, [StrongBot] * (n - 1), args.games,
                                     seed=args.seed, names=["SearchBot(policy=expert)"]
                                     + ["StrongBot"] * n, jobs=args.jobs)
            rows.append(_gain_row(f"SearchBot(policy=expert) {title[10:]}", args.games,
                                  report.gains, TARGETS[n], time.perf_counter() - start))
            print(report.table(), flush=True)
    if rows:
        print()
        print(table(["match-up", "deals", "gain", "95% CI", "target", "met", "s"], rows,
                    ["", ",d", "+.2f", "", "", "", ".0f"]))
    if "time" in parts:
        for name, make in (
                ("ExpertBot", ExpertBot),
                (f"SearchBot(policy='expert', worlds={args.worlds})",
                 functools.partial(SearchBot, worlds=args.worlds, policy="expert"))):
            ts = np.array(decision_times(make, args.timing_games, args.seed)) * 1e3
            met = float(np.percentile(ts, 95)) <= 100
            ok &= met
            print(f"\n{name}: ms per decision (CPU, one core, {ts.size} decisions): "
                  f"{decision_summary(ts, 2)}; target p95 <= 100: "
                  f"{'met' if met else 'NOT met'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
