"""The round state's Python twin, the part that only reads it or copies it: the views of
the hands, the piles and the public counts, what a sampled world replaces, the
reshuffles' generator and the copies. :class:`fivecrowns._state_py.RoundState` adds the
construction, the moves and the pickles (the rules of a round).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from ._state_checks import (
    MAX_HAND,
    _check_seat,
    _counts,
    _from_snapshot,
    _generator,
    _snapshot,
    _types,
    full_counts,
)
from .cards import N_TYPES
from .seeding import _deepcopy_rng

__all__ = ["StateViews"]

_S = TypeVar("_S", bound="StateViews")


class StateViews:
    """The attributes of a round state, and what reads or copies them."""

    # The piles keep their top card last, so drawing is a cheap pop().
    n_players: int
    hand_size: int
    wild: int
    decks: int
    max_turns: int
    return_discard: bool
    sudden_death: bool
    current: int
    phase: int
    turn: int
    taken: int
    drawn: int
    went_out: int
    final_left: int
    hit_max_turns: bool
    reshuffles: int
    _rng: np.random.Generator | None
    _snapshot: tuple[Any, Any] | None
    _hands: npt.NDArray[np.uint8]
    _draw: list[int]
    _pile: list[int]
    _pile_counts: npt.NDArray[np.int64]
    _taken_counts: npt.NDArray[np.int64]
    _hidden: npt.NDArray[np.int64]
    _scores: list[int]
    # Held by every step that a Round takes as one (a move with its events, a copy, the
    # fields of a pickle): the compiled twin's steps are single C calls, which the GIL
    # keeps whole; this twin's are many lines of Python (docs/development.rst, Threads).
    _lock: threading.RLock

    # -- read access --

    @property
    def n_draw(self) -> int:
        return len(self._draw)

    @property
    def n_pile(self) -> int:
        return len(self._pile)

    @property
    def top_discard(self) -> int:
        return self._pile[-1] if self._pile else -1

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    def hand(self, player: int) -> npt.NDArray[np.uint8]:
        """A copy of ``player``'s hand, (56,) uint8 counts."""
        return self._hands[_check_seat(player, self.n_players, "player")].copy()

    def hand_bytes(self, player: int) -> bytes:
        """``player``'s hand as 56 bytes of counts."""
        return self._hands[_check_seat(player, self.n_players, "player")].tobytes()

    def hands(self) -> npt.NDArray[np.uint8]:
        """A copy of every hand, (n_players, 56) uint8."""
        return self._hands.copy()

    def draw_pile(self) -> list[int]:
        """The draw pile's card types, top card first."""
        return self._draw[::-1]

    def discard_pile(self) -> list[int]:
        """The discard pile's card types, bottom card first."""
        return list(self._pile)

    def draw_counts(self) -> npt.NDArray[np.uint8]:
        return _counts(self._draw)

    def pile_counts(self) -> npt.NDArray[np.uint8]:
        """The discard pile's counts, (56,) uint8."""
        return self._pile_counts.astype(np.uint8)

    def hidden_counts(self) -> npt.NDArray[np.uint8]:
        """The whole deck less the discard pile and every player's taken cards."""
        return self._hidden.astype(np.uint8)

    def taken_counts(self) -> npt.NDArray[np.uint8]:
        """For each player, the cards seen taken from the discard pile and not discarded
        since: (n_players, 56) uint8."""
        return self._taken_counts.astype(np.uint8)

    def public_bytes(self) -> tuple[bytes, bytes, bytes]:
        """``(pile_counts, hidden_counts, taken_counts)`` as bytes of uint8 counts."""
        return (self.pile_counts().tobytes(), self.hidden_counts().tobytes(),
                self.taken_counts().tobytes())

    def unseen(self, player: int) -> npt.NDArray[np.uint8]:
        """``PublicState.unseen``: the cards whose place ``player`` cannot know."""
        p = _check_seat(player, self.n_players, "player")
        return (self._hidden - self._hands[p] + self._taken_counts[p]).astype(np.uint8)

    # -- what a sampled world replaces (Round.determinize) --

    def set_hand(self, player: int, row: Any) -> None:
        """Replace ``player``'s hand by ``row`` (56 counts) holding the cards it is known
        to hold; the caller keeps the cards conserved."""
        p = _check_seat(player, self.n_players, "player")
        counts = np.asarray(row, dtype=np.int64)
        if counts.shape != (N_TYPES,) or (counts < 0).any() or counts.sum() > MAX_HAND:
            raise ValueError(f"a hand must be 56 counts of at most {MAX_HAND} cards")
        bad = np.flatnonzero((counts < self._taken_counts[p])
                             | (counts > full_counts(self.decks))).tolist()
        if bad:
            t = bad[0]
            raise ValueError(f"card type {t}: {counts[t]} copies in player {p}'s hand, "
                             f"known to hold {self._taken_counts[p, t]}")
        self._hands[p] = counts

    def set_draw_pile(self, cards: Iterable[int]) -> None:
        """Replace the draw pile by ``cards`` (card types, top card first)."""
        types = _types(cards, "draw_pile")
        over = np.flatnonzero(_counts(types, np.int64) > full_counts(self.decks)).tolist()
        if over:
            raise ValueError(f"the draw pile holds more cards of type {over[0]} than "
                             f"the deck")
        self._draw = types[::-1]

    def set_rng(self, rng: np.random.Generator) -> None:
        """Use ``rng`` for the reshuffles from now on."""
        self._rng, self._snapshot = _generator(rng), None

    @property
    def rng(self) -> np.random.Generator:
        """The generator of the reshuffles. A copy does not copy the generator (that
        costs more than the rest of the copy): it keeps a snapshot of its state and
        builds one from it when first needed, so it draws what the original generator
        would have drawn from the moment of the copy, whatever happens to that one."""
        with self._lock:  # built once, even by two threads at once
            rng = self._rng
            if rng is None:
                assert self._snapshot is not None
                rng = self._rng = _from_snapshot(self._snapshot)
                self._snapshot = None
            return rng

    # -- copies and pickles --

    def _copy_cards(self: _S) -> _S:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._lock = threading.RLock()
        new._hands = self._hands.copy()
        new._draw, new._pile = list(self._draw), list(self._pile)
        new._pile_counts = self._pile_counts.copy()
        new._taken_counts = self._taken_counts.copy()
        new._hidden = self._hidden.copy()
        new._scores = list(self._scores)
        return new

    def copy(self: _S) -> _S:
        """An independent copy, its generator in the same state as this one's."""
        with self._lock:
            new = self._copy_cards()
            new._rng = None
            new._snapshot = self._snapshot if self._rng is None else _snapshot(self._rng)
            return new

    def copy_with(self: _S, rng: np.random.Generator) -> _S:
        """A copy that reshuffles with ``rng`` (shared, not copied)."""
        with self._lock:
            new = self._copy_cards()
        new.set_rng(rng)
        return new

    def copy_at(self: _S, history: list[Any],
                share_rng: bool = False) -> tuple[_S, list[Any]]:
        """``(copy, list(history))`` of one moment, ``history`` being the list that
        :meth:`play` appends this state's events to: what ``Round.clone`` copies. With
        ``share_rng`` the copy reshuffles with this state's own generator (shared, as
        :meth:`copy_with`; for a pickle or a deep copy, which copy it themselves), else
        with a copy of it (as :meth:`copy`).

        Another thread's move is never half seen: it is wholly before the copy or wholly
        after (here the state's lock holds both; the compiled twin's moves are single C
        calls)."""
        if not isinstance(history, list):
            raise TypeError(f"history must be a list, got {type(history).__name__}")
        with self._lock:
            rng = self._rng
            new = self.copy_with(rng) if share_rng and rng is not None else self.copy()
            return new, history[:]

    def __copy__(self: _S) -> _S:
        return self.copy()

    def __deepcopy__(self: _S, memo: dict[int, Any]) -> _S:
        if self._rng is None:
            return self.copy()
        return self.copy_with(_deepcopy_rng(self._rng, memo))
