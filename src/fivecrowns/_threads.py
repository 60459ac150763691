"""Splitting bulk work over threads; the compiled core's chunk functions release the GIL."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["run_threaded"]


def _split_work(n: int, threads: int) -> list[tuple[int, int]]:
    """Contiguous chunks for worker threads: several per thread to balance slow hands."""
    if threads <= 1 or n < 2:
        return [(0, n)]
    pieces = min(n, threads * 8)
    bounds = np.linspace(0, n, pieces + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def run_threaded(work: Callable[[int, int], object], n: int, threads: int) -> None:
    """Call ``work(start, stop)`` over [0, n) in chunks on ``threads`` threads.

    ``work`` must release the GIL for this to scale; the compiled core's chunk functions do.
    """
    chunks = _split_work(n, threads)
    if len(chunks) == 1:
        work(0, n)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for future in [pool.submit(work, a, b) for a, b in chunks]:
            future.result()

