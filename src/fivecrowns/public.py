"""What every player of a round can know, kept up to date move by move.

A :class:`PublicState` follows the public events of a round (docs/rules.rst, A round):
the turned-up card, blind draws, cards taken from the discard pile, discards and
reshuffles. Each event costs O(1): a count goes up or down, or, on a reshuffle, one
56-count row is reset. Nothing is ever rebuilt from the history, so an observation's
``discard_counts``, ``taken_counts`` and ``unseen_counts`` cost the same on the first turn
and the thousandth.

An observation does not make those arrays: it keeps :meth:`PublicState.freeze`, the
counts of that moment, immutable and cheap to take, and :func:`thaw` makes the arrays when
one of them is first read. A bot that never reads them never pays for them.

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

from .cards import N_TYPES
from .rules import Rules, deck_counts

__all__ = ["PublicState", "Frozen", "thaw"]


_UINT8 = np.dtype(np.uint8)


def _rows(data: bytes) -> npt.NDArray[np.uint8]:
    # An array over immutable bytes is read-only, and cannot be made writeable. (numpy
    # takes positional arguments much faster than keywords here.)
    return np.frombuffer(data, _UINT8).reshape(-1, N_TYPES)


class _TakenRows:
    """Every player's taken counts as bytes, and their rows once made: one object shared
    by every :data:`Frozen` until the taken counts change (most events leave them
    alone)."""

    __slots__ = ("data", "rows")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.rows: tuple[npt.NDArray[np.uint8], ...] | None = None

    def get(self) -> tuple[npt.NDArray[np.uint8], ...]:
        rows = self.rows
        if rows is None:
            every = _rows(self.data)
            rows = self.rows = tuple([every[p] for p in range(len(every))])
        return rows


#: What :meth:`PublicState.freeze` gives and :func:`thaw` reads: the counts of one moment,
#: immutable. The discard pile's counts as bytes; the hidden counts (see
#: :meth:`PublicState.unseen`) as a private array that is never written; every player's
#: taken counts, shared by every moment until they change.
Frozen = tuple[bytes, npt.NDArray[np.uint8], _TakenRows]


def thaw(frozen: Frozen, player: int, hand: npt.NDArray[np.uint8]) -> tuple[
        npt.NDArray[np.uint8], tuple[npt.NDArray[np.uint8], ...], npt.NDArray[np.uint8]]:
    """The arrays of :meth:`PublicState.freeze`'s counts, as ``player``, holding ``hand``,
    sees them: the discard pile's counts, each player's taken counts and
    :meth:`PublicState.unseen`, all read-only (56,) ``uint8`` rows. The taken rows are
    shared by every call until the taken counts change; the others are new arrays.

    >>> state = PublicState(2, Rules())
    >>> state.turn_up(0)
    >>> frozen = state.freeze()
    >>> state.take(1, 0)
    >>> pile, taken, unseen = thaw(frozen, 0, np.zeros(56, dtype=np.uint8))
    >>> int(pile[0]), int(state.discard_counts[0]), int(taken[1].sum()), int(unseen.sum())
    (1, 0, 0, 115)
    """
    data, hidden, taken_rows = frozen
    taken = taken_rows.rows or taken_rows.get()
    out = np.subtract(hidden, hand)
    out += taken[player]
    out.setflags(write=False)
    return np.frombuffer(data, _UINT8), taken, out


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

    __slots__ = ("discard_counts", "taken_counts", "_hidden", "_frozen", "_taken_rows")

    def __init__(self, n_players: int, rules: Rules) -> None:
        self.discard_counts = np.zeros(N_TYPES, dtype=np.uint8)
        self.taken_counts = np.zeros((n_players, N_TYPES), dtype=np.uint8)
        # The whole deck less the discard pile and every player's taken cards: what no
        # player can place, before removing their own hand and adding back their own
        # taken cards. It only changes when a card enters or leaves public view.
        self._hidden = np.array(deck_counts(rules.decks), dtype=np.uint8)
        # freeze()'s counts, dropped by every event (each one changes the pile), and the
        # taken part of them, dropped only when the taken counts change.
        self._frozen: Frozen | None = None
        self._taken_rows: _TakenRows | None = None

    @classmethod
    def from_counts(cls, discard_counts: npt.NDArray[np.uint8],
                    taken_counts: npt.NDArray[np.uint8], rules: Rules) -> PublicState:
        """The state of a round whose discard pile holds ``discard_counts`` and whose
        players are known to hold ``taken_counts`` (an ``(n_players, 56)`` array); the
        caller checks that the counts fit in the deck.

        >>> import numpy as np
        >>> pile = np.zeros(56, dtype=np.uint8); pile[3] = 1
        >>> state = PublicState.from_counts(pile, np.zeros((2, 56), np.uint8), Rules())
        >>> int(state.unseen(0, np.zeros(56, dtype=np.uint8)).sum())
        115
        """
        new = cls(len(taken_counts), rules)
        new.discard_counts = np.array(discard_counts, dtype=np.uint8)
        new.taken_counts = np.array(taken_counts, dtype=np.uint8).reshape(-1, N_TYPES)
        new._hidden -= new.discard_counts
        new._hidden -= new.taken_counts.sum(axis=0, dtype=np.uint8)
        return new

    # -- events --

    def turn_up(self, card: int) -> None:
        """The top card of the draw pile was turned up onto the discard pile."""
        self.discard_counts[card] += 1
        self._hidden[card] -= 1
        self._frozen = None

    def take(self, player: int, card: int) -> None:
        """``player`` took the top card of the discard pile (it stays in public view)."""
        self.discard_counts[card] -= 1
        self.taken_counts[player, card] += 1
        self._frozen = self._taken_rows = None

    def discard(self, player: int, card: int) -> None:
        """``player`` discarded ``card``: if it was one they took, it is no longer known
        to be in their hand."""
        self.discard_counts[card] += 1
        taken = self.taken_counts[player]
        if taken[card]:
            taken[card] -= 1
            self._taken_rows = None
        else:
            self._hidden[card] -= 1
        self._frozen = None

    def reshuffle(self, top: int) -> None:
        """The discard pile but its top card (``top``) became the draw pile."""
        self._hidden += self.discard_counts
        self._hidden[top] -= 1
        self.discard_counts[:] = 0
        self.discard_counts[top] = 1
        self._frozen = None

    # -- views --

    def unseen(self, player: int, hand: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The cards whose place ``player`` cannot know: the whole deck less their
        ``hand``, the discard pile and what the other players are known to hold.

        ``hand`` must be the player's hand, which holds none of those public cards but
        all of the player's own taken cards, so no count goes below zero.
        """
        out = np.subtract(self._hidden, hand)
        out += self.taken_counts[player]
        return out

    def freeze(self) -> Frozen:
        """The counts now, immutable (see :data:`Frozen` and :func:`thaw`); the same object
        until the next event."""
        frozen = self._frozen
        if frozen is None:
            taken = self._taken_rows
            if taken is None:
                taken = self._taken_rows = _TakenRows(self.taken_counts.tobytes())
            frozen = self._frozen = (self.discard_counts.tobytes(), self._hidden.copy(),
                                     taken)
        return frozen

    def snapshot(self) -> tuple[npt.NDArray[np.uint8], tuple[npt.NDArray[np.uint8], ...]]:
        """Read-only copies of ``discard_counts`` and of each row of ``taken_counts``."""
        frozen = self.freeze()
        return np.frombuffer(frozen[0], _UINT8), frozen[2].rows or frozen[2].get()

    def copy(self) -> PublicState:
        """An independent copy."""
        new = object.__new__(PublicState)
        new.discard_counts = self.discard_counts.copy()
        new.taken_counts = self.taken_counts.copy()
        new._hidden = self._hidden.copy()
        new._frozen = self._frozen   # immutable, so they can be shared
        new._taken_rows = self._taken_rows
        return new

    def __getstate__(self) -> dict[str, object]:
        state = {name: getattr(self, name) for name in self.__slots__}
        state["_frozen"] = state["_taken_rows"] = None   # rebuilt on demand
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return (f"PublicState(discard={int(self.discard_counts.sum())}, "
                f"taken={self.taken_counts.sum(axis=1, dtype=np.int64).tolist()})")
