"""Splitting bulk work over threads; the compiled core's chunk functions release the GIL.

Work is cut into pieces of at most ``most`` items, and only a few pieces are in flight at
once, for two reasons an hour-long call cares about:

- memory: whatever a piece allocates (a chunk's generators, packed rounds) exists for a
  bounded number of pieces at a time, never for all ``n`` items;
- Ctrl-C: a piece runs in C without the GIL, so Python sees a ``KeyboardInterrupt`` only
  between pieces. With bounded pieces the call stops within one piece's time: no new piece
  starts, the running ones finish, every worker thread is joined, then it re-raises.

While the pool runs, SIGINT is held (:mod:`fivecrowns._sigint`): the handler it replaced
runs at the points of this module's own loop, never inside the pool's code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout

from ._sigint import HeldSigint, sigint_held

__all__ = ["run_threaded", "MOST"]

#: The default largest piece, in items: 16,384 hands of a bulk solve take 5 to 250 ms
#: (0.3 to 14 us a hand, the slowest for the adversarial hands of fivecrowns.bench).
MOST = 1 << 14
# Pieces in flight per thread: one running and one queued keeps every thread busy.
_IN_FLIGHT = 2
# How long the main thread waits for a piece before it looks for a noted SIGINT: the
# longest a Ctrl-C waits beyond the pieces already running.
_POLL = 0.05


def _split_work(n: int, threads: int, most: int = MOST) -> Iterator[tuple[int, int]]:
    """Contiguous pieces of [0, n): several per thread to balance slow items, none
    larger than ``most``."""
    if n <= 0:
        return
    pieces = -(-n // max(1, most))
    if threads > 1:
        pieces = max(pieces, min(n, threads * 8))
    # Boundaries as numpy's linspace(0, n, pieces + 1).astype(int) put them, in integers.
    for i in range(pieces):
        a, b = i * n // pieces, (i + 1) * n // pieces
        if b > a:
            yield a, b


def run_threaded(work: Callable[[int, int], object], n: int, threads: int,
                 most: int = MOST) -> None:
    """Call ``work(start, stop)`` over [0, n) in pieces of at most ``most`` items, on
    ``threads`` threads (``1``: here, in this thread).

    ``work`` must release the GIL for this to scale; the compiled core's chunk functions
    do. The first exception (``KeyboardInterrupt`` included) stops the call: pieces not
    started are dropped, the running ones finish and their threads are joined, and the
    exception is raised here.
    """
    pieces = _split_work(n, threads, most)
    if threads <= 1:
        for a, b in pieces:  # Python checks for signals between pieces
            work(a, b)
        return
    with sigint_held() as held:
        _run_pool(work, pieces, threads, held)


def _run_pool(work: Callable[[int, int], object], pieces: Iterator[tuple[int, int]],
              threads: int, held: HeldSigint) -> None:
    pool = ThreadPoolExecutor(max_workers=threads)
    pending: deque[Future[object]] = deque()
    try:
        for a, b in pieces:
            while len(pending) >= threads * _IN_FLIGHT:
                _wait_for_first(pending, held)
            held.release()
            pending.append(pool.submit(work, a, b))
        while pending:
            _wait_for_first(pending, held)
    finally:
        for future in pending:
            future.cancel()
        # joins the threads: at most the pieces already running are finished
        pool.shutdown(wait=True, cancel_futures=True)


def _wait_for_first(pending: deque[Future[object]], held: HeldSigint) -> None:
    """Take the first pending piece once it is done (raising its exception), or come back
    after a moment; either way a noted SIGINT is handled first."""
    first = pending[0]
    try:
        first.result(timeout=_POLL)
    except FuturesTimeout:
        if not first.done():
            held.release()
            return
        # Done: either the piece raised its own TimeoutError, or it finished between the
        # wait's timeout and this check. Ask the piece itself (no wait now): its result,
        # or its own exception, never the wait's timeout.
        first.result()
    held.release()
    pending.popleft()
