"""Ctrl-C during threaded bulk work (``fivecrowns._threads``, ``fivecrowns._sigint``):
wherever the signal lands, the call raises ``KeyboardInterrupt`` with every worker thread
joined, and the SIGINT handler that was in place is back and has run.

These send SIGINT to this process's main thread from inside a piece of work, at the moment
the pool is starting its second thread: before 0.4's fix, about one call in three left
a worker thread behind (the ``KeyboardInterrupt`` was raised inside ``Thread.start``, after
the thread started and before the pool noted it). ``test_interrupt.py`` stops whole calls
in a child process."""

from __future__ import annotations

import os
import signal
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from types import FrameType
from typing import Any

import pytest

from fivecrowns._sigint import HeldSigint, sigint_held
from fivecrowns._threads import _wait_for_first, run_threaded
from fivecrowns.runner import _clean_start, _stop

if sys.platform == "win32":  # pragma: no cover - no pthread_kill
    pytest.skip("signals to a thread are POSIX", allow_module_level=True)

MAIN = threading.main_thread().ident


def _ctrl_c_at(piece: int, done: list[int]) -> Callable[[int, int], None]:
    """Work that sends SIGINT to the main thread when it runs piece ``piece``."""
    def work(a: int, b: int) -> None:
        if a == piece:
            assert MAIN is not None
            signal.pthread_kill(MAIN, signal.SIGINT)
        done.append(a)
    return work


@pytest.fixture
def own_threads() -> Iterator[set[threading.Thread]]:
    """The threads alive before the test, which it does not answer for."""
    yield set(threading.enumerate())


@pytest.fixture
def default_sigint() -> Iterator[None]:
    """Python's own SIGINT handler, as at a terminal: a suite started in the background
    inherits SIGINT ignored, and Python then installs none."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("default_sigint")
def test_ctrl_c_joins_every_worker_wherever_it_lands(
        own_threads: set[threading.Thread]) -> None:
    for trial in range(150):
        done: list[int] = []
        with pytest.raises(KeyboardInterrupt):
            run_threaded(_ctrl_c_at(trial % 3, done), 64, 2, 1)
        left = [t.name for t in threading.enumerate() if t not in own_threads]
        assert left == [], (trial, left)
        assert len(done) < 64  # it stopped: the pieces not started were dropped
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_handler_that_does_not_raise_runs_once_and_the_call_finishes(
        own_threads: set[threading.Thread]) -> None:
    seen: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        done: list[int] = []
        run_threaded(_ctrl_c_at(5, done), 64, 2, 1)
        assert sorted(done) == list(range(64))
        assert seen == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is note
    finally:
        signal.signal(signal.SIGINT, previous)
    assert [t for t in threading.enumerate() if t not in own_threads] == []


def test_a_handler_that_raises_its_own_error_stops_the_call() -> None:

    class Stop(Exception):
        pass

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stop

    previous = signal.signal(signal.SIGINT, stop)
    try:
        done: list[int] = []
        with pytest.raises(Stop):
            run_threaded(_ctrl_c_at(1, done), 64, 2, 1)
        assert len(done) < 64 and signal.getsignal(signal.SIGINT) is stop
    finally:
        signal.signal(signal.SIGINT, previous)


def test_off_the_main_thread_nothing_is_held() -> None:
    """Only the main thread can set a SIGINT handler (and only it gets
    ``KeyboardInterrupt``): elsewhere the work simply runs."""
    done: list[int] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            run_threaded(lambda a, b: done.append(a), 64, 2, 1)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    before = signal.getsignal(signal.SIGINT)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert errors == [] and sorted(done) == list(range(64))
    assert signal.getsignal(signal.SIGINT) is before


def test_a_failing_piece_is_raised_and_the_handler_restored() -> None:
    def work(a: int, b: int) -> None:
        if a == 3:
            raise ValueError("piece 3")

    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(ValueError, match="piece 3"):
        run_threaded(work, 64, 2, 1)
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.usefixtures("default_sigint")
def test_sigint_held_raises_at_the_end_of_the_block() -> None:
    """The process pool of ``runner`` starts, takes chunks and stops inside such blocks."""
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with sigint_held():
            signal.raise_signal(signal.SIGINT)
            steps.append("after the signal")
        steps.append("after the block")  # pragma: no cover - must not run
    assert steps == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with sigint_held():
        steps.append("no signal")
    assert steps[-1] == "no signal"


# -- the process pool of run_in_order ----------------------------------------------------

def _square(x: int) -> int:
    return x * x


@pytest.mark.skipif(hasattr(ProcessPoolExecutor, "terminate_workers"),
                    reason="Python 3.14 stops the workers itself")
def test_stopping_a_pool_with_half_a_result_in_its_pipe_ends() -> None:
    """A worker terminated while it sends a large result leaves half a message in the
    results pipe; the pool's thread then waited for the rest for ever, and Ctrl-C hung
    ``simulate --jobs 2`` about one time in twenty. Half a message is written here by
    hand: ``_stop`` must still end, with the pool's thread and workers gone."""
    pool = ProcessPoolExecutor(max_workers=1, mp_context=_clean_start())
    assert pool.submit(_square, 7).result(timeout=60) == 49  # the worker and thread run
    thread: Any = pool._executor_manager_thread
    writer = pool._result_queue._writer  # type: ignore[attr-defined]
    # the thread reads with recv(): a 4-byte length, then that many bytes
    os.write(writer.fileno(), struct.pack("!i", 100_000) + b"half a result")
    time.sleep(0.2)  # the thread is now waiting for the other 99,987 bytes
    assert thread.is_alive()
    stopping = threading.Thread(target=_stop, args=(pool,), daemon=True)
    stopping.start()
    stopping.join(timeout=60)
    assert not stopping.is_alive(), "_stop waited for the rest of the message"
    assert not thread.is_alive()


def test_a_piece_that_raises_timeout_error_is_not_taken_for_the_wait() -> None:
    """The pool waits for a piece with a timeout; a piece's own TimeoutError is raised."""
    def work(a: int, b: int) -> None:
        if a == 2:
            raise TimeoutError("piece 2")

    with pytest.raises(TimeoutError, match="piece 2"):
        run_threaded(work, 64, 2, 1)


class _DoneDuringTheWait(Future[object]):
    """A piece that finishes just after the wait for it timed out: the race of a loaded
    machine, made certain."""

    def result(self, timeout: float | None = None) -> object:
        if timeout is not None and not self.done():
            self.set_result("piece")
            raise FuturesTimeout()
        return super().result(timeout)


def test_a_piece_done_just_after_the_wait_timed_out_is_taken() -> None:
    """Before 0.5 the wait's own TimeoutError was raised as the piece's."""
    late = _DoneDuringTheWait()
    pending: deque[Future[object]] = deque([late])
    held = HeldSigint()
    try:
        _wait_for_first(pending, held)
    finally:
        held.restore()
    assert not pending


def test_a_piece_that_raises_timeout_error_is_raised_by_the_wait() -> None:
    failed: Future[object] = Future()
    failed.set_exception(TimeoutError("piece 1"))
    held = HeldSigint()
    try:
        with pytest.raises(TimeoutError, match="piece 1"):
            _wait_for_first(deque([failed]), held)
    finally:
        held.restore()
