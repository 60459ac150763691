"""Issue 39's teacher: :class:`~fivecrowns.SearchBot` with ExpertBot's policy in its
rollouts, measured against ExpertBot itself on duplicate deals.

Each deal is a whole game dealt by :func:`fivecrowns.duplicate_match`: the searcher in one
seat and StrongBots in the others (three by default; ``--players 2`` plays heads-up), then
ExpertBot in that seat on the same deal (the reference);
the gain is the searcher's points a game below the field's mean less ExpertBot's, with a
95% interval (positive: the searcher is stronger). The seats rotate with the deals.

Run::

    python benchmarks/bench_teacher.py --worlds 64 --confidence 1.0 --games 240 --seed 39001
                                       [--players 4] [--jobs 1]

``--objective`` is SearchBot's; ``--replay-draws`` and ``--discard-weight`` its inference in
the sampled worlds (:func:`fivecrowns.rollout.play_worlds`); ``--opponents strong`` plays
the other seats of its worlds as the StrongBots it meets (ExpertBot's by default);
``--extra-worlds N`` adds N worlds to a decision still in doubt after ``--worlds``.
``--jobs N`` plays the deals in N processes (the same report for any N).
``--timing-games N`` plays no match: it times the searcher's decisions (CPU of one core)
in N games at ``--players``.
``--pool F1.json F2.json ...`` pools runs written by ``--json`` (one setting, other seeds):
the paired gain over all their deals, with its 95% interval.

Every run made is recorded, in order, in docs/bots.rst (issue 39 asks that tuning and
evaluation seeds stay apart: a setting chosen on one seed is reported on others). A
deal takes seconds to tens of seconds (the searcher's every decision plays ``--worlds``
worlds per candidate move with ExpertBot in its seat), so ``--json`` keeps each deal's
gain for later pooling.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time

import numpy as np

from _harness import decision_summary, decision_times
from fivecrowns import SearchBot, duplicate_match
from fivecrowns.duplicate import paired_gain

#: The search's options a run sets, and their values in runs written before the option.
SEARCH_OPTIONS = {"worlds": 64, "confidence": 1.0, "objective": "own", "replay_draws": 0,
                  "discard_weight": 0.0, "opponents": None, "extra_worlds": 0}


def setting(run: dict[str, object]) -> tuple[object, ...]:
    """What a run measured: the search's options and the table's size (runs written
    before ``--players`` were of four)."""
    return (*(run.get(k, v) for k, v in SEARCH_OPTIONS.items()), run.get("players", 4))


def describe(run: dict[str, object]) -> str:
    """The searcher of ``run``, as a call."""
    options = ", ".join(f"{k}={run.get(k, v)}" for k, v in SEARCH_OPTIONS.items()
                        if k in ("worlds", "confidence") or run.get(k, v) != v)
    return f"SearchBot(policy='expert', {options})"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--worlds", type=int, default=64)
    p.add_argument("--confidence", type=float, default=1.0)
    p.add_argument("--objective", choices=("own", "relative"), default="own",
                   help="SearchBot's objective: its round score, or less the others' mean")
    p.add_argument("--replay-draws", type=int, default=0,
                   help="SearchBot's replay_draws: the opponents' sampled hands organised")
    p.add_argument("--discard-weight", type=float, default=0.0,
                   help="SearchBot's discard_weight: worlds where their discards were good")
    p.add_argument("--opponents", choices=("greedy", "strong", "expert"),
                   help="SearchBot's opponents: the other seats' play in its worlds "
                        "(default: ExpertBot's, as its own)")
    p.add_argument("--extra-worlds", type=int, default=0,
                   help="SearchBot's extra_worlds: more worlds on a close decision")
    p.add_argument("--games", type=int, default=240, help="duplicate deals")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5, 6),
                   help="players at the table: the searcher and StrongBots")
    p.add_argument("--jobs", type=int, default=1, help="processes playing the deals")
    p.add_argument("--seed", type=int, help="the deals' seed (required unless --pool)")
    p.add_argument("--json", help="write the report and each deal's gain here")
    p.add_argument("--timing-games", type=int, default=0,
                   help="instead of a match: time the searcher's decisions (CPU of one "
                        "core) in this many games at --players against StrongBots")
    p.add_argument("--pool", nargs="+", metavar="JSON",
                   help="pool these runs' deals (written by --json) instead of playing")
    args = p.parse_args(argv)
    if args.pool:
        return pool(args.pool)
    if args.seed is None:
        p.error("--seed is required to play a run")
    options = {k: getattr(args, k) for k in SEARCH_OPTIONS}
    bot = functools.partial(SearchBot, policy="expert", **options)
    if args.timing_games:
        return timing(bot, args, options)
    start = time.perf_counter()
    rep = duplicate_match(bot, "expert", ["strong"] * (args.players - 1), args.games,
                          seed=args.seed, jobs=args.jobs)
    seconds = time.perf_counter() - start
    low, high = rep.gain_ci
    run = {**options, "players": args.players, "games": args.games, "seed": args.seed}
    print(f"{describe(run)} over ExpertBot, {args.players - 1} StrongBot(s), "
          f"{args.games} deals, seed {args.seed}: "
          f"{rep.gain:+.2f} ({low:+.2f}..{high:+.2f}) points a game; {seconds:,.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**run, "gain": rep.gain, "gain_ci": rep.gain_ci, "seconds": seconds,
                       "scores": rep.scores.tolist(),
                       "reference_scores": rep.reference_scores.tolist()}, f)
    return 0


def timing(bot: functools.partial[SearchBot], args: argparse.Namespace,
           options: dict[str, object]) -> int:
    """Print the searcher's time a decision: CPU of one core, every decision it makes in
    ``--timing-games`` games at ``--players``, the seats rotated, the games of ``--seed``."""
    ms = np.array(decision_times(lambda s: bot(seed=s), args.timing_games, args.seed,
                                 args.players)) * 1e3
    print(f"{describe(options)} at {args.players} players, {args.timing_games} games of "
          f"seed {args.seed}: ms a decision (CPU of one core, {ms.size} decisions): "
          f"{decision_summary(ms)}")
    return 0


def pool(paths: list[str]) -> int:
    """Print the paired gain over every deal of the runs in ``paths``: one setting
    (:func:`setting`), seeds all different."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    settings = {setting(r) for r in runs}
    if len(settings) != 1:
        sys.exit(f"the runs have different settings: {sorted(settings, key=repr)}")
    seeds = [r["seed"] for r in runs]
    if len(set(seeds)) != len(seeds):
        sys.exit(f"a seed appears twice: {seeds} (its deals would count twice)")
    scores = np.concatenate([np.asarray(r["scores"]) for r in runs])
    reference = np.concatenate([np.asarray(r["reference_scores"]) for r in runs])
    gain, (low, high) = paired_gain(scores, reference)
    print(f"{describe(runs[0])} over ExpertBot, {runs[0].get('players', 4)} players, "
          f"pooled: seeds {', '.join(map(str, seeds))}, {len(scores)} deals: "
          f"{gain:+.2f} ({low:+.2f}..{high:+.2f}) points a game")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
