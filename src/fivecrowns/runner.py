"""Running many independent, seeded jobs in order: the one runner of every bulk simulation.

:func:`run_in_order` maps a function over items in chunks, on this process (``jobs=1``),
a local process pool, or a Ray cluster (``backend="ray"``, the ``fivecrowns[ray]`` extra),
and returns the results in the items' order. Every item carries its own seed, so results
never depend on the backend, the number of workers or how the items are chunked.

Progress is a callable, called with how many items just finished; progress bars belong to
the caller (the command line uses tqdm).

>>> run_in_order(abs, [-3, 1, -2])
[3, 1, 2]
"""

from __future__ import annotations

import functools
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal, TypeVar

__all__ = ["Backend", "ProgressCallback", "run_in_order", "check_jobs", "chunked"]

T = TypeVar("T")
R = TypeVar("R")

#: Where bulk simulations run: ``"local"`` (this machine's processes) or ``"ray"``.
Backend = Literal["local", "ray"]
#: Called with the number of items just finished.
ProgressCallback = Callable[[int], Any]


def check_jobs(jobs: object, name: str = "jobs") -> int:
    """``jobs`` as an int of at least 1, or a ``TypeError``/``ValueError`` naming it.

    >>> check_jobs(2)
    2
    """
    import numbers

    if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(jobs).__name__}")
    if jobs < 1:
        raise ValueError(f"{name} must be at least 1, got {jobs}")
    return int(jobs)


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter).

    >>> chunked([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def _map_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    return [fn(item) for item in chunk]


def _chunk_size(n: int, workers: int, most: int) -> int:
    # Several chunks per worker balance uneven items; a cap keeps progress moving and the
    # per-chunk overhead (pickling, a task) small next to the work.
    return max(1, min(most, n // (workers * 4) or 1))


def _clean_start() -> multiprocessing.context.BaseContext:
    # Workers start from a fresh interpreter (forkserver where the platform has it, else
    # spawn), never as a fork of this process: a fork of a process holding other threads
    # (a connected Ray driver, a GUI, a thread pool) can deadlock or corrupt them.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _local(fn: Callable[[list[T]], list[R]], chunks: list[list[T]], jobs: int
           ) -> Iterator[list[R]]:
    if jobs == 1:
        for chunk in chunks:
            yield fn(chunk)
        return
    workers = min(jobs, len(chunks))
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_clean_start())
    try:
        # map() yields in submission order, however the workers finish.
        yield from pool.map(fn, chunks)
    except BaseException:  # Ctrl-C, an error, or the caller stopped iterating
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down now: the chunks not started are dropped and the workers
    stopped, so that Ctrl-C ends a run at once, not after the chunks already handed to
    the workers (a few per worker, seconds each with slow bots). Every worker process
    and the pool's thread are gone when it returns."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    # Before 3.14: shutdown forgets the processes and the pool's thread, so they are
    # taken first. A terminated worker ends the pool's thread, which closes its queues.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    thread = getattr(pool, "_executor_manager_thread", None)
    calls = getattr(pool, "_call_queue", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    if thread is not None:
        thread.join()
    if calls is not None:  # its feeder thread can outlive the pool's thread by a moment
        calls.close()
        calls.join_thread()


def run_in_order(fn: Callable[[T], R], items: Sequence[T], *, jobs: int = 1,
                 progress: ProgressCallback | None = None, backend: Backend = "local",
                 ray_address: str | None = None, chunk_size: int | None = None,
                 on_result: Callable[[R], Any] | None = None) -> list[R]:
    """``[fn(item) for item in items]``, possibly in parallel, in the items' order.

    Parameters
    ----------
    fn : callable
        A picklable function (a module-level function or a ``functools.partial`` of one)
        when ``jobs > 1`` or on Ray.
    items : sequence
    jobs : int
        Worker processes for the local backend (1: run here, no pool). On Ray, the number
        of chunks in flight is decided by the cluster; ``jobs`` only sizes the chunks.
    progress : callable, optional
        Called with the number of items just finished, in order.
    backend : ``"local"`` or ``"ray"``
    ray_address : str, optional
        With ``backend="ray"``: the cluster to join (``ray.init(address=...)``); a local
        Ray is started when it is ``None`` and none is running.
    chunk_size : int, optional
        Items per task; by default a few chunks per worker, at most 16 items each.
    on_result : callable, optional
        Called with each result, in the items' order, as soon as it and all before it
        are done (to stream records to a file).

    Returns
    -------
    list
        ``fn(item)`` for each item, in order.
    """
    jobs = check_jobs(jobs)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError("ray_address is only for backend='ray'")
    items = list(items)
    if not items:
        return []
    if chunk_size is None:
        chunk_size = _chunk_size(len(items), jobs if backend == "local" else max(jobs, 2), 16)
    else:
        chunk_size = check_jobs(chunk_size, "chunk_size")
    chunks = chunked(items, chunk_size)
    work = functools.partial(_map_chunk, fn)
    parts: Iterator[list[R]]
    if backend == "ray":
        from .distributed import ray_map_chunks

        parts = ray_map_chunks(work, chunks, address=ray_address)
    else:
        parts = _local(work, chunks, jobs if len(chunks) > 1 else 1)
    results: list[R] = []
    try:
        for part in parts:
            results.extend(part)
            if on_result is not None:
                for r in part:
                    on_result(r)
            if progress is not None:
                progress(len(part))
    finally:
        close = getattr(parts, "close", None)
        if close is not None:  # a failure here (Ctrl-C in on_result...) stops the workers now
            close()
    return results

