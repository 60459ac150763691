"""Splitting bulk work over threads; the compiled core's chunk functions release the GIL.

Work is cut into pieces of at most ``most`` items, and only a few pieces are in flight at
once, for two reasons an hour-long call cares about:

- memory: whatever a piece allocates (a chunk's generators, packed rounds) exists for a
  bounded number of pieces at a time, never for all ``n`` items;
- Ctrl-C: a piece runs in C without the GIL, so Python sees a ``KeyboardInterrupt`` only
  between pieces. With bounded pieces the call stops within one piece's time: no new piece
  starts, the running ones finish, every worker thread is joined, then it re-raises.

Where the ``KeyboardInterrupt`` is raised matters. Left to Python, it is raised wherever
the main thread happens to be, which may be inside ``concurrent.futures`` or ``threading``:
between a worker thread's start and the pool's note of it (the thread is then never
joined), or with one of their locks held (the shutdown then waits for ever). So while the
pool runs, SIGINT only notes that it came, and the handler it replaced runs at the points
of this module's own loop, with no lock of the pool's held.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from types import FrameType
from typing import Any

__all__ = ["run_threaded", "MOST"]

#: The default largest piece, in items: 16,384 hands of a bulk solve take 5 to 250 ms
#: (0.3 to 14 us a hand, the slowest for the adversarial hands of fivecrowns.bench).
MOST = 1 << 14
# Pieces in flight per thread: one running and one queued keeps every thread busy.
_IN_FLIGHT = 2
# How long the main thread waits for a piece before it looks for a noted SIGINT: the
# longest a Ctrl-C waits beyond the pieces already running.
_POLL = 0.05


class _HeldSigint:
    """While installed, SIGINT is noted, not handled; ``release`` runs the handler it
    replaced for each noted signal, at a point the caller chooses.

    Only the main thread can install a handler, and only there does a signal raise: in any
    other thread this does nothing, and nothing needs it."""

    def __init__(self) -> None:
        self.noted: list[FrameType | None] = []
        self.replaced: Any = None
        try:
            previous = signal.getsignal(signal.SIGINT)
            if callable(previous):  # SIG_IGN and SIG_DFL raise nothing to hold back
                signal.signal(signal.SIGINT, self._note)
                self.replaced = previous
        except ValueError:  # not the main thread of the main interpreter
            pass

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self.noted.append(frame)

    def release(self) -> None:
        """Run the replaced handler for the signals noted so far (the default one raises
        ``KeyboardInterrupt`` here)."""
        while self.noted and self.replaced is not None:
            self.replaced(signal.SIGINT, self.noted.pop(0))

    def restore(self) -> None:
        """Put the replaced handler back, then run it for the signals still noted."""
        if self.replaced is not None:
            signal.signal(signal.SIGINT, self.replaced)
            self.release()


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
    held = _HeldSigint()
    try:
        _run_pool(work, pieces, threads, held)
    finally:
        held.restore()


def _run_pool(work: Callable[[int, int], object], pieces: Iterator[tuple[int, int]],
              threads: int, held: _HeldSigint) -> None:
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


def _wait_for_first(pending: deque[Future[object]], held: _HeldSigint) -> None:
    """Take the first pending piece once it is done (raising its exception), or come back
    after a moment; either way a noted SIGINT is handled first."""
    wait((pending[0],), timeout=_POLL, return_when=FIRST_COMPLETED)
    held.release()
    if pending[0].done():
        pending.popleft().result()
