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
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Literal, TypeVar, overload

from ._checks import check_int
from ._sigint import sigint_held

__all__ = ["Backend", "ProgressCallback", "run_in_order", "check_jobs", "chunked",
           "TooManyGames", "check_fits"]

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
    return check_int(jobs, name, 1)


class TooManyGames(ValueError):
    """A run of more games than this machine's memory can hold the report of."""

    def __init__(self, games: int, per_game: int, memory: int | None) -> None:
        self.games, self.per_game, self.memory = games, per_game, memory
        super().__init__(self.message("games"))

    def message(self, name: str) -> str:
        """The error's text, the count named ``name`` (the command line's ``--games``)."""
        need = self.games * self.per_game
        have = ("" if self.memory is None else
                f", and this machine has {self.memory / 2**30:,.1f} GiB")
        return (f"{name} {self.games:,} is too many for one run: its report keeps about "
                f"{self.per_game} bytes a game, {need / 2**30:,.0f} GiB in all{have} (run "
                f"fewer games)")


def _memory() -> int | None:
    """This machine's physical memory in bytes, or ``None`` where it cannot be read."""
    try:
        size = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows) or no such name
        return None
    return size if size > 0 else None


def check_fits(games: int, per_game: int) -> None:
    """Raise :class:`TooManyGames` when the report of ``games`` games, ``per_game`` bytes
    each, needs more than this machine's physical memory (or than any address space): a
    run that could only end in a ``MemoryError``, perhaps hours in, is refused before it
    starts.

    >>> check_fits(10**6, 48)
    >>> check_fits(10**20, 48)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fivecrowns.runner.TooManyGames: games 100,000,000,000,000,000,000 is too many for one run: ...
    """
    memory = _memory()
    need = games * per_game
    if need >= 2**63 or (memory is not None and need > memory):
        raise TooManyGames(games, per_game, memory)


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter).

    >>> chunked([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


class _Chunks(Sequence[list[T]]):
    """``chunked(items, size)`` made one chunk at a time, when asked for: a long run holds
    the chunks in flight, never a copy of every item."""

    def __init__(self, items: Sequence[T], size: int) -> None:
        self.items, self.size = items, size

    def __len__(self) -> int:
        return -(-len(self.items) // self.size)

    @overload
    def __getitem__(self, i: int) -> list[T]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[list[T]]: ...

    def __getitem__(self, i: int | slice) -> list[T] | Sequence[list[T]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        start = (i % len(self)) * self.size
        return [self.items[j] for j in range(start, min(start + self.size,
                                                        len(self.items)))]


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


def _worker_start() -> None:
    # A terminal's Ctrl-C reaches every process of the group, the workers too. A worker
    # stopped by it may be halfway through sending a result: the pool's thread then waits
    # for the rest of it for ever, and the run never ends. The main process handles Ctrl-C
    # and stops the workers itself (_stop).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(fn: Callable[[list[T]], list[R]], chunks: Sequence[list[T]], jobs: int
           ) -> Iterator[list[R]]:
    if jobs == 1:
        for chunk in chunks:
            yield fn(chunk)
        return
    workers = min(jobs, len(chunks))
    # Ctrl-C is held while the pool starts, takes a chunk or stops (a worker whose start
    # it interrupted would be left running, unknown to the pool); it is raised right after.
    # It is not held across a yield: the caller's code between chunks stays interruptible.
    with sigint_held():
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=_clean_start(),
                                   initializer=_worker_start)
    # A few chunks per worker in flight, submitted as earlier ones are taken (map() would
    # submit them all at once: every chunk, pickled, in memory for the whole run).
    pending: deque[Future[list[R]]] = deque()
    try:
        for chunk in chunks:
            if len(pending) >= workers * 4:
                yield pending.popleft().result()
            with sigint_held():
                pending.append(pool.submit(fn, chunk))
        while pending:
            yield pending.popleft().result()
    except BaseException:  # Ctrl-C, an error, or the caller stopped iterating
        with sigint_held():
            _stop(pool)
        raise
    with sigint_held():
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
        _join_manager(thread)
    if calls is not None:  # its feeder thread can outlive the pool's thread by a moment
        calls.close()
        calls.join_thread()


def _join_manager(thread: Any) -> None:
    """Join the pool's thread once its workers are terminated.

    A worker terminated halfway through sending a result (a large one takes several
    writes) leaves part of a message in the results pipe, and the pool's thread waits for
    the rest of it for ever. With every worker gone nothing else writes there, so zeros
    are written until the thread has read a message it cannot unpickle: it then takes the
    pool as broken and ends."""
    results = getattr(thread, "result_queue", None)
    # a file descriptor to write to: a POSIX pipe (on Windows, a handle)
    writer = getattr(results, "_writer", None) if os.name == "posix" else None
    thread.join(0.5)
    while thread.is_alive() and writer is not None:
        try:
            os.set_blocking(writer.fileno(), False)
            os.write(writer.fileno(), bytes(1 << 16))
        except OSError:  # the pipe is full (the thread reads it) or closed (it ended)
            pass
        thread.join(0.5)
    thread.join()


def run_in_order(fn: Callable[[T], R], items: Sequence[T], *, jobs: int = 1,
                 progress: ProgressCallback | None = None, backend: Backend = "local",
                 ray_address: str | None = None, chunk_size: int | None = None,
                 on_result: Callable[[R], Any] | None = None, keep: bool = True
                 ) -> list[R]:
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
    keep : bool
        ``False``: the results are only passed to ``on_result`` and an empty list is
        returned, so that a long run's memory does not grow with its results.

    Returns
    -------
    list
        ``fn(item)`` for each item, in order.

    Notes
    -----
    ``items`` is read chunk by chunk as the work goes (a sequence computing its items when
    indexed is never copied whole), and only a few chunks per worker are in flight.
    """
    jobs = check_jobs(jobs)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError("ray_address is only for backend='ray'")
    if not isinstance(items, Sequence):
        items = list(items)
    if not len(items):
        return []
    if chunk_size is None:
        chunk_size = _chunk_size(len(items), jobs if backend == "local" else max(jobs, 2), 16)
    else:
        chunk_size = check_jobs(chunk_size, "chunk_size")
    chunks = _Chunks(items, chunk_size)
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
            if keep:
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

