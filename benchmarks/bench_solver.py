"""Solver benchmarks (pytest-benchmark): both cores on the same seeded inputs.

Run with::

    python -m pytest benchmarks/bench_solver.py --benchmark-only --benchmark-group-by=group

``benchmarks/report.py`` prints the hands-per-second table of the README.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from fivecrowns.bench import adversarial_hands, core, random_hands

CORES = {"compiled": core("compiled"), "python": core("python")}
# The pure-Python twin is ~1000x slower: it gets a slice of each workload.
SIZE = {"compiled": 20_000, "python": 200}


def _cores() -> list[Any]:
    return [pytest.param(name, marks=pytest.mark.skipif(core is None, reason="not built"))
            for name, core in CORES.items()]


H13 = random_hands(20_000, 13, seed=1)
H7 = random_hands(20_000, 7, seed=2)
H14 = random_hands(20_000, 14, seed=3)
ADV, ADV_WILD = adversarial_hands(2_000, seed=4)


def _bulk(name: str, hands: np.ndarray, wild: Any) -> Callable[[], object]:
    core = CORES[name]
    assert core is not None
    n = min(SIZE[name], hands.shape[0])
    counts = np.ascontiguousarray(hands[:n])
    wilds = (np.full(n, wild, dtype=np.int8) if np.isscalar(wild)
             else np.ascontiguousarray(wild[:n]))
    return lambda: core.deadwood_many(counts, wilds, 2, 1)


@pytest.mark.parametrize("name", _cores())
def test_deadwood_13_kings(benchmark: Any, name: str) -> None:
    benchmark.group = "deadwood_many: 13 cards, K wild"
    benchmark(_bulk(name, H13, 13))


@pytest.mark.parametrize("name", _cores())
def test_deadwood_7_sevens(benchmark: Any, name: str) -> None:
    benchmark.group = "deadwood_many: 7 cards, 7s wild"
    benchmark(_bulk(name, H7, 7))


@pytest.mark.parametrize("name", _cores())
def test_deadwood_adversarial(benchmark: Any, name: str) -> None:
    benchmark.group = "deadwood_many: adversarial set"
    benchmark(_bulk(name, ADV, ADV_WILD))


@pytest.mark.parametrize("name", _cores())
def test_best_discard_14(benchmark: Any, name: str) -> None:
    benchmark.group = "best_discard_many: 14 cards, K wild"
    core = CORES[name]
    assert core is not None
    n = SIZE[name] // 10
    counts, wilds = np.ascontiguousarray(H14[:n]), np.full(n, 13, dtype=np.int8)
    benchmark(lambda: core.best_discard_many(counts, wilds, 2, 1))


@pytest.mark.parametrize("name", _cores())
def test_draw_table_13(benchmark: Any, name: str) -> None:
    benchmark.group = "draw_table: 13 cards, K wild"
    core = CORES[name]
    assert core is not None
    rows = [H13[i] for i in range(20 if name == "compiled" else 1)]
    benchmark(lambda: [core.draw_table_row(r, 13, 2) for r in rows])


@pytest.mark.parametrize("threads", [1, 2])
def test_deadwood_threads(benchmark: Any, threads: int) -> None:
    if CORES["compiled"] is None:
        pytest.skip("not built")
    import fivecrowns
    benchmark.group = "deadwood_many: 13 cards, threads"
    benchmark(lambda: fivecrowns.deadwood_many(H13, 13, threads=threads))
