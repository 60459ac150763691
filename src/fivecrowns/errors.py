"""The exceptions fivecrowns raises.

Every error is a subclass of :class:`FiveCrownsError` *and* of the builtin a
caller would expect (``ValueError`` for bad values), so ``except ValueError``
keeps working for code that does not know this module. :class:`Interrupted` is
the exception: Ctrl-C, a ``KeyboardInterrupt`` that ``except Exception`` must not
catch.
"""

from __future__ import annotations

__all__ = [
    "FiveCrownsError",
    "CardError",
    "HandError",
    "IllegalMoveError",
    "GameInUseError",
    "ReplayError",
    "BotError",
    "MissingExtraError",
    "BadRowError",
    "Interrupted",
]


class FiveCrownsError(Exception):
    """Base class of every error raised by fivecrowns."""


class CardError(FiveCrownsError, ValueError):
    """A card string or card index that does not name a card."""


class HandError(FiveCrownsError, ValueError):
    """A hand the deck cannot hold, or of a size the call cannot take."""


class IllegalMoveError(FiveCrownsError, ValueError):
    """A move the rules do not allow in the current state; the state is unchanged."""


class GameInUseError(FiveCrownsError, RuntimeError):
    """A :class:`~fivecrowns.Game` was moved, copied or pickled by one thread while another
    thread was moving, copying or pickling it. Nothing was changed by the refused call; a
    game is one thread's at a time (share it behind a lock of your own, or give each thread
    a :meth:`~fivecrowns.Game.clone`)."""


class ReplayError(FiveCrownsError, ValueError):
    """A game record that does not replay: corrupted, edited or from other rules."""


class BotError(FiveCrownsError, RuntimeError):
    """A player that raised or returned an illegal move; the message names the seed."""


class MissingExtraError(FiveCrownsError, ImportError):
    """An optional dependency that is not installed. The message names the feature, the
    package and the extra that brings it: ``"reading and writing Parquet or CSV needs
    pyarrow: pip install 'fivecrowns[io]'"``. The command line prints it as an error line
    with exit status 2.

    Attributes
    ----------
    extra : str
        The extra of ``fivecrowns`` to install: ``"io"``, ``"ray"`` or ``"rl"``.
    name : str
        The missing package's import name (as for any ``ImportError``).
    """

    def __init__(self, message: str, *, extra: str, name: str | None = None) -> None:
        super().__init__(message, name=name)
        self.extra = extra

    def __reduce__(self) -> tuple[object, ...]:
        # pickles (to and from worker processes) with its keyword arguments
        return _missing_extra, (str(self), self.extra, self.name)


def _missing_extra(message: str, extra: str, name: str | None) -> MissingExtraError:
    return MissingExtraError(message, extra=extra, name=name)


class BadRowError(FiveCrownsError, ValueError):
    """A row of a file that holds no valid hand (:func:`fivecrowns.files.score_file`
    without ``skip_bad``).

    Attributes
    ----------
    path : str
        The file.
    row : int
        The row's number among the file's rows, from 0.
    line : int or None
        For a CSV file, its line number as an editor shows it (the header is line 1);
        ``None`` for Parquet and ``.npy`` files.
    problem : str
        What is wrong with it.
    """

    def __init__(self, message: str, *, path: str, row: int, line: int | None,
                 problem: str) -> None:
        super().__init__(message)
        self.path = path
        self.row = row
        self.line = line
        self.problem = problem

    def __reduce__(self) -> tuple[object, ...]:
        return _bad_row, (str(self), self.path, self.row, self.line, self.problem)


def _bad_row(message: str, path: str, row: int, line: int | None,
             problem: str) -> BadRowError:
    return BadRowError(message, path=path, row=row, line=line, problem=problem)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a simulation (:func:`fivecrowns.simulate_games`) or a recording
    (:func:`fivecrowns.decisions.write_decisions`): a ``KeyboardInterrupt`` (so
    ``except Exception`` does not catch it) that keeps what was finished.

    Attributes
    ----------
    partial : GamesReport or DuplicateReport or DecisionFile or None
        The report of the games (or deals) finished before the interrupt, the first ones
        in order, or the file of the decisions recorded; ``None`` if none was.
    """

    def __init__(self, partial: object | None) -> None:
        seeds = getattr(partial, "seeds", None)
        done = len(seeds) if seeds is not None else getattr(partial, "games", 0)
        super().__init__(f"interrupted after {done} finished game(s)")
        self.partial = partial

    def __reduce__(self) -> tuple[object, ...]:
        return Interrupted, (self.partial,)
