"""What every player of a round can know, kept up to date move by move.

A :class:`PublicState` follows the public events of a round (docs/rules.rst, A round):
the turned-up card, blind draws, cards taken from the discard pile, discards and
reshuffles. Each event costs O(1): a count goes up or down, or, on a reshuffle, one
56-count row is reset. Nothing is ever rebuilt from the history, so an observation's
``discard_counts``, ``taken_counts`` and ``unseen_counts`` cost the same on the first turn
and the thousandth.

>>> import numpy as np
>>> from fivecrowns import Rules
>>> state = PublicState(2, Rules())
>>> state.turn_up(0); state.take(1, 0); state.discard(1, 5)
>>> int(state.discard_counts[5]), int(state.taken_counts[1][0])
(1, 1)
>>> hand = np.zeros(56, dtype=np.uint8)
>>> int(state.unseen(0, hand).sum())    # 116 cards less the pile (1) and what 1 took (1)
114
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .cards import JOKER_INDEX, N_TYPES
from .rules import Rules

__all__ = ["PublicState"]


class PublicState:
    """The public card counts of a round, updated by the engine on every event.

    Parameters
    ----------
    n_players : int
    rules : Rules
        ``rules.decks`` sets the whole deck's counts.

    Attributes
    ----------
    discard_counts : ndarray
        The discard pile's contents, a (56,) ``uint8`` row.
    taken_counts : ndarray
        For each player, the cards they were seen taking from the discard pile and have
        not discarded since: an ``(n_players, 56)`` ``uint8`` array.
    """

    __slots__ = ("discard_counts", "taken_counts", "_taken_total", "_full")

    def __init__(self, n_players: int, rules: Rules) -> None:
        self.discard_counts = np.zeros(N_TYPES, dtype=np.uint8)
        self.taken_counts = np.zeros((n_players, N_TYPES), dtype=np.uint8)
        self._taken_total = np.zeros(N_TYPES, dtype=np.int16)
        full = np.full(N_TYPES, rules.copies, dtype=np.int16)
        full[JOKER_INDEX] = rules.jokers
        self._full = full

    # -- events --

    def turn_up(self, card: int) -> None:
        """The top card of the draw pile was turned up onto the discard pile."""
        self.discard_counts[card] += 1

    def take(self, player: int, card: int) -> None:
        """``player`` took the top card of the discard pile."""
        self.discard_counts[card] -= 1
        self.taken_counts[player, card] += 1
        self._taken_total[card] += 1

    def discard(self, player: int, card: int) -> None:
        """``player`` discarded ``card``: if it was one they took, it is no longer known
        to be in their hand."""
        self.discard_counts[card] += 1
        if self.taken_counts[player, card]:
            self.taken_counts[player, card] -= 1
            self._taken_total[card] -= 1

    def reshuffle(self, top: int) -> None:
        """The discard pile but its top card (``top``) became the draw pile."""
        self.discard_counts[:] = 0
        self.discard_counts[top] = 1

    # -- views --

    def unseen(self, player: int, hand: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The cards whose place ``player`` cannot know: the whole deck less their
        ``hand``, the discard pile and what the other players are known to hold."""
        out = self._full - hand - self.discard_counts - self._taken_total \
            + self.taken_counts[player]
        np.maximum(out, 0, out=out)
        return out.astype(np.uint8)

    def copy(self) -> PublicState:
        """An independent copy."""
        new = object.__new__(PublicState)
        new.discard_counts = self.discard_counts.copy()
        new.taken_counts = self.taken_counts.copy()
        new._taken_total = self._taken_total.copy()
        new._full = self._full
        return new

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return (f"PublicState(discard={int(self.discard_counts.sum())}, "
                f"taken={self.taken_counts.sum(axis=1).tolist()})")
