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

from _harness import CORE_NAMES, core_params
from fivecrowns.bench import adversarial_hands, core
from fivecrowns.dealing import random_hands
from fivecrowns.solver import Implementation, implementation


def _load(name: str) -> Implementation | None:
    return implementation(name) if core(name) is not None else None


CORES = {name: _load(name) for name in CORE_NAMES}
# The pure-Python twin is orders of magnitude slower: it gets a slice of each workload.
SIZE = {"compiled": 20_000, "python": 200}


H13 = random_hands(20_000, 13, seed=1)
H7 = random_hands(20_000, 7, seed=2)
H14 = random_hands(20_000, 14, seed=3)
ADV, ADV_WILD = adversarial_hands(2_000, seed=4)


def _bulk(name: str, hands: np.ndarray, wild: Any) -> Callable[[], object]:
    core = CORES[name]
    assert core is not None
    n = min(SIZE[name], hands.shape[0])
    counts = np.ascontiguousarray(hands[:n])
    wilds = wild if np.isscalar(wild) else np.ascontiguousarray(wild[:n])
    return lambda: core.deadwood_many(counts, wilds, threads=1)


@pytest.mark.parametrize("name", core_params())
def test_deadwood_13_kings(benchmark: Any, name: str) -> None:
    benchmark.group = "deadwood_many: 13 cards, K wild"
    benchmark(_bulk(name, H13, 13))


@pytest.mark.parametrize("name", core_params())
def test_deadwood_7_sevens(benchmark: Any, name: str) -> None:
    benchmark.group = "deadwood_many: 7 cards, 7s wild"
    benchmark(_bulk(name, H7, 7))


@pytest.mark.parametrize("name", core_params())
def test_deadwood_adversarial(benchmark: Any, name: str) -> None:
    benchmark.group = "deadwood_many: adversarial set"
    benchmark(_bulk(name, ADV, ADV_WILD))


@pytest.mark.parametrize("name", core_params())
def test_best_discard_14(benchmark: Any, name: str) -> None:
    benchmark.group = "discard_deadwood_many: 14 cards, K wild"
    core = CORES[name]
    assert core is not None
    n = SIZE[name] // 10
    counts = np.ascontiguousarray(H14[:n])
    benchmark(lambda: core.discard_deadwood_many(counts, 13, threads=1))


@pytest.mark.parametrize("name", core_params())
def test_draw_table_13(benchmark: Any, name: str) -> None:
    benchmark.group = "draw_table: 13 cards, K wild"
    core = CORES[name]
    assert core is not None
    rows = [H13[i] for i in range(20 if name == "compiled" else 1)]
    benchmark(lambda: [core.draw_table(r, 13) for r in rows])


@pytest.mark.parametrize("threads", [1, 2])
def test_deadwood_threads(benchmark: Any, threads: int) -> None:
    core = CORES["compiled"]
    if core is None:
        pytest.skip("not built")
    benchmark.group = "deadwood_many: 13 cards, threads"
    benchmark(lambda: core.deadwood_many(H13, 13, threads=threads))


@pytest.mark.parametrize("what", ["deal", "score"])
def test_dealing_vs_scoring(benchmark: Any, what: str) -> None:
    """Dealing 100,000 13-card hands should cost no more than scoring them."""
    from fivecrowns import deadwood_many

    benchmark.group = "random_hands vs deadwood_many: 100,000 13-card hands"
    hands = random_hands(100_000, 13, seed=6)
    if what == "deal":
        benchmark(lambda: random_hands(100_000, 13, seed=6))
    else:
        benchmark(lambda: deadwood_many(hands, 13, threads=1))
