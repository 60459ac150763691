"""The solver's benchmark: seeded workloads and a table of hands per second.

``fivecrowns bench`` and ``benchmarks/report.py`` print :func:`report`; the
pytest-benchmark suite in ``benchmarks/`` times the same workloads.

Timings are the best of several repeats of wall-clock time, so a busy machine
disturbs them less; ratios (threads, compiled vs Python) are measured in one run.
"""

from __future__ import annotations

import os
import platform
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from . import _solver_py, solver
from ._deprecation import keyword_only
from .cards import N_TYPES
from .dealing import random_hands

__all__ = ["adversarial_hands", "report", "report_data", "core", "Row", "peak_memory",
           "slowest_hand"]

Row = tuple[str, str, str]
#: A row's measured figures as numbers (the ``--json`` of ``fivecrowns bench``).
_Figures = dict[str, Union[int, float]]


def adversarial_hands(n: int, seed: int = 0) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]:
    """Hands built to stress the search: 13 to 16 cards, most of them naturals crowded
    into one or two suits around the same ranks (both copies), and 2 to 8 wilds.

    Returns the counts and one wild rank per hand.
    """
    rng = np.random.default_rng(seed)
    out = np.zeros((n, N_TYPES), dtype=np.uint8)
    wilds = rng.integers(3, 14, size=n).astype(np.int8)
    for i in range(n):
        size = int(rng.integers(13, 17))
        n_wilds = int(rng.integers(2, 9))
        w = int(wilds[i]) - 3
        suits = rng.choice(5, size=int(rng.integers(1, 3)), replace=False)
        lo = int(rng.integers(0, 5))
        slots = [s * 11 + p for s in suits for p in range(lo, lo + 7) if p != w] * 2
        for t in rng.choice(slots, size=min(size - n_wilds, len(slots)), replace=False):
            out[i, t] += 1
        for _ in range(n_wilds):
            t = 55 if rng.random() < 0.5 or out[i, 55] >= 6 else int(rng.integers(5)) * 11 + w
            if out[i, t] < (6 if t == 55 else 2):
                out[i, t] += 1
    return out, wilds


def _best(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _best_pair(fa: Callable[[], object], fb: Callable[[], object],
               repeats: int) -> tuple[float, float]:
    """Best times of two workloads timed in turn, so a ratio of them sees the same machine.

    Timing all of one and then all of the other lets a burst of load, or a clock that has
    not yet ramped up, fall on one side only, and the ratio swings widely.
    """
    best_a = best_b = float("inf")
    for _ in range(repeats):
        best_a = min(best_a, _best(fa, 1))
        best_b = min(best_b, _best(fb, 1))
    return best_a, best_b


def _rate(n: int, seconds: float) -> str:
    per = seconds / n
    if per >= 1e-3:
        return f"{n / seconds:,.0f} /s  ({per * 1e3:.2f} ms each)"
    if per >= 1e-6:
        return f"{n / seconds:,.0f} /s  ({per * 1e6:.2f} us each)"
    return f"{n / seconds:,.0f} /s  ({per * 1e9:.0f} ns each)"


def peak_memory(fn: Callable[[], object]) -> tuple[float, int]:
    """(seconds, peak bytes allocated through Python and numpy) of one call of ``fn``,
    measured with :mod:`tracemalloc` (numpy reports its array memory to it; the time
    includes tracemalloc's own cost)."""
    tracemalloc.start()
    try:
        start = time.perf_counter()
        fn()
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return seconds, peak


def core(name: str) -> ModuleType | None:
    """The solver core ``"compiled"`` or ``"python"``, or None if it is not built."""
    if name == "python":
        return _solver_py
    try:
        from . import _solver
    except ImportError:
        return None
    return _solver


def slowest_hand(counts: npt.NDArray[np.uint8], wilds: npt.NDArray[np.int8],
                 repeats: int = 3) -> tuple[float, int]:
    """(seconds, index) of the hand whose deadwood takes longest (best of ``repeats``)."""
    worst, where = 0.0, -1
    for i in range(counts.shape[0]):
        t = _best(partial(solver.deadwood, counts[i], int(wilds[i])), repeats)
        if t > worst:
            worst, where = t, i
    return worst, where


def _rate_figures(n: int, seconds: float, **more: float) -> _Figures:
    """A rate row's numbers: the items, the best time, and what the table shows rounded."""
    return {"items": n, "seconds": seconds, "per_second": n / seconds,
            "seconds_each": seconds / n, **more}


@keyword_only("quick")
def report(*, quick: bool = False) -> str:
    """Run the benchmark and return its table as text.

    ``quick`` uses smaller workloads (a few seconds in all); the figures are then rougher.
    """
    return report_data(quick=quick)["table"]


def report_data(*, quick: bool = False) -> dict[str, Any]:
    """Run the benchmark; its table as data: ``title``, ``table`` (the text of
    :func:`report`) and ``rows``, each with the ``name``, ``value`` and ``note`` the table
    shows and the figures behind them as numbers (``items``, ``seconds``, ``per_second``,
    ``seconds_each`` for a rate; ``speedup``, ``peak_bytes``, ``dealing_time_ratio``,
    ``hand`` where the note gives them).
    """
    scale = 0.1 if quick else 1.0
    reps = 3 if quick else 5
    n_bulk = int(200_000 * scale)
    rows: list[Row] = []
    figures: list[_Figures] = []
    try:
        compiled: solver.Implementation | None = solver.implementation("compiled")
    except ImportError:
        compiled = None

    h13 = random_hands(n_bulk, 13, seed=1)
    h7 = random_hands(n_bulk, 7, seed=2)
    h14 = random_hands(int(20_000 * scale), 14, seed=3)
    adv, adv_wild = adversarial_hands(int(5_000 * scale), seed=4)

    def bulk(counts: npt.NDArray[np.uint8], wild: object, threads: int) -> float:
        return _best(lambda: solver.deadwood_many(counts, wild, threads=threads), reps)

    # The thread rows run five times the hands, timed in turn: on a shared machine, short
    # runs timed in blocks gave ratios too unsteady to report.
    h13_long = np.tile(h13, (5, 1))
    n_long = h13_long.shape[0]
    t1, t2 = _best_pair(lambda: solver.deadwood_many(h13_long, 13, threads=1),
                        lambda: solver.deadwood_many(h13_long, 13, threads=2), reps)
    rows.append(("deadwood_many, 13 cards, K wild, 1 thread", _rate(n_long, t1), "hands"))
    rows.append(("deadwood_many, 13 cards, K wild, 2 threads", _rate(n_long, t2),
                 f"x{t1 / t2:.2f} vs 1 thread"))
    figures += [_rate_figures(n_long, t1), _rate_figures(n_long, t2, speedup=t1 / t2)]
    t7 = bulk(h7, 7, 1)
    rows.append(("deadwood_many, 7 cards, 7s wild, 1 thread", _rate(n_bulk, t7), "hands"))
    figures.append(_rate_figures(n_bulk, t7))
    ta = bulk(adv, adv_wild, 1)
    rows.append(("deadwood_many, adversarial set, 1 thread", _rate(adv.shape[0], ta), "hands"))
    figures.append(_rate_figures(adv.shape[0], ta))

    n_call = int(50_000 * scale)
    sample = [h13[i] for i in range(n_call)]
    tc = _best(lambda: [solver.deadwood(r, 13) for r in sample], reps)
    rows.append(("deadwood per call (uint8 row), 13 cards", _rate(n_call, tc), "calls"))
    figures.append(_rate_figures(n_call, tc))
    text_hands = [" ".join(str(c) for c in solver.solve(h13[i], 13).cards)
                  for i in range(min(n_call, 2_000))]
    ts = _best(lambda: [solver.deadwood(h, 13) for h in text_hands], reps)
    rows.append(("deadwood per call (text hand), 13 cards", _rate(len(text_hands), ts), "calls"))
    figures.append(_rate_figures(len(text_hands), ts))

    n_bd = h14.shape[0]
    tb = _best(lambda: solver.discard_deadwood_many(h14, 13, threads=1), reps)
    rows.append(("discard_deadwood_many, 14 cards, K wild", _rate(n_bd, tb), "hands"))
    figures.append(_rate_figures(n_bd, tb))
    bd_sample = [h14[i] for i in range(min(n_bd, 5_000))]
    tbc = _best(lambda: [solver.best_discard(r, 13) for r in bd_sample], reps)
    rows.append(("best_discard per call, 14 cards", _rate(len(bd_sample), tbc), "calls"))
    figures.append(_rate_figures(len(bd_sample), tbc))
    tsv = _best(lambda: [solver.solve(r, 13) for r in bd_sample], reps)
    rows.append(("solve per call (partition), 14 cards", _rate(len(bd_sample), tsv), "calls"))
    figures.append(_rate_figures(len(bd_sample), tsv))
    dt_sample = [h13[i] for i in range(int(2_000 * scale))]
    tdt = _best(lambda: [solver.draw_table(r, 13) for r in dt_sample], reps)
    rows.append(("draw_table per call, 13 cards", _rate(len(dt_sample), tdt), "calls"))
    figures.append(_rate_figures(len(dt_sample), tdt))

    # Dealing against scoring the same hands: dealing should cost no more, in little memory.
    # Times without tracemalloc (it slows numpy's many small allocations), peaks with it.
    n_deal = int(1_000_000 * scale)
    dealt = random_hands(n_deal, 13, seed=5)
    t_deal, t_score = _best_pair(lambda: random_hands(n_deal, 13, seed=5),
                                 lambda: solver.deadwood_many(dealt, 13, threads=1), reps)
    peak_deal = peak_memory(lambda: random_hands(n_deal, 13, seed=5))[1]
    peak_score = peak_memory(lambda: solver.deadwood_many(dealt, 13, threads=1))[1]
    rows.append(("random_hands, 13 cards", _rate(n_deal, t_deal),
                 f"peak {peak_deal / 2**20:,.0f} MB"))
    rows.append(("deadwood_many of those hands, 1 thread", _rate(n_deal, t_score),
                 f"peak {peak_score / 2**20:,.0f} MB; dealing x{t_deal / t_score:.2f}"))
    figures += [_rate_figures(n_deal, t_deal, peak_bytes=peak_deal),
                _rate_figures(n_deal, t_score, peak_bytes=peak_score,
                              dealing_time_ratio=t_deal / t_score)]

    worst, where = slowest_hand(adv, adv_wild, repeats=3)
    rows.append(("slowest hand of the adversarial set", f"{worst * 1e6:,.1f} us",
                 f"hand {where}"))
    figures.append({"seconds": worst, "hand": where})

    py_n = int(2_000 * scale) or 1
    py = solver.implementation("python")
    w13 = np.full(py_n, 13, dtype=np.int8)
    tp = _best(lambda: py.deadwood_many(h13[:py_n], w13, threads=1), 1)
    rows.append(("pure-Python twin, deadwood, 13 cards", _rate(py_n, tp), "hands"))
    figures.append(_rate_figures(py_n, tp))
    if compiled is not None:
        tcp = _best(lambda: compiled.deadwood_many(h13[:py_n], w13, threads=1), reps)
        rows.append(("compiled / pure-Python speed, 13 cards", f"x{tp / tcp:,.0f}", ""))
        figures.append({"speedup": tp / tcp})

    width = max(len(r[0]) for r in rows)
    lines = [f"fivecrowns {solver.IMPLEMENTATION} core, {platform.python_implementation()} "
             f"{platform.python_version()}, {platform.machine()}, "
             f"{os.cpu_count()} CPUs{' (quick run)' if quick else ''}", ""]
    lines += [f"{name:<{width}}  {rate:<34} {note}".rstrip() for name, rate, note in rows]
    return {"title": lines[0], "table": "\n".join(lines),
            "rows": [{"name": name, "value": value, "note": note, **numbers}
                     for (name, value, note), numbers in zip(rows, figures, strict=True)]}
