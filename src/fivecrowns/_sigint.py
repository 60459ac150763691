"""Ctrl-C raised where this package chooses, not wherever the main thread happens to be.

Python raises ``KeyboardInterrupt`` at whatever bytecode the main thread is running when
SIGINT comes, and that may be inside ``concurrent.futures``, ``threading`` or
``multiprocessing``: between a worker's start and the pool's note of it (the worker is then
never joined or stopped), or with one of their locks held (a shutdown then waits for ever).
Around such code the signal is *held*: noted, not handled, and the handler it replaced
runs afterwards, at a point where the pool is in a known state.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

__all__ = ["HeldSigint", "sigint_held"]


class HeldSigint:
    """While installed, SIGINT is noted, not handled; :meth:`release` runs the handler it
    replaced for each noted signal (the default one raises ``KeyboardInterrupt`` there).

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
        """Run the replaced handler for the signals noted so far."""
        while self.noted and self.replaced is not None:
            self.replaced(signal.SIGINT, self.noted.pop(0))

    def restore(self) -> None:
        """Put the replaced handler back, then run it for the signals still noted."""
        if self.replaced is not None:
            signal.signal(signal.SIGINT, self.replaced)
            self.release()


@contextmanager
def sigint_held() -> Iterator[HeldSigint]:
    """SIGINT held for the block; a Ctrl-C that came during it is raised at its end."""
    held = HeldSigint()
    try:
        yield held
    finally:
        held.restore()
