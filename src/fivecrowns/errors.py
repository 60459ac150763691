"""The exceptions fivecrowns raises.

Every error is a subclass of :class:`FiveCrownsError` *and* of the builtin a
caller would expect (``ValueError`` for bad values), so ``except ValueError``
keeps working for code that does not know this module.
"""

from __future__ import annotations

__all__ = [
    "FiveCrownsError",
    "CardError",
    "HandError",
    "IllegalMoveError",
    "ReplayError",
    "BotError",
]


class FiveCrownsError(Exception):
    """Base class of every error raised by fivecrowns."""


class CardError(FiveCrownsError, ValueError):
    """A card string or card index that does not name a card."""


class HandError(FiveCrownsError, ValueError):
    """A hand the deck cannot hold, or of a size the call cannot take."""


class IllegalMoveError(FiveCrownsError, ValueError):
    """A move the rules do not allow in the current state; the state is unchanged."""


class ReplayError(FiveCrownsError, ValueError):
    """A game record that does not replay: corrupted, edited or from other rules."""


class BotError(FiveCrownsError, RuntimeError):
    """A player that raised or returned an illegal move; the message names the seed."""
