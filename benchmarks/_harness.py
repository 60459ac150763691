"""What the benchmark scripts share: timing, seeding, table printing and common flags.

Each script in ``benchmarks/`` imports this module (it sits beside them, so ``python
benchmarks/x.py`` and pytest both find it) instead of timing and printing in its own way:

- :func:`best_time` / :func:`rate`: the best of ``k`` runs (on a shared machine the best
  run is the one least disturbed), by wall-clock or by CPU time of this process;
- :func:`rate_for`: units of work per CPU second over at least a given CPU time, for
  workloads whose size is not known in advance (games of varying length);
- :func:`seeds`: the seeds of a run, one per game or deal, from ``--seed``;
- :class:`Timed` / :func:`decision_times`: the CPU time of each decision a bot makes,
  and :func:`decision_summary`, the one way the scripts print them;
- :func:`table`: a plain-text table, text columns left-aligned and numbers right-aligned;
- :func:`parser`: an ``argparse`` parser with the common flags (``--quick``, ``--games``,
  ``--seed``, ``--jobs``, ``--repeat``), each with the script's own default;
- :func:`play_aec`: a PettingZoo AEC game played by random legal actions, the loop that
  ``bench_envs`` and ``bench_engine`` time and ``instructions`` counts
  (:func:`aec_random_steps`: on a 4-player ``aec_env`` reset with seed 1);
- :func:`core_line`: which solver core ran, printed with every table, since it sets the
  speed of everything; :func:`core_params`: both cores as pytest parameters, the one not
  built skipped, so pytest-benchmark groups them side by side on the same inputs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

#: The clocks: ``CPU`` counts this process's time only, so other programs on a shared
#: machine disturb it less; ``WALL`` is for work spread over threads or processes.
CPU = time.process_time
WALL = time.perf_counter

#: The default first seed of the scripts that do not name their own.
SEED = 2026


def best_time(fn: Callable[[], object], repeats: int = 3,
              clock: Callable[[], float] = WALL) -> float:
    """The shortest time of ``repeats`` calls of ``fn()``, in seconds of ``clock``."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def rate(fn: Callable[[int], object], n: int, repeats: int = 3,
         clock: Callable[[], float] = CPU) -> float:
    """``n`` units per second: the best of ``repeats`` runs of ``fn(n)``."""
    return n / best_time(lambda: fn(n), repeats, clock)


class Run(NamedTuple):
    """What :func:`rate_for` did: ``units`` of work in ``calls`` calls, in ``seconds`` of
    CPU time."""

    units: int
    calls: int
    seconds: float

    @property
    def per_s(self) -> float:
        """Units per CPU second."""
        return self.units / self.seconds

    @property
    def calls_per_s(self) -> float:
        """Calls per CPU second (games per second when each call plays one game)."""
        return self.calls / self.seconds


def rate_for(step: Callable[[int], int], seconds: float) -> Run:
    """Run ``step(i)`` for i = 0, 1, ... until ``seconds`` of CPU time have passed.

    ``step`` returns the units of work it did (steps, turns). At least one call is made.
    """
    start = CPU()
    units = calls = 0
    while calls == 0 or CPU() - start < seconds:
        units += step(calls)
        calls += 1
    return Run(units, calls, CPU() - start)


class Timed:
    """A player that forwards every decision to ``inner`` and records its CPU time."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.times: list[float] = []

    def _timed(self, method: str, obs: Any) -> Any:
        start = CPU()
        try:
            return getattr(self.inner, method)(obs)
        finally:
            self.times.append(CPU() - start)

    def choose_draw(self, obs: Any) -> Any:
        return self._timed("choose_draw", obs)

    def choose_discard(self, obs: Any) -> Any:
        return self._timed("choose_discard", obs)


def decision_times(make: Callable[[int], Any], games: int, seed: int,
                   n_players: int = 4) -> list[float]:
    """Seconds of CPU time of each decision of the bot ``make(seed + g)`` in ``games``
    games of ``n_players`` against StrongBots (the bot in seat ``g % n_players`` of game
    ``g``)."""
    from fivecrowns import StrongBot, play_game

    times: list[float] = []
    for g in range(games):
        bot = Timed(make(seed + g))
        players: list[Any] = [StrongBot() for _ in range(n_players - 1)]
        players.insert(g % n_players, bot)
        play_game(players, seed=seed + g)
        times += bot.times
    return times


def decision_summary(ms: Sequence[float], digits: int = 1) -> str:
    """Decision times in milliseconds as the scripts print them: ``"mean 1.2, median
    1.0, p95 2.5, max 4.0"``, with ``digits`` decimals."""
    import numpy as np

    a = np.asarray(ms, dtype=np.float64)
    return ", ".join(f"{name} {value:.{digits}f}" for name, value in (
        ("mean", a.mean()), ("median", np.median(a)), ("p95", np.percentile(a, 95)),
        ("max", a.max())))


def seeds(first: int, count: int) -> range:
    """The seeds of a run: ``count`` consecutive seeds from ``first``, one per game."""
    return range(first, first + count)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]],
          formats: Sequence[str] | None = None, indent: str = "") -> str:
    """A plain-text table: text columns left-aligned, numbers right-aligned.

    ``formats`` gives each column's format spec for its numbers (``",.0f"``, ``".2f"``;
    ``""`` leaves a cell as ``str()`` makes it).
    """
    formats = list(formats) if formats is not None else [""] * len(headers)
    if len(formats) != len(headers) or any(len(r) != len(headers) for r in rows):
        raise ValueError("every row and the formats need one entry per header")

    def cell(value: Any, spec: str) -> str:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and spec:
            return format(value, spec)
        return str(value)

    cells = [[cell(v, f) for v, f in zip(row, formats)] for row in rows]
    numeric = [bool(rows) and all(isinstance(r[j], (int, float)) for r in rows)
               for j in range(len(headers))]
    widths = [max([len(h)] + [len(c[j]) for c in cells]) for j, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        return indent + "  ".join(v.rjust(w) if num else v.ljust(w)
                                  for v, w, num in zip(values, widths, numeric)).rstrip()

    return "\n".join([line(list(headers))] + [line(c) for c in cells])


def parser(doc: str | None, **defaults: Any) -> argparse.ArgumentParser:
    """An argument parser described by the first paragraph of ``doc`` (a whole sentence,
    not its first line), with the common flags named in ``defaults`` (``quick``,
    ``games``, ``seed``, ``jobs``, ``repeat``), each with the default given."""
    p = argparse.ArgumentParser(description=doc.strip().split("\n\n")[0] if doc else None)
    helps = {"games": "games (or deals) to play", "seed": "first seed",
             "jobs": "worker processes", "repeat": "timed runs; the best is kept"}
    for name, default in defaults.items():
        if name == "quick":
            p.add_argument("--quick", action="store_true", help="a short run")
        elif name in helps:
            p.add_argument(f"--{name}", type=int, default=default,
                           help=f"{helps[name]} (default {default})")
        else:
            raise ValueError(f"unknown common flag {name!r}: expected quick or one of "
                             f"{', '.join(helps)}")
    return p


def aec_random_steps(limit: int | None, seed: int = 0) -> int:
    """Agent steps of a 4-player ``aec_env`` game (reset with seed 1) played by random
    legal actions (drawn from ``numpy.random.default_rng(seed)``), at most ``limit``
    (None: the whole game); the steps made."""
    import numpy as np

    from fivecrowns.envs import aec_env

    env: Any = aec_env(4)
    env.reset(seed=1)
    return play_aec(env, np.random.default_rng(seed), limit)


def play_aec(env: Any, rng: Any, limit: int | None = None) -> int:
    """Random legal actions (from the numpy Generator ``rng``) through a PettingZoo AEC
    env already reset, to its game's end or ``limit`` agent steps; the steps made."""
    import numpy as np

    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.integers(legal.size))]))
        steps += 1
        if limit is not None and steps >= limit:
            break
    return steps


def core_line() -> str:
    """Which solver core runs (``fivecrowns.IMPLEMENTATION``)."""
    import fivecrowns

    return f"solver core: {fivecrowns.IMPLEMENTATION}"


#: The solver cores a benchmark can run on, fastest first.
CORE_NAMES = ("compiled", "python")


def core_params() -> list[Any]:
    """``pytest.param`` for each core, marked to skip when that core is not built."""
    import pytest

    from fivecrowns.bench import core

    return [pytest.param(name, marks=pytest.mark.skipif(core(name) is None,
                                                        reason=f"the {name} core is not built"))
            for name in CORE_NAMES]


def machine() -> dict[str, Any]:
    """Where and when a run was made, for the JSON a figure is drawn from: the figures
    are ratios measured on one machine in one run, and say so."""
    import datetime
    import os
    import platform

    import fivecrowns

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"date": datetime.date.today().isoformat(), "cpus": os.cpu_count(),
            "machine": platform.machine(), "python": platform.python_version(),
            "fivecrowns": fivecrowns.__version__, "core": fivecrowns.IMPLEMENTATION,
            "load_1min": None if load is None else round(load, 2)}


def write_json(path: str, what: str, data: dict[str, Any]) -> None:
    """Write a run's results to ``path`` (``--json``): ``what`` it measured, the command
    that made it, :func:`machine`, then ``data``; the figure script reads it."""
    import json
    import sys

    payload = {"what": what,
               "command": " ".join(["python", *sys.argv]) if sys.argv[0] else "",
               "machine": machine(), **data}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(payload, f, indent=1)
        f.write("\n")
    print(f"wrote {path}")
