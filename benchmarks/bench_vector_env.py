"""Learner steps a second through the vector environment, against the single Gymnasium
environment (issue 38's targets, as ratios measured in one run).

Every loop plays random legal actions for the learner's seat against three ``"strong"``
opponents (``--opponents`` for others), whole 11-round games, auto-reset included:

- ``single env``: :class:`~fivecrowns.envs.FiveCrownsEnv`, a ``step`` and a ``reset``
  when its game ends (the game stepped whole in C, ``compiled_game``);
- ``single env, Python Game``: the same with ``compiled_game = False`` (a Python
  ``Game`` kept each step, its opponents' runs of moves made in C: 0.5's first route);
- ``single env (old)``: the same loop on an older release (``--old``, 0.4 by default),
  run in a subprocess with that tree's ``src`` first on the path;
- ``vector, python route``: :class:`~fivecrowns.envs.FiveCrownsVectorEnv` with
  ``implementation="python"`` (each game a ``FiveCrownsEnv``), ``--python-envs`` games;
- ``vector, compiled, T threads``: the compiled route, ``--envs`` games, ``threads=T``.

The learner's actions are drawn from the masks in NumPy for every game at once; that
time is in the figures (it is what a learner pays too). Each row is the wall-clock rate
over ``--seconds`` seconds after ``--warmup`` steps (80 by default, about one whole game
against StrongBots: the games start together, and a row timed from the deal would time
the first rounds' small hands only); the compiled rows are run ``--repeats`` times,
alternated, and each keeps its best. A last line gives the resident memory
that ``--memory-envs`` compiled games and their buffers add (``/proc/self/status``).

Run::

    python benchmarks/bench_vector_env.py [--envs 2000] [--seconds 5] [--old /tmp/v04]
                                          [--opponents strong,strong,strong] [--quick]
                                          [--warmup 80] [--repeats 2]

A last row, ``engine alone``, is the ceiling the opponents' own decisions set: the
compiled engine playing whole games on one thread (``rollout.play_games``, its random
policy in the learner's seat, the opponents in the others: no observation, mask or Python
between moves), times the learner steps a game takes with random legal actions (counted
in compiled games).

``--quick``: 1 second a row, 500 games, no old release, no memory line, no ceiling. Needs
``fivecrowns[rl]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action of every game (each row has one)."""
    return (rng.random(masks.shape, dtype=np.float32) * masks).argmax(axis=1)


def single_rate(opponents: tuple[str, ...], seconds: float, seed: int = 0,
                compiled_game: bool = True) -> float:
    """Agent steps a second of one FiveCrownsEnv."""
    from fivecrowns.envs import FiveCrownsEnv

    env = FiveCrownsEnv(opponents)
    if not compiled_game:
        env.compiled_game = False
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(obs["action_mask"])
        # not rng.choice, whose ~10 us would be a third of a step's time
        obs, _, terminated, truncated, _ = env.step(int(legal[int(rng.integers(legal.size))]))
        steps += 1
        if terminated or truncated:
            obs, _ = env.reset(seed=int(rng.integers(2**31)))
    return steps / (time.perf_counter() - start)


def vector_rate(opponents: tuple[str, ...], n: int, seconds: float, seed: int = 0,
                warmup: int = 1, **options: object) -> float:
    """Learner steps a second of a FiveCrownsVectorEnv of ``n`` games."""
    from fivecrowns.envs import FiveCrownsVectorEnv

    env = FiveCrownsVectorEnv(n, opponents, **options)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(max(1, warmup)):
        env.step(_random_legal(env.action_masks(), rng))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(_random_legal(env.action_masks(), rng))
        steps += n
    return steps / (time.perf_counter() - start)


def steps_per_game(opponents: tuple[str, ...], episodes: int = 2000, seed: int = 0) -> float:
    """Learner steps a whole game takes with random legal actions (compiled games run
    until ``episodes`` have ended)."""
    from fivecrowns.envs import FiveCrownsVectorEnv

    env = FiveCrownsVectorEnv(500, opponents, implementation="compiled")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = ended = 0
    while ended < episodes:
        _o, _r, term, trunc, _i = env.step(_random_legal(env.action_masks(), rng))
        steps += 500
        ended += int(term.sum() + trunc.sum())
    return steps / ended


def engine_games_rate(opponents: tuple[str, ...], seconds: float) -> float:
    """Whole games a second of the compiled engine alone on one thread, the engine's
    random policy in the learner's seat and ``opponents`` in the others: what the
    opponents' own decisions cost, with no observation written."""
    from fivecrowns.rollout import play_games

    policy = ["random", *opponents]
    games, start, k = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        play_games(100, seed=k, n_players=len(policy), policy=policy, threads=1)
        games, k = games + 100, k + 1
    return games / (time.perf_counter() - start)


def _rss() -> int:
    """This process's resident memory in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def memory_of(opponents: tuple[str, ...], n: int) -> int:
    """Resident bytes that ``n`` compiled games add, dealt and stepped once."""
    from fivecrowns.envs import FiveCrownsVectorEnv

    before = _rss()
    env = FiveCrownsVectorEnv(n, opponents, implementation="compiled")
    env.reset(seed=0)
    env.step(_random_legal(env.action_masks(), np.random.default_rng(0)))
    return _rss() - before


def _old_single_rate(old: Path, opponents: tuple[str, ...], seconds: float) -> float | None:
    """The single env's rate on the release in ``old`` (None if it cannot run)."""
    env = dict(os.environ, PYTHONPATH=str(old / "src"))
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_vector_env as b; "
            f"print(b.single_rate({opponents!r}, {seconds!r}))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        print(f"(the old release in {old} did not run: {done.stderr.strip()[-300:]})",
              file=sys.stderr)
        return None
    return float(done.stdout.split()[-1])


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--envs", type=int, default=2000, help="games of the compiled rows")
    p.add_argument("--python-envs", type=int, default=16, help="games of the python route")
    p.add_argument("--memory-envs", type=int, default=10_000)
    p.add_argument("--seconds", type=float, default=5.0, help="wall-clock seconds a row")
    p.add_argument("--opponents", default="strong,strong,strong")
    p.add_argument("--old", default="/tmp/v04", help="an older release's checkout, built "
                   "in place ('' for none)")
    p.add_argument("--warmup", type=int, default=80, help="vector steps before timing")
    p.add_argument("--repeats", type=int, default=2, help="runs of each compiled row")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json", action="store_true", help="the rates as JSON")
    args = p.parse_args(argv)
    opponents = tuple(s.strip() for s in args.opponents.split(","))
    seconds, envs = (1.0, 500) if args.quick else (args.seconds, args.envs)
    rows: dict[str, float] = {}
    rows["single env"] = single_rate(opponents, seconds)
    rows["single env, Python Game"] = single_rate(opponents, seconds, compiled_game=False)
    if args.old and not args.quick and Path(args.old, "src").is_dir():
        old = _old_single_rate(Path(args.old), opponents, seconds)
        if old is not None:
            rows["single env (old)"] = old
    warmup = 1 if args.quick else args.warmup
    rows["vector, python route"] = vector_rate(opponents, args.python_envs, seconds,
                                               warmup=warmup, implementation="python")
    for _ in range(1 if args.quick else max(1, args.repeats)):
        for threads in (1, 2):
            name = f"vector, compiled, {threads} thread{'s' * (threads > 1)}"
            rate = vector_rate(opponents, envs, seconds, warmup=warmup,
                               implementation="compiled", threads=threads)
            rows[name] = max(rate, rows.get(name, 0.0))
    if not args.quick:
        per_game = steps_per_game(opponents)
        rows["engine alone, 1 thread (ceiling)"] = engine_games_rate(opponents, seconds) \
            * per_game
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    base = rows["single env"]
    old_base = rows.get("single env (old)")
    print(f"learner steps a second, random legal actions, against {', '.join(opponents)}; "
          f"{envs:,} compiled games; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    print(f"{'':34} {'steps/s':>12} {'x single':>9} {'x old':>9}")
    for name, rate in rows.items():
        vs_old = f"{rate / old_base:9.1f}" if old_base else f"{'':>9}"
        print(f"{name:34} {rate:12,.0f} {rate / base:9.1f} {vs_old}")
    two = rows["vector, compiled, 2 threads"] / rows["vector, compiled, 1 thread"]
    print(f"1 -> 2 threads: x{two:.2f}")
    if not args.quick:
        print(f"the ceiling: the engine's whole games a second with a random player in "
              f"the learner's seat, times the {per_game:.1f} learner steps of a game")
        used = memory_of(opponents, args.memory_envs)
        print(f"memory of {args.memory_envs:,} compiled games and their buffers: "
              f"{used / 2**20:,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
